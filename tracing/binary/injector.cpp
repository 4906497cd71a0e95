// The binary tracer's host side: a library the CUDA driver loads into any program through
// CUDA_INJECTION64_PATH (the way compute-sanitizer attaches). It subscribes to the Compute Sanitizer
// API's callbacks, patches every module as it loads with tracing/binary/patches.cu's callbacks, and
// records one block of one launch:
//   RS_BT_KERNEL   text the demangled kernel name must contain
//   RS_BT_LAUNCH   which of the matching launches, 1-based (default 1)
//   RS_BT_BLOCK    the block: "X" or "X,Y,Z" (default 0)
//   RS_BT_OUT      the capture file to write (tracing/binary/capture.hpp)
//   RS_BT_PATCHES  the patch module (rs_bt_patches.fatbin)
//   RS_BT_CAPACITY events the device buffer holds (default 4194304: 192 MiB)
//   RS_BT_UNPATCH  1: remove the patches after the traced launch, so the rest of the program runs
//                  uninstrumented; 0 (default): keep them. Attached to reducescope itself (one large module),
//                  removing them hung the program on the H200, so it is off (docs/binary-trace.md).
// Every module is patched as it loads (what the Sanitizer samples do). Every launch but the traced one gets a
// Control with tracing off, and the traced launch's other blocks fail its block filter: their callbacks return
// at once (docs/binary-trace.md has the overhead). The capture
// is written after the traced launch (its stream synchronised) or, when no launch matched, at exit
// with the list of kernels that did launch. The program itself runs on unchanged.
#include <cuda.h>
#include <cxxabi.h>
#include <sanitizer.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "capture.hpp"

namespace {

using rs::bt::Capture;
using rs::bt::CaptureStatus;
using rs::bt::Control;
using rs::bt::Event;

struct Config {
  std::string kernel, out, patches;
  uint32_t launch = 1;
  uint32_t block[3] = {0, 0, 0};
  uint32_t capacity = 1u << 22;
  bool unpatch_after = false;
};

struct State {
  Config cfg;
  std::recursive_mutex mu;  // recursive: the API calls back into callback() from inside our own calls (sanitizerAddPatchesFromFile loads a module)
  std::map<CUcontext, bool> patches_loaded;
  std::map<CUcontext, Control*> disabled;          // one tracing-off Control per context
  std::map<CUmodule, std::string> cubins;
  std::map<CUmodule, bool> patched;
  std::map<uint64_t, uint64_t> allocations;        // base -> bytes
  std::vector<std::pair<std::string, uint32_t>> launched;
  uint32_t matched = 0;
  bool done = false;                               // the capture is written
  bool in_patch_load = false;
  // The traced launch, between its begin and end callbacks:
  Sanitizer_LaunchHandle traced_launch = nullptr;
  Control* traced_control = nullptr;
  Control host_control{};
  Capture capture;
};

State* g_state = nullptr;

std::string demangle(const char* name) {
  if (!name) return "?";
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = (status == 0 && d) ? d : name;
  std::free(d);
  return s;
}

bool parse_u32(const char* s, uint32_t& v) {
  if (!s || !*s) return false;
  char* end = nullptr;
  const unsigned long x = std::strtoul(s, &end, 10);
  if (*end != '\0' || x > 0xffffffffu) return false;
  v = static_cast<uint32_t>(x);
  return true;
}

void write_capture(State& s) {
  if (s.done) return;
  s.done = true;
  const std::string bytes = rs::bt::serialize_capture(s.capture);
  const std::string tmp = s.cfg.out + ".part";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (f) ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), s.cfg.out.c_str()) != 0) {
    std::fprintf(stderr, "reducescope (binary tracer): cannot write %s\n", s.cfg.out.c_str());
  }
}

void fail(State& s, const std::string& why) {
  if (s.done) return;
  s.capture.status = CaptureStatus::Failed;
  s.capture.message = why;
  s.capture.launched = s.launched;
  write_capture(s);
}

#define RS_SAN(call)                                                                    \
  do {                                                                                  \
    const SanitizerResult r_ = (call);                                                  \
    if (r_ != SANITIZER_SUCCESS) {                                                      \
      const char* m_ = nullptr;                                                         \
      sanitizerGetResultString(r_, &m_);                                                \
      throw std::string(#call) + " failed: " + (m_ ? m_ : "unknown error");             \
    }                                                                                   \
  } while (0)

// Loads the patch module into `ctx` once, then patches `module` with our callbacks.
void patch(State& s, CUcontext ctx, CUmodule module) {
  if (!s.patches_loaded[ctx]) {
    s.in_patch_load = true;
    const SanitizerResult r = sanitizerAddPatchesFromFile(s.cfg.patches.c_str(), ctx);
    s.in_patch_load = false;
    if (r != SANITIZER_SUCCESS) throw "cannot load the patch module " + s.cfg.patches;
    s.patches_loaded[ctx] = true;
  }
  if (s.patched[module]) return;
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, module, "rs_bt_global"));
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, module, "rs_bt_shared"));
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BARRIER, module, "rs_bt_barrier"));
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SYNCWARP, module, "rs_bt_syncwarp"));
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SHFL, module, "rs_bt_shfl"));
  RS_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BLOCK_EXIT, module, "rs_bt_exit"));
  RS_SAN(sanitizerPatchModule(module));
  s.patched[module] = true;
}

void module_loaded(State& s, const Sanitizer_ResourceModuleData* d) {
  if (s.in_patch_load) return;  // the patch module itself
  if (d->pCubin && d->cubinSize) s.cubins[d->module].assign(d->pCubin, d->cubinSize);
  patch(s, d->context, d->module);
}

Control* disabled_control(State& s, CUcontext ctx, Sanitizer_StreamHandle stream) {
  Control*& c = s.disabled[ctx];
  if (!c) {
    void* p = nullptr;
    RS_SAN(sanitizerAlloc(ctx, &p, sizeof(Control)));
    RS_SAN(sanitizerMemset(p, 0, sizeof(Control), stream));
    c = static_cast<Control*>(p);
  }
  return c;
}

void launch_begin(State& s, const Sanitizer_LaunchData* d) {
  const std::string name = demangle(d->functionName);
  bool seen = false;
  for (auto& [n, count] : s.launched) {
    if (n == name) {
      ++count;
      seen = true;
    }
  }
  if (!seen) s.launched.emplace_back(name, 1);
  const bool match = !s.done && name.find(s.cfg.kernel) != std::string::npos && ++s.matched == s.cfg.launch;
  if (!match) {
    if (s.patched[d->module]) {
      RS_SAN(sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, disabled_control(s, d->context, d->hStream)));
    }
    return;
  }
  patch(s, d->context, d->module);  // patched at load already; a module loaded before we subscribed is patched now
  Capture& c = s.capture;
  c.kernel_mangled = d->functionName ? d->functionName : "";
  c.kernel = name;
  c.launch = s.cfg.launch;
  c.grid[0] = d->gridDim_x, c.grid[1] = d->gridDim_y, c.grid[2] = d->gridDim_z;
  c.block[0] = d->blockDim_x, c.block[1] = d->blockDim_y, c.block[2] = d->blockDim_z;
  for (int i = 0; i < 3; ++i) c.traced[i] = s.cfg.block[i];
  for (int i = 0; i < 3; ++i) {
    if (c.traced[i] >= c.grid[i]) {
      throw "block (" + std::to_string(c.traced[0]) + "," + std::to_string(c.traced[1]) + "," +
          std::to_string(c.traced[2]) + ") is outside the grid of launch " + std::to_string(c.launch) + " of " + name +
          " (" + std::to_string(c.grid[0]) + "," + std::to_string(c.grid[1]) + "," + std::to_string(c.grid[2]) + ")";
    }
  }
  char dev_name[256] = {0};
  int major = 0, minor = 0, reserved = 0, driver = 0;
  if (cuDeviceGetName(dev_name, sizeof dev_name, d->device) == CUDA_SUCCESS) c.gpu = dev_name;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->device);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->device);
  cuDeviceGetAttribute(&reserved, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, d->device);
  cuDriverGetVersion(&driver);
  c.cc_major = static_cast<uint32_t>(major);
  c.cc_minor = static_cast<uint32_t>(minor);
  c.reserved_smem = static_cast<uint32_t>(reserved);
  c.driver_version = static_cast<uint32_t>(driver);
  RS_SAN(sanitizerGetFunctionPcAndSize(d->module, d->functionName, &c.function_pc, &c.function_size));
  auto cub = s.cubins.find(d->module);
  if (cub != s.cubins.end()) c.cubin = cub->second;
  for (const auto& [base, size] : s.allocations) c.allocations.push_back({base, size});

  const uint32_t threads = c.threads();
  void *events = nullptr, *tseq = nullptr, *ctl = nullptr;
  RS_SAN(sanitizerAlloc(d->context, &events, uint64_t{s.cfg.capacity} * sizeof(Event)));
  RS_SAN(sanitizerAlloc(d->context, &tseq, uint64_t{threads} * sizeof(uint32_t)));
  RS_SAN(sanitizerAlloc(d->context, &ctl, sizeof(Control)));
  RS_SAN(sanitizerMemset(tseq, 0, uint64_t{threads} * sizeof(uint32_t), d->hStream));
  Control& h = s.host_control;
  h = Control{};
  h.enabled = 1;
  h.block_x = c.traced[0], h.block_y = c.traced[1], h.block_z = c.traced[2];
  h.capacity = s.cfg.capacity;
  h.events = static_cast<Event*>(events);
  h.tseq = static_cast<uint32_t*>(tseq);
  RS_SAN(sanitizerMemcpyHostToDeviceAsync(ctl, &h, sizeof h, d->hStream));
  RS_SAN(sanitizerStreamSynchronize(d->hStream));
  s.traced_control = static_cast<Control*>(ctl);
  s.traced_launch = d->hLaunch;
  RS_SAN(sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, ctl));
}

void launch_end(State& s, const Sanitizer_LaunchData* d) {
  if (!s.traced_control || d->hLaunch != s.traced_launch) return;
  RS_SAN(sanitizerStreamSynchronize(d->hStream));
  Control back{};
  RS_SAN(sanitizerMemcpyDeviceToHost(&back, s.traced_control, sizeof back, d->hStream));
  Capture& c = s.capture;
  c.capacity = s.cfg.capacity;
  c.taken = back.count;
  const uint32_t n = back.count < back.capacity ? back.count : back.capacity;
  c.events.resize(n);
  if (n) RS_SAN(sanitizerMemcpyDeviceToHost(c.events.data(), s.host_control.events, uint64_t{n} * sizeof(Event), d->hStream));
  sanitizerFree(d->context, s.host_control.events);
  sanitizerFree(d->context, s.host_control.tseq);
  sanitizerFree(d->context, s.traced_control);
  s.traced_control = nullptr;
  c.status = CaptureStatus::Traced;
  c.launched = s.launched;
  write_capture(s);
  // Nothing more to record: the rest of the program runs uninstrumented.
  if (!s.cfg.unpatch_after) return;
  for (auto& [module, on] : s.patched) {
    if (on) sanitizerUnpatchModule(module);
    on = false;
  }
}

void callback(void* userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* cbdata) {
  State& s = *static_cast<State*>(userdata);
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  try {
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE) {
      switch (cbid) {
        case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
          module_loaded(s, static_cast<const Sanitizer_ResourceModuleData*>(cbdata));
          break;
        case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
        case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC: {
          const auto* m = static_cast<const Sanitizer_ResourceMemoryData*>(cbdata);
          s.allocations[m->address] = m->size;
          break;
        }
        case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
        case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC: {
          const auto* m = static_cast<const Sanitizer_ResourceMemoryData*>(cbdata);
          s.allocations.erase(m->address);
          break;
        }
        default:
          break;
      }
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH) {
      const auto* d = static_cast<const Sanitizer_LaunchData*>(cbdata);
      if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) launch_begin(s, d);
      if (cbid == SANITIZER_CBID_LAUNCH_END) launch_end(s, d);
    }
  } catch (const std::string& why) {
    fail(s, why);
  } catch (const char* why) {
    fail(s, why);
  }
}

void at_exit() {
  State* s = g_state;
  if (!s) return;
  std::lock_guard<std::recursive_mutex> lock(s->mu);
  if (s->done) return;
  s->capture.status = CaptureStatus::NoMatch;
  s->capture.message = "no launch " + std::to_string(s->cfg.launch) + " of a kernel whose name contains '" +
                       s->cfg.kernel + "' (" + std::to_string(s->matched) + " matching launches)";
  s->capture.launched = s->launched;
  write_capture(*s);
}

int initialize() {
  if (g_state) return 0;
  auto* s = new State;
  const char* kernel = std::getenv("RS_BT_KERNEL");
  const char* out = std::getenv("RS_BT_OUT");
  const char* patches = std::getenv("RS_BT_PATCHES");
  if (!out || !*out) {
    std::fprintf(stderr, "reducescope (binary tracer): RS_BT_OUT is not set; not tracing\n");
    delete s;
    return 1;
  }
  s->cfg.out = out;
  g_state = s;
  std::atexit(at_exit);
  if (!kernel || !patches) {
    fail(*s, "RS_BT_KERNEL and RS_BT_PATCHES must be set");
    return 1;
  }
  s->cfg.kernel = kernel;
  s->cfg.patches = patches;
  if (const char* l = std::getenv("RS_BT_LAUNCH"); l && (!parse_u32(l, s->cfg.launch) || s->cfg.launch == 0)) {
    fail(*s, std::string("RS_BT_LAUNCH '") + l + "' is not a launch number (1, 2, ...)");
    return 1;
  }
  if (const char* cap = std::getenv("RS_BT_CAPACITY"); cap && (!parse_u32(cap, s->cfg.capacity) || s->cfg.capacity == 0)) {
    fail(*s, std::string("RS_BT_CAPACITY '") + cap + "' is not a count");
    return 1;
  }
  if (const char* u = std::getenv("RS_BT_UNPATCH")) s->cfg.unpatch_after = std::string(u) == "1";
  if (const char* b = std::getenv("RS_BT_BLOCK")) {
    std::string text = b;
    size_t start = 0;
    for (int i = 0; i < 3 && start <= text.size(); ++i) {
      const size_t comma = text.find(',', start);
      const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!parse_u32(part.c_str(), s->cfg.block[i])) {
        fail(*s, "RS_BT_BLOCK '" + text + "' is not a block index (X or X,Y,Z)");
        return 1;
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  Sanitizer_SubscriberHandle handle;
  if (sanitizerSubscribe(&handle, callback, s) != SANITIZER_SUCCESS ||
      sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_RESOURCE) != SANITIZER_SUCCESS ||
      sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_LAUNCH) != SANITIZER_SUCCESS) {
    fail(*s, "the Compute Sanitizer API did not accept the subscriber (is another tool attached?)");
    return 1;
  }
  return 0;
}

}  // namespace

// The CUDA driver calls this after loading the library named by CUDA_INJECTION64_PATH.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() { return initialize(); }

namespace {
// Also at load, for drivers that do not call InitializeInjection (the Sanitizer samples rely on this).
[[maybe_unused]] const int g_initialized = initialize();
}  // namespace
