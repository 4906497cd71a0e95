// `reducescope trace --kernel NAME [--launch K] [--block X[,Y,Z]] --out F.rstrace -- PROGRAM ARGS`: the
// binary tracer (issue 28, docs/binary-trace.md). Runs PROGRAM with tracing/binary/injector.cpp injected
// through CUDA_INJECTION64_PATH (the way compute-sanitizer attaches), lets its output and exit code pass
// through, then turns the capture into a trace: the kernel's SASS and line table from nvdisasm, its source
// from the file the line table names.
#include "attach.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "assemble.hpp"
#include "capture.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "trace_io.hpp"
#include "worker.hpp"

extern char** environ;

namespace rs {

using namespace cmd;
namespace fs = std::filesystem;

namespace {

// The first existing file of `candidates`, or "".
std::string first_existing(const std::vector<std::string>& candidates) {
  for (const auto& c : candidates) {
    std::error_code ec;
    if (!c.empty() && fs::is_regular_file(c, ec)) return c;
  }
  return {};
}

std::string cuda_home() {
  const char* h = std::getenv("CUDA_HOME");
  return h && *h ? h : "/usr/local/cuda";
}

// A tool of the CUDA toolkit: $CUDA_HOME/bin, /usr/local/cuda/bin, then the PATH.
std::string toolkit_program(const std::string& name) {
  const std::string in_toolkit = first_existing({cuda_home() + "/bin/" + name, "/usr/local/cuda/bin/" + name});
  return in_toolkit.empty() ? find_on_path(name) : in_toolkit;
}

// Runs argv with the current environment plus `env`; its stdio is ours (stdout to /dev/null when `quiet`).
// Returns its exit code (128 + signal when a signal ended it). Throws if it cannot be started. (run_worker,
// worker.hpp, copies a child's output through pipes and sets no environment: the traced program keeps its own
// terminal and needs CUDA_INJECTION64_PATH.)
int run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env, bool quiet) {
  std::vector<std::string> envs;
  // It dies with this process (die_with_parent, worker.hpp): a window or `check` that is killed leaves no trace run.
  const std::string parent = "REDUCESCOPE_PARENT=";
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, parent.c_str(), parent.size()) != 0) envs.emplace_back(*e);
  }
  envs.push_back(parent + std::to_string(getpid()));
  for (const auto& kv : env) envs.push_back(kv);
  std::vector<char*> a, e;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  for (const auto& s : envs) e.push_back(const_cast<char*>(s.c_str()));
  e.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (quiet) posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  const int rc = posix_spawnp(&pid, a[0], &fa, nullptr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for " + argv[0] + " failed");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// The SASS of `cubin` with its line table, inlined calls included (`nvdisasm -gi -c`), or throws with what
// nvdisasm said.
std::string disassemble_now(const std::string& nvdisasm, const std::string& cubin) {
  std::string listing, diagnostics;
  WorkerOptions w;
  w.out = [&](const std::string& s) { listing += s; };
  w.err = [&](const std::string& s) { diagnostics += s; };
  const WorkerResult r = run_worker(nvdisasm, {"-gi", "-c", cubin}, w);
  if (r.end != WorkerEnd::Exited || r.exit_code != 0) {
    throw std::runtime_error("nvdisasm could not read the kernel's module: " +
                             (r.end == WorkerEnd::NotStarted ? r.message : diagnostics.substr(0, 500)));
  }
  return listing;
}

// disassemble_now once per module and process (issue 40: a check traces one kernel file at a dozen N and block sizes,
// side by side, every one the same module): the first trace of a module runs nvdisasm, the others wait for its
// listing.
std::string disassemble(const std::string& nvdisasm, const std::string& cubin, const std::string& bytes) {
  static std::mutex mu;
  static std::map<std::string, std::shared_future<std::string>> seen;  // module bytes -> its listing, maybe coming
  std::promise<std::string> mine;
  std::shared_future<std::string> listing;
  bool first = false;
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (seen.size() > 16) seen.clear();  // a long-lived process (the window) traces many files
    auto it = seen.find(bytes);
    if (it == seen.end()) {
      it = seen.emplace(bytes, mine.get_future().share()).first;
      first = true;
    }
    listing = it->second;
  }
  if (first) {
    try {
      mine.set_value(disassemble_now(nvdisasm, cubin));
    } catch (...) {
      mine.set_exception(std::current_exception());
      const std::lock_guard<std::mutex> lock(mu);
      seen.erase(bytes);  // a later trace tries again
    }
  }
  return listing.get();
}

// Now, UTC, ISO 8601 ("2026-11-25T22:37:05Z"): the trace's date (no CUDA needed).
std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "reducescope-attach-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

Attached attach_and_trace(const AttachRequest& q) {
  // The injector and the patch module are built beside this executable.
  const char* bt_dir = std::getenv("RS_BT_DIR");
  const std::string base = bt_dir && *bt_dir ? std::string(bt_dir) : fs::path(self_executable()).parent_path().string();
  const std::string injector = first_existing({base + "/libreducescope_inject.so"});
  const std::string patches = first_existing({base + "/rs_bt_patches.fatbin"});
  if (injector.empty() || patches.empty()) {
    throw std::runtime_error(
        "this build has no binary tracer: it was built without the Compute Sanitizer API's headers "
        "(the CUDA toolkit's compute-sanitizer/include; docs/binary-trace.md)");
  }
  if (first_existing({cuda_home() + "/compute-sanitizer/libsanitizer-public.so",
                      "/usr/local/cuda/compute-sanitizer/libsanitizer-public.so"})
          .empty()) {
    throw std::runtime_error("no Compute Sanitizer API on this machine (libsanitizer-public.so from the CUDA "
                             "toolkit's compute-sanitizer folder): cannot attach to a program");
  }
  const std::string nvdisasm = toolkit_program("nvdisasm");
  if (nvdisasm.empty()) throw std::runtime_error("nvdisasm (CUDA toolkit) not found: it reads the kernel's SASS and line table");

  TempDir tmp;
  const std::string capture_path = (tmp.path / "capture.rscapture").string();
  Attached a;
  const auto t0 = std::chrono::steady_clock::now();
  a.program_rc = run_program(q.program,
                             {"CUDA_INJECTION64_PATH=" + injector, "RS_BT_KERNEL=" + q.kernel,
                              "RS_BT_LAUNCH=" + std::to_string(q.launch), "RS_BT_BLOCK=" + q.block,
                              "RS_BT_OUT=" + capture_path, "RS_BT_PATCHES=" + patches},
                             q.quiet_program);
  const auto t1 = std::chrono::steady_clock::now();
  std::error_code ec;
  if (!fs::exists(capture_path, ec)) {
    throw std::runtime_error(q.program[0] + " exited with " + std::to_string(a.program_rc) +
                             " without starting CUDA on a GPU (no GPU here, or it launched no kernel): nothing traced");
  }
  const bt::Capture cap = bt::load_capture(capture_path);
  if (cap.status == bt::CaptureStatus::NoMatch) {
    std::string why = cap.message + ". Kernels " + q.program[0] + " launched:";
    if (cap.launched.empty()) why += " none";
    for (const auto& [name, count] : cap.launched) {
      why += "\n  " + name + " (" + std::to_string(count) + " launch" + (count == 1 ? "" : "es") + ")";
    }
    throw std::runtime_error(why);
  }
  if (cap.status == bt::CaptureStatus::Failed) throw std::runtime_error("the binary tracer failed: " + cap.message);

  const std::string cubin = (tmp.path / "kernel.cubin").string();
  {
    std::ofstream f(cubin, std::ios::binary);
    f.write(cap.cubin.data(), static_cast<std::streamsize>(cap.cubin.size()));
    if (!f) throw std::runtime_error("cannot write " + cubin);
  }
  const std::string listing = disassemble(nvdisasm, cubin, std::string(cap.cubin.data(), cap.cubin.size()));
  if (!q.keep_stem.empty()) {  // RS_BT_KEEP: how tests/fixtures/binary/ was recorded
    fs::copy_file(capture_path, q.keep_stem + ".rscapture", fs::copy_options::overwrite_existing);
    std::ofstream(q.keep_stem + ".sass") << listing;
  }
  bt::AssembleOptions opt;
  opt.dtype = q.dtype;
  opt.tool_version = kToolVersion;
  opt.date = utc_now_iso();
  opt.read_source = [&q](const std::string& path) -> std::optional<std::string> {
    if (!q.source_name.empty() && path == q.source_name) return q.source_text;
    try {
      return read_text_file(path);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  a.trace = bt::assemble_trace(cap, bt::parse_nvdisasm(listing), opt, &a.report);
  a.kernel = cap.kernel;
  a.launch = cap.launch;
  a.program_s = std::chrono::duration<double>(t1 - t0).count();
  a.after_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  return a;
}

AttachRequest attach_to_run(const std::string& kernel, unsigned block_size, uint64_t n, DType type,
                            const std::string& pattern) {
  AttachRequest q;
  q.program = {self_executable(), "run", "--kernel", kernel, "--block-size", std::to_string(block_size), "--n",
               std::to_string(n), "--type", to_string(type), "--pattern", pattern};
  q.kernel = "NullProbe";  // the timing build's kernels; `run` launches the kernel's first grid before any other
  q.dtype = type;
  q.quiet_program = true;
  return q;
}

int run_attach(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("trace", err, [&]() -> int {
    AttachRequest q;
    q.program = o.program;
    q.kernel = o.attach_kernel;
    q.launch = o.launch;
    q.block = o.block_index;
    if (!o.dtypes.empty()) q.dtype = o.dtypes[0];  // else the kernel's parameters say it
    if (const char* keep = std::getenv("RS_BT_KEEP"); keep && *keep) {
      q.keep_stem = std::string(keep) + "/" + fs::path(o.out).stem().string();
    }
    const Attached a = attach_and_trace(q);
    const Trace& t = a.trace;
    Replay replay(t);
    out << "\n" << summarize_trace(t, replay);
    if (!o.quiet) {
      for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
    }
    const auto t0 = std::chrono::steady_clock::now();
    save_trace(t, o.out);
    const double save_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out << o.program[0] << " ran " << fmt("%.3f", a.program_s) << " s with the tracer attached; reading its SASS and "
        << "writing the trace took " << fmt("%.3f", a.after_s + save_s) << " s\n";
    out << "trace saved to " << o.out << " (" << a.report.records << " records from " << a.report.events
        << " events of block " << o.block_index << ", launch " << a.launch << " of " << a.kernel << ")\n";
    return a.program_rc;
  });
}

std::string disassemble_module(const std::string& cubin_bytes) {
  const std::string nvdisasm = toolkit_program("nvdisasm");
  if (nvdisasm.empty() || cubin_bytes.empty()) return "";
  TempDir tmp;
  const std::string cubin = (tmp.path / "kernel.cubin").string();
  {
    std::ofstream f(cubin, std::ios::binary);
    f.write(cubin_bytes.data(), static_cast<std::streamsize>(cubin_bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + cubin);
  }
  return disassemble(nvdisasm, cubin, cubin_bytes);
}

}  // namespace rs
