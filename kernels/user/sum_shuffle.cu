// sum_shuffle -- the lecture notes' "warp shuffle": a tree in shared memory down to 64 values, then the
// last warp adds registers across lanes with __shfl_xor_sync (a butterfly: after 5 steps every lane holds
// the warp's sum). A starting file of your own (`reducescope new --from sum_shuffle`).
// Fixes: shared-memory traffic in the last warp. Needs 64 threads per block or more (it reads
// s_data[tx + 32]).
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --from sum_shuffle --wrapped`; docs/your-kernel.md) gives the fuller
// trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__). GlobalAtomic: the host zeroes out[0] before the one launch; the kernel
// adds into it with atomicAdd.

RS_LAUNCH_SHAPE(2, GlobalAtomic, 64);

template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  extern __shared__ __align__(16) unsigned char rs_smem[];
  const T* pData = in;
  T* dev_sum = out;  // out[0]; the host zeroes it
  T* s_data = reinterpret_cast<T*>(rs_smem);  // extern __shared__ T s_data[], as bytes (one name for int and float)

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  T sum = (i < n) ? pData[i] : T(0);
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
      atomicAdd(dev_sum, sum);
    }
  }
}
