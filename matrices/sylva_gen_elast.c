/* sylva_gen_elast.c — 3D linear elasticity stiffness matrix, an actual Q1
 * finite-element assembly: the 24 × 24 element matrix of the unit cube
 * (λ = μ = 1, 2×2×2 Gauss, exact for these polynomials) is summed over the 8
 * elements around a node into 27 constant 3 × 3 coupling blocks; clamping
 * the outer layer of nodes leaves that stencil on the nx × ny × nz interior
 * nodes, so the matrix is the SPD Dirichlet stiffness matrix. Scaled by 36
 * and rounded: every entry is then an exact integer. Fails like the
 * Laplacian generator. */
#include "gen_internal.h"

#include <math.h>
#include <string.h>

static void element_matrix(double lam, double mu, double K[24][24])
{
    memset(K, 0, sizeof(double) * 24 * 24);
    const double g[2] = {0.5 - 0.5 / sqrt(3.0), 0.5 + 0.5 / sqrt(3.0)};
    for (int gp = 0; gp < 8; gp++) {
        double x[3] = {g[gp & 1], g[(gp >> 1) & 1], g[(gp >> 2) & 1]};
        double dN[8][3];
        for (int i = 0; i < 8; i++) {
            int c[3] = {i & 1, (i >> 1) & 1, (i >> 2) & 1};
            for (int k = 0; k < 3; k++) {
                double d = c[k] ? 1.0 : -1.0;
                for (int l = 0; l < 3; l++)
                    if (l != k) d *= c[l] ? x[l] : 1.0 - x[l];
                dN[i][k] = d;
            }
        }
        /* Strain (Voigt): exx, eyy, ezz, gxy, gyz, gxz. */
        double B[6][24];
        memset(B, 0, sizeof B);
        for (int i = 0; i < 8; i++) {
            B[0][3 * i] = dN[i][0];
            B[1][3 * i + 1] = dN[i][1];
            B[2][3 * i + 2] = dN[i][2];
            B[3][3 * i] = dN[i][1];
            B[3][3 * i + 1] = dN[i][0];
            B[4][3 * i + 1] = dN[i][2];
            B[4][3 * i + 2] = dN[i][1];
            B[5][3 * i] = dN[i][2];
            B[5][3 * i + 2] = dN[i][0];
        }
        double D[6][6];
        memset(D, 0, sizeof D);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) D[a][b] = lam;
        for (int a = 0; a < 3; a++) D[a][a] += 2.0 * mu;
        for (int a = 3; a < 6; a++) D[a][a] = mu;
        for (int r = 0; r < 24; r++)
            for (int s = 0; s < 24; s++) {
                double v = 0.0;
                for (int a = 0; a < 6; a++)
                    for (int b = 0; b < 6; b++) v += B[a][r] * D[a][b] * B[b][s];
                K[r][s] += v / 8.0; /* Gauss weight (1/2)^3 on the unit cube */
            }
    }
}

/* blk[d][a][b] = A(3p + a, 3(p + d) + b), d = (dx+1) + 3 (dy+1) + 9 (dz+1). */
static void node_blocks(double blk[27][3][3])
{
    double K[24][24];
    element_matrix(1.0, 1.0, K);
    memset(blk, 0, sizeof(double) * 27 * 9);
    for (int d = 0; d < 27; d++) {
        int dd[3] = {d % 3 - 1, (d / 3) % 3 - 1, d / 9 - 1};
        for (int e = 0; e < 8; e++) { /* elements with p as local node e */
            int lp[3] = {e & 1, (e >> 1) & 1, (e >> 2) & 1}, lq[3], inside = 1;
            for (int k = 0; k < 3; k++) {
                lq[k] = lp[k] + dd[k];
                if (lq[k] < 0 || lq[k] > 1) inside = 0;
            }
            if (!inside) continue;
            int ip = lp[0] + 2 * lp[1] + 4 * lp[2], iq = lq[0] + 2 * lq[1] + 4 * lq[2];
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) blk[d][a][b] += K[3 * ip + a][3 * iq + b];
        }
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) blk[d][a][b] = round(36.0 * blk[d][a][b]) + 0.0; /* no -0 */
    }
}

int64_t sylva_gen_elasticity3d_nnz(int64_t nx, int64_t ny, int64_t nz)
{
    int64_t nodes;
    if (sylva__gen_check_grid("sylva_gen_elasticity3d_nnz", nx, ny, nz, 3, &nodes) != SYLVA_OK)
        return -1;
    sylva__gen_offset offs[13];
    int no = sylva__gen_stencil(3, 27, offs);
    return 6 * nodes + 9 * sylva__gen_pairs(offs, no, nx, ny, nz);
}

int sylva_gen_elasticity3d(int64_t nx, int64_t ny, int64_t nz, sylva_matrix **A)
{
    const char *who = "sylva_gen_elasticity3d";
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: A is NULL", who);
    *A = NULL;
    int64_t nodes;
    int st = sylva__gen_check_grid(who, nx, ny, nz, 3, &nodes);
    if (st != SYLVA_OK) return st;
    sylva__gen_offset offs[13];
    int no = sylva__gen_stencil(3, 27, offs);
    int64_t n = 3 * nodes, nnz = 6 * nodes + 9 * sylva__gen_pairs(offs, no, nx, ny, nz);
    sylva_matrix *M = sylva__gen_matrix(n, nnz);
    if (!M) return SYLVA_ERR_NO_MEMORY;
    double blk[27][3][3];
    node_blocks(blk);
    double *val = M->values;
    int64_t p = 0;
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t node = x + nx * (y + ny * z);
                for (int b = 0; b < 3; b++) {
                    int64_t c = 3 * node + b;
                    M->colptr[c] = p;
                    for (int a = b; a < 3; a++) { /* diagonal block, lower part */
                        M->rowind[p] = 3 * node + a;
                        val[p++] = blk[13][a][b];
                    }
                    for (int k = 0; k < no; k++) {
                        int64_t qx = x + offs[k].dx, qy = y + offs[k].dy, qz = z + offs[k].dz;
                        if (qx < 0 || qx >= nx || qy < 0 || qy >= ny || qz >= nz) continue;
                        int64_t q = qx + nx * (qy + ny * qz);
                        /* A(3q + a, 3p + b) is blk at offset -d, entry (a, b). */
                        int dneg = (1 - offs[k].dx) + 3 * (1 - offs[k].dy) + 9 * (1 - offs[k].dz);
                        for (int a = 0; a < 3; a++) {
                            M->rowind[p] = 3 * q + a;
                            val[p++] = blk[dneg][a][b];
                        }
                    }
                }
            }
    M->colptr[n] = p;
    *A = M;
    return SYLVA_OK;
}
