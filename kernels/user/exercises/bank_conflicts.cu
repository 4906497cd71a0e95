// Exercise bank_conflicts: reduce1 without shared-memory bank conflicts.
// This is Harris's reduce1 (Reduction #2). Its tree steps make n-way bank conflicts: thread tid works on
// sdata[2*s*tid], so the lanes of a warp hit words 2*s apart, many of them in the same bank. Change the
// addressing so that the tree steps have no bank conflict at any block size, and keep the sums right.
// Check it: `reducescope check FILE.cu --exercise bank_conflicts` (sums at several N and block sizes, then the
// exercise's own check from the trace).
// Hint: let thread tid add sdata[tid + s] into sdata[tid], with s going from blockDim.x / 2 down to 1.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (`reducescope new --exercise bank_conflicts --wrapped`; docs/your-kernel.md) gives the
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

  // interleaved addressing with a strided index: the first blockDim.x / (2*s) threads add
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
