// What one chart shows, as data, and what each kind of chart needs to describe and write it: a
// ChartSpec (bars or lines, reference lines, title, caption, axis titles), locale-independent numbers
// for labels and CSV (chart_format.cpp), and writing a chart as PNG, SVG and PDF, with its CSV, through a
// temporary file (chart_files.cpp). Internal to app/export; the public interface is charts.hpp. The
// chart kinds: chart_kernels.cpp (per kernel at one block size, and Harris's table), chart_blocksize.cpp
// (against block size), chart_sweep.cpp (against N), chart_multigpu.cpp (busbw against size); chart_render.cpp
// draws any ChartSpec.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "charts.hpp"
#include "markup.hpp"  // csv_field

namespace rs::chart {

namespace fs = std::filesystem;

// ---- Formatting (chart_format.cpp) --------------------------------------------------------
// Locale-independent: a GUI that calls setlocale() still gets '.' decimals.

std::string group_thousands(std::string s);
std::string fixed(double v, int decimals);
std::string sig3(double v);
std::string csv_num(double v);
using rs::csv_field;  // app/markup.hpp
std::string join(const std::vector<uint32_t>& v, const char* sep);

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
  bool reference = false;     // a measured ceiling drawn in the reference lines' grey, dashed (the P2P copy)
  bool marked = true;         // false: the line without markers (the roofline's ceiling, through the origin)
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
  std::vector<uint64_t> x_ticks;     // line chart: the x values to label
  std::vector<std::string> x_tick_labels;  // their labels ("2^20"), or empty for the numbers
  std::vector<RefLine> refs;         // dashed horizontal lines, labelled right of the plot
  bool log_y = false;                // line chart: the value axis in decades (1-2-5 ticks), not from 0
  bool linear_x = false;             // line chart: x on a linear axis from 0, ticks chosen as the value axis'
                                     // (x_ticks unused): the roofline's time
};

// ---- Files (chart_files.cpp) -----------------------------------------------------------------

// Creates `dir` (and its parents) if missing; throws ExportError where it cannot (a file of that name).
fs::path make_folder(const std::string& dir);
void write_text(const fs::path& path, const std::string& text);
void write_images(const fs::path& dir, const std::string& stem, const ChartSpec& c, ChartFiles& files);
void write_chart(const fs::path& dir, const std::string& stem, const ChartSpec& c, const std::string& csv,
                 ChartFiles& files);

}  // namespace rs::chart
