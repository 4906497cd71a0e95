// compute-sanitizer on a student's kernel, for an exercise check (issue 57, item 1): racecheck, synccheck and memcheck,
// one process each, side by side, on `reducescope run --compiled C --kernel-file F --n N --block-size B1,B2,...` (one
// run per block size in one process; grading/hazards.hpp reads the output). They start when the check starts and run
// beside its sums and traces; finish() waits for them, before the timing (which wants the GPU to itself).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hazards.hpp"
#include "plain_trace.hpp"
#include "user_kernel.hpp"

namespace rs::cmd {

class SanitizerRuns {
 public:
  // `k`: the kernel (saved to a file of its own for the runs); `block_sizes`: those the check traces; `reserved_bytes`:
  // the GPU's reserved shared memory per block; `kernel_timeout_s`: the check's limit on a run's GPU work (the tools
  // slow a kernel down a hundredfold: each run gets max(60 s, 10x it)). Where compute-sanitizer is not found, nothing
  // starts and finish() says so.
  SanitizerRuns(const UserKernel& k, std::vector<unsigned> block_sizes, uint32_t reserved_bytes,
                double kernel_timeout_s);
  // Without finish() (the check stopped on a fault or an error): the runs still going are stopped, not waited for.
  ~SanitizerRuns();
  SanitizerRuns(const SanitizerRuns&) = delete;
  SanitizerRuns& operator=(const SanitizerRuns&) = delete;
  SanitizerEvidence finish();

  // The N of each run: two blocks of the largest block size and one element more (three blocks, the last with one
  // element), so that a single pass draws more than one ticket.
  static uint64_t n_for(const UserKernel& k, const std::vector<unsigned>& block_sizes);

 private:
  SanitizerEvidence e_;
  std::unique_ptr<TempCompiledKernel> compiled_;
  std::vector<std::thread> threads_;
  std::atomic<bool> abandoned_{false};
  double t0_ = 0;
};

}  // namespace rs::cmd
