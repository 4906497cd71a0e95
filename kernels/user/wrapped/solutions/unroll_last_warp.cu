// The reference solution of the exercise unroll_last_warp (kernels/user/wrapped/solutions/; not in the binary).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/solutions/unroll_last_warp.cu.
// Harris's Reduction #5, the last warp unrolled; __syncwarp() between its steps (since Volta the lanes of
// a warp need it: the slides' volatile-only version is a race). At least 64 threads (reduce4).
// `reducescope check kernels/user/wrapped/solutions/unroll_last_warp.cu --exercise unroll_last_warp` passes
// every check.
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

RS_LAUNCH_SHAPE(2, Relaunch, 64);

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

  // the tree with barriers while more than one warp adds
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // the last warp: six steps without __syncthreads(); each lane reads before any lane writes
  if (tid < 32) {
    Acc<T> v = sdata[tid];
    v += sdata[tid + 32];
    for (unsigned int s = 16; s > 0; s >>= 1) {
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
      v += sdata[tid + s];
    }
    if (tid == 0) g_odata[blockIdx.x] = v;
  }
}
