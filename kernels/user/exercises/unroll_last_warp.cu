// Exercise unroll_last_warp: the last warp's six steps without __syncthreads().
// This is Harris's reduce3 (Reduction #4). When s <= 32 only the first warp still adds, yet every step ends
// with a __syncthreads() for the whole block. Stop the loop at s > 32 and let the first warp finish the last
// six steps by itself, synchronised with __syncwarp() only. RS_LAUNCH_SHAPE's minimum block size must then be 64.
// Check it: `reducescope check FILE.cu --exercise unroll_last_warp` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: if (tid < 32) { v = sdata[tid] + sdata[tid + 32]; then for s = 16 ... 1: __syncwarp(); store v;
//       __syncwarp(); v += sdata[tid + s]; } (the stores and loads through a volatile T* to sdata).
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --exercise unroll_last_warp --wrapped`; docs/your-kernel.md) gives the
// fuller trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__); docs/your-kernel.md has the launch shape's finishes.

RS_LAUNCH_SHAPE(2, Relaunch, 32);

template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  // extern __shared__ T sdata[], declared as bytes: with T in it, the int and float versions would clash
  extern __shared__ __align__(16) unsigned char rs_smem[];
  T* sdata = reinterpret_cast<T*>(rs_smem);

  // the first add during the load: each thread reads two elements, a block 2 x blockDim.x of them
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? in[i] : T(0);
  if (i + blockDim.x < n) mySum += in[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();

  // sequential addressing: thread tid adds the word s above it; the lanes of a warp read consecutive words
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
