// Block-size toggle latency: how long after the user changes the block size the window has the
// new trace and the new timing of the selected kernel to draw. It drives the window's own GPU
// worker (app/gui/gpu_worker.cpp) without a window: request, then poll as the UI thread does
// once a frame (here every 0.2 ms, so the figure excludes the frame wait: add up to one frame,
// 16.7 ms at 60 Hz, for what a user sees).
//
// Method: N = 2^24 random ints already on the GPU (an N change is not a toggle); the worker has
// finished its first full pass and is re-running the kernel for the live plot, as in the app.
// Each toggle changes the block size (64 -> 128 -> ... -> 1024 -> 64) and, every second toggle,
// the kernel; it is measured from request() to both TraceReady and TimingReady (30 samples, L2
// flushed before each, as the window times). Prints every toggle, then median, p95, min, max.
//
// usage: toggle_latency [TOGGLES]   (default 40)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "gpu_worker.hpp"

using namespace rs;
using Clock = std::chrono::steady_clock;

namespace {

// Polls until `done` says so; returns false on a worker error or after 60 s.
template <class Done>
bool wait_for(gui::GpuWorker& w, Done done) {
  const auto t0 = Clock::now();
  while (Clock::now() - t0 < std::chrono::seconds(60)) {
    for (auto& e : w.poll()) {
      if (e.kind == gui::WorkerEvent::Kind::Error || e.kind == gui::WorkerEvent::Kind::NoDevice) {
        std::fprintf(stderr, "toggle_latency: %s\n", e.text.c_str());
        return false;
      }
      if (done(e)) return true;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  std::fprintf(stderr, "toggle_latency: timed out\n");
  return false;
}

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) {
  const int toggles = argc > 1 ? std::atoi(argv[1]) : 40;
  if (toggles < 1) {
    std::fprintf(stderr, "usage: toggle_latency [TOGGLES >= 1]\n");
    return 2;
  }
  const uint64_t n = 1u << 24;
  gui::GpuWorker w;
  DeviceInfo dev;
  if (!wait_for(w, [&](const gui::WorkerEvent& e) {
        if (e.kind == gui::WorkerEvent::Kind::DeviceReady) dev = e.device;
        return e.kind == gui::WorkerEvent::Kind::DeviceReady;
      })) {
    return 1;
  }
  // The first request uploads the input and times everything once (as the window's start does).
  const auto t_first = Clock::now();
  w.request({{KernelId::reduce1, 256}, std::nullopt, n, Pattern::RandomBytes, true});
  if (!wait_for(w, [](const gui::WorkerEvent& e) { return e.kind == gui::WorkerEvent::Kind::Idle; })) return 1;
  std::printf("toggle_latency on %s, N = %llu, pattern random\nfirst request (upload 64 MiB, trace, time all 39 "
              "pairs + references): %.0f ms\n",
              dev.name.c_str(), static_cast<unsigned long long>(n),
              std::chrono::duration<double, std::milli>(Clock::now() - t_first).count());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the live loop is running now

  const KernelId kernels[] = {KernelId::reduce1, KernelId::reduce3, KernelId::reduce5, KernelId::reduce6};
  std::vector<double> total, trace_ms;
  for (int i = 0; i < toggles; ++i) {
    const gui::Pick p{kernels[(i / 2) % 4], kBlockSizes[1 + (i + 1) % 5]};  // 64..1024
    const auto t0 = Clock::now();
    w.request({p, std::nullopt, n, Pattern::RandomBytes, true});
    bool have_trace = false, have_timing = false;
    double t_trace = 0;
    if (!wait_for(w, [&](const gui::WorkerEvent& e) {
          if (e.kind == gui::WorkerEvent::Kind::TraceReady && e.slot == 0 && e.pick == p) {
            have_trace = true;
            t_trace = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
          }
          if (e.kind == gui::WorkerEvent::Kind::TimingReady && e.pick == p) have_timing = true;
          return have_trace && have_timing;
        })) {
      return 1;
    }
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    total.push_back(ms);
    trace_ms.push_back(t_trace);
    std::printf("toggle %2d: %s at %4u threads: trace after %6.1f ms, trace + timing after %6.1f ms\n", i,
                kernel_info(p.kernel).name, p.block_size, t_trace, ms);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // let the live loop resume, as between clicks
  }
  std::printf("\n%d toggles: trace + timing ready after median %.1f ms, p95 %.1f, min %.1f, max %.1f "
              "(trace alone: median %.1f ms); target < 250 ms\n",
              toggles, pct(total, 0.5), pct(total, 0.95), pct(total, 0.0), pct(total, 1.0), pct(trace_ms, 0.5));
  return pct(total, 0.5) < 250 ? 0 : 1;
}
