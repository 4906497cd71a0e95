// A test double for a user's kernel in a worker process (issue 54; tests/test_exercises.cpp, suite WorkerTree): no
// GPU, no CUDA. It stands where `reducescope` stands when the window or `check` runs a kernel file, with the same
// process structure:
//   worker_stub hang DIR   writes DIR/hang.pid, says "GPU work in flight" on the busy pipe (as UserGpuBusy does),
//                          and sleeps for ever: a kernel that hangs;
//   worker_stub nest DIR   writes DIR/nest.pid and starts `worker_stub hang DIR` through run_worker, as the binary
//                          tracer's traced `reducescope run` starts its own worker: in a process group of its own,
//                          which a SIGKILL to this process's group does not reach. It says "busy" once that one
//                          has written its pid (so a parent's time limit always finds both).
// Both call die_with_parent() first, as reducescope's main() does.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "worker.hpp"

namespace {

void say_busy() {
  const char* fd = std::getenv("REDUCESCOPE_WORKER_FD");
  if (fd && *fd) {
    const char c = '1';
    (void)!write(std::atoi(fd), &c, 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  rs::die_with_parent();
  if (argc != 3) return 2;
  const std::string mode = argv[1], dir = argv[2];
  std::ofstream(dir + "/" + mode + ".pid.part") << getpid() << "\n";
  std::rename((dir + "/" + mode + ".pid.part").c_str(), (dir + "/" + mode + ".pid").c_str());
  if (mode == "hang") {
    say_busy();
    for (;;) pause();
  }
  if (mode == "nest") {
    rs::WorkerOptions o;
    o.timeout_s = 3600;
    bool said = false;
    o.cancel = [&] {  // polled every 20 ms: used here only to say "busy" once the hang stub is there
      if (!said && std::ifstream(dir + "/hang.pid")) {
        say_busy();
        said = true;
      }
      return false;
    };
    const rs::WorkerResult r = rs::run_worker(rs::self_executable(), {"hang", dir}, o);
    return r.end == rs::WorkerEnd::Exited ? r.exit_code : 3;
  }
  return 2;
}
