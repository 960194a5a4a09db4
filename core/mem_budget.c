/* mem_budget.c — how many bytes this process may still fill before the
 * kernel kills it: the least of MemAvailable + SwapFree (/proc/meminfo), the
 * cgroup v2 limit less its usage, and RLIMIT_AS less the address space in
 * use; SYLVA_MEMORY_LIMIT (bytes, suffix K, M, G or T) replaces all three.
 * Under overcommit a huge malloc succeeds and the process dies when it
 * touches the pages, so code about to fill arrays sized by its input (the
 * readers' O(n) arrays) asks first and fails with SYLVA_ERR_NO_MEMORY at
 * once. What cannot be read counts as no limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core.h"

/* "123", "4K", "512M", "2G", "1T" (powers of 1024); -1 when not a size. */
static double parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0)) return -1;
    switch (*end) {
    case 'k':
    case 'K':
        v *= 1024.0;
        end++;
        break;
    case 'm':
    case 'M':
        v *= 1048576.0;
        end++;
        break;
    case 'g':
    case 'G':
        v *= 1073741824.0;
        end++;
        break;
    case 't':
    case 'T':
        v *= 1099511627776.0;
        end++;
        break;
    default: break;
    }
    return *end == '\0' ? v : -1;
}

/* The value of "key:" in a /proc or /sys file of "key: value [kB]" lines,
 * in bytes (kB converted), or -1. */
static double proc_field(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    double v = -1;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char unit[8] = "";
        if (sscanf(line + klen, "%lf %7s", &v, unit) >= 1 && !strcmp(unit, "kB")) v *= 1024.0;
        break;
    }
    fclose(f);
    return v;
}

/* A file holding one number (or "max"), -1 when absent or "max". */
static double file_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    double v = -1;
    if (fscanf(f, "%lf", &v) != 1) v = -1;
    fclose(f);
    return v;
}

double sylva__memory_available(void)
{
    const char *env = getenv("SYLVA_MEMORY_LIMIT");
    if (env && *env) {
        double v = parse_size(env);
        if (v >= 0) return v;
    }
    double avail = 1e30;
    double mem = proc_field("/proc/meminfo", "MemAvailable:");
    double swap = proc_field("/proc/meminfo", "SwapFree:");
    if (mem >= 0) avail = mem + (swap > 0 ? swap : 0);
    double cg_max = file_number("/sys/fs/cgroup/memory.max");
    double cg_cur = file_number("/sys/fs/cgroup/memory.current");
    if (cg_max >= 0 && cg_cur >= 0 && cg_max - cg_cur < avail)
        avail = cg_max > cg_cur ? cg_max - cg_cur : 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double vm = proc_field("/proc/self/status", "VmSize:");
        double left = (double)rl.rlim_cur - (vm > 0 ? vm : 0);
        if (left < avail) avail = left > 0 ? left : 0;
    }
    return avail;
}

int sylva__memory_check(double bytes, const char *who, const char *what)
{
    double avail = sylva__memory_available();
    if (bytes <= avail) return SYLVA_OK;
    return sylva__fail(SYLVA_ERR_NO_MEMORY,
                       "%s: out of memory: %s needs %.3g GB, %.3g GB are available (free memory "
                       "and swap, cgroup and address-space limits, or SYLVA_MEMORY_LIMIT)",
                       who, what, bytes / 1e9, avail / 1e9);
}
