/* timer.c — the one monotonic clock of sylva (sylva__now; public as
 * sylva_wtime for the CLI and benchmarks). */
#include <time.h>

#include "core.h"

double sylva__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
