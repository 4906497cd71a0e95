// Compiling ahead for `reducescope grade` (issue 40: a check in under 3 s, a class in GPU-hours). A check that
// compiles its file leaves its GPU idle meanwhile: NVRTC takes about 0.1 s for a plain file and about 2 s for one that
// includes CUB or cooperative groups (their headers). So while each GPU checks one submission, CompileAhead compiles
// the next ones on the CPU's other cores, each in a process of its own (`reducescope check FILE --compile-only --cc N
// --save-compiled C`: a compile that crashes takes only that process down), and the GPU's check takes the result
// (`check FILE --compiled C`, which prints what compiling printed, so its output is the same). A file that did not
// compile ahead is checked as before: its check compiles it again and says why, so the verdicts are the same.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace rs::cmd {

class CompileAhead {
 public:
  // Compiles files[k] for compute capability `cc` (e.g. 90) into `dir` (created; a compiled kernel of a few MB at
  // most per file, removed once taken and the folder at the end), with `threads` processes at once, in order, at
  // most `window` files ahead of the last one taken. `exe` is reducescope itself (self_executable()). A file
  // name "" is skipped (a student with no file).
  CompileAhead(std::string exe, std::vector<std::string> files, std::filesystem::path dir, int cc, unsigned threads,
               size_t window);
  ~CompileAhead();  // stops taking new files, waits for the compiles in flight, removes `dir`
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;

  // Waits until files[k] has been compiled ahead, then gives its compiled kernel's path, or "" where it did not
  // compile (a compile error, a crash, a file not written): check it as before. Each k is taken once; the file is
  // the caller's to remove when its check is done (remove()).
  std::string take(size_t k);
  void remove(const std::string& compiled);

  // Seconds the compile processes ran in all (for grade's summary line).
  double compile_seconds() const;

 private:
  enum class State { Waiting, Running, Done };
  struct Item {
    State state = State::Waiting;
    std::string compiled;  // Done: the path, or "" where it did not compile
  };
  void work();

  std::string exe_;
  std::vector<std::string> files_;
  std::filesystem::path dir_;
  int cc_;
  size_t window_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Item> items_;
  size_t next_ = 0;   // the next file to compile
  size_t taken_ = 0;  // files taken so far (the window runs ahead of it)
  bool stopping_ = false;
  double seconds_ = 0;
  std::vector<std::thread> threads_;
};

// grade's compiling ahead of its GPU workers, over `files` (a student without a file: ""): where every GPU in `gpus`
// (device indices) has one compute capability, `exe` is known and REDUCESCOPE_COMPILE_AHEAD is not 0 (the switch that
// measures what it saves), a CompileAhead for that architecture in the machine's temporary folder, with half the
// cores left beside one per GPU (sched_getaffinity: what Slurm gave; 1 to 4 processes), a few files ahead; says so on
// `out`. Else nullptr: each check compiles its own file, as it always could.
std::unique_ptr<CompileAhead> compile_ahead_for_grade(const std::string& exe, std::vector<std::string> files,
                                                      const std::vector<int>& gpus, std::ostream& out);

}  // namespace rs::cmd
