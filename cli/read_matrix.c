/* read_matrix.c — the command's matrix: the file (or standard input, "-")
 * read with the --symmetric-both / --symmetrize options, and what the read
 * found (compression, mirrored entries, asymmetry) for the summary, the
 * JSON record and the not-positive-definite hint. */
#include <string.h>

#include "cli.h"

int cli_read_matrix(const cli_args *a, sylva_matrix **A, sylva_read_info *info)
{
    int status = sylva_read_matrix_market_info(a->file, &a->read, A, info);
    if (status) {
        /* The library's hint names the option fields; say the command's options. */
        const char *msg = sylva_last_error();
        if (msg && strstr(msg, "symmetric_both ="))
            return cli_error(status, "%s\n       (the command's option: --symmetric-both sum|lower|average)", msg);
        if (msg && strstr(msg, "symmetrize ="))
            return cli_error(status, "%s\n       (the command's option: --symmetrize lower|upper|average[:TOL])", msg);
        return status;
    }
    if (info->mirrored > 0 && a->opts.verbose)
        fprintf(stderr, "sylva: %s: %lld entries stored in both triangles, combined (--symmetric-both)\n",
                a->file, (long long)info->mirrored);
    if (info->asymmetric > 0 && a->opts.verbose)
        fprintf(stderr, "sylva: %s: %lld entries differed between the triangles (largest relative "
                        "difference %.3g), symmetrized\n",
                a->file, (long long)info->asymmetric, info->max_asymmetry);
    return SYLVA_OK;
}
