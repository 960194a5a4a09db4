/* analysis_step.c — the analysis both commands start with: made here
 * (sylva_analyze) or loaded from --analysis FILE (sylva_analysis_load, no
 * ordering), then saved to --save FILE when asked. A file that cannot be
 * loaded (missing, truncated, corrupted, another pattern) is bad input;
 * one that cannot be saved is an output failure (*output_failed). */
#include "cli.h"

int cli_analysis_step(const cli_args *a, const sylva_matrix *A, sylva_analysis_t **an,
                      sylva_analysis_info *ai, int *output_failed)
{
    *output_failed = 0;
    int status = a->analysis ? sylva_analysis_load(a->analysis, A, &a->opts, an, ai)
                             : sylva_analyze(A, &a->opts, an, ai);
    if (!status && a->save && (status = sylva_analysis_save(*an, a->save))) *output_failed = 1;
    return status;
}
