// The window's layout arithmetic (app/gui/layout.hpp, app/gui/settings.hpp's fit_window) and the replay
// facts the views draw, on the bundled H100 session: issue 17, "the room's screen". Each test names the
// false picture or the lost view it would have caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "layout.hpp"
#include "replay.hpp"
#include "session.hpp"
#include "settings.hpp"

namespace rs::gui {
namespace {

const Session& tracks() {
  static const Session s = load_session(RS_TRACKS_SESSION_FILE);
  return s;
}

Replay replay_of(const char* kernel, uint32_t bs) {
  const Trace* t = tracks().find_trace(kernel, bs);
  if (!t) throw std::runtime_error(std::string("the bundled session has no trace of ") + kernel);
  return Replay(*t);
}

// --- Where the window opens ------------------------------------------------------------------------

TEST(FitWindow, NoSavedSizeOnAProjectorTakesTheWorkAreaNot1600x1000) {
  bool maximize = false;
  const WindowGeometry g = fit_window(WindowGeometry{}, WorkArea{0, 0, 1280, 720}, &maximize);
  EXPECT_EQ(g.width, 1280);
  EXPECT_EQ(g.height, 720);
  EXPECT_EQ(g.x, 0);
  EXPECT_EQ(g.y, 0);
  EXPECT_TRUE(maximize);
}

TEST(FitWindow, NoSavedSizeOnALargeMonitorIsTheDefaultCentred) {
  bool maximize = true;
  const WindowGeometry g = fit_window(WindowGeometry{}, WorkArea{0, 30, 1920, 1050}, &maximize);
  EXPECT_EQ(g.width, 1600);
  EXPECT_EQ(g.height, 1000);
  EXPECT_EQ(g.x, 160);
  EXPECT_EQ(g.y, 30 + 25);
  EXPECT_FALSE(maximize);
}

TEST(FitWindow, ASavedSizeStaysWhereItFitsAndGoesWhereItDoesNot) {
  bool maximize = false;
  WindowGeometry saved;
  saved.saved = true;
  saved.x = 10, saved.y = 20, saved.width = 1200, saved.height = 700;
  WindowGeometry g = fit_window(saved, WorkArea{0, 0, 1280, 720}, &maximize);
  EXPECT_EQ(g.x, 10);
  EXPECT_EQ(g.width, 1200);
  EXPECT_FALSE(maximize);
  // Saved on a 1920x1080 desk, opened on the projector: the work area, not 1900 pixels.
  saved.width = 1900, saved.height = 1000;
  g = fit_window(saved, WorkArea{0, 0, 1280, 720}, &maximize);
  EXPECT_EQ(g.width, 1280);
  EXPECT_EQ(g.height, 720);
  EXPECT_TRUE(maximize);
  // A size that fits, at a place on a monitor that is gone: centred.
  saved.x = 3000, saved.y = 0, saved.width = 800, saved.height = 600;
  g = fit_window(saved, WorkArea{0, 0, 1280, 720}, &maximize);
  EXPECT_EQ(g.x, 240);
  EXPECT_EQ(g.y, 60);
  // No monitor known: as it was.
  g = fit_window(saved, WorkArea{}, &maximize);
  EXPECT_EQ(g.x, 3000);
}

// --- The columns -----------------------------------------------------------------------------------

TEST(WindowColumns, AtAProjectorScaleTheReplayKeepsMostOfTheWidth) {
  // Before issue 17 the side columns grew with the scale: at 1.5 the replay column was about 190 px.
  for (float font : {17.0f, 21.25f, 25.5f, 34.0f}) {
    for (float width : {1280.0f, 1366.0f, 1920.0f}) {
      const WindowColumns c = window_columns(width, font);
      EXPECT_NEAR(c.left + c.middle + c.right, width, 0.01f);
      EXPECT_GE(c.middle, 0.44f * width) << width << " px, font " << font;
      EXPECT_GE(c.left, 0.17f * width - 0.01f);
      EXPECT_GE(c.right, 0.26f * width - 0.01f);
    }
  }
  const WindowColumns c = window_columns(1280, 25.5f);
  EXPECT_NEAR(c.left, 301.7f, 0.1f);
  EXPECT_NEAR(c.middle, 576.0f, 0.1f);
}

// --- Which view carries the lesson -----------------------------------------------------------------

TEST(ViewsInOrder, TheMainViewFollowsWhatTheTraceHolds) {
  EXPECT_EQ(views_in_order(replay_of("reduce1", 256)).front(), View::Smem);
  EXPECT_EQ(views_in_order(replay_of("sum_shuffle", 128)).front(), View::Lanes);
  EXPECT_EQ(views_in_order(replay_of("sum_shared", 256)).front(), View::Atomics);
  EXPECT_EQ(views_in_order(replay_of("histo_private", 256)).front(), View::Atomics);
  EXPECT_EQ(views_in_order(replay_of("reduceInterleaved", 256)).front(), View::Global);
  // Every view appears once.
  auto order = views_in_order(replay_of("single_pass_last_block", 256));
  std::sort(order.begin(), order.end());
  EXPECT_EQ(order, (std::array<View, kNumViews>{View::Smem, View::Global, View::Lanes, View::Atomics}));
}

TEST(ViewActive, SharedAtomicsCountAsSharedMemory) {
  // sum_shared step 1: 8 shared atomicAdds and no shared load or store; the bank view used to say
  // "No shared-memory access in this step".
  const Replay r = replay_of("sum_shared", 256);
  const Step& st = r.step(1);
  EXPECT_TRUE(st.accesses.empty());
  EXPECT_FALSE(st.atomics.empty());
  EXPECT_TRUE(view_active(st, View::Smem)) << "its shared cell is written by the atomics";
  EXPECT_TRUE(view_active(st, View::Atomics));
  EXPECT_TRUE(view_has(r, View::Smem));
}

TEST(Wasteful, OneLanesStoreIsNotFlaggedAStridedLoadIs) {
  // single_pass_last_block step 3: thread 0 stores its block's partial, 4 bytes in 1 sector (12%).
  const Replay r = replay_of("single_pass_last_block", 256);
  int one_lane = 0;
  for (size_t gi : r.step(3).global_requests) {
    const GlobalRequest& q = r.global_requests()[gi];
    if (std::popcount(q.lanes) != 1) continue;
    ++one_lane;
    EXPECT_LT(q.efficiency(), 0.2);
    EXPECT_FALSE(wasteful(q)) << "one lane's store drawn as uncoalesced";
  }
  EXPECT_GT(one_lane, 0);
  // histo_sectioned: each lane reads its own section, a warp-wide load touches 32 sectors for 32 bytes.
  const Replay h = replay_of("histo_sectioned", 256);
  bool flagged = false;
  for (const GlobalRequest& q : h.global_requests()) flagged = flagged || wasteful(q);
  EXPECT_TRUE(flagged);
}

TEST(NcuReduxNote, OnlyWhereAWarpReduceResultIsStoredToSharedMemory) {
  // The modern kernels where Nsight Compute counted more store conflicts than the trace (issue 18) use
  // __reduce_add_sync on int32; the shuffle-based ones matched, and so get no note.
  EXPECT_TRUE(stores_warp_reduce_result(replay_of("reduce_add_sync", 1024)));
  EXPECT_TRUE(stores_warp_reduce_result(replay_of("vec4_loads", 1024)));
  EXPECT_TRUE(stores_warp_reduce_result(replay_of("single_pass_last_block", 512)));
  EXPECT_FALSE(stores_warp_reduce_result(replay_of("shuffle_block", 1024)));
  EXPECT_FALSE(stores_warp_reduce_result(replay_of("sum_shuffle", 128)));
  EXPECT_FALSE(stores_warp_reduce_result(replay_of("reduce6", 256)));
}

// --- Sharing a column ------------------------------------------------------------------------------

ViewAsk ask(View v, bool shown, float want, float least, bool grows = false) {
  ViewAsk a;
  a.view = v, a.shown = shown, a.want = want, a.least = least, a.grows = grows;
  return a;
}

TEST(FitViews, TheMainViewGetsItsWholeWantAndIdleViewsOneLine) {
  const float line = 30;
  // The atomics view of sum_shared used to show 2.5 of its rows: here it wants 400 of 560 pixels.
  const ColumnFit f = fit_views({ask(View::Atomics, true, 400, 200), ask(View::Smem, true, 150, 100, true),
                                 ask(View::Lanes, false, 0, 0), ask(View::Global, true, 120, 100)},
                                560, line);
  EXPECT_EQ(f.height[static_cast<int>(View::Atomics)], 400);
  EXPECT_EQ(f.idle_line, line);
  EXPECT_EQ(f.height[static_cast<int>(View::Lanes)], 0);
  // 560 - 30 - 400 = 130 left: the shared grid (its least 100) stays, global memory folds for room.
  EXPECT_EQ(f.folded, std::vector<View>{View::Global});
  EXPECT_EQ(f.height[static_cast<int>(View::Global)], 0);
  EXPECT_NEAR(f.height[static_cast<int>(View::Smem)], 130, 0.01f);
  float sum = f.idle_line;
  for (float h : f.height) sum += h;
  EXPECT_LE(sum, 560.01f);
}

TEST(FitViews, LeftOverHeightGrowsTheGridsOrIsReturned) {
  ColumnFit f = fit_views({ask(View::Smem, true, 200, 100, true), ask(View::Lanes, true, 100, 80)}, 600, 30);
  EXPECT_EQ(f.idle_line, 0);
  EXPECT_NEAR(f.height[static_cast<int>(View::Smem)], 500, 0.01f);
  EXPECT_EQ(f.height[static_cast<int>(View::Lanes)], 100);
  EXPECT_EQ(f.left, 0);
  f = fit_views({ask(View::Lanes, true, 200, 100)}, 600, 30);
  EXPECT_EQ(f.height[static_cast<int>(View::Lanes)], 200);
  EXPECT_EQ(f.left, 400);
}

TEST(FitViews, WhereNotEvenTheMainViewFitsItTakesEverything) {
  const ColumnFit f = fit_views({ask(View::Lanes, true, 900, 300), ask(View::Atomics, true, 300, 200)}, 250, 30);
  EXPECT_EQ(f.folded, std::vector<View>{View::Atomics});
  EXPECT_EQ(f.idle_line, 30);
  EXPECT_NEAR(f.height[static_cast<int>(View::Lanes)], 220, 0.01f);
}

TEST(IdleSummary, NamesTheIdleViewsAndWhereTheyHaveSomething) {
  const Replay r = replay_of("sum_shuffle", 128);
  const std::string s = idle_summary(r, r.step(3), {View::Smem, View::Atomics, View::Global});
  EXPECT_NE(s.find("Not in this step: shared (steps 0-2)"), std::string::npos) << s;
  EXPECT_NE(s.find("atomics (step 7)"), std::string::npos) << s;
  const Replay h = replay_of("reduce1", 256);
  EXPECT_EQ(idle_summary(h, h.step(5), {View::Lanes, View::Atomics}), "No shuffles, atomics");
  EXPECT_NE(idle_summary(r, r.step(3), {View::Smem}, {View::Global}).find("Folded for room: global"),
            std::string::npos);
  // The same words as the page composes from the exporter's parts (web_chromium's check_true_text: the same steps).
  auto idle = [](const Replay& x, size_t step) {
    std::vector<View> v;
    for (View k : views_in_order(x)) {
      if (!view_active(x.step(step), k)) v.push_back(k);
    }
    return v;
  };
  const Replay s4 = replay_of("sum_shuffle", 256);
  EXPECT_EQ(idle_summary(s4, s4.step(4), idle(s4, 4)),
            "Not in this step: atomics (step 8), shared (steps 0-3), global (step 0)");
  const Replay z = replay_of("reduce0", 256);
  EXPECT_EQ(idle_summary(z, z.step(1), idle(z, 1)), "No shuffles, atomics, global requests");
  const explain::IdleLine line = explain::idle_line(s4, s4.step(4), idle(s4, 4));
  EXPECT_EQ(line.busy.size(), 3u);
  EXPECT_TRUE(line.never.empty() && line.folded.empty() && !line.untraced);
}

// --- What the warps view draws ---------------------------------------------------------------------

TEST(WarpRows, ADivergedWarpNeverLooksFullyUseful) {
  // histo_private step 1: fully green rows were labelled "DIVERGED 84%". A diverged warp ran some
  // instructions with lanes masked off, so some lane is useful in part of the step only (drawn half
  // green), and the efficiency (mean useful lanes per instruction) is below 100%.
  int diverged = 0;
  for (const char* k : {"histo_private", "reduce1", "sum_shared", "single_pass_last_block"}) {
    const Replay r = replay_of(k, 256);
    for (const Step& st : r.steps()) {
      for (const WarpStep& ws : st.warps) {
        EXPECT_EQ(ws.every & ~ws.useful, 0u) << k;
        if (!ws.diverged || ws.useful == 0) continue;
        ++diverged;
        EXPECT_GT(ws.partial, 0) << k;
        EXPECT_LE(ws.partial, ws.instructions) << k;
        if (ws.efficiency < 0.995f && ws.useful == 0xffffffffu) {
          EXPECT_NE(ws.every, ws.useful) << k << " step " << st.epoch << ": a diverged warp drawn fully useful";
        }
      }
    }
  }
  EXPECT_GT(diverged, 0);
}

// --- The multigpu tab (issue 21) -------------------------------------------------------------------

TEST(MultiGpuSplit, SideBySideOnAProjectorAtScaleOneUnderTabsAtOneAndAHalf) {
  // 1280x720 at the default 17-pixel font: the ring needs 30 fonts, the figures table about 560 pixels.
  MultiGpuSplit f = multigpu_split(1264, 30 * 17.0f, 560, 17);
  EXPECT_TRUE(f.side_by_side);
  EXPECT_GE(f.bandwidth_w, 560) << "the figures table whole";
  EXPECT_GE(f.ring_w, 30 * 17.0f);
  EXPECT_FLOAT_EQ(f.ring_w + 17 + f.bandwidth_w, 1264);
  // A wide window: the bandwidth half gets 42%, the ring the rest.
  f = multigpu_split(2000, 510, 560, 17);
  EXPECT_FLOAT_EQ(f.bandwidth_w, 2000 * 0.42f);
  // Scale 1.5 (a 25.5-pixel font): both do not fit, so each gets the whole width under its own tab.
  f = multigpu_split(1264, 30 * 25.5f, 840, 25.5f);
  EXPECT_FALSE(f.side_by_side);
  EXPECT_EQ(f.ring_w, 1264);
  EXPECT_EQ(f.bandwidth_w, 1264);
}

TEST(RingRows, AsLargeAsTheRoomAllowsBetweenTheirLeastAndMost) {
  const float line = 17;
  float last = 0;
  for (float avail = 0; avail <= 1000; avail += 25) {
    const RingRows r = ring_rows(2, avail, line);
    EXPECT_GE(r.total(), last) << "more room never shrinks the lanes";
    last = r.total();
    EXPECT_GE(r.box_h, 1.3f * line - 0.01f);
    EXPECT_LE(r.box_h, 4.0f * line + 0.01f);
    if (avail >= ring_rows(2, 0, line).total()) {
      EXPECT_LE(r.total(), avail + 0.01f) << avail;
    }
  }
  EXPECT_FLOAT_EQ(ring_rows(2, 1e6f, line).box_h, 4 * line);
  // 2 GPUs draw the wrap in their one gap; more GPUs need an edge above the first lane and below the last.
  const RingRows two = ring_rows(2, 1e6f, line), four = ring_rows(4, 1e6f, line);
  EXPECT_FLOAT_EQ(two.total(), 2 * two.box_h + two.gap_h);
  EXPECT_FLOAT_EQ(four.total(), 4 * four.box_h + 3 * four.gap_h + 2 * four.edge_h);
}

// A traced ring of `gpus` (synthetic times): each step 100 us from 10 + 100 k, its copies 60 us, its adds
// 30 us after them.
RingRecording ring_of(uint32_t gpus, uint64_t bytes) {
  RingRecording r;
  r.gpus = gpus;
  r.bytes = bytes;
  for (const RingTransfer& t : ring_schedule(gpus)) {
    RingEvent e{t.step, t.phase, t.from, t.to, t.chunk, bytes / gpus};
    e.copy_start_us = 10 + 100.0 * t.step;
    e.copy_end_us = e.copy_start_us + 60;
    if (t.phase == RingPhase::ReduceScatter) {
      e.add_start_us = e.copy_end_us;
      e.add_end_us = e.add_start_us + 30;
    }
    r.events.push_back(e);
  }
  r.total_us = 100.0 * 2 * (gpus - 1);
  return r;
}

TEST(RingSentence, TrueForEachStepOfTwoGpus) {
  const RingRecording r = ring_of(2, uint64_t{256} << 20);
  const std::string start = ring_step_sentence(r, 0);
  EXPECT_NE(start.find("Before the ring: each of the 2 GPUs holds its own 256 MiB buffer, cut into 2 chunks of 128 MiB"),
            std::string::npos) << start;
  const std::string one = ring_step_sentence(r, 1);
  EXPECT_EQ(one, "Step 1 of 2 (reduce-scatter): GPU 0 sends chunk 0 to GPU 1, which adds it into its own chunk 0; GPU 1 "
                 "sends chunk 1 to GPU 0, which adds it into its own chunk 1. Now each GPU holds one chunk summed: GPU 0 "
                 "chunk 1, GPU 1 chunk 0. 90.0 \u00b5s measured.");
  // What it says is summed is what the schedule sums.
  EXPECT_EQ(summed_chunks(2, 0, 1), std::vector<uint32_t>{1});
  EXPECT_EQ(summed_chunks(2, 1, 1), std::vector<uint32_t>{0});
  const std::string two = ring_step_sentence(r, 2);
  EXPECT_EQ(two, "Step 2 of 2 (all-gather): GPU 0 sends its summed chunk 1 to GPU 1, which stores it; GPU 1 sends its "
                 "summed chunk 0 to GPU 0, which stores it. Now both GPUs hold the whole sum. 60.0 \u00b5s measured.");
  EXPECT_EQ(ring_step_sentence(r, 9), two) << "past the end: the last step";
  RingRecording untimed = r;
  untimed.events.clear();
  EXPECT_EQ(ring_step_sentence(untimed, 2).find("measured"), std::string::npos) << "no events: no time claimed";
}

TEST(RingSentence, NamesEachStepsPhaseAndHowMuchIsSummedForMoreGpus) {
  for (uint32_t g = 3; g <= 8; ++g) {
    const RingRecording r = ring_of(g, uint64_t{1} << 20);
    for (uint32_t shown = 1; shown <= 2 * (g - 1); ++shown) {
      const std::string s = ring_step_sentence(r, shown);
      const bool scatter = shown <= g - 1;
      EXPECT_EQ(s.rfind("Step " + std::to_string(shown) + " of " + std::to_string(2 * (g - 1)) + " (" +
                            (scatter ? "reduce-scatter" : "all-gather") + "): ", 0), 0u) << s;
      EXPECT_NE(s.find("(GPU " + std::to_string(g - 1) + " to GPU 0)"), std::string::npos) << "the wrap named: " << s;
      // The chunk GPU 1 receives holds shown + 1 GPUs' values in the reduce-scatter, as the sentence says.
      const RingTransfer first = ring_schedule(g)[(shown - 1) * g];
      const int held = std::popcount(ring_contributions(g, shown)[first.to][first.chunk]);
      if (scatter && shown < g - 1) {
        EXPECT_NE(s.find("now holds " + std::to_string(held) + " of " + std::to_string(g)), std::string::npos) << s;
      }
      if (shown == 2 * (g - 1)) {
        EXPECT_NE(s.find("Now every GPU holds the whole sum"), std::string::npos) << s;
      }
    }
  }
}

TEST(RingSentence, DurationsInMicrosecondsThenMilliseconds) {
  EXPECT_EQ(duration_text(454), "454.0 \u00b5s");
  EXPECT_EQ(duration_text(999.94), "999.9 \u00b5s");
  EXPECT_EQ(duration_text(1250), "1.25 ms");
}

}  // namespace
}  // namespace rs::gui
