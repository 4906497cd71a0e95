// The shared helpers of the command files (common.hpp): formatting, the device line, reading a text
// file, typed inputs with their CPU reference and the CPU loop's time, the element type of `trace` and
// `run`, and finding and running other programs.
#include "common.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <unistd.h>
#include <thread>
#ifdef __linux__
#include <sched.h>
#endif
#include <vector>

namespace rs::cmd {

std::string device_line(const DeviceInfo& d) {
  char b[256];
  std::snprintf(b, sizeof b, "%s (compute capability %d.%d, %d SMs, %.0f MiB L2), CUDA runtime %s", d.name.c_str(),
                d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / 1048576.0, d.cuda_runtime.c_str());
  return b;
}

// The whole of a text file. Throws std::runtime_error naming it if it cannot be read.
std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read");
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

// The CPU loop the sources start from (sum_host, "cpu reduce"): one sequential loop in the element
// type over `data`, median of 5 runs, in microseconds.
template <class E>
double time_cpu_sum_us(const std::vector<E>& data) {
  std::vector<double> us;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    volatile E sink = 0;
    if constexpr (std::is_same_v<E, float>) {
      float sum = 0;
      for (float x : data) sum += x;
      sink = sum;
    } else {
      sink = cpu_reduce(data);
    }
    (void)sink;
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// Uploads the input of type `t` and returns its reference; with `cpu_us`, also times the CPU loop
// over it (time_cpu_sum_us).
CpuReference prepare_typed_input(GpuReducer& gpu, const Options& o, DType t, double* cpu_us) {
  CpuReference r;
  if (t == DType::Float32) {
    std::vector<float> input = make_input_f32(o.pattern, o.n);
    r = cpu_reference(input);
    if (cpu_us) *cpu_us = time_cpu_sum_us(input);
    gpu.set_input(input, o.pattern);
  } else {
    std::vector<int32_t> input = make_input(o.pattern, o.n);
    r = cpu_reference(input);
    if (cpu_us) *cpu_us = time_cpu_sum_us(input);
    gpu.set_input(input, o.pattern);
  }
  return r;
}

std::string value_str(int32_t bits, DType t) { return format_value(static_cast<uint32_t>(bits), t); }

std::optional<DType> type_for(const Options& o, KernelId k) {
  if (!o.dtypes.empty()) {
    for (DType t : o.dtypes) {
      if (kernel_info(k).takes(t)) return t;
    }
    return std::nullopt;
  }
  return kernel_info(k).takes(DType::Int32) ? DType::Int32 : DType::Float32;
}

// `name` on the PATH, or "" if it is not there.
unsigned usable_cores() {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!dir.empty()) {
      const std::string candidate = dir + "/" + name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "";
}

std::string sanitizer_program() {
  std::string p = find_on_path("compute-sanitizer");
  if (p.empty() && access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0) p = "/usr/local/cuda/bin/compute-sanitizer";
  return p;
}

// Runs a command line and returns what it printed (stdout and stderr) and its exit status.
std::pair<std::string, int> capture(const std::string& command) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + command);
  std::string text;
  char buf[4096];
  size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, got);
  const int status = pclose(p);
  return {text, status};
}

}  // namespace rs::cmd
