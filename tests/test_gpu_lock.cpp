// Timed runs take the GPU in turn across processes (kernels/gpu_lock.hpp, issue 29): a second process's lock waits
// until the first lets go. Ordering is checked, not time: the holder writes a marker just before it unlocks, and
// the waiter must find it once it holds the lock.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpu_lock.hpp"

namespace {

namespace fs = std::filesystem;

TEST(GpuTimingLock, ASecondProcessWaitsForTheFirst) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("rs-lock-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  setenv("RS_LOCK_DIR", dir.c_str(), 1);
  const fs::path marker = dir / "released";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    {
      rs::GpuTimingLock lock(3);
      if (!lock.held()) ::_exit(2);
      const char b = 1;
      if (::write(ready[1], &b, 1) != 1) ::_exit(3);
      ::usleep(200 * 1000);
      std::ofstream(marker) << "released\n";
    }
    ::_exit(0);
  }
  char b = 0;
  ASSERT_EQ(::read(ready[0], &b, 1), 1);  // the child holds it now
  {
    rs::GpuTimingLock lock(3);
    EXPECT_TRUE(lock.held()) << lock.problem();
    EXPECT_TRUE(fs::exists(marker)) << "the lock was taken while another process held it";
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  {
    rs::GpuTimingLock other_device(4);  // another GPU's lock is another file: free at once
    EXPECT_TRUE(other_device.held());
    EXPECT_NE(rs::GpuTimingLock::path(4), rs::GpuTimingLock::path(3));
  }
  setenv("RS_LOCK_DIR", (dir / "no" / "such" / "folder").c_str(), 1);
  rs::GpuTimingLock nowhere(0);
  EXPECT_FALSE(nowhere.held());
  EXPECT_NE(nowhere.problem().find("cannot open"), std::string::npos) << nowhere.problem();
  unsetenv("RS_LOCK_DIR");
  fs::remove_all(dir);
}

}  // namespace
