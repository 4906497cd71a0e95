#include "settings.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace rs::gui {

namespace {

struct Target {
  AppState* s;
  WindowGeometry* g;
};
Target g_target;

void* read_open(ImGuiContext*, ImGuiSettingsHandler*, const char* name) {
  return std::strcmp(name, "Settings") == 0 ? &g_target : nullptr;
}

void read_line(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
  auto* t = static_cast<Target*>(entry);
  AppState& s = *t->s;
  char text[64] = {};
  int i = 0, j = 0;
  float f = 0;
  unsigned long long n = 0;
  if (std::sscanf(line, "UiScale=%f", &f) == 1) s.ui_scale = std::clamp(f, 0.75f, 3.0f);
  else if (std::sscanf(line, "HighContrast=%d", &i) == 1) s.high_contrast = i != 0;
  else if (std::sscanf(line, "Language=%63s", text) == 1) {
    if (auto l = i18n::parse_lang(text)) {
      s.lang = *l;
      s.lang_saved = true;
    }
  }
  else if (std::sscanf(line, "Speed=%f", &f) == 1) s.speed = std::clamp(f, 0.25f, 30.0f);
  else if (std::sscanf(line, "TimingTab=%d", &i) == 1 && i >= 0 && i <= kLastTimingTab) s.timing_tab = static_cast<TimingTab>(i);
  else if (std::sscanf(line, "Compare=%d", &i) == 1) s.compare = i != 0;
  else if (std::sscanf(line, "LargeCharts=%d", &i) == 1) s.large_charts = i != 0;
  else if (std::sscanf(line, "N=%llu", &n) == 1 && n >= 1 && n <= (1ull << 31)) s.n = n;
  else if (std::sscanf(line, "Pattern=%63s", text) == 1) {
    if (auto p = parse_pattern(text)) s.pattern = *p;
  } else if (std::sscanf(line, "A=%63[^,],%d", text, &i) == 2 || std::sscanf(line, "B=%63[^,],%d", text, &i) == 2) {
    const KernelInfo* k = find_kernel(text);
    if (k && !block_size_problem(k->id, static_cast<unsigned>(i))) {
      (line[0] == 'A' ? s.a : s.b) = Pick{k->id, static_cast<unsigned>(i)};
    }
  } else if (std::sscanf(line, "Window=%d,%d,%d,%d", &i, &j, &t->g->width, &t->g->height) == 4) {
    t->g->x = i;
    t->g->y = j;
    t->g->width = std::clamp(t->g->width, 640, 8192);
    t->g->height = std::clamp(t->g->height, 480, 8192);
    t->g->saved = true;
  }
}

void write_all(ImGuiContext*, ImGuiSettingsHandler* h, ImGuiTextBuffer* out) {
  const AppState& s = *g_target.s;
  const WindowGeometry& g = *g_target.g;
  out->appendf("[%s][Settings]\n", h->TypeName);
  out->appendf("UiScale=%.2f\nHighContrast=%d\nSpeed=%.2f\nTimingTab=%d\nCompare=%d\n", s.ui_scale,
               s.high_contrast ? 1 : 0, s.speed, static_cast<int>(s.timing_tab), s.compare ? 1 : 0);
  out->appendf("LargeCharts=%d\n", s.large_charts ? 1 : 0);
  if (s.lang_saved) out->appendf("Language=%s\n", i18n::lang_code(s.lang));  // chosen in View > Language
  out->appendf("N=%llu\nPattern=%s\n", static_cast<unsigned long long>(s.n), to_string(s.pattern));
  out->appendf("A=%s,%u\nB=%s,%u\n", kernel_info(s.a.kernel).name, s.a.block_size, kernel_info(s.b.kernel).name,
               s.b.block_size);
  out->appendf("Window=%d,%d,%d,%d\n\n", g.x, g.y, g.width, g.height);
}

}  // namespace

std::string settings_path() {
  namespace fs = std::filesystem;
  fs::path p;
  if (const char* env = std::getenv("REDUCESCOPE_CONFIG")) {
    if (!*env) return "";
    p = env;
  } else if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    p = fs::path(xdg) / "reducescope" / "reducescope.ini";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    p = fs::path(home) / ".config" / "reducescope" / "reducescope.ini";
  } else {
    return "";
  }
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  return ec ? "" : p.string();
}

void load_settings(const std::string& path, AppState* s, WindowGeometry* g) {
  g_target = {s, g};
  ImGuiSettingsHandler h;
  h.TypeName = "ReduceScope";
  h.TypeHash = ImHashStr("ReduceScope");
  h.ReadOpenFn = read_open;
  h.ReadLineFn = read_line;
  h.WriteAllFn = write_all;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
  static std::string ini;  // ImGui keeps the pointer
  ini = path;
  ImGui::GetIO().IniFilename = ini.empty() ? nullptr : ini.c_str();
  if (!ini.empty() && std::filesystem::exists(ini)) ImGui::LoadIniSettingsFromDisk(ini.c_str());
}

}  // namespace rs::gui
