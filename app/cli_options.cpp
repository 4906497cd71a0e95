// Each option of the command line once (the option table, cli_table.hpp): whether it takes a value, and
// how that value is checked and stored in Options, with the one-line UsageError a bad value gets. Also
// the value parsers the checks after the loop share (tracks, kernel names) and parse_count (cli.hpp).
#include "cli_table.hpp"
#include "i18n.hpp"
#include "multigpu.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace rs {

namespace {

constexpr uint64_t kMaxN = 1ull << 31;

template <class T>
bool parse_uint(const std::string& s, T& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

unsigned parse_block_size(const std::string& v) {
  unsigned b = 0;
  if (!parse_uint(v, b)) throw UsageError("--block-size: '" + v + "' is not a number (use 32, 64, ..., 1024)");
  if (auto why = block_size_problem(b)) throw UsageError("--block-size: " + why->say());
  return b;
}

std::vector<DType> parse_types(const std::string& v) {
  if (v == "int32") return {DType::Int32};
  if (v == "float32") return {DType::Float32};
  if (v == "all") return {DType::Int32, DType::Float32};
  throw UsageError("--type: '" + v + "' is not one of int32, float32, all");
}

std::string histogram_kernel_names() {
  return cli::kernel_names([](const KernelInfo& k) { return k.op == ReduceOp::Histogram; });
}

KernelId parse_kernel(const std::string& v) {
  const KernelInfo* k = find_kernel(v);
  if (!k) throw UsageError("--kernel: unknown kernel '" + v + "' (kernels: " + cli::kernel_names() + ")");
  return k->id;
}

}  // namespace

uint64_t parse_count(const std::string& s, const std::string& option) {
  uint64_t n = 0;
  if (s.size() > 2 && s.rfind("2^", 0) == 0) {
    unsigned e = 0;
    if (!parse_uint(s.substr(2), e) || e > 31) throw UsageError(option + ": '" + s + "' must be 2^0 .. 2^31");
    n = 1ull << e;
  } else if (!parse_uint(s, n)) {
    throw UsageError(option + ": '" + s + "' is not a count (write e.g. 16777216 or 2^24)");
  }
  if (n == 0) throw UsageError(option + ": N must be at least 1");
  if (n > kMaxN) throw UsageError(option + ": N = " + s + " is more than 2^31 elements (8 GiB)");
  return n;
}

uint64_t parse_bytes(const std::string& s, const std::string& option) {
  struct Unit {
    const char* suffix;
    uint64_t scale;
  };
  static const Unit units[] = {{"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}, {"G", 1ull << 30},
                               {"M", 1ull << 20},   {"K", 1ull << 10},   {"B", 1}};
  std::string num = s;
  uint64_t scale = 1;
  for (const Unit& u : units) {
    const std::string suf = u.suffix;
    if (num.size() > suf.size() && num.compare(num.size() - suf.size(), suf.size(), suf) == 0) {
      num.resize(num.size() - suf.size());
      scale = u.scale;
      break;
    }
  }
  uint64_t v = 0;
  if (num.rfind("2^", 0) == 0) {
    unsigned e = 0;
    if (!parse_uint(num.substr(2), e) || e > 40) throw UsageError(option + ": '" + s + "' must be 2^0 .. 2^40");
    v = uint64_t{1} << e;
  } else if (!parse_uint(num, v)) {
    throw UsageError(option + ": '" + s + "' is not a size (bytes: 4096, 4KiB, 256MiB, 1GiB, 2^20)");
  }
  if (v == 0 || v > (uint64_t{1} << 40) / scale) throw UsageError(option + ": '" + s + "' is out of range");
  return v * scale;
}

namespace cli {

std::string kernel_names() {
  return kernel_names([](const KernelInfo&) { return true; });
}

std::vector<std::string> parse_tracks(const std::string& v) {
  std::vector<std::string> t;
  if (v == kMultiGpuTrack) return {v};  // no kernels of its own: bench and record measure it (multigpu.hpp)
  if (v == "all") {  // every track but the pitfalls, which are wrong code: asked for by name only
    for (const auto& tr : track_table()) {
      if (std::string(tr.id) != kPitfallsTrack) t.push_back(tr.id);
    }
    return t;
  }
  if (!find_track(v)) {
    throw UsageError("--track: unknown track '" + v + "' (tracks: " + track_names() + ", " + kMultiGpuTrack + ", all)");
  }
  t.push_back(v);
  return t;
}

namespace {

// A switch: sets one bool of Options.
template <bool Options::*Field>
void set_switch(Parsing& p, const std::string&) {
  p.o.*Field = true;
}

void apply_kernel(Parsing& p, const std::string& v) {
  Options& o = p.o;
  if (o.command == Command::Histogram) {  // a histogram kernel, or all of them
    o.histo_kernels.clear();
    if (v != "all") {
      const KernelId k = parse_kernel(v);
      if (kernel_info(k).op != ReduceOp::Histogram) {
        throw UsageError("--kernel: " + v + " is a reduction, not a histogram (" + histogram_kernel_names() + ")");
      }
      o.histo_kernels.push_back(k);
    }
    return;
  }
  // A library's kernel (CUB's, traced as compiled): record --add --binary and the window only.
  if (o.command == Command::Record || o.command == Command::Gui) {
    if (find_library_kernel(v) || (v == "cub" && o.command == Command::Record)) {
      o.kernels.clear();
      o.library = v;
      return;
    }
  }
  o.kernels.clear();
  if (v == "all" && o.command == Command::Bench) {
    p.have_kernel = false;  // every kernel of the selected tracks
  } else {
    o.kernels.push_back(parse_kernel(v));
    p.have_kernel = true;
    o.have_kernel = true;
  }
}

void apply_block_size(Parsing& p, const std::string& v) {
  Options& o = p.o;
  const Command cmd = o.command;
  o.block_sizes.clear();
  if (v == "all" && (cmd == Command::Bench || cmd == Command::Export || cmd == Command::Pitfalls || cmd == Command::Record)) {
    o.block_sizes.assign(kBlockSizes.begin(), kBlockSizes.end());
    o.block_sizes_all = true;
  } else if (cmd == Command::Export || cmd == Command::Pitfalls || cmd == Command::Bench || cmd == Command::Record ||
             cmd == Command::Run) {
    // export --html, pitfalls, bench, record and run take a list: 128,256
    for (size_t at = 0; at <= v.size();) {
      const size_t comma = std::min(v.find(',', at), v.size());
      o.block_sizes.push_back(parse_block_size(v.substr(at, comma - at)));
      at = comma + 1;
    }
  } else {
    o.block_sizes.push_back(parse_block_size(v));
  }
  o.have_block_size = true;
}

}  // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = {
      {"--kernel", true, apply_kernel},
      {"--track", true,
       [](Parsing& p, const std::string& v) {
         p.o.tracks = parse_tracks(v);
         p.o.have_track = true;
       }},
      {"--type", true,
       [](Parsing& p, const std::string& v) {
         p.o.dtypes = parse_types(v);
         p.o.have_type = true;
       }},
      {"--block-size", true, apply_block_size},
      {"--n", true,
       [](Parsing& p, const std::string& v) {
         p.o.n = parse_count(v, "--n");
         p.o.have_n = true;
       }},
      {"--samples", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.samples) || p.o.samples < 20 || p.o.samples > 100000) {
           throw UsageError("--samples: '" + v + "' must be a number from 20 to 100000 (the median needs at least 20)");
         }
       }},
      {"--pattern", true,
       [](Parsing& p, const std::string& v) {
         auto pattern = parse_pattern(v);
         if (!pattern) throw UsageError("--pattern: '" + v + "' is not one of ones, random, iota");
         p.o.pattern = *pattern;
         p.o.have_pattern = true;
       }},
      {"--csv", true, [](Parsing& p, const std::string& v) { p.o.csv = v; }},
      {"--out", true, [](Parsing& p, const std::string& v) { p.o.out = v; }},
      {"--block", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.traced_block)) throw UsageError("--block: '" + v + "' is not a block index");
       }},
      {"--steps", false, set_switch<&Options::steps>},
      {"--class-mode", false, set_switch<&Options::class_mode>},
      {"--session", true, [](Parsing& p, const std::string& v) { p.o.session = v; }},  // read by the command
      {"--lesson", true, [](Parsing& p, const std::string& v) { p.o.lesson = v; }},  // read by the command
      {"--add", false, set_switch<&Options::add>},
      {"--quiet", false, set_switch<&Options::quiet>},
      {"--sweep", false, set_switch<&Options::sweep>},
      {"--html", true, [](Parsing& p, const std::string& v) { p.o.html = v; }},
      {"--from", true, [](Parsing& p, const std::string& v) { p.o.from = v; }},  // new: checked by the command
      {"--kernel-file", true, [](Parsing& p, const std::string& v) { p.o.kernel_file = v; }},  // read by the command
      {"--compiled", true, [](Parsing& p, const std::string& v) { p.o.compiled = v; }},  // read by the command
      {"--save-compiled", true, [](Parsing& p, const std::string& v) { p.o.save_compiled = v; }},
      {"--cc", true,
       [](Parsing& p, const std::string& v) {
         unsigned cc = 0;
         if (!parse_uint(v, cc) || cc < 50 || cc > 199) {
           throw UsageError("--cc: '" + v + "' is not a compute capability (written as 75, 80, 90, 100, 120)");
         }
         p.o.cc = static_cast<int>(cc);
       }},
      {"--kernel-timeout", true,
       [](Parsing& p, const std::string& v) {
         unsigned s = 0;
         if (!parse_uint(v, s) || s < 1 || s > 3600) {
           throw UsageError("--kernel-timeout: '" + v + "' must be 1 to 3600 seconds");
         }
         p.o.kernel_timeout_s = s;
       }},
      {"--exercise", true, [](Parsing& p, const std::string& v) { p.o.exercise = v; }},  // checked by the command
      {"--json", false, set_switch<&Options::json>},
      {"--compile-only", false, set_switch<&Options::compile_only>},
      {"--serve", true, [](Parsing& p, const std::string& v) { p.o.serve_url = v; }},
      {"--from-server", true, [](Parsing& p, const std::string& v) { p.o.from_server = v; }},
      {"--listen", true, [](Parsing& p, const std::string& v) { p.o.listen = v; }},
      {"--roster", true, [](Parsing& p, const std::string& v) { p.o.roster = v; }},
      {"--checker", true, [](Parsing& p, const std::string& v) { p.o.checker = v; }},
      {"--run-limit", true,
       [](Parsing& p, const std::string& v) {
         unsigned s = 0;
         if (!parse_uint(v, s) || s < 1 || s > 3600) throw UsageError("--run-limit: '" + v + "' must be 1 to 3600 seconds");
         p.o.run_limit_s = s;
       }},
      {"--data", true, [](Parsing& p, const std::string& v) { p.o.out = v; }},
      {"--port", true,
       [](Parsing& p, const std::string& v) {
         unsigned port = 0;
         if (!parse_uint(v, port) || port > 65535) throw UsageError("--port: '" + v + "' is not a port (0 to 65535)");
         p.o.port = static_cast<int>(port);
       }},
      {"--merge", true, [](Parsing& p, const std::string& v) { p.o.merge = v; }},
      {"--slurm", false, set_switch<&Options::slurm>},
      {"--hide-names", false, set_switch<&Options::hide_names>},
      {"--shard", true, [](Parsing& p, const std::string& v) { p.o.shard = v; }},  // checked by the command
      {"--shards", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.shards) || p.o.shards < 1 || p.o.shards > 10000) {
           throw UsageError("--shards: '" + v + "' must be 1 to 10000");
         }
       }},
      {"--partition", true, [](Parsing& p, const std::string& v) { p.o.partition = v; }},
      {"--binary", false, set_switch<&Options::binary>},
      {"--two-runs", false, set_switch<&Options::two_runs>},
      {"--cub", true,
       [](Parsing& p, const std::string& v) {
         if (v != "reduce" && v != "histogram") {
           throw UsageError("--cub: '" + v + "' is not one of reduce (cub::DeviceReduce::Sum), histogram "
                            "(cub::DeviceHistogram over the course's text)");
         }
         p.o.cub = v;
       }},
      {"--list", false, set_switch<&Options::list>},
      {"--wrapped", false, set_switch<&Options::wrapped>},
      {"--gpus", true,
       [](Parsing& p, const std::string& v) {
         if (p.o.command == Command::Grade || p.o.command == Command::Serve) {  // all, or a list: checked by the command
           p.o.gpu_list = v;
           return;
         }
         if (!parse_uint(v, p.o.gpus) || p.o.gpus < 2 || p.o.gpus > 64) {
           throw UsageError("--gpus: '" + v + "' must be a number from 2 to 64 (the multigpu track needs at least 2)");
         }
       }},
      {"--sizes", true,
       [](Parsing& p, const std::string& v) {
         p.o.mg_sizes.clear();
         size_t pos = 0;
         while (pos <= v.size()) {
           const size_t comma = v.find(',', pos);
           const std::string one = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
           const uint64_t b = parse_bytes(one, "--sizes");
           if (b % 4) throw UsageError("--sizes: " + one + " is not a whole number of float32 elements (a multiple of 4 bytes)");
           if (b > (uint64_t{8} << 30)) throw UsageError("--sizes: " + one + " is above 8 GiB");
           p.o.mg_sizes.push_back(b);
           if (comma == std::string::npos) break;
           pos = comma + 1;
         }
       }},
      {"--timeout", true,
       [](Parsing& p, const std::string& v) {
         unsigned s = 0;
         if (!parse_uint(v, s) || s < 1 || s > 3600) throw UsageError("--timeout: '" + v + "' must be 1 to 3600 seconds");
         p.o.timeout_s = s;
       }},
      {"--runs", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.runs) || p.o.runs < 1 || p.o.runs > 100000) {
           throw UsageError("--runs: '" + v + "' must be a number from 1 to 100000");
         }
         p.o.have_runs = true;
       }},
      {"--input", true,
       [](Parsing& p, const std::string& v) {
         Options& o = p.o;
         o.histo_inputs.clear();
         if (v == "all") {
           o.histo_inputs = {HistoInput::Text, HistoInput::Uniform, HistoInput::Skewed};
         } else if (auto in = parse_histo_input(v)) {
           o.histo_inputs.push_back(*in);
         } else {
           throw UsageError("--input: '" + v + "' is not one of text, uniform, skewed, all");
         }
       }},
      // The window's:
      {"--screenshot", true, [](Parsing& p, const std::string& v) { p.o.screenshot = v; }},
      {"--step", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.step)) throw UsageError("--step: '" + v + "' is not a step number");
       }},
      {"--frames", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.frames) || p.o.frames < 1) throw UsageError("--frames: '" + v + "' must be at least 1");
       }},
      {"--compare", true,
       [](Parsing& p, const std::string& v) {
         if (find_library_kernel(v)) {  // a library kernel (its names have colons): the session's trace of it
           p.o.compare_library = v;
           p.o.compare = true;
           return;
         }
         // K:B, where K may be a library kernel (cub::DeviceReduceKernel:256)
         const size_t colon = v.rfind(':');
         const bool sized = colon != std::string::npos && colon > 0 && colon + 1 < v.size() && v[colon - 1] != ':';
         if (sized && find_library_kernel(v.substr(0, colon))) {
           p.o.compare_library = v.substr(0, colon);
           p.o.compare_block_size = parse_block_size(v.substr(colon + 1));
           p.o.compare = true;
           return;
         }
         p.o.compare_kernel = parse_kernel(sized ? v.substr(0, colon) : v);
         if (sized) p.o.compare_block_size = parse_block_size(v.substr(colon + 1));
         if (colon != std::string::npos) p.o.compare_block_size = parse_block_size(v.substr(colon + 1));
         p.o.compare = true;
       }},
      {"--view", true,
       [](Parsing& p, const std::string& v) {
         p.o.view = v == "table" ? 0 : v == "live" ? 1 : v == "blocksize" ? 2 : v == "sweep" ? 3 : v == "bits" ? 4
                  : v == "multigpu" ? 5 : -2;
         if (p.o.view < 0) {
           throw UsageError("--view: '" + v + "' is not one of table, live, blocksize, sweep, bits, multigpu");
         }
       }},
      {"--scale", true,
       [](Parsing& p, const std::string& v) {
         char* end = nullptr;
         p.o.ui_scale = std::strtof(v.c_str(), &end);
         if (end == v.c_str() || *end || !(p.o.ui_scale >= 0.75f && p.o.ui_scale <= 3.0f)) {
           throw UsageError("--scale: '" + v + "' must be a number from 0.75 to 3");
         }
       }},
      {"--high-contrast", false, set_switch<&Options::high_contrast>},
      {"--lang", true,
       [](Parsing& p, const std::string& v) {
         const auto l = i18n::parse_lang(v);
         if (!l) throw UsageError("--lang: '" + v + "' is not one of zh, en");
         p.o.lang = i18n::lang_code(*l);
       }},
      {"--help-overlay", false, set_switch<&Options::help_overlay>},
      {"--play", false, set_switch<&Options::play>},
      {"--stats", false, set_switch<&Options::stats>},
      {"--headless", false, set_switch<&Options::headless>},
      {"--reload-bench", true,
       [](Parsing& p, const std::string& v) {
         if (!parse_uint(v, p.o.reload_saves) || p.o.reload_saves < 1 || p.o.reload_saves > 1000) {
           throw UsageError("--reload-bench: '" + v + "' must be 1 to 1000 saves");
         }
       }},
      {"--large-charts", false, set_switch<&Options::large_charts>},
      {"--export-dir", true, [](Parsing& p, const std::string& v) { p.o.export_dir = v; }},
  };
  return table;
}

const OptionSpec* find_option(const std::string& flag) {
  for (const OptionSpec& s : option_table()) {
    if (flag == s.flag) return &s;
  }
  return nullptr;
}

}  // namespace cli

}  // namespace rs
