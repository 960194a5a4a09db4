/* sylva_gen.c — grid Laplacians (2D 5/9-point, 3D 7/27-point, Dirichlet) as
 * lower CSC, built column by column in one counting pass and one filling
 * pass (rows come out sorted: stencil offsets are visited in increasing
 * index order). Fails with SYLVA_ERR_ARGUMENT (bad dim/points/sizes, n
 * overflow) or SYLVA_ERR_NO_MEMORY. Also the nnz formulas. */
#include <string.h>
#include "gen_internal.h"

#include <stdlib.h>

int sylva__gen_stencil(int dim, int points, sylva__gen_offset *offs)
{
    int k = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int l1 = abs(dx) + abs(dy) + abs(dz);
                int positive = dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
                if (!positive) continue;
                int keep = (dim == 2 && points == 5 && dz == 0 && l1 == 1) ||
                           (dim == 2 && points == 9 && dz == 0) ||
                           (dim == 3 && points == 7 && l1 == 1) || (dim == 3 && points == 27);
                if (keep) offs[k++] = (sylva__gen_offset){dx, dy, dz};
            }
    return k;
}

int sylva__gen_check_grid(const char *who, int64_t nx, int64_t ny, int64_t nz, int64_t per_node,
                          int64_t *nodes)
{
    if (nx < 1 || ny < 1 || nz < 1)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: grid %lld x %lld x %lld: sizes must be >= 1", who,
                           (long long)nx, (long long)ny, (long long)nz);
    const int64_t lim = INT64_MAX / 64 / per_node;
    if (nx > lim / ny || nx * ny > lim / nz)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: grid %lld x %lld x %lld is too large", who,
                           (long long)nx, (long long)ny, (long long)nz);
    *nodes = nx * ny * nz;
    return SYLVA_OK;
}

int64_t sylva__gen_pairs(const sylva__gen_offset *offs, int noffs, int64_t nx, int64_t ny, int64_t nz)
{
    int64_t pairs = 0;
    for (int k = 0; k < noffs; k++) {
        int64_t a = nx - abs(offs[k].dx), b = ny - abs(offs[k].dy), c = nz - abs(offs[k].dz);
        if (a > 0 && b > 0 && c > 0) pairs += a * b * c;
    }
    return pairs;
}

static int valid_kind(int dim, int points)
{
    return (dim == 2 && (points == 5 || points == 9)) || (dim == 3 && (points == 7 || points == 27));
}

int64_t sylva_gen_laplacian_nnz(int dim, int points, int64_t nx, int64_t ny, int64_t nz)
{
    if (!valid_kind(dim, points)) return -1;
    if (dim == 2) nz = 1;
    int64_t nodes;
    if (sylva__gen_check_grid("sylva_gen_laplacian_nnz", nx, ny, nz, 1, &nodes) != SYLVA_OK) return -1;
    sylva__gen_offset offs[13];
    int no = sylva__gen_stencil(dim, points, offs);
    return nodes + sylva__gen_pairs(offs, no, nx, ny, nz);
}

int sylva_gen_laplacian(int dim, int points, int64_t nx, int64_t ny, int64_t nz, sylva_matrix **A)
{
    const char *who = "sylva_gen_laplacian";
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: A is NULL", who);
    *A = NULL;
    if (!valid_kind(dim, points))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: no %d-point stencil in %dD (2D: 5 or 9, 3D: 7 or 27)", who, points,
                           dim);
    if (dim == 2) nz = 1;
    int64_t n;
    int st = sylva__gen_check_grid(who, nx, ny, nz, 1, &n);
    if (st != SYLVA_OK) return st;
    sylva__gen_offset offs[13];
    int no = sylva__gen_stencil(dim, points, offs);
    int64_t nnz = n + sylva__gen_pairs(offs, no, nx, ny, nz);
    sylva_matrix *M = sylva__gen_matrix(n, nnz);
    if (!M) return SYLVA_ERR_NO_MEMORY;
    double diag = (double)(2 * no); /* 4, 8, 6, 26: one per neighbour */
    double *val = M->values;
    int64_t p = 0;
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t c = x + nx * (y + ny * z);
                M->colptr[c] = p;
                M->rowind[p] = c;
                val[p++] = diag;
                for (int k = 0; k < no; k++) {
                    int64_t qx = x + offs[k].dx, qy = y + offs[k].dy, qz = z + offs[k].dz;
                    if (qx < 0 || qx >= nx || qy < 0 || qy >= ny || qz >= nz) continue;
                    M->rowind[p] = qx + nx * (qy + ny * qz);
                    val[p++] = -1.0;
                }
            }
    M->colptr[n] = p;
    *A = M;
    return SYLVA_OK;
}

sylva_matrix *sylva__gen_matrix(int64_t n, int64_t nnz)
{
    sylva_matrix *M = sylva__calloc(1, sizeof *M);
    if (!M) return NULL;
    M->n = n;
    M->nnz = nnz;
    M->owns_arrays = 1;
    M->colptr = sylva__malloc((size_t)n + 1, sizeof(int64_t));
    M->rowind = sylva__malloc((size_t)nnz, sizeof(int64_t));
    M->values = sylva__malloc((size_t)nnz, sizeof(double));
    if (!M->colptr || !M->rowind || !M->values) {
        sylva_matrix_free(M);
        sylva__fail(SYLVA_ERR_NO_MEMORY, "sylva_gen: out of memory for n = %lld, nnz = %lld",
                    (long long)n, (long long)nnz);
        return NULL;
    }
    return M;
}

int sylva_gen_from_spec(const char *spec, sylva_matrix **A)
{
    static const struct {
        const char *name;
        int dim, points;
    } lap[] = {{"lap2d5", 2, 5}, {"lap2d9", 2, 9}, {"lap3d7", 3, 7}, {"lap3d27", 3, 27}};
    const char *colon = strchr(spec, ':');
    if (colon) {
        long long nx = atoll(colon + 1);
        size_t len = (size_t)(colon - spec);
        for (size_t i = 0; i < sizeof lap / sizeof lap[0]; i++)
            if (strlen(lap[i].name) == len && !strncmp(spec, lap[i].name, len))
                return sylva_gen_laplacian(lap[i].dim, lap[i].points, nx, nx, nx, A);
        if (len == 7 && !strncmp(spec, "elast3d", 7)) return sylva_gen_elasticity3d(nx, nx, nx, A);
    }
    return sylva_read_matrix_market(spec, A);
}
