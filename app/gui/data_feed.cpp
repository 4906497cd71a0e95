#include "data_feed.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>

#include "app_setup.hpp"  // asset_dir
#include "session_rows.hpp"
#include "panels.hpp"  // strf
#include "predict.hpp"
#include "said_text.hpp"
#include "trace_io.hpp"

namespace rs::gui {

using Clock = std::chrono::steady_clock;

DataFeed::DataFeed(int want_step, Clock::time_point t_start, double kernel_timeout_s)
    : worker_(&gate_),
      kernel_file_(gate_),
      t_start_(t_start),
      // The bundled recording: both tracks (h100.rssession, the first release's, harris only, stays as a fixture).
      bundled_((asset_dir() / "sessions" / "h100-tracks.rssession").string()),
      want_step_(want_step),
      kernel_timeout_s_(kernel_timeout_s) {}

void DataFeed::start(AppState& s, const std::string& file, bool kernel_chosen) {
  kernel_chosen_ = kernel_chosen;
  if (!file.empty()) {
    if (std::string why = open_file(s, file); why.empty()) opened_file_ = true;
    else s.error = why;
  }
  idle_ = opened_file_;
  requested_pattern_ = s.pattern;
  if (!opened_file_) request(s);
}

namespace {

// to_string(Tracer)'s words (tracing/trace_io.cpp), marked here for the status that names the tracer.
[[maybe_unused]] constexpr const char* kTracerWords[] = {N_("the source probe"), N_("the binary backend")};

// What side A says while the user's kernel is selected and has no trace at side A's block size. In the window's
// language (it is shown, never printed); made afresh by poll() each frame, so a language switch shows at once.
std::string yours_missing(const AppState& s) {
  const YoursState& y = s.yours;
  const char* name = y.name.c_str();
  const unsigned bs = s.a.block_size;
  if (!y.session.empty() && y.path.empty()) {
    return strf(_("The session holds no trace of %s at %u threads (it has %zu; `reducescope record --kernel-file` "
                  "records one per --block-size)."),
                name, bs, y.traces.size());
  }
  const std::string file = std::filesystem::path(y.path).filename().string();
  if (y.compiled && !y.takes(s.a.block_size)) {
    return strf(_("%s needs at least %u threads per block (its RS_LAUNCH_SHAPE): choose a larger block size."), name,
                y.min_block_size);
  }
  if (y.busy && y.source.empty()) return strf(_("Compiling %s..."), file.c_str());
  if (!y.compiled && !y.diagnostics.empty()) {
    return strf(_("%s does not compile: the source view shows where. Nothing has run yet."), file.c_str());
  }
  if (!y.compiled) return strf(_("No trace of %s yet: %s."), name, y.status.c_str());
  if (!s.have_device) {
    return strf(_("%s compiles. Running it needs a CUDA GPU: on a machine with one, the window runs it in a worker "
                  "process on each save and replays its trace here. `reducescope record --kernel-file %s --out "
                  "S.rssession` there makes a session that replays anywhere (File > Open)."),
                file.c_str(), file.c_str());
  }
  if (y.busy) return strf(_("Running %s at %u threads in a worker process..."), name, bs);
  return strf(y.stale ? _("No trace of %s at %u threads: its run failed (the banner says why).")
                      : _("No trace of %s at %u threads yet."),
              name, bs);
}

}  // namespace

void DataFeed::show(AppState& s, int slot, std::shared_ptr<const LoadedTrace> t) {
  (slot == 0 ? s.shown : s.shown_b) = std::move(t);
  if (slot != 0) return;
  const size_t steps = s.num_steps();
  const size_t want =
      want_step_ >= 0 ? std::min<size_t>(static_cast<size_t>(want_step_), steps ? steps - 1 : 0) : s.predict.on ? 0 : steps / 2;
  want_step_ = -1;  // only the first trace opens at --step
  s.step = want;
  if (s.predict.on) {  // Predict mode: at --step S, S's question waits (the step before it shown)
    s.predict.pending.reset();
    s.predict.verdict.clear();
    if (want > 0) {
      s.step = want - 1;
      if (!predict_gate(s, static_cast<long>(want))) s.step = want;
    }
  }
}

// Shows side A (and B) from the open session: its traces and its timings.
void DataFeed::show_from_session(AppState& s) {
  const Session& ses = *s.session;
  for (int slot = 0; slot < (s.compare ? 2 : 1); ++slot) {
    if (s.shows_yours(slot)) continue;  // show_yours
    const Pick p = slot == 0 ? s.a : s.b;
    // The float32 trace when asked for (key D), the binary tracer's when asked for (key B); where the session lacks
    // it, the asked-for tracer's in another type, then the asked-for type by the other tracer, then any.
    const std::string name = p.name();
    const std::optional<DType> type = s.float32 ? std::optional<DType>(DType::Float32) : std::nullopt;
    const std::optional<Tracer> tracer = s.as_compiled ? std::optional<Tracer>(Tracer::Binary) : std::nullopt;
    const Trace* t = ses.find_trace(name, p.block_size, type, tracer);
    if (!t) t = ses.find_trace(name, p.block_size, std::nullopt, tracer);
    if (!t) t = ses.find_trace(name, p.block_size, type);
    if (!t) t = ses.find_trace(name, p.block_size);
    if (!t && p.lib()) {  // a library kernel runs at the block size CUB picks: the session's trace of it, and that size
      for (const Trace& x : ses.traces) {
        if (x.meta.kernel != name) continue;
        t = &x;
        (slot == 0 ? s.a : s.b).block_size = x.meta.block_size;
        break;
      }
    }
    if (!t && p.lib()) {
      s.error = strf(_("the session holds no trace of %s at %u threads: `reducescope record --add --binary --kernel "
                       "cub --out SESSION` on a GPU records CUB's kernels, at the block size CUB picks"),
                     name.c_str(), p.block_size);
      continue;
    }
    if (!t) {
      const KernelInfo& k = kernel_info(p.kernel);
      s.error = strf(k.pitfall ? _("the session holds no trace of %s at %u threads: wrong code on purpose is recorded "
                                   "by `reducescope pitfalls --out SESSION` on a GPU, which this session has not had "
                                   "at this block size")
                     : !k.takes(DType::Int32)
                         ? _("the session holds no trace of %s at %u threads: it adds float32 only, and this session "
                             "was recorded before sessions held float32 traces (`reducescope record --type float32 "
                             "--add` on a GPU adds them; its results: the timing panel's bits tab)")
                         : _("the session holds no trace of %s at %u threads: the session was recorded without it "
                             "(`reducescope record` on a GPU records it)"),
                     k.name, p.block_size);
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
  take_session_yours(s);
  if (s.shows_yours(0)) show_yours(s);
  show_from_session(s);
}

void DataFeed::take_session_yours(AppState& s) {
  const Session& ses = *s.session;
  // With a kernel file open, the session's recording of the same kernel (its name is the file's stem) is its last
  // good trace until the file runs here (on a laptop: never; a change to the file then marks it stale).
  const bool file = kernel_file_.is_open();
  if (file && !s.yours.traces.empty()) return;  // the file's own runs come first
  const bool was = s.yours_selected && s.yours.open();
  std::map<unsigned, std::shared_ptr<const LoadedTrace>> traces;
  std::string name = file ? s.yours.name : std::string();
  for (const Trace& t : ses.traces) {
    if (t.meta.track != kYoursTrack) continue;
    if (name.empty()) name = t.meta.kernel;
    if (t.meta.kernel != name) continue;  // one kernel of the user's (the first the session holds)
    auto l = std::make_shared<LoadedTrace>(t);
    l->origin = s.session_path;
    traces[t.meta.block_size] = std::move(l);
  }
  if (traces.empty()) {
    if (!file) {
      s.yours = YoursState{};
      s.yours_selected = false;
    }
    return;
  }
  if (!file) {
    s.yours = YoursState{};
    s.yours.name = name;
    s.yours.compiled = true;
    s.yours.source = traces.begin()->second->trace.source;
    s.yours.status = strf(_("recorded on %s, %s"), ses.meta.gpu.c_str(), ses.meta.date.substr(0, 10).c_str());
  }
  YoursState& y = s.yours;
  y.traces = std::move(traces);
  y.session = s.session_path;
  y.n = ses.meta.n;
  y.pattern = ses.meta.pattern;
  y.cub_ms = ses.meta.cub_ms;
  y.cub_gbps = ses.meta.cub_gbps;
  for (const SessionTiming& t : ses.timings) {
    if (t.kernel != y.name) continue;
    y.timings[t.block_size] = to_timing(t);
    if (!t.correct) y.wrong_sum.insert(t.block_size);
  }
  if (file) {
    kernel_file_.seeded(s);
    return;  // the kernel file selected it already
  }
  // Select it (at a block size it has), unless the command line chose side A's kernel and the session has it.
  const bool keep = kernel_chosen_ && !was && ses.find_trace(s.a.name(), s.a.block_size);
  kernel_chosen_ = false;  // the command line's choice holds for the first file only
  if (!keep) {
    s.yours_selected = true;
    if (!y.traces.count(s.a.block_size)) s.a.block_size = y.traces.begin()->first;
  }
}

void DataFeed::open_kernel_file(AppState& s, const std::string& path, const std::string& exercise) {
  kernel_file_.open(s, path, kernel_timeout_s_, exercise);
  if (s.session) take_session_yours(s);  // the open session's recording of this file, if it has one
  s.yours.missing = yours_missing(s);
  if (s.shown) show_yours(s);  // nothing until its first trace
}

void DataFeed::show_yours(AppState& s) {
  const YoursState& y = s.yours;
  auto it = y.traces.find(s.a.block_size);
  std::shared_ptr<const LoadedTrace> t = it == y.traces.end() ? nullptr : it->second;
  if (s.shown == t) return;
  const bool had = s.shown != nullptr;
  const size_t keep = s.step;
  show(s, 0, std::move(t));
  if (had && s.num_steps() > 0) s.step = std::min(keep, s.num_steps() - 1);  // the same step, clamped
}

std::string DataFeed::open_file(AppState& s, const std::string& path) {
  try {
    if (is_session_file(path)) {
      open_session(s, std::make_shared<const Session>(load_session(path)), path);
    } else {
      auto t = std::make_shared<LoadedTrace>(load_trace(path));
      t->origin = path;
      const TraceMeta& m = t->trace.meta;
      const KernelInfo* k = find_kernel(m.kernel);
      if (k) s.a.kernel = k->id;
      s.a.block_size = m.block_size;
      // The input it reduced: the N slider and the pattern say so (a binary trace of a program: the program's N).
      if (m.n > 0 && m.n <= (1ull << 31)) s.n = m.n;
      if (auto p = parse_pattern(m.pattern)) s.pattern = *p;
      s.session.reset();
      s.compare = false;
      s.yours_selected = false;  // side A: the trace opened
      if ((!k || m.track == kYoursTrack) && !kernel_file_.is_open()) {
        // Not a shipped kernel (a kernel file's trace, or any program's through the binary tracer): it heads the
        // list as the user's kernel, with its own source and notes, not a shipped kernel's teaching note.
        s.yours = YoursState{};
        YoursState& y = s.yours;
        y.name = m.kernel;
        y.session = path;
        y.compiled = true;
        y.source = t->trace.source;
        y.status = strf(_("Recorded by %s on %s, %s."), _(to_string(m.tracer)), m.gpu.c_str(),
                        m.date.substr(0, 10).c_str());
        y.traces[m.block_size] = t;
        s.yours_selected = true;
      }
      show(s, 0, std::move(t));
    }
    s.notice = strf(_("opened %s"), path.c_str());
    return "";
  } catch (const std::exception& e) {
    return said_text(e);
  }
}

void DataFeed::request(AppState& s) {
  const bool yours = s.shows_yours(0);
  if (!yours && block_size_problem(s.a.kernel, s.a.block_size)) return;
  // The input's element type: float32 where side A's kernel adds float32 only (reproducible_sum), else int32.
  const DType dtype = !yours && !s.a.lib() && !kernel_info(s.a.kernel).takes(DType::Int32) ? DType::Float32 : DType::Int32;
  if (s.n != requested_n_ || s.pattern != requested_pattern_ || dtype != s.live_dtype) {
    s.clear_measurements();  // another input: earlier timings do not apply
    requested_n_ = s.n;
    requested_pattern_ = s.pattern;
    s.live_dtype = dtype;
  }
  Request r{s.a, std::nullopt, s.n, s.pattern, true, s.timings.empty()};
  r.dtype = dtype;
  if (s.compare) r.b = s.b;
  if (yours) {  // side A is the user's kernel: the GPU worker traces B and times A's track (the table), no live plot
    r.trace_a = false;
    r.live = false;
  }
  worker_.request(r);
  s.busy = true;
  s.status = _("queued");
  t_request_ = Clock::now();
  waiting_trace_ = waiting_timing_ = !yours;
}

void DataFeed::poll(AppState& s) {
  for (WorkerEvent& e : worker_.poll()) {
    using K = WorkerEvent::Kind;
    const bool current = e.n == s.n && e.pattern == s.pattern && !s.recorded();
    switch (e.kind) {
      case K::DeviceReady:
        s.device_known = s.have_device = true;
        s.device = e.device;
        if (!s.session && (s.a.library >= 0 || s.b.library >= 0)) {  // --kernel cub::... live: CUB's kernels are a
          const Pick& lib = s.a.library >= 0 ? s.a : s.b;              // session's traces; the GPU runs ours, and
          s.notice = strf(_("%s is shown from a session's trace (CUB's kernels are traced as compiled): open one that "
                            "holds it, such as assets/sessions/h100-tracks.rssession, or record one with `reducescope "
                            "record --add --binary --kernel cub --out SESSION`. Live, %s runs in its place."),
                          lib.name().c_str(), kernel_info(lib.kernel).name);  // says so
          s.a.library = s.b.library = -1;
          s.selection_changed = true;
        }
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
        if (!current || s.shows_yours(e.slot)) break;
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
  if (kernel_file_.is_open()) {
    const uint64_t before = s.yours.arrivals;
    if (kernel_file_.poll(s) && s.shows_yours(0)) show_yours(s);
    // A good run with a timing: a point of the live plot (its median, at the block size it ran at).
    YoursState& y = s.yours;
    if (y.arrivals != before) {
      if (auto it = y.timings.find(y.last_block_size); it != y.timings.end()) {
        y.live.push_back({std::chrono::duration<double>(Clock::now() - t_start_).count(), it->second.median_ms,
                          y.last_block_size});
        if (y.live.size() > 600) y.live.erase(y.live.begin());
      }
    }
  }
  if (s.yours.open()) s.yours.missing = yours_missing(s);
  if (t_request_ != Clock::time_point{} && !waiting_trace_ && !waiting_timing_) {
    latencies_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t_request_).count());
    t_request_ = {};
  }
}

void DataFeed::apply_selection(AppState& s) {
  s.selection_changed = false;
  s.error.clear();
  if (!s.yours.open()) s.yours_selected = false;
  if (s.shows_yours(0)) {
    s.yours.missing = yours_missing(s);
    show_yours(s);
  }
  if (s.recorded()) {
    show_from_session(s);
  } else if (s.have_device) {
    s.a.library = s.b.library = -1;  // a library kernel is a session's trace: the GPU runs the shipped kernel kept
    request(s);
  } else if (s.device_known && !s.shows_yours(0)) {
    s.error = _("no GPU here, and the open file holds only this trace; open a session (File > Open) to change it");
  }
}

}  // namespace rs::gui
