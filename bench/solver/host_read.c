/* host_read.c — the host's memory read rate, the ceiling of a one-column
 * CPU solve (each sweep reads L once, docs/perf-log.md "The solve, v26"):
 * T threads (1, 2, 4, ... up to the cores, or the counts given) each sum
 * its slice of one array of MIB MiB of doubles (default 2048, far past the
 * caches), best of 5 passes; one line per count and, with --json F, the
 * same as JSON [{"threads": T, "gb_per_s": R}, ...].
 *   host-read [--mib MIB] [--json F] [T ...]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct slice {
    const double *a;
    size_t n;
    double sum; /* kept, so that the reads are not optimized away */
} slice;

static void *read_slice(void *p)
{
    slice *s = p;
    double acc[4] = {0, 0, 0, 0};
    for (size_t i = 0; i + 3 < s->n; i += 4)
        for (int j = 0; j < 4; j++) acc[j] += s->a[i + j];
    s->sum = acc[0] + acc[1] + acc[2] + acc[3];
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Best of 5 passes with t threads, GB/s. */
static double rate(const double *a, size_t n, int t)
{
    pthread_t th[256];
    slice sl[256];
    double best = 0, total = 0;
    for (int pass = 0; pass < 5; pass++) {
        double t0 = now();
        for (int i = 0; i < t; i++) {
            size_t lo = n / (size_t)t * (size_t)i,
                   hi = i + 1 == t ? n : n / (size_t)t * (size_t)(i + 1);
            sl[i] = (slice){.a = a + lo, .n = hi - lo};
            if (pthread_create(&th[i], NULL, read_slice, &sl[i])) {
                while (i-- > 0) pthread_join(th[i], NULL);
                return -1;
            }
        }
        for (int i = 0; i < t; i++) {
            pthread_join(th[i], NULL);
            total += sl[i].sum;
        }
        double r = 8.0 * (double)n / (now() - t0) / 1e9;
        if (r > best) best = r;
    }
    if (total == 42.0) printf("(sum %g)\n", total);
    return best;
}

int main(int argc, char **argv)
{
    size_t mib = 2048;
    const char *json = NULL;
    int counts[64], nc = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mib") && i + 1 < argc)
            mib = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (argv[i][0] != '-' && nc < 64 && atoi(argv[i]) >= 1 && atoi(argv[i]) <= 256)
            counts[nc++] = atoi(argv[i]);
        else {
            fprintf(stderr, "usage: host-read [--mib MIB] [--json F] [THREADS ...] (1..256)\n");
            return 2;
        }
    }
    if (nc == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        for (int t = 1; t <= cores && t <= 256 && nc < 64; t *= 2) counts[nc++] = t;
        if (cores > 1 && cores <= 256 && counts[nc - 1] != cores) counts[nc++] = (int)cores;
    }
    size_t n = mib << 17; /* doubles */
    double *a = malloc(n * sizeof *a);
    if (!a) {
        fprintf(stderr, "host-read: cannot allocate %zu MiB\n", mib);
        return 1;
    }
    for (size_t i = 0; i < n; i++) a[i] = (double)(i & 1023); /* touched: the pages exist */
    FILE *f = json ? fopen(json, "w") : NULL;
    if (json && !f) {
        fprintf(stderr, "host-read: cannot write %s\n", json);
        free(a);
        return 1;
    }
    if (f) fprintf(f, "[");
    for (int c = 0; c < nc; c++) {
        double r = rate(a, n, counts[c]);
        printf("host-read: %3d threads %7.1f GB/s (%zu MiB, best of 5)\n", counts[c], r, mib);
        if (f) fprintf(f, "%s{\"threads\": %d, \"gb_per_s\": %.3f}", c ? ", " : "", counts[c], r);
    }
    if (f) {
        fprintf(f, "]\n");
        fclose(f);
    }
    free(a);
    return 0;
}
