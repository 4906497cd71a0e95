// Why does Nsight Compute count extra shared-store wavefronts (and so "bank conflicts") in the modern
// kernels whose warp sum is __reduce_add_sync, when one lane per warp stores one word (issue 18, item 3)?
// Small kernels that each change one thing, each launched as one block of 512 threads (16 warps, so 16
// warp-level shared stores where one lane per warp stores: the conflict-free count is 16 wavefronts):
//
//   redux_loads         a stream of global loads (16-byte, 4 in flight per thread), __reduce_add_sync,
//                       lane 0 stores s[warp]                               (the pattern of vec4_loads)
//   redux_noloads       the value from threadIdx: no global load at all, then the same
//   shfl_loads          the stream of loads, the warp sum with 5 __shfl_down_sync, lane 0 stores
//   redux_loads_sync    redux_loads with __syncwarp() between the reduce and the store
//   redux_loads_fence   redux_loads with the loads' sum forced complete first (a __syncthreads() before
//                       the reduce: every load has returned before any store)
//   redux_loads_delay   redux_loads with a 20 000-cycle wait between the reduce and the store
//   loads_store         the stream of loads, no warp reduce: lane 0 stores its own sum
//   redux_loads_all     redux_loads, every lane stores (s[threadIdx.x]): 16 stores of 32 words
//   plain_noloads       no reduce at all: lane 0 stores threadIdx.x (the 16 warps' stores in the same burst)
//   redux_indep         redux_noloads, but lane 0 stores a value that does not depend on the reduce
//                       (thread 0 writes the reduce's result to global memory after the barrier)
//
// usage: redux_sts [which]   (all by default); each kernel checks its result against the CPU and
// prints it. Run under ncu, e.g. tests/ncu_redux.sh.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "redux_sts: %s: %s\n", #call, cudaGetErrorString(e_));       \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

constexpr unsigned kThreads = 512, kWarps = kThreads / 32;
constexpr unsigned kVecsPerThread = 16;  // 16-byte loads per thread: 256 bytes each
constexpr unsigned kN = kThreads * kVecsPerThread * 4;

// The stream of loads: kVecsPerThread int4 per thread, four in flight, coalesced.
__device__ __forceinline__ int stream_sum(const int4* in) {
  int sum = 0;
  for (unsigned i = threadIdx.x; i < kThreads * kVecsPerThread; i += 4 * kThreads) {
    const int4 a = in[i], b = in[i + kThreads], c = in[i + 2 * kThreads], d = in[i + 3 * kThreads];
    sum += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y + d.z + d.w;
  }
  return sum;
}

__device__ __forceinline__ int shfl_sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// The block's total from s[0..kWarps), by thread 0.
__device__ __forceinline__ void finish(const int* s, int* out) {
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (unsigned w = 0; w < kWarps; ++w) t += s[w];
    out[0] = t;
  }
}

__global__ void redux_loads(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int v = __reduce_add_sync(0xffffffffu, stream_sum(in));
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void redux_noloads(const int4*, int* out) {
  __shared__ int s[kWarps];
  const int v = __reduce_add_sync(0xffffffffu, static_cast<int>(threadIdx.x));
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void shfl_loads(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int v = shfl_sum(stream_sum(in));
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void redux_loads_sync(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int v = __reduce_add_sync(0xffffffffu, stream_sum(in));
  __syncwarp();
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void redux_loads_fence(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int sum = stream_sum(in);
  __syncthreads();  // every thread's loads have returned (their sum is used below) before any store
  const int v = __reduce_add_sync(0xffffffffu, sum);
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void redux_loads_delay(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int v = __reduce_add_sync(0xffffffffu, stream_sum(in));
  const long long t0 = clock64();
  while (clock64() - t0 < 20000) {
  }
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void loads_store(const int4* in, int* out) {
  __shared__ int s[kWarps];
  const int v = stream_sum(in);  // lane 0's own sum only; the block's total is checked as lanes 0's
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  finish(s, out);
}

__global__ void redux_loads_all(const int4* in, int* out) {
  __shared__ int s[kThreads];
  const int v = __reduce_add_sync(0xffffffffu, stream_sum(in));
  s[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (unsigned w = 0; w < kWarps; ++w) t += s[w * 32];
    out[0] = t;
  }
}

__global__ void plain_noloads(const int4*, int* out) {
  __shared__ int s[kWarps];
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = static_cast<int>(threadIdx.x);
  finish(s, out);
}

__global__ void redux_indep(const int4*, int* out) {
  __shared__ int s[kWarps];
  const int v = __reduce_add_sync(0xffffffffu, static_cast<int>(threadIdx.x));
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = static_cast<int>(threadIdx.x);
  finish(s, out);
  if (threadIdx.x == 0) out[1] = v;  // keeps the reduce (warp 0's sum of threadIdx.x)
}

struct Case {
  const char* name;
  void (*kernel)(const int4*, int*);
  int expect_kind;  // 0: the block's total; 1: sum of threadIdx; 2: lanes 0's own sums; 3: sum of lanes 0's threadIdx
};

}  // namespace

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : nullptr;
  std::vector<int> h(kN);
  for (unsigned i = 0; i < kN; ++i) h[i] = static_cast<int>((i * 2654435761u) >> 26);  // 0..63
  long long total = 0;
  for (int x : h) total += x;
  // Lane 0 of each warp sums the elements its thread loads.
  long long lane0 = 0;
  for (unsigned t = 0; t < kThreads; t += 32) {
    for (unsigned i = t; i < kThreads * kVecsPerThread; i += kThreads) {
      for (int k = 0; k < 4; ++k) lane0 += h[4 * i + k];
    }
  }
  long long tids = 0, lane0_tids = 0;
  for (unsigned t = 0; t < kThreads; ++t) tids += t, lane0_tids += t % 32 == 0 ? t : 0;
  int4* in = nullptr;
  int* out = nullptr;
  CHECK(cudaMalloc(&in, kN * sizeof(int)));
  CHECK(cudaMalloc(&out, 2 * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  const Case cases[] = {{"redux_loads", redux_loads, 0},       {"redux_noloads", redux_noloads, 1},
                        {"shfl_loads", shfl_loads, 0},         {"redux_loads_sync", redux_loads_sync, 0},
                        {"redux_loads_fence", redux_loads_fence, 0}, {"redux_loads_delay", redux_loads_delay, 0},
                        {"loads_store", loads_store, 2},       {"redux_loads_all", redux_loads_all, 0},
                        {"plain_noloads", plain_noloads, 3},   {"redux_indep", redux_indep, 3}};
  int bad = 0, ran = 0;
  for (const Case& c : cases) {
    if (which && std::strcmp(which, c.name) != 0) continue;
    ++ran;
    CHECK(cudaMemset(out, 0, 2 * sizeof(int)));
    c.kernel<<<1, kThreads>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int got = 0;
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    const long long want = c.expect_kind == 0 ? total : c.expect_kind == 1 ? tids : c.expect_kind == 2 ? lane0 : lane0_tids;
    const bool ok = got == static_cast<int>(want);
    bad += !ok;
    std::printf("%-18s %s (got %d, CPU %lld)\n", c.name, ok ? "correct" : "WRONG", got, want);
  }
  cudaFree(in);
  cudaFree(out);
  if (ran == 0) {
    std::fprintf(stderr, "redux_sts: no kernel named %s\n", which);
    return 2;
  }
  return bad ? 1 : 0;
}
