// sum_shared -- the lecture notes' "shared atomic op" (sum_shared.cu): each block adds into its own
// shared s_sum, then one atomicAdd per block into the global sum. A starting file of your own
// (`reducescope new --from sum_shared`).
// Fixes: contention on one global address (one global atomic per block, not one per element).
// Problem: the block's updates are still serialised, now on s_sum: blockDim.x shared atomics per block.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --from sum_shared --wrapped`; docs/your-kernel.md) gives the fuller
// trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__). GlobalAtomic: the host zeroes out[0] before the one launch; the kernel
// adds into it with atomicAdd.

RS_LAUNCH_SHAPE(1, GlobalAtomic, 32);

template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  extern __shared__ __align__(16) unsigned char rs_smem[];
  const T* pData = in;                         // const float* pData
  T* dev_sum = out;                            // __device__ float dev_sum = 0.0f;  (out[0]; the host zeroes it)
  T* s_sum = reinterpret_cast<T*>(rs_smem);    // __shared__ float s_sum;  (as s_sum[0], in the dynamic memory)

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  if (tx == 0) s_sum[0] = 0;
  __syncthreads();
  if (i < n) {
    atomicAdd_block(&s_sum[0], pData[i]);
  }
  __syncthreads();
  if (tx == 0) {
    atomicAdd(dev_sum, s_sum[0]);
  }
}
