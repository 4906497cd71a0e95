// sum_shuffle -- the lecture notes' "warp shuffle": a tree in shared memory down to 64 values, then the
// last warp adds registers across lanes with __shfl_xor_sync (a butterfly: after 5 steps every lane holds
// the warp's sum). A starting file of your own (`reducescope new --from sum_shuffle --wrapped`).
// The wrapped dialect, for the fuller trace (shuffle values, atomic landing order); the plain CUDA file is
// kernels/user/sum_shuffle.cu.
// Fixes: shared-memory traffic in the last warp. Needs 64 threads per block or more (it reads
// s_data[tx + 32]).
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

RS_LAUNCH_SHAPE(2, GlobalAtomic, 64);

template <class T, class Probe>
__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe) {
  GlobalArray<const T, Probe> pData(in, probe);
  GlobalVar<T, Probe> dev_sum(out, probe);  // the host zeroes it
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  Acc<T> sum = (i < n) ? pData[i] : T(0);
  if (i + blockDim.x < n) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) {
    sum = s_data[tx];
    sum += s_data[tx + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xffffffff, sum, offset);
    }
    if (tx == 0) {
      atomicAdd(&dev_sum, sum);
    }
  }
}
