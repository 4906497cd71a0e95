// Setting up and closing the window: the command line over the saved settings, GLFW and OpenGL 3.3, Dear
// ImGui's GLFW and OpenGL backends, and where the app's run-time files are. run_gui (gui_app.cpp) calls
// these in order: apply_options, open_window; at the end remember_geometry, close_window.
#pragma once

#include <filesystem>

#include "app_state.hpp"
#include "cli.hpp"
#include "settings.hpp"

struct GLFWwindow;

namespace rs::gui {

// Lets the command line override the saved settings in `s` (kernel, block size, N, pattern, compare
// side, timing tab, scale, contrast, large charts, help overlay, play). run_gui, after load_settings.
void apply_options(const Options& o, AppState& s);

// Opens the window where `geom` says, fitted into the monitor's work area (`geom` is updated), with an
// OpenGL 3.3 core context, vsync unless `stats` (--stats measures a frame's own cost), the key queue
// (keys.hpp) and ImGui's backends. On failure, says why on stderr, closes GLFW and returns nullptr (the
// caller destroys the ImGui context). run_gui, after apply_options.
GLFWwindow* open_window(WindowGeometry* geom, bool stats);

// Reads the window's place and size into `geom`, for the settings ImGui saves as its context goes.
// run_gui, when the loop ends.
void remember_geometry(GLFWwindow* win, WindowGeometry* geom);

// Shuts ImGui's backends down, destroys the ImGui context (which saves the settings), then the window
// and GLFW: open_window in reverse. run_gui, last.
void close_window(GLFWwindow* win);

// Where the app's run-time files are: $REDUCESCOPE_ASSETS, beside the binary, or the source tree.
// The bundled session (data_feed.cpp) and File > Open's list (open_dialog.cpp).
std::filesystem::path asset_dir();

}  // namespace rs::gui
