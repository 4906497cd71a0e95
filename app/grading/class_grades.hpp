// `reducescope grade` (issue 40): a course's grading of one exercise over a class's submissions, on every GPU of the
// machine at once or sharded over a Slurm array; per student Gradescope's results.json, for the class a CSV and a page.
//
// Plain C++ (no CUDA): the command (app/commands/grade.cpp) runs each student's `reducescope check FILE --exercise NAME
// --json` in a worker process (app/worker.hpp) on one GPU (CUDA_VISIBLE_DEVICES) and hands its outcome here.
//
// Layout of --out DIR:
//   DIR/students/NAME/grade.json     this file's record of the student's outcome (read back by --merge)
//   DIR/students/NAME/results.json   Gradescope's format (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
//                                    "score", "tests" [{"name", "score", "max_score", "output", "visibility"}],
//                                    "leaderboard" [{"name", "value", "order"}], "output"
//   DIR/class.csv, DIR/class.html    the class: written by a whole run, and by --merge after a sharded one
//
// Index
//   Submission, find_submissions(), shard_of()   who is graded, from a folder of students
//   Outcome, GradeResult                         one student's outcome
//   grade_from_check()                           the outcome from check's exit and output
//   gradescope_results(), grade_record(), parse_grade_record()
//   class_csv(), class_html()                    the class
//   slurm_script()                               the sbatch array script of `grade --slurm`
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "charts.hpp"  // Roofline (a plain struct: no cairo here)
#include "check_record.hpp"  // ExerciseCheck

namespace rs {

// One student's submission: a file NAME.cu, or a folder NAME/ holding one .cu file.
struct Submission {
  std::string student;   // NAME
  std::string file;      // the kernel file; "" where `problem` says why there is none
  std::string problem;   // "no .cu file in alice/", "2 .cu files in bob/ (a.cu, b.cu): keep one"
};

class GradeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The submissions under `paths`: each path a student's file or folder, or one folder of students (its .cu files and
// folders, by name). Throws GradeError for a path that does not exist. Sorted by student; a name given twice is an
// error (GradeError).
std::vector<Submission> find_submissions(const std::vector<std::string>& paths);

// Shard `i` of `n` (1-based, as Slurm's array task ids): every n-th submission from the i-th, so that each student is
// in exactly one shard. Throws GradeError unless 1 <= i <= n.
std::vector<Submission> shard_of(const std::vector<Submission>& all, int i, int n);
// Parses "I/N". Throws GradeError.
std::pair<int, int> parse_shard(const std::string& text);

enum class Outcome {
  Graded,        // check ran: its checks are the tests (passed or not)
  Compiled,      // --compile-only: NVRTC compiled it
  CompileError,  // NVRTC refused it, or it cannot be compiled (a host file, an include outside the toolkit)
  TimedOut,      // a kernel ran past the time limit and was stopped
  Crashed,       // the worker died of a signal, or a CUDA fault or trap ended it
  NoFile,        // Submission::problem
};
const char* to_string(Outcome o);  // "graded", "compiled", "compile error", "time limit", "crashed", "no file"


struct GradeResult {
  std::string student, file, exercise;
  Outcome outcome = Outcome::NoFile;
  std::string line;       // one line for people: "7 of 8 checks passed", "does not compile: k.cu:12:3: error: ..."
  std::string output;     // what check printed (diagnostics, the worker's message), for the student
  std::vector<ExerciseCheck> checks;  // Graded: check's checks, in order (not run: no points either way)
  bool has_timing = false;
  double gbps = 0, x_reference = 0, user_ms = 0, reference_ms = 0;  // check --json's "timing"
  std::string reference_kernel;
  std::string report;     // check --json's "report" (the profiler's report), as JSON text; "" where none
  int gpu = -1;           // the GPU it ran on (its index on this machine); -1: none
  double seconds = 0;     // wall time of its check
  // The score: 1 point for compiling, 1 for each check passed.
  int score() const;
  int max_score() const;
  bool passed() const { return score() == max_score() && outcome != Outcome::NoFile; }
};

// The outcome of a check worker: `exit_code` and its stdout / stderr; `stopped` non-empty where the worker was stopped
// at the time limit or died of a signal (its message). `compile_only`: check --compile-only ran.
GradeResult grade_from_check(const Submission& s, const std::string& exercise, bool compile_only, int exit_code,
                             const std::string& out, const std::string& err, const std::string& stopped,
                             bool timed_out);

// The student's roofline-style chart (export_roofline, app/export/charts.hpp): the input's bytes against the median
// time of the submission and of the exercise's reference kernel, with the copy ceiling measured in the same run.
// nullopt without a report or a timing.
std::optional<Roofline> roofline_of(const GradeResult& r);
// The student's page: the checks, the report and, with `chart`, the roofline chart written beside it
// (roofline.{svg,png,pdf,csv}, export_roofline()).
std::string submission_html(const GradeResult& r, bool chart);
// Gradescope's results.json for one student.
std::string gradescope_results(const GradeResult& r);
// The record merge reads back (grade.json), and back. parse_grade_record throws GradeError naming `where`.
std::string grade_record(const GradeResult& r);
GradeResult parse_grade_record(const std::string& json, const std::string& where);

// The class as CSV: one row per student (student, file, outcome, score, max_score, each check's pass as 1/0, GB/s,
// x reference, gpu, seconds, line).
std::string class_csv(const std::vector<GradeResult>& rs);
// The class's page: the pass rate of each check and its most common failure (the figure most failing students got),
// the outcomes, the speed leaderboard of the submissions that passed every check (names replaced by "student 1..."
// with hide_names) and the distribution of their speeds (GB/s).
std::string class_html(const std::vector<GradeResult>& rs, const std::string& exercise, bool hide_names);

struct SlurmOptions {
  std::string reducescope;             // the executable, absolute
  std::vector<std::string> submissions;
  std::string exercise, out;           // out: absolute
  int shards = 4;
  bool compile_only = false;           // no --gres=gpu:1
  double kernel_timeout_s = 0;         // 0: check's default
  std::string partition;               // "" : the cluster's default
};
// An sbatch script: a job array of `shards` tasks, each `grade ... --shard $SLURM_ARRAY_TASK_ID/N` on one GPU
// (--gres=gpu:1), writing into `out`; then `grade --merge out` makes the class files.
std::string slurm_script(const SlurmOptions& o);

}  // namespace rs
