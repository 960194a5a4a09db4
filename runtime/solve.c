/* solve.c — the sequential solve and the log-determinant of runtime.h,
 * instantiated from t_solve.c for each precision. */
#include <math.h>

#include "solve.h"
#include "solve_partial.h"

#define SYLVA_DOUBLE
#include "t_solve.c"
#define SYLVA_SINGLE
#include "t_solve.c"
