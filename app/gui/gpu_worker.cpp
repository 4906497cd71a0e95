#include "gpu_worker.hpp"

namespace rs::gui {

namespace {
constexpr int kGuiSamples = 20;  // the minimum for a median in the app's timing method
}

GpuWorker::GpuWorker() : thread_([this] { loop(); }) {}

GpuWorker::~GpuWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    pending_.reset();
  }
  cv_.notify_all();
  thread_.join();
}

void GpuWorker::request(const Request& r) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_ = r;
  }
  cv_.notify_all();
}

std::vector<WorkerEvent> GpuWorker::poll() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<WorkerEvent> out(std::make_move_iterator(events_.begin()), std::make_move_iterator(events_.end()));
  events_.clear();
  return out;
}

void GpuWorker::post(WorkerEvent e) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back(std::move(e));
}

bool GpuWorker::superseded() {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_ || pending_.has_value();
}

void GpuWorker::loop() {
  std::unique_ptr<GpuReducer> gpu;
  try {
    gpu = std::make_unique<GpuReducer>();
    WorkerEvent e{WorkerEvent::Kind::DeviceReady};
    e.device = gpu->device();
    post(std::move(e));
  } catch (const std::exception& ex) {
    post({WorkerEvent::Kind::NoDevice, ex.what()});
    return;  // nothing to run; requests are ignored
  }
  uint64_t have_n = 0;
  Pattern have_pattern = Pattern::Ones;
  int32_t expected = 0;
  for (;;) {
    Request r;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      r = *pending_;
      pending_.reset();
    }
    try {
      if (r.n != have_n || r.pattern != have_pattern) {
        post({WorkerEvent::Kind::Status, "preparing " + std::to_string(r.n) + " " + to_string(r.pattern) + " ints"});
        std::vector<int32_t> data = make_input(r.pattern, r.n);
        expected = cpu_reduce(data);
        have_n = 0;
        gpu->set_input(data, r.pattern);
        have_n = r.n;
        have_pattern = r.pattern;
      }
      const char* name = kernel_info(r.kernel).name;
      post({WorkerEvent::Kind::Status, std::string("tracing ") + name + " at " + std::to_string(r.block_size)});
      auto loaded = std::make_shared<LoadedTrace>(gpu->trace(r.kernel, r.block_size));
      loaded->correct = loaded->trace.meta.result == expected;
      loaded->origin = "live";
      WorkerEvent te{WorkerEvent::Kind::TraceReady};
      te.trace = std::move(loaded);
      te.n = r.n;
      post(std::move(te));
      // Time the selected kernel first, then the others at this block size for the chart.
      std::vector<KernelId> order{r.kernel};
      for (const auto& k : kernel_table()) {
        if (k.id != r.kernel && !block_size_problem(k.id, r.block_size)) order.push_back(k.id);
      }
      for (KernelId k : order) {
        if (superseded()) break;
        post({WorkerEvent::Kind::Status, std::string("timing ") + kernel_info(k).name + " at " +
                                             std::to_string(r.block_size) + " (" + std::to_string(kGuiSamples) +
                                             " samples, L2 flushed)"});
        WorkerEvent ev{WorkerEvent::Kind::TimingReady};
        ev.kernel = k;
        ev.block_size = r.block_size;
        ev.timing = gpu->time(k, r.block_size, kGuiSamples);
        ev.n = r.n;
        post(std::move(ev));
      }
    } catch (const std::exception& ex) {
      post({WorkerEvent::Kind::Error, ex.what()});
    }
    if (!superseded()) post({WorkerEvent::Kind::Idle});
  }
}

}  // namespace rs::gui
