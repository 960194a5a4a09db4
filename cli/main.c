/* main.c — the `sylva` command: argument parsing, help, version, and
 * dispatch to the subcommands (factor, analyze). Usage errors exit 2 with a
 * message naming the bad argument. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: sylva factor FILE [--rhs FILE] [-o FILE] [--ordering NAME]\n"
    "                    [--policy NAME] [--threads N] [--json FILE] [--repeat N]\n"
    "                    [--small-rows N] [--tile-rows N] [--batch-flops F] [--scheduler NAME] [-v]\n"
    "       sylva analyze FILE [--ordering ...] [--policy NAME] [--json FILE] [--batches FILE]\n"
    "       sylva --help | --version\n"
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
    "  --policy NAME     batching policy: subtree (default), level, sized, none\n"
    "  --threads N       StarPU CPU workers and analysis threads (default: all cores)\n"
    "  --json FILE       write a JSON summary\n"
    "  --batches FILE    write the batching plan, one JSON row per batch\n"
    "  --repeat N        factor N times (refactorization after the first), report the best\n"
    "  --small-rows N    fronts with more rows are factored alone (default 256)\n"
    "  --tile-rows N     tile size of those large fronts' tile tasks (0: one task)\n"
    "  --batch-flops F   flops per batch task (default: automatic)\n"
    "\n"
    "exit codes: 0 ok, 1 bad input, 2 usage, 3 not positive definite, 4 runtime failure\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "sylva: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(sylva --help for usage)\n");
    return EXIT_USAGE;
}

static int parse_count(const char *s, long long lo, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo) return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("sylva %s\n", sylva_version());
        return EXIT_OK;
    }
    cli_args a;
    memset(&a, 0, sizeof a);
    sylva_default_options(&a.opts);
    a.command = argv[1];
    a.ordering = "auto";
    a.repeat = 1;
    a.threads = -1;
    if (strcmp(a.command, "factor") && strcmp(a.command, "analyze"))
        return usage_error("unknown command '%s'", a.command);
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (o[0] != '-') {
            if (a.file) return usage_error("unexpected argument '%s'", o);
            a.file = o;
            continue;
        }
        if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
            a.opts.verbose = 1;
            continue;
        }
        static const char *const valued[] = {"--rhs", "-o", "--output", "--json", "--policy",
                                             "--scheduler", "--ordering", "--threads", "--repeat",
                                             "--small-rows", "--batch-flops", "--tile-rows", "--batches"};
        int known = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) known |= !strcmp(o, valued[k]);
        if (!known) return usage_error("unknown option '%s'", o);
        if (!v) return usage_error("option %s needs a value", o);
        i++;
        if (!strcmp(o, "--rhs")) a.rhs = v;
        else if (!strcmp(o, "-o") || !strcmp(o, "--output")) a.output = v;
        else if (!strcmp(o, "--json")) a.json = v;
        else if (!strcmp(o, "--batches")) a.batches = v;
        else if (!strcmp(o, "--policy")) a.opts.policy = v;
        else if (!strcmp(o, "--scheduler")) a.opts.scheduler = v;
        else if (!strcmp(o, "--ordering")) {
            int ord = sylva_ordering_from_name(v);
            if (ord < 0 || ord == SYLVA_ORDERING_USER)
                return usage_error("unknown ordering '%s' (auto, metis, nd-parallel, scotch, amd, natural)", v);
            a.opts.ordering = ord;
            a.ordering = v;
        } else if (!strcmp(o, "--threads")) {
            if (parse_count(v, 1, &n)) return usage_error("--threads needs a positive integer, not '%s'", v);
            a.opts.ncpus = (int)n;
            a.threads = (int)n;
        } else if (!strcmp(o, "--repeat")) {
            if (parse_count(v, 1, &n)) return usage_error("--repeat needs a positive integer, not '%s'", v);
            a.repeat = (int)n;
        } else if (!strcmp(o, "--small-rows")) {
            if (parse_count(v, 1, &n)) return usage_error("--small-rows needs a positive integer, not '%s'", v);
            a.opts.small_front_rows = n;
        } else if (!strcmp(o, "--tile-rows")) {
            if (parse_count(v, 0, &n)) return usage_error("--tile-rows needs an integer >= 0, not '%s'", v);
            a.opts.tile_rows = n;
        } else if (!strcmp(o, "--batch-flops")) {
            char *end;
            a.opts.batch_flops = strtod(v, &end);
            if (*end || a.opts.batch_flops < 0) return usage_error("--batch-flops needs a number, not '%s'", v);
        }
    }
    if (!a.file) return usage_error("%s: missing FILE", a.command);
    int known = 0;
    for (int i = 0; sylva_policy_name(i); i++) known |= !strcmp(sylva_policy_name(i), a.opts.policy);
    if (!known) return usage_error("unknown policy '%s' (subtree, level, sized, none)", a.opts.policy);
    if (!strcmp(a.command, "analyze")) return cli_cmd_analyze(&a);
    return cli_cmd_factor(&a);
}
