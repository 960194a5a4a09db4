/* init.c — sylva_init and sylva_finalize: check the runtime options
 * (options_check.c), start and stop the runtime. */
#include "api.h"

int sylva_init(const sylva_options *opts)
{
    sylva__clear_error();
    sylva_options def;
    if (!opts) {
        sylva_default_options(&def);
        opts = &def;
    }
    int status = sylva__options_check_init(opts);
    return status ? status : sylva__runtime_start(opts);
}

int sylva_finalize(void)
{
    sylva__runtime_stop();
    return SYLVA_OK;
}

int sylva_gpu_count(void) { return sylva__runtime_gpus(); }

const char *sylva_gpu_name(void) { return sylva__runtime_gpu_name(); }
