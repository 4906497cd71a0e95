// The smallest pieces of a chart: fonts and text (measured, aligned, word-wrapped), strokes with a white
// halo, dash patterns, crisp grid lines, the kernels' markers and lines, and the wrong-sum marks (a
// prohibition sign on a point, hatching over a bar).
#include "chart_draw.hpp"

#include <numbers>

namespace rs::chart {

constexpr const char* kFont = "DejaVu Sans";

void set_colour(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

void set_font(cairo_t* cr, double size, bool bold) {
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

// Draws `s` with its baseline at `y`, in the current font and colour.
void draw_text(cairo_t* cr, double x, double y, const std::string& s, Align a) {
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
void stroke_with_halo(cairo_t* cr, Rgb c, double width, double halo) {
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

namespace {

// A regular-ish polygon: `pts` in units of the radius around (x, y).
void polygon(cairo_t* cr, double x, double y, double r, std::initializer_list<std::pair<double, double>> pts) {
  for (const auto& [px, py] : pts) cairo_line_to(cr, x + px * r, y + py * r);
  cairo_close_path(cr);
}

}  // namespace

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

namespace {

// Luminance of an sRGB colour, 0 black .. 1 white: BT.709 weights on the encoded values, which
// is close enough for choosing black or white ink.
double luminance(Rgb c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; }

}  // namespace

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

}  // namespace rs::chart
