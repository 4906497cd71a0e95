#include "frame.hpp"

#include <glad/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <iostream>

#include "keys.hpp"
#include "menu_bar.hpp"
#include "panels.hpp"

namespace rs::gui {

namespace {

// Carries out what a shortcut or a menu item asked for.
void run_actions(App& a, const Actions& act) {
  if (act.export_charts) a.exports.start_charts(a.s);
  if (act.export_web_page) a.exports.start_web_page(a.s);
  if (act.save_answers) a.exports.save_answers(a.s);
  if (act.open_file) a.open_dialog.request();
  if (act.open_kernel_file) a.open_dialog.request_kernel_file();
  if (act.quit) request_close(a.surface);
}

// The UI: the app's keys for the controls, play, the menu bar, the panels below it (window_layout.cpp:
// the step bar; controls | replay (A, or A above B) | source, banks, timings), the help overlay and
// File > Open.
void draw_ui(App& a, const KeyInput& keys) {
  a.panels.controls.handleKeys(a.s, a.panels.timing.takeKeys(a.s, keys.replay));
  ControlsPanel::tick(a.s);
  const MenuBar menu = draw_menu_bar(a.s, a.exports.dir(), a.exports.web_page_path());
  run_actions(a, menu.actions);
  draw_panels(a.s, a.panels, menu.height);
  draw_help(a.s);
  a.open_dialog.draw(a.s, a.feed);
}

// Renders ImGui's draw data into the window's back buffer, and waits for it (a frame's time counts
// its rendering).
void render(const Surface& surface) {
  int fw = 0, fh = 0;
  framebuffer_size(surface, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();  // count the rendering in the frame's time
}

}  // namespace

App::App(const Options& o, Surface& surface, AppState& s, std::chrono::steady_clock::time_point t_start)
    : o(o), surface(surface), s(s), feed(o.step, t_start, o.kernel_timeout_s), exports(o.export_dir), theme(content_scale(surface)),
      automation(o, t_start), reload(o.reload_saves, o.kernel_file, t_start) {
  if (!o.kernel_file.empty()) feed.open_kernel_file(s, o.kernel_file, o.exercise);
  feed.start(s, o.file, o.have_kernel);
}

bool frame(App& a) {
  // Input: events, what the GPU (or an export) finished, the keys.
  poll_events(a.surface);
  a.automation.start_frame();
  a.feed.poll(a.s);
  a.exports.poll(a.s, a.o.stats);
  const KeyInput keys = read_keys(a.s);
  run_actions(a, keys.actions);
  if (a.s.lang != i18n::language()) {  // View > Language: the messages first, then the font (CJK glyphs)
    std::string why;
    if (!i18n::set_language(a.s.lang, &why)) {
      // English: the language stays English when Chinese cannot be had.
      a.s.error = "Chinese is not available: " + why + ".";
      std::cerr << "reducescope: " << a.s.error << "\n";
      a.s.lang = i18n::Lang::En;
    }
  }
  // A new UI scale, contrast or language: rebuild the font atlas and the style.
  // (Not while the OpenGL context is lost: the font texture waits for the new one.)
  if (a.surface.renderer && !a.theme.update(a.s)) {
    // Without the font every Chinese character is a '?': said in English, and the window goes back to English.
    i18n::LanguageScope en(i18n::Lang::En);
    a.s.error = font_missing_message();
    std::cerr << "reducescope: " << a.s.error << "\n";
    a.s.lang = i18n::Lang::En;
  }
  a.s.gl_note = reset_note(a.surface);

  // UI.
  if (a.surface.renderer) ImGui_ImplOpenGL3_NewFrame();
  platform_new_frame(a.surface);
  ImGui::NewFrame();
  draw_ui(a, keys);
  if (a.s.selection_changed) a.feed.apply_selection(a.s);

  // Render, then the automation (a screenshot reads the back buffer before it is shown).
  ImGui::Render();
  a.automation.write_widget_map();
  if (a.surface.renderer) render(a.surface);  // else nothing to draw with until a new context is had (present())
  // With --reload-bench, a --screenshot waits for the benchmark's end (the live plot then has its points).
  const bool done = a.automation.end_frame(a.surface, a.s, a.feed.idle() && !a.reload.running(), a.exports.running());
  present(a.surface);
  a.automation.frame_shown(a.s);
  const bool reload_done = a.reload.frame_shown(a.s, a.feed.idle());
  return !done && !(reload_done && a.o.screenshot.empty());
}

}  // namespace rs::gui
