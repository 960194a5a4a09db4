/* residual_cpu.c — the refinement residual of residual_cpu.h, instantiated
 * from t_residual_cpu.c for double and float vectors. */
#include "residual_cpu.h"

#define SYLVA_DOUBLE
#include "t_residual_cpu.c"
#define SYLVA_SINGLE
#include "t_residual_cpu.c"
