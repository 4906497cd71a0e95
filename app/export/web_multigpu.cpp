// The multigpu track's part of the web page's data (app/export/web_json.hpp).
#include <set>
#include <string>
#include <utility>

#include "stored.hpp"  // explain: the method read back
#include "web_json.hpp"

namespace rs::webjson {

// The multigpu track (tracing/multigpu.hpp, `record --track multigpu`), only when the session has one:
// the GPUs, the rows (median ms per call; algbw and busbw in GB/s, nccl-tests' doc/PERFORMANCE.md), each
// method in words, the size labels ("4 KiB"), the traced rings (times in us from the run's start) and,
// per ring, which chunks each GPU holds fully summed after each number of steps (summed_chunks): the page
// simulates the schedule itself and the browser test compares the two.
void multigpu_json(Json& j, const SessionMultiGpu& m) {
  j.key("multigpu").obj();
  j.kv("gpus", m.gpus).key("names").arr();
  for (const std::string& n : m.gpu_names) j.str(n);
  j.end_arr();
  j.kv("link", m.link).kv("nccl", m.nccl_version).kv("date", m.date).kv("method", m.method);
  if (const auto said_method = explain::multigpu_method_sentence(m.method)) said(j, "method_say", *said_method);
  j.kv("peer_access", m.peer_access).kv("topology", m.topology);
  j.kv("allreduce_factor", busbw_factor("allreduce", m.gpus));
  std::set<uint64_t> sizes;
  std::set<std::pair<std::string, std::string>> methods;
  j.key("rows").arr();
  for (const MultiGpuRow& r : m.rows) {
    j.obj().kv("op", r.op).kv("method", r.method).kv("bytes", r.bytes).kv("gpus", r.gpus);
    j.kv("median_ms", r.median_ms).kv("min_ms", r.min_ms).kv("max_ms", r.max_ms).kv("samples", r.samples);
    j.kv("algbw_gbps", r.algbw_gbps).kv("busbw_gbps", r.busbw_gbps).kv("correct", r.correct).end_obj();
    sizes.insert(r.bytes);
    methods.insert({r.op, r.method});
  }
  j.end_arr();
  j.key("methods").obj();  // "op method": the method in words
  for (const auto& [op, method] : methods) j.kv((op + " " + method).c_str(), multigpu_method_text(op, method));
  j.end_obj();
  // [step, phase (0 reduce-scatter, 1 all-gather), from, to, chunk, chunk bytes, copy start, copy end, add start,
  // add end] per transfer, in ring_schedule order.
  j.key("rings").arr();
  for (const RingRecording& r : m.rings) {
    j.obj().kv("bytes", r.bytes).kv("gpus", r.gpus).kv("total_us", r.total_us);
    j.key("events").arr();
    for (const RingEvent& e : r.events) {
      j.arr().num(e.step).num(static_cast<int>(e.phase)).num(e.from).num(e.to).num(e.chunk).num(e.chunk_bytes);
      j.num(e.copy_start_us).num(e.copy_end_us).num(e.add_start_us).num(e.add_end_us).end_arr();
      sizes.insert(e.chunk_bytes);
    }
    j.end_arr();
    j.key("summed").arr();  // [steps done][GPU]: the chunks it holds summed over every GPU
    for (uint32_t k = 0; r.gpus >= 2 && r.gpus <= 64 && k <= 2 * (r.gpus - 1); ++k) {
      j.arr();
      for (uint32_t g = 0; g < r.gpus; ++g) {
        j.arr();
        for (uint32_t c : summed_chunks(r.gpus, g, k)) j.num(c);
        j.end_arr();
      }
      j.end_arr();
    }
    j.end_arr().end_obj();
    sizes.insert(r.bytes);
  }
  j.end_arr();
  j.key("labels").arr();  // [bytes, "4 KiB"] for every size above
  for (uint64_t b : sizes) j.arr().num(b).str(bytes_label(b)).end_arr();
  j.end_arr();
  j.end_obj();
}

}  // namespace rs::webjson
