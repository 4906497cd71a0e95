// Runs all GPU work on a background thread so the window never blocks on the GPU.
//
// The UI thread calls request() when the selection changes (a newer request replaces one not
// yet started) and poll() once a frame to collect what finished. The worker opens the device,
// uploads the input when N or the pattern change, traces the selected kernel, times it, then
// times the other kernels at the same block size for the bar chart, checking between kernels
// whether a newer request arrived.
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

namespace rs::gui {

struct Request {
  KernelId kernel;
  unsigned block_size;
  uint64_t n;
  Pattern pattern;
};

struct WorkerEvent {
  enum class Kind { DeviceReady, NoDevice, Status, TraceReady, TimingReady, Error, Idle };
  Kind kind;
  std::string text;                           // Status / Error / NoDevice: one line
  DeviceInfo device;                          // DeviceReady
  std::shared_ptr<const LoadedTrace> trace;   // TraceReady
  KernelId kernel = KernelId::reduce0;        // TimingReady
  unsigned block_size = 0;                    // TimingReady
  Timing timing;                              // TimingReady
  uint64_t n = 0;                             // TimingReady / TraceReady: the input they used
};

class GpuWorker {
 public:
  GpuWorker();
  ~GpuWorker();
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  void request(const Request& r);
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
  std::thread thread_;
};

}  // namespace rs::gui
