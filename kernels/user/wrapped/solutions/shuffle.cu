// The reference solution of the exercise shuffle (kernels/user/wrapped/solutions/; not in the binary).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/solutions/shuffle.cu.
// The tree in shared memory down to 64 sums, then the first warp with __shfl_down_sync: five shuffles,
// registers only (the lecture's warp-shuffle reduction, with shfl_down).
// `reducescope check kernels/user/wrapped/solutions/shuffle.cu --exercise shuffle` passes every check.
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

  // the last warp: 64 sums into 32 registers, then five shuffles; no shared memory after the first
  if (tid < 32) {
    Acc<T> v = sdata[tid];  // Acc<int> wraps like the CPU's int sum
    v += sdata[tid + 32];
    for (unsigned int offset = 16; offset > 0; offset >>= 1) {
      v += __shfl_down_sync(0xffffffff, v, offset);  // lane t adds lane t + offset's value
    }
    if (tid == 0) g_odata[blockIdx.x] = v;  // lane 0 holds the block's sum
  }
}
