#include "layout.hpp"

#include <algorithm>
#include <cstdio>

namespace rs::gui {

const char* view_name(View v) {
  switch (v) {
    case View::Smem: return "shared memory";
    case View::Global: return "global memory";
    case View::Lanes: return "lanes";
    case View::Atomics: return "atomics";
  }
  return "?";
}

bool view_has(const Replay& r, View v) {
  switch (v) {
    case View::Smem: return r.has_shared() || std::any_of(r.atomics().begin(), r.atomics().end(), [](const WarpAtomic& a) {
                              return a.kind == AccessKind::SharedAtomic;
                            });
    case View::Global: return r.has_global();
    case View::Lanes: return r.has_lane_work();
    case View::Atomics: return r.has_atomics();
  }
  return false;
}

bool view_active(const Step& st, View v) {
  switch (v) {
    case View::Smem:
      return !st.accesses.empty() || std::find(st.written.begin(), st.written.end(), 1) != st.written.end() ||
             std::find(st.read.begin(), st.read.end(), 1) != st.read.end();
    case View::Global: return !st.global_requests.empty();
    case View::Lanes: return !st.shuffles.empty();
    case View::Atomics: return !st.atomics.empty();
  }
  return false;
}

std::array<View, kNumViews> views_in_order(const Replay& r) {
  // The most specific kind of event first: a kernel's shuffles or atomics are its point where it has
  // them; a global slice it reduces in place comes before shared memory; global requests of a kernel
  // that only loads its input come last. Views the kernel has before those it has not.
  std::array<View, kNumViews> order = r.has_global_slice()
                                          ? std::array<View, kNumViews>{View::Lanes, View::Atomics, View::Global, View::Smem}
                                          : std::array<View, kNumViews>{View::Lanes, View::Atomics, View::Smem, View::Global};
  std::stable_partition(order.begin(), order.end(), [&](View v) { return view_has(r, v); });
  return order;
}

ColumnFit fit_views(const std::vector<ViewAsk>& asks, float avail, float idle_h, bool idle_anyway) {
  ColumnFit f;
  bool any_idle = idle_anyway;
  for (const ViewAsk& a : asks) any_idle = any_idle || !a.shown;
  if (any_idle) {
    f.idle_line = std::min(idle_h, avail);
    avail -= f.idle_line;
  }
  avail = std::max(avail, 0.0f);
  std::vector<const ViewAsk*> shown;
  for (const ViewAsk& a : asks) {
    if (a.shown) shown.push_back(&a);
  }
  // The first shown view carries the step's lesson: where it cannot have its want beside the others'
  // leasts, the last of the others fold into the idle line ("folded for room"), one by one.
  auto least = [](const ViewAsk* a) { return std::min(a->least, a->want); };
  while (shown.size() > 1) {
    float others = 0;
    for (size_t i = 1; i < shown.size(); ++i) others += least(shown[i]);
    if (shown.front()->want + others <= avail) break;
    f.folded.push_back(shown.back()->view);
    shown.pop_back();
    if (f.idle_line == 0) {
      f.idle_line = std::min(idle_h, avail);
      avail = std::max(avail - f.idle_line, 0.0f);
    }
  }
  auto h = [&](const ViewAsk* a) -> float& { return f.height[static_cast<int>(a->view)]; };
  float leasts = 0;
  for (const ViewAsk* a : shown) leasts += least(a);
  if (leasts >= avail) {  // not even the leasts: the same share of each
    for (const ViewAsk* a : shown) h(a) = leasts > 0 ? least(a) * avail / leasts : 0;
    return f;
  }
  float left = avail - leasts;
  for (const ViewAsk* a : shown) h(a) = least(a);
  for (const ViewAsk* a : shown) {
    const float more = std::min(left, a->want - h(a));
    h(a) += more;
    left -= more;
  }
  float grow_want = 0;
  for (const ViewAsk* a : shown) grow_want += a->grows ? a->want : 0;
  if (grow_want > 0) {
    for (const ViewAsk* a : shown) {
      if (a->grows) h(a) += left * a->want / grow_want;
    }
    left = 0;
  }
  f.left = left;
  return f;
}

WindowColumns window_columns(float width, float font_px) {
  WindowColumns c;
  c.left = std::clamp(15.0f * font_px, 0.17f * width, 0.24f * width);
  c.right = std::clamp(22.0f * font_px, 0.26f * width, 0.32f * width);
  c.middle = width - c.left - c.right;
  if (c.middle < 0.45f * width) {  // never: the clamps above leave at least 44%; kept for odd fonts
    const float k = 0.55f * width / (c.left + c.right);
    c.left *= k;
    c.right *= k;
    c.middle = width - c.left - c.right;
  }
  return c;
}

bool stores_warp_reduce_result(const Replay& r) {
  for (const WarpShuffle& sh : r.shuffles()) {
    if (sh.kind != AccessKind::WarpReduce) continue;
    for (const WarpAccess& a : r.accesses()) {
      if (a.kind != AccessKind::Store || a.warp != sh.warp || a.epoch <= sh.epoch) continue;
      for (int l = 0; l < kWarpSize; ++l) {
        if ((a.lanes >> l & 1u) && (sh.lanes >> l & 1u) && static_cast<uint32_t>(a.value[l]) == sh.received[l]) {
          return true;
        }
      }
    }
  }
  return false;
}

std::string step_end_name(const Step& st, const std::string& source) {
  if (st.ended_by == StepEnd::BlockBarrier && st.barrier_line) {
    const std::string line = source_line(source, st.barrier_line);
    for (const char* v : {"__syncthreads_or", "__syncthreads_and", "__syncthreads_count"}) {
      if (line.find(v) != std::string::npos) return std::string(v) + "()";
    }
  }
  return to_string(st.ended_by);
}

int shared_atomic_count(const Replay& r, const Step& st) {
  int n = 0;
  for (size_t ai : st.atomics) n += r.atomics()[ai].kind == AccessKind::SharedAtomic;
  return n;
}

std::string bank_idle_sentence(const Replay& r, const Step& st) {
  const int shared_atomics = shared_atomic_count(r, st);
  if (shared_atomics > 0) {
    return "No shared load or store in this step; " + std::to_string(shared_atomics) + " warp-level shared atomic" +
           (shared_atomics == 1 ? "" : "s") + " (see Atomics).";
  }
  return st.global_requests.empty() ? "No shared-memory access or global request in this step."
                                    : "No shared load or store in this step.";
}

std::string idle_summary(const Replay& r, const Step& st, const std::vector<View>& idle,
                         const std::vector<View>& folded) {
  std::string busy, never, room;
  for (View v : folded) {
    room += room.empty() ? "" : ", ";
    room += v == View::Smem ? "shared" : v == View::Global ? "global" : view_name(v);
  }
  for (View v : idle) {
    if (view_active(st, v)) continue;
    if (!view_has(r, v)) {
      never += never.empty() ? "" : ", ";
      never += v == View::Smem      ? "shared memory"
               : v == View::Global  ? "global requests"
               : v == View::Lanes   ? "shuffles"
                                    : "atomics";
      continue;
    }
    const std::string where = step_ranges(r, [v](const Step& x) { return view_active(x, v); });
    busy += busy.empty() ? "" : ", ";
    busy += std::string(v == View::Smem ? "shared" : v == View::Global ? "global" : view_name(v)) + " (step" +
            (where.find_first_of(",-") == std::string::npos ? " " : "s ") + where + ")";
  }
  std::string out;
  if (!room.empty()) out = "Folded for room: " + room;
  if (!busy.empty()) out += (out.empty() ? "" : ". ") + std::string("Not in this step: ") + busy;
  if (!never.empty()) out += (out.empty() ? "No " : "; no ") + never;
  return out;
}

MultiGpuSplit multigpu_split(float width, float ring_least, float table_w, float gap) {
  if (ring_least + gap + table_w > width) return {false, width, width};
  const float bandwidth = std::clamp(width * 0.42f, table_w, width - gap - ring_least);
  return {true, width - gap - bandwidth, bandwidth};
}

float RingRows::total() const {
  const float g = static_cast<float>(gpus);
  return g * box_h + (g - 1) * gap_h + (gpus > 2 ? 2 * edge_h : 0);
}

RingRows ring_rows(uint32_t gpus, float avail, float line_h) {
  auto at = [&](float f) {
    auto mix = [f, line_h](float lo, float hi) { return (lo + (hi - lo) * f) * line_h; };
    return RingRows{mix(1.3f, 4.0f), mix(1.4f, 2.6f), mix(1.2f, 1.6f), gpus};
  };
  const float least = at(0).total(), most = at(1).total();
  return at(most > least ? std::clamp((avail - least) / (most - least), 0.0f, 1.0f) : 0.0f);
}

std::string duration_text(double us) {
  char b[32];
  if (us < 1000) std::snprintf(b, sizeof b, "%.1f \u00b5s", us);
  else std::snprintf(b, sizeof b, "%.2f ms", us * 1e-3);
  return b;
}

std::string ring_step_sentence(const RingRecording& r, uint32_t shown) {
  const uint32_t g = r.gpus, steps = 2 * (g - 1);
  const std::string gs = std::to_string(g);
  if (shown == 0) {
    return "Before the ring: each of the " + gs + " GPUs holds its own " + bytes_label(r.bytes) + " buffer, cut into " +
           gs + " chunks of " + bytes_label(r.bytes / g) + "; nothing is summed yet. The " + std::to_string(steps) +
           " steps took " + duration_text(r.total_us) + " in all (measured).";
  }
  const uint32_t step = std::min(shown, steps) - 1;
  const bool scatter = step < g - 1;
  std::string out = "Step " + std::to_string(step + 1) + " of " + std::to_string(steps) + " (" +
                    to_string(scatter ? RingPhase::ReduceScatter : RingPhase::AllGather) + "): ";
  std::vector<std::string> moves;
  for (const RingTransfer& t : ring_schedule(g)) {
    if (t.step != step) continue;
    const std::string from = "GPU " + std::to_string(t.from), to = "GPU " + std::to_string(t.to);
    const std::string chunk = std::to_string(t.chunk);
    moves.push_back(scatter ? from + " sends chunk " + chunk + " to " + to + ", which adds it into its own chunk " + chunk
                            : from + " sends its summed chunk " + chunk + " to " + to + ", which stores it");
  }
  if (g == 2) out += moves[0] + "; " + moves[1] + ". ";
  else out += moves[0] + ", and so on round the ring: every GPU sends one chunk to its right neighbour (GPU " +
              std::to_string(g - 1) + " to GPU 0). ";
  const uint32_t within = scatter ? step : step - (g - 1);  // 0-based step within the phase
  if (scatter && within + 2 < g) {
    out += "Each chunk received now holds " + std::to_string(within + 2) + " of " + gs + " GPUs' values. ";
  } else if (scatter) {
    out += "Now each GPU holds one chunk summed: ";
    for (uint32_t k = 0; k < g && k < 4; ++k) {
      out += (k ? ", GPU " : "GPU ") + std::to_string(k) + " chunk " + std::to_string((k + 1) % g);
    }
    out += g > 4 ? ", and so on (GPU g: chunk g + 1). " : ". ";
  } else if (within + 2 < g) {
    out += "Each GPU now holds " + std::to_string(within + 2) + " of " + gs + " chunks summed. ";
  } else {
    out += g == 2 ? "Now both GPUs hold the whole sum. " : "Now every GPU holds the whole sum. ";
  }
  const RingSpan span = ring_step_span(r, step);
  if (span.end_us > span.start_us) out += duration_text(span.end_us - span.start_us) + " measured.";
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace rs::gui
