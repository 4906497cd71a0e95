#include "cli.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace rs {

namespace {

constexpr uint64_t kMaxN = 1ull << 31;

// Comma-separated names of the kernels `keep` accepts (every kernel by default), for messages.
template <class Keep>
std::string kernel_names(Keep keep) {
  std::string s;
  for (const auto& k : kernel_table()) {
    if (keep(k)) s += (s.empty() ? "" : ", ") + std::string(k.name);
  }
  return s;
}
std::string kernel_names() {
  return kernel_names([](const KernelInfo&) { return true; });
}

template <class T>
bool parse_uint(const std::string& s, T& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

unsigned parse_block_size(const std::string& v) {
  unsigned b = 0;
  if (!parse_uint(v, b)) throw UsageError("--block-size: '" + v + "' is not a number (use 32, 64, ..., 1024)");
  if (auto why = block_size_problem(b)) throw UsageError("--block-size: " + *why);
  return b;
}

// The track of wrong code on purpose (kernels/pitfall_kernels.cuh).
constexpr const char* kPitfallsTrack = "pitfalls";

std::vector<std::string> parse_tracks(const std::string& v) {
  std::vector<std::string> t;
  if (v == "all") {  // every track but the pitfalls, which are wrong code: asked for by name only
    for (const auto& tr : track_table()) {
      if (std::string(tr.id) != kPitfallsTrack) t.push_back(tr.id);
    }
    return t;
  }
  if (!find_track(v)) throw UsageError("--track: unknown track '" + v + "' (tracks: " + track_names() + ", all)");
  t.push_back(v);
  return t;
}

std::vector<DType> parse_types(const std::string& v) {
  if (v == "int32") return {DType::Int32};
  if (v == "float32") return {DType::Float32};
  if (v == "all") return {DType::Int32, DType::Float32};
  throw UsageError("--type: '" + v + "' is not one of int32, float32, all");
}

std::string histogram_kernel_names() {
  return kernel_names([](const KernelInfo& k) { return k.op == ReduceOp::Histogram; });
}

KernelId parse_kernel(const std::string& v) {
  const KernelInfo* k = find_kernel(v);
  if (!k) throw UsageError("--kernel: unknown kernel '" + v + "' (kernels: " + kernel_names() + ")");
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

std::string help_text(const std::string& topic) {
  if (topic == "bench") {
    return "usage: reducescope bench [--track T|all] [--kernel NAME|all] [--type int32|float32|all] [--n N]\n"
           "                         [--block-size B|all] [--samples S] [--pattern ones|random|iota] [--csv FILE]\n"
           "Times each kernel on the GPU and prints one table per track (and element type) in the shape of\n"
           "Harris's slide: time (ms), launches, effective bandwidth (GB/s), % of the device's theoretical\n"
           "peak, step and cumulative speedup, and whether the result matches the CPU reference (int32:\n"
           "exact, with wrap-around; float32: within the stated tolerance of a double-precision sum). Tracks\n"
           "with timings in their source (lecture) also show the source's time and its ratio, and the CPU\n"
           "loop the source starts from, timed here. Float rows say whether repeated runs gave the same bits.\n"
           "Defaults: every track, every type its kernels take, each track's own block size (harris 256,\n"
           "lecture 1024), --n 16777216 --samples 30 --pattern random. N may be written 2^24. Method: 3\n"
           "warm-ups, then per sample an L2 flush and CUDA events around the whole reduction (every launch);\n"
           "median, min, max. cub::DeviceReduce::Sum and a device-to-device copy are timed the same way.\n"
           "Tracks: " + track_names() + " (`all` leaves out the pitfalls, wrong code on purpose: ask for\n"
           "--track pitfalls by name, or run `reducescope pitfalls`).\n"
           "Exit: 0 all results correct, 1 a runtime error or a wrong result, 2 a usage error.\n";
  }
  if (topic == "trace") {
    return "usage: reducescope trace [--track T] --kernel NAME --block-size B [--type int32|float32] [--n N]\n"
           "                         [--pattern P] [--block K] [--out FILE] [--quiet]\n"
           "Runs the tracing build of a kernel, records block K (default 0) of its first launch, prints\n"
           "each step (barrier epoch): active warps, active masks, divergence, every warp-level\n"
           "shared-memory access with its source line and n-way bank conflict, warp shuffles (lane -> lane),\n"
           "atomics (contention per address) and global requests (32-byte sectors). --out saves the trace\n"
           "(.rstrace) for `reducescope show` and the window. Default --n 16777216. --track T without\n"
           "--kernel traces each kernel of the track (summaries only with --quiet).\n";
  }
  if (topic == "run") {
    return "usage: reducescope run [--track T] --kernel NAME --block-size B [--type int32|float32] [--n N] [--pattern P]\n"
           "Runs the timing build of one kernel once (every launch down to one value) and prints the sum\n"
           "and whether it matches the CPU reference; --track T without --kernel runs each kernel of the\n"
           "track that takes the block size. Meant for profilers and sanitizers, e.g.\n"
           "  ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum reducescope run \\\n"
           "      --kernel reduce1 --block-size 256 --n 256\n"
           "  compute-sanitizer --tool racecheck reducescope run --kernel reduce5 --block-size 128 --n 100003\n";
  }
  if (topic == "show") {
    return "usage: reducescope show FILE [--steps]\n"
           "Validates a saved trace (.rstrace) or session (.rssession) and summarises it. A trace: what\n"
           "ran where, steps, active warps and bank conflicts; --steps also prints every step as `trace`\n"
           "does. A session: the GPU and date it was recorded on, its timing table and its traces.\n"
           "Exit 1 with a message if the file is not valid.\n";
  }
  if (topic == "record") {
    return "usage: reducescope record --out FILE [--track T|all] [--n N] [--pattern P] [--samples S]\n"
           "Runs every kernel of the tracks (default all) at every block size it accepts on the GPU, on\n"
           "int32 input (float32-only kernels on float32): times each as `bench` does and\n"
           "traces block 0 of each, and saves it all, with the GPU's name and the date, in one session\n"
           "file (.rssession). The window and `export` open it on machines without a GPU.\n"
           "Defaults: --n 16777216 --pattern random --samples 30.\n";
  }
  if (topic == "profile") {
    return "usage: reducescope profile SESSION [--track book] [--block-size B] [--n N]\n"
           "Measures, with Nsight Compute, the metrics the book reads with nvprof (inst_per_warp,\n"
           "gld_efficiency, gld_throughput, dram_read_throughput, stall_sync, achieved_occupancy) for every\n"
           "book kernel at B threads (default 512) over N elements (default 2^24; the first launch), and\n"
           "writes them into SESSION, so the window shows them beside the timings, also without a GPU.\n"
           "Needs a CUDA GPU and `ncu` on the PATH; without ncu it says so and exits 1.\n";
  }
  if (topic == "pitfalls") {
    return "usage: reducescope pitfalls [--kernel NAME] [--runs R] [--n N] [--block-size B] [--pattern P] [--out SESSION]\n"
           "Runs each kernel of the pitfalls track (WRONG CODE on purpose: the notes' bugs put back into\n"
           "correct kernels) R times (default 100) on the GPU, and prints how many runs gave a wrong sum,\n"
           "how many different sums they gave, and what is wrong with the code. Defaults: --n 16777216,\n"
           "--block-size 256, --pattern random. Kernels that would hang the GPU are not runnable at all\n"
           "(docs/tracks.md). --out SESSION writes the results into the session (with compute-sanitizer's\n"
           "racecheck hazards where it is on the PATH), so the window shows them without a GPU.\n"
           "Exit: 0 when every kernel ran (wrong sums are the point), 1 a runtime error.\n";
  }
  if (topic == "sweep") {
    return "usage: reducescope sweep BENCH.csv [BENCH.csv ...] --out SESSION\n"
           "Stores the bandwidth-against-N sweep into SESSION, so the window's \"vs N\" tab and `export`\n"
           "show it without a GPU: from `reducescope bench --csv` output at several N (one file per N, or\n"
           "concatenated), each track's fastest correct int32 kernel over every block size, CUB and the\n"
           "device-to-device copy at each N. The rows must come from the session's GPU. The rows at the\n"
           "session's own N and pattern also give the launch count of each timing that has none (sessions\n"
           "recorded before 0.2). Exit: 0 stored, 1 a runtime error (unreadable or foreign rows).\n";
  }
  if (topic == "histogram") {
    return "usage: reducescope histogram [--input text|uniform|skewed|all] [--kernel NAME|all] [--n BYTES]\n"
           "                             [--block-size B] [--samples S] [--csv FILE] [--out FILE.rstrace [--block K]]\n"
           "The course track's histograms (seeds/004): histo_sectioned (one section per thread),\n"
           "histo_basic (interleaved, global atomics) and histo_private (a shared histogram per block),\n"
           "timed against cub::DeviceHistogram over the same bytes, as `bench` times (3 warm-ups, L2\n"
           "flushed, CUDA events, median of S samples; zeroing the bins is timed too). Inputs: text (a\n"
           "real English text, repeated; the note's 7 bins of 4 letters), uniform (random bytes, 256 bins),\n"
           "skewed (90% of the bytes in one bin, 256 bins). Every result is checked bin by bin against the\n"
           "CPU. Defaults: every input and kernel, --n 2^26 bytes, --block-size 256, --samples 30.\n"
           "--out saves a trace of one kernel on one input (block K, default 0) for `show` and the window.\n"
           "Exit: 0 all histograms correct, 1 a runtime error or a wrong bin, 2 a usage error.\n";
  }
  if (topic == "export") {
    return "usage: reducescope export SESSION --out DIR [--block-size B]\n"
           "       reducescope export SESSION --html FILE.html [--block-size B[,B...]|all]\n"
           "       reducescope export --sweep BENCH.csv --out DIR\n"
           "Writes the session's timing charts into DIR as PNG, SVG and PDF, with the numbers behind\n"
           "each as CSV: time and bandwidth per kernel (at B, or at every block size), time and\n"
           "bandwidth against block size, and Harris's table. Each chart names the GPU, N, the block\n"
           "size and the timing method. --sweep draws sweep_bandwidth (PNG, SVG, PDF, CSV) from\n"
           "`reducescope bench --csv` output at several N (files concatenated): each track's fastest\n"
           "correct kernel, CUB and the copy against N, with the theoretical peak.\n"
           "--html writes one self-contained web page (no install, no network: any current browser)\n"
           "that replays the session's traces step by step, with its timing table, GPU and date. It\n"
           "holds the traces at the given block sizes, or by default each track's own block size and as\n"
           "many others as fit 3 MB; the page says which it holds.\n";
  }
  return "ReduceScope: see what CUDA parallel reduction does on the GPU, track by track (Harris's\n"
         "reduce0..reduce6; the lecture's atomics, shuffle and two-step kernels).\n"
         "\n"
         "usage: reducescope [FILE.rssession|FILE.rstrace] [--kernel NAME] [--block-size B] [--n N] [--pattern P]\n"
         "       reducescope bench [--track T|all] [--kernel NAME|all] [--type int32|float32|all] [--n N]\n"
         "                         [--block-size B|all] [--samples S] [--csv FILE]\n"
         "       reducescope trace [--track T] --kernel NAME --block-size B [--type T] [--n N] [--out FILE]\n"
         "       reducescope show FILE [--steps]\n"
         "       reducescope run [--track T] --kernel NAME --block-size B [--type T] [--n N]\n"
         "       reducescope record --out FILE.rssession [--track T|all] [--n N] [--samples S]\n"
         "       reducescope export SESSION --out DIR [--block-size B]\n"
         "       reducescope export SESSION --html FILE.html [--block-size B[,B...]|all]\n"
         "       reducescope profile SESSION [--track book] [--block-size B] [--n N]\n"
         "       reducescope histogram [--input text|uniform|skewed|all] [--kernel NAME|all] [--n BYTES]\n"
         "       reducescope pitfalls [--runs R] [--n N] [--block-size B]\n"
         "       reducescope sweep BENCH.csv [BENCH.csv ...] --out SESSION\n"
         "       reducescope COMMAND --help | --version\n"
         "\n"
         "With no command, opens the window: kernel list, block size, step-by-step replay of one\n"
         "thread block (shared memory, warps x lanes, bank conflicts) and the timings measured so far.\n"
         "Tracks: " + track_names() + ". Kernels: " +
         kernel_names() +
         ". Block sizes: 32, 64, 128, 256, 512, 1024.\n"
         "Window options: --compare K[:B] (side B: kernel K at B threads), --view table|live|blocksize|sweep,\n"
         "  --scale F, --high-contrast, --large-charts, --play, --help-overlay, --export-dir DIR (File > Export's folder).\n"
         "Window automation: --screenshot FILE.png [--step S] [--frames F] [--stats].\n"
         "Without a GPU the window replays the session recorded on an H100 that ships in assets/sessions.\n"
         "Exit codes: 0 success, 1 runtime error, 2 usage error.\n";
}

Options parse_cli(const std::vector<std::string>& args) {
  Options o;
  size_t i = 0;
  if (!args.empty()) {
    const std::string& c = args[0];
    if (c == "bench") o.command = Command::Bench, i = 1;
    else if (c == "trace") o.command = Command::Trace, i = 1;
    else if (c == "show") o.command = Command::Show, i = 1;
    else if (c == "run") o.command = Command::Run, i = 1;
    else if (c == "record") o.command = Command::Record, i = 1;
    else if (c == "export") o.command = Command::Export, i = 1;
    else if (c == "profile") o.command = Command::Profile, i = 1;
    else if (c == "histogram") o.command = Command::Histogram, i = 1;
    else if (c == "pitfalls") o.command = Command::Pitfalls, i = 1;
    else if (c == "sweep") o.command = Command::Sweep, i = 1;
    else if (c == "help") {
      o.command = Command::Help;
      o.help_topic = args.size() > 1 ? args[1] : "";
      return o;
    }
  }
  const Command cmd = o.command;
  auto topic = [&] {
    return cmd == Command::Bench   ? "bench"
           : cmd == Command::Trace ? "trace"
           : cmd == Command::Show  ? "show"
           : cmd == Command::Run    ? "run"
           : cmd == Command::Record ? "record"
           : cmd == Command::Export ? "export"
           : cmd == Command::Profile ? "profile"
           : cmd == Command::Histogram ? "histogram"
           : cmd == Command::Pitfalls ? "pitfalls"
           : cmd == Command::Sweep ? "sweep"
                                    : "";
  };
  // --help anywhere wins, so `reducescope bench --n x --help` still helps.
  for (size_t j = i; j < args.size(); ++j) {
    if (args[j] == "--help" || args[j] == "-h") {
      o.command = Command::Help;
      o.help_topic = topic();
      return o;
    }
  }
  bool have_kernel = false, have_block = false;
  auto allowed = [&](const std::string& opt, std::initializer_list<Command> cmds) {
    for (Command c : cmds) if (c == cmd) return;
    throw UsageError(opt + " is not an option of " + (topic()[0] ? std::string("`reducescope ") + topic() + "`"
                                                                  : std::string("the window")));
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--version") {
      o.command = Command::Version;
      return o;
    } else if (a == "--kernel" && cmd == Command::Histogram) {
      const std::string v = value();
      o.histo_kernels.clear();
      if (v != "all") {
        const KernelId k = parse_kernel(v);
        if (kernel_info(k).op != ReduceOp::Histogram) {
          throw UsageError("--kernel: " + v + " is a reduction, not a histogram (" + histogram_kernel_names() + ")");
        }
        o.histo_kernels.push_back(k);
      }
    } else if (a == "--sweep") {
      allowed(a, {Command::Export});
      o.sweep = true;
    } else if (a == "--html") {
      allowed(a, {Command::Export});
      o.html = value();
    } else if (a == "--runs") {
      allowed(a, {Command::Pitfalls});
      const std::string v = value();
      if (!parse_uint(v, o.runs) || o.runs < 1 || o.runs > 100000) {
        throw UsageError("--runs: '" + v + "' must be a number from 1 to 100000");
      }
    } else if (a == "--input") {
      allowed(a, {Command::Histogram});
      const std::string v = value();
      o.histo_inputs.clear();
      if (v == "all") {
        o.histo_inputs = {HistoInput::Text, HistoInput::Uniform, HistoInput::Skewed};
      } else if (auto in = parse_histo_input(v)) {
        o.histo_inputs.push_back(*in);
      } else {
        throw UsageError("--input: '" + v + "' is not one of text, uniform, skewed, all");
      }
    } else if (a == "--kernel") {
      allowed(a, {Command::Gui, Command::Bench, Command::Trace, Command::Run, Command::Pitfalls});
      std::string v = value();
      o.kernels.clear();
      if (v == "all" && cmd == Command::Bench) {
        have_kernel = false;  // every kernel of the selected tracks
      } else {
        o.kernels.push_back(parse_kernel(v));
        have_kernel = true;
        o.have_kernel = true;
      }
    } else if (a == "--track") {
      allowed(a, {Command::Bench, Command::Trace, Command::Run, Command::Record, Command::Profile});
      o.tracks = parse_tracks(value());
      o.have_track = true;
    } else if (a == "--type") {
      allowed(a, {Command::Bench, Command::Trace, Command::Run});
      o.dtypes = parse_types(value());
      o.have_type = true;
    } else if (a == "--block-size") {
      allowed(a, {Command::Gui, Command::Bench, Command::Trace, Command::Run, Command::Export, Command::Profile,
                  Command::Histogram, Command::Pitfalls});
      std::string v = value();
      o.block_sizes.clear();
      if (v == "all" && (cmd == Command::Bench || cmd == Command::Export)) {
        o.block_sizes.assign(kBlockSizes.begin(), kBlockSizes.end());
        o.block_sizes_all = true;
      } else if (cmd == Command::Export) {  // export --html takes a list: 128,256
        for (size_t at = 0; at <= v.size();) {
          const size_t comma = std::min(v.find(',', at), v.size());
          o.block_sizes.push_back(parse_block_size(v.substr(at, comma - at)));
          at = comma + 1;
        }
      } else {
        o.block_sizes.push_back(parse_block_size(v));
      }
      have_block = true;
      o.have_block_size = true;
    } else if (a == "--n") {
      allowed(a, {Command::Gui, Command::Bench, Command::Trace, Command::Run, Command::Record, Command::Profile,
                  Command::Histogram, Command::Pitfalls});
      o.n = parse_count(value(), a);
      o.have_n = true;
    } else if (a == "--samples") {
      allowed(a, {Command::Bench, Command::Record, Command::Histogram});
      std::string v = value();
      if (!parse_uint(v, o.samples) || o.samples < 20 || o.samples > 100000) {
        throw UsageError("--samples: '" + v + "' must be a number from 20 to 100000 (the median needs at least 20)");
      }
    } else if (a == "--pattern") {
      allowed(a, {Command::Gui, Command::Bench, Command::Trace, Command::Run, Command::Record, Command::Pitfalls});
      std::string v = value();
      auto p = parse_pattern(v);
      if (!p) throw UsageError("--pattern: '" + v + "' is not one of ones, random, iota");
      o.pattern = *p;
      o.have_pattern = true;
    } else if (a == "--csv") {
      allowed(a, {Command::Bench, Command::Histogram});
      o.csv = value();
    } else if (a == "--out") {
      allowed(a, {Command::Trace, Command::Record, Command::Export, Command::Histogram, Command::Pitfalls, Command::Sweep});
      o.out = value();
    } else if (a == "--block") {
      allowed(a, {Command::Trace, Command::Histogram});
      std::string v = value();
      if (!parse_uint(v, o.traced_block)) throw UsageError("--block: '" + v + "' is not a block index");
    } else if (a == "--steps") {
      allowed(a, {Command::Show});
      o.steps = true;
    } else if (a == "--quiet") {
      allowed(a, {Command::Trace});
      o.quiet = true;
    } else if (a == "--screenshot") {
      allowed(a, {Command::Gui});
      o.screenshot = value();
    } else if (a == "--step") {
      allowed(a, {Command::Gui});
      std::string v = value();
      if (!parse_uint(v, o.step)) throw UsageError("--step: '" + v + "' is not a step number");
    } else if (a == "--frames") {
      allowed(a, {Command::Gui});
      std::string v = value();
      if (!parse_uint(v, o.frames) || o.frames < 1) throw UsageError("--frames: '" + v + "' must be at least 1");
    } else if (a == "--compare") {
      allowed(a, {Command::Gui});
      const std::string v = value();
      const size_t colon = v.find(':');
      o.compare_kernel = parse_kernel(v.substr(0, colon));
      if (colon != std::string::npos) o.compare_block_size = parse_block_size(v.substr(colon + 1));
      o.compare = true;
    } else if (a == "--view") {
      allowed(a, {Command::Gui});
      const std::string v = value();
      o.view = v == "table" ? 0 : v == "live" ? 1 : v == "blocksize" ? 2 : v == "sweep" ? 3 : -2;
      if (o.view < 0) throw UsageError("--view: '" + v + "' is not one of table, live, blocksize, sweep");
    } else if (a == "--scale") {
      allowed(a, {Command::Gui});
      const std::string v = value();
      char* end = nullptr;
      o.ui_scale = std::strtof(v.c_str(), &end);
      if (end == v.c_str() || *end || !(o.ui_scale >= 0.75f && o.ui_scale <= 3.0f)) {
        throw UsageError("--scale: '" + v + "' must be a number from 0.75 to 3");
      }
    } else if (a == "--high-contrast" || a == "--help-overlay" || a == "--play" || a == "--stats" ||
               a == "--large-charts") {
      allowed(a, {Command::Gui});
      (a == "--high-contrast"  ? o.high_contrast
       : a == "--help-overlay" ? o.help_overlay
       : a == "--play"         ? o.play
       : a == "--stats"        ? o.stats
                               : o.large_charts) = true;
    } else if (a == "--export-dir") {
      allowed(a, {Command::Gui});
      o.export_dir = value();
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option " + a);
    } else if (cmd == Command::Sweep) {
      o.csv_files.push_back(a);
    } else if ((cmd == Command::Show || cmd == Command::Gui || cmd == Command::Export || cmd == Command::Profile) &&
               o.file.empty()) {
      o.file = a;
    } else {
      throw UsageError("unexpected argument '" + a + "'");
    }
  }

  // Tracks: --track, else the explicit kernel's track, else every track. An explicit kernel must
  // belong to an explicit track (names are unique across tracks).
  if (o.tracks.empty()) {
    if (have_kernel) {
      o.tracks.push_back(kernel_info(o.kernels[0]).track);
    } else {
      o.tracks = parse_tracks("all");  // the pitfalls only by name
    }
  }
  if (have_kernel && o.have_track) {
    const std::string kt = kernel_info(o.kernels[0]).track;
    bool in = false;
    for (const auto& t : o.tracks) in = in || t == kt;
    if (!in) {
      throw UsageError("--kernel " + std::string(kernel_info(o.kernels[0]).name) + " belongs to the track " + kt +
                       ", not " + o.tracks[0]);
    }
  }
  if (cmd == Command::Profile) {
    if (!o.have_track) o.tracks = {"book"};
    if (o.tracks != std::vector<std::string>{"book"}) {
      throw UsageError("profile measures the book track's metrics (--track book); the other tracks have none yet");
    }
  }
  if (!have_kernel && (cmd == Command::Bench || cmd == Command::Record || (o.have_track && cmd != Command::Gui) ||
                       cmd == Command::Profile)) {
    for (const auto& t : o.tracks) {
      for (KernelId k : track_kernels(t)) {
        // The histograms are no reductions: `bench`, `run` and `trace` leave them to `histogram`.
        if (kernel_info(k).op == ReduceOp::Histogram && cmd != Command::Record && cmd != Command::Gui) continue;
        o.kernels.push_back(k);
      }
    }
  }
  if (have_kernel && kernel_info(o.kernels[0]).op == ReduceOp::Histogram &&
      (cmd == Command::Bench || cmd == Command::Trace || cmd == Command::Run)) {
    const char* k = kernel_info(o.kernels[0]).name;
    throw UsageError(std::string(k) + " is a histogram, not a reduction: use `reducescope histogram --kernel " + k +
                     "` (with --out FILE for a trace)");
  }
  if (o.have_type && o.kernels.size() == 1) {
    bool any = false;
    for (DType t : o.dtypes) any = any || kernel_info(o.kernels[0]).takes(t);
    if (!any) throw UsageError(*dtype_problem(o.kernels[0], o.dtypes[0]));
  }

  switch (cmd) {
    case Command::Bench:
      // One explicit kernel at one explicit block size it cannot take: say why, as a usage error.
      if (o.kernels.size() == 1 && have_block && !o.block_sizes_all) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(*why);
      }
      break;
    case Command::Trace:
    case Command::Run:
      if (o.kernels.empty()) {
        throw UsageError(std::string(topic()) + " needs --kernel NAME or --track T (kernels: " + kernel_names() + ")");
      }
      if (!have_block) throw UsageError(std::string(topic()) + " needs --block-size B (32, 64, ..., 1024)");
      if (have_kernel) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(*why);
      }
      break;
    case Command::Show:
      if (o.file.empty()) throw UsageError("show needs a trace or session FILE");
      break;
    case Command::Record:
      if (o.out.empty()) throw UsageError("record needs --out FILE (the session file to write)");
      break;
    case Command::Profile:
      if (o.file.empty()) throw UsageError("profile needs a SESSION file to write the metrics into (from `reducescope record`)");
      break;
    case Command::Sweep:
      if (o.csv_files.empty()) throw UsageError("sweep needs one or more CSV files (from `reducescope bench --csv` at several N)");
      if (o.out.empty()) throw UsageError("sweep needs --out SESSION (the session to store the sweep in)");
      break;
    case Command::Pitfalls:
      if (o.block_sizes.empty()) o.block_sizes = {256};
      if (!have_kernel) o.kernels = track_kernels(kPitfallsTrack);
      else if (!kernel_info(o.kernels[0]).pitfall) {
        throw UsageError(std::string("--kernel: ") + kernel_info(o.kernels[0]).name +
                         " is not a pitfall (the pitfalls track: " +
                         kernel_names([](const KernelInfo& k) { return k.pitfall != nullptr; }) + ")");
      }
      break;
    case Command::Histogram:
      if (o.histo_inputs.empty()) o.histo_inputs = {HistoInput::Text, HistoInput::Uniform, HistoInput::Skewed};
      if (o.histo_kernels.empty()) {
        for (const auto& k : kernel_table()) {
          if (k.op == ReduceOp::Histogram) o.histo_kernels.push_back(k.id);
        }
      }
      if (!o.have_n) o.n = 1u << 26;
      if (o.block_sizes.empty()) o.block_sizes = {256};
      if (!o.out.empty() && (o.histo_inputs.size() != 1 || o.histo_kernels.size() != 1)) {
        throw UsageError("histogram --out saves one trace: give one --kernel and one --input");
      }
      break;
    case Command::Export:
      if (o.file.empty()) {
        throw UsageError(o.sweep ? "export --sweep needs a CSV file (from `reducescope bench --csv` at several N)"
                                 : "export needs a SESSION file (recorded with `reducescope record`)");
      }
      if (!o.html.empty()) {
        if (o.sweep || !o.out.empty()) throw UsageError("export --html writes one web page: leave out --out and --sweep");
        break;
      }
      if (o.out.empty()) {
        throw UsageError("export needs --out DIR (the folder for the charts) or --html FILE.html (a web page)");
      }
      if (o.block_sizes.size() > 1) throw UsageError("export --out takes one --block-size (or none: every block size)");
      break;
    case Command::Gui:
      if (have_kernel && have_block) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(*why);
      }
      break;
    default:
      break;
  }
  return o;
}

}  // namespace rs
