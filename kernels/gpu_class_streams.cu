/* gpu_class_streams.cu — the second stream and the three events (fork,
 * lists built, join) a vbatched call splits its size classes with (tuning key class_streams, gpu_front.cu):
 * per calling thread and device, made at the thread's first need on that
 * device and destroyed when the thread ends. Per thread, because the entry
 * points take one stream and no context: each of StarPU's CUDA workers is a
 * thread with its own stream, so each gets its own second stream and events
 * with no lock and no sharing (an event is recorded and waited on by one
 * thread's calls only, in call order); a call's fork and join are complete
 * on the caller's stream, so nothing outlives the call but the objects
 * themselves. Two streams per thread and device at most: one at the
 * device's greatest priority, one at its least (the default). Non-blocking,
 * so that a caller on the legacy default stream (stream 0) does not
 * serialize them with its own work. Internal to kernels/. */
#include "gpu_common.cuh"

namespace sylva {

#define CS_DEVICES 16

namespace {
struct class_set {
    cudaStream_t stream[2]; /* [0] least (default) priority, [1] greatest */
    cudaEvent_t fork, listed, join;
};
struct thread_sets {
    class_set dev[CS_DEVICES] = {};
    ~thread_sets()
    {
        /* At the thread's end (the main thread's: before the runtime's own
         * teardown); errors (a reset device, an unloading runtime) ignored. */
        for (auto &d : dev) {
            for (auto &st : d.stream)
                if (st) cudaStreamDestroy(st);
            for (cudaEvent_t ev : {d.fork, d.listed, d.join})
                if (ev) cudaEventDestroy(ev);
        }
        cudaGetLastError();
    }
};
thread_local thread_sets sets;
} // namespace

int class_streams(bool high, cudaStream_t *aux, cudaEvent_t ev[3])
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= CS_DEVICES) {
        cudaGetLastError();
        return SYLVA_ERR_UNSUPPORTED;
    }
    class_set &c = sets.dev[dev];
    cudaError_t e = cudaSuccess;
    for (cudaEvent_t *p : {&c.fork, &c.listed, &c.join}) {
        cudaEvent_t made = nullptr;
        if (e == cudaSuccess && !*p && (e = cudaEventCreateWithFlags(&made, cudaEventDisableTiming)) == cudaSuccess)
            *p = made;
    }
    if (e == cudaSuccess && !c.stream[high]) {
        int least = 0, greatest = 0;
        cudaStream_t st = nullptr;
        e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
        if (e == cudaSuccess)
            e = cudaStreamCreateWithPriority(&st, cudaStreamNonBlocking, high ? greatest : least);
        if (e == cudaSuccess) c.stream[high] = st;
    }
    if (e != cudaSuccess) {
        cudaGetLastError();
        return SYLVA_ERR_RUNTIME;
    }
    *aux = c.stream[high], ev[0] = c.fork, ev[1] = c.listed, ev[2] = c.join;
    return SYLVA_OK;
}

} // namespace sylva
