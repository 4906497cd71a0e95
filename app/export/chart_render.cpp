// The renderer: one ChartSpec onto one cairo context. Bars (with min-max whiskers, values above and
// hatching where the sum was wrong) or lines on a log2 x axis or a linear one from 0 (markers drawn after every line), and
// draw_chart(), which lays out the page from the top (title, caption) and the bottom (legend, x title,
// tick labels) and draws the axis, the data and the reference lines in between.
#include "chart_draw.hpp"

namespace rs::chart {

void draw_bars(cairo_t* cr, const Frame& f, const std::vector<Bar>& bars) {
  const double slot = (f.x1 - f.x0) / bars.size();
  const double bw = std::min(slot * 0.62, 72.0);
  std::vector<std::string> values;
  for (const Bar& b : bars) values.insert(values.end(), b.value_lines.begin(), b.value_lines.end());
  const double value_size = fitting_size(cr, kValueSize, values, slot - 4);
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double cx = f.x0 + (i + 0.5) * slot, top = f.py(b.value);
    cairo_new_path(cr);
    cairo_rectangle(cr, cx - bw / 2, top, bw, f.y1 - top);
    const Rgb fill = style_of(b.style).colour;
    set_colour(cr, fill);
    cairo_fill(cr);
    if (b.wrong) draw_hatch(cr, cx - bw / 2, top, cx + bw / 2, f.y1, fill);
    double label_y = top;
    if (!std::isnan(b.whisker_lo)) {
      const double lo = f.py(b.whisker_lo), hi = f.py(b.whisker_hi), cap = bw * 0.16;
      cairo_new_path(cr);
      set_dash(cr, {});
      line_path(cr, cx, lo, cx, hi);
      line_path(cr, cx - cap, lo, cx + cap, lo);
      line_path(cr, cx - cap, hi, cx + cap, hi);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
      stroke_with_halo(cr, kInk, 1.2);
      label_y = std::min(label_y, hi);
    }
    set_font(cr, value_size);
    set_colour(cr, kInk);
    const double lh = value_size * kLeading;
    // The last line's baseline 5 pt above the bar or whisker, the others stacked over it.
    for (size_t j = 0; j < b.value_lines.size(); ++j)
      draw_text(cr, cx, label_y - 5 - (b.value_lines.size() - 1 - j) * lh, b.value_lines[j], Align::Center);
  }
  std::vector<std::pair<double, std::vector<std::string>>> cols;
  for (size_t i = 0; i < bars.size(); ++i) {
    std::vector<std::string> lines = {bars[i].kernel};
    if (bars[i].wrong) lines.push_back("wrong sum");
    cols.push_back({f.x0 + (i + 0.5) * slot, lines});
  }
  draw_x_labels(cr, f, cols);
}

void draw_lines(cairo_t* cr, const Frame& f, const ChartSpec& c) {
  std::vector<std::pair<double, std::vector<std::string>>> cols;
  if (f.x_linear) {
    for (double x : f.xa.ticks()) {
      grid_line(cr, f.px(x), f.y0, f.px(x), f.y1);
      cols.push_back({f.px(x), {f.xa.label(x)}});
    }
  }
  for (size_t i = 0; i < c.x_ticks.size() && !f.x_linear; ++i) {
    const uint64_t x = c.x_ticks[i];
    grid_line(cr, f.px_log2(x), f.y0, f.px_log2(x), f.y1);
    cols.push_back({f.px_log2(x), {i < c.x_tick_labels.size() ? c.x_tick_labels[i] : std::to_string(x)}});
  }
  draw_x_labels(cr, f, cols);
  for (const Line& l : c.lines) {
    cairo_new_path(cr);
    for (const Point& p : l.points) cairo_line_to(cr, f.px(p.x), f.py(p.y));
    stroke_kernel_line(cr, line_style(l.style, l.reference));
  }
  // Markers after all lines, so no line crosses a marker.
  for (const Line& l : c.lines)
    for (const Point& p : l.points) {
      if (!l.marked) continue;
      const Style st = line_style(l.style, l.reference);
      draw_marker(cr, st.marker, f.px(p.x), f.py(p.y), st.colour);
      if (p.wrong) draw_wrong_mark(cr, f.px(p.x), f.py(p.y));
    }
}

// The whole chart on a w x h page (points), white background.
void draw_chart(cairo_t* cr, double w, double h, const ChartSpec& c) {
  set_colour(cr, kWhite);
  cairo_paint(cr);

  Frame f;
  f.y0 = draw_header(cr, c, w) + kGap + 6;

  // From the bottom up: legend rows, the x axis title, the tick labels (two lines when a bar
  // carries "wrong sum").
  const auto rows = legend_rows(cr, legend_entries(c), w - 2 * kMargin);
  const double row_h = kLegendSize * kLeading + 4;
  const bool two_line_ticks = std::any_of(c.bars.begin(), c.bars.end(), [](const Bar& b) { return b.wrong; });
  double bottom = h - kMargin;
  const double legend_y = bottom - rows.size() * row_h + row_h / 2;
  if (!rows.empty()) bottom -= rows.size() * row_h + 4;
  const double x_title_y = bottom - 3;
  bottom -= kAxisTitleSize * kLeading + 4;
  f.y1 = bottom - 6 - (two_line_ticks ? 2 : 1) * kTickSize * kLeading;

  if (c.log_y) {
    // Room for a marker above the highest point and below the lowest: 6% of a decade each way.
    double lo = INFINITY, hi = 0;
    for (const Line& l : c.lines)
      for (const Point& p : l.points)
        if (p.y > 0) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
    for (const RefLine& r : c.refs)
      if (r.y > 0) lo = std::min(lo, r.y), hi = std::max(hi, r.y);
    f.y = log_axis(lo / 1.15, hi * 1.15);
  } else {
    f.y = zero_based_axis(needed_top(c, f.y1 - f.y0));
  }
  f.x0 = kMargin + kAxisTitleSize * kLeading + kGap + tick_label_width(cr, f.y) + 6;
  f.x1 = w - kMargin - (c.refs.empty() ? 12 : ref_label_width(cr, c.refs) + 10);
  if (c.linear_x) {
    // From 0 to a nice value 8% beyond the farthest point, so that its marker clears the frame.
    double hi = 0;
    for (const Line& l : c.lines)
      for (const Point& p : l.points) hi = std::max(hi, p.x);
    f.x_linear = true;
    f.xa = zero_based_axis(hi * 1.08);
  } else if (!c.x_ticks.empty()) {
    // 0.4 of a doubling of padding either side, so the first and last markers clear the frame.
    f.x_lo = std::log2(c.x_ticks.front()) - 0.4;
    f.x_hi = std::log2(c.x_ticks.back()) + 0.4;
  }

  draw_y_axis(cr, f, c.y_title);
  if (!c.bars.empty()) draw_bars(cr, f, c.bars);
  else draw_lines(cr, f, c);
  draw_refs(cr, f, c.refs);

  set_font(cr, kAxisTitleSize);
  set_colour(cr, kInk);
  draw_text(cr, (f.x0 + f.x1) / 2, x_title_y, c.x_title, Align::Center);
  draw_legend(cr, rows, w / 2, legend_y);
}

}  // namespace rs::chart
