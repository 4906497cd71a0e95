// Timed runs take the GPU in turn across processes (issue 29, "grading under load"): a course grades many files at
// once on one GPU, and two processes timing at once would each see the other's kernels in their medians. An
// advisory lock (flock(2)) on $RS_LOCK_DIR/reducescope-gpu<device>.lock (default /tmp) is held while a process
// times; the others wait for it. A process that dies releases it (the kernel drops a flock with its last file
// descriptor). Untimed runs (sums against the CPU, traces) do not take it. Plain C++, no CUDA.
#pragma once

#include <string>

namespace rs {

class GpuTimingLock {
 public:
  // Blocks until the lock of CUDA device `device` is held. Where the lock file cannot be opened (no writable
  // folder) it holds nothing and says why in problem(): timing then goes on unguarded.
  explicit GpuTimingLock(int device = 0);
  ~GpuTimingLock();
  GpuTimingLock(const GpuTimingLock&) = delete;
  GpuTimingLock& operator=(const GpuTimingLock&) = delete;

  bool held() const { return fd_ >= 0; }
  double waited_ms() const { return waited_ms_; }  // how long another process kept it
  const std::string& problem() const { return problem_; }
  static std::string path(int device);  // the lock file: of the physical GPU where CUDA_VISIBLE_DEVICES lists it

 private:
  int fd_ = -1;
  double waited_ms_ = 0;
  std::string problem_;
};

}  // namespace rs
