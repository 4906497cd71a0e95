// A small plotting module in ImPlot's begin/end style, drawn with ImDrawList (Debian has no
// ImPlot). Only what ReduceScope needs: vertical bar charts and line plots with a zero-based
// value axis, grid lines at "nice" steps, a legend, and values on hover.
//
//   if (plot::BeginBarChart("##times", "median time", "ms")) {
//     plot::Bar("reduce0", 0.42, color, "reduce0: 0.42 ms");
//     plot::EndBarChart();
//   }
//   if (plot::BeginPlot("##bs", "time vs block size", "threads per block", "ms", {}, plot::PlotFlags_LogX2)) {
//     plot::Line("reduce0", xs, ys, 6, color);
//     plot::HLine("CUB", 0.036, grey);
//     plot::EndPlot();
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

enum PlotFlags : int {
  PlotFlags_None = 0,
  PlotFlags_LogX2 = 1 << 0,     // x axis in powers of two (block sizes), ticks at each data x
  PlotFlags_NoMarkers = 1 << 1, // lines without point markers (dense series)
  PlotFlags_Pow2Labels = 1 << 2, // x ticks and hover labelled 2^k where x is a power of two (N sweeps)
};

// Starts a line plot filling `size` (0 = the rest of the window). Returns false if there is
// no room; then do not call Line(), HLine() or EndPlot().
bool BeginPlot(const char* id, const char* title, const char* x_unit, const char* y_unit, ImVec2 size = ImVec2(0, 0),
               int flags = PlotFlags_None);
// Adds a series of `count` points (copied). Hovering a point shows "label: x, y".
void Line(const char* label, const double* xs, const double* ys, int count, ImU32 color);
// Adds a horizontal reference line at `y` (e.g. a copy ceiling), labelled at its right end.
void HLine(const char* label, double y, ImU32 color);
// Draws the axes, grid, series, legend and the hover tooltip.
void EndPlot();

// The "nice" grid step (1, 2 or 5 x 10^k) for an axis from 0 to `max` with about `ticks` lines.
double NiceStep(double max, int ticks);

}  // namespace rs::plot
