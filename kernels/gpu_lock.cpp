#include "gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace rs {

std::string GpuTimingLock::path(int device) {
  const char* dir = std::getenv("RS_LOCK_DIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/reducescope-gpu" + std::to_string(device) + ".lock";
}

GpuTimingLock::GpuTimingLock(int device) {
  const std::string p = path(device);
  fd_ = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    problem_ = "cannot open " + p + ": " + std::strerror(errno);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int r;
  do {
    r = ::flock(fd_, LOCK_EX);
  } while (r != 0 && errno == EINTR);
  waited_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (r != 0) {
    problem_ = "cannot lock " + p + ": " + std::strerror(errno);
    ::close(fd_);
    fd_ = -1;
  }
}

GpuTimingLock::~GpuTimingLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace rs
