// Chart export (app/export): the files each export writes, their formats (PNG size, SVG, PDF),
// the numbers in the CSVs against the session's, Harris's speedups, bar heights in the PNG, and
// every refusal (no timings, absent block size, a folder that cannot be made, a file that
// cannot be written). Sessions are built in memory.
#include <gtest/gtest.h>

#include <cairo/cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "charts.hpp"
#include "kernel_info.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kN = uint64_t{1} << 24;
constexpr double kPeak = 3352, kCopy = 2900;

// Median at block size 256, in slide order; slower at smaller blocks. Two kernels outside the
// kernel table (one with a comma in its name) go after reduce6, in name order.
const std::vector<std::pair<std::string, double>> kMedian256 = {
    {"reduce0", 0.32},  {"reduce1", 0.16},  {"reduce2", 0.09},      {"reduce3", 0.055},     {"reduce4", 0.048},
    {"reduce5", 0.046}, {"reduce6", 0.043}, {"alpha_custom", 0.05}, {"beta,custom", 0.045}};
const std::vector<uint32_t> kBlockSizes = {32, 128, 256};

SessionTiming timing(const std::string& kernel, uint32_t bs, double median) {
  SessionTiming t;
  t.kernel = kernel;
  t.block_size = bs;
  t.median_ms = median;
  t.min_ms = median * 0.97;
  t.max_ms = median * 1.06;
  t.samples = 20;
  t.gbps = kN * 4.0 / (median * 1e6);
  t.pct_peak = t.gbps / kPeak * 100;
  return t;
}

// reduce4..reduce6 need 64 threads, so they have no timing at 32; the custom kernels only have
// one at 256; reduce3 at 128 summed wrong.
Session make_session() {
  Session s;
  s.meta.gpu = "Test GPU 9000";
  s.meta.compute_capability = "9.0";
  s.meta.cuda_version = "13.0";
  s.meta.date = "2025-01-02T03:04:05Z";
  s.meta.tool_version = "0.1.0";
  s.meta.pattern = "random";
  s.meta.method = "median of 20 CUDA-event timed runs after 3 warm-ups, L2 flushed before each";
  s.meta.n = kN;
  s.meta.samples = 20;
  s.meta.warmups = 3;
  s.meta.peak_gbps = kPeak;
  s.meta.copy_gbps = kCopy;
  s.meta.cub_ms = 0.026;
  s.meta.cub_gbps = kN * 4.0 / (0.026 * 1e6);
  // Reverse order on purpose: the export must sort.
  for (auto it = kMedian256.rbegin(); it != kMedian256.rend(); ++it) {
    const bool custom = it->first.rfind("reduce", 0) != 0;
    const bool needs64 = it->first >= "reduce4" && !custom;
    for (uint32_t bs : kBlockSizes) {
      if ((custom && bs != 256) || (needs64 && bs < 64)) continue;
      const double factor = bs == 32 ? 1.3 : bs == 128 ? 1.1 : 1.0;
      s.timings.push_back(timing(it->first, bs, it->second * factor));
      if (it->first == "reduce3" && bs == 128) s.timings.back().correct = false;
    }
  }
  return s;
}

const SessionTiming& find(const Session& s, const std::string& kernel, uint32_t bs) {
  for (const SessionTiming& t : s.timings)
    if (t.kernel == kernel && t.block_size == bs) return t;
  throw std::logic_error("no timing for " + kernel);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using CsvRow = std::map<std::string, std::string>;

// A small RFC 4180 reader: quoted fields with doubled quotes; rows keyed by the header.
std::vector<CsvRow> read_csv(const fs::path& p, std::vector<std::string>* header = nullptr) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  const std::string text = read_file(p);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
    } else if (c == '\n') {
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      any = false;
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(any) << p << " does not end with a newline";
  EXPECT_FALSE(rows.empty()) << p;
  if (rows.empty()) return {};
  if (header) *header = rows[0];
  std::vector<CsvRow> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r].size(), rows[0].size()) << p << " row " << r;
    CsvRow m;
    for (size_t i = 0; i < rows[r].size() && i < rows[0].size(); ++i) m[rows[0][i]] = rows[r][i];
    out.push_back(m);
  }
  return out;
}

double num(const CsvRow& r, const std::string& col) {
  const auto it = r.find(col);
  if (it == r.end()) ADD_FAILURE() << "no column " << col;
  return it == r.end() ? NAN : std::stod(it->second);
}

// %.6g in the CSV: six significant digits.
void expect_close(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, std::abs(want) * 1e-5) << what;
}

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("rs_export_test_" + std::to_string(getpid()) + "_" + info->name()) / "charts";
    fs::remove_all(dir_.parent_path());
  }
  void TearDown() override { fs::remove_all(dir_.parent_path()); }

  fs::path dir_;
  Session session_ = make_session();
};

std::set<std::string> chart_names(const std::vector<uint32_t>& sizes) {
  std::set<std::string> names;
  const auto add4 = [&](const std::string& stem) {
    for (const char* ext : {".png", ".svg", ".pdf", ".csv"}) names.insert(stem + ext);
  };
  for (uint32_t bs : sizes) {
    add4("kernels_time_bs" + std::to_string(bs));
    add4("kernels_bandwidth_bs" + std::to_string(bs));
    names.insert("harris_table_bs" + std::to_string(bs) + ".csv");
  }
  add4("blocksize_time");
  add4("blocksize_bandwidth");
  for (const char* ext : {".png", ".svg", ".pdf"}) names.insert(std::string("blocksize_time_log") + ext);
  return names;
}

TEST_F(ExportTest, EveryBlockSizeWritesEveryFile) {
  const ChartFiles files = export_charts(session_, dir_.string());
  std::set<std::string> returned;
  for (const std::string& p : files.paths) {
    EXPECT_EQ(fs::path(p).parent_path(), dir_) << p;
    EXPECT_GT(fs::file_size(p), 0u) << p;
    returned.insert(fs::path(p).filename().string());
  }
  EXPECT_EQ(files.paths.size(), returned.size()) << "a path returned twice";
  EXPECT_EQ(returned, chart_names(kBlockSizes));
  // Nothing else in the folder: no temporary files left behind.
  std::set<std::string> on_disk;
  for (const auto& e : fs::directory_iterator(dir_)) on_disk.insert(e.path().filename().string());
  EXPECT_EQ(on_disk, returned);
}

TEST_F(ExportTest, OneBlockSizeWritesOnlyItsCharts) {
  const ChartFiles files = export_charts(session_, dir_.string(), 128);
  std::set<std::string> returned;
  for (const std::string& p : files.paths) returned.insert(fs::path(p).filename().string());
  EXPECT_EQ(returned, chart_names({128}));
  EXPECT_FALSE(fs::exists(dir_ / "kernels_time_bs256.png"));
}

TEST_F(ExportTest, PngHasSignatureAndSize) {
  export_charts(session_, dir_.string(), 256);
  for (const char* name : {"kernels_time_bs256.png", "kernels_bandwidth_bs256.png", "blocksize_time.png",
                           "blocksize_bandwidth.png"}) {
    const std::string png = read_file(dir_ / name);
    ASSERT_GT(png.size(), 33u) << name;
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << name;
    EXPECT_EQ(png.substr(12, 4), "IHDR") << name;
    const auto be32 = [&](size_t at) {
      return (uint32_t(uint8_t(png[at])) << 24) | (uint32_t(uint8_t(png[at + 1])) << 16) |
             (uint32_t(uint8_t(png[at + 2])) << 8) | uint32_t(uint8_t(png[at + 3]));
    };
    EXPECT_EQ(be32(16), 1600u) << name;
    EXPECT_EQ(be32(20), 1000u) << name;
  }
}

TEST_F(ExportTest, SvgAndPdfAreWellFormed) {
  export_charts(session_, dir_.string(), 256);
  for (const char* stem : {"kernels_time_bs256", "kernels_bandwidth_bs256", "blocksize_time", "blocksize_bandwidth"}) {
    const std::string svg = read_file(dir_ / (std::string(stem) + ".svg"));
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << stem;
    EXPECT_NE(svg.find("<svg"), std::string::npos) << stem;
    EXPECT_NE(svg.find("viewBox=\"0 0 800 500\""), std::string::npos) << stem;
    EXPECT_NE(svg.find("</svg>", svg.size() - 16), std::string::npos) << stem << ": not closed";
    // Bars, lines, grid and text glyphs: far more than an empty page's handful of paths.
    size_t paths = 0;
    for (size_t at = svg.find("<path"); at != std::string::npos; at = svg.find("<path", at + 1)) ++paths;
    EXPECT_GT(paths, 40u) << stem;

    const std::string pdf = read_file(dir_ / (std::string(stem) + ".pdf"));
    EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u) << stem;
    EXPECT_NE(pdf.find("%%EOF", pdf.size() - 16), std::string::npos) << stem;
  }
}

const std::vector<std::string> kTimingHeader = {"kernel",  "block_size", "median_ms", "min_ms",  "max_ms",
                                                "samples", "gbps",       "pct_peak",  "correct"};

// Rows in slide order then custom kernels by name; every value as recorded.
TEST_F(ExportTest, BarChartCsvHoldsTheSessionsNumbers) {
  export_charts(session_, dir_.string(), 0);
  for (const char* stem : {"kernels_time_bs", "kernels_bandwidth_bs"})
    for (uint32_t bs : kBlockSizes) {
      std::vector<std::string> header;
      const auto rows = read_csv(dir_ / (stem + std::to_string(bs) + ".csv"), &header);
      EXPECT_EQ(header, kTimingHeader);
      std::vector<std::string> want_order;
      for (const auto& [k, m] : kMedian256)
        for (const SessionTiming& t : session_.timings)
          if (t.kernel == k && t.block_size == bs) want_order.push_back(k);
      ASSERT_EQ(rows.size(), want_order.size()) << stem << bs;
      for (size_t i = 0; i < rows.size(); ++i) {
        const CsvRow& r = rows[i];
        EXPECT_EQ(r.at("kernel"), want_order[i]);
        const SessionTiming& t = find(session_, want_order[i], bs);
        const std::string what = t.kernel + " at " + std::to_string(bs);
        EXPECT_EQ(r.at("block_size"), std::to_string(bs)) << what;
        expect_close(num(r, "median_ms"), t.median_ms, what);
        expect_close(num(r, "min_ms"), t.min_ms, what);
        expect_close(num(r, "max_ms"), t.max_ms, what);
        expect_close(num(r, "gbps"), t.gbps, what);
        expect_close(num(r, "pct_peak"), t.pct_peak, what);
        EXPECT_EQ(r.at("samples"), "20") << what;
        EXPECT_EQ(r.at("correct"), t.correct ? "true" : "false") << what;
      }
    }
  // Spot check against a literal, not only against the session.
  const auto rows = read_csv(dir_ / "kernels_time_bs256.csv");
  EXPECT_EQ(rows[1].at("kernel"), "reduce1");
  EXPECT_EQ(rows[1].at("median_ms"), "0.16");
  const auto r128 = read_csv(dir_ / "kernels_time_bs128.csv");
  EXPECT_EQ(r128[3].at("kernel"), "reduce3");
  EXPECT_EQ(r128[3].at("correct"), "false");
  // Plain CSV: no comment lines, a '.' decimal point.
  const std::string text = read_file(dir_ / "kernels_time_bs256.csv");
  EXPECT_EQ(text.find('#'), std::string::npos);
  EXPECT_NE(text.find("\"beta,custom\""), std::string::npos) << "a name with a comma must be quoted";
  EXPECT_EQ(text.find("\"reduce"), std::string::npos) << "plain names must not be quoted";
}

// One row per plotted point: every timing once, kernel by kernel, block sizes ascending;
// reduce4..6 have no point at 32.
TEST_F(ExportTest, BlockSizeCsvHasOneRowPerPoint) {
  export_charts(session_, dir_.string(), 256);
  for (const char* name : {"blocksize_time.csv", "blocksize_bandwidth.csv"}) {
    std::vector<std::string> header;
    const auto rows = read_csv(dir_ / name, &header);
    EXPECT_EQ(header, kTimingHeader);
    ASSERT_EQ(rows.size(), session_.timings.size()) << name;
    std::vector<std::pair<std::string, uint32_t>> want;
    for (const auto& [k, m] : kMedian256)
      for (uint32_t bs : kBlockSizes)
        for (const SessionTiming& t : session_.timings)
          if (t.kernel == k && t.block_size == bs) want.push_back({k, bs});
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].at("kernel"), want[i].first) << name << " row " << i;
      EXPECT_EQ(rows[i].at("block_size"), std::to_string(want[i].second)) << name << " row " << i;
      expect_close(num(rows[i], "median_ms"), find(session_, want[i].first, want[i].second).median_ms, name);
    }
  }
}

// Step speedup = previous median / this median; cumulative = first median / this median.
TEST_F(ExportTest, HarrisTableSpeedups) {
  export_charts(session_, dir_.string(), 0);
  std::vector<std::string> header;
  const auto rows = read_csv(dir_ / "harris_table_bs256.csv", &header);
  EXPECT_EQ(header, (std::vector<std::string>{"kernel", "block_size", "median_ms", "gbps", "pct_peak", "step_speedup",
                                              "cumulative_speedup", "correct"}));
  ASSERT_EQ(rows.size(), kMedian256.size());
  const double t0 = kMedian256[0].second;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [kernel, ti] = kMedian256[i];
    EXPECT_EQ(rows[i].at("kernel"), kernel);
    expect_close(num(rows[i], "median_ms"), ti, kernel);
    expect_close(num(rows[i], "gbps"), kN * 4.0 / (ti * 1e6), kernel);
    expect_close(num(rows[i], "pct_peak"), kN * 4.0 / (ti * 1e6) / kPeak * 100, kernel);
    // Issue 17: speedups only between kernels that do the same job (table_speedups); a kernel this build's
    // registry does not know (alpha_custom) has none, rather than a ratio to reduce0's time.
    if (!find_kernel(kernel)) {
      EXPECT_EQ(rows[i].at("step_speedup"), "") << kernel;
      EXPECT_EQ(rows[i].at("cumulative_speedup"), "") << kernel;
      continue;
    }
    expect_close(num(rows[i], "cumulative_speedup"), t0 / ti, kernel);
    if (i == 0) EXPECT_EQ(rows[i].at("step_speedup"), "");
    else expect_close(num(rows[i], "step_speedup"), kMedian256[i - 1].second / ti, kernel);
  }
  EXPECT_EQ(rows[1].at("step_speedup"), "2");              // 0.32 / 0.16
  EXPECT_EQ(rows[2].at("cumulative_speedup"), "3.55556");  // 0.32 / 0.09, six digits

  // At 128 the first row is still reduce0; the wrong sum is flagged.
  const auto r128 = read_csv(dir_ / "harris_table_bs128.csv");
  ASSERT_EQ(r128.size(), 7u);
  expect_close(num(r128[6], "cumulative_speedup"), 0.32 / 0.043, "reduce6 at 128");
  EXPECT_EQ(r128[3].at("correct"), "false");
  // At 32 reduce3 is followed by nothing: reduce4..6 have no timing there.
  EXPECT_EQ(read_csv(dir_ / "harris_table_bs32.csv").size(), 4u);
}

// A PNG decoded by cairo; pixels as 0xRRGGBB.
class Png {
 public:
  explicit Png(const fs::path& p) : s_(cairo_image_surface_create_from_png(p.c_str())) {
    EXPECT_EQ(cairo_surface_status(s_), CAIRO_STATUS_SUCCESS) << p;
  }
  ~Png() { cairo_surface_destroy(s_); }
  Png(const Png&) = delete;
  Png& operator=(const Png&) = delete;

  int width() const { return cairo_image_surface_get_width(s_); }
  int height() const { return cairo_image_surface_get_height(s_); }
  uint32_t at(int x, int y) const {
    const unsigned char* row = cairo_image_surface_get_data(s_) + y * cairo_image_surface_get_stride(s_);
    return reinterpret_cast<const uint32_t*>(row)[x] & 0xFFFFFF;
  }
  // Pixels of exactly `rgb`.
  size_t count(uint32_t rgb) const {
    size_t n = 0;
    for (int y = 0; y < height(); ++y)
      for (int x = 0; x < width(); ++x) n += at(x, y) == rgb;
    return n;
  }
  // The height of a bar of colour `rgb`: from the first to the last row with a run of at least
  // 8 pixels of it (a reference line or hatching may cross the bar; text is never that colour).
  int bar_height(uint32_t rgb) const {
    int first = -1, last = -2;
    for (int y = 0; y < height(); ++y) {
      int run = 0, best = 0;
      for (int x = 0; x < width(); ++x) best = std::max(best, run = at(x, y) == rgb ? run + 1 : 0);
      if (best >= 8) {
        if (first < 0) first = y;
        last = y;
      }
    }
    return last - first + 1;
  }

 private:
  cairo_surface_t* s_;
};

// Bars start at zero, so their heights in the PNG are in the ratio of their values. Colours
// are Okabe-Ito by slide position: reduce0 orange, reduce1 sky blue, reduce2 bluish green,
// reduce3 blue. (The 9th kernel, beta,custom, is orange again, but shorter than reduce0 in
// time.)
TEST_F(ExportTest, BarHeightsFollowTheMedians) {
  export_charts(session_, dir_.string(), 256);
  const Png time(dir_ / "kernels_time_bs256.png");
  const double h0 = time.bar_height(0xE69F00), h1 = time.bar_height(0x56B4E9), h2 = time.bar_height(0x009E73),
               h3 = time.bar_height(0x0072B2);
  ASSERT_GT(h3, 20) << "reduce3's bar is missing";
  EXPECT_GT(h0, h3) << "the slowest kernel's bar must be the tallest";
  EXPECT_NEAR(h0 / h1, 0.32 / 0.16, 0.03);
  EXPECT_NEAR(h0 / h2, 0.32 / 0.09, 0.05);
  EXPECT_NEAR(h0 / h3, 0.32 / 0.055, 0.1);
  EXPECT_LT(time.count(0xFFFFFF), size_t(time.width()) * time.height() * 95 / 100) << "nearly blank";

  // Bandwidth is bytes / median, so the ratios invert.
  const Png bw(dir_ / "kernels_bandwidth_bs256.png");
  const double b1 = bw.bar_height(0x56B4E9), b2 = bw.bar_height(0x009E73), b3 = bw.bar_height(0x0072B2);
  EXPECT_NEAR(b2 / b1, 0.16 / 0.09, 0.05);
  EXPECT_NEAR(b3 / b1, 0.16 / 0.055, 0.08);
}

// A wrong sum is marked: of two bars of the same height, the hatched one shows less of its
// colour, but still enough to tell the kernel.
TEST_F(ExportTest, WrongSumIsHatched) {
  Session s = make_session();
  for (SessionTiming& t : s.timings)
    if (t.block_size == 256 && (t.kernel == "reduce1" || t.kernel == "reduce2")) {
      t = timing(t.kernel, 256, 1.0);
      t.correct = t.kernel != "reduce2";
    }
  export_charts(s, dir_.string(), 256);
  const Png png(dir_ / "kernels_time_bs256.png");
  const double clean = png.count(0x56B4E9), hatched = png.count(0x009E73);
  EXPECT_LT(hatched, clean * 0.9) << "no hatching";
  EXPECT_GT(hatched, clean * 0.3) << "the hatching hides the kernel's colour";
  // The same median, the same height, but for the hatched bar's outline (1.5 pt + halo).
  EXPECT_NEAR(png.bar_height(0x56B4E9), png.bar_height(0x009E73), 10);
}

TEST_F(ExportTest, EmptySessionIsRefused) {
  Session s = make_session();
  s.timings.clear();
  try {
    export_charts(s, dir_.string());
    FAIL() << "no ExportError";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("no timings"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_)) << "nothing to write, so no folder either";
}

TEST_F(ExportTest, AbsentBlockSizeIsRefusedWithTheOnesAvailable) {
  try {
    export_charts(session_, dir_.string(), 64);
    FAIL() << "no ExportError";
  } catch (const ExportError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("64"), std::string::npos) << msg;
    EXPECT_NE(msg.find("32, 128, 256"), std::string::npos) << msg;
  }
}

TEST_F(ExportTest, InvalidNumbersAreRefused) {
  for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    Session s = make_session();
    s.timings[3].median_ms = bad;
    EXPECT_THROW(export_charts(s, dir_.string()), ExportError) << "median " << bad;
  }
  Session s = make_session();
  s.timings[2].gbps = NAN;
  EXPECT_THROW(export_charts(s, dir_.string()), ExportError);
}

TEST_F(ExportTest, FolderUnderARegularFileIsRefused) {
  fs::create_directories(dir_.parent_path());
  const fs::path file = dir_.parent_path() / "plain_file";
  std::ofstream(file) << "not a folder";
  EXPECT_THROW(export_charts(session_, (file / "charts").string()), ExportError);
  EXPECT_THROW(export_charts(session_, file.string()), ExportError);
}

// A chart that cannot be renamed into place (a folder holds its name) fails with its path, and
// leaves no temporary file.
TEST_F(ExportTest, UnwritableChartIsRefusedAndCleanedUp) {
  fs::create_directories(dir_ / "kernels_bandwidth_bs256.svg");
  try {
    export_charts(session_, dir_.string(), 256);
    FAIL() << "no ExportError";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("kernels_bandwidth_bs256.svg"), std::string::npos) << e.what();
  }
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// The N sweep from `reducescope bench --csv` rows: each series' fastest correct row per N, the copy and
// CUB once per N, repeated header lines skipped; the chart's CSV holds exactly those points.
TEST_F(ExportTest, SweepTakesEachTracksFastestCorrectKernelPerN) {
  const std::string header =
      "gpu,n,pattern,kernel,block_size,median_ms,min_ms,max_ms,samples,gbps,pct_peak,correct,skipped_reason,track,"
      "dtype,launches,source_us,distinct_results\n";
  const std::string rows =
      header +
      "\"GPU X\",1048576,random,copy_d2d,0,0.01,0.01,0.01,30,800.00,40.00,1,\"\",modern,int32,1,0.0,0\n"
      "\"GPU X\",1048576,random,cub::DeviceReduce::Sum,0,0.01,0.01,0.01,30,400.00,20.00,1,\"\",modern,int32,0,0.0,0\n"
      "\"GPU X\",1048576,random,vec4_loads,256,0.01,0.01,0.01,30,500.00,25.00,1,\"\",modern,int32,2,0.0,0\n"
      "\"GPU X\",1048576,random,vec4_loads,1024,0.01,0.01,0.01,30,600.00,30.00,1,\"\",modern,int32,2,0.0,0\n"
      "\"GPU X\",1048576,random,broken,64,0.01,0.01,0.01,30,9000.00,450.00,0,\"\",modern,int32,1,0.0,0\n"
      "\"GPU X\",1048576,random,reduce4,32,0,0,0,0,0,0,0,\"needs 64, not 32\",harris,int32,0,0.0,0\n" +
      header +
      "\"GPU X\",4194304,random,cub::DeviceReduce::Sum,0,0.01,0.01,0.01,30,900.00,45.00,1,\"\",modern,int32,0,0.0,0\n"
      "\"GPU X\",4194304,random,single_pass_atomic,512,0.01,0.01,0.01,30,1000.00,50.00,1,\"\",modern,int32,1,0.0,0\n"
      "\"GPU X\",4194304,random,reduce6,256,0.01,0.01,0.01,30,700.00,35.00,1,\"\",harris,int32,3,0.0,0\n";
  const Sweep sw = sweep_from_bench_csv(rows);
  EXPECT_EQ(sw.gpu, "GPU X");
  EXPECT_DOUBLE_EQ(sw.peak_gbps, 2000.0);
  auto at = [&](const std::string& series, uint64_t n) -> const SweepPoint* {
    for (const SweepPoint& p : sw.points) {
      if (p.series == series && p.n == n) return &p;
    }
    return nullptr;
  };
  ASSERT_NE(at("modern", 1048576), nullptr);
  EXPECT_EQ(at("modern", 1048576)->kernel, "vec4_loads");  // the wrong 9000 GB/s row does not count
  EXPECT_EQ(at("modern", 1048576)->block_size, 1024u);
  ASSERT_NE(at("modern", 4194304), nullptr);
  EXPECT_EQ(at("modern", 4194304)->kernel, "single_pass_atomic");
  ASSERT_NE(at("CUB DeviceReduce::Sum", 4194304), nullptr);
  EXPECT_DOUBLE_EQ(at("CUB DeviceReduce::Sum", 4194304)->gbps, 900.0);
  ASSERT_NE(at("device-to-device copy", 1048576), nullptr);
  EXPECT_DOUBLE_EQ(at("device-to-device copy", 1048576)->gbps, 800.0);
  EXPECT_EQ(at("harris", 1048576), nullptr) << "reduce4 at 32 was skipped";
  EXPECT_EQ(sw.points.size(), 6u);

  const ChartFiles files = export_sweep(sw, dir_.string(), "method");
  ASSERT_EQ(files.paths.size(), 4u);
  for (const std::string& p : files.paths) EXPECT_GT(fs::file_size(p), 0u) << p;
  std::ifstream csv(dir_ / "sweep_bandwidth.csv");
  std::string line;
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  EXPECT_EQ(lines, 1 + 6);
  EXPECT_THROW(sweep_from_bench_csv(header), BenchCsvError);
  EXPECT_THROW(sweep_from_bench_csv("not,a,bench,file\n"), BenchCsvError);
  EXPECT_THROW(export_sweep(Sweep{}, dir_.string(), "method"), ExportError);
}

// The time against block size is written a second time on a log axis (blocksize_time_log.{png,svg,pdf},
// no CSV: its numbers are blocksize_time.csv's), for every track, with "(log scale)" in its title.
// The axis is logarithmic: reduce0, reduce1 and reduce2 differ by the same factor at every block size
// (0.32 : 0.16 : 0.09), so their lines are parallel, and their gaps are in the ratio of the logs of
// those factors, ln 2 / ln(16/9) = 1.2 (on the linear chart, 0.16 / 0.07 = 2.3).
TEST_F(ExportTest, BlockSizeTimeIsAlsoWrittenOnALogAxis) {
  const ChartFiles files = export_charts(session_, dir_.string());
  std::set<std::string> returned;
  for (const std::string& p : files.paths) returned.insert(fs::path(p).filename().string());
  for (const char* name : {"blocksize_time_log.png", "blocksize_time_log.svg", "blocksize_time_log.pdf"}) {
    EXPECT_TRUE(returned.count(name)) << name << " not returned";
    ASSERT_TRUE(fs::exists(dir_ / name)) << name << " not written";
    EXPECT_GT(fs::file_size(dir_ / name), 1000u) << name;
  }
  EXPECT_FALSE(fs::exists(dir_ / "blocksize_time_log.csv")) << "the log chart's numbers are blocksize_time.csv's";
  EXPECT_FALSE(fs::exists(dir_ / "blocksize_bandwidth_log.png")) << "only the time gets a log axis";

  const std::string svg = read_file(dir_ / "blocksize_time_log.svg");
  EXPECT_NE(svg.find("</svg>", svg.size() - 16), std::string::npos) << "SVG not closed";
  const std::string pdf = read_file(dir_ / "blocksize_time_log.pdf");
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  // cairo writes the title as UTF-16 in hex: <FEFF004D0065...>.
  std::string utf16;
  for (char ch : std::string("(log scale)")) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned char>(ch));
    utf16 += hex;
  }
  EXPECT_TRUE(pdf.find("log scale") != std::string::npos || pdf.find(utf16) != std::string::npos)
      << "the PDF's title does not say it is a log scale";

  const Png lin(dir_ / "blocksize_time.png"), log(dir_ / "blocksize_time_log.png");
  ASSERT_EQ(log.width(), 1600);
  ASSERT_EQ(log.height(), 1000);
  EXPECT_LT(log.count(0xFFFFFF), size_t(log.width()) * log.height() * 95 / 100) << "nearly blank";
  // The mean row of a kernel's line and markers above the legend (the bottom fifth).
  const auto mean_row = [](const Png& png, uint32_t rgb) {
    double sum = 0, n = 0;
    for (int y = 0; y < png.height() * 4 / 5; ++y)
      for (int x = 0; x < png.width(); ++x)
        if (png.at(x, y) == rgb) sum += y, n += 1;
    EXPECT_GT(n, 200) << std::hex << rgb << ": line missing";
    return n > 0 ? sum / n : 0.0;
  };
  const auto gap_ratio = [&](const Png& png) {
    const double r0 = mean_row(png, 0xE69F00), r1 = mean_row(png, 0x56B4E9), r2 = mean_row(png, 0x009E73);
    return (r1 - r0) / std::max(r2 - r1, 1.0);
  };
  EXPECT_NEAR(gap_ratio(log), std::log(2.0) / std::log(16.0 / 9.0), 0.25) << "the time axis is not logarithmic";
  EXPECT_GT(gap_ratio(lin), 1.8) << "blocksize_time.png should stay linear";
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// The multigpu track's chart (export_multigpu, through export_session as `reducescope export --out` calls it):
// multigpu-busbw.{png,svg,pdf,csv} for the fixture's recording alone; the CSV holds every row as recorded; the
// SVG names the GPUs, the link, NCCL and the P2P line; the P2P line is drawn grey and dashed. A session without
// a recording gets the timing charts only.
TEST_F(ExportTest, MultiGpuBusbwChartAndRows) {
  const Session s = load_session(RS_MULTIGPU_FIXTURE);
  const SessionMultiGpu& m = s.multigpu;
  ASSERT_FALSE(m.empty()) << RS_MULTIGPU_FIXTURE;
  Session alone;
  alone.meta = s.meta;
  alone.multigpu = m;  // no timings: only the multigpu chart, no "no timings" error
  const ChartFiles files = export_session(alone, dir_.string());
  std::set<std::string> returned;
  for (const std::string& p : files.paths) returned.insert(fs::path(p).filename().string());
  EXPECT_EQ(returned, (std::set<std::string>{"multigpu-busbw.png", "multigpu-busbw.svg", "multigpu-busbw.pdf",
                                             "multigpu-busbw.csv"}));
  for (const std::string& p : files.paths) EXPECT_GT(fs::file_size(p), 1000u) << p;

  std::vector<std::string> header;
  const auto rows = read_csv(dir_ / "multigpu-busbw.csv", &header);
  EXPECT_EQ(header, (std::vector<std::string>{"op", "method", "bytes", "median_ms", "min_ms", "max_ms", "samples",
                                              "algbw_gbps", "busbw_gbps", "correct"}));
  ASSERT_EQ(rows.size(), m.rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const MultiGpuRow& want = m.rows[i];
    const CsvRow& got = rows[i];
    const std::string what = want.op + " " + want.method + " " + std::to_string(want.bytes);
    EXPECT_EQ(got.at("op"), want.op) << what;
    EXPECT_EQ(got.at("method"), want.method) << what;
    EXPECT_EQ(got.at("bytes"), std::to_string(want.bytes)) << what;
    expect_close(num(got, "median_ms"), want.median_ms, what);
    expect_close(num(got, "min_ms"), want.min_ms, what);
    expect_close(num(got, "max_ms"), want.max_ms, what);
    EXPECT_EQ(got.at("samples"), std::to_string(want.samples)) << what;
    expect_close(num(got, "algbw_gbps"), want.algbw_gbps, what);
    expect_close(num(got, "busbw_gbps"), want.busbw_gbps, what);
    EXPECT_EQ(got.at("correct"), want.correct ? "true" : "false") << what;
  }

  const std::string svg = read_file(dir_ / "multigpu-busbw.svg");
  EXPECT_NE(svg.find("</svg>", svg.size() - 16), std::string::npos) << "SVG not closed";
  const std::string title = "<title>All-reduce busbw: " + std::to_string(m.gpus) + " × " + m.gpu_names.at(0);
  EXPECT_NE(svg.find(title), std::string::npos) << title;
  EXPECT_NE(svg.find("NCCL " + m.nccl_version + "</title>"), std::string::npos);
  if (!m.link.empty()) {
    EXPECT_NE(svg.find(", " + m.link + ", NCCL"), std::string::npos) << m.link;
  }
  for (const char* line : {"line: NCCL all-reduce", "line: hand ring all-reduce", "line: naive gather to GPU 0",
                           "line: P2P copy GPU 0 → 1, one way"}) {
    EXPECT_NE(svg.find(line), std::string::npos) << line;
  }
  EXPECT_NE(read_file(dir_ / "multigpu-busbw.pdf").rfind("%PDF-", 0), std::string::npos);
  // The lines in the PNG: NCCL's orange, the ring's blue, the naive purple, the P2P copy in the reference grey
  // (its dashed line and its legend sample; no other mark of this chart is that grey).
  const Png png(dir_ / "multigpu-busbw.png");
  ASSERT_EQ(png.width(), 1600);
  for (uint32_t rgb : {0xE69F00u, 0x0072B2u, 0xCC79A7u, 0x555555u}) EXPECT_GT(png.count(rgb), 800u) << std::hex << rgb;

  // A session without a recording: the timing charts only.
  fs::remove_all(dir_);
  std::set<std::string> plain;
  for (const std::string& p : export_session(session_, dir_.string()).paths) plain.insert(fs::path(p).filename().string());
  EXPECT_EQ(plain, chart_names(kBlockSizes));
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_EQ(e.path().filename().string().find("multigpu"), std::string::npos);
  // A recording with no all-reduce rows has nothing to draw; a session with nothing at all, "no timings".
  SessionMultiGpu sums = m;
  sums.rows.erase(std::remove_if(sums.rows.begin(), sums.rows.end(), [](const MultiGpuRow& r) { return r.op == "allreduce"; }),
                  sums.rows.end());
  EXPECT_THROW(export_multigpu(sums, dir_.string()), ExportError);
  try {
    export_session(Session{}, dir_.string());
    FAIL() << "an empty session was accepted";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("no timings"), std::string::npos) << e.what();
  }
}

// grade's roofline (export_roofline): the files, the CSV's numbers, the words in the SVG, and in the PNG the markers
// at one height (the same bytes), left to right in the order of their times, evenly spaced for evenly spaced times
// (a linear time axis).
TEST_F(ExportTest, RooflinePlacesEachKernelByItsTime) {
  Roofline r;
  r.title = "al: exercise shuffle, bytes read against time";
  r.caption = {"Each kernel reads the same 67.1 MB once."};
  r.bytes = 67108864;
  r.ceiling_gbps = 3000;
  r.points = {{"al", 0.05, false}, {"reduce4", 0.1, true}, {"al's first try", 0.15, false}};
  std::set<std::string> names;
  for (const std::string& p : export_roofline(r, dir_.string()).paths) names.insert(fs::path(p).filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"roofline.png", "roofline.svg", "roofline.pdf", "roofline.csv"}));
  std::vector<std::string> header;
  const auto rows = read_csv(dir_ / "roofline.csv", &header);
  EXPECT_EQ(header, (std::vector<std::string>{"name", "ms", "bytes", "gbps"}));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].at("name"), "copy ceiling");
  EXPECT_NEAR(std::stod(rows[0].at("ms")), 67108864 / 3000e6, 1e-6);
  EXPECT_NEAR(std::stod(rows[1].at("gbps")), 67108864 / 0.05e6, 0.5);
  EXPECT_EQ(rows[2].at("name"), "reduce4");
  const std::string svg = read_file(dir_ / "roofline.svg");
  for (const char* w : {"<title>al: exercise shuffle", "line: al: 1,342 GB/s, 0.0500 ms",
                        "line: reduce4: 671 GB/s, 0.100 ms", "line: copy ceiling 3,000 GB/s"})
    EXPECT_NE(svg.find(w), std::string::npos) << w;

  const Png png(dir_ / "roofline.png");
  // The markers: orange (al), sky blue (the reference), green (the slower try), in the plot (above the legend).
  auto centre = [&](uint32_t rgb, double& cx, double& cy) {
    double sx = 0, sy = 0, n = 0;
    for (int y = 0; y < png.height() * 3 / 4; ++y)
      for (int x = 0; x < png.width(); ++x)
        if (png.at(x, y) == rgb) sx += x, sy += y, ++n;
    ASSERT_GT(n, 50) << std::hex << rgb;
    cx = sx / n, cy = sy / n;
  };
  double ax, ay, bx, by, cx, cy;
  centre(0xE69F00, ax, ay);
  centre(0x56B4E9, bx, by);
  centre(0x009E73, cx, cy);
  EXPECT_NEAR(ay, by, 2);
  EXPECT_NEAR(ay, cy, 2);
  EXPECT_LT(ax + 100, bx);
  EXPECT_NEAR((cx - bx) / (bx - ax), 1.0, 0.02);
  // Time 0 (one step left of al's marker) is the plot's left edge: no marker of the chart's colours left of it.
  const double zero = ax - (bx - ax);
  EXPECT_GT(zero, 60);
  for (int y = 0; y < png.height() * 3 / 4; ++y)
    for (int x = 0; x < static_cast<int>(zero) - 2; ++x) ASSERT_NE(png.at(x, y), 0xE69F00u) << x << "," << y;
  Roofline none = r;
  none.points.clear();
  EXPECT_THROW(export_roofline(none, dir_.string()), ExportError);
}

}  // namespace
}  // namespace rs
