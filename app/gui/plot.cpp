#include "plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "i18n.hpp"

namespace rs::plot {

namespace {
struct BarItem {
  std::string label;
  double value;
  ImU32 color;
  std::string tooltip;
  std::string short_label;
};
struct Chart {
  std::string title, unit;
  ImVec2 pos, size;
  std::vector<BarItem> bars;
  bool open = false;
};
Chart g_chart;

struct Series {
  std::string label;
  std::vector<double> xs, ys;
  ImU32 color;
  bool dashed = false;
  bool markers = false;  // LineFlags_Markers
};
struct RefLine {
  std::string label;
  double y;
  ImU32 color;
};
struct LinePlot {
  std::string title, x_unit, y_unit;
  ImVec2 pos, size;
  int flags = 0;
  std::vector<Series> series;
  std::vector<RefLine> refs;
  Formatter x_format = nullptr;  // SetupXFormat
  void* x_format_user = nullptr;
  bool open = false;
};
LinePlot g_plot;

// The x unit's label in the header: "x: threads per block".
std::string x_label(const std::string& unit) {
  char buf[256];
  std::snprintf(buf, sizeof buf, _("x: %s"), unit.c_str());
  return buf;
}

const char* tick_format(double step) { return step < 0.01 ? "%.3f" : step < 0.1 ? "%.2f" : step < 1 ? "%.1f" : "%.0f"; }

// A value axis: its range, its ticks and their labels, and where values land between y0 (top) and
// y1 (bottom) in pixels.
struct YScale {
  bool log = false;
  double lo = 0, top = 1;  // the range (log: lo > 0)
  std::vector<double> ticks;
  std::vector<std::string> labels;
  float y0 = 0, y1 = 1;
  float py(double v) const {
    const double f =
        log ? (std::log10(v) - std::log10(lo)) / (std::log10(top) - std::log10(lo)) : (v - lo) / (top - lo);
    return y1 - static_cast<float>(f) * (y1 - y0);
  }
  float label_width() const {
    float w = 0;
    for (const std::string& l : labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    return w;
  }
};

// From 0 to a whole number of steps at or above `max` x `headroom`; the step grows (1, 2, 5 x 10^k)
// until ticks are at least `gap` pixels apart over `height`.
YScale linear_scale(double max, double headroom, float height, float gap) {
  YScale s;
  const double m = max > 0 ? max : 1;
  double step = NiceStep(m, 4);
  s.top = std::ceil(m * headroom / step) * step;
  while (step / s.top * height < gap && step < s.top) {
    step = NiceStep(step * 1.01, 1);
    s.top = std::ceil(m * headroom / step) * step;
  }
  char buf[32];
  const int n = static_cast<int>(std::lround(s.top / step));
  for (int i = 0; i <= n; ++i) {
    s.ticks.push_back(i * step);
    std::snprintf(buf, sizeof buf, tick_format(step), i * step);
    s.labels.emplace_back(buf);
  }
  return s;
}

// From the 1-2-5 value at or below `vmin` to the one at or above `vmax`, ticked at 1, 2 and 5 x 10^k,
// or at the decades (and the ends) where those would be closer than `gap` pixels over `height`.
YScale log_scale(double vmin, double vmax, float height, float gap) {
  auto below = [](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {5.0, 2.0, 1.0}) {
      if (m * p <= v * (1 + 1e-9)) return m * p;
    }
    return p;
  };
  auto above = [](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0}) {
      if (m * p >= v * (1 - 1e-9)) return m * p;
    }
    return 10 * p;
  };
  YScale s;
  s.log = true;
  if (!(vmin > 0)) vmin = vmax > 0 ? vmax : 1;
  if (!(vmax >= vmin)) vmax = vmin;
  s.lo = below(vmin);
  s.top = above(vmax);
  if (s.top <= s.lo * (1 + 1e-9)) s.top = above(s.lo * 1.01);
  const double decades = std::log10(s.top) - std::log10(s.lo);
  auto px_apart = [&](double a, double b) {
    return static_cast<float>((std::log10(b) - std::log10(a)) / decades) * height;
  };
  std::vector<double> all;
  for (double p = std::pow(10.0, std::floor(std::log10(s.lo))); p <= s.top * (1 + 1e-9); p *= 10) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (m * p >= s.lo * (1 - 1e-9) && m * p <= s.top * (1 + 1e-9)) all.push_back(m * p);
    }
  }
  float closest = 1e9f;
  for (size_t i = 1; i < all.size(); ++i) closest = std::min(closest, px_apart(all[i - 1], all[i]));
  if (closest >= gap) {
    s.ticks = all;
  } else {  // the ends and the decades between them that keep the gap
    s.ticks.push_back(s.lo);
    for (double v : all) {
      const double e = std::log10(v);
      if (std::fabs(e - std::round(e)) < 1e-9 && px_apart(s.ticks.back(), v) >= gap && px_apart(v, s.top) >= gap) {
        s.ticks.push_back(v);
      }
    }
    if (px_apart(s.ticks.back(), s.top) >= gap) s.ticks.push_back(s.top);
  }
  char buf[32];
  for (double v : s.ticks) {
    std::snprintf(buf, sizeof buf, "%g", v);
    s.labels.emplace_back(buf);
  }
  return s;
}

// Horizontal grid lines at the scale's ticks from x0 to x1, labelled left of x0.
void draw_y_grid(ImDrawList* dl, const YScale& s, float x0, float x1) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);
  const float fh = ImGui::GetFontSize();
  for (size_t i = 0; i < s.ticks.size(); ++i) {
    const float y = s.py(s.ticks[i]);
    dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), grid);
    const ImVec2 ts = ImGui::CalcTextSize(s.labels[i].c_str());
    dl->AddText(ImVec2(x0 - ts.x - fh * 0.3f, y - ts.y * 0.5f), text, s.labels[i].c_str());
  }
  dl->AddLine(ImVec2(x0, s.y1), ImVec2(x1, s.y1), text);
}

// `text` without its last UTF-8 character (never half of one: a Chinese label is 3 bytes a character).
void pop_char(std::string& t) {
  while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80) t.pop_back();
  if (!t.empty()) t.pop_back();
}

// `text` cut to `width` pixels with ".." where it was cut (at least one character stays).
std::string fit(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string t = text;
  auto chars = [](const std::string& u) {
    size_t n = 0;
    for (unsigned char ch : u) n += (ch & 0xC0) != 0x80;
    return n;
  };
  while (chars(t) > 1 && ImGui::CalcTextSize((t + "..").c_str()).x > width) pop_char(t);
  return t + "..";
}

struct Rect {
  float x0, y0, x1, y1;
  bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool contains(ImVec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
};

// Whether the segment a-b crosses rectangle r (Liang-Barsky clipping).
bool segment_hits(ImVec2 a, ImVec2 b, const Rect& r) {
  float t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  auto clip = [&](float p, float q) {
    if (p == 0) return q >= 0;
    const float t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      t0 = std::max(t0, t);
    } else {
      if (t < t0) return false;
      t1 = std::min(t1, t);
    }
    return true;
  };
  return clip(-dx, a.x - r.x0) && clip(dx, r.x1 - a.x) && clip(-dy, a.y - r.y0) && clip(dy, r.y1 - a.y);
}

// A dashed line through `pts` (5 pixels on, 5 off, the pattern carried across corners).
void dashed_path(ImDrawList* dl, const ImVec2* pts, int count, ImU32 c, float thickness) {
  float phase = 0;  // distance into the current 10-pixel period
  for (int i = 0; i + 1 < count; ++i) {
    const ImVec2 a = pts[i], b = pts[i + 1];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    for (float d = 0; d < len;) {
      const float run = std::min(len - d, 10 - phase);
      if (phase < 5) {
        const float on = std::min(run, 5 - phase);
        const float t0 = d / len, t1 = (d + on) / len;
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                    ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), c, thickness);
      }
      d += run;
      phase = std::fmod(phase + run, 10.0f);
    }
  }
}

// A dashed horizontal line from x0 to x1.
void dashed(ImDrawList* dl, float x0, float x1, float y, ImU32 c) {
  const ImVec2 pts[] = {ImVec2(x0, y), ImVec2(x1, y)};
  dashed_path(dl, pts, 2, c, 1.5f);
}
}  // namespace

double NiceStep(double max, int ticks) {
  if (max <= 0 || ticks < 1) return 1;
  double raw = max / ticks;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double f = raw / mag;
  double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * mag;
}

bool BeginBarChart(const char* id, const char* title, const char* y_unit, ImVec2 size) {
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  if (size.x < 50 || size.y < 50) return false;
  ImGui::PushID(id);
  g_chart = Chart{title, y_unit, ImGui::GetCursorScreenPos(), size, {}, true};
  ImGui::InvisibleButton("##chart", size);
  return true;
}

void Bar(const char* label, double value, ImU32 color, const char* tooltip, const char* short_label) {
  if (!g_chart.open) return;
  g_chart.bars.push_back({label, value, color, tooltip ? tooltip : "", short_label ? short_label : label});
}

void EndBarChart() {
  Chart& c = g_chart;
  if (!c.open) return;
  c.open = false;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetFontSize();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);

  double max = 0;
  for (const auto& b : c.bars) max = std::max(max, b.value);
  // The title wraps right of the unit; the plot starts under it.
  float axis_w = std::max(fh * 4.0f, ImGui::CalcTextSize(c.unit.c_str()).x + fh * 0.6f);
  const float title_h = ImGui::CalcTextSize(c.title.c_str(), nullptr, false, c.size.x - axis_w).y;
  const float top_y = c.pos.y + std::max(fh * 1.5f, title_h + fh * 0.5f);
  const float bottom_y = c.pos.y + c.size.y - fh * 2.3f;  // room for labels on two rows
  if (bottom_y - top_y < fh * 2) {
    ImGui::PopID();
    return;
  }
  YScale ys = linear_scale(max, 1.0, bottom_y - top_y, fh * 1.2f);
  ys.y0 = top_y;
  ys.y1 = bottom_y;
  axis_w = std::max(axis_w, ys.label_width() + fh * 0.6f);
  dl->AddText(ImGui::GetFont(), fh, ImVec2(c.pos.x + axis_w, c.pos.y), text, c.title.c_str(), nullptr,
              c.size.x - axis_w);
  dl->AddText(c.pos, text, c.unit.c_str());
  ImVec2 p0(c.pos.x + axis_w, top_y), p1(c.pos.x + c.size.x - fh * 0.5f, bottom_y);
  if (p1.x - p0.x < fh) {
    ImGui::PopID();
    return;
  }
  draw_y_grid(dl, ys, p0.x, p1.x);

  const size_t n = c.bars.size();
  if (n == 0) {
    const char* none = _("no timings yet");
    ImVec2 ts = ImGui::CalcTextSize(none);
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2), grid, none);
    ImGui::PopID();
    return;
  }
  const float slot = (p1.x - p0.x) / static_cast<float>(n);
  const float bw = slot * 0.7f;
  // Labels: the full one or the short one where it fits the slot; where even a short one does not,
  // every label alternates between two rows and may take two slots (cut to fit them).
  bool stagger = false;
  const float gap = fh * 0.6f;  // at least this between two labels on a row
  for (const BarItem& b : c.bars) stagger = stagger || ImGui::CalcTextSize(b.short_label.c_str()).x > slot - gap;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t i = 0; i < n; ++i) {
    const BarItem& b = c.bars[i];
    float x0 = p0.x + slot * static_cast<float>(i) + (slot - bw) / 2;
    float y0 = ys.py(b.value);
    ImVec2 a(x0, y0), z(x0 + bw, p1.y);
    dl->AddRectFilled(a, z, b.color);
    const float room = stagger ? 2 * slot - gap : slot - gap;
    const std::string lab = ImGui::CalcTextSize(b.label.c_str()).x <= room ? b.label : fit(b.short_label, room);
    const ImVec2 ls = ImGui::CalcTextSize(lab.c_str());
    const float lx = std::max(c.pos.x, std::min(x0 + (bw - ls.x) / 2, c.pos.x + c.size.x - ls.x));
    dl->AddText(ImVec2(lx, p1.y + fh * (stagger && i % 2 ? 1.1f : 0.2f)), text, lab.c_str());
    bool hover = mouse.x >= x0 && mouse.x <= x0 + bw && mouse.y >= p0.y && mouse.y <= p1.y;
    if (hover && ImGui::IsWindowHovered()) {
      dl->AddRect(a, z, text, 0, 0, 2.0f);
      ImGui::SetTooltip("%s", b.tooltip.empty() ? b.label.c_str() : b.tooltip.c_str());
    }
  }
  ImGui::PopID();
}

bool BeginPlot(const char* id, const char* title, const char* x_unit, const char* y_unit, ImVec2 size, int flags) {
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  if (size.x < 80 || size.y < 60) return false;
  ImGui::PushID(id);
  g_plot = LinePlot{title, x_unit, y_unit, ImGui::GetCursorScreenPos(), size, flags, {}, {}, nullptr, nullptr, true};
  ImGui::InvisibleButton("##plot", size);
  return true;
}

void SetupXFormat(Formatter formatter, void* user) {
  g_plot.x_format = formatter;
  g_plot.x_format_user = user;
}

void Line(const char* label, const double* xs, const double* ys, int count, ImU32 color, int flags) {
  if (!g_plot.open || count <= 0) return;
  g_plot.series.push_back({label, std::vector<double>(xs, xs + count), std::vector<double>(ys, ys + count), color,
                           (flags & LineFlags_Dashed) != 0, (flags & LineFlags_Markers) != 0});
}

void HLine(const char* label, double y, ImU32 color) {
  if (g_plot.open && y > 0) g_plot.refs.push_back({label, y, color});
}

void EndPlot() {
  LinePlot& c = g_plot;
  if (!c.open) return;
  c.open = false;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetFontSize();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const bool log2x = c.flags & PlotFlags_LogX2;
  const bool logy = c.flags & PlotFlags_LogY;

  // Series points a log axis can show (y > 0 there).
  std::vector<Series> series = c.series;
  if (logy) {
    for (Series& s : series) {
      Series kept{s.label, {}, {}, s.color, s.dashed, s.markers};
      for (size_t i = 0; i < s.xs.size(); ++i) {
        if (s.ys[i] > 0) {
          kept.xs.push_back(s.xs[i]);
          kept.ys.push_back(s.ys[i]);
        }
      }
      s = std::move(kept);
    }
  }
  double ymin = 1e300, ymax = 0, xmin = 1e300, xmax = -1e300;
  for (const auto& s : series) {
    for (size_t i = 0; i < s.xs.size(); ++i) {
      ymin = std::min(ymin, s.ys[i]);
      ymax = std::max(ymax, s.ys[i]);
      xmin = std::min(xmin, s.xs[i]);
      xmax = std::max(xmax, s.xs[i]);
    }
  }
  for (const auto& r : c.refs) {
    ymin = std::min(ymin, r.y);
    ymax = std::max(ymax, r.y);
  }

  // Header: the y unit, the title, and the x unit right-aligned on the title's line, or on a line of
  // its own under it where both do not fit.
  const std::string xlabel = x_label(c.x_unit);
  const float xlabel_w = ImGui::CalcTextSize(xlabel.c_str()).x;
  const float unit_w = std::max(fh * 4.0f, ImGui::CalcTextSize(c.y_unit.c_str()).x + fh * 0.6f);
  const bool xlabel_below = unit_w + ImGui::CalcTextSize(c.title.c_str()).x + fh + xlabel_w > c.size.x - fh * 0.5f;
  const float header_h = fh * (xlabel_below ? 2.6f : 1.5f);

  // Legend entries: the series (when more than one), then reference lines whose label found no free
  // place by the line. Laid out in rows under the axis, so the plot area leaves room for them.
  std::vector<bool> ref_in_legend(c.refs.size(), false);
  struct Entry {
    const std::string* label;
    ImU32 color;
    bool dashed;
  };
  std::vector<Entry> entries;
  std::vector<ImVec2> legend_at;
  int legend_rows = 0;
  ImVec2 p0, p1;
  YScale ys;
  float axis_w = unit_w;
  std::vector<Rect> ref_label_at(c.refs.size(), Rect{0, 0, 0, 0});
  auto fx = [&](double x) { return log2x ? std::log2(x) : x; };
  const double x0 = series.empty() ? 0 : fx(xmin), x1 = series.empty() ? 1 : xmax > xmin ? fx(xmax) : fx(xmin) + 1;
  const float pad = fh * 0.8f;
  auto px = [&](double x) { return p0.x + pad + static_cast<float>((fx(x) - x0) / (x1 - x0)) * (p1.x - p0.x - 2 * pad); };
  // Lays the plot out for the current legend; returns false if there is no room.
  auto layout = [&]() {
    entries.clear();
    legend_at.clear();
    if (series.size() > 1) {
      for (const Series& s : series) entries.push_back({&s.label, s.color, s.dashed});
    }
    for (size_t i = 0; i < c.refs.size(); ++i) {
      if (ref_in_legend[i]) entries.push_back({&c.refs[i].label, c.refs[i].color, true});
    }
    legend_rows = entries.empty() ? 0 : 1;
    float lx = c.pos.x + unit_w;
    for (const Entry& e : entries) {
      const float w = fh * 1.6f + ImGui::CalcTextSize(e.label->c_str()).x;
      if (lx + w > c.pos.x + c.size.x && lx > c.pos.x + unit_w) {
        lx = c.pos.x + unit_w;
        ++legend_rows;
      }
      legend_at.emplace_back(lx, static_cast<float>(legend_rows - 1));
      lx += w;
    }
    const float top_y = c.pos.y + header_h;
    const float bottom_y = c.pos.y + c.size.y - fh * (1.5f + 1.2f * static_cast<float>(legend_rows));
    if (bottom_y - top_y < fh * 2) return false;
    ys = logy ? log_scale(ymin, ymax, bottom_y - top_y, fh * 1.2f)
              : linear_scale(ymax, 1.05, bottom_y - top_y, fh * 1.2f);
    ys.y0 = top_y;
    ys.y1 = bottom_y;
    axis_w = std::max(unit_w, ys.label_width() + fh * 0.6f);
    p0 = ImVec2(c.pos.x + axis_w, top_y);
    p1 = ImVec2(c.pos.x + c.size.x - fh * 0.5f, bottom_y);
    return p1.x - p0.x >= fh * 2;
  };
  // Places the reference lines' labels by their lines where they cover no data and no other label;
  // returns false if one found no place (it then goes into the legend, and the layout is redone).
  const bool markers = !(c.flags & PlotFlags_NoMarkers);
  auto place_refs = [&]() {
    std::vector<Rect> taken;
    for (size_t i = 0; i < c.refs.size(); ++i) {
      if (ref_in_legend[i]) continue;
      const RefLine& r = c.refs[i];
      const float y = ys.py(r.y);
      const ImVec2 ts = ImGui::CalcTextSize(r.label.c_str());
      bool placed = false;
      for (int side = 0; side < 6 && !placed; ++side) {
        const float lx = side % 3 == 0 ? p1.x - ts.x - 4 : side % 3 == 1 ? p0.x + 4 : (p0.x + p1.x - ts.x) / 2;
        const float ly = side < 3 ? y - ts.y - 1 : y + 2;
        const Rect box{lx - 2, ly - 1, lx + ts.x + 2, ly + ts.y + 1};
        bool free = box.y0 >= p0.y && box.y1 <= p1.y && box.x0 >= p0.x && box.x1 <= p1.x;
        for (const Rect& t : taken) free = free && !t.overlaps(box);
        for (size_t j = 0; j < c.refs.size() && free; ++j) {
          const float yj = ys.py(c.refs[j].y);
          free = j == i || yj < box.y0 || yj > box.y1;
        }
        for (const Series& s : series) {
          for (size_t k = 0; k < s.xs.size() && free; ++k) {
            const ImVec2 a(px(s.xs[k]), ys.py(s.ys[k]));
            const float m = markers || s.markers ? 4.0f : 1.0f;
            free = !Rect{box.x0 - m, box.y0 - m, box.x1 + m, box.y1 + m}.contains(a);
            if (free && k + 1 < s.xs.size()) free = !segment_hits(a, ImVec2(px(s.xs[k + 1]), ys.py(s.ys[k + 1])), box);
          }
        }
        if (free) {
          ref_label_at[i] = Rect{lx, ly, lx + ts.x, ly + ts.y};
          taken.push_back(box);
          placed = true;
        }
      }
      if (!placed) {
        ref_in_legend[i] = true;
        return false;
      }
    }
    return true;
  };
  bool room = layout();
  for (size_t tries = 0; room && !series.empty() && tries <= c.refs.size() && !place_refs(); ++tries) room = layout();
  if (!room) {
    ImGui::PopID();
    return;
  }

  dl->AddText(c.pos, text, c.y_unit.c_str());
  dl->AddText(ImVec2(c.pos.x + unit_w, c.pos.y), text, c.title.c_str());
  // The x unit sits in the header, so it never collides with tick labels or the legend.
  dl->AddText(ImVec2(c.pos.x + c.size.x - xlabel_w - fh * 0.5f, c.pos.y + (xlabel_below ? fh * 1.2f : 0)), dim,
              xlabel.c_str());
  draw_y_grid(dl, ys, p0.x, p1.x);
  if (series.empty()) {
    const char* none = _("no timings yet");
    ImVec2 ts = ImGui::CalcTextSize(none);
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2), dim, none);
    ImGui::PopID();
    return;
  }
  // x ticks: every data x on a log2 axis, else five nice values; a label that would touch the one
  // before it is left out (the hover still tells every point's x).
  char buf[64];
  std::vector<double> ticks;
  if (log2x) {
    for (const auto& s : series) ticks.insert(ticks.end(), s.xs.begin(), s.xs.end());
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  } else {
    const double xstep = NiceStep(xmax - xmin > 0 ? xmax - xmin : 1, 5);
    for (double v = std::ceil(xmin / xstep) * xstep; v <= xmax + 1e-9; v += xstep) ticks.push_back(v);
  }
  // "2^20" for a power of two when asked (N), else the number.
  auto x_text = [&](double x, char* out, size_t size) {
    const double e = std::log2(x);
    if (c.x_format) c.x_format(x, out, static_cast<int>(size), c.x_format_user);
    else if ((c.flags & PlotFlags_Pow2Labels) && x >= 1 && e == std::floor(e)) std::snprintf(out, size, "2^%.0f", e);
    else std::snprintf(out, size, "%g", x);
  };
  float last_right = -1e9f;
  for (double t : ticks) {
    x_text(t, buf, sizeof buf);
    const ImVec2 ts = ImGui::CalcTextSize(buf);
    const float lx = std::max(c.pos.x, std::min(px(t) - ts.x / 2, c.pos.x + c.size.x - ts.x));
    if (lx < last_right + fh * 0.6f) continue;
    dl->AddText(ImVec2(lx, p1.y + fh * 0.2f), text, buf);
    last_right = lx + ts.x;
  }
  for (size_t i = 0; i < c.refs.size(); ++i) {
    const RefLine& r = c.refs[i];
    dashed(dl, p0.x, p1.x, ys.py(r.y), r.color);
    if (!ref_in_legend[i]) dl->AddText(ImVec2(ref_label_at[i].x0, ref_label_at[i].y0), r.color, r.label.c_str());
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Series* hs = nullptr;
  size_t hi = 0;
  float best = fh * fh;  // hover radius^2
  dl->PushClipRect(p0, ImVec2(p1.x, p1.y + 1), true);
  for (const auto& s : series) {
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < s.xs.size(); ++i) pts.emplace_back(px(s.xs[i]), ys.py(s.ys[i]));
    if (pts.size() > 1 && s.dashed) dashed_path(dl, pts.data(), static_cast<int>(pts.size()), s.color, 2.0f);
    else if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.color, 0, 2.0f);
    for (size_t i = 0; i < pts.size(); ++i) {
      if (markers || s.markers) dl->AddCircleFilled(pts[i], 3.5f, s.color);
      const float dx = pts[i].x - mouse.x, dy = pts[i].y - mouse.y;
      if (dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        hs = &s;
        hi = i;
      }
    }
  }
  dl->PopClipRect();
  // Legend: coloured swatches (a dash for a reference line) in the rows laid out above.
  for (size_t i = 0; i < legend_at.size(); ++i) {
    const float lx = legend_at[i].x, ly = p1.y + fh * (1.4f + 1.2f * legend_at[i].y);
    if (entries[i].dashed) dashed(dl, lx, lx + fh * 0.8f, ly + fh * 0.6f, entries[i].color);
    else dl->AddRectFilled(ImVec2(lx, ly + fh * 0.2f), ImVec2(lx + fh * 0.8f, ly + fh), entries[i].color);
    dl->AddText(ImVec2(lx + fh, ly), text, entries[i].label->c_str());
  }
  if (hs && ImGui::IsWindowHovered()) {
    dl->AddCircle(ImVec2(px(hs->xs[hi]), ys.py(hs->ys[hi])), 6, text, 0, 2);
    x_text(hs->xs[hi], buf, sizeof buf);
    // TRANSLATORS: a point's hover: series: x unit, x value, y unit, y value ("reduce0: threads per block 256, ms 0.42").
    ImGui::SetTooltip(_("%s: %s %s, %s %.4g"), hs->label.c_str(), c.x_unit.c_str(), buf, c.y_unit.c_str(), hs->ys[hi]);
  }
  ImGui::PopID();
}

}  // namespace rs::plot
