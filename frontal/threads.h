/* threads.h — the one way frontal/ runs work on several threads (outside
 * StarPU, whose workers are paused during the analysis): fn(arg + t·stride)
 * for t = 0 .. nthreads − 1, t = 0 on the calling thread; returns when all
 * are done. A thread that cannot be created has its share run on the
 * calling thread instead, so the call itself cannot fail.
 */
#ifndef SYLVA_FRONTAL_THREADS_H
#define SYLVA_FRONTAL_THREADS_H

#include <stddef.h>

void sylva__threads_run(int nthreads, void *(*fn)(void *), void *arg, size_t stride);

#endif
