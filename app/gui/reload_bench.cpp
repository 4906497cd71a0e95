#include "reload_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "stats.hpp"  // percentile

namespace rs::gui {

namespace {

constexpr double kGiveUpS = 60;  // a save with no new trace after this long ends the benchmark

double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

ReloadBench::ReloadBench(int saves, std::string path, Clock::time_point t_start)
    : saves_(saves), path_(std::move(path)), t_start_(t_start) {
  if (!on()) return;
  std::ifstream in(path_, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  read_ok_ = in.good() || in.eof();
  text_ = ss.str();
  if (!read_ok_ || text_.empty()) {
    why_ = "cannot read " + path_;
    rc_ = kExitRuntime;
  }
}

ReloadBench::~ReloadBench() {
  if (!wrote_) return;
  std::ofstream out(path_, std::ios::binary | std::ios::trunc);
  out << text_;
}

bool ReloadBench::save() {
  std::ofstream out(path_, std::ios::binary | std::ios::trunc);
  out << text_ << "\n// reducescope --reload-bench: save " << (ms_.size() + 1) << " of " << saves_ << "\n";
  out.close();
  wrote_ = true;
  if (!out) {
    why_ = "cannot write " + path_;
    rc_ = kExitRuntime;
    return false;
  }
  return true;
}

bool ReloadBench::frame_shown(const AppState& s, bool feed_idle) {
  if (!on()) return false;
  if (!running()) return true;  // done (or stopped): nothing more to save
  const auto now = Clock::now();
  const YoursState& y = s.yours;
  const bool on_screen = s.shows_yours(0) && s.shown && y.arrivals > base_arrivals_;
  if (first_ms_ < 0) {  // the file's first trace (a cold compile: no precompiled header yet)
    if (s.device_known && !s.have_device) {
      why_ = "the file's run needs a CUDA GPU: " + s.no_device_reason;
      rc_ = kExitRuntime;
      return true;
    }
    if (on_screen) {
      first_ms_ = ms_between(t_start_, now);
      base_arrivals_ = y.arrivals;
    } else if (ms_between(t_start_, now) > 1000 * (kGiveUpS + 60)) {
      why_ = "no trace of the file on screen after " + std::to_string(static_cast<int>(kGiveUpS + 60)) +
             " s: " + (y.banner.empty() ? y.status : y.banner);
      rc_ = kExitRuntime;
      return true;
    }
    return false;
  }
  if (saved_) {
    if (on_screen) {
      ms_.push_back(ms_between(t_save_, now));
      std::printf("reload-bench: save %zu of %d: new trace on screen after %.1f ms\n", ms_.size(), saves_, ms_.back());
      std::fflush(stdout);
      base_arrivals_ = y.arrivals;
      saved_ = false;
      if (static_cast<int>(ms_.size()) == saves_) return true;
    } else if (ms_between(t_save_, now) > 1000 * kGiveUpS) {
      why_ = "save " + std::to_string(ms_.size() + 1) + " brought no new trace in " +
             std::to_string(static_cast<int>(kGiveUpS)) + " s: " + (y.banner.empty() ? y.status : y.banner);
      rc_ = kExitRuntime;
      return true;
    }
    return false;
  }
  // The last trace is on screen: wait for the feed to settle (the exercise's checks), then a pause, then save.
  if (!feed_idle || y.busy) {
    pausing_ = false;
    return false;
  }
  if (!pausing_) {
    pausing_ = true;
    t_ready_ = now + std::chrono::milliseconds(std::uniform_int_distribution<int>(100, 400)(rng_));
    return false;
  }
  if (now < t_ready_) return false;
  pausing_ = false;
  if (!save()) return true;
  t_save_ = Clock::now();
  saved_ = true;
  return false;
}

void ReloadBench::print() const {
  if (!on()) return;
  if (first_ms_ >= 0) {
    std::printf("reload-bench: first trace on screen %.1f ms after the window started (a cold compile)\n", first_ms_);
  }
  if (!ms_.empty()) {
    std::printf(
        "reload-bench: save -> new trace on screen, %zu saves of %s: median %.1f ms, p10 %.1f, p90 %.1f, min %.1f, "
        "max %.1f\n",
        ms_.size(), path_.c_str(), percentile(ms_, 0.5), percentile(ms_, 0.1), percentile(ms_, 0.9),
        *std::min_element(ms_.begin(), ms_.end()), *std::max_element(ms_.begin(), ms_.end()));
  }
  if (!why_.empty()) std::printf("reload-bench: stopped: %s\n", why_.c_str());
  std::fflush(stdout);
}

}  // namespace rs::gui
