// A session's metadata and rows from GpuReducer's measurements, and back (session_rows.hpp).
#include "session_rows.hpp"

#include <chrono>
#include <ctime>

#include "kernel_info.hpp"
#include "sentences.hpp"  // explain: the timing method's words

namespace rs {

std::string timing_method(int samples, int warmups, size_t l2_bytes) {
  // Stored in English, as sessions always have; the views say it in their language (explain::parse_timing_method).
  return explain::render(explain::timing_method_sentence(warmups, samples, 2.0 * l2_bytes / 1048576.0));
}

SessionMeta session_meta(const DeviceInfo& d, uint64_t n, Pattern pattern, int samples, int warmups) {
  SessionMeta m;
  m.gpu = d.name;
  m.compute_capability = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  m.cuda_version = d.cuda_runtime;
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  m.date = date;
  m.tool_version = kToolVersion;
  m.pattern = to_string(pattern);
  m.method = timing_method(samples, warmups, d.l2_bytes);
  m.n = n;
  m.sm_count = static_cast<uint32_t>(d.sm_count);
  m.l2_bytes = d.l2_bytes;
  m.samples = static_cast<uint32_t>(samples);
  m.warmups = static_cast<uint32_t>(warmups);
  m.peak_gbps = d.peak_gbps();
  return m;
}

SessionTiming to_session_timing(const std::string& name, unsigned block_size, const Timing& t, bool correct) {
  return {name, block_size, t.median_ms, t.min_ms, t.max_ms, static_cast<uint32_t>(t.samples), t.gbps,
          t.pct_peak, correct, t.launches};
}

SessionTiming to_session_timing(KernelId k, unsigned block_size, const Timing& t, bool correct) {
  return to_session_timing(kernel_info(k).name, block_size, t, correct);
}

Timing to_timing(const SessionTiming& t) {
  Timing out;
  out.median_ms = t.median_ms;
  out.min_ms = t.min_ms;
  out.max_ms = t.max_ms;
  out.samples = static_cast<int>(t.samples);
  out.gbps = t.gbps;
  out.pct_peak = t.pct_peak;
  out.launches = t.launches;
  return out;
}

}  // namespace rs
