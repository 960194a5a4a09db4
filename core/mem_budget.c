/* mem_budget.c — how many bytes this process may still fill before the
 * kernel kills it: the least of MemAvailable + SwapFree (/proc/meminfo), the
 * limit less the usage of the process's own memory cgroup and of each of
 * its ancestors (cgroup v2 memory.max/memory.current, v1
 * memory.limit_in_bytes/memory.usage_in_bytes; the group from
 * /proc/self/cgroup, where the hierarchy is mounted from
 * /proc/self/mountinfo), RLIMIT_AS less the address space in use and
 * RLIMIT_DATA less the data segment; SYLVA_MEMORY_LIMIT (bytes, suffix K,
 * M, G or T) replaces them all. SYLVA__TEST_ROOT (tests only) is prepended
 * to the cgroup paths read, so a test can build a fake hierarchy.
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

/* The test hook's root prefixed to path, into buf. */
static const char *rooted(char *buf, size_t cap, const char *path)
{
    const char *root = getenv("SYLVA__TEST_ROOT");
    snprintf(buf, cap, "%s%s", root ? root : "", path);
    return buf;
}

/* Where the hierarchy this process's memory cgroup belongs to is mounted
 * (v2: the cgroup2 mount; v1: the cgroup mount with the memory
 * controller), and the group's path under it; 0 when none is found. */
static int own_cgroup(int v2, char *mnt, char *rel, size_t cap)
{
    char buf[4096], path[4096] = "", line[4096];
    FILE *f = fopen(rooted(buf, sizeof buf, "/proc/self/cgroup"), "r");
    if (!f) return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c1 = *c2 = '\0'; /* line: the hierarchy's number */
        const char *controllers = c1 + 1;
        if (v2 ? (!strcmp(line, "0") && !*controllers) : strstr(controllers, "memory") != NULL) {
            snprintf(path, sizeof path, "%s", c2 + 1);
            found = 1;
        }
    }
    fclose(f);
    if (!found) return 0;
    f = fopen(rooted(buf, sizeof buf, "/proc/self/mountinfo"), "r");
    if (!f) return 0;
    found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT MOUNT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
        char root[1024], mount[1024], type[64], super[1024];
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", root, mount) != 2 ||
            sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2)
            continue;
        if (v2 ? strcmp(type, "cgroup2") != 0 : strcmp(type, "cgroup") != 0 || !strstr(super, "memory")) continue;
        /* A group path under a mount whose root is not the hierarchy's (a
         * container without a cgroup namespace) is taken relative to it. */
        size_t rl = strlen(root);
        const char *rest = strcmp(root, "/") && !strncmp(path, root, rl) ? path + rl : path;
        snprintf(mnt, cap, "%s", mount);
        snprintf(rel, cap, "%s", strcmp(rest, "/") ? rest : "");
        found = 1;
    }
    fclose(f);
    return found;
}

/* The least limit − usage of the group mnt/rel and of its ancestors up to
 * the hierarchy's root (mnt), or 1e30 when none is set. */
static double cgroup_room(const char *mnt, char *rel, const char *limit_file, const char *usage_file)
{
    char buf[8300], p[8200];
    double room = 1e30;
    for (;;) {
        snprintf(p, sizeof p, "%s%s/%s", mnt, rel, limit_file);
        double max = file_number(rooted(buf, sizeof buf, p));
        snprintf(p, sizeof p, "%s%s/%s", mnt, rel, usage_file);
        double cur = file_number(rooted(buf, sizeof buf, p));
        /* v1 says "no limit" with a number near 2^63 */
        if (max >= 0 && max < 4.6e18 && cur >= 0 && max - cur < room) room = max > cur ? max - cur : 0;
        char *slash = strrchr(rel, '/');
        if (!slash) break;
        *slash = '\0';
    }
    return room;
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
    char mnt[4096], rel[4096];
    if (own_cgroup(1, mnt, rel, sizeof mnt)) {
        double room = cgroup_room(mnt, rel, "memory.max", "memory.current");
        if (room < avail) avail = room;
    }
    if (own_cgroup(0, mnt, rel, sizeof mnt)) {
        double room = cgroup_room(mnt, rel, "memory.limit_in_bytes", "memory.usage_in_bytes");
        if (room < avail) avail = room;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double vm = proc_field("/proc/self/status", "VmSize:");
        double left = (double)rl.rlim_cur - (vm > 0 ? vm : 0);
        if (left < avail) avail = left > 0 ? left : 0;
    }
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double data = proc_field("/proc/self/status", "VmData:");
        double left = (double)rl.rlim_cur - (data > 0 ? data : 0);
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
