// The window's layout, as plain arithmetic (no ImGui, no GL), so the tests can check it on the
// recorded traces: which replay view carries the step's lesson, which views collapse to one line,
// and how a column's height is shared out. The panels measure what they want (in pixels, at the
// current font) and window.cpp places them where this module says.
//
// Index
//   View, view_has(), view_active(), views_in_order()   the replay views and their order (app/explain/views.hpp)
//   ViewAsk, ColumnFit, fit_views()                     one side's column: heights by priority
//   WindowColumns, window_columns()                     controls | replay | source, banks, timings
//   step_end_name()                                     what ends a step, in the window's language
//   idle_summary()                                      the one line for the idle views (explain::idle_line), said
//   (the bank view's line for a step without shared access: app/explain/sentences.hpp, bank_idle_sentence)
//   MultiGpuSplit, multigpu_split(), RingRows, ring_rows()  the multigpu tab: ring | bandwidth, the ring's rows
//   duration_text(), ring_step_sentence()               the ring replay's words for a step
//
// Design (../shared/DESIGN.md, "Round 3": the room's screen first): the view that carries the step's
// lesson gets the room; a view with nothing to show for this step is one line; the layout follows what
// the trace holds, not a per-kernel list.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "i18n.hpp"  // N_
#include "multigpu.hpp"
#include "replay.hpp"
#include "views.hpp"  // explain: the views as facts, the idle line

namespace rs::gui {

// Issue 31: the sentences below are made in the language in force (i18n::tr): Chinese in a window switched to it,
// English elsewhere (the CLI, the tests); the web export makes each in both, under i18n::LanguageScope.

// The replay views and their facts live in the explain layer (app/explain/views.hpp), which the page exporter reads
// too; the window's code names them here as before.
using explain::kNumViews;
using explain::shared_atomic_count;
using explain::step_ranges;
using explain::stores_warp_reduce_result;
using explain::View;
using explain::view_active;
using explain::view_has;
using explain::view_name;
using explain::views_in_order;
using explain::wasteful;
inline constexpr const char* kNcuReduxNote = explain::kNcuReduxNote;

// What one view asks of its side's column, in pixels.
struct ViewAsk {
  View view = View::Smem;
  bool shown = false;  // active this step: drawn as a panel (else it is named in the idle line)
  float want = 0;      // the height that shows all of it
  float least = 0;     // the least that is still useful (it scrolls below `want`)
  bool grows = false;  // a grid that gets larger cells from left-over height
};

struct ColumnFit {
  std::array<float, kNumViews> height{};  // by View; 0: not drawn (in the idle line, or nothing there)
  float idle_line = 0;                    // the one line naming the views idle this step (0: none)
  std::vector<View> folded;               // views with something this step, folded into the idle line for
                                          // room (the first view's want did not fit beside their leasts)
  float left = 0;                         // height no view could use (the warps panel may take it)
};

// Shares `avail` pixels between the shown views of `asks` (priority order; views_in_order). The first
// shown view carries the step's lesson: where its want and the others' leasts do not fit, the last
// shown views fold into the idle line until they do (or it is alone). Then each view gets its least,
// then each in order up to its want, then what is left goes to the growing grids (by their wants), else
// is returned in `left`. `idle_h` is the height of the idle line, reserved when a view of `asks` is
// not drawn. Where not even the leasts fit, every drawn view gets the same share of its least.
// `idle_anyway`: reserve the idle line even where every view is drawn (it says something else too).
ColumnFit fit_views(const std::vector<ViewAsk>& asks, float avail, float idle_h, bool idle_anyway = false);

// The three columns of the window, in pixels, for a window `width` wide with a font `font_px` tall:
// the controls (kernel lists, inputs, the kernel's note) about 15 characters wide, between 17% and 24%
// of the width; the source, banks and timings about 22 characters wide, between 26% and 32%; the
// replay views the rest: at least 45% of the width (where the side columns would leave less, both shrink
// alike). At 1280 pixels and a 25.5-pixel font (scale 1.5) that is 302 | 576 | 402.
struct WindowColumns {
  float left = 0, middle = 0, right = 0;
};
WindowColumns window_columns(float width, float font_px);

// What ends step `st`, in the source's words: to_string(st.ended_by) ("__syncthreads()", "a warp
// shuffle"), or the predicate form the barrier line holds ("__syncthreads_or()", "_and()", "_count()";
// the trace records them all as block barriers). `source` is the trace's kernel source. The CUDA names stay as
// they are; the words are translated ("a warp shuffle").
std::string step_end_name(const Step& st, const std::string& source);


// The one line for the views of `r` with nothing in step `st`, e.g. "Not in this step: lanes (steps
// 0-4), atomics (step 7); no global requests". Empty when every view the kernel has is shown.
// `folded`: views with something in this step that fit_views folded for room ("folded for room: global").
// `shared_not_traced`: the source probe does not trace the kernel's shared memory (explain::Seen::NotTraced): the
// line says so instead of "no shared memory" (issue 38: reproducible_sum's line said "no shared memory").
std::string idle_summary(const Replay& r, const Step& st, const std::vector<View>& idle,
                         const std::vector<View>& folded = {}, bool shared_not_traced = false);

// --- The multigpu tab (issue 21) ----------------------------------------------------------------------

// The multigpu tab's two halves, in pixels: the ring (its step-by-step replay over its measured timeline)
// and the bandwidth (the busbw chart over the table). Side by side where the ring keeps `ring_least` beside
// the table's whole width `table_w` and a `gap`: the bandwidth half gets 42% of `width`, at least
// `table_w`, and the ring the rest. Else (a large scale) one at a time, each the whole width, under inner
// tabs (the ring, the chart, the figures).
struct MultiGpuSplit {
  bool side_by_side = true;
  float ring_w = 0, bandwidth_w = 0;
};
MultiGpuSplit multigpu_split(float width, float ring_least, float table_w, float gap);

// The ring replay's rows, in pixels: `gpus` lanes of chunk boxes `box_h` tall, a gap `gap_h` between
// neighbouring lanes for the arrows and their labels, and for more than 2 GPUs an `edge_h` above the first
// lane and below the last, where the wrap from GPU G-1 to GPU 0 leaves and enters (2 GPUs draw it in their
// one gap). Between 1.3 : 1.4 : 1.2 and 4 : 2.6 : 1.6 lines of `line_h`, as large as `avail` allows.
struct RingRows {
  float box_h = 0, gap_h = 0, edge_h = 0;
  uint32_t gpus = 0;
  float total() const;
};
RingRows ring_rows(uint32_t gpus, float avail, float line_h);

// A measured time for people: "412.3 µs" below a millisecond, else "1.23 ms" (UTF-8).
std::string duration_text(double us);

// The ring replay's sentence for `shown` (0 .. 2(G-1); 0: before the first transfer, k: after step k) of
// `r`, true for that step: "Step 2 of 2 (all-gather): GPU 0 sends its summed chunk 1 to GPU 1, which stores
// it; GPU 1 sends its summed chunk 0 to GPU 0, which stores it. Now both GPUs hold the whole sum. 0.52 ms
// measured." With more than 2 GPUs the first transfer stands for the rest. The time is the step's
// ring_step_span (omitted where the recording has no events for it). r.gpus >= 2.
std::string ring_step_sentence(const RingRecording& r, uint32_t shown);

}  // namespace rs::gui
