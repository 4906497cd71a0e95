// reduce3 -- Harris, "Optimizing Parallel Reduction in CUDA" (2007), Reduction #4: first add during
// load. A starting file of your own (`reducescope new --from reduce3 --wrapped`).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/reduce3.cu.
// Fixes: reduce2's idle threads: each thread loads two elements and adds them (half as many blocks).
// Problem: instruction overhead (address arithmetic, the loop) now limits it, not bandwidth.
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

RS_LAUNCH_SHAPE(2, Relaunch, 32);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> g_idata(in, probe);
  GlobalArray<T, Probe> g_odata(out, probe);
  SharedArray<T, Probe> sdata(probe);  // extern __shared__ T sdata[];

  // perform first level of reduction, reading from global memory, writing to shared memory
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  Acc<T> mySum = (i < n) ? g_idata[i] : T(0);  // Acc<int> is unsigned: int sums wrap like the CPU's
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
