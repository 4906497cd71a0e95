#include "keys.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace rs::gui {

namespace {

struct KeyPress {
  int key, mods;
};
std::vector<KeyPress> g_keys;  // since the last read_keys

void key_callback(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) g_keys.push_back({key, mods});
}

}  // namespace

void install_key_queue(GLFWwindow* win) { glfwSetKeyCallback(win, key_callback); }

KeyInput read_keys(AppState& s) {
  KeyInput in;
  std::vector<Key>& keys = in.replay;
  for (const KeyPress& k : g_keys) {
    const bool ctrl = k.mods & GLFW_MOD_CONTROL;
    if (ImGui::GetIO().WantTextInput && k.key != GLFW_KEY_ESCAPE) continue;
    if (ctrl) {
      if (k.key == GLFW_KEY_EQUAL || k.key == GLFW_KEY_KP_ADD) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
      if (k.key == GLFW_KEY_MINUS || k.key == GLFW_KEY_KP_SUBTRACT) s.ui_scale = std::max(0.75f, s.ui_scale - 0.25f);
      if (k.key == GLFW_KEY_0) s.ui_scale = 1.0f;
      if (k.key == GLFW_KEY_H) s.high_contrast = !s.high_contrast;
      if (k.key == GLFW_KEY_E) in.actions.export_charts = true;
      if (k.key == GLFW_KEY_O) in.actions.open_file = true;
      if (k.key == GLFW_KEY_K) in.actions.open_kernel_file = true;
      if (k.key == GLFW_KEY_Q) in.actions.quit = true;
      continue;
    }
    switch (k.key) {
      case GLFW_KEY_RIGHT: keys.push_back(Key::Forward); break;
      case GLFW_KEY_ENTER:  // class mode: the instructor reveals the waiting step (Right does too)
      case GLFW_KEY_KP_ENTER:
        if (s.predict.classroom && s.predict.pending) keys.push_back(Key::Forward);
        break;
      case GLFW_KEY_LEFT: keys.push_back(Key::Back); break;
      case GLFW_KEY_HOME: keys.push_back(Key::Start); break;
      case GLFW_KEY_END: keys.push_back(Key::End); break;
      case GLFW_KEY_SPACE: keys.push_back(Key::PlayPause); break;
      case GLFW_KEY_RIGHT_BRACKET: keys.push_back(Key::Faster); break;
      case GLFW_KEY_LEFT_BRACKET: keys.push_back(Key::Slower); break;
      case GLFW_KEY_UP: keys.push_back(Key::PrevKernel); break;
      case GLFW_KEY_DOWN: keys.push_back(Key::NextKernel); break;
      case GLFW_KEY_PAGE_UP: keys.push_back(Key::BiggerBlock); break;
      case GLFW_KEY_PAGE_DOWN: keys.push_back(Key::SmallerBlock); break;
      case GLFW_KEY_C: keys.push_back(Key::Compare); break;
      case GLFW_KEY_T: keys.push_back(Key::LargeCharts); break;
      case GLFW_KEY_F: keys.push_back(Key::Focus); break;
      case GLFW_KEY_D: keys.push_back(Key::ElementType); break;
      case GLFW_KEY_B: keys.push_back(Key::AsCompiled); break;
      case GLFW_KEY_F1: s.show_help = !s.show_help; break;
      case GLFW_KEY_SLASH: if (k.mods & GLFW_MOD_SHIFT) s.show_help = !s.show_help; break;
      case GLFW_KEY_ESCAPE: s.show_help = false; break;
      default: break;
    }
  }
  g_keys.clear();
  return in;
}

}  // namespace rs::gui
