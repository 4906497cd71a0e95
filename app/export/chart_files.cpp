// Writing a chart: an 800 x 500 point page drawn onto a PNG image surface (2 pixels per point), an SVG
// and a PDF surface, each checked for cairo errors and written through `<path>.tmp`, renamed into place
// only once complete, so a failed export never leaves a half-written file under the real name; the
// chart's CSV the same way.
#include "chart_draw.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <fstream>
#include <functional>
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

// SVG and PDF: the surface writes `tmp` as it is finished.
void write_vector(const ChartSpec& c, const fs::path& path,
                  cairo_surface_t* (*create)(const char*, double, double)) {
  write_atomically(path, [&](const fs::path& tmp) {
    Surface s(create(tmp.c_str(), kPageW, kPageH));
    if (cairo_surface_get_type(s.get()) == CAIRO_SURFACE_TYPE_PDF) {
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_TITLE, c.title.c_str());
      cairo_pdf_surface_set_metadata(s.get(), CAIRO_PDF_METADATA_CREATOR, "ReduceScope");
    }
    paint(s.get(), 1, c, path);
    cairo_surface_finish(s.get());
    check_cairo(cairo_surface_status(s.get()), path);
  });
}

}  // namespace

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
