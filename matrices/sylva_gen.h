/* sylva_gen.h — test-matrix generators (library sylva_gen, CMake target
 * `sylva_gen`; link it with sylva_static). Every generator returns a new SPD
 * sylva_matrix (lower CSC, sorted, exact integer values) or a negative
 * sylva_status with sylva_last_error() set; free with sylva_matrix_free.
 * Unknowns are numbered x fastest: node (x, y, z) is x + nx (y + ny z). */
#ifndef SYLVA_GEN_H
#define SYLVA_GEN_H

#include <stdint.h>

#include "sylva.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Grid Laplacian with Dirichlet boundary (neighbours outside the grid are
 * dropped, the diagonal is kept). dim 2: points 5 (4, -1) or 9 (8, -1);
 * dim 3: points 7 (6, -1) or 27 (26, -1); nz is ignored for dim 2.
 * SPD: A = c I - (0/1 neighbour graph); for 5/7 points the classic result,
 * for 9/27 points A = 9 I - T⊗T (27 I - T⊗T⊗T) with T = tridiag(1,1,1),
 * whose eigenvalues 1 + 2 cos(kπ/(m+1)) lie in (-1, 3), so A's lie in (0, 18)
 * (0, 54). */
int sylva_gen_laplacian(int dim, int points, int64_t nx, int64_t ny, int64_t nz, sylva_matrix **A);

/* 3D linear elasticity: trilinear (Q1) hexahedra on a unit-spaced grid,
 * Lamé λ = μ = 1, nx × ny × nz interior nodes of 3 unknowns (u, v, w per
 * node, node-major), all nodes of the surrounding layer clamped (Dirichlet),
 * so A is the SPD stiffness matrix (Korn). Exact 2×2×2 Gauss quadrature;
 * every entry is a multiple of 1/36 and the matrix is scaled by 36 to be
 * integer. Every node couples with its 26 neighbours through a full 3 × 3
 * block (structural zeros inside blocks are stored): lower nnz =
 * 6 N + 9 P, N nodes, P neighbour pairs of the 27-point stencil. */
int sylva_gen_elasticity3d(int64_t nx, int64_t ny, int64_t nz, sylva_matrix **A);

/* A matrix from a spec: "lap2d5:N", "lap2d9:N", "lap3d7:N", "lap3d27:N",
 * "elast3d:N" (N per side: a square or a cube), or else a Matrix Market
 * path read with sylva_read_matrix_market. For tests and benchmarks. */
int sylva_gen_from_spec(const char *spec, sylva_matrix **A);

/* Write A as Matrix Market 'coordinate real symmetric' (or 'pattern' when
 * A->values is NULL), lower triangle, 1-based, column by column. Integral
 * values are printed as integers, others with %.17g (exact round trip). */
int sylva_gen_write_mtx(const char *path, const sylva_matrix *A);

/* Entries of the lower triangle of the lap/elasticity matrices, computed by
 * formula (for tests and for sizing files). Returns -1 for bad arguments. */
int64_t sylva_gen_laplacian_nnz(int dim, int points, int64_t nx, int64_t ny, int64_t nz);
int64_t sylva_gen_elasticity3d_nnz(int64_t nx, int64_t ny, int64_t nz);

#ifdef __cplusplus
}
#endif
#endif
