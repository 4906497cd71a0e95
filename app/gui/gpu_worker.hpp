// Runs all GPU work on a background thread so the window never blocks on the GPU.
//
// The UI thread calls request() when the selection changes (a newer request replaces one not
// yet started) and poll() once a frame to collect what finished. The worker opens the device,
// uploads the input when N or the pattern change, traces the selected kernel (and the compare
// side's), times them, then the other kernels at the same block size for the bar chart, the
// copy and CUB references, and every other kernel x block size for the block-size plots,
// checking between measurements whether a newer request arrived. With nothing left to do it
// re-runs the selected kernel and posts each launch's time for the rolling live plot.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app_state.hpp"
#include "gpu_gate.hpp"

namespace rs::gui {

// Timed samples per measurement, as `reducescope bench` and `record` take by default; each after
// kTimingWarmups warm-ups and an L2 flush (GpuReducer::time).
inline constexpr int kGuiSamples = 30;
inline constexpr int kTimingWarmups = 3;

struct Request {
  Pick a;                      // traced and timed first
  std::optional<Pick> b;       // the compare side, traced and timed second
  uint64_t n;
  Pattern pattern;
  bool live = true;            // afterwards, re-run `a` for the live plot until the next request
  bool forget = false;         // re-measure everything, even what was measured on this input before
  bool trace_a = true;         // false: side A is the user's kernel (KernelFileFeed traces it): `a` only names the
                               // track and block size to time; only `b` is traced
  DType dtype = DType::Int32;  // the input's element type: float32 for a kernel that adds float32 only
                               // (reproducible_sum); the kernels that do not take it are left out of the timings
};

struct WorkerEvent {
  enum class Kind { DeviceReady, NoDevice, Status, TraceReady, TimingReady, References, LiveSample, Error, Idle };
  WorkerEvent(Kind k, std::string t = {}) : kind(k), text(std::move(t)) {}
  Kind kind;
  std::string text;                           // Status / Error / NoDevice: one line
  DeviceInfo device;                          // DeviceReady
  std::shared_ptr<const LoadedTrace> trace;   // TraceReady
  int slot = 0;                               // TraceReady: 0 side A, 1 side B
  Pick pick;                                  // TraceReady / TimingReady / LiveSample
  Timing timing;                              // TimingReady; LiveSample: one sample; References: CUB
  bool correct = true;                        // TimingReady: the timing build's sum matched the CPU's
  double copy_gbps = 0;                       // References: device-to-device copy
  uint64_t n = 0;                             // the input they used
  Pattern pattern = Pattern::RandomBytes;
};

class GpuWorker {
 public:
  // `gate`: shared with the user's kernel's feed (gpu_gate.hpp), which it outlives; nullptr: a gate of its own
  // that nobody holds (bench/toggle_latency.cpp).
  explicit GpuWorker(GpuGate* gate = nullptr);
  ~GpuWorker();
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  void request(const Request& r);
  // Stops the live re-runs until the next request (e.g. while a recorded session is shown).
  void pause_live();
  std::vector<WorkerEvent> poll();

 private:
  void loop();
  void post(WorkerEvent e);
  bool superseded();

  std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Request> pending_;
  std::deque<WorkerEvent> events_;
  bool stop_ = false;
  bool live_paused_ = false;
  GpuGate own_gate_;
  GpuGate& gate_;
  std::thread thread_;
};

}  // namespace rs::gui
