// Setting up and closing the window: the command line over the saved settings, GLFW and OpenGL 3.3 (or, with
// --headless, EGL and OpenGL 3.3 with no window: headless.hpp), Dear ImGui's backends, and where the app's run-time
// files are. run_gui (gui_app.cpp) calls these in order: apply_options, open_surface; at the end remember_geometry,
// close_surface. A frame (frame.cpp) goes through the Surface's functions below, the same for both.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

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
  bool stats = false;                  // --stats: a new window keeps vsync off too
  // A GPU reset of the OpenGL context (a robustness reset: KHR_robustness, GL_LOSE_CONTEXT_ON_RESET):
  unsigned (*reset_status)() = nullptr;  // GLFW: glGetGraphicsResetStatus of a robust window context, else null
  int resets = 0;                      // contexts lost and replaced so far
  double last_reset = 0;               // steady-clock seconds of the last reset (0: none)
  std::vector<double> recent_resets;   // the resets of the last minute (steady-clock seconds)
  std::string moved_to;                // headless: the display drawn on since the resets came too often ("": none)
  double next_try = 0;                 // after a failed renewal: when to try again
  std::string renew_error;             // the last renewal's failure ("" once one succeeded)
  long frames = 0;                     // frames presented
  std::vector<long> simulate_resets;   // REDUCESCOPE_SIMULATE_GL_RESET=N[,M...] (the test double): resets pretended
                                       // at those frames
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
// present() also looks for a GPU reset of the context (issue 54): a kernel's fault on the same GPU can reset every
// OpenGL context on it. A lost context is replaced: with --headless a new EGL context; with a window, a new window
// with its own context where the old one stood (GLFW ties a context to its window). Dear ImGui's OpenGL objects, the
// font atlas's texture among them, are made again in it from the atlas ImGui keeps, so the next frame draws as before.
// No loop, no limit: a renewal that fails is tried again a second later, and the frames go on being asked for.
void poll_events(Surface& s);
void platform_new_frame(Surface& s);
void framebuffer_size(const Surface& s, int* width, int* height);
float content_scale(const Surface& s);
bool should_close(const Surface& s);
void request_close(Surface& s);
void present(Surface& s);
// Whether the GPU reset the context since the last present (its frame is blank), or a renewal has yet to succeed.
bool surface_lost(const Surface& s);
// One line for the window about its OpenGL context's resets ("" when there has been none): how many, how long ago,
// and that it draws again in a new context each time. AppState::gl_note, each frame.
std::string reset_note(const Surface& s);

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
