// A plain CUDA program over floats, written the way a course writes it: a template kernel, its own main(),
// extern __shared__. Used to show that the binary tracer types a kernel's values from its parameters
// (issue 38: attached with no --type, block_max<float> showed its shared words as int32 bits, 121.5 as
// 1123221504) and names the launch it traced (docs/binary-trace.md):
//
//   nvcc -lineinfo -arch=sm_90 -o block_max examples/block_max.cu
//   reducescope trace --kernel block_max --out max.rstrace -- ./block_max 1048576
//   reducescope trace --kernel block_max --launch 3 --out max3.rstrace -- ./block_max 1048576
//
// Each of four launches takes the maximum of N floats (default 2^20; launch k over x + k, so the launches
// differ) to one value per block of 256 threads; the host takes the maximum of the partials and checks it
// against the CPU.
#include <cfloat>
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

template <class T>
__global__ void block_max(const T* in, T* out, int n) {
  extern __shared__ unsigned char smem[];
  T* sdata = reinterpret_cast<T*>(smem);
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : -FLT_MAX;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>((i * 7919) % 1000) * 0.125f - 3.5f;
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
  std::vector<float> part(blocks);
  for (int k = 0; k < 4; ++k) {
    std::vector<float> xk(x);
    for (float& v : xk) v += static_cast<float>(k);
    CHECK(cudaMemcpy(d_in, xk.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    block_max<float><<<blocks, threads, threads * sizeof(float)>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(part.data(), d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    float gpu = -FLT_MAX, cpu = -FLT_MAX;
    for (float p : part) gpu = p > gpu ? p : gpu;
    for (float v : xk) cpu = v > cpu ? v : cpu;
    std::printf("launch %d: max %g (CPU %g) %s\n", k + 1, gpu, cpu, gpu == cpu ? "ok" : "WRONG");
    if (gpu != cpu) return 1;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
