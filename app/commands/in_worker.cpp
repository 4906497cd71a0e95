// run_in_worker (commands.hpp): a command on a user's kernel, run again in a worker process with a time limit
// (app/worker.hpp), so a kernel that hangs or faults ends the worker, not this process.
#include <algorithm>
#include <cstdio>
#include <ostream>
#include <unistd.h>

#include "commands.hpp"
#include "common.hpp"
#include "sanitizer_report.hpp"
#include "worker.hpp"

namespace rs {

namespace {

// A CUDA fault that compute-sanitizer can place: the messages of cudaErrorIllegalAddress, misaligned address,
// an illegal instruction, a trap (assert), a launch failure.
bool cuda_fault(const std::string& err) {
  // Any CUDA error but the absence of a GPU: the kernel's fault shows at the next call that waits for it, under
  // whatever name the driver gives it (an illegal address, a misaligned one, an address space the access may
  // not use, an illegal instruction, a trap).
  return (err.find("cudaError") != std::string::npos || err.find("CUDA_ERROR") != std::string::npos) &&
         err.find("no CUDA GPU") == std::string::npos;
}


}  // namespace

int run_in_worker(const std::vector<std::string>& args, const Options& o, std::ostream& out, std::ostream& err) {
  const std::string exe = self_executable();
  const std::string file = o.kernel_file.empty() ? o.file : o.kernel_file;
  std::string err_text;
  WorkerOptions w;
  w.timeout_s = o.kernel_timeout_s;
  w.env = compiling_worker_env();  // it compiles the file (NVRTC): its malloc on huge pages (worker.hpp)
  w.out = [&](const std::string& s) { out << s << std::flush; };
  w.err = [&](const std::string& s) {
    err << s << std::flush;
    err_text += s;
  };
  const WorkerResult r = run_worker(exe, args, w);
  if (r.end == WorkerEnd::Exited) {
    if (r.exit_code == kExitRuntime && cuda_fault(err_text)) {
      const std::string sanitizer = cmd::sanitizer_program();
      if (sanitizer.empty()) {
        if (err_text.find("unspecified launch failure") != std::string::npos) {
          err << "  (a trap, __trap() or a failed assert in device code, ends a kernel this way too)\n";
        }
        err << "  (with compute-sanitizer on the PATH, the first report would name the line)\n";
      } else {
        // Again under compute-sanitizer's memcheck, which names the access and its file:line (-lineinfo).
        std::vector<std::string> again = {"--tool", "memcheck", "--print-limit", "1", exe};
        again.insert(again.end(), args.begin(), args.end());
        std::string report;
        WorkerOptions ws;
        ws.timeout_s = std::max(60.0, 10 * o.kernel_timeout_s);
        ws.out = [&](const std::string& s) { report += s; };
        ws.err = [&](const std::string& s) { report += s; };
        run_worker(sanitizer, again, ws);
        const std::string first = sanitizer_first_report(report);
        if (const std::string trap = trap_sentence(first); !trap.empty()) err << trap << "\n";
        if (!first.empty()) err << "compute-sanitizer's first report:\n" << first;
      }
    }
    return r.exit_code;
  }
  err << "reducescope: " << worker_end_message(r, file, o.kernel_timeout_s) << "\n";
  return kExitRuntime;
}

}  // namespace rs
