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
  ImVec2 p1(c.pos.x + c.size.x - fh * 0.5f, c.pos.y + c.size.y - fh * 1.6f);  // bottom-right
  if (p1.y - p0.y < fh || p1.x - p0.x < fh) {
    ImGui::PopID();
    return;
  }
  char buf[64];
  for (double v = 0; v <= top + step * 0.5; v += step) {
    float y = p1.y - static_cast<float>(v / top) * (p1.y - p0.y);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    std::snprintf(buf, sizeof buf, step < 0.01 ? "%.3f" : step < 0.1 ? "%.2f" : step < 1 ? "%.1f" : "%.0f", v);
    ImVec2 ts = ImGui::CalcTextSize(buf);
    dl->AddText(ImVec2(p0.x - ts.x - fh * 0.3f, y - ts.y * 0.5f), text, buf);
  }
  dl->AddText(c.pos, text, c.unit.c_str());
  dl->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), text);

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
    dl->AddText(ImVec2(x0 + (bw - ls.x) / 2, p1.y + fh * 0.2f), text, lab.c_str());
    bool hover = mouse.x >= x0 && mouse.x <= x0 + bw && mouse.y >= p0.y && mouse.y <= p1.y;
    if (hover && ImGui::IsWindowHovered()) {
      dl->AddRect(a, z, text, 0, 0, 2.0f);
      ImGui::SetTooltip("%s", b.tooltip.empty() ? b.label.c_str() : b.tooltip.c_str());
    }
  }
  ImGui::PopID();
}

}  // namespace rs::plot
