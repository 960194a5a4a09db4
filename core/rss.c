/* rss.c — the process's resident memory: now (/proc/self/statm, Linux) and
 * its peak so far (getrusage's ru_maxrss, the high-water mark the kernel
 * keeps). What the analysis' memory prediction starts from and what the
 * factorization reports. Cannot fail: what cannot be read is 0. */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core.h"

double sylva__rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long long size = 0, resident = 0;
    int got = fscanf(f, "%lld %lld", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return got == 2 && page > 0 ? (double)resident * (double)page : 0;
}

double sylva__peak_rss_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (double)ru.ru_maxrss * 1024.0; /* kilobytes on Linux */
}
