/* main.c — the `sylva` command: argument parsing, help, version, and
 * dispatch to the subcommands (factor, analyze). Usage errors exit 2 with a
 * message naming the bad argument: numbers must be whole and within their
 * option's range (no silent truncation), `--` ends the options. The policy
 * names in the help and in the errors come from the library's registry
 * (sylva_policy_name). Writing past a file-size limit is an I/O error the
 * command reports (SIGXFSZ ignored), not a signal that kills it. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_head[] =
    "usage: sylva factor FILE [--rhs FILE] [-o FILE] [--ordering NAME]\n"
    "                    [--policy NAME] [--threads N] [--json FILE] [--repeat N]\n"
    "                    [--precision double|single] [--small-rows N] [--tile-rows N]\n"
    "                    [--batch-flops F] [--scheduler NAME] [--gpus N]\n"
    "                    [--mode auto|gpu|hybrid|cpu] [--device-memory BYTES] [-v]\n"
    "                    [--analysis FILE] [--save FILE] [--progress | -q]\n"
    "       sylva analyze FILE [--ordering ...] [--policy NAME] [--json FILE] [--batches FILE]\n"
    "                    [--analysis FILE] [--save FILE] [--progress | -q]\n"
    "       sylva --help | --version\n"
    "       (-- ends the options: sylva factor -- -A.mtx)\n"
    "\n"
    "factor: read a Matrix Market SPD matrix, analyze, factor (Cholesky, multifrontal,\n"
    "        on StarPU workers), solve A x = b and report the backward error\n"
    "        |b - A x|inf / (|A|inf |x|inf + |b|inf). Without --rhs, b = A * ones.\n"
    "analyze: ordering, supernodal fronts and the batching plan only.\n"
    "\n"
    "  --rhs FILE        right-hand sides, Matrix Market array (n x nrhs)\n"
    "  -o FILE           write the solution (Matrix Market array)\n"
    "  --ordering NAME   auto (default: nd-parallel on several threads, else metis),\n"
    "                    metis, nd-parallel, scotch, amd, natural\n"
    "  --policy NAME     batching policy (default subtree):\n";
static const char usage_tail[] =
    "  --threads N       StarPU CPU workers and analysis threads (default: all cores)\n"
    "  --gpus N          GPUs to use (default: all; 0: CPU only)\n"
    "  --mode M          auto (GPUs when there are, default), gpu, hybrid (GPUs and CPU\n"
    "                    workers, placed by StarPU's perfmodels), cpu\n"
    "  --device-memory B bytes of device memory each GPU may use (suffix K, M, G)\n"
    "  --precision P     double (default) or single: the factorization's precision\n"
    "  --json FILE       write a JSON summary\n"
    "  --batches FILE    write the batching plan, one JSON row per batch\n"
    "  --repeat N        factor N times (refactorization after the first), report the best\n"
    "  --small-rows N    fronts with more rows are factored alone (default 256)\n"
    "  --tile-rows N     tile size of those large fronts' tile tasks (0: one task)\n"
    "  --batch-flops F   flops per batch task (default: automatic)\n"
    "  --save FILE       write the analysis (permutation, settings, pattern fingerprint)\n"
    "  --analysis FILE   reuse a saved analysis: no ordering (refused for another pattern)\n"
    "  --progress        show the progress line even when stderr is not a terminal\n"
    "  -q, --quiet       no progress line and no summary (errors still on stderr)\n"
    "\n"
    "exit codes: 0 ok, 1 bad input, 2 usage, 3 not positive definite, 4 runtime failure\n"
    "(or, for factor, a backward error above 1e-12 in double, 1e-5 in single precision)\n";

static void print_usage(FILE *f)
{
    fputs(usage_head, f);
    for (int i = 0; sylva_policy_name(i); i++)
        fprintf(f, "                      %-8s %s\n", sylva_policy_name(i), sylva_policy_summary(i));
    fputs(usage_tail, f);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "sylva: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(sylva --help for usage)\n");
    return EXIT_USAGE;
}

/* "none, level, sized, subtree": the registered policies, for messages. */
static const char *policy_list(void)
{
    static char buf[256];
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; sylva_policy_name(i) && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                                sylva_policy_name(i));
    return buf;
}

/* "4096", "512M", "2G" (powers of 1024), at least 1 MiB. */
static int parse_bytes(const char *s, int64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k' ? 1024.0 : *end == 'M' || *end == 'm' ? 1048576.0
                  : *end == 'G' || *end == 'g' ? 1073741824.0 : 1.0;
    if (unit != 1.0) end++;
    if (end == s || *end != '\0' || !(v * unit >= 1048576.0) || v * unit > 9e18) return -1;
    *out = (int64_t)(v * unit);
    return 0;
}

/* Usage error for an option whose value is not a whole number in lo..hi. */
static int usage_range(const char *option, long long lo, long long hi, const char *v)
{
    fprintf(stderr,
            "sylva: %s needs an integer in %lld..%lld, not '%s'\n(sylva --help for usage)\n",
            option, lo, hi, v);
    return EXIT_USAGE;
}

/* A whole number in [lo, hi], nothing else on the string. */
static int parse_count(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* A finite number >= 0, nothing else on the string. */
static int parse_flops(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !isfinite(v) || v < 0) return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("sylva %s\n", sylva_version());
        return EXIT_OK;
    }
    signal(SIGXFSZ, SIG_IGN);
    cli_args a;
    memset(&a, 0, sizeof a);
    sylva_default_options(&a.opts);
    a.command = argv[1];
    a.ordering = "auto";
    a.repeat = 1;
    a.threads = -1;
    a.progress = -1;
    if (strcmp(a.command, "factor") && strcmp(a.command, "analyze"))
        return usage_error("unknown command '%s'", a.command);
    int options_end = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (!options_end && !strcmp(o, "--")) {
            options_end = 1;
            continue;
        }
        if (options_end || o[0] != '-' || !o[1]) {
            if (a.file) return usage_error("unexpected argument '%s'", o);
            a.file = o;
            continue;
        }
        if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
            a.opts.verbose = 1;
            continue;
        }
        if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
            a.quiet = 1;
            a.progress = 0;
            continue;
        }
        if (!strcmp(o, "--progress")) {
            if (!a.quiet) a.progress = 1;
            continue;
        }
        static const char *const valued[] = {"--rhs", "-o", "--output", "--json", "--policy",
                                             "--scheduler", "--ordering", "--threads", "--repeat",
                                             "--small-rows", "--batch-flops", "--tile-rows", "--batches",
                                             "--precision", "--gpus", "--mode", "--device-memory",
                                             "--save", "--analysis"};
        int known = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) known |= !strcmp(o, valued[k]);
        if (!known) return usage_error("unknown option '%s'", o);
        if (!v) return usage_error("option %s needs a value", o);
        i++;
        if (!strcmp(o, "--rhs")) a.rhs = v;
        else if (!strcmp(o, "-o") || !strcmp(o, "--output")) a.output = v;
        else if (!strcmp(o, "--json")) a.json = v;
        else if (!strcmp(o, "--batches")) a.batches = v;
        else if (!strcmp(o, "--save")) a.save = v;
        else if (!strcmp(o, "--analysis")) a.analysis = v;
        else if (!strcmp(o, "--policy")) a.opts.policy = v;
        else if (!strcmp(o, "--scheduler")) a.opts.scheduler = v;
        else if (!strcmp(o, "--mode")) {
            int mode = sylva_exec_mode_from_name(v);
            if (mode < 0) return usage_error("unknown mode '%s' (auto, gpu, hybrid, cpu)", v);
            a.opts.mode = (sylva_exec_mode)mode;
        } else if (!strcmp(o, "--gpus")) {
            if (parse_count(v, 0, SYLVA_MAX_WORKERS, &n))
                return usage_range("--gpus", 0, SYLVA_MAX_WORKERS, v);
            a.opts.ncuda = (int)n;
        } else if (!strcmp(o, "--device-memory")) {
            if (parse_bytes(v, &a.opts.device_memory))
                return usage_error("--device-memory needs a byte count (e.g. 2G), not '%s'", v);
        } else if (!strcmp(o, "--precision")) {
            int p = sylva_dtype_from_name(v);
            if (p < 0) return usage_error("unknown precision '%s' (double, single)", v);
            a.opts.precision = (sylva_dtype)p;
        }
        else if (!strcmp(o, "--ordering")) {
            int ord = sylva_ordering_from_name(v);
            if (ord < 0 || ord == SYLVA_ORDERING_USER)
                return usage_error("unknown ordering '%s' (auto, metis, nd-parallel, scotch, amd, natural)", v);
            a.opts.ordering = ord;
            a.ordering = v;
        } else if (!strcmp(o, "--threads")) {
            if (parse_count(v, 1, SYLVA_MAX_WORKERS, &n))
                return usage_range("--threads", 1, SYLVA_MAX_WORKERS, v);
            a.opts.ncpus = (int)n;
            a.threads = (int)n;
        } else if (!strcmp(o, "--repeat")) {
            if (parse_count(v, 1, INT_MAX, &n)) return usage_range("--repeat", 1, INT_MAX, v);
            a.repeat = (int)n;
        } else if (!strcmp(o, "--small-rows")) {
            if (parse_count(v, 1, INT32_MAX, &n))
                return usage_range("--small-rows", 1, INT32_MAX, v);
            a.opts.small_front_rows = n;
        } else if (!strcmp(o, "--tile-rows")) {
            if (parse_count(v, 0, INT32_MAX, &n))
                return usage_range("--tile-rows", 0, INT32_MAX, v);
            a.opts.tile_rows = n;
        } else if (!strcmp(o, "--batch-flops")) {
            if (parse_flops(v, &a.opts.batch_flops))
                return usage_error("--batch-flops needs a finite number >= 0, not '%s'", v);
        }
    }
    if (!a.file) return usage_error("%s: missing FILE", a.command);
    if (a.analysis && a.opts.ordering != SYLVA_ORDERING_AUTO)
        return usage_error("--ordering %s: the ordering comes from the --analysis file", a.ordering);
    int known = 0;
    for (int i = 0; sylva_policy_name(i); i++) known |= !strcmp(sylva_policy_name(i), a.opts.policy);
    if (!known) {
        fprintf(stderr, "sylva: unknown policy '%s' (%s)\n(sylva --help for usage)\n",
                a.opts.policy, policy_list());
        return EXIT_USAGE;
    }
    cli_progress_start(&a);
    if (!strcmp(a.command, "analyze")) return cli_cmd_analyze(&a);
    return cli_cmd_factor(&a);
}
