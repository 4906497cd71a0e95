// Reads top to bottom: setup, state, loop (poll, new frame, UI, render), cleanup in reverse.
#include "gui_app.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "gpu_worker.hpp"
#include "panels.hpp"
#include "trace_io.hpp"

namespace rs {

namespace {

namespace fs = std::filesystem;

void glfw_error(int code, const char* what) { std::fprintf(stderr, "reducescope: GLFW error %d: %s\n", code, what); }

// Key presses, queued. ImGui 1.86's GLFW backend keeps only the key state per frame, so a
// press and release within one frame (a quick tap, or xdotool) would be lost; ImGui's
// backend chains to this callback, installed before it.
std::vector<int> g_keys;
void key_callback(GLFWwindow*, int key, int, int action, int) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) g_keys.push_back(key);
}

// Where the app's run-time files are: $REDUCESCOPE_ASSETS, beside the binary, or the source tree.
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

// A readable UI font from Debian's fonts-dejavu-core; ImGui's built-in font if it is missing.
void load_font(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("REDUCESCOPE_FONT")) candidates.push_back(env);
  candidates.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  for (const auto& path : candidates) {
    if (fs::exists(path) && io.Fonts->AddFontFromFileTTF(path.c_str(), 17.0f * scale)) return;
  }
  ImFontConfig cfg;
  cfg.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&cfg);
}

bool save_screenshot(GLFWwindow* win, const std::string& path) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(win, &w, &h);
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  stbi_flip_vertically_on_write(1);
  return stbi_write_png(path.c_str(), w, h, 4, px.data(), w * 4) != 0;
}

// The trace recorded on a real GPU that ships in assets/traces, for machines without one.
std::shared_ptr<const gui::LoadedTrace> bundled_trace(KernelId k, unsigned bs, std::string& error) {
  fs::path p = asset_dir() / "traces" / (std::string(kernel_info(k).name) + "_bs" + std::to_string(bs) + ".rstrace");
  if (!fs::exists(p)) {
    error = "no recorded trace of " + std::string(kernel_info(k).name) + " at " + std::to_string(bs) +
            " threads is bundled (" + p.string() + ")";
    return nullptr;
  }
  try {
    auto t = std::make_shared<gui::LoadedTrace>(load_trace(p.string()));
    t->origin = p.string();
    error.clear();
    return t;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

}  // namespace

int run_gui(const Options& o) {
  // --- Setup -------------------------------------------------------------------------------
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "reducescope: cannot open a window (no display?). Use `reducescope bench`, `trace` or `show` "
                 "on machines without one.\n";
    return kExitRuntime;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  GLFWwindow* win = glfwCreateWindow(1600, 1000, "ReduceScope", nullptr, nullptr);
  if (!win) {
    std::cerr << "reducescope: cannot create an OpenGL 3.3 window\n";
    glfwTerminate();
    return kExitRuntime;
  }
  glfwMakeContextCurrent(win);
  glfwSwapInterval(1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::cerr << "reducescope: cannot load OpenGL functions\n";
    glfwDestroyWindow(win);
    glfwTerminate();
    return kExitRuntime;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is computed from the window size
  ImGui::StyleColorsDark();
  float xs = 1, ys = 1;
  glfwGetWindowContentScale(win, &xs, &ys);
  ImGui::GetStyle().ScaleAllSizes(xs);
  load_font(xs);
  glfwSetKeyCallback(win, key_callback);
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  // --- State -------------------------------------------------------------------------------
  gui::AppState s;
  if (!o.kernels.empty()) s.kernel = o.kernels[0];
  if (!o.block_sizes.empty()) s.block_size = o.block_sizes[0];
  s.n = o.n;
  s.pattern = o.pattern;
  int want_step = o.step;
  bool opened_file = false;
  if (!o.file.empty()) {
    try {
      auto t = std::make_shared<gui::LoadedTrace>(load_trace(o.file));
      t->origin = o.file;
      if (auto k = find_kernel(t->trace.meta.kernel)) s.kernel = k->id;
      s.block_size = t->trace.meta.block_size;
      s.shown = std::move(t);
      opened_file = true;
    } catch (const std::exception& e) {
      s.error = e.what();
    }
  }
  gui::ControlsPanel controls;
  gui::SmemPanel smem;
  gui::WarpsPanel warps;
  gui::BanksPanel banks;
  gui::TimingPanel timing;
  gui::GpuWorker worker;
  auto request = [&] {
    if (block_size_problem(s.kernel, s.block_size)) return;
    worker.request({s.kernel, s.block_size, s.n, s.pattern});
    s.busy = true;
    s.status = "queued";
  };
  auto show = [&](std::shared_ptr<const gui::LoadedTrace> t) {
    s.shown = std::move(t);
    const size_t steps = s.num_steps();
    s.step = want_step >= 0 ? std::min<size_t>(static_cast<size_t>(want_step), steps ? steps - 1 : 0) : steps / 2;
    want_step = -1;  // only the first trace opens at --step
  };
  if (s.shown) show(s.shown);
  if (!opened_file) request();

  // --- Loop --------------------------------------------------------------------------------
  const auto t0 = std::chrono::steady_clock::now();
  int frame = 0, frames_after_idle = -1;
  bool idle = false;
  int rc = kExitOk;
  while (!glfwWindowShouldClose(win)) {
    glfwPollEvents();
    for (gui::WorkerEvent& e : worker.poll()) {
      using K = gui::WorkerEvent::Kind;
      switch (e.kind) {
        case K::DeviceReady:
          s.device_known = s.have_device = true;
          s.device = e.device;
          if (opened_file) idle = true;  // nothing was requested
          break;
        case K::NoDevice:
          s.device_known = true;
          s.have_device = false;
          s.busy = false;
          s.no_device_reason = e.text;
          idle = true;
          if (!s.shown) {
            std::string why;
            if (auto t = bundled_trace(s.kernel, s.block_size, why)) show(t);
            else s.error = why;
          }
          break;
        case K::Status:
          s.status = e.text;
          break;
        case K::TraceReady:
          s.error.clear();
          show(std::move(e.trace));
          break;
        case K::TimingReady:
          s.timings[{e.kernel, e.block_size}] = e.timing;
          break;
        case K::Error:
          s.error = e.text;
          break;
        case K::Idle:
          s.busy = false;
          idle = true;
          break;
      }
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    std::vector<gui::Key> keys;
    for (int k : g_keys) {
      if (k == GLFW_KEY_RIGHT) keys.push_back(gui::Key::Forward);
      if (k == GLFW_KEY_LEFT) keys.push_back(gui::Key::Back);
      if (k == GLFW_KEY_HOME) keys.push_back(gui::Key::Start);
      if (k == GLFW_KEY_END) keys.push_back(gui::Key::End);
    }
    g_keys.clear();
    controls.handleKeys(s, keys);
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float lw = std::max(330.0f, d.x * 0.21f), rw = std::max(360.0f, d.x * 0.25f);
    const float mw = d.x - lw - rw, top = d.y * 0.58f;
    controls.draw(s, ImVec2(0, 0), ImVec2(lw, d.y));
    smem.draw(s, ImVec2(lw, 0), ImVec2(mw, top));
    warps.draw(s, ImVec2(lw, top), ImVec2(mw, d.y - top));
    banks.draw(s, ImVec2(lw + mw, 0), ImVec2(rw, top));
    timing.draw(s, ImVec2(lw + mw, top), ImVec2(rw, d.y - top));
    if (s.selection_changed) {
      s.selection_changed = false;
      if (s.have_device) {
        request();
      } else if (s.device_known) {
        std::string why;
        if (auto t = bundled_trace(s.kernel, s.block_size, why)) show(t);
        else s.error = why;
      }
    }
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(win, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    // Automation: a screenshot once the GPU work has settled, or after --frames frames.
    ++frame;
    if (idle && frames_after_idle < 0) frames_after_idle = 0;
    if (frames_after_idle >= 0) ++frames_after_idle;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool done = o.screenshot.empty() && o.frames > 0 && frame >= o.frames;
    if (!o.screenshot.empty() && ((frames_after_idle >= 3 && frame >= o.frames) || secs > 120)) {
      if (!save_screenshot(win, o.screenshot)) {
        std::cerr << "reducescope: cannot write " << o.screenshot << "\n";
        rc = kExitRuntime;
      } else {
        std::cout << "screenshot saved to " << o.screenshot << " after " << frame << " frames, " << secs
                  << " s; showing " << (s.shown ? s.shown->trace.meta.kernel : std::string("nothing")) << " at "
                  << s.block_size << " threads, step " << s.step << " of " << s.num_steps() << std::endl;
      }
      done = true;
    }
    glfwSwapBuffers(win);
    if (done) break;
  }

  // --- Cleanup (reverse order) -------------------------------------------------------------
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(win);
  glfwTerminate();
  return rc;
}

}  // namespace rs
