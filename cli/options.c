/* options.c — the command line of `sylva`: one table of options (name,
 * value, the commands it applies to, help), parsed by getopt_long (so
 * `--opt=value`, `--opt value`, unique prefixes and `--` all work), and the
 * help of each command printed from the same table. Usage errors exit 2
 * with a message naming the option: an unknown option, a missing value, a
 * value out of its range (numbers must be whole and in range: no silent
 * truncation), an option that does not apply to the command, an unknown
 * policy, ordering, mode, precision or scheduler (with the valid names).
 * "-" as an input is standard input (for one input at most), as an output
 * standard output (for one output at most; the summary then goes to
 * standard error). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "study.h"

enum {
    O_RHS = 256, O_JSON, O_BATCHES, O_ORDERING, O_PERM, O_POLICY, O_THREADS, O_GPUS, O_MODE,
    O_DEVICE_MEMORY, O_GPU_MAP, O_SCHEDULER, O_PRECISION, O_REPEAT, O_SMALL_ROWS, O_TILE_ROWS, O_GPU_TILE_ROWS, O_BATCH_FLOPS,
    O_SAVE, O_ANALYSIS, O_MAX_BERR, O_RCOND, O_PROGRESS, O_SYMMETRIC_BOTH, O_SYMMETRIZE, O_TRACE,
    O_POLICIES, O_THRESHOLDS, O_NRHS, O_REFINE, O_SOLVE_MODE, O_SOLVE_BLOCK, O_FAIL_SINGULAR
};

typedef struct opt_spec {
    const char *name;
    int id;
    const char *value; /* its placeholder in the help, NULL for a flag */
    int commands;      /* CMD_FACTOR | CMD_ANALYZE | CMD_STUDY */
    const char *help;
} opt_spec;

#define BOTH (CMD_FACTOR | CMD_ANALYZE)
#define ALL (CMD_FACTOR | CMD_ANALYZE | CMD_STUDY)
#define RUNS (CMD_FACTOR | CMD_STUDY)
static const opt_spec specs[] = {
    {"rhs", O_RHS, "FILE", CMD_FACTOR, "right-hand sides, Matrix Market array (n x nrhs); - is stdin"},
    {"nrhs", O_NRHS, "K", CMD_FACTOR,
     "without --rhs: K right-hand sides b = A x, x pseudo-random\n"
     "(without it: one, b = A 1)"},
    {"refine", O_REFINE, "N|auto", CMD_FACTOR,
     "iterative refinement: N steps, or auto (until the backward error\n"
     "stops halving; at most 10); default 0"},
    {"solve-mode", O_SOLVE_MODE, "M", CMD_FACTOR,
     "where the solve runs: auto (where the factor is, default), gpu,\n"
     "cpu (StarPU tasks), sequential"},
    {"solve-block", O_SOLVE_BLOCK, "K", CMD_FACTOR,
     "right-hand sides solved at once (memory: about 2 n K doubles, 5 n K\n"
     "with refinement); default 0: 512 MiB / (8 n), at least 16, halved\n"
     "on a GPU until it fits there"},
    {"output", 'o', "FILE", RUNS,
     "factor: write the solution (Matrix Market array; - is stdout, the\n"
     "summary then on stderr); study: the folder of study.json,\n"
     "study.html and the traces (default .)"},
    {"json", O_JSON, "FILE", BOTH, "write a JSON record of the run (also on failure); - is stdout"},
    {"batches", O_BATCHES, "FILE", BOTH,
     "write the batches, one JSON object each (factor: with what each\n"
     "batch's tasks measured)"},
    {"trace", O_TRACE, "FILE", CMD_FACTOR,
     "write a Chrome/Perfetto trace of the factorization (one track per\n"
     "worker, a slice per task)"},
    {"policies", O_POLICIES, "A,B,..", CMD_STUDY, "the policies to study (default: every registered one)"},
    {"thresholds", O_THRESHOLDS, NULL, CMD_STUDY,
     "also run each policy with --small-rows halved and doubled and\n"
     "--batch-flops divided and multiplied by 4"},
    {"save", O_SAVE, "FILE", ALL, "write the analysis (permutation, settings, pattern fingerprint)"},
    {"analysis", O_ANALYSIS, "FILE", ALL, "reuse a saved analysis: no ordering (refused for another pattern)"},
    {"ordering", O_ORDERING, "NAME", ALL,
     "auto (default: nd-parallel on several threads, else metis), metis,\n"
     "nd-parallel, scotch, amd, natural"},
    {"symmetric-both", O_SYMMETRIC_BOTH, "MODE", BOTH,
     "a 'symmetric' file storing A(i,j) and A(j,i): sum, lower or\n"
     "average them (default: refuse, naming the line)"},
    {"symmetrize", O_SYMMETRIZE, "MODE[:TOL]", BOTH,
     "a 'general' file symmetric only to rounding: keep the lower or\n"
     "upper triangle or the average; with :TOL refuse relative\n"
     "differences above TOL (e.g. average:1e-12)"},
    {"perm", O_PERM, "FILE", ALL, "your own ordering: n integers 1..n (new to old), one per line"},
    {"policy", O_POLICY, "NAME", BOTH, "batching policy (default subtree):"},
    {"threads", O_THREADS, "N", ALL, "StarPU CPU workers and analysis threads (default: all cores)"},
    {"gpus", O_GPUS, "N", ALL, "GPUs to use (default: all; 0: CPU only; fewer found: exit 4)"},
    {"mode", O_MODE, "M", ALL,
     "auto (GPUs when there are, default), gpu, hybrid (GPUs and CPU\n"
     "workers, placed by StarPU's perfmodels), cpu; gpu or hybrid\n"
     "without a GPU: exit 4"},
    {"device-memory", O_DEVICE_MEMORY, "B", RUNS, "bytes of device memory each GPU may use (suffix K, M, G)"},
    {"gpu-map", O_GPU_MAP, "M", ALL,
     "several GPUs: subtrees (default: subtrees balanced by flops, one\n"
     "GPU each, the top of the tree placed by StarPU) or scheduler\n"
     "(StarPU places every task)"},
    {"scheduler", O_SCHEDULER, "NAME", RUNS,
     "StarPU scheduler (default dmdas with GPUs, lws without;\n"
     "`sylva help schedulers` lists them)"},
    {"precision", O_PRECISION, "P", ALL, "double (default) or single: the factorization's precision"},
    {"repeat", O_REPEAT, "N", RUNS,
     "factor N times (refactorization after the first), report the best\n"
     "(study, default 5: the first apart, the refactorizations' median,\n"
     "min and max)"},
    {"small-rows", O_SMALL_ROWS, "N", ALL, "fronts with more rows are factored alone (default: 256 on CPUs)"},
    {"tile-rows", O_TILE_ROWS, "N", ALL, "tile size of those large fronts' tile tasks (0: one task)"},
    {"gpu-tile-rows", O_GPU_TILE_ROWS, "N", ALL,
     "GPU runs: large fronts of more rows factored as tile tasks of N\n"
     "rows that any GPU may run (default 0: tiles of 2048 for the top\n"
     "fronts of runs on several GPUs; -1: never)"},
    {"batch-flops", O_BATCH_FLOPS, "F", ALL, "flops per batch task (default: automatic)"},
    {"max-backward-error", O_MAX_BERR, "X", RUNS,
     "a larger backward error fails the run (exit 4; default 1e-12,\n"
     "1e-5 with --precision single)"},
    {"rcond", O_RCOND, NULL, CMD_FACTOR, "estimate the reciprocal condition number (1-norm, Hager-Higham)"},
    {"fail-singular", O_FAIL_SINGULAR, NULL, CMD_FACTOR,
     "a matrix singular to working precision (pivot ratio, or --rcond,\n"
     "below epsilon) fails the run (exit 5, no -o) instead of a warning"},
    {"progress", O_PROGRESS, NULL, ALL, "show the progress line even when stderr is not a terminal"},
    {"quiet", 'q', NULL, ALL, "no progress line and no summary (errors still on stderr)"},
    {"verbose", 'v', NULL, ALL, "workers, scheduler, where it ran, analysis statistics (stderr)"},
    {"help", 'h', NULL, ALL, "this help"},
};
enum { NSPECS = sizeof specs / sizeof specs[0] };

static const opt_spec *spec_of(int id)
{
    for (int i = 0; i < NSPECS; i++)
        if (specs[i].id == id) return &specs[i];
    return NULL;
}

static const char *command_name(int cmd)
{
    return cmd == CMD_ANALYZE ? "analyze" : cmd == CMD_STUDY ? "study" : "factor";
}

/* "factor", "factor and study", ...: the commands of a mask. */
static const char *commands_of(int mask)
{
    static char buf[64];
    buf[0] = '\0';
    const int order[] = {CMD_FACTOR, CMD_ANALYZE, CMD_STUDY};
    int count = 0;
    for (int i = 0; i < 3; i++)
        if (mask & order[i]) {
            strcat(buf, count++ ? " and " : "");
            strcat(buf, command_name(order[i]));
        }
    return buf;
}

/* ------------------------------------------------------------------ help */

static const char help_factor[] =
    "factor: read a Matrix Market SPD matrix, analyze, factor (Cholesky, multifrontal, on\n"
    "        StarPU's CPU and GPU workers), solve A x = b and report the backward error\n"
    "        |b - A x|inf / (|A|inf |x|inf + |b|inf). Without --rhs, b = A * ones.\n";
static const char help_analyze[] =
    "analyze: ordering, supernodal fronts and the batching plan only (pattern files work).\n";
static const char help_study[] =
    "study: factor one matrix under every batching policy (--policies, --thresholds), each\n"
    "       --repeat times, check every backward error, and write study.json and a\n"
    "       self-contained study.html (time per policy, batch sizes and padding, busy/idle\n"
    "       timelines, the assembly tree coloured by batch, the numbers) and a trace per run.\n";
static const char help_exit[] =
    "exit codes: 0 ok, 1 bad input, 2 usage, 3 not positive definite, 4 runtime failure\n"
    "(or, for factor, a backward error above --max-backward-error)\n";

static void print_option(FILE *f, const opt_spec *s, int only)
{
    char left[48];
    int shortopt = s->id < 256;
    if (shortopt)
        snprintf(left, sizeof left, "-%c, --%s%s%s", s->id, s->name, s->value ? " " : "", s->value ? s->value : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", s->name, s->value ? " " : "", s->value ? s->value : "");
    const char *text = s->help;
    int first = 1;
    while (*text) {
        const char *nl = strchr(text, '\n');
        int len = nl ? (int)(nl - text) : (int)strlen(text);
        char tag[80] = "";
        if (first && only) snprintf(tag, sizeof tag, " [%s]", commands_of(only));
        fprintf(f, "  %-26s %.*s%s\n", first ? left : "", len, text, tag);
        first = 0;
        text += len + (nl != NULL);
    }
    if (s->id == O_POLICY)
        for (int i = 0; sylva_policy_name(i); i++)
            fprintf(f, "  %-26s   %-8s %s\n", "", sylva_policy_name(i), sylva_policy_summary(i));
}

void cli_print_help(FILE *f, int cmd)
{
    if (cmd == 0) {
        fputs("usage: sylva factor FILE [options]\n"
              "       sylva analyze FILE [options]\n"
              "       sylva study FILE [options]\n"
              "       sylva help [factor | analyze | study | schedulers]\n"
              "       sylva --version\n"
              "       (FILE: Matrix Market, plain, .gz, .bz2 or .xz; - is standard input;\n"
              "        -- ends the options: sylva factor -- -A.mtx)\n\n",
              f);
        fputs(help_factor, f);
        fputs(help_analyze, f);
        fputs(help_study, f);
        fputs("\noptions ([factor]: factor only, ...; the others apply to every command):\n", f);
    } else {
        fprintf(f, "usage: sylva %s FILE [options]\n\n%s\noptions:\n", command_name(cmd),
                cmd == CMD_FACTOR ? help_factor : cmd == CMD_STUDY ? help_study : help_analyze);
    }
    for (int i = 0; i < NSPECS; i++)
        if (cmd == 0 || (specs[i].commands & cmd))
            print_option(f, &specs[i], cmd == 0 && specs[i].commands != ALL ? specs[i].commands : 0);
    fprintf(f, "\n%s", help_exit);
}

static void print_schedulers(FILE *f)
{
    fputs("StarPU schedulers (--scheduler NAME):\n", f);
    for (int i = 0; sylva_scheduler_name(i); i++)
        fprintf(f, "  %-34s %s\n", sylva_scheduler_name(i), sylva_scheduler_summary(i));
}

/* ------------------------------------------------------------- parsing */

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("sylva: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(sylva --help for usage)\n", stderr);
    return EXIT_USAGE;
}

/* Usage error for an option whose value is not a whole number in lo..hi. */
static int usage_range(const char *option, long long lo, long long hi, const char *v)
{
    return usage_error("%s needs an integer in %lld..%lld, not '%s'", option, lo, hi, v);
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

/* A finite number >= lo (> lo when strict), nothing else on the string. */
static int parse_real(const char *s, double lo, int strict, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !isfinite(v) || v < lo || (strict && v == lo)) return -1;
    *out = v;
    return 0;
}

/* "4096", "512M", "2G" (powers of 1024), at least 1 MiB. */
static int parse_bytes(const char *s, int64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k'   ? 1024.0
                  : *end == 'M' || *end == 'm' ? 1048576.0
                  : *end == 'G' || *end == 'g' ? 1073741824.0
                                               : 1.0;
    if (unit != 1.0) end++;
    if (end == s || *end != '\0' || !(v * unit >= 1048576.0) || v * unit > 9e18) return -1;
    *out = (int64_t)(v * unit);
    return 0;
}

/* "a, b, c": names from a registry, for messages. */
static const char *name_list(const char *(*name)(int))
{
    static char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; name(i) && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", name(i));
    return buf;
}

static int known_name(const char *(*name)(int), const char *want)
{
    for (int i = 0; name(i); i++)
        if (!strcmp(name(i), want)) return 1;
    return 0;
}

/* The CPUs this process may run on. */
static int usable_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* "-": standard input for one input, standard output for one output (the
 * summary then on standard error); a study's -o is a folder. -1 to go on,
 * else the exit code. */
static int check_dashes(cli_args *a)
{
    const char *in_names[] = {"FILE", "--rhs", "--perm"};
    const char *ins[] = {a->file, a->rhs, a->perm};
    const char *out_names[] = {"-o", "--json", "--batches", "--trace", "--save"};
    const char *outs[] = {a->cmd == CMD_STUDY ? NULL : a->output, a->json, a->batches, a->trace, a->save};
    if (a->cmd == CMD_STUDY && a->output && !strcmp(a->output, "-"))
        return usage_error("-o -: a study writes a folder (study.json, study.html, traces), not standard output");
    const char *first = NULL;
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++)
        if (ins[i] && !strcmp(ins[i], "-")) {
            if (first) return usage_error("%s and %s are both standard input (-): only one can read it", first, in_names[i]);
            first = in_names[i];
        }
    first = NULL;
    a->report = stdout;
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++)
        if (outs[i] && !strcmp(outs[i], "-")) {
            if (first)
                return usage_error("%s and %s both write to standard output (-): give one of them a file", first,
                                   out_names[i]);
            first = out_names[i];
            a->report = stderr;
        }
    return -1;
}

/* One option's value into a; -1 when it is good, else the exit code. */
static int apply(cli_args *a, const opt_spec *s, const char *v)
{
    long long n;
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", s->name);
    switch (s->id) {
    case O_RHS: a->rhs = v; break;
    case 'o': a->output = v; break;
    case O_JSON: a->json = v; break;
    case O_BATCHES: a->batches = v; break;
    case O_TRACE: a->trace = v; break;
    case O_POLICIES: a->policies = v; break;
    case O_THRESHOLDS: a->thresholds = 1; break;
    case O_SAVE: a->save = v; break;
    case O_ANALYSIS: a->analysis = v; break;
    case O_PERM: a->perm = v; break;
    case O_POLICY: a->opts.policy = v; break;
    case O_SCHEDULER: a->opts.scheduler = v; break;
    case O_ORDERING: {
        int ord = sylva_ordering_from_name(v);
        if (ord < 0 || ord == SYLVA_ORDERING_USER)
            return usage_error("unknown ordering '%s' (auto, metis, nd-parallel, scotch, amd, natural%s)", v,
                               ord == SYLVA_ORDERING_USER ? "; a permutation of your own: --perm FILE" : "");
        a->opts.ordering = (sylva_ordering)ord;
        a->ordering = v;
        break;
    }
    case O_MODE: {
        int mode = sylva_exec_mode_from_name(v);
        if (mode < 0) return usage_error("unknown mode '%s' (auto, gpu, hybrid, cpu)", v);
        a->opts.mode = (sylva_exec_mode)mode;
        break;
    }
    case O_GPU_MAP: {
        int m = sylva_gpu_map_from_name(v);
        if (m < 0) return usage_error("unknown GPU mapping '%s' (subtrees, scheduler)", v);
        a->opts.gpu_map = (sylva_gpu_map)m;
        break;
    }
    case O_PRECISION: {
        int p = sylva_dtype_from_name(v);
        if (p < 0) return usage_error("unknown precision '%s' (double, single)", v);
        a->opts.precision = (sylva_dtype)p;
        break;
    }
    case O_GPUS:
        if (parse_count(v, 0, SYLVA_MAX_WORKERS, &n)) return usage_range(opt, 0, SYLVA_MAX_WORKERS, v);
        a->opts.ncuda = (int)n;
        break;
    case O_THREADS:
        if (parse_count(v, 1, SYLVA_MAX_WORKERS, &n)) return usage_range(opt, 1, SYLVA_MAX_WORKERS, v);
        a->opts.ncpus = (int)n;
        a->threads = (int)n;
        break;
    case O_REPEAT:
        if (parse_count(v, 1, INT_MAX, &n)) return usage_range(opt, 1, INT_MAX, v);
        a->repeat = (int)n;
        break;
    case O_SMALL_ROWS:
        if (parse_count(v, 1, INT32_MAX, &n)) return usage_range(opt, 1, INT32_MAX, v);
        a->opts.small_front_rows = n;
        break;
    case O_TILE_ROWS:
        if (parse_count(v, 0, INT32_MAX, &n)) return usage_range(opt, 0, INT32_MAX, v);
        a->opts.tile_rows = n;
        break;
    case O_GPU_TILE_ROWS:
        if (parse_count(v, -1, INT32_MAX, &n)) return usage_range(opt, -1, INT32_MAX, v);
        a->opts.gpu_tile_rows = n;
        break;
    case O_DEVICE_MEMORY:
        if (parse_bytes(v, &a->opts.device_memory))
            return usage_error("--device-memory needs a byte count of at least 1M (e.g. 2G), not '%s'", v);
        break;
    case O_BATCH_FLOPS:
        if (parse_real(v, 0, 0, &a->opts.batch_flops))
            return usage_error("--batch-flops needs a finite number >= 0, not '%s'", v);
        break;
    case O_MAX_BERR:
        if (parse_real(v, 0, 1, &a->max_berr))
            return usage_error("--max-backward-error needs a finite number > 0, not '%s'", v);
        break;
    case O_SYMMETRIC_BOTH:
        if (!strcmp(v, "sum")) a->read.symmetric_both = SYLVA_BOTH_SUM;
        else if (!strcmp(v, "lower")) a->read.symmetric_both = SYLVA_BOTH_LOWER;
        else if (!strcmp(v, "average")) a->read.symmetric_both = SYLVA_BOTH_AVERAGE;
        else return usage_error("unknown --symmetric-both mode '%s' (sum, lower, average)", v);
        break;
    case O_SYMMETRIZE: {
        size_t len = strcspn(v, ":");
        if (len == 5 && !strncmp(v, "lower", 5)) a->read.symmetrize = SYLVA_SYMMETRIZE_LOWER;
        else if (len == 5 && !strncmp(v, "upper", 5)) a->read.symmetrize = SYLVA_SYMMETRIZE_UPPER;
        else if (len == 7 && !strncmp(v, "average", 7)) a->read.symmetrize = SYLVA_SYMMETRIZE_AVERAGE;
        else return usage_error("unknown --symmetrize mode '%.*s' (lower, upper, average; then :TOL)", (int)len, v);
        if (v[len] == ':' && parse_real(v + len + 1, 0, 1, &a->read.symmetrize_tol))
            return usage_error("--symmetrize %s: the tolerance after ':' must be a number > 0", v);
        break;
    }
    case O_NRHS:
        if (parse_count(v, 1, 1 << 20, &n)) return usage_range(opt, 1, 1 << 20, v);
        a->nrhs = n;
        break;
    case O_REFINE:
        if (!strcmp(v, "auto")) a->opts.refine = SYLVA_REFINE_AUTO;
        else if (parse_count(v, 0, SYLVA_MAX_REFINE_STEPS, &n))
            return usage_error("--refine needs auto or an integer in 0..%d, not '%s'", SYLVA_MAX_REFINE_STEPS, v);
        else a->opts.refine = (int)n;
        break;
    case O_SOLVE_BLOCK:
        if (parse_count(v, 0, INT32_MAX, &n)) return usage_range(opt, 0, INT32_MAX, v);
        a->opts.solve_block = n;
        break;
    case O_SOLVE_MODE: {
        int m = sylva_solve_mode_from_name(v);
        if (m < 0) return usage_error("unknown solve mode '%s' (auto, gpu, cpu, sequential)", v);
        a->opts.solve_mode = (sylva_solve_mode)m;
        break;
    }
    case O_RCOND: a->rcond = 1; break;
    case O_FAIL_SINGULAR: a->fail_singular = 1; break;
    case O_PROGRESS:
        if (!a->quiet) a->progress = 1;
        break;
    case 'q':
        a->quiet = 1;
        a->progress = 0;
        break;
    case 'v': a->opts.verbose = 1; break;
    }
    return -1;
}

int cli_parse(int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    sylva_default_options(&a->opts);
    sylva_default_read_options(&a->read);
    a->ordering = "auto";
    a->repeat = 0; /* not given: 1, or STUDY_DEFAULT_REPEAT for a study (below) */
    a->threads = -1;
    a->progress = -1;
    a->command = argv[1];
    a->cmd = !strcmp(argv[1], "factor")    ? CMD_FACTOR
             : !strcmp(argv[1], "analyze") ? CMD_ANALYZE
             : !strcmp(argv[1], "study")   ? CMD_STUDY
                                           : 0;
    if (!a->cmd) return usage_error("unknown command '%s' (factor, analyze, study, help)", argv[1]);

    struct option longopts[NSPECS + 1];
    for (int i = 0; i < NSPECS; i++)
        longopts[i] = (struct option){specs[i].name, specs[i].value ? required_argument : no_argument,
                                      NULL, specs[i].id};
    longopts[NSPECS] = (struct option){NULL, 0, NULL, 0};
    /* getopt sees argv[1..]: the command stands in for the program name. */
    int gargc = argc - 1;
    char **gargv = argv + 1;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(gargc, gargv, ":ho:qv", longopts, NULL)) != -1) {
        const char *bad = gargv[optind - 1];
        if (c == '?') {
            if (optopt) return usage_error("unknown option '-%c'", optopt);
            char name[64], matches[512] = "";
            snprintf(name, sizeof name, "%.*s", (int)strcspn(bad, "="), bad);
            size_t len = strlen(name), used = 0;
            int count = 0;
            for (int i = 0; len > 2 && i < NSPECS; i++)
                if (!strncmp(specs[i].name, name + 2, len - 2) && used < sizeof matches)
                    used += (size_t)snprintf(matches + used, sizeof matches - used, "%s--%s",
                                             count++ ? ", " : "", specs[i].name);
            if (count > 1 && !strncmp(name, "--", 2))
                return usage_error("ambiguous option '%s' (%s)", name, matches);
            return usage_error("unknown option '%s'", name);
        }
        if (c == ':') {
            const opt_spec *s = spec_of(optopt);
            if (s && s->id < 256) return usage_error("option -%c (--%s) needs a value", s->id, s->name);
            return usage_error("option --%s needs a value", s ? s->name : "?");
        }
        const opt_spec *s = spec_of(c);
        if (c == 'h') {
            cli_print_help(stdout, a->cmd);
            return EXIT_OK;
        }
        if (!(s->commands & a->cmd))
            return usage_error("option --%s does not apply to '%s' (it is for %s)", s->name, a->command,
                               commands_of(s->commands));
        int code = apply(a, s, optarg);
        if (code >= 0) return code;
    }
    for (int i = optind; i < gargc; i++) {
        if (a->file) return usage_error("unexpected argument '%s'", gargv[i]);
        a->file = gargv[i];
    }
    if (!a->file) return usage_error("%s: missing FILE", a->command);
    if (a->repeat == 0) a->repeat = a->cmd == CMD_STUDY ? STUDY_DEFAULT_REPEAT : 1;

    if (!known_name(sylva_policy_name, a->opts.policy))
        return usage_error("unknown policy '%s' (%s)", a->opts.policy, name_list(sylva_policy_name));
    if (a->policies) {
        /* a,b,c: registered names, each once, none empty. */
        char name[64];
        const char *p = a->policies;
        int count = 0;
        while (1) {
            size_t len = strcspn(p, ",");
            if (len == 0 || len >= sizeof name)
                return usage_error("--policies needs names separated by commas, not '%s'", a->policies);
            snprintf(name, sizeof name, "%.*s", (int)len, p);
            if (!known_name(sylva_policy_name, name))
                return usage_error("--policies: unknown policy '%s' (%s)", name, name_list(sylva_policy_name));
            const char *q = a->policies;
            for (int i = 0; i < count; i++, q += strcspn(q, ",") + 1)
                if (strcspn(q, ",") == len && !strncmp(q, p, len))
                    return usage_error("--policies: '%s' is listed twice", name);
            count++;
            if (!p[len]) break;
            p += len + 1;
        }
    }
    if (a->opts.scheduler && !known_name(sylva_scheduler_name, a->opts.scheduler))
        return usage_error("unknown scheduler '%s' (%s)", a->opts.scheduler, name_list(sylva_scheduler_name));
    if (cli_gpu_requested(a) && a->opts.precision != SYLVA_FLOAT64)
        return usage_error("--precision single runs on the CPU (GPUs factor in double precision only): "
                           "it does not go with --mode gpu, --mode hybrid or --gpus N");
    if (a->analysis && a->opts.ordering != SYLVA_ORDERING_AUTO)
        return usage_error("--ordering %s: the ordering comes from the --analysis file", a->ordering);
    if (a->perm && (a->analysis || a->opts.ordering != SYLVA_ORDERING_AUTO))
        return usage_error("--perm is an ordering: it does not go with --%s",
                           a->analysis ? "analysis" : "ordering");
    if (a->nrhs > 0 && a->rhs)
        return usage_error("--nrhs %lld: the right-hand sides come from --rhs %s", (long long)a->nrhs, a->rhs);
    int code = check_dashes(a);
    if (code >= 0) return code;
    if (a->perm) {
        a->opts.ordering = SYLVA_ORDERING_USER;
        a->ordering = "user";
    }
    int cores = usable_cores();
    if (a->threads > cores)
        fprintf(stderr,
                "sylva: warning: --threads %d exceeds the %d core%s this process may run on: "
                "workers will share cores (slower, not faster)\n",
                a->threads, cores, cores == 1 ? "" : "s");
    return -1;
}

/* `sylva help [TOPIC]`: 0, or 2 for an unknown topic. */
int cli_help_command(int argc, char **argv)
{
    const char *topic = argc > 2 ? argv[2] : NULL;
    if (!topic) cli_print_help(stdout, 0);
    else if (!strcmp(topic, "factor")) cli_print_help(stdout, CMD_FACTOR);
    else if (!strcmp(topic, "analyze")) cli_print_help(stdout, CMD_ANALYZE);
    else if (!strcmp(topic, "study")) cli_print_help(stdout, CMD_STUDY);
    else if (!strcmp(topic, "schedulers")) print_schedulers(stdout);
    else return usage_error("no help on '%s' (factor, analyze, study, schedulers)", topic);
    return EXIT_OK;
}
