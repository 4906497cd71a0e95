// A small plotting module in ImPlot's begin/end style, drawn with ImDrawList (Debian has no
// ImPlot). Only what ReduceScope needs: vertical bar charts and line plots with a zero-based or
// logarithmic value axis, grid lines at "nice" steps, a legend, and values on hover.
//
//   if (plot::BeginBarChart("##times", "median time", "ms")) {
//     plot::Bar("reduce0", 0.42, color, "reduce0: 0.42 ms");
//     plot::EndBarChart();
//   }
//   if (plot::BeginPlot("##bs", "time vs block size", "threads per block", "ms", {},
//                       plot::PlotFlags_LogX2 | plot::PlotFlags_LogY)) {
//     plot::Line("reduce0", xs, ys, 6, color);
//     plot::HLine("CUB", 0.036, grey);
//     plot::EndPlot();
//   }
//
// No text overlaps the data or other text: a title too long for its line wraps (bar charts) or
// pushes the x unit to a line of its own (line plots); y ticks thin out to a text line apart; x tick
// labels that would touch their neighbour are skipped; bar labels that do not fit their slot
// (even shortened) alternate between two rows and are cut to two slots; a reference line's label
// goes where it covers no line, marker or other label, else into the legend.
//
// Titles, units, labels and tooltips are drawn as given: the caller passes them translated (_(), issue 31),
// and every width is measured on that text. The module's own words ("no timings yet", "x: <unit>", a point's
// hover) are translated here.
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
  PlotFlags_LogY = 1 << 3,      // y axis in decades, from the 1-2-5 value below the data to the one above,
                                // ticked at 1, 2 and 5 x 10^k (only 10^k where those would crowd);
                                // values <= 0 are left out
};

// Starts a line plot filling `size` (0 = the rest of the window). Returns false if there is
// no room; then do not call Line(), HLine() or EndPlot().
bool BeginPlot(const char* id, const char* title, const char* x_unit, const char* y_unit, ImVec2 size = ImVec2(0, 0),
               int flags = PlotFlags_None);
// Labels x values (the ticks and the hover) with `formatter` instead of "%g" or 2^k, until EndPlot: it
// writes the label of `value` into `buf` (`size` bytes) and returns its length (ImPlot's formatter
// shape); `user` is passed through. Call after BeginPlot.
using Formatter = int (*)(double value, char* buf, int size, void* user);
void SetupXFormat(Formatter formatter, void* user = nullptr);

enum LineFlags : int {
  LineFlags_None = 0,
  LineFlags_Dashed = 1 << 0,  // a dashed line (a measured reference, e.g. a copy's bandwidth); dashed in the legend
  LineFlags_Markers = 1 << 1, // point markers even in a PlotFlags_NoMarkers plot (a sparse series among dense ones)
};
// Adds a series of `count` points (copied). Hovering a point shows "label: x, y".
void Line(const char* label, const double* xs, const double* ys, int count, ImU32 color, int flags = LineFlags_None);
// Adds a dashed horizontal reference line at `y` (e.g. a copy ceiling). Its label sits by the line
// where it covers no data and no other label (right end, then left end, then the middle; above the
// line, then below), else it goes into the legend with a dashed swatch.
void HLine(const char* label, double y, ImU32 color);
// Draws the axes, grid, series, legend and the hover tooltip.
void EndPlot();

// The "nice" grid step (1, 2 or 5 x 10^k) for an axis from 0 to `max` with about `ticks` lines.
double NiceStep(double max, int ticks);

}  // namespace rs::plot
