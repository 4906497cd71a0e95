// A small plotting module in ImPlot's begin/end style, drawn with ImDrawList (Debian has no
// ImPlot). Only what ReduceScope needs: vertical bar charts with a zero-based value axis,
// grid lines at "nice" steps, and values on hover.
//
//   if (plot::BeginBarChart("##times", "median time", "ms")) {
//     plot::Bar("reduce0", 0.42, color, "reduce0: 0.42 ms");
//     plot::EndBarChart();
//   }
#pragma once

#include <imgui.h>

namespace rs::plot {

// Starts a chart filling `size` (0 = the rest of the window). Returns false if there is no
// room; then do not call Bar() or EndBarChart().
bool BeginBarChart(const char* id, const char* title, const char* y_unit, ImVec2 size = ImVec2(0, 0));
// Adds one bar. `value` is in y_unit; `tooltip` (optional) shows when the mouse is over it;
// `short_label` (optional) is drawn instead of `label` when the label is wider than its slot.
void Bar(const char* label, double value, ImU32 color, const char* tooltip = nullptr,
         const char* short_label = nullptr);
// Draws the axis, the grid and the bars added since BeginBarChart.
void EndBarChart();

// The "nice" grid step (1, 2 or 5 x 10^k) for an axis from 0 to `max` with about `ticks` lines.
double NiceStep(double max, int ticks);

}  // namespace rs::plot
