// `reducescope bench --track multigpu` and `record --track multigpu` (issue 21): the sum spread over G GPUs
// and the element-wise all-reduce three ways, measured by measure_multigpu (kernels/multigpu_run.hpp),
// printed as tables in nccl-tests' terms beside the peer-to-peer copy, and stored in a session.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "common.hpp"
#include "multigpu_run.hpp"

namespace rs {

using namespace cmd;

namespace {

// The all-reduce sizes by default: 4 KiB to 1 GiB by factors of 4 (nccl-tests' -b 4K -e 1G -f 4).
std::vector<uint64_t> default_sizes() {
  std::vector<uint64_t> v;
  for (uint64_t b = 4096; b <= (uint64_t{1} << 30); b *= 4) v.push_back(b);
  return v;
}

MultiGpuConfig config_from(const Options& o, bool record) {
  MultiGpuConfig c;
  c.gpus = o.gpus;
  c.sizes = o.mg_sizes.empty() ? default_sizes() : o.mg_sizes;
  c.check_elems = {1, 3, 1001, 1000003};  // divisible by neither 2 nor 4 (nor 3 where G = 3 ... mostly)
  c.sum_n = o.have_n ? std::vector<uint64_t>{o.n} : std::vector<uint64_t>{1u << 24, 1u << 26, 1u << 28};
  c.samples = o.samples;
  c.timeout_s = o.timeout_s;
  if (record) {
    for (uint64_t b : {uint64_t{1} << 20, uint64_t{256} << 20}) {
      if (std::find(c.sizes.begin(), c.sizes.end(), b) != c.sizes.end()) c.ring_trace_sizes.push_back(b);
    }
    if (c.ring_trace_sizes.empty()) c.ring_trace_sizes.push_back(*std::max_element(c.sizes.begin(), c.sizes.end()));
  }
  return c;
}

}  // namespace

std::string summarize_multigpu(const SessionMultiGpu& m) {
  std::string s;
  char b[512];
  std::string names = m.gpu_names.empty() ? "?" : m.gpu_names[0];
  std::snprintf(b, sizeof b, "%u x %s%s, NCCL %s, recorded %s\n", m.gpus, names.c_str(),
                m.link.empty() ? "" : (", linked by " + m.link).c_str(), m.nccl_version.c_str(), m.date.c_str());
  s += b;
  s += "Method: " + m.method + "\n";
  if (!m.peer_access) s += "No peer access between the GPUs: peer copies were staged through host memory.\n";

  const std::vector<uint64_t> sizes = m.sizes("allreduce");
  if (!sizes.empty()) {
    s += "\n== all-reduce, float32, element-wise, on " + std::to_string(m.gpus) +
         " GPUs (busbw = algbw x 2(G-1)/G; % = of the P2P copy one way) ==\n";
    std::snprintf(b, sizeof b, "%9s %9s %9s | %9s %8s %5s | %9s %8s %5s %6s | %9s %8s %5s | %s\n", "size", "P2P GB/s",
                  "both ways", "NCCL ms", "busbw", "%", "ring ms", "busbw", "%", "/NCCL", "naive ms", "busbw", "%",
                  "results");
    s += b;
    for (uint64_t bytes : sizes) {
      const MultiGpuRow* p2p = m.find("copy", "p2p", bytes);
      const MultiGpuRow* bi = m.find("copy_bidir", "p2p", bytes);
      const MultiGpuRow* nc = m.find("allreduce", "nccl", bytes);
      const MultiGpuRow* ring = m.find("allreduce", "ring", bytes);
      const MultiGpuRow* naive = m.find("allreduce", "naive", bytes);
      const double line = p2p ? p2p->busbw_gbps : 0;
      auto ms = [](const MultiGpuRow* r) { return r ? fmt("%9.4f", r->median_ms) : std::string("        -"); };
      auto bw = [](const MultiGpuRow* r) { return r ? fmt("%8.1f", r->busbw_gbps) : std::string("       -"); };
      auto pct = [&](const MultiGpuRow* r) {
        return r && line > 0 ? fmt("%4.0f%%", 100.0 * r->busbw_gbps / line) : std::string("    -");
      };
      const std::string ratio = ring && nc ? fmt("%5.2fx", ring->busbw_gbps / nc->busbw_gbps) : "     -";
      std::string results;
      for (const MultiGpuRow* r : {p2p, bi, nc, ring, naive}) {
        if (r && !r->correct) results += (results.empty() ? "WRONG: " : ", ") + r->op + " " + r->method;
      }
      if (results.empty()) results = "correct";
      std::snprintf(b, sizeof b, "%9s %9s %9s | %s %s %s | %s %s %s %s | %s %s %s | %s\n", bytes_label(bytes).c_str(),
                    p2p ? fmt("%9.1f", p2p->busbw_gbps).c_str() : "-", bi ? fmt("%9.1f", bi->busbw_gbps).c_str() : "-",
                    ms(nc).c_str(), bw(nc).c_str(), pct(nc).c_str(), ms(ring).c_str(), bw(ring).c_str(),
                    pct(ring).c_str(), ratio.c_str(), ms(naive).c_str(), bw(naive).c_str(), pct(naive).c_str(),
                    results.c_str());
      s += b;
    }
    // The goal: the ring within 0.9x of NCCL's busbw from 64 MiB up.
    std::string met, missed;
    for (uint64_t bytes : sizes) {
      const MultiGpuRow* nc = m.find("allreduce", "nccl", bytes);
      const MultiGpuRow* ring = m.find("allreduce", "ring", bytes);
      if (!nc || !ring || bytes < (uint64_t{64} << 20)) continue;
      const double r = ring->busbw_gbps / nc->busbw_gbps;
      std::string& list = r >= 0.9 ? met : missed;
      list += (list.empty() ? " " : ", ") + bytes_label(bytes) + fmt(" (%.2fx)", r);
    }
    if (!met.empty() || !missed.empty()) {
      s += "Goal, the ring >= 0.9x NCCL's busbw from 64 MiB up: " +
           (missed.empty() ? "met at" + met : "missed at" + missed + (met.empty() ? "" : "; met at" + met)) + ".\n";
    }
    s += "ring = " + multigpu_method_text("allreduce", "ring") + ".\nnaive = " +
         multigpu_method_text("allreduce", "naive") + ". NCCL = " + multigpu_method_text("allreduce", "nccl") +
         "; NCCL is not traced.\n";
  }
  for (const RingRecording& r : m.rings) {
    if (r.events.empty()) continue;
    const uint32_t steps = 2 * (r.gpus - 1);
    double copy_us = 0, add_us = 0;
    for (const RingEvent& e : r.events) {
      copy_us += e.copy_end_us - e.copy_start_us;
      if (e.phase == RingPhase::ReduceScatter) add_us += e.add_end_us - e.add_start_us;
    }
    std::snprintf(b, sizeof b,
                  "Traced ring at %s: %u steps in %.1f us (%.1f us a step); a chunk of %s per copy; copies average "
                  "%.1f us, adds %.1f us.\n",
                  bytes_label(r.bytes).c_str(), steps, r.total_us, r.total_us / steps,
                  bytes_label(r.events[0].chunk_bytes).c_str(), copy_us / r.events.size(),
                  add_us / (r.events.size() / 2.0));
    s += b;
  }

  const std::vector<uint64_t> sums = m.sizes("sum");
  if (!sums.empty()) {
    s += "\n== sum of N int32 spread over the GPUs: each reduces its shard, then ncclReduce to GPU 0 ==\n";
    std::snprintf(b, sizeof b, "%12s | %10s %8s | %10s %8s | %7s | %s\n", "N", "1 GPU ms", "GB/s",
                  (std::to_string(m.gpus) + " GPUs ms").c_str(), "GB/s", "speedup", "results");
    s += b;
    for (uint64_t bytes : sums) {
      const MultiGpuRow* one = m.find("sum", "one_gpu", bytes);
      const MultiGpuRow* many = m.find("sum", "nccl", bytes);
      std::string results = (one && !one->correct) || (many && !many->correct) ? "WRONG" : "correct";
      std::snprintf(b, sizeof b, "%12llu | %10s %8s | %10s %8s | %7s | %s\n",
                    static_cast<unsigned long long>(bytes / 4), one ? fmt("%10.4f", one->median_ms).c_str() : "-",
                    one ? fmt("%8.1f", one->algbw_gbps).c_str() : "-", many ? fmt("%10.4f", many->median_ms).c_str() : "-",
                    many ? fmt("%8.1f", many->algbw_gbps).c_str() : "-",
                    one && many ? fmt("%6.2fx", one->median_ms / many->median_ms).c_str() : "-", results.c_str());
      s += b;
    }
    s += "GB/s = N x 4 bytes / median time. 1 GPU = " + multigpu_method_text("sum", "one_gpu") + "; " +
         std::to_string(m.gpus) + " GPUs = " + multigpu_method_text("sum", "nccl") + ".\n";
  }
  if (!m.topology.empty()) s += "\nnvidia-smi topo -m:\n" + m.topology;
  return s;
}

int run_multigpu(const Options& o, bool record, std::ostream& out, std::ostream& err) {
  const char* command = record ? "record" : "bench";
  return guarded(command, err, [&] {
    const MultiGpuConfig cfg = config_from(o, record);
    Session s;
    if (record && o.add) s = load_session(o.out);  // before measuring: a bad file fails at once
    out << "ReduceScope " << command << " --track multigpu: " << cfg.sizes.size() << " all-reduce sizes ("
        << bytes_label(cfg.sizes.front()) << " .. " << bytes_label(cfg.sizes.back()) << "), " << cfg.samples
        << " samples each\n";
    out.flush();
    SessionMultiGpu m = measure_multigpu(cfg, [&](const std::string& line) {
      out << "  " << line << "\n";
      out.flush();
    });
    out << "\n" << summarize_multigpu(m);
    bool all_correct = true;
    for (const MultiGpuRow& r : m.rows) all_correct = all_correct && r.correct;
    if (!o.csv.empty()) {
      std::ofstream csv(o.csv);
      if (!csv) throw std::runtime_error(o.csv + ": cannot open for writing");
      csv << "gpus,gpu,op,method,bytes,median_ms,min_ms,max_ms,samples,algbw_gbps,busbw_gbps,correct\n";
      for (const MultiGpuRow& r : m.rows) {
        csv << r.gpus << ",\"" << m.gpu_names[0] << "\"," << r.op << ',' << r.method << ',' << r.bytes << ','
            << fmt("%.6f", r.median_ms) << ',' << fmt("%.6f", r.min_ms) << ',' << fmt("%.6f", r.max_ms) << ','
            << r.samples << ',' << fmt("%.2f", r.algbw_gbps) << ',' << fmt("%.2f", r.busbw_gbps) << ','
            << (r.correct ? 1 : 0) << '\n';
      }
      if (!csv.flush()) throw std::runtime_error(o.csv + ": write failed");
      out << "CSV written to " << o.csv << "\n";
    }
    if (record) {
      if (!o.add) {
        GpuReducer gpu(0);
        s.meta = session_meta(gpu.device(), o.n, o.pattern, o.samples, 3);
      }
      s.multigpu = std::move(m);
      save_session(s, o.out);
      out << "session saved to " << o.out << "\n";
    }
    if (!all_correct) {
      err << "reducescope " << command << ": some multi-GPU results do not match the CPU reference\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

}  // namespace rs
