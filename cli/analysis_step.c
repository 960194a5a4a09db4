/* analysis_step.c — the analysis both commands start with: made here
 * (sylva_analyze; with --perm, the user's permutation), or loaded from
 * --analysis FILE (sylva_analysis_load, no ordering), then saved to --save
 * FILE when asked. A file that cannot be loaded (missing, truncated,
 * corrupted, another pattern) or a bad permutation is bad input; a save
 * that fails is an output failure (*output_failed). */
#include <stdlib.h>

#include "cli.h"

int cli_analysis_step(const cli_args *a, const sylva_matrix *A, sylva_analysis_t **an,
                      sylva_analysis_info *ai, int *output_failed)
{
    *output_failed = 0;
    int status;
    /* Under mpirun A is rank 0's (NULL elsewhere): rank 0 reads the
     * permutation and writes --save; every rank takes part in the
     * analysis itself. */
    if (a->analysis) {
        status = sylva_analysis_load(a->analysis, A, &a->opts, an, ai);
    } else if (a->perm) {
        int64_t *perm = NULL;
        status = A ? cli_read_perm(a->perm, A->n, &perm) : SYLVA_OK;
        if ((status = cli_agree(status))) return status;
        sylva_options o = a->opts;
        o.user_perm = perm;
        status = sylva_analyze(A, &o, an, ai);
        free(perm);
    } else {
        status = sylva_analyze(A, &a->opts, an, ai);
    }
    if (status || !a->save) return status;
    if (A && (status = sylva_analysis_save(*an, a->save))) *output_failed = 1;
    return cli_agree(status);
}
