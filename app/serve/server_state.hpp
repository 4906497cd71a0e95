// The server's shared state beside the store (server.cpp): the change log the pages' event streams follow, the
// per-token rate limit, and the server's own time per request. Internal to app/serve/.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rs::serve {

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The pages learn of changes through this: each change has a number; a stream waits for numbers past its own.
class Changes {
 public:
  void post(int64_t id, const std::string& student) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back({++last_, id, student});
      if (log_.size() > 4096) log_.pop_front();
    }
    cv_.notify_all();
  }
  // The submissions changed after `since` that `student` may see ("" for all), and the newest number; waits up to
  // `wait` when there is none yet.
  std::vector<int64_t> after(uint64_t& since, const std::string& student, std::chrono::milliseconds wait) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, wait, [&] { return last_ > since || stopping_.load(); });
    std::vector<int64_t> ids;
    for (const Change& c : log_) {
      if (c.n <= since) continue;
      // A room change (id 0) with student "" reaches every page; one for "instructor" only the instructor's.
      if (c.id == 0 ? !(c.student.empty() || student.empty()) : (!student.empty() && c.student != student)) continue;
      if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) ids.push_back(c.id);
    }
    since = last_;
    return ids;
  }
  uint64_t last() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_;
  }
  // The server stops: every stream waiting ends.
  void wake_all() {
    stopping_ = true;
    cv_.notify_all();
  }

 private:
  struct Change {
    uint64_t n;
    int64_t id;
    std::string student;
  };
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Change> log_;
  uint64_t last_ = 0;
  std::atomic<bool> stopping_{false};
};

// Requests per minute per key (a token), over a sliding minute.
class RateLimit {
 public:
  bool allow(const std::string& key, int per_minute) {
    std::lock_guard<std::mutex> lock(mu_);
    std::deque<double>& d = seen_[key];
    const double t = now_s();
    while (!d.empty() && d.front() < t - 60) d.pop_front();
    if (static_cast<int>(d.size()) >= per_minute) return false;
    d.push_back(t);
    return true;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::deque<double>> seen_;
};

// The server's own time per request (the handler's, from routing to the reply written), for /api/stats: the load
// test's figure beside the clients' own.
class Timings {
 public:
  void add(double ms) {
    std::lock_guard<std::mutex> lock(mu_);
    if (ms_.size() < 1000000) ms_.push_back(ms);
  }
  nlohmann::json summary() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<double> v = ms_;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))]; };
    return {{"requests", v.size()}, {"p50_ms", at(0.5)}, {"p95_ms", at(0.95)}, {"max_ms", v.empty() ? 0.0 : v.back()}};
  }

 private:
  std::mutex mu_;
  std::vector<double> ms_;
};
}  // namespace rs::serve
