#include "plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

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
  bool open = false;
};
LinePlot g_plot;

const char* tick_format(double step) { return step < 0.01 ? "%.3f" : step < 0.1 ? "%.2f" : step < 1 ? "%.1f" : "%.0f"; }

// Horizontal grid lines and their labels from 0 to `top` every `step`, left of x0.
void draw_y_grid(ImDrawList* dl, ImVec2 p0, ImVec2 p1, double top, double step) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);
  const float fh = ImGui::GetFontSize();
  char buf[64];
  for (double v = 0; v <= top + step * 0.5; v += step) {
    float y = p1.y - static_cast<float>(v / top) * (p1.y - p0.y);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    std::snprintf(buf, sizeof buf, tick_format(step), v);
    ImVec2 ts = ImGui::CalcTextSize(buf);
    dl->AddText(ImVec2(p0.x - ts.x - fh * 0.3f, y - ts.y * 0.5f), text, buf);
  }
  dl->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), text);
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
  dl->AddText(ImVec2(c.pos.x + fh * 4.0f, c.pos.y), text, c.title.c_str());

  double max = 0;
  for (const auto& b : c.bars) max = std::max(max, b.value);
  const double step = NiceStep(max > 0 ? max : 1, 4);
  const double top = std::ceil((max > 0 ? max : 1) / step) * step;
  const float axis_w = fh * 4.0f;
  ImVec2 p0(c.pos.x + axis_w, c.pos.y + fh * 1.5f);          // plot area top-left
  ImVec2 p1(c.pos.x + c.size.x - fh * 0.5f, c.pos.y + c.size.y - fh * 2.3f);  // bottom-right (room for staggered labels)
  if (p1.y - p0.y < fh || p1.x - p0.x < fh) {
    ImGui::PopID();
    return;
  }
  draw_y_grid(dl, p0, p1, top, step);
  dl->AddText(c.pos, text, c.unit.c_str());

  const size_t n = c.bars.size();
  if (n == 0) {
    const char* none = "no timings yet";
    ImVec2 ts = ImGui::CalcTextSize(none);
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2), grid, none);
    ImGui::PopID();
    return;
  }
  const float slot = (p1.x - p0.x) / static_cast<float>(n);
  const float bw = slot * 0.7f;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t i = 0; i < n; ++i) {
    const BarItem& b = c.bars[i];
    float x0 = p0.x + slot * static_cast<float>(i) + (slot - bw) / 2;
    float y0 = p1.y - static_cast<float>(b.value / top) * (p1.y - p0.y);
    ImVec2 a(x0, y0), z(x0 + bw, p1.y);
    dl->AddRectFilled(a, z, b.color);
    const std::string& lab = ImGui::CalcTextSize(b.label.c_str()).x <= slot - 2 ? b.label : b.short_label;
    ImVec2 ls = ImGui::CalcTextSize(lab.c_str());
    // A label wider than its slot even shortened: every second bar's, alternating up and down a line.
    const bool stagger = ls.x > slot - 2;
    dl->AddText(ImVec2(x0 + (bw - ls.x) / 2, p1.y + fh * (stagger && i % 2 ? 1.1f : 0.2f)), text, lab.c_str());
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
  g_plot = LinePlot{title, x_unit, y_unit, ImGui::GetCursorScreenPos(), size, flags, {}, {}, true};
  ImGui::InvisibleButton("##plot", size);
  return true;
}

void Line(const char* label, const double* xs, const double* ys, int count, ImU32 color) {
  if (!g_plot.open || count <= 0) return;
  g_plot.series.push_back({label, std::vector<double>(xs, xs + count), std::vector<double>(ys, ys + count), color});
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
  dl->AddText(ImVec2(c.pos.x + fh * 4.0f, c.pos.y), text, c.title.c_str());
  dl->AddText(c.pos, text, c.y_unit.c_str());

  double ymax = 0, xmin = 1e300, xmax = -1e300;
  for (const auto& s : c.series) {
    for (size_t i = 0; i < s.xs.size(); ++i) {
      ymax = std::max(ymax, s.ys[i]);
      xmin = std::min(xmin, s.xs[i]);
      xmax = std::max(xmax, s.xs[i]);
    }
  }
  for (const auto& r : c.refs) ymax = std::max(ymax, r.y);
  const double step = NiceStep(ymax > 0 ? ymax : 1, 4);
  const double top = std::ceil((ymax > 0 ? ymax * 1.05 : 1) / step) * step;
  // Legend entries laid out in rows under the axis first, so the plot area leaves room for them.
  std::vector<ImVec2> legend_at;
  int legend_rows = 0;
  if (c.series.size() > 1) {
    float lx = c.pos.x + fh * 4.0f;
    legend_rows = 1;
    for (const auto& s : c.series) {
      const float w = fh * 1.6f + ImGui::CalcTextSize(s.label.c_str()).x;
      if (lx + w > c.pos.x + c.size.x && lx > c.pos.x + fh * 4.0f) {
        lx = c.pos.x + fh * 4.0f;
        ++legend_rows;
      }
      legend_at.emplace_back(lx, static_cast<float>(legend_rows - 1));
      lx += w;
    }
  }
  ImVec2 p0(c.pos.x + fh * 4.0f, c.pos.y + fh * 1.5f);
  ImVec2 p1(c.pos.x + c.size.x - fh * 0.5f, c.pos.y + c.size.y - fh * (1.5f + 1.2f * legend_rows));
  if (p1.y - p0.y < fh || p1.x - p0.x < fh) {
    ImGui::PopID();
    return;
  }
  draw_y_grid(dl, p0, p1, top, step);
  // The x unit sits in the title line, so it never collides with tick labels or the legend.
  const std::string xlabel = "x: " + c.x_unit;
  const ImVec2 xs = ImGui::CalcTextSize(xlabel.c_str());
  dl->AddText(ImVec2(c.pos.x + c.size.x - xs.x - fh * 0.5f, c.pos.y), ImGui::GetColorU32(ImGuiCol_TextDisabled),
              xlabel.c_str());
  if (c.series.empty()) {
    const char* none = "no timings yet";
    ImVec2 ts = ImGui::CalcTextSize(none);
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2), dim, none);
    ImGui::PopID();
    return;
  }
  auto fx = [&](double x) { return log2x ? std::log2(x) : x; };
  const double x0 = fx(xmin), x1 = xmax > xmin ? fx(xmax) : fx(xmin) + 1;
  const float pad = fh * 0.8f;
  auto px = [&](double x) { return p0.x + pad + static_cast<float>((fx(x) - x0) / (x1 - x0)) * (p1.x - p0.x - 2 * pad); };
  auto py = [&](double y) { return p1.y - static_cast<float>(y / top) * (p1.y - p0.y); };
  // x ticks: every data x on a log2 axis, else five nice values.
  char buf[64];
  std::vector<double> ticks;
  if (log2x) {
    for (const auto& s : c.series) ticks.insert(ticks.end(), s.xs.begin(), s.xs.end());
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  } else {
    const double xstep = NiceStep(xmax - xmin > 0 ? xmax - xmin : 1, 5);
    for (double v = std::ceil(xmin / xstep) * xstep; v <= xmax + 1e-9; v += xstep) ticks.push_back(v);
  }
  // "2^20" for a power of two when asked (N), else the number.
  auto x_text = [&](double x, char* out, size_t size) {
    const double e = std::log2(x);
    if ((c.flags & PlotFlags_Pow2Labels) && x >= 1 && e == std::floor(e)) std::snprintf(out, size, "2^%.0f", e);
    else std::snprintf(out, size, "%g", x);
  };
  for (double t : ticks) {
    x_text(t, buf, sizeof buf);
    ImVec2 ts = ImGui::CalcTextSize(buf);
    dl->AddText(ImVec2(px(t) - ts.x / 2, p1.y + fh * 0.2f), text, buf);
  }
  float last_label_y = -1e9f;  // labels of close lines go below their line instead of on top of another
  for (const auto& r : c.refs) {
    const float y = py(r.y);
    for (float x = p0.x; x < p1.x; x += 10) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 5, p1.x), y), r.color, 1.5f);
    ImVec2 ts = ImGui::CalcTextSize(r.label.c_str());
    float ly = y - ts.y - 1;
    if (std::fabs(ly - last_label_y) < ts.y) ly = y + 2;
    last_label_y = ly;
    dl->AddText(ImVec2(p1.x - ts.x - 4, ly), r.color, r.label.c_str());
  }
  const bool markers = !(c.flags & PlotFlags_NoMarkers);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Series* hs = nullptr;
  size_t hi = 0;
  float best = fh * fh;  // hover radius^2
  dl->PushClipRect(p0, ImVec2(p1.x, p1.y + 1), true);
  for (const auto& s : c.series) {
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < s.xs.size(); ++i) pts.emplace_back(px(s.xs[i]), py(s.ys[i]));
    if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.color, 0, 2.0f);
    for (size_t i = 0; i < pts.size(); ++i) {
      if (markers) dl->AddCircleFilled(pts[i], 3.5f, s.color);
      const float dx = pts[i].x - mouse.x, dy = pts[i].y - mouse.y;
      if (dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        hs = &s;
        hi = i;
      }
    }
  }
  dl->PopClipRect();
  // Legend: coloured swatches in the rows laid out above.
  for (size_t i = 0; i < legend_at.size(); ++i) {
    const float lx = legend_at[i].x, ly = p1.y + fh * (1.4f + 1.2f * legend_at[i].y);
    dl->AddRectFilled(ImVec2(lx, ly + fh * 0.2f), ImVec2(lx + fh * 0.8f, ly + fh), c.series[i].color);
    dl->AddText(ImVec2(lx + fh, ly), text, c.series[i].label.c_str());
  }
  if (hs && ImGui::IsWindowHovered()) {
    dl->AddCircle(ImVec2(px(hs->xs[hi]), py(hs->ys[hi])), 6, text, 0, 2);
    x_text(hs->xs[hi], buf, sizeof buf);
    ImGui::SetTooltip("%s: %s %s, %s %.4g", hs->label.c_str(), c.x_unit.c_str(), buf, c.y_unit.c_str(), hs->ys[hi]);
  }
  ImGui::PopID();
}

}  // namespace rs::plot
