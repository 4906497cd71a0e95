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

// The heights of one side's replay column: shared memory, the global slice, lanes, atomics, warps
// (0: not shown). replay_column() gives what each view wants; fit_column() fits them into the height
// above the warps, the grids (shared memory, the global slice) taking what is left.
struct ReplayColumn {
  float smem = 0, global = 0, lanes = 0, atomics = 0, warps = 0;
  bool smem_grows = true;     // the shared-memory grid takes the leftover height (false: one line of text)
  bool global_grows = false;  // the same for the global slice's grid
  float smem_rows = 0;        // rows of 32 words the kernel uses
  float global_rows = 0;      // rows of 32 elements in the global slice (at most 32 counted)
  bool global_first = false;  // the global grid takes the shared-memory grid's place at the top
  float wanted = 0;           // what the views above the warps want together (compare mode splits by it)
};

// The shared-memory view's rows of 32 words that the kernel uses (by its last step).
float used_smem_rows(const Replay& r) {
  size_t rows = 0;
  const Step& last = r.steps().back();
  for (size_t i = 0; i < last.defined.size(); i += kNumBanks) {
    bool used = false;
    for (size_t j = i; j < std::min(i + kNumBanks, last.defined.size()); ++j) used = used || last.defined[j];
    rows += used;
  }
  return static_cast<float>(rows);
}

ReplayColumn replay_column(const gui::LoadedTrace* t, float h, float w) {
  ReplayColumn c;
  c.warps = h * 0.42f;
  c.smem = h - c.warps;
  if (!t) return c;
  const Replay& r = t->replay;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float chrome = ImGui::GetFrameHeight() + 2 * st.WindowPadding.y;  // title bar and padding
  // The warps panel takes what its rows need, between a fifth and 42% of the height.
  c.warps = std::clamp(gui::WarpsPanel::wanted_height(r, w), h * 0.2f, h * 0.42f);
  c.smem = h - c.warps;
  c.smem_rows = r.has_shared() ? used_smem_rows(r) : 0;
  // The shared-memory grid's cells as wide as `w` lets them be (32 a row beside the row labels), at most 24.
  const float cell_w = (w - 2 * st.WindowPadding.x - ImGui::CalcTextSize("1023").x - 6) / kNumBanks;
  const float smem_wanted = chrome + line * 4 + c.smem_rows * std::clamp(cell_w, 6.0f, 24.0f);
  c.wanted = r.has_shared() ? smem_wanted : chrome + line * 1.2f;
  // Harris's kernels keep the grid above the warps; other tracks' kernels show the global slice,
  // lanes and atomics views too (or say in one line that the kernel has none).
  if (t->trace.meta.track == "harris" && !r.has_lane_work() && !r.has_atomics() && !r.has_global_slice()) return c;
  c.lanes = chrome + gui::LanesPanel::wanted_height(r);
  c.atomics = chrome + gui::AtomicsPanel::wanted_height(r);
  c.global = chrome + gui::GlobalPanel::wanted_height(r);
  c.global_grows = r.has_global_slice();
  if (c.global_grows) {
    c.global_rows = static_cast<float>(std::min(gui::GlobalPanel::grid_rows(r), 32));
    c.global += c.global_rows * 24.0f;
  }
  if (!r.has_shared()) {
    c.smem = chrome + line * 1.2f;
    c.smem_grows = false;
    // A kernel that reduces in global memory and has no shared memory: its global grid in the
    // shared-memory grid's place (the Bank conflicts panel says it has no shared memory).
    if (r.has_global_slice()) {
      c.smem = 0;
      c.global_first = true;
    }
  } else {
    c.smem = chrome + line * 3 + c.smem_rows * 24.0f;
  }
  c.wanted = (r.has_shared() ? smem_wanted : c.smem) + c.global + c.lanes + c.atomics;
  return c;
}

// The lanes view first, then the grids, then the atomics get what they want, each after every view
// has its least; what is left goes to the grids (by their rows), or without one to the lanes or
// atomics view. A view of height 0 is not shown.
ReplayColumn fit_column(ReplayColumn c, float avail) {
  if (c.lanes == 0 && c.atomics == 0 && c.global == 0) {
    c.smem = avail;
    return c;
  }
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float chrome = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
  const bool smem_grows = c.smem > 0 && c.smem_grows, global_grows = c.global > 0 && c.global_grows;
  const float smem_min = smem_grows ? std::min(c.smem, chrome + line * 2.5f + c.smem_rows * 12.0f) : c.smem;
  const float global_min =
      global_grows ? std::min(c.global, chrome + line * 4.5f + c.global_rows * 12.0f) : c.global;
  const float lanes_min = std::min(c.lanes, chrome + line * 4);
  const float atomics_min = std::min(c.atomics, chrome + line * 3);
  const float want[4] = {c.lanes, c.smem, c.global, c.atomics};
  float got[4] = {lanes_min, smem_min, global_min, atomics_min};
  float left = avail - got[0] - got[1] - got[2] - got[3];
  for (int i = 0; i < 4 && left > 0; ++i) {
    const float more = std::min(left, want[i] - got[i]);
    got[i] += more;
    left -= more;
  }
  if (left > 0) {
    if (smem_grows && global_grows) {  // both grids: by their rows
      const float k = std::max(c.smem_rows, 1.0f) / (std::max(c.smem_rows, 1.0f) + std::max(c.global_rows, 1.0f));
      got[1] += left * k;
      got[2] += left * (1 - k);
    } else if (smem_grows) {
      got[1] += left;
    } else if (global_grows) {
      got[2] += left;
    } else {
      got[c.lanes > c.atomics ? 0 : 3] += left;
    }
  } else if (left < 0) {  // not even the least fits: shrink all alike (each view scrolls)
    const float k = avail / (got[0] + got[1] + got[2] + got[3]);
    for (float& g : got) g *= k;
  }
  c.lanes = got[0];
  c.smem = got[1];
  c.global = got[2];
  c.atomics = got[3];
  return c;
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

  gui::ControlsPanel controls;
  gui::SourcePanel source;
  gui::SmemPanel smem_a(0), smem_b(1);
  gui::GlobalPanel global_a(0), global_b(1);
  gui::WarpsPanel warps_a(0), warps_b(1);
  gui::BanksPanel banks_a(0), banks_b(1);
  gui::LanesPanel lanes_a(0), lanes_b(1);
  gui::AtomicsPanel atomics_a(0), atomics_b(1);
  gui::TimingPanel timing;

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
    controls.handleKeys(s, keys);
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
        if (ImGui::MenuItem("Compare side by side", "C", s.compare)) {
          s.compare = !s.compare;
          s.selection_changed = true;
        }
        ImGui::MenuItem("Large timing charts", "T", &s.large_charts);
        ImGui::MenuItem("High contrast", "Ctrl H", &s.high_contrast);
        if (ImGui::MenuItem("Larger", "Ctrl +")) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
        if (ImGui::MenuItem("Smaller", "Ctrl -")) s.ui_scale = std::max(0.75f, s.ui_scale - 0.25f);
        if (ImGui::MenuItem("Normal size", "Ctrl 0")) s.ui_scale = 1.0f;
        ImGui::EndMenu();
      }
      if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard shortcuts", "F1")) s.show_help = true;
        ImGui::EndMenu();
      }
      const std::string origin = gui::data_origin(s);
      ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(origin.c_str()).x - 20);
      if (s.recorded()) ImGui::TextColored(ImVec4(0.95f, 0.62f, 0.0f, 1), "%s", origin.c_str());
      else ImGui::TextDisabled("%s", origin.c_str());
      menu_h = ImGui::GetWindowSize().y;
      ImGui::EndMainMenuBar();
    }

    // Layout: controls | replay (A, or A and B) | source, banks, timings (at least 396 pixels, so the
    // timing table's seven columns fit without scrolling at 1280x720).
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float h = d.y - menu_h;
    const float lw = std::max(330.0f * s.ui_scale, d.x * 0.21f), rw = std::max(396.0f * s.ui_scale, d.x * 0.27f);
    const float mw = d.x - lw - rw;
    controls.draw(s, ImVec2(0, menu_h), ImVec2(lw, h));
    if (s.large_charts) {
      timing.draw(s, ImVec2(lw, menu_h), ImVec2(d.x - lw, h));
    } else {
      // Each side's views: shared memory, the global slice, lanes, atomics (each where the kernel has
      // them; the global grid first where it takes the shared-memory grid's place), then warps.
      // One side: a column of them. Compare mode: side by side where each half is wide enough for cells
      // of 22 pixels (32 to a row); else A's views above B's, each the full width, so the cells stay as
      // big as one side's, with the two warps panels side by side under them (their rows are a line of
      // text high; the lanes may be narrower than tall).
      gui::SmemPanel* smem[2] = {&smem_a, &smem_b};
      gui::GlobalPanel* global[2] = {&global_a, &global_b};
      gui::LanesPanel* lanes[2] = {&lanes_a, &lanes_b};
      gui::AtomicsPanel* atomics[2] = {&atomics_a, &atomics_b};
      gui::WarpsPanel* warps[2] = {&warps_a, &warps_b};
      // Draws side i's views above the warps into the box at (x, y), w x avail.
      auto draw_views = [&](int i, const ReplayColumn& want, float x, float y, float w, float avail) {
        const ReplayColumn c = fit_column(want, avail);
        if (c.global_first && c.global > 0) {
          global[i]->draw(s, ImVec2(x, y), ImVec2(w, c.global));
          y += c.global;
        }
        if (c.smem > 0) smem[i]->draw(s, ImVec2(x, y), ImVec2(w, c.smem));
        y += c.smem;
        if (!c.global_first && c.global > 0) {
          global[i]->draw(s, ImVec2(x, y), ImVec2(w, c.global));
          y += c.global;
        }
        if (c.lanes > 0) lanes[i]->draw(s, ImVec2(x, y), ImVec2(w, c.lanes));
        y += c.lanes;
        if (c.atomics > 0) atomics[i]->draw(s, ImVec2(x, y), ImVec2(w, c.atomics));
      };
      const float grid_label = ImGui::CalcTextSize("1023").x + 6 + 2 * ImGui::GetStyle().WindowPadding.x;
      const bool side_by_side = !s.compare || (mw / 2 - grid_label) / gui::kCellGridColumns >= 22.0f * s.ui_scale;
      if (side_by_side) {
        const int sides = s.compare ? 2 : 1;
        const float cw = mw / static_cast<float>(sides);
        ReplayColumn cols[2];
        float warps_h = 0;
        for (int i = 0; i < sides; ++i) {
          cols[i] = replay_column(s.view(i).trace, h, cw);
          warps_h = std::max(warps_h, cols[i].warps);
        }
        for (int i = 0; i < sides; ++i) {
          const float x = lw + cw * static_cast<float>(i);
          draw_views(i, cols[i], x, menu_h, cw, h - warps_h);
          warps[i]->draw(s, ImVec2(x, menu_h + h - warps_h), ImVec2(cw, warps_h));
        }
      } else {
        // The warps panels: what their rows want, at most 36% of the height (they take it from both sides).
        const float half = mw / 2;
        float warps_h = 0;
        for (int i = 0; i < 2; ++i) warps_h = std::max(warps_h, replay_column(s.view(i).trace, h, half).warps);
        warps_h = std::min(warps_h, h * 0.36f);
        const float upper = h - warps_h;
        // Each side's band: what its views want where both fit; else a side that wants less than half
        // gets it and the other the rest (a 128-thread block beside a 1024-thread one keeps its cells);
        // else half each.
        ReplayColumn cols[2];
        for (int i = 0; i < 2; ++i) cols[i] = replay_column(s.view(i).trace, upper, mw);
        const float w0 = cols[0].wanted, w1 = cols[1].wanted;
        float band[2] = {upper / 2, upper / 2};
        if (w0 + w1 <= upper) {
          band[0] = w0 + (upper - w0 - w1) / 2;
        } else if (w0 < upper / 2) {
          band[0] = w0;
        } else if (w1 < upper / 2) {
          band[0] = upper - w1;
        }
        band[1] = upper - band[0];
        draw_views(0, cols[0], lw, menu_h, mw, band[0]);
        draw_views(1, cols[1], lw, menu_h + band[0], mw, band[1]);
        for (int i = 0; i < 2; ++i) {
          warps[i]->draw(s, ImVec2(lw + half * static_cast<float>(i), menu_h + upper), ImVec2(half, warps_h));
        }
      }
    }
    if (!s.large_charts) {
      const float src_h = h * 0.27f, banks_h = h * 0.27f;
      source.draw(s, ImVec2(lw + mw, menu_h), ImVec2(rw, src_h));
      if (s.compare) {
        banks_a.draw(s, ImVec2(lw + mw, menu_h + src_h), ImVec2(rw / 2, banks_h));
        banks_b.draw(s, ImVec2(lw + mw + rw / 2, menu_h + src_h), ImVec2(rw / 2, banks_h));
      } else {
        banks_a.draw(s, ImVec2(lw + mw, menu_h + src_h), ImVec2(rw, banks_h));
      }
      timing.draw(s, ImVec2(lw + mw, menu_h + src_h + banks_h), ImVec2(rw, h - src_h - banks_h));
    }
    gui::draw_help(s);

    // File > Open: a path, or one of the files found.
    if (open_popup) {
      ImGui::OpenPopup("Open a session or trace");
      open_popup = false;
      open_list = openable_files();
      open_error.clear();
    }
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
                  << (s.recorded() ? "; recorded session" : "") << (s.compare ? "; compare" : "") << std::endl;
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
