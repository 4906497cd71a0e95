// compute-sanitizer's racecheck, read: the data races of one launch, as a session keeps them
// (SessionRace). `reducescope pitfalls --out` runs
//   compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 100000 reducescope run ...
// on a one-block launch of each wrong kernel and hands the output here.
//
// The hazard report's shape (compute-sanitizer 2025.3, CUDA 13.0, seen on the H100; the fixtures in
// tests/fixtures/racecheck/ are that output):
//   ========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x440 in block (0,0,0) :
//   =========     Write Thread (16,0,0) at rs::warpReduce_volatile(volatile int *, unsigned int)+0x2e0 in pitfall_kernels.cuh:43
//   =========     Read Thread (0,0,0) at rs::warpReduce_volatile(volatile int *, unsigned int)+0x300 in pitfall_kernels.cuh:44
// One hazard per byte. The __shared__ address counts from the start of the block's shared window,
// which begins with the memory the system reserves per block (cudaDevAttrReservedSharedMemoryPerBlock:
// 1 KiB on compute capability 8.0 and later; CUDA C++ Programming Guide, "Shared Memory" of
// "Compute Capabilities"), so the kernel's first dynamic shared word is at that offset.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pitfall_words.hpp"
#include "session.hpp"

namespace rs {

// The output does not read as racecheck's (no summary line: it did not run, or it crashed).
struct RacecheckError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RacecheckReport {
  uint32_t hazards_total = 0;      // RACECHECK SUMMARY's count (every block, shared and global)
  std::vector<SessionRace> races;  // the hazards in shared memory of block (0,0,0), one per (kind, file, access
                                   // and line of each end), in the order they first appear
};

// Reads `text` (racecheck's whole output, hazard report). `reserved_bytes`: the system's reserved
// shared memory per block on the GPU it ran on (the shared addresses below it are not the kernel's; a
// hazard there is ignored). Throws RacecheckError when `text` has no RACECHECK SUMMARY line, or a
// hazard whose two accesses cannot be read.
RacecheckReport parse_racecheck(const std::string& text, const std::string& kernel, uint32_t block_size,
                                uint32_t reserved_bytes);

// describe_race() and word_ranges(), which say a race in words, are in pitfall_words.hpp.

}  // namespace rs
