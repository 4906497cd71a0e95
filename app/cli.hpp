// Command-line parsing for `reducescope`. Plain C++ (no CUDA, no GL), tested in CI.
//
//   reducescope [FILE.rstrace] [--kernel K] [--block-size B] [--n N] [--pattern P]   the window
//   reducescope bench [--track T|all] [--kernel NAME|all] [--type int32|float32|all] [--n N]
//                     [--block-size B|all] [--samples S] [--csv FILE]       one table per track
//   reducescope trace [--track T] --kernel NAME --block-size B [--type T] [--n N] [--out FILE]
//   reducescope show FILE [--steps]
//   reducescope run [--track T] --kernel NAME --block-size B [--type T] [--n N]   one reduction
//                   (for ncu, compute-sanitizer); --track T without --kernel: each of its kernels
//   reducescope record --out FILE [--track T|all] [--n N] [--pattern P] [--samples S]   a session
//   reducescope export SESSION --out DIR [--block-size B]   its charts: PNG, SVG, PDF, CSV
//   reducescope export SESSION --html FILE.html [--block-size B[,B...]|all]   one web page that replays
//                   its traces in any browser (app/export/web_export.hpp)
//   reducescope export --sweep BENCH.csv --out DIR   bandwidth against N from `bench --csv` files
//   reducescope profile SESSION [--track book] [--block-size B] [--n N]   the book's nvprof metrics,
//                   measured with Nsight Compute (ncu on the PATH), written into SESSION
//   reducescope sweep BENCH.csv [BENCH.csv ...] --out SESSION   the bandwidth-against-N sweep (from
//                   `bench --csv` at several N) and the launch counts, stored into SESSION
//   reducescope pitfalls [--runs R] [--n N] [--block-size B] [--pattern P]   the pitfalls track's wrong
//                   kernels, each run R times: how often the sum is wrong
//   reducescope histogram [--input text|uniform|skewed|all] [--kernel NAME|all] [--n BYTES]
//                   [--block-size B] [--samples S] [--csv FILE] [--out FILE.rstrace [--block K]]
//                   the course track's histograms against cub::DeviceHistogram
//   reducescope new --from KERNEL FILE.cu   a starting file of your own kernel (kernels/user_kernel.hpp)
//   reducescope check FILE.cu   compiles your kernel file with NVRTC in both builds (no GPU needed), then
//                   checks its sums against the CPU on a GPU
//
// Exit codes (fixed; scripts rely on them): 0 success, 1 runtime error, 2 usage error.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "histogram.hpp"
#include "input.hpp"
#include "kernel_info.hpp"

namespace rs {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// A malformed command line. what() is one line naming the option and the problem.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Command {
  Gui, Bench, Trace, Show, Run, Record, Export, Profile, Histogram, Pitfalls, Sweep, Bits, New, Check, Verify,
  LessonReport, Grade, Serve, Help, Version
};

struct Options {
  Command command = Command::Gui;
  std::string help_topic;               // Help: "", or a command's name
  std::vector<KernelId> kernels;        // the kernels to run (bench, record: every kernel of the
                                        // selected tracks by default), in registry order
  std::string library;                  // --kernel NAME naming a library kernel (LibraryKernelInfo, e.g.
                                        // cub::DeviceReduceKernel): record --add --binary traces it; the window
                                        // shows the open session's trace of it ("cub": every one, record only)
  std::string cub;                      // run --cub reduce|histogram: cub::DeviceReduce::Sum, or cub::DeviceHistogram
                                        // over the course's text, once (for ncu, sanitizers and the binary tracer)
  std::vector<std::string> tracks;      // --track: the selected tracks (all by default)
  std::vector<DType> dtypes;            // --type: element types (bench: every type a kernel takes;
                                        // trace, run: int32 if the kernel takes it, else float32)
  std::vector<unsigned> block_sizes;    // threads per block (bench: each track's default block
                                        // size, TrackInfo::default_block_size, when empty)
  bool block_sizes_all = false;         // bench: --block-size all (skip impossible pairs, saying why)
  uint64_t n = 1u << 24;                // elements
  int samples = 30;                     // bench: timed samples per kernel (>= 20)
  Pattern pattern = Pattern::RandomBytes;
  std::string csv;                      // bench: CSV output path
  std::string out;                      // trace: trace file; record: session file; export: folder
  std::string file;                     // show, export, profile: trace or session to read; gui: one to open;
                                        // new: the kernel file to write; check: the one to compile
  std::string from;                     // new --from KERNEL: the shipped kernel the starting file follows
  bool wrapped = false;                 // new --wrapped: the wrapped dialect's starting file (kernels/user/wrapped/)
  unsigned traced_block = 0;            // trace: blockIdx.x to record
  bool quiet = false;                   // trace: summary only, no per-step text
  bool steps = false;                   // show: print every step too
  std::string lesson;                   // show, export --html, lesson-report: a lesson file (app/lessons/lessons.hpp, docs/lessons.md)
  std::string session;                  // lesson-report --session: the session its pictures come from
  bool class_mode = false;              // the window's Predict mode for a projector: the room answers, no score
  bool add = false;                     // record --add: into the existing session at --out, at its N
  bool two_runs = false;                // record --two-runs: each float32 trace taken in two runs, the second kept
                                        // beside the first (Session::other_runs; the two-runs view, issue 30)
  // GUI automation (tests and screenshots):
  std::string screenshot;               // save a PNG of the window, then exit
  int step = -1;                        // initial replay step (-1: the middle of the trace)
  int frames = 0;                       // exit after this many frames; with --screenshot: at least
                                        // this many frames before it (0: run until closed)
  bool headless = false;                // --headless: draw into an offscreen EGL surface, no X server, no input
                                        // (app/gui/headless.hpp); needs --screenshot, --frames or --reload-bench
  // Window presentation (also settable in the window; these override the saved settings):
  bool compare = false;                 // --compare K[:B]: side B is kernel K at B threads
  KernelId compare_kernel = KernelId::reduce2;
  std::string compare_library;          // --compare naming a library kernel: side B shows the session's trace of it
  unsigned compare_block_size = 0;      // 0: side A's block size
  int view = -1;                        // --view table|live|blocksize|sweep|bits|multigpu: the timing tab
                                        // (-1: saved); with multigpu, --step S opens its ring at step S
  float ui_scale = 0;                   // --scale F, 0.75..3 (0: saved)
  bool high_contrast = false;           // --high-contrast
  std::string lang;                     // --lang zh|en: the window's and the page's language ("": the saved
                                        // choice, else the system's locale; i18n/i18n.hpp)
  bool help_overlay = false;            // --help-overlay: open with the shortcuts shown
  bool play = false;                    // --play: start playing the replay
  bool large_charts = false;            // --large-charts: the timing charts in place of the replay
  bool stats = false;                   // --stats: print first-frame time, frame times, toggle latencies at exit
  int reload_saves = 0;                 // --reload-bench N: with --kernel-file, save the file N times and print
                                        // each save -> new trace on screen (app/gui/reload_bench.hpp); 0: off
  std::string export_dir;               // --export-dir DIR: where File > Export writes (default ./reducescope-charts)
  bool have_kernel = false, have_block_size = false, have_n = false, have_pattern = false;  // given explicitly
  bool have_track = false, have_type = false;
  // histogram: the inputs (--input; default text, uniform and skewed), the kernels (--kernel; default
  // every ReduceOp::Histogram kernel); the byte count is `n` (default 2^26).
  std::vector<HistoInput> histo_inputs;
  int runs = 100;                       // pitfalls: runs of each kernel (1 .. 100000); bits: per block size (20)
  bool have_runs = false;               // --runs given
  bool sweep = false;                   // export --sweep: `file` is bench CSV (several N), not a session
  std::vector<std::string> csv_files;   // sweep: the `bench --csv` files to read; lesson-report: the answers files
  std::vector<KernelId> histo_kernels;
  // bench / record --track multigpu (issue 21):
  uint32_t gpus = 0;                    // --gpus G: GPUs to use (0: all; at least 2)
  std::vector<uint64_t> mg_sizes;       // --sizes LIST: all-reduce buffer sizes per GPU, bytes (empty: 4 KiB .. 1 GiB)
  double timeout_s = 60;                // --timeout S: a collective that has not finished after S seconds is an error
  // Your own kernel (issue 19, docs/your-kernel.md):
  std::string kernel_file;              // --kernel-file FILE.cu: run, trace, bench, record take it instead of --kernel
  std::string compiled;                 // --compiled FILE: the kernel file already compiled (save_user_kernel), for the
                                        // worker the window starts: no NVRTC in the worker
  std::string save_compiled;            // check --compile-only --save-compiled FILE: the compiled kernel, for a later
                                        // check --compiled FILE (grade compiles ahead so, while the GPU checks)
  int cc = 0;                           // check --compile-only --cc N: compile for compute capability N (e.g. 90), as
                                        // check does on such a GPU; 0: the generic compute_75
  double kernel_timeout_s = 5;          // --kernel-timeout S: a user's kernel still running after S s is stopped
  std::string exercise;                 // check --exercise NAME; new --exercise NAME (its starting file)
  // trace --kernel NAME [--launch K] [--block X[,Y,Z]] --out F -- PROGRAM ARGS (the binary tracer, issue 28,
  // docs/binary-trace.md): any program, with ReduceScope injected.
  std::vector<std::string> program;     // PROGRAM ARGS (non-empty: attach mode)
  std::string attach_kernel;            // text the demangled kernel name must contain
  uint32_t launch = 1;                  // the K-th launch of a matching kernel, 1-based
  std::string block_index = "0";        // the traced block: "X" or "X,Y,Z"
  bool json = false;                    // check --json: the exercise's checks as JSON
  bool compile_only = false;            // check, grade --compile-only: NVRTC's verdict alone, no GPU work
  // grade (app/grading/class_grades.hpp): the GPUs ("all" or "0,2"), a shard "I/N", --merge DIR, --slurm with --shards N tasks
  // (and --partition P), --hide-names on the class page.
  std::string gpu_list = "all", shard, merge, partition;
  bool slurm = false, hide_names = false;
  uint32_t shards = 4;
  bool binary = false;                  // verify --binary: the source probe's trace against the binary tracer's
  bool list = false;                    // check --list: the exercises, one name a line
  // serve (app/serve/server.hpp, docs/serve.md): where it listens, the class's store, the roster, the checker.
  std::string listen = "127.0.0.1", roster, checker;
  int port = 8471;
  double run_limit_s = 180;
  std::string serve_url;                // the window's --serve URL: class mode connected to `reducescope serve`
  std::string from_server;              // lesson-report --from-server DIR: the room's answers in serve's store             // serve --run-limit S: a run's whole time (compile, run, sanitizers)
  std::string html;                     // export --html FILE: the web page to write (block_sizes: the
                                        // traces it holds; empty: as many as fit 3.5 MB)
};

// Parses argv[1..]. Throws UsageError. For --help anywhere, returns Command::Help.
Options parse_cli(const std::vector<std::string>& args);

// Help text for a topic ("" for the overview).
std::string help_text(const std::string& topic);

// Parses a byte size: "4096", "4KiB" / "4K", "256MiB" / "256M", "1GiB" / "1G", "2^20" (bytes). Throws UsageError
// naming `option`.
uint64_t parse_bytes(const std::string& s, const std::string& option);

// Parses an element count: decimal ("16777216") or a power of two ("2^24"). 1 <= N <= 2^31.
uint64_t parse_count(const std::string& s, const std::string& option);

}  // namespace rs
