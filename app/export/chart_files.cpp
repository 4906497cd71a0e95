// Writing a chart: an 800 x 500 point page drawn onto a PNG image surface (2 pixels per point), an SVG
// (with the chart's words as its <title> and <desc>) and a PDF surface, each checked for cairo errors and
// written through `<path>.tmp`, renamed into place only once complete, so a failed export never leaves a
// half-written file under the real name; the chart's CSV the same way.
#include "chart_draw.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>

namespace rs::chart {

namespace {

constexpr double kPageW = 800, kPageH = 500;  // points, for SVG and PDF
constexpr double kPngScale = 2;               // PNG pixels per point: 1600 x 1000

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

// Text for an XML element's content: & < > as entities (UTF-8 passes through).
std::string xml_text(const std::string& v) {
  std::string o;
  for (char ch : v) {
    const char* entity = ch == '&' ? "&amp;" : ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : nullptr;
    if (entity) o += entity;
    else o += ch;
  }
  return o;
}

// cairo draws an SVG's text as glyph outlines, so that a search, a screen reader or a test finds no words in
// it. The chart's words go in as SVG's own <title> (the title) and <desc> (the caption, the legend's lines
// and the reference lines), right after the root element's start tag.
void add_svg_text(const fs::path& file, const ChartSpec& c) {
  std::string svg;
  {
    std::ifstream in(file, std::ios::binary);
    svg.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t root = svg.find("<svg"), at = root == std::string::npos ? root : svg.find('>', root);
  if (at == std::string::npos) throw ExportError("cannot write " + file.string() + ": cairo wrote no <svg> element");
  std::string desc;
  for (const std::string& para : c.caption) desc += para + "\n";
  for (const LegendEntry& e : legend_entries(c)) desc += "line: " + e.text + "\n";
  for (const RefLine& r : c.refs) desc += "reference: " + r.name + " " + r.value + "\n";
  svg.insert(at + 1, "\n<title>" + xml_text(c.title) + "</title>\n<desc>" + xml_text(desc) + "</desc>");
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << svg;
  out.close();
  if (!out) throw ExportError("cannot write " + file.string());
}

// SVG and PDF: the surface writes `tmp` as it is finished.
void write_vector(const ChartSpec& c, const fs::path& path,
                  cairo_surface_t* (*create)(const char*, double, double)) {
  write_atomically(path, [&](const fs::path& tmp) {
    Surface s(create(tmp.c_str(), kPageW, kPageH));
    const bool pdf = cairo_surface_get_type(s.get()) == CAIRO_SURFACE_TYPE_PDF;
    if (pdf) {
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_TITLE, c.title.c_str());
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_CREATOR, "ReduceScope");
    }
    paint(s.get(), 1, c, path);
    cairo_surface_finish(s.get());
    check_cairo(cairo_surface_status(s.get()), path);
    s.reset();
    if (!pdf) add_svg_text(tmp, c);
  });
}

}  // namespace

fs::path make_folder(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw ExportError("cannot create folder " + dir + ": " + (ec ? ec.message() : "a file of that name exists"));
  return dir;
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

}  // namespace rs::chart
