#include "data_feed.hpp"

#include <algorithm>
#include <exception>
#include <optional>

#include "app_setup.hpp"  // asset_dir
#include "commands.hpp"
#include "trace_io.hpp"

namespace rs::gui {

using Clock = std::chrono::steady_clock;

DataFeed::DataFeed(int want_step, Clock::time_point t_start)
    : t_start_(t_start),
      // The bundled recording: both tracks (h100.rssession, the first release's, harris only, stays as a fixture).
      bundled_((asset_dir() / "sessions" / "h100-tracks.rssession").string()),
      want_step_(want_step) {}

void DataFeed::start(AppState& s, const std::string& file) {
  if (!file.empty()) {
    if (std::string why = open_file(s, file); why.empty()) opened_file_ = true;
    else s.error = why;
  }
  idle_ = opened_file_;
  requested_pattern_ = s.pattern;
  if (!opened_file_) request(s);
}

void DataFeed::show(AppState& s, int slot, std::shared_ptr<const LoadedTrace> t) {
  (slot == 0 ? s.shown : s.shown_b) = std::move(t);
  if (slot != 0) return;
  const size_t steps = s.num_steps();
  s.step = want_step_ >= 0 ? std::min<size_t>(static_cast<size_t>(want_step_), steps ? steps - 1 : 0) : steps / 2;
  want_step_ = -1;  // only the first trace opens at --step
}

// Shows side A (and B) from the open session: its traces and its timings.
void DataFeed::show_from_session(AppState& s) {
  const Session& ses = *s.session;
  for (int slot = 0; slot < (s.compare ? 2 : 1); ++slot) {
    const Pick p = slot == 0 ? s.a : s.b;
    const Trace* t = ses.find_trace(kernel_info(p.kernel).name, p.block_size);
    if (!t) {
      const KernelInfo& k = kernel_info(p.kernel);
      s.error = "the session holds no trace of " + std::string(k.name) + " at " + std::to_string(p.block_size) +
                " threads" +
                (k.pitfall ? std::string(": wrong code on purpose is recorded by `reducescope pitfalls --out SESSION` "
                                         "on a GPU, which this session has not had at this block size")
                 : !k.takes(DType::Int32)
                     ? std::string(": it adds float32 only and sessions record int32 runs (its results: the timing "
                                   "panel's bits tab)")
                     : std::string(": the session was recorded without it (`reducescope record` on a GPU records it)"));
      continue;
    }
    auto& loaded = session_traces_[t];
    if (!loaded) {
      auto l = std::make_shared<LoadedTrace>(*t);
      l->origin = s.session_path;
      loaded = std::move(l);
    }
    if ((slot == 0 ? s.shown : s.shown_b) == loaded) continue;
    const bool had = s.shown != nullptr;
    const size_t keep = s.step;
    show(s, slot, loaded);
    if (slot == 0 && had && keep < s.num_steps()) s.step = keep;  // a toggle keeps the step where it can
  }
  if (!s.compare) s.shown_b.reset();
}

void DataFeed::open_session(AppState& s, std::shared_ptr<const Session> ses, const std::string& path) {
  worker_.pause_live();  // the GPU has nothing to show while a recording is open
  s.session = std::move(ses);
  s.session_path = path;
  session_traces_.clear();
  s.clear_measurements();
  const SessionMeta& m = s.session->meta;
  for (const auto& t : s.session->timings) {
    const KernelInfo* k = find_kernel(t.kernel);
    if (!k) continue;
    s.timings[{k->id, t.block_size}] = to_timing(t);
    if (!t.correct) s.wrong_sum.insert({k->id, t.block_size});
  }
  s.copy_gbps = m.copy_gbps;
  s.cub_ms = m.cub_ms;
  s.n = m.n;
  if (auto p = parse_pattern(m.pattern)) s.pattern = *p;
  s.shown.reset();
  s.shown_b.reset();
  s.error.clear();
  s.busy = false;
  show_from_session(s);
}

std::string DataFeed::open_file(AppState& s, const std::string& path) {
  try {
    if (is_session_file(path)) {
      open_session(s, std::make_shared<const Session>(load_session(path)), path);
    } else {
      auto t = std::make_shared<LoadedTrace>(load_trace(path));
      t->origin = path;
      if (auto k = find_kernel(t->trace.meta.kernel)) s.a.kernel = k->id;
      s.a.block_size = t->trace.meta.block_size;
      s.session.reset();
      s.compare = false;
      show(s, 0, std::move(t));
    }
    s.notice = "opened " + path;
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void DataFeed::request(AppState& s) {
  if (block_size_problem(s.a.kernel, s.a.block_size)) return;
  if (s.n != requested_n_ || s.pattern != requested_pattern_) {  // another input: earlier timings do not apply
    s.clear_measurements();
    requested_n_ = s.n;
    requested_pattern_ = s.pattern;
  }
  Request r{s.a, std::nullopt, s.n, s.pattern, true, s.timings.empty()};
  if (s.compare) r.b = s.b;
  worker_.request(r);
  s.busy = true;
  s.status = "queued";
  t_request_ = Clock::now();
  waiting_trace_ = waiting_timing_ = true;
}

void DataFeed::poll(AppState& s) {
  for (WorkerEvent& e : worker_.poll()) {
    using K = WorkerEvent::Kind;
    const bool current = e.n == s.n && e.pattern == s.pattern && !s.recorded();
    switch (e.kind) {
      case K::DeviceReady:
        s.device_known = s.have_device = true;
        s.device = e.device;
        if (opened_file_) idle_ = true;  // nothing was requested
        break;
      case K::NoDevice:
        s.device_known = true;
        s.have_device = false;
        s.busy = false;
        s.no_device_reason = e.text;
        idle_ = true;
        if (!s.shown && !s.session) {
          if (std::string why = open_file(s, bundled_); !why.empty()) s.error = why;
          s.notice.clear();
        }
        break;
      case K::Status:
        s.status = e.text;
        break;
      case K::TraceReady:
        if (!current) break;
        s.error.clear();
        show(s, e.slot, std::move(e.trace));
        if (e.slot == 0) waiting_trace_ = false;
        break;
      case K::TimingReady:
        if (!current) break;
        s.timings[{e.pick.kernel, e.pick.block_size}] = e.timing;
        if (e.correct) s.wrong_sum.erase({e.pick.kernel, e.pick.block_size});
        else s.wrong_sum.insert({e.pick.kernel, e.pick.block_size});
        if (e.pick == s.a) waiting_timing_ = false;
        break;
      case K::References:
        if (!current) break;
        s.copy_gbps = e.copy_gbps;
        s.cub_ms = e.timing.median_ms;
        break;
      case K::LiveSample:
        if (!current) break;
        s.live.push_back({e.pick, static_cast<float>(e.timing.median_ms),
                          std::chrono::duration<double>(Clock::now() - t_start_).count()});
        while (s.live.size() > 600) s.live.pop_front();
        break;
      case K::Error:
        s.error = e.text;
        break;
      case K::Idle:
        s.busy = false;
        idle_ = true;
        break;
    }
  }
  if (t_request_ != Clock::time_point{} && !waiting_trace_ && !waiting_timing_) {
    latencies_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t_request_).count());
    t_request_ = {};
  }
}

void DataFeed::apply_selection(AppState& s) {
  s.selection_changed = false;
  s.error.clear();
  if (s.recorded()) {
    show_from_session(s);
  } else if (s.have_device) {
    request(s);
  } else if (s.device_known) {
    s.error = "no GPU here, and the open file holds only this trace; open a session (File > Open) to change it";
  }
}

}  // namespace rs::gui
