/* solve_partial.c — the solve in parts of runtime.h
 * (sylva__numeric_solve_system): L brought to the host, then
 * t_solve_partial.c, instantiated here for each precision. */
#include <stdlib.h>
#include <string.h>

#include "front_cpu.h"
#include "runtime_internal.h"
#include "solve_partial.h"

#define SYLVA_DOUBLE
#include "t_solve_partial.c"
#define SYLVA_SINGLE
#include "t_solve_partial.c"

int sylva__numeric_solve_system(sylva__numeric *N, sylva_system sys, int64_t nrhs, void *B,
                                int64_t ldb)
{
    double s;
    int status = sys == SYLVA_SYS_P || sys == SYLVA_SYS_PT ? SYLVA_OK : sylva__numeric_to_host(N, &s);
    if (status) return status;
    if (N->precision == SYLVA_FLOAT32) return sylva__s_solve_partial(N->plan, N->values, sys, nrhs, B, ldb);
    return sylva__d_solve_partial(N->plan, N->values, sys, nrhs, B, ldb);
}
