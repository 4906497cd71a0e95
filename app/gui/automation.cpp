#include "automation.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "panels.hpp"  // write_widget_map, origin_sentence
#include "predict.hpp"  // predict_status
#include "stats.hpp"   // percentile

namespace rs::gui {

namespace {

using Clock = std::chrono::steady_clock;

// The frame just rendered: the window's back buffer, or the headless framebuffer object's colour attachment.
bool save_screenshot(const Surface& surface, const std::string& path) {
  int w = 0, h = 0;
  framebuffer_size(surface, &w, &h);
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(surface.win ? GL_BACK : GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  stbi_flip_vertically_on_write(1);
  return stbi_write_png(path.c_str(), w, h, 4, px.data(), w * 4) != 0;
}

}  // namespace

Automation::Automation(const Options& o, Clock::time_point t_start) : o_(o), t_start_(t_start) {
  const char* env = std::getenv("REDUCESCOPE_WIDGET_MAP");
  widget_map_ = env ? env : "";
  const char* after = std::getenv("REDUCESCOPE_SCREENSHOT_AFTER");
  after_file_ = after ? after : "";
}

void Automation::start_frame() { t_frame_ = Clock::now(); }

void Automation::write_widget_map() const { gui::write_widget_map(widget_map_); }

bool Automation::end_frame(const Surface& surface, const AppState& s, bool idle, bool exporting) {
  frame_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t_frame_).count());
  ++frame_;
  if (idle && frames_after_idle_ < 0) frames_after_idle_ = 0;
  if (frames_after_idle_ >= 0) ++frames_after_idle_;
  std::error_code ec;  // a file we cannot stat is not there yet
  if (frames_after_file_ < 0 && (after_file_.empty() || std::filesystem::exists(after_file_, ec))) frames_after_file_ = 0;
  if (frames_after_file_ >= 0) ++frames_after_file_;
  const double secs = std::chrono::duration<double>(Clock::now() - t_start_).count();
  bool done = o_.screenshot.empty() && o_.frames > 0 && frame_ >= o_.frames && !exporting;
  if (!o_.screenshot.empty() && ((frames_after_idle_ >= 3 && frames_after_file_ >= 3 && frame_ >= o_.frames && !exporting) ||
                                 secs > 120)) {
    if (surface_lost(surface)) return false;  // a context the GPU reset draws nothing: the next frame, in a new one
    if (!save_screenshot(surface, o_.screenshot)) {
      std::cerr << "reducescope: cannot write " << o_.screenshot << "\n";
      rc_ = kExitRuntime;
    } else {
      std::cout << "screenshot saved to " << o_.screenshot << " after " << frame_ << " frames, " << secs
                << " s; showing " << (s.shown ? s.shown->trace.meta.kernel : std::string("nothing")) << " at "
                << s.a.block_size << " threads, step " << s.step << " of " << s.num_steps()
                << (s.recorded() ? "; recorded session" : "") << (s.compare ? "; compare" : "") << std::endl
                << "origin: " << origin_sentence(s) << std::endl
                << "language: " << i18n::lang_code(i18n::language()) << " (the View menu reads " << _("View") << ")"
                << std::endl
                << "input: N = " << s.n << std::endl
                << "predict: " << predict_status(s) << std::endl;
      if (s.shown) {
        std::cout << "element type: " << to_string(s.shown->trace.meta.dtype) << std::endl
                  << "tracer: " << to_string(s.shown->trace.meta.tracer) << std::endl;
      }
      if (s.compare && s.shown_b) {  // the compare side (tests/gui_xvfb.sh, section 18d)
        std::cout << "B: " << s.shown_b->trace.meta.kernel << " at " << s.shown_b->trace.meta.block_size << " threads"
                  << std::endl;
      }
      if (s.yours.open()) {  // the user's kernel (tests/gui_xvfb.sh, section 17)
        const YoursState& y = s.yours;
        std::cout << "yours: " << y.name << (s.shows_yours(0) ? " (side A)" : "") << ": " << y.status
                  << (y.stale ? "; STALE" : "") << (y.banner.empty() ? "" : "; banner: " + y.banner) << std::endl;
      }
    }
    done = true;
  }
  return done;
}

void Automation::frame_shown(const AppState& s) {
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t_start_).count();
  if (frame_ == 1) first_frame_ms_ = ms;
  if (!o_.stats || !s.yours.open()) return;
  const YoursState& y = s.yours;
  if (y.arrivals > yours_arrivals_ && s.shows_yours(0) && s.shown) {
    yours_arrivals_ = y.arrivals;
    std::printf("yours: trace %llu on screen at %.2f s\n", static_cast<unsigned long long>(y.arrivals), ms / 1000);
    std::fflush(stdout);
  }
  if (y.banner != yours_banner_) {
    yours_banner_ = y.banner;
    std::printf("yours: banner at %.2f s: %s\n", ms / 1000, y.banner.empty() ? "(none)" : y.banner.c_str());
    std::fflush(stdout);
  }
}

void Automation::print_stats(const std::vector<double>& latencies_ms) const {
  if (!o_.stats) return;
  char b[512];
  std::snprintf(b, sizeof b,
                "stats: first frame %.1f ms after start; %d frames; frame time (UI + render, vsync off) median %.2f "
                "ms, p95 %.2f ms, max %.2f ms (%.0f fps at the median)\n",
                first_frame_ms_, frame_, percentile(frame_ms_, 0.5), percentile(frame_ms_, 0.95),
                percentile(frame_ms_, 1.0), 1000.0 / std::max(percentile(frame_ms_, 0.5), 1e-3));
  std::cout << b;
  for (double l : latencies_ms) std::printf("stats: selection to trace + timing on screen: %.1f ms\n", l);
  std::fflush(stdout);
}

}  // namespace rs::gui
