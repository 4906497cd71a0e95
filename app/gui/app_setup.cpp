#include "app_setup.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <system_error>

#include "headless.hpp"
#include "keys.hpp"

namespace rs::gui {

namespace fs = std::filesystem;

namespace {

void glfw_error(int code, const char* what) { std::fprintf(stderr, "reducescope: GLFW error %d: %s\n", code, what); }

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
  if (o.large_charts) s.large_charts = true;
  s.show_help = o.help_overlay;
  s.playing = o.play;
}

Surface::Surface() = default;
Surface::~Surface() = default;

namespace {

GLFWwindow* open_window(WindowGeometry* geom, bool stats) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "reducescope: cannot open a window (no display?). Use `reducescope bench`, `trace`, `show` or "
                 "`export` on machines without one, or --headless for screenshots.\n";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  // Inside the monitor's work area: a saved size only where it fits (a 1280x720 projector).
  bool maximize = false;
  if (GLFWmonitor* mon = glfwGetPrimaryMonitor()) {
    WorkArea wa;
    glfwGetMonitorWorkarea(mon, &wa.x, &wa.y, &wa.width, &wa.height);
    *geom = fit_window(*geom, wa, &maximize);
  }
  GLFWwindow* win = glfwCreateWindow(geom->width, geom->height, "ReduceScope", nullptr, nullptr);
  if (!win) {
    std::cerr << "reducescope: cannot create an OpenGL 3.3 window\n";
    glfwTerminate();
    return nullptr;
  }
  if (geom->x >= 0 && geom->y >= 0) glfwSetWindowPos(win, geom->x, geom->y);
  if (maximize) glfwMaximizeWindow(win);
  glfwMakeContextCurrent(win);
  glfwSwapInterval(stats ? 0 : 1);  // --stats measures what a frame costs, not the display's rate
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::cerr << "reducescope: cannot load OpenGL functions\n";
    glfwDestroyWindow(win);
    glfwTerminate();
    return nullptr;
  }
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
    out->win = open_window(geom, o.stats);
    if (!out->win) return false;
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
  if (s.win) {
    glfwSwapBuffers(s.win);
    return;
  }
  s.headless->present(s.paced);
  if (!s.headless->lost()) return;
  // The GPU reset the context (a kernel faulted on this GPU: issue 38, item 7): a new one, and ImGui's OpenGL objects
  // made again in it; the frames go on.
  ImGui_ImplOpenGL3_Shutdown();
  std::string why;
  s.renderer = s.headless->renew(&why) && ImGui_ImplOpenGL3_Init("#version 330 core");
  std::cerr << "reducescope: --headless: the GPU reset the OpenGL context (a kernel faulted on this GPU); drawing "
               "again in a new one (reset " << s.headless->resets() << ", completed after " << s.headless->reset_wait_s()
            << " s)\n";
  if (!s.renderer) {
    std::cerr << "reducescope: --headless: " << (why.empty() ? "Dear ImGui's OpenGL backend did not start again" : why)
              << "\n";
    request_close(s);
  }
}

bool surface_lost(const Surface& s) { return s.headless && s.headless->lost(); }

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
