// The fence a single pass needs (issue 57, item 2), read from the kernel as compiled: in a SinglePass kernel (the last
// block to draw a ticket adds every block's partial), a GPU-scope fence must lie between a block's store of its partial
// and its ticket atomic, on every path. Without one, the store and the ticket may reach L2 in either order, and the
// last block can add a partial that has not landed (CUDA C++ Programming Guide, "Memory Fence Functions", whose example
// is this reduction; cuda-samples' threadFenceReduction). The sums usually come out right all the same: the store has
// almost always landed by the time the last block reads it, so no check on sums can see the bug.
//
// What counts as the fence:
//   PTX:  membar.gl, membar.sys, fence.sc.{gpu,sys}, fence.acq_rel.{gpu,sys} (__threadfence(),
//         cuda::atomic_thread_fence at device scope), or a release atom/red (.release or .acq_rel at .gpu or .sys:
//         cuda::atomic_ref with memory_order_release or acq_rel) as the ticket itself.
//   SASS: MEMBAR at GPU or system scope (MEMBAR.SC.GPU, MEMBAR.ALL.GPU, MEMBAR.*.SYS): ptxas lowers a release
//         atomic to such a MEMBAR before the ATOMG.
// A store is one to global or generic memory (not shared, local or param); the ticket is an atomic on global or
// generic memory that is the first atomic of some path from the kernel's entry (later atomics, such as the last
// block's reset of the counter, follow the ticket). Blocks ending in EXIT, RET, ret, exit or trap end their paths.
//
// The code is read as a control-flow graph over its labels and branches. Where that graph cannot be built (an
// indirect branch, a call to a function of the module that stores, fences or takes an atomic), the kernel is not
// judged: FenceFinding::judged is false and the check says so (a right answer is never failed for what could not be
// read).
//
// Plain C++: the PTX comes from NVRTC (which CI has), the SASS from nvdisasm (the GPU machine's toolkit), so CI tests
// the PTX reader on the corpus and the SASS reader on listings captured on the H100 (tests/fixtures/grading/sass/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

struct FenceFinding {
  bool judged = false;        // the function was found and its control flow read
  std::string why_not;        // when !judged: why (English, for the check's figure)
  std::string code;           // "SASS" or "PTX": what was read
  bool missing = false;       // some path goes from a global store to the ticket with no GPU-scope fence
  uint32_t store_line = 0;    // that store's line in the kernel's file (0: the code has no line for it)
  uint32_t atomic_line = 0;   // the ticket's line
  std::string store_text, atomic_text;  // the two instructions ("st.global.u32 [%rd15], %r134")
  int fences = 0;             // GPU-scope fences in the function (release atomics included)
  int tickets = 0;            // atomics that are the first atomic of some path
  bool stores_before_ticket = false;  // some path stores to global memory before its first atomic
};

// `ptx`: NVRTC's PTX of the module; `entry`: the kernel's lowered name (UserBuild::int_entry). `file`: the kernel's
// file name as NVRTC was given it (its `.file` entry names the lines; "" takes the file most `.loc` lines name).
FenceFinding fence_in_ptx(const std::string& ptx, const std::string& entry, const std::string& file = "");

// `listing`: `nvdisasm -gi -c` of the module's cubin (tracing/binary/sass.hpp has the format); `entry` as above.
FenceFinding fence_in_sass(const std::string& listing, const std::string& entry, const std::string& file = "");

// A shuffle whose member mask is a constant other than 0xffffffff (`shfl.sync ... , 65535;` or a register the function
// sets once with mov): the check sets it against the lanes the trace saw execute the shuffle at that line. Every
// lane that calls __shfl*_sync must be in its mask (CUDA C++ Programming Guide, "Warp Shuffle Functions"); compute-
// sanitizer's synccheck did not report such a call on the H100 (docs/data/hidden-bugs-h100-2026-12-06/).
struct ShuffleMask {
  uint32_t line = 0;  // in the kernel's file
  uint32_t mask = 0;
};
std::vector<ShuffleMask> shuffle_masks_in_ptx(const std::string& ptx, const std::string& entry,
                                              const std::string& file = "");

}  // namespace rs
