// The value axis and the x labels: 1-2-5 steps, a zero-based linear axis or a logarithmic one (1-2-5
// ticks a decade), the top a chart needs for what sits above its bars and points, the y axis with its
// grid, ticks and rotated title, and x labels shrunk to fit between their neighbours.
#include "chart_draw.hpp"

#include <numbers>

namespace rs::chart {

namespace {

// The smallest step of the form {1, 2, 5} x 10^k at or above `raw`.
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

}  // namespace

// A log axis over [lo_need, hi_need]: from the 1-2-5 value at or below the first to the one at or
// above the second (a whole decade at least).
YAxis log_axis(double lo_need, double hi_need) {
  if (!(lo_need > 0) || !std::isfinite(lo_need)) lo_need = 1;
  if (!(hi_need >= lo_need) || !std::isfinite(hi_need)) hi_need = lo_need;
  YAxis a;
  a.log = true;
  const double p_lo = std::pow(10.0, std::floor(std::log10(lo_need)));
  a.lo = p_lo;
  for (double m : {5.0, 2.0, 1.0})
    if (m * p_lo <= lo_need * (1 + 1e-9)) {
      a.lo = m * p_lo;
      break;
    }
  a.top = nice_step(hi_need);
  if (a.top < a.lo * 10) a.top = std::max(a.top, nice_step(a.lo * 10));
  return a;
}

YAxis zero_based_axis(double need) {
  if (!(need > 0) || !std::isfinite(need)) need = 1;
  YAxis a;
  a.step = nice_step(need / 6);
  a.top = std::ceil(need / a.step - 1e-9) * a.step;
  a.decimals = std::max(0, -static_cast<int>(std::floor(std::log10(a.step) + 1e-9)));
  return a;
}

// Highest value the chart draws, in data units, with room above for what sits on top of it:
// an item at v with `above` points over it fits under the axis top T when
// (T - v) / T x plot_h >= above, i.e. T >= v / (1 - above / plot_h).
double needed_top(const ChartSpec& c, double plot_h) {
  double need = 0;
  const auto fit = [&](double v, double above) { need = std::max(need, v / std::max(0.2, 1 - above / plot_h)); };
  for (const Bar& b : c.bars) {
    const double top = std::isnan(b.whisker_hi) ? b.value : std::max(b.value, b.whisker_hi);
    fit(top, b.value_lines.size() * kValueSize * kLeading + 4);
  }
  for (const Line& l : c.lines)
    for (const Point& p : l.points) fit(p.y, kMarkerR + 6);
  for (const RefLine& r : c.refs) fit(r.y, 4);
  return need;
}

double tick_label_width(cairo_t* cr, const YAxis& a) {
  set_font(cr, kTickSize);
  double w = 0;
  for (double v : a.ticks()) w = std::max(w, text_width(cr, a.label(v)));
  return w;
}

void draw_y_axis(cairo_t* cr, const Frame& f, const std::string& title) {
  set_dash(cr, {});
  set_font(cr, kTickSize);
  for (double v : f.y.ticks()) {
    grid_line(cr, f.x0, f.py(v), f.x1, f.py(v));
    set_colour(cr, kInk);
    draw_text_centred(cr, f.x0 - 6, f.py(v), f.y.label(v), Align::Right);
  }
  cairo_new_path(cr);
  line_path(cr, f.x0, f.y1, f.x1, f.y1);
  line_path(cr, f.x0, f.y0, f.x0, f.y1);
  set_colour(cr, kAxis);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);

  set_font(cr, kAxisTitleSize);
  cairo_save(cr);
  cairo_translate(cr, kMargin + ascent(cr), (f.y0 + f.y1) / 2);
  cairo_rotate(cr, -std::numbers::pi / 2);
  draw_text(cr, 0, 0, title, Align::Center);
  cairo_restore(cr);
}

// The font size, at most `size`, at which each of `texts` fits in `max_w`; but no smaller than
// 6 pt, where legibility matters more than fitting.
double fitting_size(cairo_t* cr, double size, const std::vector<std::string>& texts, double max_w) {
  set_font(cr, size, true);  // measured bold, the wider weight, so either fits
  double widest = 0;
  for (const std::string& t : texts) widest = std::max(widest, text_width(cr, t));
  return widest > max_w ? std::max(6.0, size * max_w / widest) : size;
}

// Labels under the x axis: one column of lines per x position (ascending), shrunk to fit
// between their neighbours.
void draw_x_labels(cairo_t* cr, const Frame& f, const std::vector<std::pair<double, std::vector<std::string>>>& cols) {
  double spacing = f.x1 - f.x0;
  std::vector<std::string> all;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i > 0) spacing = std::min(spacing, cols[i].first - cols[i - 1].first);
    all.insert(all.end(), cols[i].second.begin(), cols[i].second.end());
  }
  const double size = fitting_size(cr, kTickSize, all, spacing - 6);
  set_colour(cr, kInk);
  for (const auto& [x, lines] : cols)
    for (size_t i = 0; i < lines.size(); ++i) {
      set_font(cr, size, i > 0);  // a second line is a warning ("wrong sum"): bold
      draw_text(cr, x, f.y1 + 6 + ascent(cr) + i * kTickSize * kLeading, lines[i], Align::Center);
    }
}

}  // namespace rs::chart
