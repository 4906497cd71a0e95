// How a chart is drawn with cairo, shared by the drawing files: the styles (Okabe-Ito colours, marker
// shapes, dash patterns per kernel), the sizes, and the parts of a chart: text and marks
// (chart_marks.cpp), the value axis and the x labels (chart_axes.cpp), the legend, title, caption and
// reference-line labels (chart_legend.cpp), and the bars, lines and whole page (chart_render.cpp).
// Internal to app/export.
#pragma once

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "chart_spec.hpp"

namespace rs::chart {

// ---- Styles -----------------------------------------------------------------------------

struct Rgb {
  double r, g, b;
};
constexpr Rgb rgb(uint32_t hex) {
  return {((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0};
}
constexpr Rgb kWhite = rgb(0xFFFFFF), kInk = rgb(0x000000), kGreyText = rgb(0x444444), kGrid = rgb(0xDDDDDD),
              kAxis = rgb(0x333333), kRef = rgb(0x555555);

// Okabe & Ito, "Color Universal Design" (2008): distinct under the common colour-vision
// deficiencies. Yellow goes last: it is the hardest to see on white, so only an 8th kernel gets it.
constexpr uint32_t kPalette[] = {0xE69F00, 0x56B4E9, 0x009E73, 0x0072B2, 0xD55E00, 0xCC79A7, 0x000000, 0xF0E442};

enum class Marker { Circle, Square, TriangleUp, Diamond, TriangleDown, Plus, Cross };
constexpr int kNumMarkers = 7;

// Dash patterns (points on, off, ...); with the marker they tell lines apart in greyscale.
inline const std::vector<std::vector<double>> kDashes = {{}, {7, 3.5}, {0.01, 3.6}, {9, 3, 0.01, 3}, {14, 4}};
inline const std::vector<double> kRefDashes[] = {{6, 3}, {2, 2.5}, {10, 3, 2, 3}};

struct Style {
  Rgb colour;
  Marker marker;
  const std::vector<double>* dash;
};

// Style by kernel: reduce0..reduce6 always get the same look, whichever kernels a session has.
inline Style style_of(size_t i) {
  return {rgb(kPalette[i % std::size(kPalette)]), static_cast<Marker>(i % kNumMarkers), &kDashes[i % kDashes.size()]};
}
// A line's style: its kernel's, or a measured reference's (Line::reference): the reference lines' grey, dashed.
inline Style line_style(size_t i, bool reference) {
  return reference ? Style{kRef, Marker::Cross, &kRefDashes[0]} : style_of(i);
}

// ---- Sizes (points) -----------------------------------------------------------------------

constexpr double kMargin = 18, kGap = 8;
constexpr double kTitleSize = 17, kCaptionSize = 10, kAxisTitleSize = 11, kTickSize = 10, kValueSize = 9,
                 kLegendSize = 10, kRefSize = 9;
constexpr double kLeading = 1.3;  // line height / font size
constexpr double kMarkerR = 4.5;

// ---- Text and marks (chart_marks.cpp) -------------------------------------------------------

void set_colour(cairo_t* cr, Rgb c);
void set_font(cairo_t* cr, double size, bool bold = false);
double text_width(cairo_t* cr, const std::string& s);
double ascent(cairo_t* cr);
enum class Align { Left, Center, Right };
void draw_text(cairo_t* cr, double x, double y, const std::string& s, Align a = Align::Left);
void draw_text_centred(cairo_t* cr, double x, double cy, const std::string& s, Align a);
std::vector<std::string> wrap(cairo_t* cr, const std::string& text, double max_w);
void stroke_with_halo(cairo_t* cr, Rgb c, double width, double halo = 2.2);
void set_dash(cairo_t* cr, const std::vector<double>& d);
void line_path(cairo_t* cr, double x0, double y0, double x1, double y1);
void grid_line(cairo_t* cr, double x0, double y0, double x1, double y1);
void draw_marker(cairo_t* cr, Marker m, double x, double y, Rgb c);
void stroke_kernel_line(cairo_t* cr, const Style& st);
void draw_wrong_mark(cairo_t* cr, double x, double y);
void draw_hatch(cairo_t* cr, double x0, double y0, double x1, double y1, Rgb fill);

// ---- Axes and ticks (chart_axes.cpp) --------------------------------------------------------

// A zero-based linear axis from 0 to a whole number of nice steps at or above `need`, with
// about six intervals; or (log) a logarithmic one from `lo` to `top`, both 1, 2 or 5 x 10^k.
struct YAxis {
  double top = 1, step = 1;
  int decimals = 0;  // tick labels: enough to show the step (0.05 -> 2)
  bool log = false;
  double lo = 0;     // log: the bottom of the axis

  // 0, step, ..., top; counted, not summed, so that no rounding drops or adds the last one.
  // Log: every 1, 2 and 5 x 10^k from lo to top.
  std::vector<double> ticks() const {
    std::vector<double> t;
    if (log) {
      for (int e = static_cast<int>(std::floor(std::log10(lo) + 1e-9)); std::pow(10.0, e) <= top * (1 + 1e-9); ++e)
        for (double m : {1.0, 2.0, 5.0}) {
          const double v = m * std::pow(10.0, e);
          if (v >= lo * (1 - 1e-9) && v <= top * (1 + 1e-9)) t.push_back(v);
        }
      return t;
    }
    const int n = static_cast<int>(std::lround(top / step));
    for (int i = 0; i <= n; ++i) t.push_back(i * step);
    return t;
  }
  // A tick's label: with the axis' decimals, or on a log axis as many as the value needs (0.02, 0.5, 20).
  std::string label(double v) const {
    return fixed(v, log ? std::max(0, -static_cast<int>(std::floor(std::log10(v) + 1e-9))) : decimals);
  }
};

YAxis log_axis(double lo_need, double hi_need);
YAxis zero_based_axis(double need);

// The plot area in points, and how values map into it.
struct Frame {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;  // y0 top, y1 bottom (the zero line)
  YAxis y;
  double x_lo = 0, x_hi = 1;  // line charts: log2(block size) at x0 and x1
  bool x_linear = false;      // ChartSpec::linear_x: x from 0 at x0 to xa.top at x1
  YAxis xa;

  double py(double v) const {
    if (y.log) return y1 - (std::log10(v) - std::log10(y.lo)) / (std::log10(y.top) - std::log10(y.lo)) * (y1 - y0);
    return y1 - v / y.top * (y1 - y0);
  }
  double px_log2(double v) const { return x0 + (std::log2(v) - x_lo) / (x_hi - x_lo) * (x1 - x0); }
  // A line chart's x: log2 or (x_linear) linear.
  double px(double v) const { return x_linear ? x0 + v / xa.top * (x1 - x0) : px_log2(v); }
};

double needed_top(const ChartSpec& c, double plot_h);
double tick_label_width(cairo_t* cr, const YAxis& a);
void draw_y_axis(cairo_t* cr, const Frame& f, const std::string& title);
double fitting_size(cairo_t* cr, double size, const std::vector<std::string>& texts, double max_w);
void draw_x_labels(cairo_t* cr, const Frame& f, const std::vector<std::pair<double, std::vector<std::string>>>& cols);

// ---- Legends and labels (chart_legend.cpp) ---------------------------------------------------

// Legend entries: a kernel (line sample + marker), a measured reference line, or the wrong-sum mark.
struct LegendEntry {
  std::string text;
  size_t style;
  bool wrong_mark;
  bool reference = false;
  bool marked = true;  // the sample with its marker, as the line is drawn (Line::marked)
};

std::vector<LegendEntry> legend_entries(const ChartSpec& c);
std::vector<std::vector<LegendEntry>> legend_rows(cairo_t* cr, const std::vector<LegendEntry>& entries,
                                                  double max_w);
void draw_legend(cairo_t* cr, const std::vector<std::vector<LegendEntry>>& rows, double cx, double y);
double draw_header(cairo_t* cr, const ChartSpec& c, double w);
double ref_label_width(cairo_t* cr, const std::vector<RefLine>& refs);
void draw_refs(cairo_t* cr, const Frame& f, const std::vector<RefLine>& refs);

// ---- Bars, lines, the page (chart_render.cpp) -------------------------------------------------

void draw_bars(cairo_t* cr, const Frame& f, const std::vector<Bar>& bars);
void draw_lines(cairo_t* cr, const Frame& f, const ChartSpec& c);
void draw_chart(cairo_t* cr, double w, double h, const ChartSpec& c);

}  // namespace rs::chart
