// Exercise divergence: reduce0 without divergent warps in the tree steps.
// This is Harris's reduce0 (Reduction #1). In every tree step only the threads with tid % (2*s) == 0 add,
// so every warp runs with most of its lanes idle (divergence). Make the threads that add contiguous, so
// that in the steps where 32 or more threads add, whole warps add or sit out.
// Check it: `reducescope check FILE.cu --exercise divergence` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: compute index = 2 * s * tid and let the threads with index < blockDim.x add sdata[index + s] into
//       sdata[index].
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --exercise divergence --wrapped`; docs/your-kernel.md) gives the
// fuller trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__); docs/your-kernel.md has the launch shape's finishes.

RS_LAUNCH_SHAPE(1, Relaunch, 32);

template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  // extern __shared__ T sdata[], declared as bytes: with T in it, the int and float versions would clash
  extern __shared__ __align__(16) unsigned char rs_smem[];
  T* sdata = reinterpret_cast<T*>(rs_smem);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : T(0);
  __syncthreads();

  // interleaved addressing: the threads whose tid is a multiple of 2*s add
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
