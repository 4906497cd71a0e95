// Host dispatch generated from each track's kernel list: for every kernel, a table of launchable
// instantiations per element type x probe x block size. No hand-written switch over kernels or
// block sizes (STYLE.md: cuda-samples' hand-expanded switch drifted).
//
// A track's kernel file ends with
//   RS_TRACK_KERNELS(lecture, RS_KERNEL(sum_atomic), RS_KERNEL(sum_shared), ...)
// which defines `lecture_launchers()`. The binding macros say which template shape a kernel has:
//   RS_KERNEL(K)         template <class T, class Probe>, int and float
//   RS_KERNEL_INT(K)     template <class Probe>, int only (Harris's reduce0..reduce4)
//   RS_KERNEL_INT_BS(K)  template <unsigned blockSize, class Probe>, int only (reduce5, reduce6)
//   RS_KERNEL_BS(K)      template <unsigned blockSize, class T, class Probe>, int and float
//                        (cub_block_reduce: cub::BlockReduce takes the block size at compile time)
//   RS_KERNEL_OP(NAME, K, OP)  template <template <class> class Op, class T, class Probe>, int and
//                        float, bound to operator policy OP under the registry name NAME (the course
//                        track: one kernel source, one entry per operator)
// Kernels that do not take the block size as a template parameter are instantiated once per
// type and probe (the same pointer fills every block size), so only what is used is compiled.
//
// Every kernel has the signature  kernel(const T* in, T* out, unsigned int n, Probe probe).
#pragma once

// Defined before probe.cuh, whose fallback would make the kernel files' lists empty.
#define RS_TRACK_KERNELS(TRACK, ...)                                   \
  const std::vector<KernelLaunchers>& TRACK##_launchers() {            \
    static const std::vector<KernelLaunchers> v = {__VA_ARGS__};       \
    return v;                                                          \
  }

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_info.hpp"
#include "probe.cuh"

namespace rs {

template <class T, class Probe>
using KernelFn = void (*)(const T*, T*, unsigned int, Probe);

template <class T, class Probe>
using FnByBlockSize = std::array<KernelFn<T, Probe>, kBlockSizes.size()>;

// One kernel's instantiations; nullptr where a type is not taken.
struct KernelLaunchers {
  const char* name = nullptr;
  FnByBlockSize<int, NullProbe> int_null{};
  FnByBlockSize<int, TraceProbe> int_trace{};
  FnByBlockSize<float, NullProbe> float_null{};
  FnByBlockSize<float, TraceProbe> float_trace{};

  template <class T, class Probe>
  KernelFn<T, Probe> get(size_t block_size_index) const {
    if constexpr (std::is_same_v<T, int> && std::is_same_v<Probe, NullProbe>) return int_null[block_size_index];
    if constexpr (std::is_same_v<T, int> && std::is_same_v<Probe, TraceProbe>) return int_trace[block_size_index];
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Probe, NullProbe>) return float_null[block_size_index];
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Probe, TraceProbe>) return float_trace[block_size_index];
  }
};

template <class T>
struct TypeTag {
  using type = T;
};

namespace detail {
template <class T, class Probe, class Bind, size_t... I>
void fill(FnByBlockSize<T, Probe>& a, Bind bind, std::index_sequence<I...>) {
  ((a[I] = bind(TypeTag<T>{}, TypeTag<Probe>{}, std::integral_constant<unsigned, kBlockSizes[I]>{})), ...);
}
}  // namespace detail

// `bind(type tag, probe tag, block-size constant)` returns the instantiation's address.
template <bool Int, bool Float, class Bind>
KernelLaunchers bind_kernel(const char* name, Bind bind) {
  KernelLaunchers k;
  k.name = name;
  constexpr auto seq = std::make_index_sequence<kBlockSizes.size()>{};
  if constexpr (Int) {
    detail::fill<int, NullProbe>(k.int_null, bind, seq);
    detail::fill<int, TraceProbe>(k.int_trace, bind, seq);
  }
  if constexpr (Float) {
    detail::fill<float, NullProbe>(k.float_null, bind, seq);
    detail::fill<float, TraceProbe>(k.float_trace, bind, seq);
  }
  return k;
}

#define RS_KERNEL(K)                                                                              \
  ::rs::bind_kernel<true, true>(#K, [](auto t, auto p, auto) {                                    \
    return &K<typename decltype(t)::type, typename decltype(p)::type>;                            \
  })
#define RS_KERNEL_INT(K) \
  ::rs::bind_kernel<true, false>(#K, [](auto, auto p, auto) { return &K<typename decltype(p)::type>; })
#define RS_KERNEL_FLOAT(K) \
  ::rs::bind_kernel<false, true>(#K, [](auto t, auto p, auto) { return &K<typename decltype(t)::type, typename decltype(p)::type>; })
#define RS_KERNEL_INT_BS(K)                                          \
  ::rs::bind_kernel<true, false>(#K, [](auto, auto p, auto bs) {     \
    return &K<decltype(bs)::value, typename decltype(p)::type>;      \
  })
#define RS_KERNEL_BS(K)                                                                           \
  ::rs::bind_kernel<true, true>(#K, [](auto t, auto p, auto bs) {                                 \
    return &K<decltype(bs)::value, typename decltype(t)::type, typename decltype(p)::type>;       \
  })
#define RS_KERNEL_OP(NAME, K, OP)                                                                 \
  ::rs::bind_kernel<true, true>(#NAME, [](auto t, auto p, auto) {                                 \
    return &K<OP, typename decltype(t)::type, typename decltype(p)::type>;                        \
  })
// The course track's histogram kernels (kernels/histogram.hpp), for 7 letter bins [0] and 256 byte
// bins [1]; every one has the signature  kernel(const unsigned char* buffer, long size,
// unsigned int* histo, Probe probe). Listed in histogram_table() order by kernels/track_course.cu.
template <class Probe>
using HistoFn = void (*)(const unsigned char*, long, unsigned int*, Probe);
struct HistoLaunchers {
  const char* name = nullptr;
  std::array<HistoFn<NullProbe>, 2> null{};
  std::array<HistoFn<TraceProbe>, 2> trace{};
  template <class Probe>
  HistoFn<Probe> get(size_t bins_index) const {
    if constexpr (std::is_same_v<Probe, NullProbe>) return null[bins_index];
    if constexpr (std::is_same_v<Probe, TraceProbe>) return trace[bins_index];
  }
};
#define RS_HISTO_KERNEL(K)                                                             \
  ::rs::HistoLaunchers {                                                               \
    #K, {&K<LetterBins, NullProbe>, &K<ByteBins, NullProbe>}, {                        \
      &K<LetterBins, TraceProbe>, &K<ByteBins, TraceProbe>                             \
    }                                                                                  \
  }
const std::vector<HistoLaunchers>& course_histogram_launchers();
const std::vector<HistoLaunchers>& modern_histogram_launchers();  // kernels/track_modern.cu

// Each track's list, defined by its kernel file's RS_TRACK_KERNELS (kernels/track_*.cu).
const std::vector<KernelLaunchers>& harris_launchers();
const std::vector<KernelLaunchers>& lecture_launchers();
const std::vector<KernelLaunchers>& book_launchers();
const std::vector<KernelLaunchers>& course_launchers();
const std::vector<KernelLaunchers>& modern_launchers();
const std::vector<KernelLaunchers>& pitfalls_launchers();

}  // namespace rs
