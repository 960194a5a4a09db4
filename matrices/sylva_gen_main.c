/* sylva_gen_main.c — the sylva-gen tool: write a generated SPD matrix as a
 * Matrix Market file.
 *   sylva-gen lap2d5|lap2d9|lap3d7|lap3d27|elast3d NX [NY [NZ]] -o FILE.mtx
 * NY and NZ default to NX. Exit status 0 on success, 1 on a sylva error
 * (message on stderr), 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sylva_gen.h"

static int usage(void)
{
    fprintf(stderr, "usage: sylva-gen lap2d5|lap2d9|lap3d7|lap3d27|elast3d NX [NY [NZ]] -o FILE.mtx\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *kind = NULL, *out = NULL;
    long long dims[3] = {0, 0, 0};
    int nd = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (!kind) {
            kind = argv[i];
        } else if (nd < 3) {
            char *end;
            dims[nd] = strtoll(argv[i], &end, 10);
            if (*end || dims[nd] < 1) return usage();
            nd++;
        } else {
            return usage();
        }
    }
    if (!kind || !out || nd < 1) return usage();
    if (nd < 2) dims[1] = dims[0];
    if (nd < 3) dims[2] = dims[0];
    double t0 = sylva_wtime();
    sylva_matrix *A = NULL;
    int st;
    if (strcmp(kind, "lap2d5") == 0) st = sylva_gen_laplacian(2, 5, dims[0], dims[1], 1, &A);
    else if (strcmp(kind, "lap2d9") == 0) st = sylva_gen_laplacian(2, 9, dims[0], dims[1], 1, &A);
    else if (strcmp(kind, "lap3d7") == 0) st = sylva_gen_laplacian(3, 7, dims[0], dims[1], dims[2], &A);
    else if (strcmp(kind, "lap3d27") == 0) st = sylva_gen_laplacian(3, 27, dims[0], dims[1], dims[2], &A);
    else if (strcmp(kind, "elast3d") == 0) st = sylva_gen_elasticity3d(dims[0], dims[1], dims[2], &A);
    else return usage();
    if (st == SYLVA_OK) st = sylva_gen_write_mtx(out, A);
    if (st != SYLVA_OK) {
        fprintf(stderr, "sylva-gen: %s: %s\n", sylva_status_name(st), sylva_last_error());
        sylva_matrix_free(A);
        return 1;
    }
    fprintf(stderr, "sylva-gen: %s: n = %lld, nnz (lower) = %lld, %.2f s\n", out, (long long)A->n,
            (long long)A->nnz, sylva_wtime() - t0);
    sylva_matrix_free(A);
    return 0;
}
