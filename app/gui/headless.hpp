// The window without a window (--headless): an OpenGL 3.3 core context from EGL with no X server, drawing into a
// framebuffer object of the window's size, for --screenshot, --frames, --reload-bench and the GUI tests on a machine
// without a display (the GPU machine: issue 38, item 7).
//
// libEGL.so.1 (the glvnd dispatcher, Debian's libegl1) is opened at run time, so the app needs it only with
// --headless. The display, in order of preference:
//   1. EGL_EXT_platform_device: the first EGL device that gives an OpenGL 3.3 core context (NVIDIA's driver:
//      libEGL_nvidia.so.0, found through /usr/share/glvnd/egl_vendor.d/10_nvidia.json; EGL_EXT_device_base in the
//      EGL_EXT_platform_device spec, Khronos registry);
//   2. EGL_MESA_platform_surfaceless (Mesa's llvmpipe, on a machine without a GPU);
//   3. eglGetDisplay(EGL_DEFAULT_DISPLAY).
// The context is made current without a surface (EGL_KHR_surfaceless_context) where the display allows it, else with
// a pbuffer of the window's size; either way the frames go into the framebuffer object, which a screenshot reads.
// There is no input: the command line (--kernel, --step, --compare, --view, ...) sets what is shown.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace rs::gui {

struct HeadlessGl;  // the EGL library, display, context and the framebuffer object

class Headless {
 public:
  // Opens EGL, a display, an OpenGL 3.3 core context and a `width` x `height` RGBA8 framebuffer object, made current
  // and bound, with the GL functions loaded (glad). On failure, returns nullptr and sets *why to one line saying what
  // was missing (no libEGL.so.1, no display, no OpenGL 3.3 core context, ...).
  static std::unique_ptr<Headless> open(int width, int height, std::string* why);
  ~Headless();
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // The renderer and version the context reports (GL_RENDERER, GL_VERSION), and which EGL platform gave it, e.g.
  // "NVIDIA H100 80GB HBM3/PCIe/SSE2, OpenGL 3.3.0 NVIDIA 580.159.04, EGL device platform".
  const std::string& description() const { return description_; }
  // Sets ImGui's display size, framebuffer scale (1) and time step for the next frame, and keeps the mouse off the
  // window: what ImGui's platform backend does for a window. Before ImGui::NewFrame.
  void new_frame();
  // Ends the frame: glFinish (there is no buffer to swap; the framebuffer object is read as it is), then, when
  // `paced`, waits until 1/60 s has passed since the last frame ended, as a window's vsync would (--frames counts
  // the same time with and without a window; --stats passes false: it measures what a frame costs).
  void present(bool paced);

  // Whether the GPU reset this context (glGetGraphicsResetStatus, on a context made robust with
  // EGL_LOSE_CONTEXT_ON_RESET; always false where the driver gave a plain one). A kernel that faults on the same GPU
  // (an out-of-bounds access, __trap()) can reset the graphics engine: on the H200 the context then drew nothing and
  // every screenshot came back blank (issue 38, item 7). After present().
  bool lost() const;
  // A new context on the same display in place of a lost one, once the reset has completed (at most 2 s), made
  // current, with a new framebuffer object. The caller shuts Dear ImGui's OpenGL backend down before and starts it
  // again after (its objects were in the old context). False, with *why, where no new context is given.
  bool renew(std::string* why);
  // Moves the drawing to the next EGL display of open()'s list (the device platform's GPU first, then Mesa's
  // surfaceless platform, which draws on the CPU): for a GPU whose new contexts are reset again and again (issue 54:
  // on the H100, after a kernel's fault, every new OpenGL context on the GPU faulted within seconds). False, with
  // *why, where no later display gives a context; it then draws on the display it was on, in a new context.
  bool move_on(std::string* why);
  // How long the last renew() waited for the reset to complete, in seconds.
  double reset_wait_s() const { return reset_wait_s_; }

 private:
  Headless() = default;
  // A context, the GL functions and the framebuffer object on the first display of the list from `first` on that
  // gives them all; sets display_ and description_. False, with *why, where none does.
  bool start_from(size_t first, std::string* why);
  std::unique_ptr<HeadlessGl> gl_;
  size_t display_ = 0;  // which of HeadlessGl::displays() is drawn on
  int width_ = 0, height_ = 0;
  std::string description_;
  double last_time_ = 0;     // when the last frame began (new_frame), for ImGui's time step
  double last_present_ = 0;  // when the last frame ended (present)
  double reset_wait_s_ = 0;
};

}  // namespace rs::gui
