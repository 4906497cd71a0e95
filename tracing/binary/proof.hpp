// Proof by agreement (issue 28): two independent tracers of the same block, the source probe (the kernel's
// tracing build) and the binary tracer (the timing build as compiled, through the Compute Sanitizer API),
// must give the same shared memory after every step, the same bank conflicts per step and the same global
// requests and sectors. Where the compiler makes them differ (it merged, vectorised or kept a value in a
// register), the row says where, and docs/binary-trace.md shows the SASS. Plain C++ (replay model only).
#pragma once

#include <string>
#include <vector>

#include "replay.hpp"

namespace rs::bt {

// One compared quantity: the two tracers' figures in words and whether they agree.
struct Agreement {
  std::string what;     // "steps", "shared memory after each step", "bank conflicts per step (ld/st)", ...
  std::string probe;    // the source probe's figure
  std::string binary;   // the binary tracer's
  bool equal = false;
  // The source probe cannot see this quantity for this kernel (its global memory is reached through plain
  // pointers, not the probe's GlobalArray: Harris's kernels; its shared memory is a raw extern __shared__ array:
  // pitfall_no_volatile and pitfall_no_syncwarp, on purpose), so only the binary tracer has it; `equal` is then
  // true, and the row says so instead of claiming agreement.
  bool binary_only = false;
};

// Compares the replays of one block traced both ways. Shared memory: every word the probe's step holds
// (defined) must hold the same value in the binary trace's step; steps are matched by index.
std::vector<Agreement> compare_tracers(const Replay& probe, const Replay& binary);

}  // namespace rs::bt
