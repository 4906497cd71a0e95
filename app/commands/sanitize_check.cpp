#include "sanitize_check.hpp"

#include <algorithm>
#include <chrono>

#include "common.hpp"
#include "worker.hpp"

namespace rs::cmd {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

uint64_t SanitizerRuns::n_for(const UserKernel& k, const std::vector<unsigned>& block_sizes) {
  const unsigned largest = block_sizes.empty() ? 256 : *std::max_element(block_sizes.begin(), block_sizes.end());
  return uint64_t{2} * largest * std::max(1u, k.shape.inputs_per_thread) + 1;
}

SanitizerRuns::SanitizerRuns(const UserKernel& k, std::vector<unsigned> block_sizes, uint32_t reserved_bytes,
                             double kernel_timeout_s) {
  e_.attempted = true;
  e_.block_sizes = std::move(block_sizes);
  e_.n = n_for(k, e_.block_sizes);
  t0_ = now_s();
  const std::string sanitizer = sanitizer_program();
  if (sanitizer.empty()) {
    e_.why_not = "compute-sanitizer is not on the PATH nor in /usr/local/cuda/bin";
    return;
  }
  if (e_.block_sizes.empty()) {
    e_.why_not = "the launch shape allows no block size";
    return;
  }
  compiled_ = std::make_unique<TempCompiledKernel>(k);
  std::string sizes;
  for (unsigned bs : e_.block_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(bs);
  const std::vector<std::string> program = {self_executable(), "run",     "--compiled",   compiled_->path,
                                            "--kernel-file",   k.file_name, "--n",        std::to_string(e_.n),
                                            "--block-size",    sizes};
  e_.reports.resize(3);
  const SanitizerTool tools[3] = {SanitizerTool::Racecheck, SanitizerTool::Synccheck, SanitizerTool::Memcheck};
  for (int i = 0; i < 3; ++i) {
    SanitizerReport& rep = e_.reports[i];
    rep.tool = tools[i];
    std::vector<std::string> args = {"--tool", to_string(tools[i]), "--print-limit", "1000"};
    if (tools[i] == SanitizerTool::Racecheck) args.insert(args.end(), {"--racecheck-report", "hazard"});
    args.insert(args.end(), program.begin(), program.end());
    threads_.emplace_back([this, &rep, sanitizer, args, reserved_bytes, kernel_timeout_s] {
      const double t0 = now_s();
      std::string text;
      WorkerOptions w;
      w.timeout_s = std::max(60.0, 10 * kernel_timeout_s);
      w.cancel = [this] { return abandoned_.load(); };
      w.out = [&](const std::string& s) { text += s; };
      w.err = [&](const std::string& s) { text += s; };
      const WorkerResult r = run_worker(sanitizer, args, w);
      rep.seconds = now_s() - t0;
      rep.output = read_sanitizer_output(rep.tool, text, reserved_bytes);
      rep.ran = rep.output.complete;
      if (!rep.ran) {
        rep.why_not = r.end == WorkerEnd::Exited
                          ? std::string(to_string(rep.tool)) + " stopped before its summary (exit " +
                                std::to_string(r.exit_code) + ")"
                          : worker_end_message(r, "the kernel", w.timeout_s);
      }
    });
  }
}

SanitizerRuns::~SanitizerRuns() {
  abandoned_ = true;  // finish() has joined them all already where it was called
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

SanitizerEvidence SanitizerRuns::finish() {
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  e_.seconds = now_s() - t0_;
  return e_;
}

}  // namespace rs::cmd
