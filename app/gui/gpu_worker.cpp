#include "gpu_worker.hpp"

#include "text_histogram.hpp"

#include <chrono>
#include <set>
#include <string>

#include "i18n.hpp"
#include "said_text.hpp"

namespace rs::gui {

using i18n::strf;

GpuWorker::GpuWorker(GpuGate* gate) : gate_(gate ? *gate : own_gate_), thread_([this] { loop(); }) {}

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
    live_paused_ = false;
  }
  cv_.notify_all();
}

void GpuWorker::pause_live() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    live_paused_ = true;
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
  DType have_dtype = DType::Int32;
  CpuReference expected;  // of the uploaded input, for every operator
  TextHistogram histograms(*gpu);  // the histogram kernels count the text: N bytes timed, fewer traced
  std::set<std::pair<KernelId, unsigned>> timed;  // measured on the current input
  bool have_refs = false;
  auto stopping = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    return stop_;
  };
  // Each measurement starts at a boundary of the gate (gpu_gate.hpp): there it waits while the user's kernel's
  // worker has the GPU.
  auto boundary = [&] { gate_.boundary(true, stopping); };
  for (;;) {
    gate_.boundary(false, stopping);  // waiting for a request: not measuring
    Request r;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      r = *pending_;
      pending_.reset();
    }
    auto event = [&](WorkerEvent::Kind k) {
      WorkerEvent e{k};
      e.n = r.n;
      e.pattern = r.pattern;
      return e;
    };
    auto status = [&](const std::string& text) { post({WorkerEvent::Kind::Status, text}); };
    if (r.forget) {
      timed.clear();
      have_refs = false;
    }
    boundary();
    try {
      if (r.n != have_n || r.pattern != have_pattern || r.dtype != have_dtype) {
        have_n = 0;
        timed.clear();
        have_refs = false;
        if (r.dtype == DType::Float32) {
          status(strf(_("preparing %llu %s floats"), static_cast<unsigned long long>(r.n), to_string(r.pattern)));
          std::vector<float> data = make_input_f32(r.pattern, r.n);
          expected = cpu_reference(data);
          gpu->set_input(data, r.pattern);
        } else {
          status(strf(_("preparing %llu %s ints"), static_cast<unsigned long long>(r.n), to_string(r.pattern)));
          std::vector<int32_t> data = make_input(r.pattern, r.n);
          expected = cpu_reference(data);
          gpu->set_input(data, r.pattern);
        }
        have_n = r.n;
        have_pattern = r.pattern;
        have_dtype = r.dtype;
      }
      // The traces first (what the replay shows), then the timings, most wanted first.
      std::vector<Pick> sides{r.a};
      if (r.b) sides.push_back(*r.b);
      for (size_t slot = 0; slot < sides.size(); ++slot) {
        if (slot == 0 && !r.trace_a) continue;
        const Pick p = sides[slot];
        boundary();
        status(strf(_("tracing %s at %u"), kernel_info(p.kernel).name, p.block_size));
        std::shared_ptr<LoadedTrace> loaded;
        if (kernel_info(p.kernel).op == ReduceOp::Histogram) {
          bool ok = false;
          loaded = std::make_shared<LoadedTrace>(histograms.trace(p.kernel, p.block_size, r.n, &ok));
          loaded->correct = ok;
        } else {
          loaded = std::make_shared<LoadedTrace>(gpu->trace(p.kernel, p.block_size));
          loaded->correct = expected.accepts(kernel_info(p.kernel).op, loaded->trace.meta.result);
        }
        loaded->origin = "live";
        WorkerEvent te = event(WorkerEvent::Kind::TraceReady);
        te.trace = std::move(loaded);
        te.slot = static_cast<int>(slot);
        te.pick = p;
        post(std::move(te));
      }
      // Then the rest of the selected kernel's track at its block size (the timing panel's table),
      // then every other kernel at that size.
      std::vector<Pick> order = sides;
      const std::string track = kernel_info(r.a.kernel).track;
      for (int pass = 0; pass < 2; ++pass) {
        for (const auto& k : kernel_table()) {
          if (k.pitfall && k.id != r.a.kernel) continue;  // wrong code: timed only when selected
          if ((track == k.track) == (pass == 0) && !block_size_problem(k.id, r.a.block_size)) {
            order.push_back({k.id, r.a.block_size});
          }
        }
      }
      auto time_one = [&](Pick p, bool again) {
        if (!again && timed.count({p.kernel, p.block_size})) return;
        // A kernel that does not reduce the input's element type (reproducible_sum: float32 only) is left out of the
        // background timings, not an error that stops them.
        if (kernel_info(p.kernel).op != ReduceOp::Histogram && !kernel_info(p.kernel).takes(gpu->dtype())) return;
        boundary();
        status(
            strf(_("timing %s at %u (%d samples, L2 flushed)"), kernel_info(p.kernel).name, p.block_size, kGuiSamples));
        WorkerEvent ev = event(WorkerEvent::Kind::TimingReady);
        ev.pick = p;
        if (kernel_info(p.kernel).op == ReduceOp::Histogram) {
          ev.timing = histograms.time(p.kernel, p.block_size, r.n, kGuiSamples, kTimingWarmups, &ev.correct);
        } else {  // every timed kernel is checked
          ev.correct = expected.accepts(kernel_info(p.kernel).op, gpu->run(p.kernel, p.block_size));
          ev.timing = gpu->time(p.kernel, p.block_size, kGuiSamples, kTimingWarmups);
        }
        timed.insert({p.kernel, p.block_size});
        post(std::move(ev));
      };
      for (size_t i = 0; i < order.size(); ++i) {
        if (superseded()) break;
        if (i == 0 && !r.trace_a) continue;  // the track's loop times it where its block size allows
        time_one(order[i], i < sides.size());  // the selected sides are always measured afresh
      }
      if (!superseded() && !have_refs) {
        boundary();
        status(_("timing the references: device-to-device copy and CUB"));
        WorkerEvent ev = event(WorkerEvent::Kind::References);
        ev.copy_gbps = gpu->time_copy(kGuiSamples).gbps;
        ev.timing = gpu->time_cub(kGuiSamples);
        have_refs = true;
        post(std::move(ev));
      }
      for (const auto& k : kernel_table()) {  // every kernel of every track (kernel_table().size() of them)
        if (k.pitfall) continue;                // but the wrong code
        for (unsigned bs : kBlockSizes) {
          if (superseded()) break;
          if (!block_size_problem(k.id, bs)) time_one({k.id, bs}, false);
        }
      }
    } catch (const std::exception& ex) {
      post({WorkerEvent::Kind::Error, said_text(ex)});
      r.live = false;
    }
    if (superseded()) continue;
    post({WorkerEvent::Kind::Idle});
    // Live: one launch at a time until the next request (about 100 a second at most).
    try {
      auto paused = [&] {
        std::lock_guard<std::mutex> lock(mu_);
        return live_paused_;
      };
      while (r.live && !superseded() && !paused()) {
        boundary();
        WorkerEvent ev = event(WorkerEvent::Kind::LiveSample);
        ev.pick = r.a;
        if (kernel_info(r.a.kernel).op == ReduceOp::Histogram) {
          bool ok = false;
          ev.timing = histograms.time(r.a.kernel, r.a.block_size, r.n, 1, 0, &ok);
        } else {
          ev.timing = gpu->time(r.a.kernel, r.a.block_size, 1, 0);
        }
        post(std::move(ev));
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait_for(lock, std::chrono::milliseconds(10), [&] { return stop_ || live_paused_ || pending_.has_value(); });
      }
    } catch (const std::exception& ex) {
      post({WorkerEvent::Kind::Error, strf(_("live plot stopped: %s"), said_text(ex).c_str())});
    }
  }
}

}  // namespace rs::gui
