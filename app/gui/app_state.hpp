// What the window's panels share: the selection, the replays being shown (one, or two in
// compare mode), where the data comes from (the GPU or a recorded session), the timings
// measured so far and the presentation settings. Each panel keeps its own view state (hover,
// selected access) itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check_record.hpp"  // ExerciseCheck: the exercise's checks, from the worker's check --json
#include "gpu_reduce.hpp"
#include "i18n.hpp"
#include "kernel_info.hpp"
#include "predict.hpp"
#include "replay.hpp"
#include "session.hpp"

namespace rs::gui {

class RoomClient;  // room_client.hpp: class mode connected to `reducescope serve`
struct AppState;
// Whether Predict mode's lesson asks "which line races with which?" (explain::QuestionKind::RaceLine) of the kernel
// and block size on screen, and the question has not been answered or shown yet (app/gui/predict.cpp).
bool race_question_waiting(const AppState& s);

struct LoadedTrace {
  Trace trace;
  Replay replay;
  bool correct = true;        // sum matched the CPU reference (or unknown for a file)
  std::string origin;         // "live", or the file it came from
  explicit LoadedTrace(Trace t) : trace(std::move(t)), replay(trace) {}
};

// One replay as a panel sees it: the trace and the step shown of it.
struct ReplayView {
  const LoadedTrace* trace = nullptr;  // nullptr: nothing to show yet
  size_t step = 0;                     // clamped to the trace's steps
  char tag = 'A';                      // 'A', or 'B' for the compare side
  const char* missing = N_("No trace yet.");  // what a view says when `trace` is nullptr (translated by view())
  size_t num_steps() const { return trace ? trace->replay.num_steps() : 0; }
  const Step* current() const { return step < num_steps() ? &trace->replay.step(step) : nullptr; }
};

// A kernel at a block size: what is traced and timed; or a library kernel (CUB's, issue 29) whose trace an open
// session holds: `library` indexes library_table(), and `kernel` keeps a shipped kernel of its track (the timing
// table's track, and where Down and Up go on from), as AppState::a keeps one while the user's kernel is shown.
struct Pick {
  KernelId kernel = KernelId::reduce1;
  unsigned block_size = 256;
  int library = -1;  // library_table() index; -1: the shipped kernel `kernel`
  const LibraryKernelInfo* lib() const { return library < 0 ? nullptr : &library_table().at(library); }
  // The kernel's name in traces and timings: "reduce1", "cub::DeviceReduceKernel".
  std::string name() const { return library < 0 ? kernel_info(kernel).name : lib()->name; }
  bool operator==(const Pick& o) const {
    return kernel == o.kernel && block_size == o.block_size && library == o.library;
  }
  // The same kernel at a block size it can take (block_size_problem): the smallest offered size
  // at or above the asked one (reduce4-6, sum_last_warp, sum_shuffle, sum_two_step need 64), else
  // the largest offered size it takes. A library kernel's block size is the session's trace's (unchanged).
  Pick valid() const {
    if (library >= 0 || !block_size_problem(kernel, block_size)) return *this;
    for (unsigned bs : kBlockSizes) {
      if (bs >= block_size && !block_size_problem(kernel, bs)) return {kernel, bs};
    }
    for (auto it = kBlockSizes.rbegin(); it != kBlockSizes.rend(); ++it) {
      if (!block_size_problem(kernel, *it)) return {kernel, *it};
    }
    return *this;
  }
  bool operator!=(const Pick& o) const { return !(*this == o); }
};

// Library kernel `name` (a LibraryKernelInfo's) as a pick: its trace at `block_size` where the session has it there
// (else at the block size it has, DataFeed::show_from_session), and the first shipped kernel it is compared with kept
// as `kernel`. nullopt for another name.
inline std::optional<Pick> library_pick(const std::string& name, unsigned block_size) {
  const auto& t = library_table();
  for (size_t i = 0; i < t.size(); ++i) {
    if (name != t[i].name) continue;
    const KernelInfo* beside = find_kernel(t[i].beside[0]);
    return Pick{beside ? beside->id : KernelId::reduce6, block_size, static_cast<int>(i)};
  }
  return std::nullopt;
}

// The user's own kernel (issue 19, docs/your-kernel.md): a kernel file the window compiles and, on a GPU, runs in
// a worker process (KernelFileFeed, kernel_file_feed.hpp), or the "yours" traces of an open session (recorded with
// `reducescope record --kernel-file`). It is a kernel of its own track, "yours", listed above the shipped tracks;
// side A shows it while AppState::yours_selected (side B is always a shipped kernel). Its block size is side A's
// (AppState::a.block_size): AppState::a keeps the shipped kernel selected before, so every shipped-kernel path
// reads AppState::a as it did.
inline constexpr const char* kYoursTrack = "yours";  // TraceMeta::track of the user's kernel's traces
struct YoursDiagnostic {      // a compile error or note of the file (UserDiagnostic, kernels/user_kernel.hpp)
  unsigned line = 0;          // 1-based; 0: the file as a whole
  unsigned column = 0;        // 1-based, in characters; 0: none
  std::string severity;       // "error", "catastrophic error", "warning", "note"
  std::string message;        // one line
};
struct YoursState {
  // What it is.
  std::string path;           // the kernel file ("": the traces come from a session, `session`)
  std::string name;           // its kernel name in traces and tables: user_kernel_name(path), or the session's
  std::string session;        // the session the traces come from ("": the file's own runs); with a kernel file open
                              // too, the session's recording of it (same name) stands in until the file runs here
  // Its traces and timings: the last good build's (or the session's), at the input `n`, `pattern`.
  std::map<unsigned, std::shared_ptr<const LoadedTrace>> traces;  // by block size
  std::map<unsigned, Timing> timings;                              // by block size (the record's timing rows)
  std::set<unsigned> wrong_sum;                                    // block sizes whose sum did not match the CPU's
  double cub_ms = 0, cub_gbps = 0;  // cub::DeviceReduce::Sum timed in the same run (0: none)
  uint64_t n = 0;
  std::string pattern;
  // The file as it is now.
  std::string source;         // its text as last read: the source view shows it where no trace is of this text
  std::vector<YoursDiagnostic> diagnostics;  // the last compile's errors and notes, at their lines in the source view
  bool compiled = false;      // the last compile succeeded
  unsigned min_block_size = 32;  // its RS_LAUNCH_SHAPE's (from the last good compile)
  std::string shape;          // the launch shape in words ("1 element per thread, repeated launches, 32 threads or more")
  bool stale = false;         // the traces are not of the file as it is now: it does not compile, is gone, or its run
                              // failed; the replay is marked STALE
  bool gone = false;          // the file is not there (deleted or moved; or not saved yet)
  bool busy = false;          // compiling, running or checking now
  uint64_t arrivals = 0;      // good runs taken from the file's worker so far, each a new trace (--reload-bench
                              // waits for the next one)
  unsigned last_block_size = 0;  // the block size of the last good run
  struct LivePoint {
    double t = 0;             // seconds since the window opened, when the run's results arrived
    double ms = 0;            // its median time (the record's 20 timed runs, L2 flushed before each)
    unsigned block_size = 0;
  };
  std::vector<LivePoint> live;  // each good run's median, for the live plot (one point per save or block size)
  std::string status;         // one line: what is being done, or what the file can do ("compiles; running it needs a
                              // CUDA GPU")
  std::string banner;         // one line, red: the compile error, a deleted file, the worker's end ("": none)
  std::string banner_more;    // the whole of it where it is longer (the worker's end message: the likely causes)
  std::string missing;        // what a replay view says where it has no trace (ReplayView::missing points here)
  // The exercise (check --exercise NAME --json in the worker, after each good run).
  std::string exercise;       // "": none
  std::vector<ExerciseCheck> checks;  // of the current build
  std::string checks_note;    // why there are none, or that they are running
  bool open() const { return !name.empty(); }
  // One word for where it stands, for the GUI tests' widget map ("yours/state/<word>"): "busy", "gone", "errors",
  // "compiles" (and, where it has one at side A's block size, a trace: AppState::view).
  const char* state() const { return busy ? "busy" : gone ? "gone" : !compiled ? "errors" : "compiles"; }
  bool takes(unsigned block_size) const { return path.empty() || block_size >= min_block_size; }
};

// One per-launch time of the rolling live plot.
struct LiveSample {
  Pick pick;
  float ms = 0;
  double t = 0;  // seconds since the window opened
};

// Which tab the timing panel shows (saved by number: append only).
enum class TimingTab : int { Table = 0, Live = 1, BlockSize = 2, Sweep = 3, Bits = 4, MultiGpu = 5 };
inline constexpr int kLastTimingTab = static_cast<int>(TimingTab::MultiGpu);

struct AppState {
  // Selection (what the GPU runs next, or what is looked up in the session).
  Pick a;                          // the main replay
  Pick b{KernelId::reduce2, 256};  // the compare side
  bool compare = false;            // show A and B side by side, stepping together
  bool float32 = false;            // a session's float32 traces where it has them (issue 30; key D, the controls'
                                   // int32 / float32 switch); each side without one shows its int32 trace
  bool two_runs = false;           // the atomics panel shows the session's two runs of side A's float atomics side by
                                   // side (issue 30: why the bits differ), where it holds a second run
  bool as_compiled = false;        // a session's binary traces (the kernel as compiled: the pitfalls, issue 29) where it
                                   // holds them (key B, the controls' tracer switch); else the source probe's
  uint64_t n = 1u << 24;
  Pattern pattern = Pattern::RandomBytes;

  // The replays on screen and the shared step (B shows min(step, its last step)).
  std::shared_ptr<const LoadedTrace> shown, shown_b;
  size_t step = 0;
  std::shared_ptr<RoomClient> room;  // --class-mode --serve URL (issue 56); nullptr: the room answers aloud
  PredictState predict;            // Predict mode (issue 39): the question waiting before the next step, the score
  bool playing = false;
  float speed = 2.0f;              // steps per second while playing
  double next_play_step = 0;       // ImGui::GetTime() at which the next step is due

  // Device and progress.
  bool device_known = false;       // the worker has tried to open the GPU
  bool have_device = false;
  DeviceInfo device;
  std::string no_device_reason;    // why there is no GPU, for the banner
  bool busy = false;
  std::string status;              // what the GPU is doing now
  std::string error;               // last error, shown until the next success
  std::string gl_note;             // the window's OpenGL context was reset by the GPU: one line (reset_note), or ""
  DType live_dtype = DType::Int32;  // the live GPU's input: float32 while a float32-only kernel is side A
  std::string notice;              // last success message (export, open), shown until the next

  // The user's own kernel (a kernel file, or a session's "yours" traces): side A shows it while yours_selected.
  YoursState yours;
  bool yours_selected = false;

  // A recorded session, when the data comes from one (no GPU, or opened from a file).
  std::shared_ptr<const Session> session;
  std::string session_path;

  bool selection_changed = false;  // a panel changed the selection: re-run or re-look-up

  // Median timings for the current N and pattern, by (kernel, block size); from the GPU or the session.
  std::map<std::pair<KernelId, unsigned>, Timing> timings;
  std::set<std::pair<KernelId, unsigned>> wrong_sum;  // timings whose sum did not match the CPU reference
  double copy_gbps = 0, cub_ms = 0;  // references measured on the same input (0: not yet)
  std::deque<LiveSample> live;       // rolling per-launch times, oldest first

  // Presentation (persisted by settings.cpp).
  float ui_scale = 1.0f;           // Ctrl+ / Ctrl-: 0.75 .. 3
  bool high_contrast = false;
  i18n::Lang lang = i18n::Lang::En;  // View > Language, --lang; applied by frame() (i18n::set_language)
  bool lang_saved = false;           // chosen in View > Language (now or saved): it wins over the system's locale
  TimingTab timing_tab = TimingTab::Table;
  bool show_help = false;
  bool large_charts = false;       // T: the timing panel fills the replay's place (for a projector)
  bool focus = false;              // F: the replay takes the whole width (the step bar shows the source line)
  int ring_step_wanted = -1;       // --step S with --view multigpu: the ring step the multigpu tab opens at (-1: 1)

  bool recorded() const { return session != nullptr; }
  // The multigpu tab is selected and the open session has a multi-GPU recording: the timing panel then takes
  // the window under the menu bar (window_layout.cpp) and the arrow keys step the ring (frame.cpp).
  bool multigpu_shown() const { return timing_tab == TimingTab::MultiGpu && session && !session->multigpu.empty(); }
  // Forgets every measurement (another input, another source).
  void clear_measurements() {
    timings.clear();
    wrong_sum.clear();
    live.clear();
    copy_gbps = cub_ms = 0;
  }
  double peak_gbps() const { return session ? session->meta.peak_gbps : device.peak_gbps(); }
  const Timing* timing(KernelId k, unsigned bs) const {
    auto it = timings.find({k, bs});
    return it == timings.end() ? nullptr : &it->second;
  }
  size_t num_steps() const { return shown ? shown->replay.num_steps() : 0; }
  // The largest step count of the replays on screen (the shared step runs over it).
  size_t max_steps() const {
    size_t m = num_steps();
    if (compare && shown_b) m = std::max(m, shown_b->replay.num_steps());
    return m;
  }
  // Whether side `slot` shows the user's kernel.
  bool shows_yours(int slot) const { return slot == 0 && yours_selected && yours.open(); }
  // The kernel side `slot` shows, by name: the user's kernel's, or the shipped kernel's.
  std::string side_name(int slot) const {
    return shows_yours(slot) ? yours.name : (slot == 0 ? a : b).name();
  }
  ReplayView view(int slot) const {
    ReplayView v;
    v.tag = slot == 0 ? 'A' : 'B';
    v.trace = slot == 0 ? shown.get() : shown_b.get();
    v.missing = _("No trace yet.");
    if (session) v.missing = _("The session holds no trace of this kernel at this block size (the step bar says why).");
    if (shows_yours(slot)) v.missing = yours.missing.c_str();  // in the window's language (DataFeed's yours_missing)
    const size_t n_steps = v.num_steps();
    v.step = n_steps == 0 ? 0 : std::min(step, n_steps - 1);
    return v;
  }
  const Step* current_step() const { return view(0).current(); }
  // compute-sanitizer racecheck's races of side `slot`'s kernel at its block size, as the open session
  // holds them (`reducescope pitfalls --out`); empty without a session or a trace, or where none were found.
  // None while Predict mode's "which line races with which?" waits for its answer (race_question_waiting): the
  // source's red marks, the shared words raced on and the pitfall's races line would give it away.
  std::vector<const SessionRace*> races(int slot) const {
    const LoadedTrace* t = slot == 0 ? shown.get() : shown_b.get();
    if (!session || !t || race_question_waiting(*this)) return {};
    return session->races_of(t->trace.meta.kernel, t->trace.meta.block_size);
  }
};

}  // namespace rs::gui
