/* gpu_stage.cu — host ↔ device copies of a column block through pinned
 * slots (gpu_stage.h). Each thread owns two slots: upward it fills one
 * (memcpy from the caller's pageable memory) while the copy engine drains
 * the other; downward it empties one while the engine fills the other.
 * All copies go on the caller's stream, whose order keeps them apart from
 * the kernels around them; a slot is reused only after the event recorded
 * behind its last copy. The threads it makes may run on any core (the
 * caller is a StarPU worker bound to one). A failing CUDA call is reported with its name
 * (the first one any thread saw); the copy then waits for the stream so
 * that no slot is still in use when the call returns.
 * Below them, the other path (sylva__gpu_pin_*): the caller's block itself
 * page-locked with cudaHostRegister for the solve (whole, or in page-aligned
 * pieces whose copies start as each is registered) and copied by DMA; what
 * the upload registered the download (or the release) unregisters.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "core.h"
#include "gpu_common.cuh"
#include "gpu_solve.h"
#include "gpu_stage.h"

struct sylva__gpu_stage {
    int threads, device, ncpus;
    cpu_set_t cpus; /* where its threads run: the main thread's cores, else all online */
    size_t piece; /* doubles per slot */
    double *pinned; /* 2 · threads slots */
    cudaEvent_t *done; /* one per slot: behind its last copy */
};

static int stage_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

extern "C" int sylva__gpu_stage_create(int threads, size_t piece_bytes, sylva__gpu_stage **out)
{
    *out = NULL;
    if (threads < 1) threads = 1;
    if (piece_bytes < sizeof(double)) piece_bytes = sizeof(double);
    sylva__gpu_stage *st = (sylva__gpu_stage *)calloc(1, sizeof *st);
    cudaEvent_t *done = (cudaEvent_t *)calloc((size_t)(2 * threads), sizeof *done);
    if (!st || !done) {
        free(st);
        free(done);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a staging buffer's descriptor");
    }
    st->threads = threads;
    st->piece = piece_bytes / sizeof(double);
    /* The cores the main thread may use, or else every online one (the
     * caller, a StarPU worker, is bound to one core). */
    CPU_ZERO(&st->cpus);
    if (sched_getaffinity(getpid(), sizeof st->cpus, &st->cpus) != 0 || CPU_COUNT(&st->cpus) < 2) {
        CPU_ZERO(&st->cpus);
        const long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < online && c < CPU_SETSIZE; c++) CPU_SET((int)c, &st->cpus);
    }
    st->ncpus = CPU_COUNT(&st->cpus);
    st->done = done;
    cudaError_t e = cudaGetDevice(&st->device);
    const char *what = "cudaGetDevice";
    if (e == cudaSuccess) {
        what = "cudaHostAlloc (solve staging)";
        e = cudaHostAlloc((void **)&st->pinned, 2 * (size_t)threads * st->piece * sizeof(double),
                          cudaHostAllocPortable);
        if (e != cudaSuccess) st->pinned = NULL;
    }
    for (int i = 0; i < 2 * threads && e == cudaSuccess; i++) {
        what = "cudaEventCreateWithFlags (solve staging)";
        e = cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming);
        if (e != cudaSuccess) done[i] = NULL;
    }
    if (e != cudaSuccess) {
        sylva__gpu_stage_free(st);
        return stage_fail(what, e);
    }
    *out = st;
    return SYLVA_OK;
}

extern "C" void sylva__gpu_stage_free(sylva__gpu_stage *st)
{
    if (!st) return;
    for (int i = 0; i < 2 * st->threads; i++)
        if (st->done[i]) cudaEventDestroy(st->done[i]);
    if (st->pinned) cudaFreeHost(st->pinned);
    free(st->done);
    free(st);
}

namespace {

/* The block cut into pieces of at most a slot: whole columns (cpp of
 * them) when a column fits, else a column's rows in rpp-row parts. */
struct pieces {
    int64_t rows, cols, cpp, rpp, per_col, count;
    void of(int64_t p, int64_t *c0, int64_t *nc, int64_t *r0, int64_t *nr) const
    {
        if (per_col == 0) {
            *c0 = p * cpp;
            *nc = cols - *c0 < cpp ? cols - *c0 : cpp;
            *r0 = 0;
            *nr = rows;
        } else {
            *c0 = p / per_col;
            *nc = 1;
            *r0 = p % per_col * rpp;
            *nr = rows - *r0 < rpp ? rows - *r0 : rpp;
        }
    }
};

struct job {
    sylva__gpu_stage *st;
    const pieces *P;
    double *dst;
    const double *src;
    int64_t ldd, lds;
    bool up;
    cudaStream_t s;
    int T;
};

/* Columns nc × nr between a slot (ld nr) and the caller's host array. */
static void host_copy(double *to, int64_t ldt, const double *from, int64_t ldf, int64_t nr, int64_t nc)
{
    for (int64_t c = 0; c < nc; c++) memcpy(to + c * ldt, from + c * ldf, (size_t)nr * sizeof(double));
}

/* Thread t's share; returns its first failure (what names the call). */
static cudaError_t run_share(const job &j, int t, const char **what)
{
    sylva__gpu_stage *st = j.st;
    cudaError_t e = cudaSuccess;
    if (t > 0) {
        /* A thread made by a StarPU worker inherits the worker's binding to
         * one core; the eight would share it. Inside the solve task they
         * still copied at ~7 GB/s against 33–37 GB/s in a plain process,
         * not explained yet (docs/perf-log.md, "The solve, v5"). */
        if (st->ncpus > 1) pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &st->cpus); /* refused: stay */
        if ((e = cudaSetDevice(st->device)) != cudaSuccess) return *what = "cudaSetDevice", e;
    }
    double *slot[2] = {st->pinned + (size_t)(2 * t) * st->piece, st->pinned + (size_t)(2 * t + 1) * st->piece};
    cudaEvent_t ev[2] = {st->done[2 * t], st->done[2 * t + 1]};
    int64_t c0, nc, r0, nr;
    if (j.up) {
        int u = 0;
        for (int64_t p = t; p < j.P->count; p += j.T, u ^= 1) {
            j.P->of(p, &c0, &nc, &r0, &nr);
            if ((e = cudaEventSynchronize(ev[u])) != cudaSuccess) return *what = "cudaEventSynchronize", e;
            host_copy(slot[u], nr, j.src + r0 + c0 * j.lds, j.lds, nr, nc);
            e = cudaMemcpy2DAsync(j.dst + r0 + c0 * j.ldd, (size_t)j.ldd * sizeof(double), slot[u],
                                  (size_t)nr * sizeof(double), (size_t)nr * sizeof(double), (size_t)nc,
                                  cudaMemcpyHostToDevice, j.s);
            if (e == cudaSuccess) e = cudaEventRecord(ev[u], j.s);
            if (e != cudaSuccess) return *what = "cudaMemcpy2DAsync (staged, to the device)", e;
        }
        return e;
    }
    /* Downward: the next piece's copy is queued before this one is emptied. */
    auto queue = [&](int64_t p, int u) {
        int64_t a0, an, b0, bn;
        j.P->of(p, &a0, &an, &b0, &bn);
        cudaError_t r = cudaMemcpy2DAsync(slot[u], (size_t)bn * sizeof(double), j.src + b0 + a0 * j.lds,
                                          (size_t)j.lds * sizeof(double), (size_t)bn * sizeof(double),
                                          (size_t)an, cudaMemcpyDeviceToHost, j.s);
        return r == cudaSuccess ? cudaEventRecord(ev[u], j.s) : r;
    };
    int u = 0;
    if (t < j.P->count && (e = queue(t, 0)) != cudaSuccess) return *what = "cudaMemcpy2DAsync (staged, to the host)", e;
    for (int64_t p = t; p < j.P->count; p += j.T, u ^= 1) {
        if (p + j.T < j.P->count && (e = queue(p + j.T, u ^ 1)) != cudaSuccess)
            return *what = "cudaMemcpy2DAsync (staged, to the host)", e;
        if ((e = cudaEventSynchronize(ev[u])) != cudaSuccess) return *what = "cudaEventSynchronize", e;
        j.P->of(p, &c0, &nc, &r0, &nr);
        host_copy(j.dst + r0 + c0 * j.ldd, j.ldd, slot[u], nr, nr, nc);
    }
    return e;
}

} // namespace

extern "C" int sylva__gpu_stage_copy(sylva__gpu_stage *st, double *dst, int64_t ldd, const double *src,
                                     int64_t lds, int64_t rows, int64_t cols, int to_device, cudaStream_t s)
{
    if (rows <= 0 || cols <= 0) return SYLVA_OK;
    pieces P;
    P.rows = rows;
    P.cols = cols;
    const int64_t cap = (int64_t)st->piece;
    if (rows <= cap) {
        P.per_col = 0;
        P.cpp = cap / rows;
        P.rpp = rows;
        P.count = (cols + P.cpp - 1) / P.cpp;
    } else {
        P.cpp = 1;
        P.rpp = cap;
        P.per_col = (rows + cap - 1) / cap;
        P.count = cols * P.per_col;
    }
    job j = {st, &P, dst, src, ldd, lds, to_device != 0, s, (int)(P.count < st->threads ? P.count : st->threads)};
    std::vector<cudaError_t> err((size_t)j.T, cudaSuccess);
    std::vector<const char *> what((size_t)j.T, "");
    std::vector<std::thread> pool;
    try {
        for (int t = 1; t < j.T; t++) pool.emplace_back([&, t] { err[(size_t)t] = run_share(j, t, &what[(size_t)t]); });
    } catch (...) {
        /* A thread that cannot be made: its share (and those after) run here. */
    }
    err[0] = run_share(j, 0, &what[0]);
    for (int t = (int)pool.size() + 1; t < j.T && err[0] == cudaSuccess; t++) err[(size_t)t] = run_share(j, t, &what[(size_t)t]);
    for (auto &th : pool) th.join();
    cudaError_t e = cudaStreamSynchronize(s);
    for (int t = 0; t < j.T; t++)
        if (err[(size_t)t] != cudaSuccess) return stage_fail(what[(size_t)t], err[(size_t)t]);
    return e == cudaSuccess ? SYLVA_OK : stage_fail("cudaStreamSynchronize (staged copy)", e);
}

/* ---- The caller's block page-locked for the copies (gpu_stage.h) ---- */

namespace {

size_t page_bytes()
{
    static const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* 1 when CUDA knows address q as page-locked host memory. */
bool page_locked(const void *q)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, q) != cudaSuccess) {
        cudaGetLastError(); /* memory CUDA does not know: pageable */
        return false;
    }
    return a.type == cudaMemoryTypeHost;
}

/* Piece i of a PIECES pin: [*lo, *hi) of the block, cut at page boundaries
 * past the first (so that no page is registered twice). */
void piece_of(const sylva__gpu_pin *p, int64_t i, char **lo, char **hi)
{
    const uintptr_t b = (uintptr_t)p->base, a = b / page_bytes() * page_bytes(), e = b + p->bytes;
    const uintptr_t l = a + (uintptr_t)i * p->piece, h = l + p->piece;
    *lo = (char *)(l > b ? l : b);
    *hi = (char *)(h < e ? h : e);
}

int64_t piece_count(const sylva__gpu_pin *p)
{
    const uintptr_t b = (uintptr_t)p->base, a = b / page_bytes() * page_bytes();
    return (int64_t)((b + p->bytes - a + p->piece - 1) / p->piece);
}

int pin_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

cudaError_t copy2d(double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows, int64_t cols, bool up,
                   cudaStream_t s)
{
    return cudaMemcpy2DAsync(dst, (size_t)ldd * sizeof(double), src, (size_t)lds * sizeof(double),
                             (size_t)rows * sizeof(double), (size_t)cols,
                             up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s);
}

/* cudaHostRegister, timed into *p; false when refused (the error cleared). */
bool register_range(sylva__gpu_pin *p, void *q, size_t bytes)
{
    const double t0 = sylva__now();
    const cudaError_t e = cudaHostRegister(q, bytes, cudaHostRegisterDefault);
    p->seconds_register += sylva__now() - t0;
    if (e != cudaSuccess) cudaGetLastError();
    return e == cudaSuccess;
}

} // namespace

extern "C" int sylva__gpu_pin_upload(sylva__gpu_pin *p, int mode, size_t min_bytes, size_t piece_bytes,
                                     double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows,
                                     int64_t cols, cudaStream_t s)
{
    memset(p, 0, sizeof *p);
    p->how = SYLVA__PIN_PAGEABLE;
    if (rows <= 0 || cols <= 0) return SYLVA_OK;
    p->base = (char *)src;
    p->bytes = ((size_t)(cols - 1) * (size_t)lds + (size_t)rows) * sizeof(double);
    if (mode > 0 && p->bytes >= min_bytes) {
        if (page_locked(p->base) && page_locked(p->base + p->bytes - 1)) p->how = SYLVA__PIN_CALLER;
        else if (mode == 2 && lds == rows && ldd == rows) p->how = SYLVA__PIN_PIECES;
        else p->how = SYLVA__PIN_WHOLE;
    }
    cudaError_t e = cudaSuccess;
    if (p->how == SYLVA__PIN_WHOLE) {
        if (!register_range(p, p->base, p->bytes)) p->how = SYLVA__PIN_PAGEABLE;
        else p->registered = 1;
    }
    if (p->how == SYLVA__PIN_CALLER || p->how == SYLVA__PIN_WHOLE) {
        if ((e = copy2d(dst, ldd, src, lds, rows, cols, true, s)) != cudaSuccess) {
            cudaGetLastError(); /* not taken as page-locked after all: the pageable path */
            sylva__gpu_pin_release(p);
            p->how = SYLVA__PIN_PAGEABLE;
        }
    }
    if (p->how == SYLVA__PIN_PIECES) {
        const size_t pg = page_bytes();
        p->piece = piece_bytes < pg ? pg : (piece_bytes + pg - 1) / pg * pg;
        const int64_t count = piece_count(p);
        char *lo = p->base, *hi = p->base;
        for (int64_t i = 0; i < count && e == cudaSuccess; i++) {
            piece_of(p, i, &lo, &hi);
            if (!register_range(p, lo, (size_t)(hi - lo))) break; /* the rest goes pageable, below */
            p->registered = i + 1;
            e = cudaMemcpyAsync((char *)dst + (lo - p->base), lo, (size_t)(hi - lo), cudaMemcpyHostToDevice, s);
        }
        if (e != cudaSuccess) return pin_fail("cudaMemcpyAsync (right-hand sides to the device, pinned)", e);
        if (p->registered < count) { /* a registration refused: the rest pageable */
            piece_of(p, p->registered, &lo, &hi);
            e = cudaMemcpyAsync((char *)dst + (lo - p->base), lo, (size_t)(p->base + p->bytes - lo),
                                cudaMemcpyHostToDevice, s);
            if (e != cudaSuccess) return pin_fail("cudaMemcpyAsync (right-hand sides to the device)", e);
        }
    }
    if (p->how == SYLVA__PIN_PAGEABLE) return sylva__gpu_copy_columns(dst, ldd, src, lds, rows, cols, 1, s);
    e = cudaStreamSynchronize(s);
    return e == cudaSuccess ? SYLVA_OK : pin_fail("cudaStreamSynchronize (right-hand sides to the device)", e);
}

extern "C" int sylva__gpu_pin_download(sylva__gpu_pin *p, double *dst, int64_t ldd, const double *src, int64_t lds,
                                       int64_t rows, int64_t cols, cudaStream_t s)
{
    if (rows <= 0 || cols <= 0) return SYLVA_OK;
    if (p->how == SYLVA__PIN_PAGEABLE) return sylva__gpu_copy_columns(dst, ldd, src, lds, rows, cols, 0, s);
    cudaError_t e = cudaSuccess;
    if (p->how == SYLVA__PIN_PIECES) {
        /* Registered pieces by DMA, the rest (a refused registration) pageable after them; all
         * unregistered after the whole copy (by the release below). Unregistering each piece as
         * soon as its copy had landed measured no faster (docs/perf-log.md, v8e): removed. */
        char *lo = p->base, *hi = p->base;
        for (int64_t i = 0; i < p->registered && e == cudaSuccess; i++) {
            piece_of(p, i, &lo, &hi);
            e = cudaMemcpyAsync(lo, (const char *)src + (lo - p->base), (size_t)(hi - lo), cudaMemcpyDeviceToHost, s);
        }
        if (e == cudaSuccess && p->registered < piece_count(p)) {
            piece_of(p, p->registered, &lo, &hi);
            e = cudaMemcpyAsync(lo, (const char *)src + (lo - p->base), (size_t)(p->base + p->bytes - lo),
                                cudaMemcpyDeviceToHost, s);
        }
    } else {
        e = copy2d(dst, ldd, src, lds, rows, cols, false, s);
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    sylva__gpu_pin_release(p);
    return e == cudaSuccess ? SYLVA_OK : pin_fail("cudaMemcpyAsync (solution to the host, pinned)", e);
}

extern "C" void sylva__gpu_pin_release(sylva__gpu_pin *p)
{
    if (p->registered == 0 || (p->how != SYLVA__PIN_WHOLE && p->how != SYLVA__PIN_PIECES)) return;
    const double t0 = sylva__now();
    if (p->how == SYLVA__PIN_WHOLE) {
        if (cudaHostUnregister(p->base) != cudaSuccess) cudaGetLastError();
    } else {
        char *lo, *hi;
        for (int64_t i = 0; i < p->registered; i++) {
            piece_of(p, i, &lo, &hi);
            if (cudaHostUnregister(lo) != cudaSuccess) cudaGetLastError();
        }
    }
    p->registered = 0;
    p->seconds_unregister += sylva__now() - t0;
}
