// Does the probe cost anything in the timing build? Times each lecture and book kernel as its source writes
// it (tests/sass/plain_lecture.cu: raw pointers, intrinsics called directly) against the same
// kernel from kernels/lecture_kernels.cuh instantiated with NullProbe, on the same input, one
// launch each (the first level of the reduction), alternating the two so that clock and thermal
// drift fall on both alike.
//   probe_overhead [N] [SAMPLES]      defaults 2^24 floats, 31 samples; prints one row per kernel
//                                     and block size: median ms of each and their ratio
// Method: before every sample the L2 is flushed by writing 2 x its size; CUDA events around the
// launch (and the accumulator's memset, in both); median and [min .. max].
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "book_kernels.cuh"
#include "lecture_kernels.cuh"
#include "../tests/sass/plain_book.cu"
#include "../tests/sass/plain_lecture.cu"

namespace {

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                          \
      std::fprintf(stderr, "probe_overhead: %s: %s\n", #call, cudaGetErrorString(e_));                \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

using Plain = void (*)(const float*, float*, unsigned int);
using Probed = void (*)(const float*, float*, unsigned int, rs::NullProbe);

struct Pair {
  const char* name;
  Plain plain;
  Probed probed;
  unsigned per_thread;  // elements each thread loads
};

using PlainInt = void (*)(int*, int*, unsigned int);
using ProbedInt = void (*)(const int*, int*, unsigned int, rs::NullProbe);

struct PairInt {  // the book's in-place kernels (int, on a scratch copy)
  const char* name;
  PlainInt plain;
  ProbedInt probed;
  unsigned per_thread;
};

struct Stats {
  double median, min, max;
};
Stats stats(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
  const int samples = argc > 2 ? std::atoi(argv[2]) : 31;
  if (n == 0 || n > (1ull << 30) || samples < 1) {
    std::fprintf(stderr, "usage: probe_overhead [N (1..2^30)] [SAMPLES (>= 1)]\n");
    return 2;
  }
  const Pair pairs[] = {
      {"sum_atomic", plain::sum_atomic, rs::sum_atomic<float, rs::NullProbe>, 1},
      {"sum_shared", plain::sum_shared, rs::sum_shared<float, rs::NullProbe>, 1},
      {"sum_reduce", plain::sum_reduce, rs::sum_reduce<float, rs::NullProbe>, 1},
      {"sum_reversed", plain::sum_reversed, rs::sum_reversed<float, rs::NullProbe>, 1},
      {"sum_add_first", plain::sum_add_first, rs::sum_add_first<float, rs::NullProbe>, 2},
      {"sum_last_warp", plain::sum_last_warp, rs::sum_last_warp<float, rs::NullProbe>, 2},
      {"sum_shuffle", plain::sum_shuffle, rs::sum_shuffle<float, rs::NullProbe>, 2},
      {"sum_two_step", plain::sum_two_step, rs::sum_two_step<float, rs::NullProbe>, 2},
  };
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::vector<float> h(n);
  std::mt19937_64 rng(20070101);
  for (auto& x : h) x = static_cast<float>(rng() >> 40) * 0x1p-24f;
  float *in = nullptr, *out = nullptr;
  void* flush = nullptr;
  const size_t flush_bytes = 2 * static_cast<size_t>(prop.l2CacheSize);
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, (n / 64 + 2) * sizeof(float)));
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::printf("probe_overhead on %s: N = %zu float32, %d samples each, L2 flushed (%zu MiB) before each\n",
              prop.name, n, samples, flush_bytes >> 20);
  std::printf("%-26s %5s %10s %21s %10s %21s %7s\n", "kernel", "block", "plain ms", "[min .. max]", "probe ms",
              "[min .. max]", "ratio");
  // One row: `launch(0)` (the plain kernel) and `launch(1)` (the NullProbe one), alternating, two
  // warm-ups of each, the L2 flushed before every launch.
  auto compare = [&](const char* name, unsigned bs, auto launch) {
    std::vector<float> tp, tq;
    for (int s = -2; s < samples; ++s) {
      for (int which = 0; which < 2; ++which) {
        CHECK(cudaMemset(flush, s & 0xff, flush_bytes));
        CHECK(cudaEventRecord(a));
        launch(which);
        CHECK(cudaPeekAtLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (s >= 0) (which == 0 ? tp : tq).push_back(ms);
      }
    }
    const Stats sp = stats(tp), sq = stats(tq);
    std::printf("%-26s %5u %10.4f   [%7.4f .. %7.4f] %10.4f   [%7.4f .. %7.4f] %6.3fx\n", name, bs, sp.median, sp.min,
                sp.max, sq.median, sq.min, sq.max, sq.median / sp.median);
  };
  for (unsigned bs : {256u, 1024u}) {
    for (const Pair& p : pairs) {
      const unsigned grid = static_cast<unsigned>((n + bs * p.per_thread - 1) / (bs * p.per_thread));
      compare(p.name, bs, [&](int which) {
        CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
        if (which == 0) {
          p.plain<<<grid, bs, bs * sizeof(float)>>>(in, out, static_cast<unsigned>(n));
        } else {
          p.probed<<<grid, bs, bs * sizeof(float)>>>(in, out, static_cast<unsigned>(n), rs::NullProbe{});
        }
      });
    }
  }
  // The book's kernels reduce in place: they run on a scratch buffer (its contents do not change the
  // work they do), padded to whole 8 x 1024 tiles, int32.
  const PairInt book[] = {
      {"reduceNeighbored", plain::reduceNeighbored, rs::reduceNeighbored<rs::NullProbe>, 1},
      {"reduceNeighboredLess", plain::reduceNeighboredLess, rs::reduceNeighboredLess<rs::NullProbe>, 1},
      {"reduceInterleaved", plain::reduceInterleaved, rs::reduceInterleaved<rs::NullProbe>, 1},
      {"reduceUnrolling2", plain::reduceUnrolling2, rs::reduceUnrolling2<rs::NullProbe>, 2},
      {"reduceUnrolling4", plain::reduceUnrolling4, rs::reduceUnrolling4<rs::NullProbe>, 4},
      {"reduceUnrolling8", plain::reduceUnrolling8, rs::reduceUnrolling8<rs::NullProbe>, 8},
      {"reduceUnrollWarps8", plain::reduceUnrollWarps8, rs::reduceUnrollWarps8<rs::NullProbe>, 8},
      {"reduceCompleteUnrollWarps8", plain::reduceCompleteUnrollWarps8, rs::reduceCompleteUnrollWarps8<rs::NullProbe>, 8},
      {"reduceCompleteUnroll", plain::reduceCompleteUnroll<512>, rs::reduceCompleteUnroll<512, rs::NullProbe>, 8},
  };
  const size_t padded = (n + 8191) / 8192 * 8192;
  int* scratch = nullptr;
  CHECK(cudaMalloc(&scratch, padded * sizeof(int)));
  CHECK(cudaMemset(scratch, 1, padded * sizeof(int)));
  for (const PairInt& p : book) {
    const unsigned bs = 512;  // the book's; reduceCompleteUnroll is instantiated for it
    const unsigned grid = static_cast<unsigned>((n + bs * p.per_thread - 1) / (bs * p.per_thread));
    compare(p.name, bs, [&](int which) {
      if (which == 0) {
        p.plain<<<grid, bs>>>(scratch, reinterpret_cast<int*>(out), static_cast<unsigned>(padded));
      } else {
        p.probed<<<grid, bs>>>(scratch, reinterpret_cast<int*>(out), static_cast<unsigned>(padded), rs::NullProbe{});
      }
    });
  }
  std::printf("ratio = probe (NullProbe) median / plain median; 1.000x = no cost.\n");
  return 0;
}
