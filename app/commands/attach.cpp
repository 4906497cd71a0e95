// `reducescope trace --kernel NAME [--launch K] [--block X[,Y,Z]] --out F.rstrace -- PROGRAM ARGS`: the
// binary tracer (issue 28, docs/binary-trace.md). Runs PROGRAM with tracing/binary/injector.cpp injected
// through CUDA_INJECTION64_PATH (the way compute-sanitizer attaches), lets its output and exit code pass
// through, then turns the capture into a trace: the kernel's SASS and line table from nvdisasm, its source
// from the file the line table names.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "assemble.hpp"
#include "capture.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "cuda_check.hpp"
#include "trace_io.hpp"

extern char** environ;

namespace rs {

using namespace cmd;
namespace fs = std::filesystem;

namespace {

// The folder of this executable: the injector and the patch module are built beside it.
fs::path exe_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : self.parent_path();
}

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
  std::vector<std::string> c = {cuda_home() + "/bin/" + name, "/usr/local/cuda/bin/" + name};
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) c.push_back(dir + "/" + name);
  }
  return first_existing(c);
}

// Runs argv with the current environment plus `env`; its stdio is ours. Returns its exit code (128 + signal
// when a signal ended it). Throws if it cannot be started.
int run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) envs.emplace_back(*e);
  for (const auto& kv : env) envs.push_back(kv);
  std::vector<char*> a, e;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  for (const auto& s : envs) e.push_back(const_cast<char*>(s.c_str()));
  e.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, a[0], nullptr, nullptr, a.data(), e.data());
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for " + argv[0] + " failed");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// stdout of `cmd` (a shell command line), or throws.
std::string capture_stdout(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + cmd);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  if (status != 0) throw std::runtime_error("failed (status " + std::to_string(status) + "): " + cmd);
  return out;
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

int run_attach(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("trace", err, [&]() -> int {
    const fs::path dir = exe_dir();
    const char* bt_dir = std::getenv("RS_BT_DIR");
    const std::string base = bt_dir && *bt_dir ? std::string(bt_dir) : dir.string();
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
    const int program_rc = run_program(
        o.program, {"CUDA_INJECTION64_PATH=" + injector, "RS_BT_KERNEL=" + o.attach_kernel,
                    "RS_BT_LAUNCH=" + std::to_string(o.launch), "RS_BT_BLOCK=" + o.block_index,
                    "RS_BT_OUT=" + capture_path, "RS_BT_PATCHES=" + patches});
    std::error_code ec;
    if (!fs::exists(capture_path, ec)) {
      err << "reducescope trace: " << o.program[0] << " exited with " << program_rc
          << " without starting CUDA on a GPU (no GPU here, or it launched no kernel): nothing traced\n";
      return kExitRuntime;
    }
    const bt::Capture cap = bt::load_capture(capture_path);
    if (cap.status == bt::CaptureStatus::NoMatch) {
      err << "reducescope trace: " << cap.message << ". Kernels " << o.program[0] << " launched:";
      if (cap.launched.empty()) err << " none";
      err << "\n";
      for (const auto& [name, count] : cap.launched) err << "  " << name << " (" << count << " launch" << (count == 1 ? "" : "es") << ")\n";
      return kExitRuntime;
    }
    if (cap.status == bt::CaptureStatus::Failed) throw std::runtime_error("the binary tracer failed: " + cap.message);

    const std::string cubin = (tmp.path / "kernel.cubin").string();
    {
      std::ofstream f(cubin, std::ios::binary);
      f.write(cap.cubin.data(), static_cast<std::streamsize>(cap.cubin.size()));
      if (!f) throw std::runtime_error("cannot write " + cubin);
    }
    const std::string listing = capture_stdout("'" + nvdisasm + "' -gi -c '" + cubin + "'");
    // RS_BT_KEEP=DIR keeps the capture and the listing (how tests/fixtures/binary/ was recorded).
    if (const char* keep = std::getenv("RS_BT_KEEP"); keep && *keep) {
      const std::string stem = std::string(keep) + "/" + fs::path(o.out).stem().string();
      fs::copy_file(capture_path, stem + ".rscapture", fs::copy_options::overwrite_existing);
      std::ofstream(stem + ".sass") << listing;
    }
    bt::AssembleOptions opt;
    opt.dtype = o.dtypes.empty() ? DType::Int32 : o.dtypes[0];
    opt.tool_version = kToolVersion;
    opt.date = utc_now();
    opt.read_source = [](const std::string& path) -> std::optional<std::string> {
      try {
        return read_text_file(path);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    bt::AssembleReport rep;
    const Trace t = bt::assemble_trace(cap, bt::parse_nvdisasm(listing), opt, &rep);
    Replay replay(t);
    out << "\n" << summarize_trace(t, replay);
    if (!o.quiet) {
      for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
    }
    save_trace(t, o.out);
    out << "trace saved to " << o.out << " (" << rep.records << " records from " << rep.events << " events of block "
        << o.block_index << ", launch " << cap.launch << " of " << cap.kernel << ")\n";
    return program_rc;
  });
}

}  // namespace rs
