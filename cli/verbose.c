/* verbose.c — what -v adds on stderr after the analysis: the runtime's
 * workers and scheduler, the ordering's result and the analysis' phases. */
#include "cli.h"

void cli_verbose_analysis(const cli_args *a, const sylva_analysis_info *ai)
{
    sylva_runtime_info ri;
    if (sylva_runtime_query(&ri) == SYLVA_OK)
        fprintf(stderr, "sylva: runtime: %d CPU worker%s, %d GPU worker%s on %d GPU%s%s%s, scheduler %s\n",
                ri.cpu_workers, ri.cpu_workers == 1 ? "" : "s", ri.gpu_workers, ri.gpu_workers == 1 ? "" : "s",
                ri.gpus, ri.gpus == 1 ? "" : "s", ri.gpus ? " " : "", ri.gpus ? sylva_gpu_name() : "",
                ri.scheduler);
    fprintf(stderr,
            "sylva: ordering %s%s%s: nnz(L) %lld (%.1f x nnz(A)), %.3e flops, %lld fronts, tree height "
            "%lld, largest front %lld rows\n",
            sylva_ordering_name(ai->ordering), a->analysis ? " from " : "", a->analysis ? a->analysis : "",
            (long long)ai->nnz_L, ai->nnz_A > 0 ? (double)ai->nnz_L / (double)ai->nnz_A : 0.0, ai->flops,
            (long long)ai->fronts, (long long)ai->tree_height, (long long)ai->max_front_rows);
    fprintf(stderr, "sylva: plan %s: %lld batches, %lld small and %lld large fronts, factor %.1f MB\n",
            a->opts.policy, (long long)ai->batches, (long long)ai->small_fronts, (long long)ai->large_fronts,
            ai->factor_bytes / 1e6);
    fprintf(stderr, "sylva: analysis %.3f s: ordering %.3f, symbolic %.3f, maps %.3f, plan %.3f\n", ai->seconds,
            ai->seconds_ordering, ai->seconds_symbolic, ai->seconds_maps, ai->seconds_plan);
}
