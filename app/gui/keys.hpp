// The keyboard: key presses queued from a GLFW callback, read once a frame into the app's shortcuts
// (F1 lists them). ImGui 1.86's GLFW backend keeps only the key state per frame, so a press and
// release within one frame (a quick tap, or xdotool) would be lost; hence the queue.
#pragma once

#include <vector>

#include "actions.hpp"
#include "app_state.hpp"
#include "panels.hpp"  // Key

struct GLFWwindow;

namespace rs::gui {

// Queues the window's key presses (with their modifiers). open_window (app_setup.cpp), before ImGui's
// GLFW backend is installed, so that the backend chains to it.
void install_key_queue(GLFWwindow* win);

struct KeyInput {
  std::vector<Key> replay;  // the replay's and the selection's keys, for ControlsPanel::handleKeys
  Actions actions;          // Ctrl O, Ctrl K, Ctrl E, Ctrl Q
};

// The keys pressed since the last call, unless a text field has focus (Escape always): Ctrl +/-/0,
// Ctrl H, F1, ? and Escape change `s` here; the rest come back in KeyInput. frame(), once a frame
// before ImGui::NewFrame.
KeyInput read_keys(AppState& s);

}  // namespace rs::gui
