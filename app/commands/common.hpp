// The helpers the command files (app/commands/*.cpp) share, in rs::cmd so that they stay out of the
// rest of the program: number formatting, the device line every GPU command prints, `guarded` (what a
// command throws becomes its one-line message and exit code), reading a text file, uploading a typed
// input with its CPU reference, the element type `trace` and `run` use and their loop over kernels,
// and finding and running other programs (ncu, compute-sanitizer).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

#include "cli.hpp"
#include "gpu_reduce.hpp"
#include "input.hpp"
#include "markup.hpp"
#include "user_kernel.hpp"

namespace rs::cmd {

// A number as printf's format `f` writes it: markup.hpp's number_text.
inline std::string fmt(const char* f, double v) { return number_text(f, v); }

std::string device_line(const DeviceInfo& d);

// Runs a command body, turning what it throws into the one-line message and exit code the CLI
// promises: a request the GPU code cannot take (std::invalid_argument) is a usage error (2),
// anything else (no GPU, CUDA error, bad file) a runtime error (1).
template <class Body>
int guarded(const char* command, std::ostream& err, Body body) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {
    err << "reducescope " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "reducescope " << command << ": " << e.what() << "\n";
    return kExitRuntime;
  }
}

// The whole of a text file. Throws std::runtime_error naming it if it cannot be read.
std::string read_text_file(const std::string& path);

// Uploads the input of type `t` and returns its reference; with `cpu_us`, also times the CPU loop
// over it (time_cpu_sum_us).
CpuReference prepare_typed_input(GpuReducer& gpu, const Options& o, DType t, double* cpu_us = nullptr);

std::string value_str(int32_t bits, DType t);

// The element type trace and run use for kernel `k`: the first of --type it takes, else int32
// when it takes it, else float32. nullopt: --type names no type the kernel takes.
std::optional<DType> type_for(const Options& o, KernelId k);

// Calls body(kernel, type, reference) for each kernel of `o` at o.block_sizes[0]: a kernel that
// cannot take the block size is skipped with a line saying why (a single, explicit kernel was
// refused by the parser already); the input is uploaded again only when the element type changes.
// True if every body returned true.
template <class Body>
bool for_each_kernel(GpuReducer& gpu, const Options& o, std::ostream& out, Body body) {
  bool ok = true;
  std::optional<DType> uploaded;
  CpuReference ref;
  for (KernelId k : o.kernels) {
    if (auto why = block_size_problem(k, o.block_sizes[0])) {
      out << kernel_info(k).name << ": skipped: " << why->say() << "\n";
      continue;
    }
    const std::optional<DType> type = type_for(o, k);
    if (!type) continue;
    if (uploaded != type) {
      ref = prepare_typed_input(gpu, o, *type);
      uploaded = type;
    }
    ok = body(k, *type, ref) && ok;
  }
  return ok;
}

// `name` on the PATH, or "" if it is not there.
std::string find_on_path(const std::string& name);

// compute-sanitizer: on the PATH, else /usr/local/cuda/bin/compute-sanitizer; "" where neither is.
std::string sanitizer_program();

// The CPU cores this process may run on (sched_getaffinity: what Slurm's --cpus-per-task or taskset left it), at
// least 1; std::thread::hardware_concurrency() counts every core of the machine. For how many processes to start at
// once (check's traces, grade's compiling ahead).
unsigned usable_cores();

// A user's kernel file (--kernel-file, check; app/commands/kernel_file.cpp): read and compiled with NVRTC for
// compute_<cc> (0: compute_75, no GPU needed). Prints its diagnostics to `err`; nullopt, with `exit_code` set
// (2: it does not compile or cannot be read; 1: this build has no NVRTC), when there is no kernel.
std::optional<UserKernel> compile_kernel_file(const std::string& path, int cc, const char* command, std::ostream& err,
                                              int& exit_code);
// `--compiled FILE` (save_user_kernel): the kernel another process compiled. Throws std::runtime_error for a file
// that is not one, std::invalid_argument when it was compiled for another GPU than compute_<cc> (cc > 0).
std::optional<UserKernel> load_compiled(const std::string& path, int cc);

// Runs a command line and returns what it printed (stdout and stderr) and its exit status.
std::pair<std::string, int> capture(const std::string& command);

}  // namespace rs::cmd
