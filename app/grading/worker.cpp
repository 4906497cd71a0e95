// run_worker and become_worker (worker.hpp): posix_spawn with three pipes (stdout, stderr, and the busy pipe at
// fd kWorkerFd in the child), a poll loop, and, when its GPU work outlives the limit or the caller cancels, the
// child's whole process tree stopped and killed (stop_process_tree), then waited for until it is gone.
#include "worker.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "i18n.hpp"
#include "user_kernel_gpu.hpp"  // set_user_gpu_busy_hook

extern char** environ;

namespace rs {

using i18n::strf;

namespace {

constexpr int kWorkerFd = 100;  // the busy pipe's number in the child
constexpr const char* kWorkerEnv = "REDUCESCOPE_WORKER_FD";
constexpr const char* kParentEnv = "REDUCESCOPE_PARENT";  // set for every child: it dies with its parent

using Clock = std::chrono::steady_clock;

struct Pipe {
  int r = -1, w = -1;
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    r = fds[0];
    w = fds[1];
    return true;
  }
  void close_both() {
    if (r >= 0) close(r);
    if (w >= 0) close(w);
    r = w = -1;
  }
};

}  // namespace

WorkerResult run_worker(const std::string& exe, const std::vector<std::string>& args, const WorkerOptions& o) {
  WorkerResult res;
  Pipe out, err, ctl;
  if (!out.open() || !err.open() || !ctl.open()) {
    res.message = strf(_("pipe: %s"), std::strerror(errno));
    out.close_both();
    err.close_both();
    ctl.close_both();
    return res;
  }
  std::vector<std::string> env_strings;
  auto replaced = [&](const char* e) {  // by the worker's pipe, the parent's pid or by options.env
    if (std::strncmp(e, kWorkerEnv, std::strlen(kWorkerEnv)) == 0) return true;
    if (std::strncmp(e, kParentEnv, std::strlen(kParentEnv)) == 0) return true;
    for (const std::string& v : o.env) {
      const size_t eq = v.find('=');
      if (eq != std::string::npos && std::strncmp(e, v.c_str(), eq + 1) == 0) return true;
    }
    return false;
  };
  for (char** e = environ; e && *e; ++e) {
    if (!replaced(*e)) env_strings.emplace_back(*e);
  }
  env_strings.insert(env_strings.end(), o.env.begin(), o.env.end());
  env_strings.push_back(std::string(kWorkerEnv) + "=" + std::to_string(kWorkerFd));
  env_strings.push_back(std::string(kParentEnv) + "=" + std::to_string(getpid()));
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings{exe};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out.w, 1);
  posix_spawn_file_actions_adddup2(&fa, err.w, 2);
  posix_spawn_file_actions_adddup2(&fa, ctl.w, kWorkerFd);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // a group of its own: SIGKILL reaches what it starts too
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out.w);
  close(err.w);
  close(ctl.w);
  out.w = err.w = ctl.w = -1;
  if (rc != 0) {
    res.message = strf(_("could not start %s: %s"), exe.c_str(), std::strerror(rc));
    out.close_both();
    err.close_both();
    ctl.close_both();
    return res;
  }

  bool busy = false, killed = false;
  Clock::time_point busy_since{};
  struct pollfd fds[3] = {{out.r, POLLIN, 0}, {err.r, POLLIN, 0}, {ctl.r, POLLIN, 0}};
  int open_fds = 3;
  char buf[4096];
  auto kill_child = [&](WorkerEnd why) {
    if (killed) return;
    res.stopped = stop_process_tree(pid);
    killed = true;
    res.end = why;
  };
  while (open_fds > 0) {
    const int ready = poll(fds, 3, 20);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 3 && ready > 0; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      const std::string chunk(buf, static_cast<size_t>(got));
      if (i == 0 && o.out) o.out(chunk);
      if (i == 1 && o.err) o.err(chunk);
      if (i == 2) {
        for (char c : chunk) {
          if (c == '1' && !busy) {
            busy = true;
            busy_since = Clock::now();
          } else if (c == '0') {
            busy = false;
          }
        }
      }
    }
    if (busy && !killed) {
      const double s = std::chrono::duration<double>(Clock::now() - busy_since).count();
      if (s > o.timeout_s) {
        res.busy_s = s;
        kill_child(WorkerEnd::TimedOut);
      }
    }
    if (!killed && o.cancel && o.cancel()) kill_child(WorkerEnd::Cancelled);
  }
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed) {
    // The child is reaped; what it started (a nested worker, compute-sanitizer's target) was killed with it. Each
    // is gone from /proc, or a zombie, once the kernel has closed its files: the GPU driver's release of its device
    // files, which destroys its CUDA context, comes before that.
    res.gone_s = wait_until_gone(res.stopped, 10.0);
    return res;
  }
  if (WIFEXITED(status)) {
    res.end = WorkerEnd::Exited;
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.end = WorkerEnd::Signaled;
    res.signal = WTERMSIG(status);
  }
  return res;
}

namespace {

// The state letter and parent of process `pid` from /proc/PID/stat ("pid (comm) state ppid ...": comm may hold
// spaces and parentheses, so it is read after the last ')'). False where there is no such process (or not Linux).
bool read_stat(const std::string& pid, char* state, int* ppid) {
#ifdef __linux__
  std::ifstream f("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(f, line)) return false;
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 1));
  return static_cast<bool>(rest >> *state >> *ppid);
#else
  (void)pid, (void)state, (void)ppid;
  return false;
#endif
}

}  // namespace

std::vector<int> process_descendants(int root) {
  std::map<int, std::vector<int>> children;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      char state = 0;
      int ppid = 0;
      if (std::atoi(e->d_name) > 0 && read_stat(e->d_name, &state, &ppid)) children[ppid].push_back(std::atoi(e->d_name));
    }
    closedir(d);
  }
  std::vector<int> out, todo{root};
  while (!todo.empty()) {
    const int p = todo.back();
    todo.pop_back();
    for (int c : children[p]) {
      out.push_back(c);
      todo.push_back(c);
    }
  }
  return out;
}

bool process_gone(int pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
#ifdef __linux__
  char state = 0;
  int ppid = 0;
  return !read_stat(std::to_string(pid), &state, &ppid) || state == 'Z' || state == 'X';
#else
  return false;
#endif
}

std::vector<int> stop_process_tree(int pid) {
  // First stop every process of the tree (a stopped process starts nothing new, and keeps its parent, so the tree
  // can be read whole), reading it again until it no longer grows; then kill them all. Killing from the top would
  // orphan the lower ones before they are found: a nested worker sits in a process group of its own, so the
  // group's SIGKILL alone left it running (issue 54).
  std::vector<int> tree{pid};
  std::set<int> seen{pid};
  kill(pid, SIGSTOP);
  for (int round = 0; round < 20; ++round) {  // what was stopped keeps its parent: the tree below `pid` is read whole
    bool grew = false;
    for (int c : process_descendants(pid)) {
      if (seen.insert(c).second) {
        kill(c, SIGSTOP);
        tree.push_back(c);
        grew = true;
      }
    }
    if (!grew) break;
  }
  const pid_t own_group = getpgrp();
  std::set<pid_t> groups;
  for (int p : tree) {
    const pid_t g = getpgid(p);
    if (g > 0 && g != own_group) groups.insert(g);
  }
  for (pid_t g : groups) kill(-g, SIGKILL);  // the child's group: what the tree walk cannot see (none on macOS)
  for (int p : tree) kill(p, SIGKILL);
  return tree;
}

double wait_until_gone(const std::vector<int>& pids, double limit_s) {
  const auto t0 = Clock::now();
  for (;;) {
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (std::all_of(pids.begin(), pids.end(), process_gone)) return s;
    if (s > limit_s) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void die_with_parent() {
#ifdef __linux__
  const char* v = std::getenv(kParentEnv);
  if (!v || !*v) return;
  const int parent = std::atoi(v);
  // Not handed on: what this process starts gets its own value from run_worker or run_program, and nothing else it
  // starts (a shell, sbatch) carries a pid that means nothing there.
  unsetenv(kParentEnv);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have gone before the line above: then this process is already someone else's. (Between them may
  // stand a tool that is not ours, compute-sanitizer: then getppid() is the tool, and the parent still exists.)
  if (parent > 0 && getppid() != parent && kill(parent, 0) != 0 && errno == ESRCH) _exit(137);
#endif
}

bool become_worker() {
  const char* v = std::getenv(kWorkerEnv);
  if (!v || !*v) return false;
  const int fd = std::atoi(v);
  if (fd <= 2 || fcntl(fd, F_GETFD) < 0) return false;
  fcntl(fd, F_SETFD, FD_CLOEXEC);  // not into what this process starts (ncu, compute-sanitizer)
  set_user_gpu_busy_hook([fd](bool b) {
    const char c = b ? '1' : '0';
    ssize_t w;
    do {
      w = write(fd, &c, 1);
    } while (w < 0 && errno == EINTR);
  });
  return true;
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  return std::string(buf, static_cast<size_t>(n));
}

std::string malloc_hugetlb_tunables(const char* current, bool disabled) {
  const std::string now = current ? current : "";
  if (disabled || now.find("glibc.malloc.hugetlb") != std::string::npos) return now;
  return now.empty() ? "glibc.malloc.hugetlb=1" : now + ":glibc.malloc.hugetlb=1";  // tunables are ':'-separated
}

std::vector<std::string> compiling_worker_env() {
  const char* off = std::getenv("REDUCESCOPE_HUGEPAGES");
  const std::string v = malloc_hugetlb_tunables(std::getenv("GLIBC_TUNABLES"), off && std::string(off) == "0");
  if (v.empty()) return {};
  return {"GLIBC_TUNABLES=" + v};
}

std::string worker_end_message(const WorkerResult& r, const std::string& file, double timeout_s) {
  switch (r.end) {
    case WorkerEnd::Exited: return "";
    case WorkerEnd::TimedOut:
      return strf(_("%s: the kernel was still running after %g s and was stopped (the time limit; --kernel-timeout S "
                    "raises it). The likely causes: a loop whose condition never changes (an index or stride that does "
                    "not move: s *= 2 from 0, s >>= 1 on a signed value), or a __syncthreads() that not every thread "
                    "of the block reaches (inside an if on tid, or after an early return), so the block waits "
                    "forever."),
                  file.c_str(), timeout_s);
    case WorkerEnd::Signaled:
      return strf(_("%s: the worker process running the kernel died (signal %d, %s)"), file.c_str(), r.signal,
                  strsignal(r.signal));
    case WorkerEnd::Cancelled: return strf(_("%s: stopped"), file.c_str());
    case WorkerEnd::NotStarted: return strf(_("%s: %s"), file.c_str(), r.message.c_str());
  }
  return "";
}

std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end + 1 - start);
}

}  // namespace rs
