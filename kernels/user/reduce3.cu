// reduce3 -- Harris, "Optimizing Parallel Reduction in CUDA" (2007), Reduction #4: first add during
// load. A starting file of your own (`reducescope new --from reduce3`).
// Fixes: reduce2's idle threads: each thread loads two elements and adds them (half as many blocks).
// Problem: instruction overhead (address arithmetic, the loop) now limits it, not bandwidth.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --from reduce3 --wrapped`; docs/your-kernel.md) gives the fuller trace:
// shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__). Relaunch: block b writes its partial sum to out[b]; the host launches the
// kernel again on the partials until one block is left.

RS_LAUNCH_SHAPE(2, Relaunch, 32);

template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  // extern __shared__ T sdata[], declared as bytes: with T in it, the int and float versions would clash
  extern __shared__ __align__(16) unsigned char rs_smem[];
  T* sdata = reinterpret_cast<T*>(rs_smem);

  // perform first level of reduction, reading from global memory, writing to shared memory
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? in[i] : T(0);
  if (i + blockDim.x < n) mySum += in[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
