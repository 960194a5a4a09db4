/* threads.c — sylva__threads_run (threads.h): a fork-join of plain
 * pthreads. Creation failures degrade to running that share on the calling
 * thread; nothing here reports an error.
 */
#include <pthread.h>
#include <stdlib.h>

#include "threads.h"

enum { MAX_THREADS = 1024 };

void sylva__threads_run(int nthreads, void *(*fn)(void *), void *arg, size_t stride)
{
    char *base = arg;
    if (nthreads > MAX_THREADS) nthreads = MAX_THREADS;
    pthread_t tid[MAX_THREADS];
    char made[MAX_THREADS];
    for (int t = 1; t < nthreads; t++) made[t] = !pthread_create(&tid[t], NULL, fn, base + (size_t)t * stride);
    fn(base);
    for (int t = 1; t < nthreads; t++) {
        if (made[t]) pthread_join(tid[t], NULL);
        else fn(base + (size_t)t * stride);
    }
}
