#include "headless.hpp"

#include <glad/gl.h>
// glad first: EGL's headers must not pull in the system GL header.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

namespace rs::gui {

namespace {

// libEGL.so.1's eglGetProcAddress, for glad's loader (a plain function: glad takes no context pointer).
decltype(&eglGetProcAddress) g_get_proc_address = nullptr;

GLADapiproc load_gl(const char* name) { return reinterpret_cast<GLADapiproc>(g_get_proc_address(name)); }

// `ext` is one of the space-separated names in `list` (an EGL extension string; null: none).
bool has_extension(const char* list, const char* ext) {
  if (!list) return false;
  const size_t n = std::strlen(ext);
  for (const char* p = std::strstr(list, ext); p; p = std::strstr(p + 1, ext)) {
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  }
  return false;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

struct HeadlessGl {
  void* lib = nullptr;
  decltype(&eglGetError) get_error = nullptr;
  decltype(&eglQueryString) query_string = nullptr;
  decltype(&eglGetDisplay) get_display = nullptr;
  decltype(&eglInitialize) initialize = nullptr;
  decltype(&eglTerminate) terminate = nullptr;
  decltype(&eglBindAPI) bind_api = nullptr;
  decltype(&eglChooseConfig) choose_config = nullptr;
  decltype(&eglCreateContext) create_context = nullptr;
  decltype(&eglDestroyContext) destroy_context = nullptr;
  decltype(&eglCreatePbufferSurface) create_pbuffer = nullptr;
  decltype(&eglDestroySurface) destroy_surface = nullptr;
  decltype(&eglMakeCurrent) make_current = nullptr;
  EGLDisplay dpy = EGL_NO_DISPLAY;
  EGLContext ctx = EGL_NO_CONTEXT;
  EGLSurface surf = EGL_NO_SURFACE;
  EGLConfig config = nullptr;
  bool robust = false;                        // the context was made with EGL's robustness attributes
  GLenum (*reset_status)() = nullptr;          // glGetGraphicsResetStatus (GL 4.5, KHR_robustness, ARB_robustness)
  GLuint fbo = 0, rbo = 0;

  // Loads the EGL entry points from libEGL.so.1. False, with *why, where the library or one of them is missing.
  bool load(std::string* why) {
    lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      *why = std::string("no EGL library (libEGL.so.1; Debian: libegl1): ") + dlerror();
      return false;
    }
    bool ok = true;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && ok) {
        *why = std::string("libEGL.so.1 lacks ") + name;
        ok = false;
      }
    };
    sym(g_get_proc_address, "eglGetProcAddress");
    sym(get_error, "eglGetError");
    sym(query_string, "eglQueryString");
    sym(get_display, "eglGetDisplay");
    sym(initialize, "eglInitialize");
    sym(terminate, "eglTerminate");
    sym(bind_api, "eglBindAPI");
    sym(choose_config, "eglChooseConfig");
    sym(create_context, "eglCreateContext");
    sym(destroy_context, "eglDestroyContext");
    sym(create_pbuffer, "eglCreatePbufferSurface");
    sym(destroy_surface, "eglDestroySurface");
    sym(make_current, "eglMakeCurrent");
    return ok;
  }

  // The displays to try, best first, each with the platform's name.
  std::vector<std::pair<EGLDisplay, const char*>> displays() const {
    std::vector<std::pair<EGLDisplay, const char*>> out;
    const char* client = query_string(EGL_NO_DISPLAY, EGL_EXTENSIONS);  // null without client extensions
    auto get_platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(g_get_proc_address("eglGetPlatformDisplayEXT"));
    if (get_platform_display && has_extension(client, "EGL_EXT_platform_device")) {
      auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(g_get_proc_address("eglQueryDevicesEXT"));
      EGLDeviceEXT devices[16];
      EGLint n = 0;
      if (query_devices && query_devices(16, devices, &n)) {
        for (EGLint i = 0; i < n; ++i) {
          EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
          if (d != EGL_NO_DISPLAY) out.emplace_back(d, "EGL device platform");
        }
      }
    }
    if (get_platform_display && has_extension(client, "EGL_MESA_platform_surfaceless")) {
      EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      if (d != EGL_NO_DISPLAY) out.emplace_back(d, "EGL surfaceless platform");
    }
    EGLDisplay d = get_display(EGL_DEFAULT_DISPLAY);
    if (d != EGL_NO_DISPLAY) out.emplace_back(d, "EGL default display");
    return out;
  }

  // An OpenGL 3.3 core context on display `d`, made current (without a surface, or with a w x h pbuffer). False,
  // with *why, where the display gives none; it is then terminated.
  bool context_on(EGLDisplay d, int w, int h, std::string* why) {
    EGLint major = 0, minor = 0;
    if (!initialize(d, &major, &minor)) {
      *why = "eglInitialize failed (EGL error 0x" + hex(get_error()) + ")";
      return false;
    }
    dpy = d;
    const bool surfaceless = has_extension(query_string(d, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!bind_api(EGL_OPENGL_API) || !choose_config(d, config_attribs, &config, 1, &configs) || configs < 1) {
      *why = "no OpenGL configuration on EGL " + std::to_string(major) + "." + std::to_string(minor);
      release();
      return false;
    }
    this->config = config;
    ctx = new_context();
    if (ctx == EGL_NO_CONTEXT) {
      *why = "no OpenGL 3.3 core context (EGL error 0x" + hex(get_error()) + ")";
      release();
      return false;
    }
    if (!surfaceless) {
      const EGLint pbuffer_attribs[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
      surf = create_pbuffer(d, config, pbuffer_attribs);
      if (surf == EGL_NO_SURFACE) {
        *why = "no " + std::to_string(w) + "x" + std::to_string(h) + " pbuffer (EGL error 0x" + hex(get_error()) + ")";
        release();
        return false;
      }
    }
    if (!make_current(d, surf, surf, ctx)) {
      *why = "eglMakeCurrent failed (EGL error 0x" + hex(get_error()) + ")";
      release();
      return false;
    }
    return true;
  }

  // An OpenGL 3.3 core context on dpy and config, robust where the driver allows (EGL 1.5's
  // EGL_CONTEXT_OPENGL_ROBUST_ACCESS with EGL_LOSE_CONTEXT_ON_RESET: a GPU reset, which a faulting kernel on the same
  // GPU can cause, is then reported by glGetGraphicsResetStatus instead of leaving a context that draws nothing), else
  // a plain one. EGL_NO_CONTEXT where neither is given.
  EGLContext new_context() {
    const EGLint robust_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE,
                                     EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET, EGL_NONE};
    const EGLint plain_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext c = create_context(dpy, config, EGL_NO_CONTEXT, robust_attribs);
    robust = c != EGL_NO_CONTEXT;
    if (!robust) {
      get_error();  // clear the refusal
      c = create_context(dpy, config, EGL_NO_CONTEXT, plain_attribs);
    }
    return c;
  }

  // The framebuffer object the frames go into, w x h RGBA8, bound. False where it is incomplete.
  bool make_fbo(int w, int h) {
    glGenRenderbuffers(1, &rbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rbo);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  }

  // The reset status query of the current context, if the driver has one.
  void load_reset_status() {
    reset_status = nullptr;
    if (!robust) return;
    for (const char* name : {"glGetGraphicsResetStatus", "glGetGraphicsResetStatusKHR", "glGetGraphicsResetStatusARB"}) {
      if (auto f = g_get_proc_address(name)) {
        reset_status = reinterpret_cast<GLenum (*)()>(f);
        return;
      }
    }
  }

  // Undoes context_on: the context, the surface, the display.
  void release() {
    if (dpy == EGL_NO_DISPLAY) return;
    make_current(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surf != EGL_NO_SURFACE) destroy_surface(dpy, surf);
    if (ctx != EGL_NO_CONTEXT) destroy_context(dpy, ctx);
    terminate(dpy);
    dpy = EGL_NO_DISPLAY;
    ctx = EGL_NO_CONTEXT;
    surf = EGL_NO_SURFACE;
    fbo = rbo = 0;  // they went with the context
  }

  ~HeadlessGl() {
    if (fbo) glDeleteFramebuffers(1, &fbo);
    if (rbo) glDeleteRenderbuffers(1, &rbo);
    if (lib) {
      release();
      dlclose(lib);
    }
  }

  static std::string hex(EGLint v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04x", static_cast<unsigned>(v));
    return buf;
  }
};

std::unique_ptr<Headless> Headless::open(int width, int height, std::string* why) {
  std::unique_ptr<Headless> h(new Headless);
  h->gl_ = std::make_unique<HeadlessGl>();
  if (!h->gl_->load(why)) return nullptr;
  h->width_ = width;
  h->height_ = height;
  if (!h->start_from(0, why)) return nullptr;
  return h;
}

bool Headless::start_from(size_t first, std::string* why) {
  HeadlessGl& g = *gl_;
  const auto list = g.displays();
  std::string last = "no EGL display";
  for (size_t i = first; i < list.size(); ++i) {
    if (!g.context_on(list[i].first, width_, height_, &last)) continue;
    const int version = gladLoadGL(load_gl);
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
      last = "the EGL context's OpenGL is older than 3.3";
      g.release();
      continue;
    }
    g.load_reset_status();
    if (!g.make_fbo(width_, height_)) {
      last = "no " + std::to_string(width_) + "x" + std::to_string(height_) + " RGBA8 framebuffer object";
      g.release();
      continue;
    }
    display_ = i;
    auto str = [](GLenum e) {
      const auto* s = reinterpret_cast<const char*>(glGetString(e));
      return std::string(s ? s : "?");
    };
    description_ = str(GL_RENDERER) + ", OpenGL " + str(GL_VERSION) + ", " + list[i].second;
    return true;
  }
  *why = "no OpenGL 3.3 core context from EGL: " + last;
  return false;
}

bool Headless::move_on(std::string* why) {
  HeadlessGl& g = *gl_;
  const size_t was = display_;
  g.release();
  if (start_from(was + 1, why)) return true;
  // No other display gives a context: back to the one it was on.
  std::string again;
  if (!start_from(was, &again)) *why += "; and none again on the first (" + again + ")";
  return false;
}

Headless::~Headless() = default;

bool Headless::lost() const {
  const HeadlessGl& g = *gl_;
  return g.reset_status && g.reset_status() != GL_NO_ERROR;
}

bool Headless::renew(std::string* why) {
  HeadlessGl& g = *gl_;
  // Until the reset has completed (the status reads GL_NO_ERROR again: KHR_robustness, "the application should not
  // issue GL commands until the reset completes"), at most 2 s (on the H100 it had always completed when first read
  // again, within a microsecond): the frames are not held up for longer. A context made too soon is reset again, and
  // replaced again at the next frame.
  const double t0 = now_s();
  for (int i = 0; i < 200 && g.reset_status && g.reset_status() != GL_NO_ERROR; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  reset_wait_s_ = now_s() - t0;
  g.make_current(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  g.destroy_context(g.dpy, g.ctx);  // its objects (the framebuffer) go with it
  g.fbo = g.rbo = 0;
  g.ctx = g.new_context();
  if (g.ctx == EGL_NO_CONTEXT || !g.make_current(g.dpy, g.surf, g.surf, g.ctx)) {
    *why = "no new OpenGL context after the reset (EGL error 0x" + HeadlessGl::hex(g.get_error()) + ")";
    return false;
  }
  gladLoadGL(load_gl);
  g.load_reset_status();
  if (!g.make_fbo(width_, height_)) {
    *why = "no framebuffer object in the new context";
    return false;
  }
  return true;
}

void Headless::new_frame() {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  const double t = now_s();
  io.DeltaTime = last_time_ > 0 ? static_cast<float>(std::max(t - last_time_, 1e-4)) : 1.0f / 60;
  last_time_ = t;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no pointer: nothing hovered, no tooltip
}

void Headless::present(bool paced) {
  glFinish();
  if (paced) {
    const double wait = last_present_ + 1.0 / 60 - now_s();
    if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  }
  last_present_ = now_s();
}

}  // namespace rs::gui
