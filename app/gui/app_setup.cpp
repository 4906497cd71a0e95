#include "app_setup.hpp"
#include "room_client.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <system_error>
#include <thread>

#include "i18n.hpp"

#include "headless.hpp"
#include "keys.hpp"

namespace rs::gui {

namespace fs = std::filesystem;

namespace {

void glfw_error(int code, const char* what) { std::fprintf(stderr, "reducescope: GLFW error %d: %s\n", code, what); }

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A window of geom's size and place with an OpenGL 3.3 core context, robust where the driver allows it
// (GLFW_LOSE_CONTEXT_ON_RESET: a GPU reset is then reported by glGetGraphicsResetStatus, which *reset_status is set
// to; else null), current, with the GL functions loaded. Null, said on stderr, where none is given.
GLFWwindow* create_window(const WindowGeometry& geom, bool stats, unsigned (**reset_status)()) {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_LOSE_CONTEXT_ON_RESET);
  glfwSetErrorCallback(nullptr);  // a driver without robust contexts refuses the first: no message for that one
  GLFWwindow* win = glfwCreateWindow(geom.width, geom.height, "ReduceScope", nullptr, nullptr);
  glfwSetErrorCallback(glfw_error);
  if (!win) {
    glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_NO_ROBUSTNESS);
    win = glfwCreateWindow(geom.width, geom.height, "ReduceScope", nullptr, nullptr);
  }
  if (!win) {
    std::cerr << "reducescope: cannot create an OpenGL 3.3 window\n";
    return nullptr;
  }
  if (geom.x >= 0 && geom.y >= 0) glfwSetWindowPos(win, geom.x, geom.y);
  glfwMakeContextCurrent(win);
  glfwSwapInterval(stats ? 0 : 1);  // --stats measures what a frame costs, not the display's rate
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::cerr << "reducescope: cannot load OpenGL functions\n";
    glfwDestroyWindow(win);
    return nullptr;
  }
  *reset_status = nullptr;
  if (glfwGetWindowAttrib(win, GLFW_CONTEXT_ROBUSTNESS) == GLFW_LOSE_CONTEXT_ON_RESET) {
    // ARB_robustness first: a robust context made through GLX_ARB_create_context_robustness has it, and GLX hands out
    // a pointer for any name at all, so the name asked for must be one the context has.
    for (const char* name : {"glGetGraphicsResetStatusARB", "glGetGraphicsResetStatusKHR", "glGetGraphicsResetStatus"}) {
      if (GLFWglproc f = glfwGetProcAddress(name)) {
        *reset_status = reinterpret_cast<unsigned (*)()>(f);
        break;
      }
    }
  }
  return win;
}

// The next frame is to be drawn in a new context: the GPU reset this one, or REDUCESCOPE_SIMULATE_GL_RESET's frame
// has come (the test double of such a reset: tests/gui_xvfb.sh, section 23), or a renewal has yet to succeed.
bool context_lost(const Surface& s) {
  if (!s.renderer) return true;
  for (long f : s.simulate_resets) {
    if (s.frames == f) return true;
  }
  if (s.headless) return s.headless->lost();
  return s.reset_status && s.reset_status() != GL_NO_ERROR;
}

// GLFW ties a context to its window: a new window where the old one stood, with a new context, its keys and
// Dear ImGui's GLFW backend. False, with *why, where none is given.
bool renew_window(Surface& s, std::string* why) {
  WindowGeometry g;
  glfwGetWindowPos(s.win, &g.x, &g.y);
  glfwGetWindowSize(s.win, &g.width, &g.height);
  ImGui_ImplGlfw_Shutdown();
  glfwDestroyWindow(s.win);
  s.win = create_window(g, s.stats, &s.reset_status);
  if (!s.win) {
    *why = "no new OpenGL 3.3 window after the reset";
    return false;
  }
  install_key_queue(s.win);
  ImGui_ImplGlfw_InitForOpenGL(s.win, true);
  return true;
}

// A new context in place of a lost one, and Dear ImGui's OpenGL objects made again in it (the font texture from the
// atlas ImGui keeps, at the next frame). A failure is said once and tried again a second later; the frames go on.
void renew_context(Surface& s) {
  const double now = now_s();
  if (!s.renderer && now < s.next_try) {
    std::this_thread::sleep_for(std::chrono::milliseconds(16));  // nothing to draw with: no busy loop meanwhile
    return;
  }
  if (s.renderer) ImGui_ImplOpenGL3_Shutdown();  // its objects were in the lost context: deleting them there is harmless
  s.renderer = false;
  std::string why;
  // A GPU whose new contexts are reset again and again (on the H100, after a kernel's fault, every new OpenGL context
  // on it was: docs/your-kernel.md): the third reset within a minute moves a headless window to the next EGL
  // display (Mesa's, drawing on the CPU) where there is one.
  s.recent_resets.erase(std::remove_if(s.recent_resets.begin(), s.recent_resets.end(),
                                       [&](double t) { return now - t > 60; }),
                        s.recent_resets.end());
  bool moved = false;
  if (s.headless && s.moved_to.empty() && s.recent_resets.size() >= 2) {
    std::string stay;
    moved = s.headless->move_on(&stay);
    if (moved) s.moved_to = s.headless->description();
    else std::cerr << "reducescope: --headless: no other EGL display to draw on (" << stay << ")\n";
  }
  const bool ok = (s.win ? renew_window(s, &why) : moved || s.headless->renew(&why)) &&
                  ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!ok) {
    if (why.empty()) why = "Dear ImGui's OpenGL backend did not start again";
    if (why != s.renew_error) std::cerr << "reducescope: no new OpenGL context yet (" << why << "); trying again each second\n";
    s.renew_error = why;
    s.next_try = now + 1;
    return;
  }
  s.renderer = true;
  s.renew_error.clear();
  ++s.resets;
  s.last_reset = now;
  s.recent_resets.push_back(now);
  if (moved) {
    std::cerr << "reducescope: the GPU reset the window's OpenGL context (reset " << s.resets << ", the third within a "
              << "minute); drawing on " << s.moved_to << " from now on\n";
    return;
  }
  std::cerr << "reducescope: the GPU reset the window's OpenGL context (reset " << s.resets << "); drawing again in a "
            << "new one" << (s.headless ? " (waited " + std::to_string(s.headless->reset_wait_s()) + " s for the reset)" : "")
            << "\n";
}

}  // namespace

void apply_options(const Options& o, AppState& s) {
  if (o.have_kernel) s.a.kernel = o.kernels[0];
  if (o.have_block_size) s.a.block_size = o.block_sizes[0];
  s.a = s.a.valid();
  if (auto lib = library_pick(o.library, s.a.block_size)) s.a = *lib;  // --kernel cub::...: the session's trace
  if (o.have_n) s.n = o.n;
  if (o.have_pattern) s.pattern = o.pattern;
  if (o.compare) {
    s.compare = true;
    s.b = {o.compare_kernel, o.compare_block_size ? o.compare_block_size : s.a.block_size};
    s.b = s.b.valid();
    if (auto lib = library_pick(o.compare_library, s.b.block_size)) s.b = *lib;
  }
  if (o.dtypes == std::vector<DType>{DType::Float32}) s.float32 = true;  // --type float32 (key D)
  if (o.two_runs) s.two_runs = true;  // --two-runs: the atomics panel's two runs (issue 30)
  if (o.view >= 0) s.timing_tab = static_cast<TimingTab>(o.view);
  if (o.view == static_cast<int>(TimingTab::MultiGpu) && o.step >= 0) s.ring_step_wanted = o.step;
  if (o.ui_scale > 0) s.ui_scale = o.ui_scale;
  if (o.high_contrast) s.high_contrast = true;
  if (!o.lang.empty()) s.lang = *i18n::parse_lang(o.lang);
  else if (!s.lang_saved) s.lang = i18n::system_language();
  if (!o.lesson.empty() || o.class_mode) {  // --lesson NAME: Predict mode with a bundled lesson ("default": a
    s.predict.on = true;                     // question per step); --class-mode: the room answers, not scored
    s.predict.classroom = o.class_mode;
    const auto& all = bundled_lessons();
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].name == o.lesson) s.predict.lesson = static_cast<int>(i);
    }
  }
  if (!o.serve_url.empty()) {  // --serve URL: the room answers on their pages (issue 56)
    try {
      s.room = std::make_shared<RoomClient>(o.serve_url);
    } catch (const std::invalid_argument& e) {
      std::cerr << "reducescope: " << e.what() << "; the room answers aloud\n";
    }
  }
  if (o.large_charts) s.large_charts = true;
  s.show_help = o.help_overlay;
  s.playing = o.play;
}

Surface::Surface() = default;
Surface::~Surface() = default;

namespace {

GLFWwindow* open_window(WindowGeometry* geom, bool stats, unsigned (**reset_status)()) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "reducescope: cannot open a window (no display?). Use `reducescope bench`, `trace`, `show` or "
                 "`export` on machines without one, or --headless for screenshots.\n";
    return nullptr;
  }
  // Inside the monitor's work area: a saved size only where it fits (a 1280x720 projector).
  bool maximize = false;
  if (GLFWmonitor* mon = glfwGetPrimaryMonitor()) {
    WorkArea wa;
    glfwGetMonitorWorkarea(mon, &wa.x, &wa.y, &wa.width, &wa.height);
    *geom = fit_window(*geom, wa, &maximize);
  }
  GLFWwindow* win = create_window(*geom, stats, reset_status);
  if (!win) {
    glfwTerminate();
    return nullptr;
  }
  if (maximize) glfwMaximizeWindow(win);
  install_key_queue(win);  // before ImGui's backend, which chains to it
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  return win;
}

}  // namespace

bool open_surface(const Options& o, WindowGeometry* geom, Surface* out) {
  if (o.headless) {
    std::string why;
    out->headless = Headless::open(geom->width, geom->height, &why);
    if (!out->headless) {
      std::cerr << "reducescope: --headless: " << why << "\n";
      return false;
    }
    out->paced = !o.stats;
    std::cout << "headless: " << out->headless->description() << std::endl;
  } else {
    out->win = open_window(geom, o.stats, &out->reset_status);
    if (!out->win) return false;
  }
  out->stats = o.stats;
  if (const char* f = std::getenv("REDUCESCOPE_SIMULATE_GL_RESET")) {  // frame numbers, comma-separated
    for (const char* p = f; *p;) {
      char* end = nullptr;
      const long n = std::strtol(p, &end, 10);
      if (end == p) break;
      out->simulate_resets.push_back(n);
      p = *end == ',' ? end + 1 : end;
    }
  }
  // Dear ImGui 1.86's OpenGL 3 backend loads its GL functions on its own, through libGL.so.1's glXGetProcAddressARB
  // (imgui_impl_opengl3_loader.h), also under EGL: glvnd's libGL.so.1 (Debian's libgl1) hands out its dispatch
  // stubs, which call the current context, whoever made it.
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    std::cerr << "reducescope: Dear ImGui's OpenGL 3 backend cannot load OpenGL (it opens libGL.so.1; Debian: libgl1)\n";
    if (out->win) {
      ImGui_ImplGlfw_Shutdown();
      glfwDestroyWindow(out->win);
      glfwTerminate();
      out->win = nullptr;
    }
    out->headless.reset();
    return false;
  }
  return true;
}

void poll_events(Surface& s) {
  if (s.win) glfwPollEvents();
}

void platform_new_frame(Surface& s) {
  if (s.win) ImGui_ImplGlfw_NewFrame();
  else s.headless->new_frame();
}

void framebuffer_size(const Surface& s, int* width, int* height) {
  if (s.win) {
    glfwGetFramebufferSize(s.win, width, height);
  } else {
    *width = s.headless->width();
    *height = s.headless->height();
  }
}

float content_scale(const Surface& s) {
  float xs = 1, ys = 1;
  if (s.win) glfwGetWindowContentScale(s.win, &xs, &ys);
  return xs;
}

bool should_close(const Surface& s) { return s.win ? glfwWindowShouldClose(s.win) : s.close_requested; }

void request_close(Surface& s) {
  if (s.win) glfwSetWindowShouldClose(s.win, 1);
  s.close_requested = true;
}

void present(Surface& s) {
  if (s.renderer) {
    if (s.win) glfwSwapBuffers(s.win);
    else s.headless->present(s.paced);
  }
  ++s.frames;
  if (context_lost(s)) renew_context(s);
}

bool surface_lost(const Surface& s) { return context_lost(s); }

std::string reset_note(const Surface& s) {
  if (!s.renderer) {
    return i18n::strf(_("The GPU reset this window's OpenGL context and no new one could be made yet (%s); trying "
                        "again each second."), s.renew_error.c_str());
  }
  if (s.resets == 0) return "";
  if (!s.moved_to.empty()) {
    return i18n::strf(_("The GPU reset this window's OpenGL context %d times, 3 of them within a minute: the window now "
                        "draws on %s. A kernel that faulted on this GPU can cause it: see docs/your-kernel.md."),
                      s.resets, s.moved_to.c_str());
  }
  return i18n::strf(_("The GPU reset this window's OpenGL context (resets: %d, the last %.0f s ago); the window draws "
                      "again in a new context each time. A kernel that faulted on this GPU can cause it: see "
                      "docs/your-kernel.md."),
                    s.resets, now_s() - s.last_reset);
}

void remember_geometry(const Surface& s, WindowGeometry* geom) {
  if (!s.win) return;
  glfwGetWindowPos(s.win, &geom->x, &geom->y);
  glfwGetWindowSize(s.win, &geom->width, &geom->height);
}

void close_surface(Surface& s) {
  if (s.renderer) ImGui_ImplOpenGL3_Shutdown();
  if (s.win) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();  // saves the settings
  if (s.win) {
    glfwDestroyWindow(s.win);
    glfwTerminate();
    s.win = nullptr;
  }
  s.headless.reset();
}

fs::path asset_dir() {
  if (const char* env = std::getenv("REDUCESCOPE_ASSETS")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path p : {exe.parent_path() / "assets", exe.parent_path().parent_path() / "share/reducescope/assets"}) {
      if (fs::is_directory(p, ec)) return p;
    }
  }
  return RS_ASSET_DIR;
}

}  // namespace rs::gui
