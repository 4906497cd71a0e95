// The reference solution of the exercise shuffle (kernels/user/solutions/; not in the binary).
// The tree in shared memory down to 64 sums, then the first warp with __shfl_down_sync: five shuffles,
// registers only (the lecture's warp-shuffle reduction, with shfl_down).
// `reducescope check kernels/user/solutions/shuffle.cu --exercise shuffle` passes every check.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (kernels/user/wrapped/solutions/shuffle.cu; docs/your-kernel.md) gives the fuller
// trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__); docs/your-kernel.md has the launch shape's finishes.

RS_LAUNCH_SHAPE(2, Relaunch, 64);

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

  // the tree with barriers while more than one warp adds
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // the last warp: 64 sums into 32 registers, then five shuffles; no shared memory after the first
  if (tid < 32) {
    T v = sdata[tid];
    v += sdata[tid + 32];
    for (unsigned int offset = 16; offset > 0; offset >>= 1) {
      v += __shfl_down_sync(0xffffffffu, v, offset);  // lane t adds lane t + offset's value
    }
    if (tid == 0) out[blockIdx.x] = v;  // lane 0 holds the block's sum
  }
}
