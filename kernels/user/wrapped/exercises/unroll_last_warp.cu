// Exercise unroll_last_warp: the last warp's six steps without __syncthreads().
// The wrapped dialect (`reducescope new --exercise unroll_last_warp --wrapped`), for the fuller trace
// (shuffle values, atomic landing order); the plain CUDA file is kernels/user/exercises/unroll_last_warp.cu.
// This is Harris's reduce3 (Reduction #4). When s <= 32 only the first warp still adds, yet every step ends
// with a __syncthreads() for the whole block. Stop the loop at s > 32 and let the first warp finish the last
// six steps by itself, synchronised with __syncwarp() only. RS_LAUNCH_SHAPE's minimum block size must then be 64.
// Check it: `reducescope check FILE.cu --exercise unroll_last_warp` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: if (tid < 32) { v = sdata[tid] + sdata[tid + 32]; then for s = 16 ... 1: __syncwarp(); store v; __syncwarp(); v += sdata[tid + s]; }
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

RS_LAUNCH_SHAPE(2, Relaunch, 32);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> g_idata(in, probe);
  GlobalArray<T, Probe> g_odata(out, probe);
  SharedArray<T, Probe> sdata(probe);  // extern __shared__ T sdata[];

  // the first add during the load: each thread reads two elements, a block 2 x blockDim.x of them
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  Acc<T> mySum = (i < n) ? g_idata[i] : T(0);  // Acc<int> wraps like the CPU's int sum
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
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
