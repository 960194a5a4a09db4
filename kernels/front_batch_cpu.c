/* front_batch_cpu.c — the CPU twins of front_batch_cpu.h, instantiated from
 * t_front_batch_cpu.c for double. */
#include "front_batch_cpu.h"

#include "blas.h"
#include "front_cpu.h"

#define SYLVA_DOUBLE
#include "t_front_batch_cpu.c"
