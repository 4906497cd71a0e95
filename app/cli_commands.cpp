// The commands of `reducescope` as data (the command table, cli_table.hpp): for each, the options and
// operands it takes in the order and form its usage lines show them, which of them the overview's
// shorter usage lines leave out, and the help text after its usage lines. parse_cli() accepts an option
// for a command only if the command's entry names it; help_text() prints these entries.
#include "cli_table.hpp"

#include <initializer_list>

namespace rs::cli {

const char* const kOverviewIntro =
    "ReduceScope: see what CUDA parallel reduction does on the GPU, track by track:\n"
    "  harris    Harris's reduce0..reduce6 (shared memory, bank conflicts, divergence)\n"
    "  lecture   from one atomicAdd per element to warp shuffles and a two-step kernel\n"
    "  book      Professional CUDA C's divergence and unrolling series, in place in global memory\n"
    "  course    sum, min, max and a user-defined operator; coalescing; text histograms\n"
    "  modern    shuffle block reduce, __reduce_add_sync, 16-byte loads, single pass, CUB,\n"
    "            and reproducible_sum (the same float bits at every block size)\n"
    "  pitfalls  the notes' bugs, labelled as wrong code (left out of every default list)\n"
    "  multigpu  a sum and an all-reduce over 2 or more GPUs with NCCL (bench --track multigpu)\n"
    "Your own kernel: a plain .cu file (--kernel-file, new, check), or any program as compiled\n"
    "(trace ... -- PROGRAM, verify --binary).\n";

const char* const kOverviewEnd =
    "Without a GPU the window replays the session recorded on an H100 that ships in assets/sessions.\n"
    "Exit codes: 0 success, 1 runtime error, 2 usage error.\n";

namespace {

// `uses` and then `more`.
std::vector<Use> with(std::vector<Use> uses, std::initializer_list<Use> more) {
  uses.insert(uses.end(), more);
  return uses;
}

}  // namespace

const std::vector<CommandSpec>& command_table() {
  // `run`'s options, which `trace` takes too: one kernel (or each of a track's) at one block size.
  static const std::vector<Use> one_kernel = {
      {.opt = "--track", .arg = "T"},
      {.opt = "--kernel", .arg = "NAME", .required = true},
      {.opt = "--block-size", .arg = "B", .required = true},
      {.opt = "--type", .arg = "int32|float32", .brief_arg = "T"},
      {.opt = "--n", .arg = "N"},
      {.opt = "--pattern", .arg = "P", .in_overview = false},
  };
  // Your own kernel file instead of a shipped kernel (docs/your-kernel.md): run, trace, bench, record.
  static const std::vector<Use> kernel_file = {
      {.opt = "--kernel-file", .arg = "FILE.cu", .required = true},
      {.opt = "--block-size", .arg = "B"},
      {.opt = "--type", .arg = "int32|float32"},
      {.opt = "--n", .arg = "N"},
      {.opt = "--pattern", .arg = "P"},
      {.opt = "--kernel-timeout", .arg = "S"},
      {.opt = "--compiled", .arg = "FILE", .in_overview = false},
  };
  static const std::vector<CommandSpec> table = {
      {Command::Gui, "", Operands::One,
       {{
           {.opt = "FILE.rssession|FILE.rstrace"},
           {.opt = "--kernel", .arg = "NAME"},
           {.opt = "--block-size", .arg = "B"},
           {.opt = "--n", .arg = "N"},
           {.opt = "--pattern", .arg = "P"},
           {.opt = "--kernel-file", .arg = "FILE.cu", .in_overview = false},
           {.opt = "--kernel-timeout", .arg = "S", .in_overview = false},
           {.opt = "--exercise", .arg = "NAME", .in_overview = false},
           {.opt = "--compare", .arg = "K[:B]", .section = Section::Window, .note = "side B: kernel K at B threads"},
           {.opt = "--two-runs", .section = Section::Window,
            .note = "the atomics panel's two runs side by side (a session's second run of a float atomic kernel)"},
           {.opt = "--type", .arg = "int32|float32", .section = Section::Window,
            .note = "a session's float32 traces where it holds them (key D)"},
           {.opt = "--view", .arg = "table|live|blocksize|sweep|bits|multigpu", .section = Section::Window},
           {.opt = "--scale", .arg = "F", .section = Section::Window, .line_break = true},
           {.opt = "--high-contrast", .section = Section::Window},
           {.opt = "--lang", .arg = "zh|en", .section = Section::Window, .note = "Chinese or English (default: the system's locale)"},
           {.opt = "--lesson", .arg = "NAME", .section = Section::Window,
            .note = "Predict mode with a bundled lesson; default: a question per step"},
           {.opt = "--class-mode", .section = Section::Window,
            .note = "Predict mode for the projector: the room answers, Right or Enter reveals, no score"},
           {.opt = "--serve", .arg = "URL", .section = Section::Window,
            .note = "with --class-mode: the instructor's link of `reducescope serve`; the question opens on every "
                    "student's page and their answers' distribution is drawn (docs/room.md)"},
           {.opt = "--large-charts", .section = Section::Window},
           {.opt = "--play", .section = Section::Window},
           {.opt = "--help-overlay", .section = Section::Window},
           {.opt = "--export-dir", .arg = "DIR", .section = Section::Window, .note = "File > Export's folder"},
           {.opt = "--screenshot", .arg = "FILE.png", .required = true, .section = Section::Automation},
           {.opt = "--step", .arg = "S", .section = Section::Automation},
           {.opt = "--frames", .arg = "F", .section = Section::Automation},
           {.opt = "--stats", .section = Section::Automation},
           {.opt = "--headless", .section = Section::Automation,
            .note = "no window: frames drawn offscreen through EGL, on the GPU where it has one"},
           {.opt = "--reload-bench", .arg = "N", .in_overview = false, .section = Section::Automation},
       }},
       1,
       "With no command, opens the window: kernel list, block size, step-by-step replay of one\n"
       "thread block (shared memory, warps x lanes, bank conflicts) and the timings measured so far.\n"
       "Tracks: {tracks}. Kernels: {kernels}. Block sizes: 32, 64, 128, 256, 512, 1024.\n"},
      {Command::Bench, "bench", Operands::None,
       {{
           {.opt = "--track", .arg = "T|all"},
           {.opt = "--kernel", .arg = "NAME|all"},
           {.opt = "--type", .arg = "int32|float32|all"},
           {.opt = "--n", .arg = "N"},
           {.opt = "--block-size", .arg = "B[,B...]|all"},
           {.opt = "--samples", .arg = "S"},
           {.opt = "--pattern", .arg = "ones|random|iota", .in_overview = false},
           {.opt = "--csv", .arg = "FILE"},
           {.opt = "--gpus", .arg = "G", .in_overview = false},
           {.opt = "--sizes", .arg = "LIST", .in_overview = false},
           {.opt = "--timeout", .arg = "S", .in_overview = false},
       },
        with(kernel_file, {
                              {.opt = "--samples", .arg = "S"},
                          })},
       1,
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
       "Tracks: {tracks} (`all` leaves out the pitfalls, wrong code on purpose: ask for\n"
       "--track pitfalls by name, or run `reducescope pitfalls`).\n"
       "--track multigpu (2 or more GPUs, NCCL): a sum spread over the GPUs (each reduces its shard, then\n"
       "ncclReduce) against one GPU, and an element-wise float32 all-reduce three ways (ncclAllReduce, a\n"
       "hand-written ring of peer copies and adds, the naive gather to GPU 0) at --sizes (bytes per GPU,\n"
       "default 4KiB,16KiB,...,1GiB), beside the measured peer-to-peer copy; nccl-tests' algbw and busbw.\n"
       "--gpus G (default all), --timeout S (default 60: a collective still running after S s is an error).\n"
       "On one GPU it says the track needs two and exits 1.\n"
       "Exit: 0 all results correct, 1 a runtime error or a wrong result, 2 a usage error.\n"},
      {Command::Trace, "trace", Operands::None,
       {with(one_kernel, {
                             {.opt = "--block", .arg = "K", .in_overview = false},
                             {.opt = "--out", .arg = "FILE"},
                             {.opt = "--quiet", .in_overview = false},
                         }),
        with(kernel_file, {
                              {.opt = "--block", .arg = "K"},
                              {.opt = "--out", .arg = "FILE"},
                              {.opt = "--quiet"},
                          })},
       2,  // the shipped kernels, and --kernel-file
       "Runs the tracing build of a kernel, records block K (default 0) of its first launch, prints\n"
       "each step (barrier epoch): active warps, active masks, divergence, every warp-level\n"
       "shared-memory access with its source line and n-way bank conflict, warp shuffles (lane -> lane),\n"
       "atomics (contention per address) and global requests (32-byte sectors). --out saves the trace\n"
       "(.rstrace) for `reducescope show` and the window. Default --n 16777216. --track T without\n"
       "--kernel traces each kernel of the track (summaries only with --quiet).\n"
       "\n"
       "Any program, as compiled (the binary tracer, docs/binary-trace.md):\n"
       "  reducescope trace --kernel NAME [--launch K] [--block X[,Y,Z]] [--type int32|float32] --out F.rstrace\n"
       "                    [--quiet] -- PROGRAM ARGS...\n"
       "runs PROGRAM with ReduceScope injected (CUDA_INJECTION64_PATH, the Compute Sanitizer API) and records\n"
       "block X (default 0) of the K-th launch (default 1) of the kernel whose demangled name contains NAME.\n"
       "Build PROGRAM with nvcc -lineinfo for its source lines (without, the SASS stands in). Its output and\n"
       "exit code pass through; a NAME no launch matches lists the kernels that did launch (exit 1).\n"
       "Values are shown as the type the kernel's first pointer parameter points to (float const*: float32;\n"
       "int or unsigned: int32); --type sets another.\n"},
      {Command::Show, "show", Operands::One,
       {{
           {.opt = "FILE", .required = true},
           {.opt = "--steps"},
           {.opt = "--lesson", .arg = "LESSON.json", .in_overview = false},
       }},
       1,
       "Validates a saved trace (.rstrace) or session (.rssession) and summarises it. A trace: what\n"
       "ran where, steps, active warps and bank conflicts; --steps also prints every step as `trace`\n"
       "does. A session: the GPU and date it was recorded on, its timing table and its traces.\n"
       "--lesson checks a Predict-mode lesson (a file, or a bundled one's name; \"bundled\": every one;\n"
       "docs/lessons.md) against FILE: each item's questions with the trace's answer, or why one is not asked.\n"
       "Exit 1 with a message if the file is not valid.\n"},
      {Command::Run, "run", Operands::None,
       {one_kernel, kernel_file,
        {
            {.opt = "--cub", .arg = "reduce|histogram", .required = true},
            {.opt = "--type", .arg = "int32|float32"},
            {.opt = "--n", .arg = "N"},
            {.opt = "--pattern", .arg = "P"},
        }},
       1,
       "Runs the timing build of one kernel once (every launch down to one value) and prints the sum\n"
       "and whether it matches the CPU reference; --track T without --kernel runs each kernel of the\n"
       "track that takes the block size; --block-size 64,128 runs each in turn, a line each, flushed as it\n"
       "ends (an exercise check runs compute-sanitizer on a kernel file this way). Meant for profilers and\n"
       "sanitizers, e.g.\n"
       "  ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum reducescope run \\\n"
       "      --kernel reduce1 --block-size 256 --n 256\n"
       "  compute-sanitizer --tool racecheck reducescope run --kernel reduce5 --block-size 128 --n 100003\n"
       "--cub reduce runs cub::DeviceReduce::Sum once on the same input (its two kernels, at the block size\n"
       "CUB's tuning picks); --cub histogram runs cub::DeviceHistogram over N bytes of the course's text\n"
       "(the 7 letter bins). `record --add --binary --kernel cub` traces their kernels through it.\n"},
      {Command::Record, "record", Operands::None,
       {{
           {.opt = "--out", .arg = "FILE", .required = true, .brief_arg = "FILE.rssession"},
           {.opt = "--track", .arg = "T|all"},
           {.opt = "--n", .arg = "N"},
           {.opt = "--pattern", .arg = "P", .in_overview = false},
           {.opt = "--samples", .arg = "S"},
           {.opt = "--kernel", .arg = "NAME", .in_overview = false},
           {.opt = "--type", .arg = "int32|float32", .in_overview = false},
           {.opt = "--block-size", .arg = "B[,B...]|all", .in_overview = false},
           {.opt = "--add", .in_overview = false},
           {.opt = "--binary", .in_overview = false},
           {.opt = "--two-runs", .in_overview = false},
           {.opt = "--gpus", .arg = "G", .in_overview = false},
           {.opt = "--sizes", .arg = "LIST", .in_overview = false},
           {.opt = "--timeout", .arg = "S", .in_overview = false},
       },
        with(kernel_file, {
                              {.opt = "--out", .arg = "FILE", .required = true},
                              {.opt = "--add"},
                              {.opt = "--samples", .arg = "S"},
                          })},
       1,
       "Runs every kernel of the tracks (default all; or one --kernel) at every block size it accepts on the GPU, on\n"
       "int32 input: times each as `bench` does and traces block 0 of each; then, on float32 input of the same\n"
       "pattern, traces block 0 of each kernel that takes float32 (reproducible_sum, the float atomics, ...). It\n"
       "saves it all, with the GPU's name and the date, in one session file (.rssession). The window and `export`\n"
       "open it on machines without a GPU. --type int32 records the int32 part alone, --type float32 the float32\n"
       "traces alone; --block-size those block sizes alone.\n"
       "--add --binary adds block 0 of each kernel traced by the binary tracer instead (the kernel as compiled,\n"
       "attached to `reducescope run`; docs/binary-trace.md), beside the source probe's traces: the window's\n"
       "key B shows them. --add --binary --kernel cub (or one of cub::DeviceReduceKernel,\n"
       "cub::DeviceReduceSingleTileKernel, cub::DeviceHistogramSweepKernel) adds CUB's own kernels, block 0,\n"
       "traced through `reducescope run --cub`, at the block size CUB picks: the window and the page list them\n"
       "in the modern track, beside the kernels that do the same job.\n"
       "--two-runs traces each float32 kernel twice, in two runs of the same input, and keeps the second beside\n"
       "the first (tried up to 20 times until the block's float atomics round differently): the window's two-runs\n"
       "view of the atomics shows where the bits part (e.g. --add --type float32 --kernel sum_atomic).\n"
       "--add records into the existing session at --out instead, at its N, pattern and samples: the kernels'\n"
       "timings and traces are added (or replace theirs), everything else in it is kept.\n"
       "Defaults: --n 16777216 --pattern random --samples 30.\n"
       "--track multigpu measures what `bench --track multigpu` does, traces the hand ring step by step\n"
       "(1 MiB and 256 MiB), and stores it in the session (with --add: into an existing session, whatever\n"
       "GPU recorded it; the recording keeps its own GPUs' names).\n"
       "--kernel-file FILE.cu records your kernel instead (track \"yours\"): its source, its timing and its\n"
       "trace at each block size given (default 256), so the session and its web page show it.\n"},
      {Command::Export, "export", Operands::One,
       {
           {
               {.opt = "SESSION", .required = true},
               {.opt = "--out", .arg = "DIR", .required = true},
               {.opt = "--block-size", .arg = "B"},
           },
           {
               {.opt = "SESSION", .required = true},
               {.opt = "--html", .arg = "FILE.html", .required = true},
               {.opt = "--block-size", .arg = "B[,B...]|all"},
               {.opt = "--lang", .arg = "zh|en"},
           },
           {
               {.opt = "--sweep", .required = true},
               {.opt = "BENCH.csv", .required = true},
               {.opt = "--out", .arg = "DIR", .required = true},
           },
       },
       2,
       "Writes the session's timing charts into DIR as PNG, SVG and PDF, with the numbers behind\n"
       "each as CSV: time and bandwidth per kernel (at B, or at every block size), time and\n"
       "bandwidth against block size, and Harris's table. Each chart names the GPU, N, the block\n"
       "size and the timing method. --sweep draws sweep_bandwidth (PNG, SVG, PDF, CSV) from\n"
       "`reducescope bench --csv` output at several N (files concatenated): each track's fastest\n"
       "correct kernel, CUB and the copy against N, with the theoretical peak.\n"
       "--html writes one self-contained web page (no install, no network: any current browser)\n"
       "that replays the session's traces step by step, with its timing table, GPU and date. It\n"
       "holds the traces at the given block sizes, or by default each track's own block size and as\n"
       "many others as fit 3.5 MB; the page says which it holds. --lang zh opens the page in\n"
       "Chinese (default English); the page has its own switch between the two.\n"},
      {Command::Profile, "profile", Operands::One,
       {{
           {.opt = "SESSION", .required = true},
           {.opt = "--track", .arg = "book"},
           {.opt = "--block-size", .arg = "B"},
           {.opt = "--n", .arg = "N"},
       }},
       1,
       "Measures, with Nsight Compute, the metrics the book reads with nvprof (inst_per_warp,\n"
       "gld_efficiency, gld_throughput, dram_read_throughput, stall_sync, achieved_occupancy) for every\n"
       "book kernel at B threads (default 512) over N elements (default 2^24; the first launch), and\n"
       "writes them into SESSION, so the window shows them beside the timings, also without a GPU.\n"
       "Needs a CUDA GPU and `ncu` on the PATH; without ncu it says so and exits 1.\n"},
      {Command::Histogram, "histogram", Operands::None,
       {{
           {.opt = "--input", .arg = "text|uniform|skewed|all"},
           {.opt = "--kernel", .arg = "NAME|all"},
           {.opt = "--n", .arg = "BYTES"},
           {.opt = "--block-size", .arg = "B", .in_overview = false},
           {.opt = "--samples", .arg = "S", .in_overview = false},
           {.opt = "--csv", .arg = "FILE", .in_overview = false},
           {.opt = "--out", .arg = "FILE.rstrace", .in_overview = false},
           {.opt = "--block", .arg = "K", .nested = true, .in_overview = false},
       }},
       1,
       "The course track's histograms (seeds/004): histo_sectioned (one section per thread),\n"
       "histo_basic (interleaved, global atomics) and histo_private (a shared histogram per block),\n"
       "and the modern track's histo_warp (16-byte loads, a shared histogram per warp), timed against cub::DeviceHistogram over the same bytes, as `bench` times (3 warm-ups, L2\n"
       "flushed, CUDA events, median of S samples; zeroing the bins is timed too). Inputs: text (a\n"
       "real English text, repeated; the note's 7 bins of 4 letters), uniform (random bytes, 256 bins),\n"
       "skewed (90% of the bytes in one bin, 256 bins). Every result is checked bin by bin against the\n"
       "CPU. Defaults: every input and kernel, --n 2^26 bytes, --samples 30, and each kernel at its fastest\n"
       "block size on this GPU, found by a short sweep of the block sizes it takes on the first input and\n"
       "printed in the header (histo_warp: 1024 on the H100, 1.15x cub::DeviceHistogram at 2^26 bytes);\n"
       "--block-size B times every kernel at B.\n"
       "--out saves a trace of one kernel on one input (block K, default 0) for `show` and the window.\n"
       "Exit: 0 all histograms correct, 1 a runtime error or a wrong bin, 2 a usage error.\n"},
      {Command::Pitfalls, "pitfalls", Operands::None,
       {{
           {.opt = "--kernel", .arg = "NAME", .in_overview = false},
           {.opt = "--runs", .arg = "R"},
           {.opt = "--n", .arg = "N"},
           {.opt = "--block-size", .arg = "B"},
           {.opt = "--pattern", .arg = "P", .in_overview = false},
           {.opt = "--out", .arg = "SESSION", .in_overview = false},
       }},
       1,
       "Runs each kernel of the pitfalls track (WRONG CODE on purpose: the notes' bugs put back into\n"
       "correct kernels) R times (default 100) on the GPU at each block size (B,B,... or all), and\n"
       "prints how many runs gave a wrong sum, how many different sums they gave, and what is wrong\n"
       "with the code. Defaults: --n 16777216, --block-size 256, --pattern random. Kernels that would\n"
       "hang the GPU are not runnable at all (docs/tracks.md). --out SESSION writes into the session,\n"
       "at the session's N and pattern: the counts, a timing and a trace of each kernel (its global\n"
       "loads and stores and its barriers; not its shared memory, which the probe would change), and,\n"
       "where compute-sanitizer is on the PATH, racecheck's races on one block (both source lines of\n"
       "each, and the shared-memory words), so the window and the web page show them without a GPU.\n"
       "Exit: 0 when every kernel ran (wrong sums are the point), 1 a runtime error.\n"},
      {Command::Bits, "bits", Operands::None,
       {{
           {.opt = "--kernel", .arg = "NAME", .in_overview = false},
           {.opt = "--runs", .arg = "R"},
           {.opt = "--n", .arg = "N"},
           {.opt = "--pattern", .arg = "P", .in_overview = false},
           {.opt = "--out", .arg = "SESSION", .in_overview = false},
       }},
       1,
       "The bits view of float32 sums: every kernel that adds float32 (and cub::DeviceReduce::Sum) is\n"
       "run R times (default 20) at every block size it takes on one input, and the distinct result\n"
       "bit patterns it gave are printed with their values, their distance in ulps from the exact sum\n"
       "rounded once (kernels/exact_sum.hpp), and the block sizes that gave them. Float addition is not\n"
       "associative: a tree's bits change with its block size, float atomics' with every run;\n"
       "reproducible_sum gives one pattern in all. Defaults: --n 16777216, --pattern random. --out\n"
       "SESSION stores the view in the session, so the window and the web page show it without a GPU.\n"
       "Exit: 0 every result within the float tolerance, 1 a runtime error or a result outside it.\n"},
      {Command::Sweep, "sweep", Operands::Many,
       {{
           {.opt = "BENCH.csv [BENCH.csv ...]", .required = true},
           {.opt = "--out", .arg = "SESSION", .required = true},
       }},
       1,
       "Stores the bandwidth-against-N sweep into SESSION, so the window's \"vs N\" tab and `export`\n"
       "show it without a GPU: from `reducescope bench --csv` output at several N (one file per N, or\n"
       "concatenated), each track's fastest correct int32 kernel over every block size, CUB and the\n"
       "device-to-device copy at each N. The rows must come from the session's GPU. The rows at the\n"
       "session's own N and pattern also give the launch count of each timing that has none (sessions\n"
       "recorded before 0.2). Exit: 0 stored, 1 a runtime error (unreadable or foreign rows).\n"},
      {Command::Grade, "grade", Operands::Many,
       {{
           {.opt = "SUBMISSIONS", .required = true},
           {.opt = "--exercise", .arg = "NAME", .required = true},
           {.opt = "--out", .arg = "DIR", .required = true},
           {.opt = "--gpus", .arg = "all|LIST"},
           {.opt = "--compile-only"},
           {.opt = "--hide-names"},
           {.opt = "--kernel-timeout", .arg = "S", .in_overview = false},
           {.opt = "--shard", .arg = "I/N", .in_overview = false},
           {.opt = "--slurm", .in_overview = false},
           {.opt = "--shards", .arg = "N", .in_overview = false},
           {.opt = "--partition", .arg = "P", .in_overview = false},
       },
        {
            {.opt = "--merge", .arg = "DIR", .required = true},
            {.opt = "--hide-names"},
        },
        {
            {.opt = "--from-server", .arg = "DIR", .required = true},
            {.opt = "--exercise", .arg = "NAME", .required = true},
            {.opt = "--out", .arg = "DIR", .required = true},
            {.opt = "--gpus", .arg = "all|LIST"},
            {.opt = "--compile-only"},
            {.opt = "--hide-names"},
        }},
       2,
       "Grades a class on one exercise (reducescope check --list). SUBMISSIONS: a folder of students, each a\n"
       "file NAME.cu or a folder NAME/ holding one .cu file (or the students' files and folders themselves).\n"
       "Each student's `check FILE --exercise NAME --json` runs in a worker process on one GPU; with --gpus all\n"
       "(the default) or a list (0,2) one worker per GPU runs at once, and timing takes each GPU's lock, so the\n"
       "verdicts are those of one at a time. A submission that hangs, faults, traps or does not compile gets its\n"
       "one line and a zero, and the batch goes on. Per student DIR/students/NAME/results.json in Gradescope's\n"
       "format (a test per check, 1 point each and 1 for compiling; leaderboard: GB/s, x the reference, ms) and\n"
       "grade.json; for the class DIR/class.csv and DIR/class.html (pass rate and most common failure per check,\n"
       "the speed leaderboard of passing submissions, names hidden with --hide-names, the distribution of\n"
       "speeds). --compile-only grades compiling alone, without a GPU. Slurm: --shard I/N grades every N-th\n"
       "student from the I-th; --merge DIR writes the class files from the shards' results; --slurm writes\n"
       "DIR/grade.sbatch, a job array of --shards N (default 4) tasks with --gres=gpu:1 each (not with\n"
       "--compile-only), whose last task merges. --from-server DIR grades each student's latest Check of the\n"
       "exercise in `serve --data DIR`'s store (docs/serve.md). Exit: 0 every submission has its verdict, 1 a\n"
       "runtime error.\n"},
      {Command::Serve, "serve", Operands::None,
       {{
           {.opt = "--port", .arg = "P"},
           {.opt = "--roster", .arg = "FILE.csv"},
           {.opt = "--data", .arg = "DIR"},
           {.opt = "--gpus", .arg = "all|LIST"},
           {.opt = "--listen", .arg = "ADDR", .in_overview = false},
           {.opt = "--kernel-timeout", .arg = "S", .in_overview = false},
           {.opt = "--session", .arg = "FILE.rssession", .in_overview = false},
           {.opt = "--run-limit", .arg = "S", .in_overview = false},
           {.opt = "--checker", .arg = "PROGRAM", .in_overview = false},
       }},
       1,
       "Serves the course's page on this machine's GPUs (docs/serve.md): each student opens a private link,\n"
       "writes a kernel in the page's editor and presses Run (compiled with NVRTC, its sums checked against\n"
       "the CPU on a GPU) or Check (the exercise's checks and the profiler's report, as `check --json`); the\n"
       "instructor's link shows the class's latest verdicts, live. --roster FILE.csv: one student a line,\n"
       "\"id,name\" (the ids grade uses); each new person's link is printed once and kept in DIR/links.txt.\n"
       "--data DIR (default ./reducescope-class): the class's store (SQLite), every submission with its\n"
       "source and verdict; a restart loses nothing acknowledged. --gpus all (default: a worker per 4 cores\n"
       "on each GPU, the timed part taking the GPU in turn) or a list of workers' GPUs (0,0,1,1); each run in a\n"
       "worker process of its own; with no GPU, runs compile only. Listens on\n"
       "127.0.0.1 unless --listen ADDR (behind nginx with TLS: docs/serve.md); --port P (default 8471, 0: any).\n"
       "A run's kernel is stopped after --kernel-timeout S (default 5), the whole run after --run-limit S\n"
       "(default 180: NVRTC and compute-sanitizer included). --checker PROGRAM: the reducescope that checks\n"
       "each file (default this one). The instructor's page opens a lesson's questions to the room (peer\n"
       "instruction, docs/room.md), asked of --session's traces (default the bundled H100 session). Stops on\n"
       "Ctrl-C.\n"
       "Exit: 0 stopped, 1 the store, the roster or the port could not be opened, 2 a usage error.\n"},
      {Command::LessonReport, "lesson-report", Operands::Many,
       {{
           {.opt = "ANSWERS.json [ANSWERS.json ...]", .required = true},
           {.opt = "--lesson", .arg = "LESSON.json"},
           {.opt = "--session", .arg = "FILE.rssession"},
           {.opt = "--csv", .arg = "FILE"},
           {.opt = "--html", .arg = "FILE"},
       },
        {
            {.opt = "--from-server", .arg = "DIR", .required = true},
            {.opt = "--lesson", .arg = "LESSON.json"},
            {.opt = "--session", .arg = "FILE.rssession"},
            {.opt = "--csv", .arg = "FILE"},
            {.opt = "--html", .arg = "FILE"},
        }},
       1,
       "Reports a class's Predict-mode answers: the files the page's \"Download my answers\" saves, one per\n"
       "student (the name typed on the page, else the file's name). Per question, in the lesson's order: how\n"
       "many answered, how many were right at the first try, the three most common wrong answers with how\n"
       "many students gave each (the misconception table), and the time taken; then per student. --lesson\n"
       "orders the questions by an instructor's own lesson (a bundled one is found by its name). --csv writes\n"
       "one row per student and a column per question (1: right at the first try); --html writes a page with\n"
       "each question beside its step's picture, drawn from --session (the session the page was exported\n"
       "from). --from-server DIR reads the room's answers from `serve --data DIR` instead (peer instruction,\n"
       "docs/room.md): a question per poll, right at the first try where the first vote was right, the wrong\n"
       "votes as wrong answers. Exit: 0 every file read, 1 a file could not be read (named; the report covers\n"
       "the rest).\n"},
      {Command::New, "new", Operands::One,
       {{
           {.opt = "--from", .arg = "KERNEL", .required = true},
           {.opt = "--wrapped"},
           {.opt = "FILE.cu", .required = true},
       },
        {
            {.opt = "--exercise", .arg = "NAME", .required = true},
            {.opt = "--wrapped"},
            {.opt = "FILE.cu", .required = true},
        }},
       2,
       "Writes a starting file for a kernel of your own: the shipped KERNEL's algorithm as the entry point\n"
       "user_kernel, with a comment block that says what you may change (docs/your-kernel.md); or an\n"
       "exercise's starting file, which says what the exercise asks (`reducescope check --list`).\n"
       "The file is plain CUDA (extern __shared__, plain pointers), traced as compiled by the binary tracer.\n"
       "--wrapped writes the wrapped dialect instead (#include \"reducescope.cuh\", the Probe parameter): the\n"
       "fuller trace, with shuffle values and the order atomics land in.\n"
       "KERNEL: {starters}.\n"
       "Never overwrites: if FILE.cu exists it says so and exits 1.\n"
       "Exit: 0 written, 1 the file exists or cannot be written, 2 a usage error (KERNEL has no starting file).\n"},
      {Command::Verify, "verify", Operands::None,
       {{
           {.opt = "--kernel", .arg = "NAME", .required = true},
           {.opt = "--block-size", .arg = "B"},
           {.opt = "--type", .arg = "int32|float32"},
       },
        {
            {.opt = "--binary", .required = true},
            {.opt = "--kernel", .arg = "NAME", .required = true},
            {.opt = "--block-size", .arg = "B"},
            {.opt = "--type", .arg = "int32|float32"},
            {.opt = "--n", .arg = "N"},
            {.opt = "--out", .arg = "FILE", .in_overview = false},
        },
        {
            {.opt = "--kernel-file", .arg = "FILE.cu", .required = true},
            {.opt = "--block-size", .arg = "B"},
            {.opt = "--type", .arg = "int32|float32"},
            {.opt = "--kernel-timeout", .arg = "S"},
        }},
       2,
       "Shows that the trace is the hardware's: traces one block of the kernel (N = one block's elements,\n"
       "default 256 threads), then runs `reducescope run` of the same launch under Nsight Compute (ncu, on\n"
       "the PATH) and prints each count beside its counter: shared load and store bank conflicts, shuffles,\n"
       "shared and global atomics, global load and store requests and load sectors.\n"
       "With --binary: proof by agreement instead. Block 0 traced twice, by the source probe (the tracing build)\n"
       "and by the binary tracer attached to `reducescope run` (the timing build as compiled, through the Compute\n"
       "Sanitizer API); prints the steps, shared memory after each step, bank conflicts per step, global requests\n"
       "and sectors, shuffles and atomics of both (default N = four blocks; --out keeps the binary trace).\n"
       "Exit: 0 every counter matches (--binary: every figure agrees), 1 one differs, no ncu or no GPU, 2 a usage\n"
       "error.\n"},
      {Command::Check, "check", Operands::One,
       {{
           {.opt = "FILE.cu", .required = true},
           {.opt = "--exercise", .arg = "NAME"},
           {.opt = "--json", .nested = true},
           {.opt = "--compile-only", .in_overview = false},
           {.opt = "--cc", .arg = "N", .nested = true, .in_overview = false},
           {.opt = "--save-compiled", .arg = "FILE", .nested = true, .in_overview = false},
           {.opt = "--kernel-timeout", .arg = "S", .in_overview = false},
           {.opt = "--compiled", .arg = "FILE", .in_overview = false},
           {.opt = "--lang", .arg = "zh|en", .in_overview = false},
       },
        {
            {.opt = "--list", .required = true},
        }},
       2,
       "Compiles your kernel file with NVRTC in both builds, the timing build (rs::NullProbe) and the tracing\n"
       "build (rs::TraceProbe), for int32 and, where it compiles, float32; no GPU needed. Prints OK and the\n"
       "launch shape, or each error as FILE:LINE:COL: error: message. Then running it needs a CUDA GPU: with\n"
       "one, it checks the sum against the CPU at several N and block sizes; without one it says so.\n"
       "With --exercise NAME it then runs the exercise's checks on the GPU, computed from the trace and the\n"
       "timing at several N and block sizes, and prints each with a tick or a cross, its figure and a hint\n"
       "(--json: the same as JSON, for a course's own grader). --list prints the exercises, one name a line.\n"
       "--compile-only stops after NVRTC's verdict (exit 0 compiled, 2 not), touching no GPU; with --cc N it\n"
       "compiles for compute capability N (90: an H100), as check does on such a GPU, and --save-compiled C\n"
       "keeps the result for a later `check FILE --compiled C` on that GPU (grade compiles ahead so).\n"
       "The kernel runs in a worker process: still running after --kernel-timeout S seconds (default 5), it\n"
       "is stopped and the likely causes are named.\n"
       "Exit: 0 compiled (and right on the GPU; every check passed), 1 no GPU, a wrong sum, a failed check,\n"
       "a fault or the time limit, 2 a usage error, a compile error or a file that cannot be compiled\n"
       "(missing, a directory, empty).\n"},
  };
  return table;
}

const CommandSpec* find_command(const std::string& name) {
  if (name.empty()) return nullptr;  // the window has no name to give
  for (const CommandSpec& c : command_table()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

}  // namespace rs::cli
