// Exercise first_add: the first add during the global load.
// The wrapped dialect (`reducescope new --exercise first_add --wrapped`), for the fuller trace
// (shuffle values, atomic landing order); the plain CUDA file is kernels/user/exercises/first_add.cu.
// This is Harris's reduce2 (Reduction #3): half of its threads are idle from the first tree step on. Let each
// thread load two elements and add them on the way into shared memory, so the first launch needs half the
// blocks, and say so in RS_LAUNCH_SHAPE. The check wants half the blocks and at least 1.5x reduce2's time.
// Check it: `reducescope check FILE.cu --exercise first_add` (sums at several N and block sizes, then the
// exercise's own check from the trace and the timing).
// Hint: i = blockIdx.x * (blockDim.x * 2) + threadIdx.x; add g_idata[i] and g_idata[i + blockDim.x] (each only if below n).
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

  // sequential addressing: thread tid adds the word s above it; the lanes of a warp read consecutive words
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
