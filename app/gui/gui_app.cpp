// Reads top to bottom: setup, state, loop (poll, new frame, UI, render), cleanup in reverse.
#include "gui_app.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <vector>

#include "commands.hpp"
#include "gpu_worker.hpp"
#include "panels.hpp"
#include "window_layout.hpp"
#include "settings.hpp"
#include "trace_io.hpp"
#include "web_export.hpp"
#ifdef REDUCESCOPE_HAS_CHARTS
#include "charts.hpp"
#endif

namespace rs {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void glfw_error(int code, const char* what) { std::fprintf(stderr, "reducescope: GLFW error %d: %s\n", code, what); }

// Key presses with their modifiers, queued. ImGui 1.86's GLFW backend keeps only the key state
// per frame, so a press and release within one frame (a quick tap, or xdotool) would be lost;
// ImGui's backend chains to this callback, installed before it.
struct KeyPress {
  int key, mods;
};
std::vector<KeyPress> g_keys;
void key_callback(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) g_keys.push_back({key, mods});
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

// A large, readable UI font from Debian's fonts-dejavu-core; ImGui's built-in font if it is missing.
void load_font(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
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

// Dark (default) or high-contrast: black ground, white text, bright borders and a yellow focus.
void apply_theme(bool high_contrast, float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  // Secondary text bright enough for the back of a room (Dear ImGui's dark theme uses 50% grey).
  style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.70f, 0.70f, 0.72f, 1);
  if (high_contrast) {
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_PopupBg] = ImVec4(0.05f, 0.05f, 0.05f, 1);
    c[ImGuiCol_Border] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_MenuBarBg] = ImVec4(0.1f, 0.1f, 0.1f, 1);
    c[ImGuiCol_Header] = c[ImGuiCol_Button] = c[ImGuiCol_Tab] = ImVec4(0.0f, 0.3f, 0.55f, 1);
    c[ImGuiCol_HeaderHovered] = c[ImGuiCol_ButtonHovered] = c[ImGuiCol_TabHovered] = ImVec4(0.0f, 0.45f, 0.7f, 1);
    c[ImGuiCol_HeaderActive] = c[ImGuiCol_ButtonActive] = c[ImGuiCol_TabActive] = ImVec4(0.0f, 0.45f, 0.7f, 1);
    c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = ImVec4(1, 0.9f, 0.2f, 1);
    c[ImGuiCol_NavHighlight] = ImVec4(1, 0.9f, 0.2f, 1);
    style.WindowBorderSize = 2;
    style.FrameBorderSize = 1;
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
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

// Session files and traces that File > Open offers: the bundled ones and those in the working folder.
std::vector<std::string> openable_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::path& dir : {asset_dir() / "sessions", fs::current_path(ec), asset_dir() / "traces"}) {
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext == ".rssession" || ext == ".rstrace") out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The live measurements as a session, for File > Export when no recording is open.
Session live_session(const gui::AppState& s) {
  Session out;
  out.meta = session_meta(s.device, s.n, s.pattern, gui::kGuiSamples, gui::kTimingWarmups);
  SessionMeta& m = out.meta;
  m.copy_gbps = s.copy_gbps;
  m.cub_ms = s.cub_ms;
  for (const auto& [key, t] : s.timings) {
    out.timings.push_back(to_session_timing(key.first, key.second, t, !s.wrong_sum.count(key)));
  }
  return out;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

}  // namespace

int run_gui(const Options& o) {
  const auto t_start = Clock::now();
  // --- Settings, then the window they place ------------------------------------------------
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  gui::AppState s;
  gui::WindowGeometry geom;
  gui::load_settings(gui::settings_path(), &s, &geom);
  // The command line overrides the saved settings.
  if (o.have_kernel) s.a.kernel = o.kernels[0];
  if (o.have_block_size) s.a.block_size = o.block_sizes[0];
  s.a = s.a.valid();
  if (o.have_n) s.n = o.n;
  if (o.have_pattern) s.pattern = o.pattern;
  if (o.compare) {
    s.compare = true;
    s.b = {o.compare_kernel, o.compare_block_size ? o.compare_block_size : s.a.block_size};
    s.b = s.b.valid();
  }
  if (o.view >= 0) s.timing_tab = static_cast<gui::TimingTab>(o.view);
  if (o.ui_scale > 0) s.ui_scale = o.ui_scale;
  if (o.high_contrast) s.high_contrast = true;
  if (o.large_charts) s.large_charts = true;
  s.show_help = o.help_overlay;
  s.playing = o.play;
  const std::string export_dir = o.export_dir.empty() ? "reducescope-charts" : o.export_dir;
  const char* widget_env = std::getenv("REDUCESCOPE_WIDGET_MAP");  // GUI tests: where to write widget rectangles
  const std::string widget_map = widget_env ? widget_env : "";

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "reducescope: cannot open a window (no display?). Use `reducescope bench`, `trace`, `show` or "
                 "`export` on machines without one.\n";
    ImGui::DestroyContext();
    return kExitRuntime;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  // Inside the monitor's work area: a saved size only where it fits (a 1280x720 projector).
  bool maximize = false;
  if (GLFWmonitor* mon = glfwGetPrimaryMonitor()) {
    gui::WorkArea wa;
    glfwGetMonitorWorkarea(mon, &wa.x, &wa.y, &wa.width, &wa.height);
    geom = gui::fit_window(geom, wa, &maximize);
  }
  GLFWwindow* win = glfwCreateWindow(geom.width, geom.height, "ReduceScope", nullptr, nullptr);
  if (!win) {
    std::cerr << "reducescope: cannot create an OpenGL 3.3 window\n";
    glfwTerminate();
    ImGui::DestroyContext();
    return kExitRuntime;
  }
  if (geom.x >= 0 && geom.y >= 0) glfwSetWindowPos(win, geom.x, geom.y);
  if (maximize) glfwMaximizeWindow(win);
  glfwMakeContextCurrent(win);
  glfwSwapInterval(o.stats ? 0 : 1);  // --stats measures what a frame costs, not the display's rate
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::cerr << "reducescope: cannot load OpenGL functions\n";
    glfwDestroyWindow(win);
    glfwTerminate();
    ImGui::DestroyContext();
    return kExitRuntime;
  }
  float xs = 1, ys = 1;
  glfwGetWindowContentScale(win, &xs, &ys);
  float applied_scale = 0;
  bool applied_contrast = false;
  glfwSetKeyCallback(win, key_callback);
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  // --- State -------------------------------------------------------------------------------
  gui::GpuWorker worker;  // opens the GPU on its own thread; requests come once the state is set up
  int want_step = o.step;
  std::map<const Trace*, std::shared_ptr<const gui::LoadedTrace>> session_traces;  // replays built so far
  auto show = [&](int slot, std::shared_ptr<const gui::LoadedTrace> t) {
    (slot == 0 ? s.shown : s.shown_b) = std::move(t);
    if (slot != 0) return;
    const size_t steps = s.num_steps();
    s.step = want_step >= 0 ? std::min<size_t>(static_cast<size_t>(want_step), steps ? steps - 1 : 0) : steps / 2;
    want_step = -1;  // only the first trace opens at --step
  };
  // Shows side A (and B) from the open session: its traces and its timings.
  auto show_from_session = [&] {
    const Session& ses = *s.session;
    for (int slot = 0; slot < (s.compare ? 2 : 1); ++slot) {
      const gui::Pick p = slot == 0 ? s.a : s.b;
      const Trace* t = ses.find_trace(kernel_info(p.kernel).name, p.block_size);
      if (!t) {
        const KernelInfo& k = kernel_info(p.kernel);
        s.error = "the session holds no trace of " + std::string(k.name) + " at " + std::to_string(p.block_size) +
                  " threads" +
                  (k.pitfall ? std::string(": it is wrong code on purpose, recorded only with --track pitfalls; "
                                           "its H100 results (how often the sum is wrong) are in docs/tracks.md")
                             : std::string());
        continue;
      }
      auto& loaded = session_traces[t];
      if (!loaded) {
        auto l = std::make_shared<gui::LoadedTrace>(*t);
        l->origin = s.session_path;
        loaded = std::move(l);
      }
      if ((slot == 0 ? s.shown : s.shown_b) == loaded) continue;
      const bool had = s.shown != nullptr;
      const size_t keep = s.step;
      show(slot, loaded);
      if (slot == 0 && had && keep < s.num_steps()) s.step = keep;  // a toggle keeps the step where it can
    }
    if (!s.compare) s.shown_b.reset();
  };
  auto open_session = [&](std::shared_ptr<const Session> ses, const std::string& path) {
    worker.pause_live();  // the GPU has nothing to show while a recording is open
    s.session = std::move(ses);
    s.session_path = path;
    session_traces.clear();
    s.clear_measurements();
    const SessionMeta& m = s.session->meta;
    for (const auto& t : s.session->timings) {
      const KernelInfo* k = find_kernel(t.kernel);
      if (!k) continue;
      s.timings[{k->id, t.block_size}] = to_timing(t);
      if (!t.correct) s.wrong_sum.insert({k->id, t.block_size});
    }
    s.copy_gbps = m.copy_gbps;
    s.cub_ms = m.cub_ms;
    s.n = m.n;
    if (auto p = parse_pattern(m.pattern)) s.pattern = *p;
    s.shown.reset();
    s.shown_b.reset();
    s.error.clear();
    s.busy = false;
    show_from_session();
  };
  // Opens a session or a trace file; returns "" or the error.
  auto open_file = [&](const std::string& path) -> std::string {
    try {
      if (is_session_file(path)) {
        open_session(std::make_shared<const Session>(load_session(path)), path);
      } else {
        auto t = std::make_shared<gui::LoadedTrace>(load_trace(path));
        t->origin = path;
        if (auto k = find_kernel(t->trace.meta.kernel)) s.a.kernel = k->id;
        s.a.block_size = t->trace.meta.block_size;
        s.session.reset();
        s.compare = false;
        show(0, std::move(t));
      }
      s.notice = "opened " + path;
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  };
  // The bundled recording: both tracks (h100.rssession, the first release's, harris only, stays as a fixture).
  const fs::path bundled = asset_dir() / "sessions" / "h100-tracks.rssession";
  bool opened_file = false;
  if (!o.file.empty()) {
    if (std::string why = open_file(o.file); why.empty()) opened_file = true;
    else s.error = why;
  }

  gui::Panels panels;  // every panel, each with its own view state (window_layout.hpp)

  // Toggle latency: from a change of selection to its trace and timing on screen.
  Clock::time_point t_request{};
  bool waiting_trace = false, waiting_timing = false;
  std::vector<double> latencies_ms;
  uint64_t requested_n = 0;
  Pattern requested_pattern = s.pattern;
  auto request = [&] {
    if (block_size_problem(s.a.kernel, s.a.block_size)) return;
    if (s.n != requested_n || s.pattern != requested_pattern) {  // another input: earlier timings do not apply
      s.clear_measurements();
      requested_n = s.n;
      requested_pattern = s.pattern;
    }
    gui::Request r{s.a, std::nullopt, s.n, s.pattern, true, s.timings.empty()};
    if (s.compare) r.b = s.b;
    worker.request(r);
    s.busy = true;
    s.status = "queued";
    t_request = Clock::now();
    waiting_trace = waiting_timing = true;
  };
  if (!opened_file) request();

  struct ExportResult {
    bool ok;
    std::string text;  // what was written, or why not
  };
  std::future<ExportResult> export_job;  // File > Export runs off the UI thread
  auto start_export = [&] {
#ifdef REDUCESCOPE_HAS_CHARTS
    if (export_job.valid()) return;
    if (s.timings.empty()) {
      s.error = "nothing to export yet: no timings";
      return;
    }
    auto ses = s.session ? s.session : std::make_shared<const Session>(live_session(s));
    s.notice = "exporting charts to " + export_dir + " ...";
    // Every block size with timings, as `reducescope export` does without --block-size.
    export_job = std::async(std::launch::async, [ses, dir = export_dir]() -> ExportResult {
      try {
        const ChartFiles f = export_charts(*ses, dir);
        return {true, "exported " + std::to_string(f.paths.size()) + " files (PNG, SVG, PDF, CSV) to " +
                          fs::absolute(dir).string()};
      } catch (const std::exception& e) {
        return {false, e.what()};
      }
    });
#else
    s.error = "this build has no chart export (built with REDUCESCOPE_CHARTS=OFF)";
#endif
  };
  // File > Export web page: one self-contained HTML page that replays in any browser (web_export.hpp),
  // into the charts' folder: the open recording, or the live timings with the traces on screen. Off
  // the UI thread like the charts (the bundled session's 231 traces take about 3 s).
  const std::string web_page_path = (fs::path(export_dir) / "reducescope-replay.html").string();
  auto start_web_export = [&] {
    if (export_job.valid()) return;
    std::shared_ptr<const Session> ses = s.session;
    if (!ses) {
      Session live = live_session(s);
      for (const auto& t : {s.shown, s.shown_b}) {
        if (t) live.traces.push_back(t->trace);
      }
      ses = std::make_shared<const Session>(std::move(live));
    }
    s.notice = "writing the web page " + web_page_path + " ...";
    const std::string name = fs::path(s.session_path).filename().string();
    export_job = std::async(std::launch::async, [ses, path = web_page_path, name]() -> ExportResult {
      try {
        WebExportOptions w;
        w.session_name = name;
        const WebExportResult r = export_web_page(*ses, path, w);
        return {true, "web page written to " + fs::absolute(path).string() + " (" + std::to_string(r.bytes / 1000) +
                          " kB, " + std::to_string(r.traces) + " of " + std::to_string(r.traces_in_session) + " traces)"};
      } catch (const std::exception& e) {
        return {false, e.what()};
      }
    });
  };

  bool open_popup = false;
  char open_path[1024] = {};
  std::string open_error;
  std::vector<std::string> open_list;

  // --- Loop --------------------------------------------------------------------------------
  int frame = 0, frames_after_idle = -1;
  bool idle = opened_file;
  int rc = kExitOk;
  double first_frame_ms = 0;
  std::vector<double> frame_ms;  // CPU time to build and render each frame
  while (!glfwWindowShouldClose(win)) {
    glfwPollEvents();
    const auto t_frame = Clock::now();
    for (gui::WorkerEvent& e : worker.poll()) {
      using K = gui::WorkerEvent::Kind;
      const bool current = e.n == s.n && e.pattern == s.pattern && !s.recorded();
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
          if (!s.shown && !s.session) {
            if (std::string why = open_file(bundled.string()); !why.empty()) s.error = why;
            s.notice.clear();
          }
          break;
        case K::Status:
          s.status = e.text;
          break;
        case K::TraceReady:
          if (!current) break;
          s.error.clear();
          show(e.slot, std::move(e.trace));
          if (e.slot == 0) waiting_trace = false;
          break;
        case K::TimingReady:
          if (!current) break;
          s.timings[{e.pick.kernel, e.pick.block_size}] = e.timing;
          if (e.correct) s.wrong_sum.erase({e.pick.kernel, e.pick.block_size});
          else s.wrong_sum.insert({e.pick.kernel, e.pick.block_size});
          if (e.pick == s.a) waiting_timing = false;
          break;
        case K::References:
          if (!current) break;
          s.copy_gbps = e.copy_gbps;
          s.cub_ms = e.timing.median_ms;
          break;
        case K::LiveSample:
          if (!current) break;
          s.live.push_back({e.pick, static_cast<float>(e.timing.median_ms),
                            std::chrono::duration<double>(Clock::now() - t_start).count()});
          while (s.live.size() > 600) s.live.pop_front();
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
    if (t_request != Clock::time_point{} && !waiting_trace && !waiting_timing) {
      latencies_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t_request).count());
      t_request = {};
    }
    if (export_job.valid() && export_job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      const ExportResult r = export_job.get();
      if (r.ok) s.notice = r.text;
      else s.error = "export failed: " + r.text;
      if (o.stats) std::cout << "export: " << r.text << std::endl;
    }

    // Keys: the app's shortcuts (F1 lists them), unless a text field has focus.
    std::vector<gui::Key> keys;
    for (const KeyPress& k : g_keys) {
      const bool ctrl = k.mods & GLFW_MOD_CONTROL;
      if (ImGui::GetIO().WantTextInput && k.key != GLFW_KEY_ESCAPE) continue;
      if (ctrl) {
        if (k.key == GLFW_KEY_EQUAL || k.key == GLFW_KEY_KP_ADD) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
        if (k.key == GLFW_KEY_MINUS || k.key == GLFW_KEY_KP_SUBTRACT) s.ui_scale = std::max(0.75f, s.ui_scale - 0.25f);
        if (k.key == GLFW_KEY_0) s.ui_scale = 1.0f;
        if (k.key == GLFW_KEY_H) s.high_contrast = !s.high_contrast;
        if (k.key == GLFW_KEY_E) start_export();
        if (k.key == GLFW_KEY_O) open_popup = true;
        if (k.key == GLFW_KEY_Q) glfwSetWindowShouldClose(win, 1);
        continue;
      }
      switch (k.key) {
        case GLFW_KEY_RIGHT: keys.push_back(gui::Key::Forward); break;
        case GLFW_KEY_LEFT: keys.push_back(gui::Key::Back); break;
        case GLFW_KEY_HOME: keys.push_back(gui::Key::Start); break;
        case GLFW_KEY_END: keys.push_back(gui::Key::End); break;
        case GLFW_KEY_SPACE: keys.push_back(gui::Key::PlayPause); break;
        case GLFW_KEY_RIGHT_BRACKET: keys.push_back(gui::Key::Faster); break;
        case GLFW_KEY_LEFT_BRACKET: keys.push_back(gui::Key::Slower); break;
        case GLFW_KEY_UP: keys.push_back(gui::Key::PrevKernel); break;
        case GLFW_KEY_DOWN: keys.push_back(gui::Key::NextKernel); break;
        case GLFW_KEY_PAGE_UP: keys.push_back(gui::Key::BiggerBlock); break;
        case GLFW_KEY_PAGE_DOWN: keys.push_back(gui::Key::SmallerBlock); break;
        case GLFW_KEY_C: keys.push_back(gui::Key::Compare); break;
        case GLFW_KEY_T: keys.push_back(gui::Key::LargeCharts); break;
        case GLFW_KEY_F: keys.push_back(gui::Key::Focus); break;
        case GLFW_KEY_F1: s.show_help = !s.show_help; break;
        case GLFW_KEY_SLASH: if (k.mods & GLFW_MOD_SHIFT) s.show_help = !s.show_help; break;
        case GLFW_KEY_ESCAPE: s.show_help = false; break;
        default: break;
      }
    }
    g_keys.clear();

    // UI scale and theme: rebuild the font atlas and the style when they change.
    if (s.ui_scale != applied_scale || s.high_contrast != applied_contrast) {
      applied_scale = s.ui_scale;
      applied_contrast = s.high_contrast;
      load_font(xs * s.ui_scale);
      ImGui::GetIO().Fonts->Build();
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
      apply_theme(s.high_contrast, xs * s.ui_scale);
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    panels.controls.handleKeys(s, keys);
    gui::ControlsPanel::tick(s);

    // Menu bar.
    float menu_h = 0;
    if (ImGui::BeginMainMenuBar()) {
      const bool file_open = ImGui::BeginMenu("File");
      gui::note_widget("menu/File");
      if (file_open) {
        if (ImGui::MenuItem("Open session or trace...", "Ctrl O")) open_popup = true;
        if (ImGui::MenuItem("Export timing charts", "Ctrl E", false, !s.timings.empty())) start_export();
        gui::note_widget("menu/File/Export");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("PNG, SVG, PDF and CSV into %s", export_dir.c_str());
        if (ImGui::MenuItem("Export web page", nullptr, false, s.session || s.shown)) start_web_export();
        gui::note_widget("menu/File/WebPage");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("One HTML file that replays in any browser: %s", web_page_path.c_str());
        if (ImGui::MenuItem("Back to the live GPU", nullptr, false, s.have_device && s.recorded())) {
          s.session.reset();
          s.clear_measurements();
          s.selection_changed = true;
        }
        if (ImGui::MenuItem("Quit", "Ctrl Q")) glfwSetWindowShouldClose(win, 1);
        ImGui::EndMenu();
      }
      if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Compare two kernels (A above B)", "C", s.compare)) {
          s.compare = !s.compare;
          s.selection_changed = true;
        }
        ImGui::MenuItem("Large timing charts", "T", &s.large_charts);
        ImGui::MenuItem("Focus on the replay", "F", &s.focus);
        ImGui::MenuItem("High contrast", "Ctrl H", &s.high_contrast);
        if (ImGui::MenuItem("Larger", "Ctrl +")) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
        if (ImGui::MenuItem("Smaller", "Ctrl -")) s.ui_scale = std::max(0.75f, s.ui_scale - 0.25f);
        if (ImGui::MenuItem("Normal size", "Ctrl 0")) s.ui_scale = 1.0f;
        ImGui::EndMenu();
      }
      const bool help_open = ImGui::BeginMenu("Help");
      gui::note_widget("menu/Help");
      if (help_open) {
        if (ImGui::MenuItem("Keyboard shortcuts", "F1")) s.show_help = true;
        ImGui::EndMenu();
      }
      // Where the data comes from, right-aligned in the room the menus leave: the longest form that fits
      // (the whole of it on hover), never over the menus.
      const std::string origin = gui::data_origin(s);
      const float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - 2 * ImGui::GetStyle().ItemSpacing.x - 8;
      std::string shown;
      for (const std::string& t : gui::data_origin_forms(s)) {
        if (ImGui::CalcTextSize(t.c_str()).x <= room) {
          shown = t;
          break;
        }
      }
      if (!shown.empty()) {
        ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(shown.c_str()).x - 12);
        if (s.recorded()) ImGui::TextColored(ImVec4(0.95f, 0.62f, 0.0f, 1), "%s", shown.c_str());
        else ImGui::TextDisabled("%s", shown.c_str());
        gui::note_widget("menu/origin");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", origin.c_str());
      }
      menu_h = ImGui::GetWindowSize().y;
      ImGui::EndMainMenuBar();
    }

    // Layout: the step bar; controls | replay (A, or A above B) | source, banks, timings (window_layout.cpp).
    gui::draw_panels(s, panels, menu_h);
    gui::draw_help(s);

    // File > Open: a path, or one of the files found.
    if (open_popup) {
      ImGui::OpenPopup("Open a session or trace");
      open_popup = false;
      open_list = openable_files();
      open_error.clear();
    }
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(d.x * 0.6f, d.y * 0.5f), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Open a session or trace")) {
      ImGui::TextUnformatted("File (.rssession or .rstrace):");
      ImGui::SetNextItemWidth(-1);
      const bool enter = ImGui::InputText("##path", open_path, sizeof open_path, ImGuiInputTextFlags_EnterReturnsTrue);
      ImGui::BeginChild("##files", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2.5f), true);
      for (const auto& f : open_list) {
        if (ImGui::Selectable(f.c_str(), f == open_path)) std::snprintf(open_path, sizeof open_path, "%s", f.c_str());
      }
      ImGui::EndChild();
      if (!open_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.25f, 1));
        ImGui::TextWrapped("%s", open_error.c_str());
        ImGui::PopStyleColor();
      }
      if (ImGui::Button("Open") || enter) {
        open_error = open_file(open_path);
        if (open_error.empty()) ImGui::CloseCurrentPopup();
      }
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
    }

    if (s.selection_changed) {
      s.selection_changed = false;
      s.error.clear();
      if (s.recorded()) {
        show_from_session();
      } else if (s.have_device) {
        request();
      } else if (s.device_known) {
        s.error = "no GPU here, and the open file holds only this trace; open a session (File > Open) to change it";
      }
    }
    ImGui::Render();
    gui::write_widget_map(widget_map);
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(win, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();  // count the rendering in the frame's time
    frame_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t_frame).count());

    // Automation: a screenshot once the GPU work has settled, or after --frames frames.
    ++frame;
    if (idle && frames_after_idle < 0) frames_after_idle = 0;
    if (frames_after_idle >= 0) ++frames_after_idle;
    const double secs = std::chrono::duration<double>(Clock::now() - t_start).count();
    bool done = o.screenshot.empty() && o.frames > 0 && frame >= o.frames && !export_job.valid();
    if (!o.screenshot.empty() && ((frames_after_idle >= 3 && frame >= o.frames && !export_job.valid()) || secs > 120)) {
      if (!save_screenshot(win, o.screenshot)) {
        std::cerr << "reducescope: cannot write " << o.screenshot << "\n";
        rc = kExitRuntime;
      } else {
        std::cout << "screenshot saved to " << o.screenshot << " after " << frame << " frames, " << secs
                  << " s; showing " << (s.shown ? s.shown->trace.meta.kernel : std::string("nothing")) << " at "
                  << s.a.block_size << " threads, step " << s.step << " of " << s.num_steps()
                  << (s.recorded() ? "; recorded session" : "") << (s.compare ? "; compare" : "") << std::endl
                  << "origin: " << gui::origin_sentence(s) << std::endl;
      }
      done = true;
    }
    glfwSwapBuffers(win);
    if (frame == 1) first_frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_start).count();
    if (done) break;
  }
  if (o.stats) {
    char b[512];
    std::snprintf(b, sizeof b,
                  "stats: first frame %.1f ms after start; %d frames; frame time (UI + render, vsync off) median %.2f "
                  "ms, p95 %.2f ms, max %.2f ms (%.0f fps at the median)\n",
                  first_frame_ms, frame, percentile(frame_ms, 0.5), percentile(frame_ms, 0.95),
                  percentile(frame_ms, 1.0), 1000.0 / std::max(percentile(frame_ms, 0.5), 1e-3));
    std::cout << b;
    for (double l : latencies_ms) std::printf("stats: selection to trace + timing on screen: %.1f ms\n", l);
    std::fflush(stdout);
  }

  // --- Cleanup (reverse order) -------------------------------------------------------------
  glfwGetWindowPos(win, &geom.x, &geom.y);
  glfwGetWindowSize(win, &geom.width, &geom.height);
  if (export_job.valid()) export_job.wait();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();  // saves the settings
  glfwDestroyWindow(win);
  glfwTerminate();
  return rc;
}

}  // namespace rs
