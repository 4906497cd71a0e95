// The command-line front end's commands. Each returns an exit code (cli.hpp) and writes its
// report to `out` and its one-line errors to `err`.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gpu_reduce.hpp"
#include "replay.hpp"
#include "session.hpp"
#include "session_rows.hpp"  // timing_method, session_meta, to_session_timing, to_timing

namespace rs {

int run_bench(const Options& o, std::ostream& out, std::ostream& err);
int run_trace(const Options& o, std::ostream& out, std::ostream& err);
// trace ... -- PROGRAM ARGS (app/commands/attach.cpp): block o.block_index of launch o.launch of the kernel
// whose name contains o.attach_kernel, recorded by the binary tracer into o.out. Exit: the program's own code
// once traced; 1 when nothing was traced (no match: the kernels that launched are listed; no GPU; no
// Sanitizer API).
int run_attach(const Options& o, std::ostream& out, std::ostream& err);
int run_once(const Options& o, std::ostream& out, std::ostream& err);
int run_show(const Options& o, std::ostream& out, std::ostream& err);
int run_record(const Options& o, std::ostream& out, std::ostream& err);
int run_export(const Options& o, std::ostream& out, std::ostream& err);
// Measures the book's nvprof metrics with ncu (on the PATH) and writes them into o.file (a session).
int run_profile(const Options& o, std::ostream& out, std::ostream& err);
// The course track's histograms against cub::DeviceHistogram (reducescope histogram --help).
int run_histogram(const Options& o, std::ostream& out, std::ostream& err);
// The pitfalls track's wrong kernels, each run o.runs times: how often the sum is wrong.
int run_pitfalls(const Options& o, std::ostream& out, std::ostream& err);
// The bits view: every float32 sum at every block size, o.runs times; its distinct bit patterns.
int run_bits(const Options& o, std::ostream& out, std::ostream& err);
// Stores the N sweep from o.csv_files (`bench --csv` rows) into the session o.out, and the launch counts of
// its timings that have none from the rows at the session's N.
int run_sweep(const Options& o, std::ostream& out, std::ostream& err);

// grade SUBMISSIONS --exercise NAME --out DIR (app/commands/grade.cpp, app/grading/class_grades.hpp): each student's check on every
// GPU at once (or --compile-only), per student Gradescope's results.json, for the class class.csv and class.html;
// --shard I/N, --merge DIR, --slurm. Exit: 0 every submission has its verdict (failing ones included), 1 a runtime
// error (no GPU without --compile-only, a folder that cannot be written), 2 a usage error.
int run_grade(const Options& o, std::ostream& out, std::ostream& err);
// serve (app/commands/serve.cpp over app/serve/server.hpp): the course's page live on this machine's GPUs. Exit: 0
// stopped by a signal, 1 the store, the roster, the GPUs or the port could not be opened.
int run_serve(const Options& o, std::ostream& out, std::ostream& err);
// lesson-report ANSWERS.json... (app/commands/lesson_report.cpp, app/lessons/class_answers.hpp): a class's Predict-mode answers,
// per question and per student; --csv FILE, --html FILE. Exit: 0 every file read, 1 a file could not be read (named;
// the report covers the rest) or an output could not be written.
int run_lesson_report(const Options& o, std::ostream& out, std::ostream& err);

// Writes the starting file of o.from (kernels/user/) to o.file; never overwrites (app/commands/new.cpp).
int run_new(const Options& o, std::ostream& out, std::ostream& err);
// Compiles the kernel file o.file in both builds with NVRTC, then checks its sums on the GPU
// (app/commands/check.cpp). Exit: 0 compiled (and right on the GPU), 1 no GPU or a wrong sum, 2 a compile
// error or a file that cannot be compiled.
int run_check(const Options& o, std::ostream& out, std::ostream& err);

// The trace's counts against Nsight Compute's on a 1-block launch of --kernel or --kernel-file (app/commands/verify.cpp).
int run_verify(const Options& o, std::ostream& out, std::ostream& err);
// verify --binary (app/commands/verify_binary.cpp): the source probe's trace of block 0 against the binary tracer's
// of the same launch of the timing build (tracing/binary/proof.hpp). Exit: 0 they agree, 1 a figure differs or no
// GPU / binary tracer.
int run_verify_binary(const Options& o, std::ostream& out, std::ostream& err);
// run, trace, bench and record --kernel-file FILE.cu (app/commands/kernel_file.cpp): the user's kernel in place of
// a shipped one; record stores its source, timings and traces (track "yours") in o.out.
int run_kernel_file(const Options& o, std::ostream& out, std::ostream& err);
// The command line `args` (argv[1..]) run again in a worker process (app/worker.hpp) with the time limit
// o.kernel_timeout_s: its output copied here, its exit code returned; a kernel stopped at the limit or a worker
// that dies is reported on `err` (exit 1), and a CUDA fault is followed by compute-sanitizer's first report
// when compute-sanitizer is on the PATH.
int run_in_worker(const std::vector<std::string>& args, const Options& o, std::ostream& out, std::ostream& err);

// bench / record --track multigpu (app/commands/multigpu.cpp): measures, prints the tables, and with `record`
// stores the recording in o.out (a new session, or with --add the existing one).
int run_multigpu(const Options& o, bool record, std::ostream& out, std::ostream& err);
// The tables `bench --track multigpu` and `show` print for a multi-GPU recording.
std::string summarize_multigpu(const SessionMultiGpu& m);

// The summary `reducescope show` prints for a loaded trace (also used by `trace`).
std::string summarize_trace(const Trace& trace, const Replay& replay);
// The summary `reducescope show` prints for a session: GPU, date, input, method, Harris's
// table per block size, and the traces it holds.
std::string summarize_session(const Session& s);

}  // namespace rs
