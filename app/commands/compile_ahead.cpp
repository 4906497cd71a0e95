// CompileAhead (compile_ahead.hpp): compile processes that run ahead of grade's GPU workers.
#include "compile_ahead.hpp"

#include <chrono>
#include <system_error>

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

}  // namespace rs::cmd
