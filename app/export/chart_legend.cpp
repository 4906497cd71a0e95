// The words around a chart's plot: the legend (a line sample and marker per kernel, the wrong-sum mark,
// in centred rows that fit the page), the title and wrapped caption at the top, and the reference
// lines (CUB, the theoretical peak, the copy ceiling) with their labels right of the plot, pushed apart
// where they would overlap.
#include "chart_draw.hpp"

#include <numeric>

namespace rs::chart {

constexpr double kLegendSample = 30, kLegendPad = 6, kLegendSpacing = 18;

std::vector<LegendEntry> legend_entries(const ChartSpec& c) {
  std::vector<LegendEntry> out;
  bool any_wrong = false;
  for (const Line& l : c.lines) {
    out.push_back({l.kernel, l.style, false, l.reference, l.marked});
    for (const Point& p : l.points) any_wrong |= p.wrong;
  }
  if (any_wrong) out.push_back({"wrong sum (differs from the CPU reference)", 0, true});
  return out;
}

namespace {

double legend_entry_width(cairo_t* cr, const LegendEntry& e) {
  return kLegendSample + kLegendPad + text_width(cr, e.text);
}

}  // namespace

// Splits the entries into rows no wider than `max_w`.
std::vector<std::vector<LegendEntry>> legend_rows(cairo_t* cr, const std::vector<LegendEntry>& entries,
                                                  double max_w) {
  set_font(cr, kLegendSize);
  std::vector<std::vector<LegendEntry>> rows;
  double w = 0;
  for (const LegendEntry& e : entries) {
    const double ew = legend_entry_width(cr, e);
    if (rows.empty() || w + kLegendSpacing + ew > max_w) {
      rows.emplace_back();
      w = -kLegendSpacing;
    }
    rows.back().push_back(e);
    w += kLegendSpacing + ew;
  }
  return rows;
}

// Rows centred on `cx`, the first row's centre line at `y`.
void draw_legend(cairo_t* cr, const std::vector<std::vector<LegendEntry>>& rows, double cx, double y) {
  const double row_h = kLegendSize * kLeading + 4;
  for (const auto& row : rows) {
    set_font(cr, kLegendSize);
    double w = -kLegendSpacing;
    for (const LegendEntry& e : row) w += kLegendSpacing + legend_entry_width(cr, e);
    double x = cx - w / 2;
    for (const LegendEntry& e : row) {
      const double mid = x + kLegendSample / 2;
      if (e.wrong_mark) {
        draw_wrong_mark(cr, mid, y);
      } else {
        const Style st = line_style(e.style, e.reference);
        cairo_new_path(cr);
        line_path(cr, x, y, x + kLegendSample, y);
        stroke_kernel_line(cr, st);
        if (e.marked) draw_marker(cr, st.marker, mid, y, st.colour);
      }
      set_font(cr, kLegendSize);
      set_colour(cr, kInk);
      draw_text_centred(cr, x + kLegendSample + kLegendPad, y, e.text, Align::Left);
      x += legend_entry_width(cr, e) + kLegendSpacing;
    }
    y += row_h;
  }
}

// Title and caption from the top of the page; returns the y below them.
double draw_header(cairo_t* cr, const ChartSpec& c, double w) {
  double y = kMargin;
  set_font(cr, kTitleSize, true);
  set_colour(cr, kInk);
  y += ascent(cr);
  draw_text(cr, kMargin, y, c.title);
  y += kTitleSize * 0.45;
  set_font(cr, kCaptionSize);
  set_colour(cr, kGreyText);
  for (const std::string& para : c.caption)
    for (const std::string& line : wrap(cr, para, w - 2 * kMargin)) {
      y += kCaptionSize * kLeading;
      draw_text(cr, kMargin, y, line);
    }
  return y + kCaptionSize * 0.4;
}

// Width of the reference lines' labels (name over value), right of the plot.
double ref_label_width(cairo_t* cr, const std::vector<RefLine>& refs) {
  set_font(cr, kRefSize);
  double w = 0;
  for (const RefLine& r : refs) w = std::max({w, text_width(cr, r.name), text_width(cr, r.value)});
  return w;
}

namespace {

// Label heights for the reference lines: each at its line, pushed apart where two would
// overlap (at least `gap` between centres), and kept within [lo, hi].
std::vector<double> spread_labels(const std::vector<double>& ys, double gap, double lo, double hi) {
  std::vector<size_t> order(ys.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ys[a] < ys[b]; });
  std::vector<double> out = ys;
  double prev = lo - gap;
  for (size_t i : order) prev = out[i] = std::max(out[i], prev + gap);
  double next = hi + gap;
  for (auto it = order.rbegin(); it != order.rend(); ++it) next = out[*it] = std::min(out[*it], next - gap);
  return out;
}

}  // namespace

void draw_refs(cairo_t* cr, const Frame& f, const std::vector<RefLine>& refs) {
  set_font(cr, kRefSize);
  const double lh = kRefSize * kLeading;
  std::vector<double> ys;
  for (const RefLine& r : refs) ys.push_back(f.py(r.y));
  const std::vector<double> label_ys = spread_labels(ys, 2 * lh + 3, f.y0 + lh, f.y1 - lh);
  for (size_t i = 0; i < refs.size(); ++i) {
    cairo_new_path(cr);
    set_dash(cr, kRefDashes[i % std::size(kRefDashes)]);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    line_path(cr, f.x0, ys[i], f.x1, ys[i]);
    stroke_with_halo(cr, kRef, 1.3, 1.2);
    cairo_new_path(cr);
    set_dash(cr, {});
    line_path(cr, f.x1, ys[i], f.x1 + 5, label_ys[i]);  // leader to a label moved off its line
    set_colour(cr, kRef);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    set_font(cr, kRefSize, true);
    set_colour(cr, kAxis);
    draw_text(cr, f.x1 + 8, label_ys[i] - 2, refs[i].name);
    set_font(cr, kRefSize);
    draw_text(cr, f.x1 + 8, label_ys[i] - 2 + lh, refs[i].value);
  }
}

}  // namespace rs::chart
