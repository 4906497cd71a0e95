// What the binary tracer's injector hands to `reducescope trace -- PROGRAM`: the traced launch, the
// events of its traced block, the module's cubin (for the SASS and the line table) and the program's
// device allocations (to name the buffers a global access went to). A capture file (.rscapture) is
// the injector's output; tests keep real ones recorded on an H100 as fixtures.
//
// Layout: 8 magic bytes "RSBTCAP\0", u32 version (1), u32 reserved (0), then the sections of trace
// files (u32 tag, u32 reserved, u64 size, payload; docs/trace-format.md), ending with the CRC-32
// section. Plain C++: no CUDA (the injector links it; CI tests it).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capture_format.hpp"

namespace rs::bt {

inline constexpr uint32_t kCaptureVersion = 1;

enum class CaptureStatus : uint32_t {
  Traced = 0,   // the launch was found and its block recorded
  NoMatch = 1,  // no launch of a kernel whose name contains the asked-for text (or too few launches)
  Failed = 2,   // the Sanitizer API or CUDA failed; `message` says how
};

// One device allocation live at the traced launch (cudaMalloc, cudaMallocAsync): bytes.
struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
};

struct Capture {
  CaptureStatus status = CaptureStatus::Failed;
  std::string message;                                   // Failed: why; NoMatch: what was asked for
  std::vector<std::pair<std::string, uint32_t>> launched;  // every kernel launched (demangled), launches
  // The traced launch (status Traced):
  std::string kernel_mangled;                            // the function's symbol
  std::string kernel;                                    // demangled
  uint32_t launch = 0;                                   // 1-based, among the launches that matched
  uint32_t grid[3] = {0, 0, 0};                          // gridDim
  uint32_t block[3] = {0, 0, 0};                         // blockDim
  uint32_t traced[3] = {0, 0, 0};                        // blockIdx of the traced block
  std::string gpu;                                       // device name
  uint32_t cc_major = 0, cc_minor = 0;                   // compute capability
  uint32_t driver_version = 0;                           // cuDriverGetVersion, e.g. 13000
  uint32_t reserved_smem = 0;                            // bytes the system keeps at the start of each block's
                                                         // shared window (CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)
  uint64_t function_pc = 0, function_size = 0;           // sanitizerGetFunctionPcAndSize: start and bytes
  std::string cubin;                                     // the module's image as loaded (ELF cubin)
  std::vector<Allocation> allocations;
  uint32_t capacity = 0;                                 // events the device buffer held
  uint32_t taken = 0;                                    // slots the block took (above capacity: events dropped)
  std::vector<Event> events;                             // min(taken, capacity), in slot order
  uint32_t threads() const { return block[0] * block[1] * block[2]; }
};

std::string serialize_capture(const Capture& c);
// Throws rs::TraceFormatError (trace_io.hpp) naming `name` for anything that is not a whole capture.
Capture parse_capture(const std::string& bytes, const std::string& name);
Capture load_capture(const std::string& path);
void save_capture(const Capture& c, const std::string& path);

}  // namespace rs::bt
