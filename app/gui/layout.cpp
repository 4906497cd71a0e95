#include "layout.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace rs::gui {

namespace {

using i18n::strf;

// to_string(StepEnd)'s words (tracing/replay.cpp), marked here for step_end_name's translation; the CUDA names
// (__syncthreads(), __syncwarp()) stay as they are.
[[maybe_unused]] constexpr const char* kStepEndWords[] = {N_("end of kernel"), N_("a warp shuffle"),
                                                          N_("a warp reduce")};

}  // namespace

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

std::string step_end_name(const Step& st, const std::string& source) {
  if (std::string call = explain::barrier_call(st, source); !call.empty()) return call;
  return _(to_string(st.ended_by));
}

std::string idle_summary(const Replay& r, const Step& st, const std::vector<View>& idle,
                         const std::vector<View>& folded, bool shared_not_traced) {
  return explain::render_idle(explain::idle_line(r, st, idle, folded, shared_not_traced),
                              [](const char* id) { return i18n::tr(id); });
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
  if (shown == 0) {
    return strf(_("Before the ring: each of the %u GPUs holds its own %s buffer, cut into %u chunks of %s; nothing "
                    "is summed yet. The %u steps took %s in all (measured)."),
                  g, bytes_label(r.bytes).c_str(), g, bytes_label(r.bytes / g).c_str(), steps,
                  duration_text(r.total_us).c_str());
  }
  const uint32_t step = std::min(shown, steps) - 1;
  const bool scatter = step < g - 1;
  // The phase's name is NCCL's (reduce-scatter, all-gather): not translated.
  std::string out = strf(_("Step %u of %u (%s): "), step + 1, steps,
                           to_string(scatter ? RingPhase::ReduceScatter : RingPhase::AllGather));
  std::vector<std::string> moves;
  for (const RingTransfer& t : ring_schedule(g)) {
    if (t.step != step) continue;
    moves.push_back(scatter ? strf(_("GPU %u sends chunk %u to GPU %u, which adds it into its own chunk %u"), t.from,
                                     t.chunk, t.to, t.chunk)
                            : strf(_("GPU %u sends its summed chunk %u to GPU %u, which stores it"), t.from, t.chunk,
                                     t.to));
  }
  if (g == 2) {
    out += strf(_("%s; %s. "), moves[0].c_str(), moves[1].c_str());
  } else {
    out += strf(_("%s, and so on round the ring: every GPU sends one chunk to its right neighbour "
                    "(GPU %u to GPU 0). "),
                  moves[0].c_str(), g - 1);
  }
  const uint32_t within = scatter ? step : step - (g - 1);  // 0-based step within the phase
  if (scatter && within + 2 < g) {
    out += strf(_("Each chunk received now holds %u of %u GPUs' values. "), within + 2, g);
  } else if (scatter) {
    std::string held;  // "GPU 0 chunk 1, GPU 1 chunk 2"
    for (uint32_t k = 0; k < g && k < 4; ++k) {
      held += strf(k ? _(", GPU %u chunk %u") : _("GPU %u chunk %u"), k, (k + 1) % g);
    }
    out += strf(g > 4 ? _("Now each GPU holds one chunk summed: %s, and so on (GPU g: chunk g + 1). ")
                        : _("Now each GPU holds one chunk summed: %s. "),
                  held.c_str());
  } else if (within + 2 < g) {
    out += strf(_("Each GPU now holds %u of %u chunks summed. "), within + 2, g);
  } else {
    out += g == 2 ? _("Now both GPUs hold the whole sum. ") : _("Now every GPU holds the whole sum. ");
  }
  const RingSpan span = ring_step_span(r, step);
  if (span.end_us > span.start_us) out += strf(_("%s measured."), duration_text(span.end_us - span.start_us).c_str());
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace rs::gui
