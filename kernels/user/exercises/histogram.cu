// Exercise histogram: the text histogram, privatised in shared memory, at least 10x histo_basic.
// This is the course's histo_basic ("A basic text histogram kernel", interleaved partitioning): every thread
// reads bytes a grid apart and makes one global atomicAdd per letter, so all the GPU's threads contend for the
// same seven counters in global memory. Give each block its own copy of the bins in shared memory (short-latency
// atomics, contention within the block only), then add the block's copy to the global bins once.
// Check it: `reducescope check FILE.cu --exercise histogram` (every bin against the CPU at several sizes and block
// sizes, then the shared-memory atomics and the time against histo_basic on 2^26 bytes of text).
// Hint: __shared__ unsigned int histo_s[7]; zero it, __syncthreads(), count into it with atomicAdd, __syncthreads(),
// then one atomicAdd(&bins[b], histo_s[b]) per bin.
//
// What you may change:
//   - the body of user_histogram, and __device__ helpers or constants of your own above it.
// What must stay:
//   - the entry point exactly: __global__ void user_histogram(const unsigned char* text, long n, unsigned int* bins)
//   - the bins: 7 letter bins, bin = (c - 'a') / 4 for a lowercase letter c (a-d, e-h, ..., y-z); other bytes are
//     not counted. The host zeroes bins[0..6] before each launch.
// The host launches a grid-stride grid: min(blocks that fit on the GPU at once, ceil(n / B)) blocks of B threads,
// with 1 KiB of dynamic shared memory (extern __shared__, if you want it). Plain CUDA only: a histogram file has no
// wrapped dialect, and no RS_LAUNCH_SHAPE.

__global__ void user_histogram(const unsigned char* text, long n, unsigned int* bins) {
  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  // stride is total number of threads
  long stride = (long)blockDim.x * gridDim.x;
  while (i < n) {
    int alphabet_position = text[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) atomicAdd(&bins[alphabet_position / 4], 1u);
    i += stride;
  }
}
