// The traces of an exercise's check (app/commands/check.cpp), begun as soon as each run has given its grid and result:
// each is finished (finish_kernel_file_trace: a `reducescope run` with the binary tracer attached, a process of its
// own) on one of a few threads while the check goes on with its other sums (issue 40: a check in under 3 s).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "exercises.hpp"
#include "plain_trace.hpp"
#include "user_kernel.hpp"

namespace rs::cmd {

class TraceQueue {
 public:
  // `k`: the kernel traced (kept by reference: it outlives the queue); `ways`: traces at once (at least 1).
  TraceQueue(const UserKernel& k, size_t ways);
  // Without finish(): the runs failed. The traces not begun are not taken; those in flight end by their own time
  // limit.
  ~TraceQueue();
  TraceQueue(const TraceQueue&) = delete;
  TraceQueue& operator=(const TraceQueue&) = delete;

  // Begins run `run`'s trace, prepared (prepare_kernel_file_trace), on a free thread.
  void add(size_t run, PreparedKernelFileTrace p);
  // Waits for every trace; (run, its features) in the order added. Raises the first failure, in that order, as the
  // traces one at a time would have.
  std::vector<std::pair<size_t, std::optional<TraceFeatures>>> finish();
  size_t count() const { return items_.size(); }
  // Wall time from the first trace's start to the last one's end, seconds (0 with none).
  double seconds() const { return seconds_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Item {
    size_t run = 0;
    PreparedKernelFileTrace prepared;
    std::optional<TraceFeatures> features;
    std::exception_ptr error;
  };
  void work();
  void close_and_join();

  const UserKernel& k_;
  size_t ways_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Item>> items_;
  size_t next_ = 0;
  bool closed_ = false, abandoned_ = false;
  std::vector<std::thread> threads_;
  Clock::time_point t0_, t_end_;
  double seconds_ = 0;
};

}  // namespace rs::cmd
