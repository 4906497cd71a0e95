// sum_shared -- the lecture notes' "shared atomic op" (sum_shared.cu): each block adds into its own
// shared s_sum, then one atomicAdd per block into the global sum. A starting file of your own
// (`reducescope new --from sum_shared --wrapped`).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/sum_shared.cu.
// Fixes: contention on one global address (one global atomic per block, not one per element).
// Problem: the block's updates are still serialised, now on s_sum: blockDim.x shared atomics per block.
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
// shared memory (SharedArray). GlobalAtomic: the host zeroes out[0] before the one launch; the kernel
// adds into it with atomicAdd.
#include "reducescope.cuh"

RS_LAUNCH_SHAPE(1, GlobalAtomic, 32);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> pData(in, probe);  // const float* pData
  GlobalVar<T, Probe> dev_sum(out, probe);       // __device__ float dev_sum = 0.0f;  (the host zeroes it)
  SharedArray<T, Probe> s_sum(probe);            // __shared__ float s_sum;  (as s_sum[0])

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  if (tx == 0) s_sum[0] = 0;
  __syncthreads();
  if (i < n) {
    atomicAdd_block(&s_sum[0], pData[i]);
  }
  __syncthreads();
  if (tx == 0) {
    atomicAdd(&dev_sum, s_sum[0]);
  }
}
