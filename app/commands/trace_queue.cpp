// TraceQueue (trace_queue.hpp): an exercise check's traces, side by side and beside its sums.
#include "trace_queue.hpp"

#include <algorithm>

#include "replay.hpp"

namespace rs::cmd {

TraceQueue::TraceQueue(const UserKernel& k, size_t ways) : k_(k), ways_(std::max<size_t>(ways, 1)) {}

TraceQueue::~TraceQueue() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    abandoned_ = true;
  }
  close_and_join();
}

void TraceQueue::add(size_t run, PreparedKernelFileTrace p) {
  auto item = std::make_unique<Item>();
  item->run = run;
  item->prepared = std::move(p);
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (items_.empty()) t0_ = Clock::now();
    items_.push_back(std::move(item));
    if (threads_.size() < std::min(ways_, items_.size())) threads_.emplace_back([this] { work(); });
  }
  cv_.notify_one();
}

std::vector<std::pair<size_t, std::optional<TraceFeatures>>> TraceQueue::finish() {
  close_and_join();
  std::vector<std::pair<size_t, std::optional<TraceFeatures>>> out;
  for (const auto& i : items_) {
    if (i->error) std::rethrow_exception(i->error);
    out.emplace_back(i->run, std::move(i->features));
  }
  return out;
}

void TraceQueue::work() {
  for (;;) {
    Item* item = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return closed_ || next_ < items_.size(); });
      if (abandoned_ || next_ >= items_.size()) return;  // given up, or closed with nothing left
      item = items_[next_++].get();
    }
    try {
      item->features = features_of(Replay(finish_kernel_file_trace(item->prepared, k_)));
    } catch (...) {
      item->error = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mu_);
    t_end_ = Clock::now();
  }
}

void TraceQueue::close_and_join() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (!items_.empty()) seconds_ = std::chrono::duration<double>(t_end_ - t0_).count();
}

}  // namespace rs::cmd
