// Setting up and closing the window: the command line over the saved settings, GLFW and OpenGL 3.3 (or, with
// --headless, EGL and OpenGL 3.3 with no window: headless.hpp), Dear ImGui's backends, and where the app's run-time
// files are. run_gui (gui_app.cpp) calls these in order: apply_options, open_surface; at the end remember_geometry,
// close_surface. A frame (frame.cpp) goes through the Surface's functions below, the same for both.
#pragma once

#include <filesystem>
#include <memory>

#include "app_state.hpp"
#include "cli.hpp"
#include "settings.hpp"

struct GLFWwindow;

namespace rs::gui {

// Lets the command line override the saved settings in `s` (kernel, block size, N, pattern, compare
// side, timing tab, scale, contrast, large charts, help overlay, play). run_gui, after load_settings.
void apply_options(const Options& o, AppState& s);

class Headless;

// Where the frames go: a GLFW window, or (--headless) an offscreen EGL framebuffer of the window's size.
struct Surface {
  Surface();
  ~Surface();
  GLFWwindow* win = nullptr;           // the window; null when headless
  std::unique_ptr<Headless> headless;  // the offscreen context; null with a window
  bool close_requested = false;        // headless: File > Quit or Ctrl Q
  bool paced = true;                   // headless: 60 frames a second, as vsync (not with --stats)
  bool renderer = true;                // Dear ImGui's OpenGL backend is running (not after a failed renewal)
};

// Opens the window where `geom` says, fitted into the monitor's work area (`geom` is updated), with an
// OpenGL 3.3 core context, vsync unless o.stats (--stats measures a frame's own cost), the key queue
// (keys.hpp) and ImGui's backends. With o.headless, an EGL context and a framebuffer of geom's size instead
// (no window, no input), and prints "headless: RENDERER, OpenGL VERSION, PLATFORM" on stdout. On failure, says
// why on stderr, closes what it opened and returns false (the caller destroys the ImGui context). run_gui,
// after apply_options.
bool open_surface(const Options& o, WindowGeometry* geom, Surface* out);

// A frame's steps, for either kind of surface: the window's events (none headless); ImGui's platform frame
// (ImGui_ImplGlfw_NewFrame, or Headless::new_frame); the framebuffer's size in pixels; the window's content
// scale (1 headless); whether the window is to close; asking it to; showing the frame (swap, or glFinish).
void poll_events(Surface& s);
void platform_new_frame(Surface& s);
void framebuffer_size(const Surface& s, int* width, int* height);
float content_scale(const Surface& s);
bool should_close(const Surface& s);
void request_close(Surface& s);
void present(Surface& s);
// Whether the GPU reset the headless context since the last present (its frame is blank); false with a window.
bool surface_lost(const Surface& s);

// Reads the window's place and size into `geom`, for the settings ImGui saves as its context goes (headless:
// `geom` stays as it was). run_gui, when the loop ends.
void remember_geometry(const Surface& s, WindowGeometry* geom);

// Shuts ImGui's backends down, destroys the ImGui context (which saves the settings), then the window
// and GLFW, or the EGL context: open_surface in reverse. run_gui, last.
void close_surface(Surface& s);

// Where the app's run-time files are: $REDUCESCOPE_ASSETS, beside the binary, or the source tree.
// The bundled session (data_feed.cpp) and File > Open's list (open_dialog.cpp).
std::filesystem::path asset_dir();

}  // namespace rs::gui
