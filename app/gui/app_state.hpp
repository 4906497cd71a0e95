// What the window's panels share: the selection, the replay being shown, and the timings
// measured so far. Each panel keeps its own view state (hover, selected access) itself.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "gpu_reduce.hpp"
#include "kernel_info.hpp"
#include "replay.hpp"

namespace rs::gui {

struct LoadedTrace {
  Trace trace;
  Replay replay;
  bool correct = true;        // sum matched the CPU reference (or unknown for a file)
  std::string origin;         // "live" or the file it came from
  explicit LoadedTrace(Trace t) : trace(std::move(t)), replay(trace) {}
};

struct AppState {
  // Selection (what the GPU runs next).
  KernelId kernel = KernelId::reduce1;
  unsigned block_size = 256;
  uint64_t n = 1u << 24;
  Pattern pattern = Pattern::RandomBytes;

  // The replay on screen.
  std::shared_ptr<const LoadedTrace> shown;
  size_t step = 0;

  // Device and progress.
  bool device_known = false;  // the worker has tried to open the GPU
  bool have_device = false;
  DeviceInfo device;
  std::string no_device_reason;  // why there is no GPU, for the banner
  bool busy = false;
  std::string status;            // what the GPU is doing now
  std::string error;             // last error, shown until the next success

  bool selection_changed = false;  // a panel changed kernel / block size: the GPU should re-run

  // Median timings measured so far, by (kernel, block size), for the current N and pattern.
  std::map<std::pair<KernelId, unsigned>, Timing> timings;

  size_t num_steps() const { return shown ? shown->replay.num_steps() : 0; }
  const Step* current_step() const { return shown && step < num_steps() ? &shown->replay.step(step) : nullptr; }
};

}  // namespace rs::gui
