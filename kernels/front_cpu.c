/* front_cpu.c — the CPU front kernels of front_cpu.h, instantiated from
 * t_front_cpu.c for each precision. */
#include "front_cpu.h"

#include "blas.h"

#define SYLVA_DOUBLE
#include "t_front_cpu.c"
#define SYLVA_SINGLE
#include "t_front_cpu.c"
