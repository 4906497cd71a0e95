// Exercise single_pass: a single-pass finish: one launch.
// The wrapped dialect (`reducescope new --exercise single_pass --wrapped`), for the fuller trace
// (shuffle values, atomic landing order); the plain CUDA file is kernels/user/exercises/single_pass.cu.
// This is Harris's reduce3 (Reduction #4): the host launches it again on the partial sums until one block is
// left (RS_LAUNCH_SHAPE's Relaunch). Finish the whole reduction in one launch instead (SinglePass): the
// last block to finish adds every block's partial. Right at N = 1, 33, 1000003 and 2^24 and every block size.
// Check it: `reducescope check FILE.cu --exercise single_pass` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: out starts zeroed. Thread 0 writes the block's partial to out[2 + blockIdx.x], __threadfence(), then takes
//       a ticket: atomicInc(&counter[1], gridDim.x - 1) with counter = out as GlobalArray<unsigned int, Probe> (it
//       wraps out[1] back to 0); the block that drew gridDim.x - 1 adds out[2 ...] (load_cg) and writes out[0].
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
