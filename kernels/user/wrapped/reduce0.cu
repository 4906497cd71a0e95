// reduce0 -- Harris, "Optimizing Parallel Reduction in CUDA" (2007), Reduction #1: interleaved
// addressing. A starting file of your own (`reducescope new --from reduce0 --wrapped`; docs/your-kernel.md).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/reduce0.cu.
// Problem: highly divergent warps (only threads with tid % (2*s) == 0 work), and % is slow.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - `#include "reducescope.cuh"` (embedded in reducescope: the file is all you need);
//   - the entry point, exactly: template <class T, class Probe>
//     __global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe)   (T: int or float);
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size);
//   - the wrappers (SharedArray, GlobalArray, GlobalVar) on memory you want to see in the trace: a plain
//     pointer or a static __shared__ array runs, but the trace does not show it.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (SharedArray). Relaunch: block b writes its partial sum to out[b]; the host launches the
// kernel again on the partials until one block is left.
#include "reducescope.cuh"

RS_LAUNCH_SHAPE(1, Relaunch, 32);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> g_idata(in, probe);
  GlobalArray<T, Probe> g_odata(out, probe);
  SharedArray<T, Probe> sdata(probe);  // extern __shared__ T sdata[];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : T(0);
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
