// Exercise first_add: the first add during the global load.
// This is Harris's reduce2 (Reduction #3): half of its threads are idle from the first tree step on. Let each
// thread load two elements and add them on the way into shared memory, so the first launch needs half the
// blocks, and say so in RS_LAUNCH_SHAPE. The check wants half the blocks and at least 1.5x reduce2's time.
// Check it: `reducescope check FILE.cu --exercise first_add` (sums at several N and block sizes, then the
// exercise's own check from the trace and the timing).
// Hint: i = blockIdx.x * (blockDim.x * 2) + threadIdx.x; add in[i] and in[i + blockDim.x] (each only if below n).
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --exercise first_add --wrapped`; docs/your-kernel.md) gives the
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

  // sequential addressing: thread tid adds the word s above it; the lanes of a warp read consecutive words
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
