// Exercise divergence: reduce0 without divergent warps in the tree steps.
// The wrapped dialect (`reducescope new --exercise divergence --wrapped`), for the fuller trace
// (shuffle values, atomic landing order); the plain CUDA file is kernels/user/exercises/divergence.cu.
// This is Harris's reduce0 (Reduction #1). In every tree step only the threads with tid % (2*s) == 0 add,
// so every warp runs with most of its lanes idle (divergence). Make the threads that add contiguous, so
// that in the steps where 32 or more threads add, whole warps add or sit out.
// Check it: `reducescope check FILE.cu --exercise divergence` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: compute index = 2 * s * tid and let the threads with index < blockDim.x add sdata[index + s] into sdata[index].
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - `#include "reducescope.cuh"` (embedded in reducescope: the file is all you need);
//   - the entry point, exactly: template <class T, class Probe>
//     __global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe)   (T: int or float);
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size);
//   - the wrappers (SharedArray, GlobalArray, GlobalVar) on memory you want to see in the trace.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (SharedArray); docs/your-kernel.md has the launch shape's finishes.
#include "reducescope.cuh"

RS_LAUNCH_SHAPE(1, Relaunch, 32);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> g_idata(in, probe);
  GlobalArray<T, Probe> g_odata(out, probe);
  SharedArray<T, Probe> sdata(probe);  // extern __shared__ T sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : T(0);
  __syncthreads();

  // interleaved addressing: the threads whose tid is a multiple of 2*s add
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
