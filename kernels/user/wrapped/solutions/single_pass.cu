// The reference solution of the exercise single_pass (kernels/user/wrapped/solutions/; not in the binary).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/solutions/single_pass.cu.
// One launch (SinglePass): each block stores its partial, the last block to finish (a ticket counter,
// as in cuda-samples' threadFenceReduction) adds them all, writes out[0] and sets the counter back to 0.
// `reducescope check kernels/user/wrapped/solutions/single_pass.cu --exercise single_pass` passes every check.
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

RS_LAUNCH_SHAPE(2, SinglePass, 32);

// The tree over sdata[0 .. blockDim.x), sequential addressing; the block's sum ends in sdata[0].
template <class T, class Probe>
__device__ void tree(SharedArray<T, Probe>& sdata, unsigned int tid, Probe& probe) {
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
}

// out[0]: the result; out[1]: the finished-block counter (zeroed by the host once; atomicInc wraps it back to 0
// at the last ticket, ready for the next launch); out[2 + b]: block b's partial sum.
template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> g_idata(in, probe);
  GlobalArray<T, Probe> g_out(out, probe);
  GlobalArray<unsigned int, Probe> counter(reinterpret_cast<unsigned int*>(out), probe);  // [1]: the ticket
  SharedArray<T, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  Acc<T> mySum = (i < n) ? g_idata[i] : T(0);
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  tree(sdata, tid, probe);

  // publish the partial, then take a ticket: the block that draws the last one sees every partial
  int last = 0;
  if (tid == 0) {
    g_out[2 + blockIdx.x] = sdata[0];
    __threadfence();  // the partial is visible to every block before this block's ticket is
    last = atomicInc(&counter[1], gridDim.x - 1) == gridDim.x - 1;
  }
  if (__syncthreads_or(last)) {
    // the last block: a block-stride loop over the gridDim.x partials (load_cg: from L2, where the other
    // blocks' stores are), then the tree
    Acc<T> total = T(0);
    for (unsigned int b = tid; b < gridDim.x; b += blockDim.x) total += g_out.load_cg(2 + b);
    sdata[tid] = total;
    __syncthreads();
    tree(sdata, tid, probe);
    if (tid == 0) g_out[0] = sdata[0];
  }
}
