// A plain CUDA program, written the way a course writes it: its own main(), extern __shared__,
// plain pointers, no ReduceScope code. Used to show the binary tracer attaching to any program
// (docs/binary-trace.md):
//
//   nvcc -lineinfo -arch=sm_90 -o two_reductions examples/two_reductions.cu
//   reducescope trace --kernel reduce_strided --out strided.rstrace -- ./two_reductions 16777216
//
// Two kernels over N ints (default 2^24): reduce_strided (the strided index of Harris's second
// kernel: bank conflicts) and reduce_shuffle (a grid-stride loop, then warp shuffles). Each writes
// one partial sum per block; the host adds the partials and checks both sums against the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                             \
  do {                                                                                          \
    cudaError_t e_ = (call);                                                                    \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

__global__ void reduce_strided(const int* in, int* out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_shuffle(const int* in, int* out, unsigned n) {
  extern __shared__ int warp_sums[];
  int sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffff, sum, offset);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 1u << 24;
  const unsigned threads = 256;
  std::vector<int> host(n);
  long long expect = 0;
  for (unsigned i = 0; i < n; ++i) {
    host[i] = static_cast<int>((i * 2654435761u) >> 28);  // 0..15
    expect += host[i];
  }
  int *in = nullptr, *out = nullptr;
  const unsigned blocks = (n + threads - 1) / threads;
  const unsigned shuffle_blocks = 264;  // two per SM of an H100; the grid-stride loop covers the rest
  const unsigned partials = blocks > shuffle_blocks ? blocks : shuffle_blocks;
  CHECK(cudaMalloc(&in, sizeof(int) * n));
  CHECK(cudaMalloc(&out, sizeof(int) * partials));
  CHECK(cudaMemcpy(in, host.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
  std::vector<int> partial(partials);

  reduce_strided<<<blocks, threads, threads * sizeof(int)>>>(in, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(partial.data(), out, sizeof(int) * blocks, cudaMemcpyDeviceToHost));
  long long got = 0;
  for (unsigned b = 0; b < blocks; ++b) got += partial[b];
  std::printf("reduce_strided: %lld (CPU %lld) %s\n", got, expect, got == expect ? "right" : "WRONG");
  bool ok = got == expect;

  reduce_shuffle<<<shuffle_blocks, threads, threads / 32 * sizeof(int)>>>(in, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(partial.data(), out, sizeof(int) * shuffle_blocks, cudaMemcpyDeviceToHost));
  got = 0;
  for (unsigned b = 0; b < shuffle_blocks; ++b) got += partial[b];
  std::printf("reduce_shuffle: %lld (CPU %lld) %s\n", got, expect, got == expect ? "right" : "WRONG");
  ok = ok && got == expect;
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
