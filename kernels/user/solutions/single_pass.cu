// The reference solution of the exercise single_pass (kernels/user/solutions/; not in the binary).
// One launch (SinglePass): each block stores its partial, the last block to finish (a ticket counter,
// as in cuda-samples' threadFenceReduction) adds them all, writes out[0] and sets the counter back to 0.
// `reducescope check kernels/user/solutions/single_pass.cu --exercise single_pass` passes every check.
//
// What you may change:
//   - the body of user_kernel, and __device__ helpers or constants of your own above it;
//   - the RS_LAUNCH_SHAPE numbers, so that they say what the body does.
// What must stay:
//   - the entry point, exactly (T: int or float):
//     template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//   - one RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size) (predefined: no #include needed).
// The wrapped dialect (kernels/user/wrapped/solutions/single_pass.cu; docs/your-kernel.md) gives the fuller
// trace: shuffle values and the order atomics land in.
// The host launches ceil(n / (B x elements per thread)) blocks of B threads with B x 4 bytes of dynamic
// shared memory (extern __shared__); docs/your-kernel.md has the launch shape's finishes.

RS_LAUNCH_SHAPE(2, SinglePass, 32);

// The tree over sdata[0 .. blockDim.x), sequential addressing; the block's sum ends in sdata[0].
template <class T>
__device__ void tree(T* sdata, unsigned int tid) {
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
}

// out[0]: the result; out[1]: the finished-block counter (zeroed by the host once; atomicInc wraps it back to 0
// at the last ticket, ready for the next launch); out[2 + b]: block b's partial sum.
template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  unsigned int* counter = reinterpret_cast<unsigned int*>(out);  // [1]: the ticket
  // extern __shared__ T sdata[], declared as bytes: with T in it, the int and float versions would clash
  extern __shared__ __align__(16) unsigned char rs_smem[];
  T* sdata = reinterpret_cast<T*>(rs_smem);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? in[i] : T(0);
  if (i + blockDim.x < n) mySum += in[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  tree(sdata, tid);

  // publish the partial, then take a ticket: the block that draws the last one sees every partial
  int last = 0;
  if (tid == 0) {
    out[2 + blockIdx.x] = sdata[0];
    __threadfence();  // the partial is visible to every block before this block's ticket is
    last = atomicInc(&counter[1], gridDim.x - 1) == gridDim.x - 1;
  }
  if (__syncthreads_or(last)) {
    // the last block: a block-stride loop over the gridDim.x partials (__ldcg: from L2, where the other
    // blocks' stores are, not from this SM's L1), then the tree
    T total = T(0);
    for (unsigned int b = tid; b < gridDim.x; b += blockDim.x) total += __ldcg(&out[2 + b]);
    sdata[tid] = total;
    __syncthreads();
    tree(sdata, tid);
    if (tid == 0) out[0] = sdata[0];
  }
}
