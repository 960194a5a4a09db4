/* codelet_tiles.c — the four dense tile codelets of a tiled (native) front:
 * POTRF, TRSM, SYRK and GEMM on tiles of a front's pivot block P and
 * contribution block C. One concept — the tile kernels of a right-looking
 * Cholesky — so they share a file; the CPU twins are t_tiles_cpu.c,
 * instantiated here per precision. Every task's cl_arg is a sylva__tile_args
 * (the POTRF's also names the front's status slot).
 */
#include "blas.h"
#include "runtime_internal.h"

#define SYLVA_DOUBLE
#include "t_tiles_cpu.c"
#define SYLVA_SINGLE
#include "t_tiles_cpu.c"

static int single(const void *cl_arg)
{
    return ((const sylva__tile_args *)cl_arg)->precision == SYLVA_FLOAT32;
}

static void potrf_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_potrf_cpu(buffers, cl_arg);
    else sylva__d_tile_potrf_cpu(buffers, cl_arg);
}
static void trsm_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_trsm_cpu(buffers);
    else sylva__d_tile_trsm_cpu(buffers);
}
static void syrk_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_syrk_cpu(buffers);
    else sylva__d_tile_syrk_cpu(buffers);
}
static void gemm_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_gemm_cpu(buffers);
    else sylva__d_tile_gemm_cpu(buffers);
}

/* History-based models keyed by tile shape (StarPU's default footprint). */
static struct starpu_perfmodel potrf_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_potrf"};
static struct starpu_perfmodel trsm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_trsm"};
static struct starpu_perfmodel syrk_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_syrk"};
static struct starpu_perfmodel gemm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_gemm"};

struct starpu_codelet sylva__tile_potrf_codelet = {
    .cpu_funcs = {potrf_cpu}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &potrf_model,
    .name = "tile_potrf"};
struct starpu_codelet sylva__tile_trsm_codelet = {
    .cpu_funcs = {trsm_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .model = &trsm_model,
    .name = "tile_trsm"};
struct starpu_codelet sylva__tile_syrk_codelet = {
    .cpu_funcs = {syrk_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .model = &syrk_model,
    .name = "tile_syrk"};
struct starpu_codelet sylva__tile_gemm_codelet = {
    .cpu_funcs = {gemm_cpu}, .nbuffers = 3, .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &gemm_model, .name = "tile_gemm"};
