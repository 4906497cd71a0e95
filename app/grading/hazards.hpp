// compute-sanitizer's reports on a student's kernel, read (issue 57, item 1): an exercise check runs racecheck,
// synccheck and memcheck on `reducescope run --kernel-file` at one small N and each block size it traces
// (app/commands/sanitize_check.cpp), and a hazard fails the check whatever the sums did.
//
// The output's shape (compute-sanitizer 2025.3, CUDA 13.0, seen on the H100; tests/fixtures/racecheck/ and
// tests/fixtures/grading/ hold it):
//   racecheck (--racecheck-report hazard), one report per byte:
//     ========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x440 in block (0,0,0) :
//     =========     Write Thread (16,0,0) at void user_kernel<int>(const T1 *, T1 *, unsigned int)+0x2e0 in k.cu:43
//     =========     Read Thread (0,0,0) at void user_kernel<int>(...)+0x300 in k.cu:44
//     ========= RACECHECK SUMMARY: 372 hazards displayed (0 errors, 372 warnings)
//   synccheck and memcheck, one report per thread:
//     ========= Barrier error detected. Invalid arguments          (memcheck: "Invalid __global__ read of size 4 bytes")
//     =========     at void user_kernel<int>(...)+0x1a0 in k.cu:12
//     =========     by thread (16,0,0) in block (0,0,0)
//     ========= ERROR SUMMARY: 64 errors
// The __shared__ address counts from the block's shared window, whose first bytes the system reserves
// (cudaDevAttrReservedSharedMemoryPerBlock: 1 KiB from compute capability 8.0); the kernel's word w is at
// reserved + 4 w.
//
// The program prints a line per block size after that block size's launches ("... block size 64 N ...: result");
// the reports before such a line are that block size's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

enum class SanitizerTool : uint8_t { Racecheck, Synccheck, Memcheck };
const char* to_string(SanitizerTool t);  // "racecheck", "synccheck", "memcheck"

// One report, or several folded: the same tool, block size, kind and lines.
struct SanitizerFinding {
  SanitizerTool tool = SanitizerTool::Racecheck;
  unsigned block_size = 0;       // threads per block of the launch it came from (0: not known)
  std::string kind;              // racecheck: "RAW", "WAR" or "WAW"; else the report's head ("Barrier error
                                 // detected. Invalid arguments", "Invalid __global__ read of size 4 bytes")
  bool warp_level = false;       // racecheck: "(Warp Level Programming)": both ends in one warp, no __syncwarp()
  std::string first_access, second_access;  // racecheck: "Write", "Read"
  uint32_t first_line = 0, second_line = 0; // the kernel's file:line of each end (synccheck, memcheck: first only;
                                            // 0: the report names no line)
  uint32_t first_thread = 0, second_thread = 0;  // threadIdx.x of each end (of the first report folded)
  int64_t word = -1;             // racecheck: the first shared word raced on, (address - reserved) / 4; -1: in
                                 // the reserved bytes, or none
  uint32_t count = 1;            // reports folded into this one
};

struct SanitizerOutput {
  bool complete = false;         // the tool's summary line was there: it ran to the end
  uint32_t summary_count = 0;    // that line's count (hazards, or errors), every block included
  std::vector<SanitizerFinding> findings;  // in the order they first appear, every block's (a race whose lines
                                           // repeat in other blocks is folded into the first report's finding)
};

// Reads tool `t`'s whole output (stdout and stderr together). `reserved_bytes`: the system's reserved shared memory
// per block on the GPU it ran on. Never throws: lines it does not understand are skipped; a report whose lines are
// missing is kept with line 0.
SanitizerOutput read_sanitizer_output(SanitizerTool t, const std::string& text, uint32_t reserved_bytes);

// One tool's run on the student's kernel.
struct SanitizerReport {
  SanitizerTool tool = SanitizerTool::Racecheck;
  bool ran = false;          // it ran to its summary line
  std::string why_not;       // when !ran: why (English: it stopped at the time limit, it crashed, ...)
  SanitizerOutput output;
  double seconds = 0;        // wall time of its run
};

// What an exercise check gathered from compute-sanitizer (ExerciseEvidence::sanitizers).
struct SanitizerEvidence {
  bool attempted = false;    // the check tried (false: an exercise that does not run them, or a check judged from
                             // evidence gathered before issue 57)
  std::string why_not;       // "": compute-sanitizer was found; else why none ran ("compute-sanitizer is not on the
                             // PATH nor in /usr/local/cuda/bin")
  uint64_t n = 0;            // elements of each run
  std::vector<unsigned> block_sizes;
  std::vector<SanitizerReport> reports;  // racecheck, synccheck, memcheck
  double seconds = 0;        // wall time of the three, run side by side
};

}  // namespace rs
