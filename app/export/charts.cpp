// Chart export. Each chart is first described as data (a ChartSpec: bars or lines, reference
// lines, title, caption, axis titles), then drawn by one renderer, draw_chart(), onto three
// cairo surfaces: an image surface saved as PNG (2 pixels per point), an SVG and a PDF surface
// (in points). The CSV next to each chart holds the rows the chart plots.
//
// Index
//   Formatting        locale-independent numbers for labels and CSV
//   Session index     timings in slide order, validated
//   Styles            Okabe-Ito colours, marker shapes, dash patterns per kernel
//   ChartSpec         what one chart shows
//   Drawing           text, axes, grid, bars, lines, reference lines, legend, caption
//   Files             temp file + rename, cairo status checks, CSV
//   The four charts and the Harris table
//   export_charts()
#include "charts.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <bit>
#include <sstream>
#include <set>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <numbers>
#include <numeric>
#include <utility>

#include "kernel_info.hpp"

namespace rs {

namespace {

namespace fs = std::filesystem;

constexpr double kPageW = 800, kPageH = 500;  // points, for SVG and PDF
constexpr double kPngScale = 2;               // PNG pixels per point: 1600 x 1000
constexpr const char* kFont = "DejaVu Sans";

// ---- Formatting -------------------------------------------------------------------------
// std::to_chars ignores the C locale, so a GUI that calls setlocale() still gets '.' decimals.

std::string to_chars_str(double v, std::chars_format f, int precision) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v, f, precision);
  return std::string(b, r.ptr);
}

// "16777216" -> "16,777,216"; "2950.5" -> "2,950.5".
std::string group_thousands(std::string s) {
  const size_t sign = (!s.empty() && s[0] == '-') ? 1 : 0;
  const size_t end = std::min(s.find('.'), s.size());
  for (size_t i = end; i > sign + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

// Fixed point with `decimals` digits and thousands separators.
std::string fixed(double v, int decimals) {
  return group_thousands(to_chars_str(v, std::chars_format::fixed, decimals));
}

// Three significant digits, never in exponent form: 0.172, 1.23, 12.3, 123, 2,950.
// Decimals = 2 - floor(log10 v) puts the third significant digit last.
std::string sig3(double v) {
  const int decimals = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 0, 9) : 0;
  return fixed(v, decimals);
}

// CSV numbers: like printf("%.6g") in the C locale.
std::string csv_num(double v) { return to_chars_str(v, std::chars_format::general, 6); }

// Quoted only when needed (RFC 4180: a field with a comma, quote or newline is quoted, its
// quotes doubled).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string join(const std::vector<uint32_t>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

// ---- Session index ----------------------------------------------------------------------

// The session's timings, kernels in slide order (kernel_table()), then other kernels by name.
struct TimingIndex {
  std::vector<std::string> kernels;
  std::vector<size_t> style;  // per kernel: table position, or 7, 8, ... for others
  std::vector<uint32_t> block_sizes;  // with at least one timing, ascending
  std::map<std::pair<size_t, uint32_t>, const SessionTiming*> at;  // (kernel index, block size)

  const SessionTiming* find(size_t k, uint32_t bs) const {
    const auto it = at.find({k, bs});
    return it == at.end() ? nullptr : it->second;
  }
  // Every timing at `bs`, in kernel order, with its kernel index.
  std::vector<std::pair<size_t, const SessionTiming*>> at_block(uint32_t bs) const {
    std::vector<std::pair<size_t, const SessionTiming*>> out;
    for (size_t k = 0; k < kernels.size(); ++k)
      if (const SessionTiming* t = find(k, bs)) out.push_back({k, t});
    return out;
  }
};

TimingIndex index_timings(const Session& s) {
  if (s.timings.empty()) throw ExportError("the session has no timings: nothing to chart");
  std::map<std::string, size_t> rank;  // slide position for table kernels; others rank after
  const auto& table = kernel_table();
  for (size_t i = 0; i < table.size(); ++i) rank[table[i].name] = i;

  TimingIndex ix;
  for (const SessionTiming& t : s.timings) {
    const auto ok = [](double v) { return std::isfinite(v) && v >= 0; };
    if (t.block_size == 0 || !(t.median_ms > 0) || !ok(t.median_ms) || !ok(t.min_ms) || !ok(t.max_ms) ||
        !ok(t.gbps) || !ok(t.pct_peak))
      throw ExportError("invalid timing for " + t.kernel + " at block size " + std::to_string(t.block_size) +
                        ": the block size and median must be positive, the other numbers finite and not negative");
    if (std::find(ix.kernels.begin(), ix.kernels.end(), t.kernel) == ix.kernels.end()) ix.kernels.push_back(t.kernel);
    ix.block_sizes.push_back(t.block_size);
  }
  std::sort(ix.kernels.begin(), ix.kernels.end(), [&](const std::string& a, const std::string& b) {
    const size_t ra = rank.count(a) ? rank[a] : table.size(), rb = rank.count(b) ? rank[b] : table.size();
    return ra != rb ? ra < rb : a < b;
  });
  std::sort(ix.block_sizes.begin(), ix.block_sizes.end());
  ix.block_sizes.erase(std::unique(ix.block_sizes.begin(), ix.block_sizes.end()), ix.block_sizes.end());

  // Style: the kernel's place in its track, so the kernels of one track all look different and
  // each keeps the colour the window gives it (app/gui/timing_panel.cpp, kernel_color).
  std::map<std::string, size_t> in_track;
  for (const TrackInfo& tr : track_table()) {
    const auto ks = track_kernels(tr.id);
    for (size_t i = 0; i < ks.size(); ++i) in_track[kernel_info(ks[i]).name] = i;
  }
  size_t next_style = 7;  // kernels of no track: after Harris's seven, cycling through the palette
  for (const std::string& k : ix.kernels) ix.style.push_back(in_track.count(k) ? in_track[k] : next_style++);
  for (const SessionTiming& t : s.timings) {
    const size_t k = std::find(ix.kernels.begin(), ix.kernels.end(), t.kernel) - ix.kernels.begin();
    ix.at[{k, t.block_size}] = &t;
  }
  return ix;
}

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
const std::vector<std::vector<double>> kDashes = {{}, {7, 3.5}, {0.01, 3.6}, {9, 3, 0.01, 3}, {14, 4}};
const std::vector<double> kRefDashes[] = {{6, 3}, {2, 2.5}, {10, 3, 2, 3}};

struct Style {
  Rgb colour;
  Marker marker;
  const std::vector<double>* dash;
};

// Style by kernel: reduce0..reduce6 always get the same look, whichever kernels a session has.
Style style_of(size_t i) {
  return {rgb(kPalette[i % std::size(kPalette)]), static_cast<Marker>(i % kNumMarkers), &kDashes[i % kDashes.size()]};
}

// ---- ChartSpec --------------------------------------------------------------------------

struct Bar {
  std::string kernel;
  size_t style = 0;
  double value = 0;
  double whisker_lo = NAN, whisker_hi = NAN;  // NaN: no whisker
  std::vector<std::string> value_lines;       // printed above the bar
  bool wrong = false;                         // sum differed from the CPU reference
};

struct Point {
  double x, y;
  bool wrong;
};

struct Line {
  std::string kernel;
  size_t style = 0;
  std::vector<Point> points;  // x ascending
};

struct RefLine {
  double y;
  std::string name, value;
};

struct ChartSpec {
  std::string title;
  std::vector<std::string> caption;  // paragraphs, each wrapped to the page width
  std::string x_title, y_title;
  std::vector<Bar> bars;             // a bar chart, one bar per kernel, or
  std::vector<Line> lines;           // a line chart, x on a log2 axis
  std::vector<uint32_t> x_ticks;     // line chart: the x values to label
  std::vector<std::string> x_tick_labels;  // their labels ("2^20"), or empty for the numbers
  std::vector<RefLine> refs;         // dashed horizontal lines, labelled right of the plot
  bool log_y = false;                // line chart: the value axis in decades (1-2-5 ticks), not from 0
};

// ---- Drawing ----------------------------------------------------------------------------

constexpr double kMargin = 18, kGap = 8;
constexpr double kTitleSize = 17, kCaptionSize = 10, kAxisTitleSize = 11, kTickSize = 10, kValueSize = 9,
                 kLegendSize = 10, kRefSize = 9;
constexpr double kLeading = 1.3;  // line height / font size
constexpr double kMarkerR = 4.5;

void set_colour(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

void set_font(cairo_t* cr, double size, bool bold = false) {
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

double ascent(cairo_t* cr) {
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  return fe.ascent;
}

enum class Align { Left, Center, Right };

// Draws `s` with its baseline at `y`, in the current font and colour.
void draw_text(cairo_t* cr, double x, double y, const std::string& s, Align a = Align::Left) {
  const double w = text_width(cr, s);
  cairo_move_to(cr, a == Align::Left ? x : a == Align::Center ? x - w / 2 : x - w, y);
  cairo_show_text(cr, s.c_str());
}

// Vertically centred on `cy`: the baseline sits half the cap height (~0.72 ascent) below it.
void draw_text_centred(cairo_t* cr, double x, double cy, const std::string& s, Align a) {
  draw_text(cr, x, cy + 0.36 * ascent(cr), s, a);
}

// Greedy word wrap to `max_w` in the current font.
std::vector<std::string> wrap(cairo_t* cr, const std::string& text, double max_w) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while (i < text.size()) {
    const size_t sp = std::min(text.find(' ', i), text.size());
    const std::string word = text.substr(i, sp - i);
    const std::string tried = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(cr, tried) > max_w) {
      lines.push_back(line);
      line = word;
    } else {
      line = tried;
    }
    i = sp + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// Strokes the current path in `c` over a white stroke `halo` points wider, so that it shows on
// any fill, black included.
void stroke_with_halo(cairo_t* cr, Rgb c, double width, double halo = 2.2) {
  set_colour(cr, kWhite);
  cairo_set_line_width(cr, width + halo);
  cairo_stroke_preserve(cr);
  set_colour(cr, c);
  cairo_set_line_width(cr, width);
  cairo_stroke(cr);
}

void set_dash(cairo_t* cr, const std::vector<double>& d) {
  cairo_set_dash(cr, d.data(), static_cast<int>(d.size()), 0);
}

void line_path(cairo_t* cr, double x0, double y0, double x1, double y1) {
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1, y1);
}

// A thin light grid line, snapped to half points (whole pixels in the 2x PNG) so it stays crisp.
void grid_line(cairo_t* cr, double x0, double y0, double x1, double y1) {
  const auto snap = [](double v) { return std::round(v * 2) / 2; };
  cairo_new_path(cr);
  set_dash(cr, {});
  line_path(cr, snap(x0), snap(y0), snap(x1), snap(y1));
  set_colour(cr, kGrid);
  cairo_set_line_width(cr, 0.7);
  cairo_stroke(cr);
}

// A regular-ish polygon: `pts` in units of the radius around (x, y).
void polygon(cairo_t* cr, double x, double y, double r, std::initializer_list<std::pair<double, double>> pts) {
  for (const auto& [px, py] : pts) cairo_line_to(cr, x + px * r, y + py * r);
  cairo_close_path(cr);
}

void draw_marker(cairo_t* cr, Marker m, double x, double y, Rgb c) {
  const double r = kMarkerR;
  cairo_new_path(cr);
  set_dash(cr, {});
  switch (m) {
    case Marker::Circle: cairo_arc(cr, x, y, r, 0, 2 * std::numbers::pi); break;
    case Marker::Square: cairo_rectangle(cr, x - 0.85 * r, y - 0.85 * r, 1.7 * r, 1.7 * r); break;
    case Marker::TriangleUp: polygon(cr, x, y, 1.2 * r, {{0, -1}, {0.87, 0.6}, {-0.87, 0.6}}); break;
    case Marker::Diamond: polygon(cr, x, y, 1.15 * r, {{0, -1}, {1, 0}, {0, 1}, {-1, 0}}); break;
    case Marker::TriangleDown: polygon(cr, x, y, 1.2 * r, {{0, 1}, {0.87, -0.6}, {-0.87, -0.6}}); break;
    case Marker::Plus:
    case Marker::Cross: {
      const double d = m == Marker::Plus ? 1.15 * r : 0.85 * r;
      if (m == Marker::Plus) {
        line_path(cr, x - d, y, x + d, y);
        line_path(cr, x, y - d, x, y + d);
      } else {
        line_path(cr, x - d, y - d, x + d, y + d);
        line_path(cr, x - d, y + d, x + d, y - d);
      }
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
      stroke_with_halo(cr, c, 2.4);
      return;
    }
  }
  set_colour(cr, c);
  cairo_fill_preserve(cr);
  set_colour(cr, kWhite);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
}

// Strokes the current path as a kernel's line: its colour and dash pattern, 2 pt wide.
void stroke_kernel_line(cairo_t* cr, const Style& st) {
  set_dash(cr, *st.dash);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  set_colour(cr, st.colour);
  cairo_set_line_width(cr, 2);
  cairo_stroke(cr);
}

// The "wrong sum" mark: a ring with a slash (a prohibition sign) around a point.
void draw_wrong_mark(cairo_t* cr, double x, double y) {
  const double r = kMarkerR + 4, d = r * 0.7071;
  cairo_new_path(cr);
  set_dash(cr, {});
  cairo_arc(cr, x, y, r, 0, 2 * std::numbers::pi);
  line_path(cr, x - d, y + d, x + d, y - d);
  stroke_with_halo(cr, kInk, 1.5);
}

// Luminance of an sRGB colour, 0 black .. 1 white: BT.709 weights on the encoded values, which
// is close enough for choosing black or white ink.
double luminance(Rgb c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; }

// Diagonal hatching and a black outline over a bar whose sum was wrong. The hatch is black on
// light fills and white on dark ones, and leaves most of the fill showing, so the kernel's
// colour still identifies it.
void draw_hatch(cairo_t* cr, double x0, double y0, double x1, double y1, Rgb fill) {
  cairo_save(cr);
  cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
  cairo_clip(cr);
  cairo_new_path(cr);
  set_dash(cr, {});
  const double h = y1 - y0;
  for (double d = -h; d < x1 - x0; d += 9) line_path(cr, x0 + d, y1, x0 + d + h, y0);
  set_colour(cr, luminance(fill) < 0.3 ? kWhite : kInk);
  cairo_set_line_width(cr, 1.2);
  cairo_stroke(cr);
  cairo_restore(cr);
  cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
  stroke_with_halo(cr, kInk, 1.5);
}

// The smallest step of the form {1, 2, 5} x 10^k at or above `raw`.
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

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

// The plot area in points, and how values map into it.
struct Frame {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;  // y0 top, y1 bottom (the zero line)
  YAxis y;
  double x_lo = 0, x_hi = 1;  // line charts: log2(block size) at x0 and x1

  double py(double v) const {
    if (y.log) return y1 - (std::log10(v) - std::log10(y.lo)) / (std::log10(y.top) - std::log10(y.lo)) * (y1 - y0);
    return y1 - v / y.top * (y1 - y0);
  }
  double px_log2(double v) const { return x0 + (std::log2(v) - x_lo) / (x_hi - x_lo) * (x1 - x0); }
};

// Legend entries: a kernel (line sample + marker), or the wrong-sum mark.
struct LegendEntry {
  std::string text;
  size_t style;
  bool wrong_mark;
};

constexpr double kLegendSample = 30, kLegendPad = 6, kLegendSpacing = 18;

std::vector<LegendEntry> legend_entries(const ChartSpec& c) {
  std::vector<LegendEntry> out;
  bool any_wrong = false;
  for (const Line& l : c.lines) {
    out.push_back({l.kernel, l.style, false});
    for (const Point& p : l.points) any_wrong |= p.wrong;
  }
  if (any_wrong) out.push_back({"wrong sum (differs from the CPU reference)", 0, true});
  return out;
}

double legend_entry_width(cairo_t* cr, const LegendEntry& e) {
  return kLegendSample + kLegendPad + text_width(cr, e.text);
}

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
        const Style st = style_of(e.style);
        cairo_new_path(cr);
        line_path(cr, x, y, x + kLegendSample, y);
        stroke_kernel_line(cr, st);
        draw_marker(cr, st.marker, mid, y, st.colour);
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

// Width of the reference lines' labels (name over value), right of the plot.
double ref_label_width(cairo_t* cr, const std::vector<RefLine>& refs) {
  set_font(cr, kRefSize);
  double w = 0;
  for (const RefLine& r : refs) w = std::max({w, text_width(cr, r.name), text_width(cr, r.value)});
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
  for (size_t i = 0; i < c.x_ticks.size(); ++i) {
    const uint32_t x = c.x_ticks[i];
    grid_line(cr, f.px_log2(x), f.y0, f.px_log2(x), f.y1);
    cols.push_back({f.px_log2(x), {i < c.x_tick_labels.size() ? c.x_tick_labels[i] : std::to_string(x)}});
  }
  draw_x_labels(cr, f, cols);
  for (const Line& l : c.lines) {
    cairo_new_path(cr);
    for (const Point& p : l.points) cairo_line_to(cr, f.px_log2(p.x), f.py(p.y));
    stroke_kernel_line(cr, style_of(l.style));
  }
  // Markers after all lines, so no line crosses a marker.
  for (const Line& l : c.lines)
    for (const Point& p : l.points) {
      const Style st = style_of(l.style);
      draw_marker(cr, st.marker, f.px_log2(p.x), f.py(p.y), st.colour);
      if (p.wrong) draw_wrong_mark(cr, f.px_log2(p.x), f.py(p.y));
    }
}

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
  if (!c.x_ticks.empty()) {
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

// ---- Files ------------------------------------------------------------------------------

void check_cairo(cairo_status_t st, const fs::path& path) {
  if (st != CAIRO_STATUS_SUCCESS)
    throw ExportError("cannot write " + path.string() + ": " + cairo_status_to_string(st));
}

// Writes `path` through `<path>.tmp`, renamed into place only once `write` has succeeded, so a
// failed export never leaves a half-written chart under the real name.
void write_atomically(const fs::path& path, const std::function<void(const fs::path&)>& write) {
  fs::path tmp = path;
  tmp += ".tmp";
  try {
    write(tmp);
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw ExportError("cannot write " + path.string() + ": " + ec.message());
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

struct SurfaceDeleter {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

// Draws the chart onto `surface` at `scale` surface units per point, checking every status.
void paint(cairo_surface_t* surface, double scale, const ChartSpec& c, const fs::path& path) {
  check_cairo(cairo_surface_status(surface), path);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, scale, scale);
  draw_chart(cr, kPageW, kPageH, c);
  const cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  check_cairo(st, path);
}

void write_png(const ChartSpec& c, const fs::path& path) {
  write_atomically(path, [&](const fs::path& tmp) {
    Surface s(cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(kPageW * kPngScale),
                                         static_cast<int>(kPageH * kPngScale)));
    paint(s.get(), kPngScale, c, path);
    cairo_surface_flush(s.get());
    check_cairo(cairo_surface_write_to_png(s.get(), tmp.c_str()), path);
  });
}

// SVG and PDF: the surface writes `tmp` as it is finished.
void write_vector(const ChartSpec& c, const fs::path& path,
                  cairo_surface_t* (*create)(const char*, double, double)) {
  write_atomically(path, [&](const fs::path& tmp) {
    Surface s(create(tmp.c_str(), kPageW, kPageH));
    if (cairo_surface_get_type(s.get()) == CAIRO_SURFACE_TYPE_PDF) {
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_TITLE, c.title.c_str());
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_CREATOR, "ReduceScope");
    }
    paint(s.get(), 1, c, path);
    cairo_surface_finish(s.get());
    check_cairo(cairo_surface_status(s.get()), path);
  });
}

void write_text(const fs::path& path, const std::string& text) {
  write_atomically(path, [&](const fs::path& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw ExportError("cannot write " + path.string());
  });
}

// One chart in all three formats; appends the paths to `files`.
void write_images(const fs::path& dir, const std::string& stem, const ChartSpec& c, ChartFiles& files) {
  const fs::path base = dir / stem;
  const auto out = [&](const char* ext) { return fs::path(base).concat(ext); };
  write_png(c, out(".png"));
  write_vector(c, out(".svg"), cairo_svg_surface_create);
  write_vector(c, out(".pdf"), cairo_pdf_surface_create);
  for (const char* ext : {".png", ".svg", ".pdf"}) files.paths.push_back(out(ext).string());
}

// One chart in all three formats plus its CSV; appends the paths to `files`.
void write_chart(const fs::path& dir, const std::string& stem, const ChartSpec& c, const std::string& csv,
                 ChartFiles& files) {
  write_images(dir, stem, c, files);
  const fs::path path = fs::path(dir / stem).concat(".csv");
  write_text(path, csv);
  files.paths.push_back(path.string());
}

// ---- The four charts and the Harris table -----------------------------------------------

constexpr const char* kTimingColumns = "kernel,block_size,median_ms,min_ms,max_ms,samples,gbps,pct_peak,correct\n";

std::string timing_row(const SessionTiming& t) {
  return csv_field(t.kernel) + "," + std::to_string(t.block_size) + "," + csv_num(t.median_ms) + "," +
         csv_num(t.min_ms) + "," + csv_num(t.max_ms) + "," + std::to_string(t.samples) + "," + csv_num(t.gbps) + "," +
         csv_num(t.pct_peak) + "," + (t.correct ? "true" : "false") + "\n";
}

std::vector<std::string> caption(const SessionMeta& m, uint32_t block_size) {
  std::string line = m.gpu.empty() ? "unknown GPU" : m.gpu;
  line += " · N = " + group_thousands(std::to_string(m.n)) + " int32";
  if (!m.pattern.empty()) line += " · pattern: " + m.pattern;
  if (block_size) line += " · block size " + std::to_string(block_size) + " threads";
  if (!m.date.empty()) line += " · recorded " + m.date;
  return {line, m.method.empty() ? "timing method not recorded" : m.method};
}

std::vector<RefLine> cub_ref(const SessionMeta& m) {
  if (m.cub_ms > 0) return {{m.cub_ms, "CUB DeviceReduce::Sum", sig3(m.cub_ms) + " ms"}};
  return {};
}

std::vector<RefLine> bandwidth_refs(const SessionMeta& m) {
  std::vector<RefLine> r;
  if (m.peak_gbps > 0) r.push_back({m.peak_gbps, "theoretical peak", fixed(m.peak_gbps, 0) + " GB/s"});
  if (m.copy_gbps > 0) r.push_back({m.copy_gbps, "copy ceiling", fixed(m.copy_gbps, 0) + " GB/s"});
  return r;
}

// Percent of peak for labels: whole percents, one decimal below 10 %.
std::string pct_label(double pct) { return fixed(pct, pct < 10 ? 1 : 0) + "% of peak"; }

// What a chart plots of each timing, and how it is labelled.
struct Measure {
  const char* name;     // in the file names: kernels_<name>_bs<B>, blocksize_<name>
  const char* what;     // in the title
  const char* y_title;  // with units
  double (*value)(const SessionTiming&);
  std::vector<RefLine> (*refs)(const SessionMeta&);
  bool whiskers;     // bars: min-max whiskers
  bool pct_of_peak;  // bars: "% of peak" under the value
};

const Measure kTime = {"time", "Median time", "median time (ms)",
                       [](const SessionTiming& t) { return t.median_ms; }, cub_ref, true, false};
const Measure kBandwidth = {"bandwidth", "Effective bandwidth", "effective bandwidth (GB/s) = N × 4 B / median",
                            [](const SessionTiming& t) { return t.gbps; }, bandwidth_refs, false, true};

// ", lecture track" for the file prefix "lecture_"; "" for none.
std::string track_suffix(const std::string& prefix) {
  if (prefix.empty()) return "";
  std::string out = ", ";
  out.append(prefix, 0, prefix.size() - 1);
  out += " track";
  return out;
}

// Bars at one block size, one per kernel.
void bar_chart(const Session& s, const TimingIndex& ix, uint32_t bs, const Measure& m, const fs::path& dir,
               const std::string& prefix, ChartFiles& files) {
  ChartSpec c;
  c.title = std::string(m.what) + " per kernel, block size " + std::to_string(bs) +
            track_suffix(prefix);
  c.caption = caption(s.meta, bs);
  c.x_title = "kernel";
  c.y_title = std::string(m.y_title) + (m.whiskers ? ", whiskers min–max" : "");
  c.refs = m.refs(s.meta);
  std::string csv = kTimingColumns;
  for (const auto& [k, t] : ix.at_block(bs)) {
    Bar b;
    b.kernel = ix.kernels[k];
    b.style = ix.style[k];
    b.wrong = !t->correct;
    b.value = m.value(*t);
    b.value_lines = {sig3(b.value)};
    if (m.whiskers) {
      b.whisker_lo = t->min_ms;
      b.whisker_hi = t->max_ms;
    }
    if (m.pct_of_peak && s.meta.peak_gbps > 0) b.value_lines.push_back(pct_label(t->pct_peak));
    c.bars.push_back(b);
    csv += timing_row(*t);
  }
  write_chart(dir, prefix + "kernels_" + std::string(m.name) + "_bs" + std::to_string(bs), c, csv, files);
}

// One line per kernel over the block sizes it was timed at.
void blocksize_chart(const Session& s, const TimingIndex& ix, const Measure& m, const fs::path& dir,
                     const std::string& prefix, ChartFiles& files) {
  ChartSpec c;
  c.title = std::string(m.what) + " against block size" +
            track_suffix(prefix);
  c.caption = caption(s.meta, 0);
  c.x_title = "block size (threads per block, log2 scale)";
  c.y_title = m.y_title;
  c.x_ticks = ix.block_sizes;
  c.refs = m.refs(s.meta);
  std::string csv = kTimingColumns;
  for (size_t k = 0; k < ix.kernels.size(); ++k) {
    Line l{ix.kernels[k], ix.style[k], {}};
    for (uint32_t bs : ix.block_sizes)
      if (const SessionTiming* t = ix.find(k, bs)) {
        l.points.push_back({double(bs), m.value(*t), !t->correct});
        csv += timing_row(*t);
      }
    c.lines.push_back(l);
  }
  write_chart(dir, prefix + "blocksize_" + std::string(m.name), c, csv, files);
  // Time again on a log axis: from zero, the fast kernels' lines crowd together at the bottom.
  if (&m == &kTime) {
    c.log_y = true;
    c.title += " (log scale)";
    c.y_title = "median time (ms, log scale)";
    write_images(dir, prefix + "blocksize_" + std::string(m.name) + "_log", c, files);
  }
}

// Harris's table (slide "Performance for 4M element reduction") at one block size:
// step speedup = previous row's median / this median (empty on the first row),
// cumulative speedup = first row's median / this median.
void harris_table(const TimingIndex& ix, uint32_t bs, const fs::path& dir, const std::string& prefix,
                  ChartFiles& files) {
  std::string csv = "kernel,block_size,median_ms,gbps,pct_peak,step_speedup,cumulative_speedup,correct\n";
  const auto rows = ix.at_block(bs);
  for (size_t i = 0; i < rows.size(); ++i) {
    const SessionTiming& t = *rows[i].second;
    const std::string step = i == 0 ? "" : csv_num(rows[i - 1].second->median_ms / t.median_ms);
    csv += csv_field(t.kernel) + "," + std::to_string(bs) + "," + csv_num(t.median_ms) + "," + csv_num(t.gbps) +
           "," + csv_num(t.pct_peak) + "," + step + "," + csv_num(rows[0].second->median_ms / t.median_ms) + "," +
           (t.correct ? "true" : "false") + "\n";
  }
  const fs::path path = dir / ((prefix.empty() ? std::string("harris_") : prefix) + "table_bs" + std::to_string(bs) + ".csv");
  write_text(path, csv);
  files.paths.push_back(path.string());
}

}  // namespace

ChartFiles export_charts(const Session& s, const std::string& dir, uint32_t block_size) {
  const TimingIndex ix = index_timings(s);
  if (block_size != 0 && std::find(ix.block_sizes.begin(), ix.block_sizes.end(), block_size) == ix.block_sizes.end())
    throw ExportError("the session has no timings at block size " + std::to_string(block_size) +
                      "; it has block sizes " + join(ix.block_sizes, ", "));

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw ExportError("cannot create folder " + dir + ": " + (ec ? ec.message() : "a file of that name exists"));

  // One set of files per track: the first track's (Harris's) under the plain names, every other
  // track's with its id as a prefix ("lecture_kernels_time_bs256.png"); kernels of no known track
  // go with the first.
  std::map<std::string, Session> by_track;
  std::vector<std::string> order;
  for (const SessionTiming& t : s.timings) {
    const KernelInfo* k = find_kernel(t.kernel);
    const std::string track = k && k->track != track_table().front().id ? k->track : "";
    auto [it, added] = by_track.try_emplace(track);
    if (added) {
      it->second.meta = s.meta;
      order.push_back(track);
    }
    it->second.timings.push_back(t);
  }
  std::sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
    auto pos = [](const std::string& id) {
      const auto& tr = track_table();
      for (size_t i = 0; i < tr.size(); ++i) {
        if (id == tr[i].id) return i;
      }
      return size_t{0};  // "": the first track
    };
    return pos(a) < pos(b);
  });
  ChartFiles files;
  for (const std::string& track : order) {
    const Session& part = by_track.at(track);
    const TimingIndex tix = index_timings(part);
    const std::string prefix = track.empty() ? "" : track + "_";
    const std::vector<uint32_t> sizes = block_size ? std::vector<uint32_t>{block_size} : tix.block_sizes;
    for (uint32_t bs : sizes) {
      if (std::find(tix.block_sizes.begin(), tix.block_sizes.end(), bs) == tix.block_sizes.end()) continue;
      bar_chart(part, tix, bs, kTime, dir, prefix, files);
      bar_chart(part, tix, bs, kBandwidth, dir, prefix, files);
      harris_table(tix, bs, dir, prefix, files);
    }
    blocksize_chart(part, tix, kTime, dir, prefix, files);
    blocksize_chart(part, tix, kBandwidth, dir, prefix, files);
  }
  return files;
}

// ---- The N sweep -------------------------------------------------------------------------

ChartFiles export_sweep(const Sweep& sw, const std::string& dir, const std::string& method) {
  if (sw.points.empty()) throw ExportError("the sweep has no correct results to draw");
  ChartFiles files;
  const fs::path d(dir);
  std::error_code ec;
  fs::create_directories(d, ec);
  if (ec) throw ExportError("cannot create " + dir + ": " + ec.message());
  ChartSpec c;
  c.title = "Bandwidth against N: each track's fastest kernel, CUB, the copy";
  c.caption = {(sw.gpu.empty() ? std::string("unknown GPU") : sw.gpu) +
                   " · int32 · each track's fastest correct kernel over every block size at each N · the copy "
                   "counts bytes read and written",
               method};
  c.x_title = "N (int32 elements, log2 scale)";
  c.y_title = "GB/s";
  std::set<uint64_t> ns;
  std::vector<std::string> series;
  for (const SweepPoint& p : sw.points) {
    ns.insert(p.n);
    if (std::find(series.begin(), series.end(), p.series) == series.end()) series.push_back(p.series);
  }
  for (uint64_t n : ns) {
    if (n > 0xffffffffull) throw ExportError("N = " + std::to_string(n) + " is beyond the chart's axis (2^32)");
    c.x_ticks.push_back(static_cast<uint32_t>(n));
    const int e = std::bit_width(n) - 1;
    c.x_tick_labels.push_back((uint64_t{1} << e) == n ? "2^" + std::to_string(e) : std::to_string(n));
  }
  std::string csv = "series,n,gbps,kernel,block_size,median_ms,launches\n";
  for (size_t i = 0; i < series.size(); ++i) {
    Line l{series[i], i, {}};
    for (const SweepPoint& p : sw.points) {
      if (p.series != series[i]) continue;
      l.points.push_back({double(p.n), p.gbps, false});
      csv += csv_field(p.series) + "," + std::to_string(p.n) + "," + csv_num(p.gbps) + "," + csv_field(p.kernel) + "," +
             std::to_string(p.block_size) + "," + csv_num(p.median_ms) + "," + std::to_string(p.launches) + "\n";
    }
    c.lines.push_back(l);
  }
  if (sw.peak_gbps > 0) c.refs.push_back({sw.peak_gbps, "theoretical peak", fixed(sw.peak_gbps, 0) + " GB/s"});
  write_chart(d, "sweep_bandwidth", c, csv, files);
  return files;
}

}  // namespace rs
