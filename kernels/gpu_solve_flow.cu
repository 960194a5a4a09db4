/* gpu_solve_flow.cu — the forward and backward sweeps of the GPU solve,
 * two launches each: the bottom of the tree, then the top forward, the top
 * then the bottom backward (contract and item kinds in gpu_solve.h, item
 * bodies in gpu_solve_items.cuh, the top's 64-row triangle items in
 * gpu_solve_top.cuh, the LEAF items in gpu_solve_leaf.cuh). Each launch
 * is a persistent grid: each block takes the next item of the sweep's
 * list from an atomic ticket, waits on the per-front counters for what
 * the item needs, does it, and counts it done. Counters (device ints, a
 * set per sweep, zeroed before it: by the sweep, or both sets by the
 * solve's first launch, sylva__gpu_solve_begin):
 * ready[f] — forward: children whose updates have all landed; backward: 1
 * once the front is solved; tdone[f] — triangle items done (they finish in
 * order: each needs the one before; a forward update item takes its
 * pivots' blocks as this count passes them); udone[f] — update items done
 * (forward, the last one to finish signals the parent; backward, the
 * triangle items wait for them all); pdone[p] — backward, a top front's
 * update items done of the BK pivots from p (a chunk, at its first pivot's
 * place in X; a triangle item waits for its own pivots' chunks only,
 * gpu_solve.h). A writer's block passes a
 * barrier and its thread 0 counts with a release add; a reader's thread 0
 * polls with acquire loads, then a barrier (SYLVA_SOLVE_STEP, gpu_solve.h:
 * fences and volatile polls as before v6 on request); the right-hand side
 * is read and written through L2 (__ldcg/__stcg: another block may have
 * written it during the launch).
 * Right-hand sides go SYLVA_SOLVE_COLS at a time (a warp each on a
 * diagonal block); a one-column solve runs kernels compiled for one column
 * (W = 1: no accumulators, staging or guards for the three absent ones).
 * A sweep's second launch may start while its first still runs
 * (programmatic dependent launch, sm_90 on: every block lets it start at
 * once, so it is placed as the first one's blocks run out of tickets and
 * leave, not after its last item; its blocks wait for the first launch's
 * end only as they leave, so that what follows in the stream follows
 * both). The counters already order the items across the two launches, and
 * no item of the first waits on one of the second: no block of the second
 * is placed before every block of the first has started. SYLVA_SOLVE_OVERLAP
 * (gpu_solve.h) chooses the sweeps that overlap; 0 launches them one after
 * the other.
 * Replaced the level-by-level launches (4 per level and direction, 6
 * cuBLAS calls per large front: 9 ms for a 2.4 ms cuDSS solve of
 * lap3d7:60, docs/perf-log.md). */
#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "gpu_solve_leaf.cuh"
#include "gpu_solve_top.cuh"

static_assert(SYLVA_SOLVE_TOP_TB == 2 * SYLVA_SOLVE_BK, "a top triangle item's pivots are two backward update chunks");

namespace sylva {
namespace {

/* Programmatic dependent launch (above): the next launch in the stream,
 * when launched to overlap, may start once every block of this one has
 * called this; a no-op otherwise and before sm_90. */
__device__ __forceinline__ void let_next_launch_start()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Waits for the launch before this one in the stream to end (its memory
 * visible), when this one was launched to overlap it; a no-op otherwise. */
__device__ __forceinline__ void wait_previous_launch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* FLOW_MIN_BLOCKS blocks an SM (64 registers a thread, a few spilled): a
 * block waiting on an item holds its slot, so more resident blocks keep
 * more items moving (measured 4 against 8: docs/perf-log.md, v4). */
#define FLOW_MIN_BLOCKS 8
/* The top's launch (Top): 3 blocks an SM, registers for its 64-row
 * triangle items' prefetched L (gpu_solve_top.cuh). */
#define TOP_MIN_BLOCKS 3
/* The trace's end of a ticket: the time, the SM and the block. */
__device__ __forceinline__ void trace_done(const flow_args &a, int ticket)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    a.trace[4 * (int64_t)ticket + 2] = flow_clock();
    a.trace[4 * (int64_t)ticket + 3] = (unsigned long long)sm << 32 | blockIdx.x;
}

template <int W, bool Forward, bool Top>
__global__ void __launch_bounds__(FLOW_THREADS, Top ? TOP_MIN_BLOCKS : FLOW_MIN_BLOCKS) flow_kernel(flow_args a)
{
    __shared__ double s[Top ? FLOW_MAX(TOP_BUF, FLOW_BUF) : FLOW_BUF], d[FLOW_TB * FLOW_DLD];
    __shared__ int item, flag;
    /* One ticket at a time: a block that held the next ticket while it
     * waited on its item kept ready work from free blocks (measured: 8.3 →
     * 14 ms on lap3d7:60). */
    const int F3 = 3 * a.nfronts;
    let_next_launch_start();
    for (;;) {
        if (threadIdx.x == 0) item = atomicAdd(a.ticket, 1);
        __syncthreads();
        const int ticket = item;
        __syncthreads();
        if (ticket >= a.nitems * a.nchunks) {
            wait_previous_launch();
            return;
        }
        /* Ticket → (item, column chunk): an item's chunks are consecutive
         * tickets, and each chunk has its own counters, so the chunks of
         * many right-hand sides run side by side, not one after another. */
        const unsigned long long t_take = a.trace && threadIdx.x == 0 ? flow_clock() : 0;
        const int it = ticket / a.nchunks, chunk = ticket % a.nchunks;
        int *const ready = a.ready + (int64_t)chunk * F3, *const tdone = ready + a.nfronts,
                   *const udone = tdone + a.nfronts;
        front F;
        F.f = a.items[2 * it];
        const int code = a.items[2 * it + 1], kind = SYLVA_SOLVE_KIND(code), idx = SYLVA_SOLVE_INDEX(code);
        if (!Top && kind == SYLVA_SOLVE_LEAF) {
            const int first = F.f, count = idx;
            const int c0 = chunk * SYLVA_SOLVE_COLS, nc = min(FLOW_COLS, a.nrhs - c0);
            if (!Forward) leaf_wait(a, ready, first, count);
            if (a.trace && threadIdx.x == 0) {
                a.trace[4 * (int64_t)ticket] = t_take;
                a.trace[4 * (int64_t)ticket + 1] = flow_clock();
            }
            leaf_items<W, Forward>(a, first, count, c0, nc);
            if (Forward) leaf_signal(a, ready, first, count);
            else __syncthreads();
            if (a.trace && threadIdx.x == 0) trace_done(a, ticket);
            continue;
        }
        F.m = a.m[F.f];
        F.k = a.k[F.f];
        F.r = F.m - F.k;
        F.L = a.Lp[F.f];
        F.X1 = a.X + a.col[F.f];
        F.rw = a.rows + a.rofs[F.f];
        const int parent = a.parent[F.f], nt = a.nt[F.f], nu = a.nu[F.f];
        if (kind == SYLVA_SOLVE_FOLD) fold_prefetch(F);
        if (Forward) {
            /* An update item waits on its triangle blocks as it goes. */
            if (kind != SYLVA_SOLVE_UPD) block_wait(ready + F.f, a.nchild[F.f], &flag, a);
        } else {
            if (parent >= 0 && (kind != SYLVA_SOLVE_TRI || nu == 0)) block_wait(ready + parent, 1, &flag, a);
            if (Top && kind == SYLVA_SOLVE_TRI && nu > 0) { /* its pivots' chunks */
                const int nbr = (F.r + SYLVA_SOLVE_BR - 1) / SYLVA_SOLVE_BR;
                const int *const pd = a.pdone + (int64_t)chunk * a.ldx + a.col[F.f] + idx * TOP_TB;
                block_wait(pd, nbr, &flag, a);
                if (idx * TOP_TB + SYLVA_SOLVE_BK < F.k) block_wait(pd + SYLVA_SOLVE_BK, nbr, &flag, a);
            } else if (kind == SYLVA_SOLVE_TRI) {
                block_wait(udone + F.f, nu, &flag, a);
            }
        }
        if (a.trace && threadIdx.x == 0) {
            a.trace[4 * (int64_t)ticket] = t_take;
            a.trace[4 * (int64_t)ticket + 1] = flow_clock();
        }
        {
            const int c0 = chunk * SYLVA_SOLVE_COLS, nc = min(FLOW_COLS, a.nrhs - c0);
            if (kind == SYLVA_SOLVE_FOLD) {
                if (Forward) fold_forward<W>(F, a, c0, nc, s, d);
                else fold_backward<W>(F, a, c0, nc, s, d);
            } else if (kind == SYLVA_SOLVE_TRI) {
                if (Top && Forward) top_tri_forward<W>(F, a, tdone, idx, c0, nc, s, d, &flag);
                else if (Top && W == 1) top_tri_backward_one(F, a, tdone, idx, nt, c0, s, d, &flag);
                else if (Top) top_tri_backward<W>(F, a, tdone, idx, nt, c0, nc, s, d, &flag);
                else if (Forward) tri_forward<W>(F, a, tdone, idx, c0, nc, s, d, &flag);
                else tri_backward<W>(F, a, tdone, idx, nt, c0, nc, s, d, &flag);
            } else if (Forward) {
                upd_forward<W>(F, a, tdone, idx, Top ? TOP_TB : FLOW_TB, c0, nc, s, &flag);
            } else {
                upd_backward<W>(F, a, idx, c0, nc, s);
            }
        }
        /* Count it done. */
        if (kind == SYLVA_SOLVE_FOLD) {
            if (Forward) {
                if (parent >= 0) block_signal(ready + parent, NULL, a.step);
            } else {
                block_signal(ready + F.f, NULL, a.step);
            }
        } else if (kind == SYLVA_SOLVE_TRI) {
            block_signal(tdone + F.f, !Forward && idx == 0 ? ready + F.f : NULL, a.step);
        } else if (Forward) {
            /* The last update item to finish signals the parent: an
             * acquire-release add (it acquires the others' releases and
             * passes them on), or fences. */
            if (a.step & SYLVA_SOLVE_STEP_SYNC) {
                __syncthreads();
                if (threadIdx.x == 0 && add_acq_rel(udone + F.f) == nu - 1 && parent >= 0) add_release(ready + parent);
            } else {
                __threadfence();
                __syncthreads();
                if (threadIdx.x == 0 && atomicAdd(udone + F.f, 1) == nu - 1 && parent >= 0) {
                    __threadfence();
                    atomicAdd(ready + parent, 1);
                }
            }
        } else if (Top) {
            const int nbr = (F.r + SYLVA_SOLVE_BR - 1) / SYLVA_SOLVE_BR;
            block_signal(a.pdone + (int64_t)chunk * a.ldx + a.col[F.f] + idx / nbr * SYLVA_SOLVE_BK, NULL, a.step);
        } else {
            block_signal(udone + F.f, NULL, a.step);
        }
        if (a.trace && threadIdx.x == 0) trace_done(a, ticket);
    }
}

int cuda_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

/* As many blocks of FLOW_WARPS warps (W columns a chunk) as fit on the
 * device at once, no more than items. */
#define FLOW_MAX_DEVICES 64
/* Resident blocks per device, column count (1 or SYLVA_SOLVE_COLS), sweep
 * and part (bottom, top), found once (the occupancy query costs
 * microseconds, a small solve's sweep not many more). */
static std::atomic<int> resident_blocks[2][2][2][FLOW_MAX_DEVICES];

/* Whether this sweep's second launch may overlap its first (above): on
 * devices of compute capability 9 and later, for the sweeps of
 * SYLVA_SOLVE_OVERLAP's bits (the environment's, read once; else
 * SYLVA_SOLVE_OVERLAP_DEFAULT, gpu_solve.h). */
static bool overlap_on(int dev, bool forward)
{
    static std::atomic<int> env{-1};
    static std::atomic<int> major[FLOW_MAX_DEVICES];
    int v = env.load(std::memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("SYLVA_SOLVE_OVERLAP");
        v = e && *e ? (int)(strtol(e, NULL, 10) & 3) : SYLVA_SOLVE_OVERLAP_DEFAULT;
        env.store(v, std::memory_order_relaxed);
    }
    if (!(v & (forward ? 1 : 2)) || dev < 0 || dev >= FLOW_MAX_DEVICES) return false;
    int cc = major[dev].load(std::memory_order_relaxed);
    if (cc == 0) {
        if (cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return false;
        major[dev].store(cc, std::memory_order_relaxed);
    }
    return cc >= 9;
}

/* overlap: this launch may start while the one before it in s runs (the
 * sweep's second launch, right after its first). */
template <int W, bool Forward, bool Top> int launch(const flow_args &a, int count, bool overlap, cudaStream_t s)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return cuda_fail("sizing the solve's grid", e);
    std::atomic<int> *cached = dev < FLOW_MAX_DEVICES ? &resident_blocks[W == 1][Forward][Top][dev] : nullptr;
    int resident = cached ? cached->load(std::memory_order_relaxed) : 0;
    if (resident == 0) {
        int sms = 1, per_sm = 1;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
            (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flow_kernel<W, Forward, Top>, FLOW_THREADS,
                                                                0)) != cudaSuccess)
            return cuda_fail("sizing the solve's grid", e);
        resident = sms * std::max(per_sm, 1);
        if (cached) cached->store(resident, std::memory_order_relaxed);
    }
    const int grid = std::min(count, resident);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)grid);
    cfg.blockDim = dim3(FLOW_THREADS);
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = overlap && overlap_on(dev, Forward) ? 1 : 0;
    e = cudaLaunchKernelEx(&cfg, flow_kernel<W, Forward, Top>, a);
    return e == cudaSuccess ? SYLVA_OK
                            : cuda_fail(Top ? (Forward ? "flow_kernel (top, forward)" : "flow_kernel (top, backward)")
                                            : (Forward ? "flow_kernel (forward)" : "flow_kernel (backward)"), e);
}

/* One launch over items [first, first + count) of a's list, with ticket
 * `ticket` (tickets count from 0 in each launch); overlap: it may start
 * while the launch before it in s runs. */
template <bool Top>
int part(flow_args a, int first, int count, int *ticket, bool forward, bool overlap, cudaStream_t s)
{
    if (count == 0) return SYLVA_OK;
    a.items += 2 * (int64_t)first;
    a.nitems = count;
    a.ticket = ticket;
    if (a.trace) a.trace += 4 * (int64_t)first * a.nchunks;
    const int tickets = count * a.nchunks;
    if (a.nrhs == 1)
        return forward ? launch<1, true, Top>(a, tickets, overlap, s) : launch<1, false, Top>(a, tickets, overlap, s);
    return forward ? launch<FLOW_W, true, Top>(a, tickets, overlap, s)
                   : launch<FLOW_W, false, Top>(a, tickets, overlap, s);
}

/* SYLVA_SOLVE_STEP from the environment (read once), else the default. */
int step_bits()
{
    static std::atomic<int> bits{-1};
    int v = bits.load(std::memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("SYLVA_SOLVE_STEP");
        v = e && *e ? (int)(strtol(e, NULL, 10) & (SYLVA_SOLVE_STEP_OWN | SYLVA_SOLVE_STEP_SYNC))
                    : SYLVA_SOLVE_STEP_DEFAULT;
        bits.store(v, std::memory_order_relaxed);
    }
    return v;
}

/* SYLVA_SOLVE_POLL=MIN,MAX from the environment (read once; ns, 0 ≤ MIN ≤
 * MAX ≤ 1,000,000): a waiting block's sleep between polls, from MIN
 * doubling up to MAX; else the defaults. */
int poll_ns(int which)
{
    static std::atomic<int> ns[2] = {{-1}, {-1}};
    int v = ns[which].load(std::memory_order_relaxed);
    if (v < 0) {
        long lo = SYLVA_SOLVE_POLL_MIN, hi = SYLVA_SOLVE_POLL_MAX;
        const char *e = getenv("SYLVA_SOLVE_POLL");
        if (e && *e) {
            char *end = NULL;
            long a = strtol(e, &end, 10), b = end && *end == ',' ? strtol(end + 1, NULL, 10) : a;
            if (a >= 0 && b >= a && b <= 1000000) lo = a, hi = b;
        }
        ns[0].store((int)lo, std::memory_order_relaxed);
        ns[1].store((int)hi, std::memory_order_relaxed);
        v = which ? (int)hi : (int)lo;
    }
    return v;
}

int sweep(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X, cudaStream_t s,
          bool forward, bool zeroed)
{
    if (d->n > INT32_MAX || nrhs < 1 || nrhs > INT32_MAX)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve of n = %lld with %lld right-hand sides at once: "
                           "beyond the kernels' 32-bit sizes", (long long)d->n, (long long)nrhs);
    const int F = d->nfronts, count = forward ? d->nitems_f : d->nitems_b;
    if (count == 0) return SYLVA_OK;
    const sylva__solve_layout *y = &d->lay;
    const char *bl = (const char *)b->blob;
    int *flow = (int *)((char *)b->work + (forward ? b->ws.flow : b->ws.flowb));
    const int nchunks = (int)((nrhs + SYLVA_SOLVE_COLS - 1) / SYLVA_SOLVE_COLS);
    if ((int64_t)count * nchunks > INT32_MAX)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: %d items × %d column chunks", count, nchunks);
    /* Backward with a top also the per-pivot-chunk counters (after the others). */
    const int64_t nflow = 3 * (int64_t)F * nchunks + SYLVA_SOLVE_TICKETS + (forward || !d->ntop_b ? 0 : d->n * nchunks);
    if (!zeroed) {
        cudaError_t e = cudaMemsetAsync(flow, 0, (size_t)nflow * sizeof(int), s);
        if (e != cudaSuccess) return cuda_fail("cudaMemsetAsync (solve counters)", e);
    }
    flow_args a = {(const int *)(bl + y->m),
                   (const int *)(bl + y->k),
                   (const int *)(bl + y->parent),
                   (const int *)(bl + y->nchild),
                   (const int *)(bl + y->nt),
                   (const int *)(bl + (forward ? y->nuf : y->nub)),
                   (const int64_t *)(bl + y->col),
                   (const int64_t *)(bl + y->rofs),
                   (const int64_t *)(bl + y->rows),
                   (const int *)(bl + (forward ? y->fitems : y->bitems)),
                   count,
                   nchunks,
                   F,
                   (double *const *)((char *)b->work + b->ws.Lp),
                   X,
                   d->n,
                   (int)nrhs,
                   flow,
                   flow + SYLVA_SOLVE_TICKETS,
                   flow + SYLVA_SOLVE_TICKETS + 3 * (int64_t)F * nchunks,
                   b->trace[forward ? 0 : 1],
                   step_bits(),
                   poll_ns(0),
                   poll_ns(1)};
    /* Forward the bottom then the top; backward the top then the bottom
     * (the lists' phases, solve_items.c): the counters carry over. */
    if (forward) {
        const int nbot = count - d->ntop_f;
        int rc = part<false>(a, 0, nbot, flow, true, false, s);
        return rc != SYLVA_OK ? rc : part<true>(a, nbot, d->ntop_f, flow + 1, true, nbot > 0, s);
    }
    int rc = part<true>(a, 0, d->ntop_b, flow, false, false, s);
    return rc != SYLVA_OK ? rc : part<false>(a, d->ntop_b, count - d->ntop_b, flow + 1, false, d->ntop_b > 0, s);
}

} // namespace
} // namespace sylva

extern "C" int sylva__gpu_solve_forward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs,
                                        double *X, int zeroed, cudaStream_t s)
{
    return sylva::sweep(d, b, nrhs, X, s, true, zeroed != 0);
}

extern "C" int sylva__gpu_solve_backward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs,
                                         double *X, int zeroed, cudaStream_t s)
{
    return sylva::sweep(d, b, nrhs, X, s, false, zeroed != 0);
}
