// The worker process a user's kernel runs in (issue 19): a kernel of the user's can hang (an endless loop, a
// barrier that not every thread reaches) or fault (an illegal address, a trap), and either would take the window
// or the command down with it. So `reducescope check`, `run`/`trace`/`bench`/`record --kernel-file` and the window
// run it in a child process: reducescope itself, started again with the same arguments (the CLI) or with a
// `worker` job (the window), which tells its parent through a pipe while it has GPU work in flight
// (UserGpuBusy, kernels/user_kernel_gpu.hpp). The parent copies the child's output as it comes and stops the child
// (SIGKILL) when that work has run longer than the time limit.
//
// A stop ends the child's whole process tree, not only its process group: a worker may start a worker of its own
// (the binary tracer's traced `reducescope run` does, in a group of its own), and compute-sanitizer starts its
// target. run_worker stops every process of the tree (SIGSTOP, read from /proc), kills them all, and returns once
// each is gone, so the CUDA context of a hung or faulted kernel is destroyed before the caller starts the next run.
// And every reducescope process started by another dies with its parent (die_with_parent: PR_SET_PDEATHSIG), so no
// worker outlives the window or `check`, even one killed with SIGKILL. docs/your-kernel.md, "When a kernel faults
// on the GPU that draws the window", has what was found on the H100 (issue 54).
//
// POSIX (fork/exec through posix_spawn, pipes, poll): Linux and macOS; the tree walk and the parent-death signal
// are Linux's (elsewhere only the child's process group is killed).
//
// Index
//   WorkerEnd, WorkerResult   how the child ended: its exit code, a signal, the time limit, a cancel
//   run_worker()              starts the child, copies its output, enforces the limit
//   become_worker()           in the child: hooks UserGpuBusy to the parent's pipe
//   self_executable()         this program's path (/proc/self/exe), to start it again
//   malloc_hugetlb_tunables() GLIBC_TUNABLES for a worker that compiles: glibc's malloc on huge pages
//   compiling_worker_env()    that as a WorkerOptions::env entry
//   worker_end_message()      one paragraph for people: what happened and the likely causes
//   stop_process_tree()       SIGSTOP, then SIGKILL, a process and everything below it
//   last_line()               a worker's output's last line that says something (why it stopped)
//   die_with_parent()         main(), first: a child of ours dies when its parent does
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rs {

enum class WorkerEnd {
  Exited,    // the child exited by itself: WorkerResult::exit_code
  TimedOut,  // its GPU work ran past the time limit: stopped with SIGKILL
  Signaled,  // it died of a signal of its own (a crash): WorkerResult::signal
  Cancelled, // the caller's cancel() returned true: stopped with SIGKILL
  NotStarted // posix_spawn failed: WorkerResult::message says why
};

struct WorkerResult {
  WorkerEnd end = WorkerEnd::NotStarted;
  int exit_code = -1;    // Exited: the child's exit status
  int signal = 0;        // Signaled: the signal's number
  double busy_s = 0;     // TimedOut: how long the GPU work had run, seconds
  std::string message;   // NotStarted: why
  std::vector<int> stopped;  // TimedOut, Cancelled: the pids of the tree that was killed (the child first)
  double gone_s = 0;     // TimedOut, Cancelled: seconds from the kill until all of them were gone (-1: not in 10 s)
};

struct WorkerOptions {
  double timeout_s = 5;                            // the GPU work's limit, seconds (> 0)
  std::function<void(const std::string&)> out;     // each chunk of the child's stdout as it comes (nullptr: dropped)
  std::function<void(const std::string&)> err;     // each chunk of its stderr
  std::function<bool()> cancel;                    // polled every 20 ms; true stops the child
  std::vector<std::string> env;                    // NAME=VALUE set in the child's environment (over this process's),
                                                   // e.g. CUDA_VISIBLE_DEVICES=1 for grade's worker on GPU 1
};

// Starts `exe` with `args` (argv[1..]) in a process of its own, with REDUCESCOPE_WORKER_FD in its environment
// naming the write end of a pipe, and waits for it. Returns how it ended; never throws for the child's sake.
WorkerResult run_worker(const std::string& exe, const std::vector<std::string>& args, const WorkerOptions& options);

// In a child that run_worker started (REDUCESCOPE_WORKER_FD is set): sets the UserGpuBusy hook to write to the
// pipe, and returns true. Elsewhere returns false and changes nothing.
bool become_worker();

// The processes below `root`: its children, theirs, and so on (read from /proc/PID/stat). Linux; elsewhere empty.
std::vector<int> process_descendants(int root);
// Whether `pid` has exited: no such process, or a zombie (its files closed, its parent yet to reap it).
bool process_gone(int pid);
// Stops `pid` and every process below it (SIGSTOP, reading the tree again until it no longer grows), then kills
// them all and their process groups but this process's own (SIGKILL). Returns the pids, `pid` first. Does not wait.
std::vector<int> stop_process_tree(int pid);
// Waits until every one of `pids` is gone (process_gone), at most `limit_s` seconds: the seconds it took, or -1.
double wait_until_gone(const std::vector<int>& pids, double limit_s);
// In a process that run_worker (or the binary tracer's run_program) started, REDUCESCOPE_PARENT=PID in its
// environment: asks the kernel for SIGKILL when its parent exits (Linux's PR_SET_PDEATHSIG), exits at once if that
// parent has already gone, and removes the variable, so that nothing this process starts by other means inherits
// it. main() calls it first.
void die_with_parent();

// This program's absolute path (readlink /proc/self/exe; argv0 elsewhere is not known here): "" if unknown.
std::string self_executable();

// The value of GLIBC_TUNABLES for a worker that compiles with NVRTC: `current` (this process's value, nullptr or ""
// for none) with glibc.malloc.hugetlb=1 added, so that glibc's malloc asks for transparent huge pages
// (madvise(MADV_HUGEPAGE): the glibc manual, "Memory Allocation Tunables", glibc 2.35+; an older glibc ignores a
// tunable it does not know). NVRTC's front end fills some 200 MB of heap on CUB's headers, a page fault per 4 KiB
// without it. On this project's 2-core machine NVRTC's first compile of a cub::BlockReduce file took 1.3-1.6 s
// with it against 1.7-1.9 s without (docs/grading.md has the whole check on the H200). `current` is returned as it
// is when it already sets glibc.malloc.hugetlb (the user's choice), and when `disabled` (REDUCESCOPE_HUGEPAGES=0).
std::string malloc_hugetlb_tunables(const char* current, bool disabled = false);
// WorkerOptions::env's entry for a worker that compiles: GLIBC_TUNABLES=malloc_hugetlb_tunables(this process's
// GLIBC_TUNABLES, REDUCESCOPE_HUGEPAGES=0); empty when that leaves nothing to set.
std::vector<std::string> compiling_worker_env();

// For people, about a user's kernel file `file` whose worker ended as `r` ("" for a clean exit): the time limit
// and the likely causes of a hang (an endless loop, a barrier not every thread reaches) with the option that
// raises it, or the signal.
std::string worker_end_message(const WorkerResult& r, const std::string& file, double timeout_s);
// The last line of `text` that holds more than blanks, without its line end ("" for none): what a worker that ended
// said last (its first lines are often compile's "OK"): grade's, the window's and serve's one-line verdicts.
std::string last_line(const std::string& text);

}  // namespace rs
