// The window's panels, one per file (STYLE.md: ImHex's one-view-per-file). A Panel owns
// Begin/End and its placement; each concrete panel draws only its content and keeps its own
// view state (hover, selection).
//
//   ControlsPanel  kernel list, block size, N, pattern, compare, teaching note
//   StepBar        step controls, the step number and each side's step sentence, the last error
//   SourcePanel    the kernel's CUDA source with the current step's lines highlighted (the user's kernel file
//                  with its compile errors at their lines)
//   SmemPanel      the traced block's shared memory after the current step      (one per side)
//   GlobalPanel    the block's slice of the global buffer it reduces in place, after the step, and the
//                  step's global requests with their sector efficiency              (one per side)
//   CellGrid       the grid of value cells both memory views draw (draw_cell_grid)
//   WarpsPanel     warps x 32 lanes: useful, active-but-idle, inactive, exited  (one per side)
//   BanksPanel     the current step's warp-level accesses and their n-way bank conflicts; its global
//                  requests' sector efficiency
//   LanesPanel     the current step's warp shuffles: each warp's 32 lanes, values, lane -> lane arrows
//   AtomicsPanel   the atomic targets, this step's atomic instructions and contention, landing order
//   TimingPanel    Harris's table + bars, the rolling live plot, time and bandwidth vs block size, the N
//                  sweep, the bits, and the multi-GPU recording (MultiGpuView, multigpu_panel.cpp)
//   draw_help()    the keyboard shortcuts overlay
//
// Slot-aware panels show side A (slot 0) or the compare side B (slot 1) of AppState::view().
#pragma once

#include <imgui.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "app_state.hpp"
#include "facts.hpp"      // explain: what the views say, from facts computed once (issue 38)
#include "layout.hpp"  // step_ranges
#include "sentences.hpp"
#include "two_runs.hpp"  // AtomicsPanel's two runs

namespace rs::gui {

// Okabe-Ito colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008).
namespace color {
inline constexpr ImU32 rgb(int r, int g, int b, int a = 255) {
  return static_cast<ImU32>(r) | static_cast<ImU32>(g) << 8 | static_cast<ImU32>(b) << 16 | static_cast<ImU32>(a) << 24;
}
inline constexpr ImU32 kOrange = rgb(230, 159, 0);       // written this step
inline constexpr ImU32 kSkyBlue = rgb(86, 180, 233);     // read this step
inline constexpr ImU32 kGreen = rgb(0, 158, 115);        // useful lane
inline constexpr ImU32 kYellow = rgb(240, 228, 66);      // active but idle lane
inline constexpr ImU32 kBlue = rgb(0, 114, 178);         // bars
inline constexpr ImU32 kVermillion = rgb(213, 94, 0);    // bank conflict, divergence
inline constexpr ImU32 kPurple = rgb(204, 121, 167);     // selected kernel's bar
inline constexpr ImU32 kCell = rgb(70, 74, 84);          // defined, untouched cell; inactive lane
inline constexpr ImU32 kEmpty = rgb(38, 40, 46);         // undefined cell; exited lane
inline constexpr ImU32 kInk = rgb(15, 15, 15);           // text on light cells
inline constexpr ImU32 kYours = kYellow;                 // the user's own kernel (its list entry, its row and bar)
inline constexpr ImU32 kLibrary = kOrange;               // a library's kernel (CUB's) in the kernel list
}  // namespace color

class Panel {
 public:
  // `title` is shown; `id` keeps the window's identity when a slot-aware panel retitles itself.
  Panel(const char* title, const char* id) : title_(title), id_(id) {}
  // A slot-aware panel: shows side `slot`, and says which in its title in compare mode
  // ("Shared memory A: reduce1 @256", from `short_title`), as much of that as fits its width.
  Panel(const char* title, const char* short_title, const char* id, int slot)
      : title_(title), short_title_(short_title), id_(id), slot_(slot), per_side_(true) {}
  virtual ~Panel() = default;
  void draw(AppState& s, ImVec2 pos, ImVec2 size);

 protected:
  virtual void drawContent(AppState& s) = 0;
  // The current step of `v`, or nullptr after saying "No trace yet." (nothing has been traced).
  static const Step* stepOrSay(const ReplayView& v);
  const char* title_;
  const char* short_title_ = nullptr;  // slot-aware panels: the title in compare mode, or where `title_` does not fit
  const char* id_;
  int slot_ = 0;            // 0: side A, 1: side B (compare)
  bool per_side_ = false;   // one instance per side (shared memory, warps, banks)
  bool no_title_ = false;   // a bar without a title (the step bar)
};

// The shared step: to `target` (clamped to the replays' steps); play / pause (play at the end starts over).
void step_to(AppState& s, long target);
void play_pause(AppState& s);
inline constexpr float kMinSpeed = 0.25f, kMaxSpeed = 30.0f;  // steps per second

// Keyboard shortcuts (listed by draw_help): replay, selection, play.
enum class Key { Forward, Back, Start, End, PlayPause, Faster, Slower, PrevKernel, NextKernel, SmallerBlock,
                 BiggerBlock, Compare, LargeCharts, Focus, ElementType, AsCompiled };

class ControlsPanel : public Panel {
 public:
  ControlsPanel() : Panel(N_("Kernels and replay"), "controls") {}
  // Advances the step while playing; call once a frame.
  static void tick(AppState& s);
  // Keyboard shortcuts pressed since the last frame, whichever panel has focus.
  void handleKeys(AppState& s, const std::vector<Key>& keys);

 protected:
  void drawContent(AppState& s) override;
};

// The step bar, across the window under the menu: the step controls (first, back, play, next, last),
// the step slider ("step 3 of 0-7"), the play speed, and for each side the step's sentence ("sum_shuffle,
// 128 threads: ends at a warp shuffle, line 195"); the last error under them. Never scrolls away.
class StepBar : public Panel {
 public:
  StepBar() : Panel(N_("Step"), "stepbar") { no_title_ = true; }
  // Pixels the bar needs in a window `width` wide.
  static float height(const AppState& s, float width);

 protected:
  void drawContent(AppState& s) override;
};

class SmemPanel : public Panel {
 public:
  explicit SmemPanel(int slot)
      : Panel(N_("Shared memory (after this step)"), N_("Shared memory"), slot ? "smemB" : "smemA", slot) {}

 protected:
  void drawContent(AppState& s) override;

 private:
  void drawRaces(const AppState& s, const ReplayView& v, const std::vector<const SessionRace*>& races);
  bool touched_only_ = false;  // show only the rows read or written in this step
  // drawRaces' grid, rebuilt when the trace changes.
  const LoadedTrace* race_of_ = nullptr;
  size_t race_words_ = 0;
  std::vector<uint8_t> race_cells_, race_zero_, race_ones_;
  std::vector<int32_t> race_values_;
};

class GlobalPanel : public Panel {
 public:
  explicit GlobalPanel(int slot)
      : Panel(N_("Global memory (the block's slice, after this step)"), N_("Global memory"), slot ? "globalB" : "globalA",
              slot) {}
  // Pixels the view wants for `r` at the current font, without the grid's rows (grid_rows() of them).
  static float wanted_height(const Replay& r);
  static int grid_rows(const Replay& r);  // rows of 32 elements in the slice

 protected:
  void drawContent(AppState& s) override;

 private:
  bool touched_only_ = false;  // show only the rows read or written in this step
};

class WarpsPanel : public Panel {
 public:
  explicit WarpsPanel(int slot) : Panel(N_("Warps x lanes"), N_("Warps x lanes"), slot ? "warpsB" : "warpsA", slot) {}
  // Pixels the view wants for step `st` of `r` in a window `width` wide at the current font: its legend,
  // a row per warp that made an instruction this step, as tall as a line of text (or as the lane cells
  // are wide, if wider), and one line for the other warps.
  static float wanted_height(const Replay& r, const Step& st, float width);

 protected:
  void drawContent(AppState& s) override;
};

class BanksPanel : public Panel {
 public:
  explicit BanksPanel(int slot) : Panel(N_("Bank conflicts"), N_("Banks"), slot ? "banksB" : "banksA", slot) {}

 protected:
  void drawContent(AppState& s) override;

 private:
  size_t selected_ = static_cast<size_t>(-1);  // index into Replay::accesses(); -1: the worst of the step
  size_t selected_step_ = static_cast<size_t>(-1);
  const LoadedTrace* selected_trace_ = nullptr;
};

class LanesPanel : public Panel {
 public:
  explicit LanesPanel(int slot) : Panel(N_("Lanes: warp shuffles"), N_("Lanes"), slot ? "lanesB" : "lanesA", slot) {}
  // Pixels the view wants at the current font, without the title bar: its header and `warps` warps'
  // blocks (values offered, the arrows, values received), and where the values do not fit their cells at `width`
  // pixels (0: not known), each warp's table of values, 16 lanes a row.
  static float wanted_height(size_t warps, float width = 0);

 protected:
  void drawContent(AppState& s) override;
};

class AtomicsPanel : public Panel {
 public:
  explicit AtomicsPanel(int slot) : Panel(N_("Atomics"), N_("Atomics"), slot ? "atomicsB" : "atomicsA", slot) {}
  // Pixels the view wants for step `st` of `r` at the current font, without the title bar.
  static float wanted_height(const Replay& r, const Step& st);

 protected:
  void drawContent(AppState& s) override;

 private:
  // The two-runs view's comparison (record --two-runs) of the pair this panel shows: first run, second run.
  std::pair<const Trace*, const Trace*> runs_of_{};
  TwoRuns runs_;
};

class SourcePanel : public Panel {
 public:
  SourcePanel() : Panel(N_("Kernel source"), "source") {}

 protected:
  void drawContent(AppState& s) override;

 private:
  void drawListing(AppState& s, int slot, float height);  // one side's listing; height 0: the rest
  // Per side (A, B):
  std::string scroll_key_[2];  // the trace and step (or the file and its first error) last scrolled to
  int scroll_frames_[2] = {};  // frames left to scroll there (a new listing's height is known a frame later)
  std::string text_of_[2];     // lines_ holds this text (a trace's source, or the user's kernel file), a line each
  std::vector<std::string> lines_[2];
};

// The timing panel's multigpu tab (issue 21), for a session with a multi-GPU recording (SessionMultiGpu): a
// traced ring all-reduce replayed step by step (each GPU's chunks coloured by how many GPUs' values they hold,
// the step's transfers as arrows, the step's sentence) over its measured timeline of peer copies and adds;
// beside it busbw against buffer size for NCCL, the ring and the naive way with the measured peer copy, and
// the table of figures and the spread sum. The ring step is this view's own (its buttons, its slider, the
// arrow keys while it is shown).
class MultiGpuView {
 public:
  void draw(AppState& s);
  // The keys this view takes while it is on screen (AppState::multigpu_shown): Right / Left / Home / End step
  // the ring. Returns the others.
  std::vector<Key> takeKeys(const AppState& s, const std::vector<Key>& keys);

 private:
  void sync(AppState& s);  // a new recording: the largest ring, at --step or step 1
  void drawRing(const SessionMultiGpu& m);
  void drawLanes(const RingRecording& r, const RingRows& rows);
  void drawTimeline(const RingRecording& r);
  std::string timelineText(const RingRecording& r) const;
  float timelineLeast(const RingRecording& r) const;
  void drawChart(const SessionMultiGpu& m, float height);
  void drawFigures(const SessionMultiGpu& m);
  float sumHeight(const SessionMultiGpu& m) const;
  float figuresHeight(const SessionMultiGpu& m) const;
  uint32_t steps() const;  // 2(G-1) of the chosen ring
  const SessionMultiGpu* of_ = nullptr;  // the recording the choices below belong to
  size_t ring_ = 0;                      // index into SessionMultiGpu::rings
  uint32_t step_ = 1;                    // 0 .. 2(G-1): 0 before the first transfer, k after step k
};

class TimingPanel : public Panel {
 public:
  TimingPanel() : Panel(N_("Timings"), "timings") {}
  // The keys the multigpu tab takes while it is shown (MultiGpuView::takeKeys); returns the others.
  std::vector<Key> takeKeys(const AppState& s, const std::vector<Key>& keys) { return multigpu_.takeKeys(s, keys); }

 protected:
  void drawContent(AppState& s) override;

 private:
  void drawTable(AppState& s);
  void drawLive(AppState& s);
  void drawBlockSize(AppState& s);
  void drawSweep(AppState& s);
  void drawBits(AppState& s);
  void drawMultiGpu(AppState& s);
  MultiGpuView multigpu_;
  bool tab_applied_ = false;  // AppState::timing_tab (from settings) selected on the first frame
  bool log_time_ = true;      // "vs block size": the time axis in decades (1-2-5 ticks), not from zero
  std::string yours_scrolled_;  // the table scrolled the user's kernel's rows into view for "name/block size/height"
  int yours_scroll_tries_ = 0;  // frames left to try (ImGui clamps a scroll to the last frame's content)
};

// GUI tests: remembers the screen rectangle of the last item under `name` (e.g. "A/bs512",
// "menu/File"), for tests/gui_xvfb.sh to click. Written out by write_widget_map().
void note_widget(const std::string& name);
// Same, for a rectangle (every panel notes its window as "panel/<id>", e.g. "panel/lanesA").
void note_rect(const std::string& name, ImVec2 min, ImVec2 max);
// Writes "name x0 y0 x1 y1" lines to `path` (window pixels), the rectangles noted since the last call,
// if they differ from those it last wrote. Call once a frame.
void write_widget_map(const std::string& path);

// One Okabe-Ito colour per kernel, the same in every plot.
ImU32 kernel_color(KernelId k);

// The exercise's checks (issue 19, app/exercises.hpp) over the replay column while side A shows the user's kernel
// and the exercise has checks: a heading ("Exercise bank_conflicts: 1 of 2 checks passed."), then each check with a
// tick or a cross, its figure and, for a failure, its hint. At (x, y), w wide, as tall as its text wraps to, at most
// `max_h` (it scrolls beyond). Returns the height it took (0: nothing to show). draw_panels (window_layout.cpp).
float draw_exercise_band(const AppState& s, float x, float y, float w, float max_h);
// The height draw_exercise_band takes at width `w` before the max_h limit (0: nothing to show).
float exercise_band_height(const AppState& s, float w);
// A tick (green) or a cross (vermillion), a text line high, then ImGui::SameLine for the rest of the line.
void check_mark(bool pass, bool ran = true);  // ran false: a dash (not run on this machine)

// The shortcuts overlay (F1 or ?); closes on a click outside it or Escape.
void draw_help(AppState& s);
// The one-line description of where the shown data comes from ("live on <GPU>" or the session).
std::string data_origin(const AppState& s);
// What the controls panel says of it, in plain words for a student: "No NVIDIA GPU here: showing the
// session recorded on NVIDIA H100 80GB HBM3, 2026-11-23." (the CUDA runtime's reason is on hover).
std::string origin_sentence(const AppState& s);
// The same, from the whole of it down to shorter forms ("RECORDING, <GPU>", "RECORDING"), for where
// room is short.
std::vector<std::string> data_origin_forms(const AppState& s);

// Chinese (issue 31): where the language is Chinese and the last item is hovered (with no tooltip of its own
// shown this frame), a tooltip with the English it translates (`msgid`), since students read NVIDIA's English
// docs too. Does nothing in English. Call right after the item.
void hover_english(const char* msgid);
// ImGui::TextUnformatted(_(msgid)), then hover_english(msgid): a term or a line that keeps its English on hover.
void text_tr(const char* msgid);
// The explain layer at the window's edge (app/explain/, issue 38). The facts of `v`'s trace in the context the
// window knows: the open session's binary trace of the same kernel and block size (the banks, shared-memory and
// lanes views then offer it: key B). Cached per trace shown.
const explain::TraceFacts& trace_facts_of(const AppState& s, const ReplayView& v);
// A sentence of the explain layer, in the language in force (gettext).
std::string say(const explain::Sentence& sentence);
// TextWrapped(say(sentence)), with the English on hover in Chinese.
void text_say(const explain::Sentence& sentence);
// Where `v` is side A's source-probe trace and the open session holds the binary tracer's trace of the same kernel
// and block size (trace_facts_of: binary_twin): a button that shows it (as key B does).
void as_compiled_button(AppState& s, const ReplayView& v);
// A kernel's name as it fits `width` pixels at the current font: whole, else cut after its last word that fits, then
// "..." (words: after "::" and "_", before '<', and a capital after a lower-case letter or digit:
// cub::DeviceReduceSingleTileKernel -> "cub::DeviceReduce..."), never mid-word unless its first word is wider than
// `width`. The whole name belongs in the item's tooltip.
std::string fit_name(const char* name, float width);
// printf into a std::string, for translated formats (i18n.hpp).
using i18n::strf;

// Short human form of an int for a small cell: 123, 12k, 1.2M, -5k.
const char* compact_int(int32_t v, char* buf, size_t len);
// Short form of a 32-bit value of type `t` for a small cell: compact_int, or a float in 3 digits.
const char* compact_value(uint32_t bits, DType t, char* buf, size_t len);
// The cells of one step of a memory view, 32 a row (shared memory: one column per bank; global
// memory: 128 bytes a row, a group of 8 per 32-byte sector). Cells written this step are orange, read
// blue, unchanged grey, never defined dark, with their value inside when it fits; each row is
// labelled with its first cell's index. All vectors have one entry per cell.
inline constexpr int kCellGridColumns = 32;
struct CellGrid {
  const std::vector<int32_t>* values = nullptr;  // bits
  const std::vector<uint8_t>* defined = nullptr;
  const std::vector<uint8_t>* written = nullptr;
  const std::vector<uint8_t>* read = nullptr;
  const std::vector<uint8_t>* used = nullptr;    // defined by the kernel's end: rows with none are hidden
  const std::vector<std::pair<uint32_t, uint32_t>>* flows = nullptr;  // (cell, cell it came from): arrows on hover
  const std::vector<uint8_t>* outlined = nullptr;  // optional: cells drawn with a purple frame
  const std::vector<uint8_t>* raced = nullptr;     // optional: cells filled vermillion (racecheck's races)
  DType dtype = DType::Int32;
  size_t first_index = 0;     // the index of cell 0 (row labels)
  int columns = kCellGridColumns;  // cells a row (a multiple of 32)
  int group = 0;              // > 0: a small gap between groups of this many columns
  bool touched_only = false;  // only the rows with a cell read or written this step
};
struct CellRows {
  std::vector<int> row_at;  // row -> display row; -1: hidden
  int rows = 0, shown = 0, never_used = 0;
};
CellRows cell_rows(const CellGrid& g);
// The side of a cell if the grid `rows` fills the rest of the window (before the 6-pixel minimum).
float cell_size(const CellGrid& g, const CellRows& rows);
// Draws the grid, as large as the rest of the window allows (at least 6-pixel cells); returns the
// cell under the mouse (-1: none, or the window is not hovered).
long draw_cell_grid(const CellGrid& g, const CellRows& rows);
// Whether draw_cell_grid will draw values in the cells (a font at least 8 pixels high fits four characters):
// not at scale 1.5 in a 1280-pixel window, where a cell is about 16 pixels (issue 38, item 4).
bool cell_values_fit(const CellGrid& g, const CellRows& rows);

// A legend on one line: each entry a square of its colour (the upper half `color`, the lower half
// `lower` where set), then its label. Where the labels do not fit the width, the squares alone, each
// naming itself on hover, and "(hover)": a legend never takes more than one line of a view.
struct LegendEntry {
  ImU32 color;
  const char* label;
  const char* tip = nullptr;
  ImU32 lower = 0;
};
// `then_same_line`: the next item may follow on the same line (same_line_if_fits), else a new line.
void legend(std::initializer_list<LegendEntry> entries, bool then_same_line = false);
// A legend entry from its English label and tip (msgids marked N_), translated; in Chinese its tip starts with
// the English label (the term's English on hover). The views' legends share it (panel_common.cpp).
LegendEntry tr_entry(ImU32 color, const char* label, const char* tip, ImU32 lower = 0);
// A legend entry on the current line: a square of colour `c`, then `label`; `tip` on hover.
// An entry that would not fit the rest of the line starts the next one.
void legend_swatch(ImU32 c, const char* label, const char* tip = nullptr);
// After an item: the next one goes on the same line if `width` pixels fit there, else on the next.
void same_line_if_fits(float width);
// The colour of `c` with its alpha scaled by `a` (0..1).
ImU32 with_alpha(ImU32 c, float a);

}  // namespace rs::gui
