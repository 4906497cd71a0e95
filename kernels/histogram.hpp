// The course track's histograms (seeds/004, "Histogram" ... "Shared memory atomics for histogram"):
// the kernels as data, their inputs and the CPU reference. Plain C++: the CLI and the tests use it
// without a GPU; GpuReducer (gpu_reduce.hpp) runs, times and traces the kernels.
//
// Index
//   HistoBins, HistoInput        7 letter bins or 256 byte bins; the text, uniform or skewed bytes
// The kernels themselves are registry entries (kernel_info.hpp: track "course", ReduceOp::Histogram).
//   make_histo_input(), cpu_histogram(), bin_label(), histogram_text()
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

enum class HistoBins : uint8_t { Letters7 = 0, Bytes256 = 1 };
unsigned bin_count(HistoBins b);    // 7 or 256
const char* to_string(HistoBins b);  // "7 letter bins", "256 byte bins"

// What the bytes are:
//   Text     the note's case: a real English text (assets/text/alice.txt, Lewis Carroll, 1865, public
//            domain), repeated to the requested length; 7 letter bins
//   Uniform  uniform random bytes from a fixed seed; 256 bins
//   Skewed   90% of the bytes are 'e' (one bin), the other 10% uniform random; 256 bins: the
//            contention case, most updates go to one counter
enum class HistoInput : uint8_t { Text = 0, Uniform = 1, Skewed = 2 };
const char* to_string(HistoInput in);  // "text", "uniform", "skewed"
std::optional<HistoInput> parse_histo_input(std::string_view s);
HistoBins bins_of(HistoInput in);      // Text: Letters7; Uniform, Skewed: Bytes256

// Bytes of text the recorded session's and the window's histogram traces cover: a few bytes per thread
// (about 4 on an H100, whose grid holds 2^18 threads), so that each step of the replay stays readable;
// the timings use the full N.
inline constexpr uint64_t kHistogramTraceBytes = 1u << 20;

// `bytes` bytes of input `in`; Text repeats the embedded text, the random inputs use `seed`.
std::vector<uint8_t> make_histo_input(HistoInput in, size_t bytes, uint64_t seed = 20070101);
// The counts per bin (bin_count(b) of them), as the kernels must compute them.
std::vector<uint32_t> cpu_histogram(const std::vector<uint8_t>& data, HistoBins b);
// "a-d" ... "y-z" for letter bins; "0x41 'A'" or "0x00" for byte bins.
std::string bin_label(HistoBins b, unsigned bin);
// The embedded text (assets/text/alice.txt), generated at build time.
std::string_view histogram_text();

}  // namespace rs
