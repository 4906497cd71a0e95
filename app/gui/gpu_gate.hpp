// One GPU, two users in the window: its own GPU worker (gpu_worker.hpp: traces, the timing table's
// measurements, the live plot) and the user's kernel's worker process (kernel_file_feed.hpp: the run, timed
// against CUB, and the exercise's checks, one of which compares timings). Timings taken while the other
// runs kernels on the same GPU are slowed by it, so the two take turns: the kernel file's feed holds the gate for
// its run and its checks; the GPU worker stops at the next boundary between its measurements (a kernel's samples
// are never split) and waits there until the gate is let go. DataFeed owns the one gate and hands it to both.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace rs::gui {

class GpuGate {
 public:
  // The kernel file's feed (its thread), before a run or a check: asks the GPU worker to stop and waits until it
  // has (or is not measuring: waiting for a request), at most `wait`. Returns false if the worker was still
  // measuring after `wait` (the run goes on anyway; one measurement of 20 samples takes milliseconds).
  bool hold(std::chrono::milliseconds wait = std::chrono::milliseconds(10000)) {
    std::unique_lock<std::mutex> lock(mu_);
    want_hold_ = true;
    return cv_.wait_for(lock, wait, [&] { return !measuring_; });
  }
  // After the run or the check: the GPU worker goes on.
  void release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      want_hold_ = false;
    }
    cv_.notify_all();
  }
  // hold() for as long as it lives, release() when it goes.
  class Held {
   public:
    explicit Held(GpuGate& gate) : gate_(gate) { gate_.hold(); }
    ~Held() { gate_.release(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    GpuGate& gate_;
  };
  // The GPU worker, at each boundary between measurements: waits while the gate is held (or until `give_up` says
  // so: a newer request, the window closing, checked every 10 ms). `measuring` says whether it goes on measuring
  // after this point (true) or goes to wait for a request (false).
  template <class GiveUp>
  void boundary(bool measuring, GiveUp give_up) {
    std::unique_lock<std::mutex> lock(mu_);
    measuring_ = false;
    cv_.notify_all();
    while (want_hold_ && !give_up()) cv_.wait_for(lock, std::chrono::milliseconds(10));
    measuring_ = measuring;
  }
 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool want_hold_ = false;  // the kernel file's feed holds it
  bool measuring_ = false;  // the GPU worker is between two boundaries with work to do (not waiting at one)
};

}  // namespace rs::gui
