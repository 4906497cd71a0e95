// CompileAhead (compile_ahead.hpp): compile processes that run ahead of grade's GPU workers.
#include "compile_ahead.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <system_error>

#include <unistd.h>  // getpid

#include "common.hpp"
#include "user_kernel_gpu.hpp"
#include "worker.hpp"

namespace rs::cmd {

namespace fs = std::filesystem;

CompileAhead::CompileAhead(std::string exe, std::vector<std::string> files, fs::path dir, int cc, unsigned threads,
                           size_t window)
    : exe_(std::move(exe)), files_(std::move(files)), dir_(std::move(dir)), cc_(cc), window_(window ? window : 1),
      items_(files_.size()) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  for (size_t k = 0; k < files_.size(); ++k) {
    if (files_[k].empty()) items_[k].state = State::Done;  // nothing to compile: take() gives ""
  }
  for (unsigned t = 0; t < (threads ? threads : 1); ++t) threads_.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void CompileAhead::work() {
  for (;;) {
    size_t k = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || next_ >= files_.size() || next_ < taken_ + window_; });
      if (stopping_ || next_ >= files_.size()) return;
      k = next_++;
      if (items_[k].state == State::Done) continue;  // no file
      items_[k].state = State::Running;
    }
    const std::string out = (dir_ / (std::to_string(k) + ".rsuk")).string();
    WorkerOptions wo;  // no GPU work: the time limit never starts; the output is the check's to print, later
    wo.env = compiling_worker_env();  // its malloc on huge pages, for NVRTC (worker.hpp)
    const auto t0 = std::chrono::steady_clock::now();
    const WorkerResult r = run_worker(
        exe_, {"check", files_[k], "--compile-only", "--cc", std::to_string(cc_), "--save-compiled", out}, wo);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::error_code ec;
    const bool ok = r.end == WorkerEnd::Exited && r.exit_code == 0 && fs::is_regular_file(out, ec);
    if (!ok) fs::remove(out, ec);
    {
      const std::lock_guard<std::mutex> lock(mu_);
      items_[k].state = State::Done;
      items_[k].compiled = ok ? out : "";
      seconds_ += s;
    }
    cv_.notify_all();
  }
}

std::string CompileAhead::take(size_t k) {
  std::unique_lock<std::mutex> lock(mu_);
  if (k >= items_.size()) return "";
  ++taken_;  // the window moves on
  cv_.notify_all();
  cv_.wait(lock, [&] { return items_[k].state == State::Done; });
  return items_[k].compiled;
}

void CompileAhead::remove(const std::string& compiled) {
  std::error_code ec;
  if (!compiled.empty()) fs::remove(compiled, ec);
}

double CompileAhead::compile_seconds() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return seconds_;
}

std::unique_ptr<CompileAhead> compile_ahead_for_grade(const std::string& exe, std::vector<std::string> files,
                                                      const std::vector<int>& gpus, std::ostream& out) {
  const char* env = std::getenv("REDUCESCOPE_COMPILE_AHEAD");
  if (exe.empty() || gpus.empty() || (env && std::string(env) == "0")) return nullptr;
  int cc = 0;
  try {
    for (int g : gpus) {
      const int c = user_kernel_device_cc(g);
      if (cc != 0 && c != cc) return nullptr;  // GPUs of two architectures: each check compiles for its own
      cc = c;
    }
  } catch (const std::exception&) {
    return nullptr;  // each check says what it finds
  }
  const unsigned cores = usable_cores();
  const unsigned free_cores = cores > gpus.size() ? cores - static_cast<unsigned>(gpus.size()) : 1u;
  const unsigned processes = std::clamp(free_cores / 2, 1u, 4u);
  // The machine's own temporary folder, not the results folder (under Slurm a shared file system); one per grade.
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  dir /= "reducescope-grade-" + std::to_string(static_cast<long>(getpid()));
  out << "compiling ahead for compute capability " << cc << " in " << processes << " process"
      << (processes == 1 ? "" : "es") << " beside the checks\n";
  return std::make_unique<CompileAhead>(exe, std::move(files), dir, cc, processes, 2 * gpus.size() + processes);
}

}  // namespace rs::cmd
