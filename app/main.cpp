// reducescope: the window (no command) and the command-line front end.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "gpu_reduce.hpp"
#include "worker.hpp"
#ifdef REDUCESCOPE_HAS_GUI
#include "gui/gui_app.hpp"
#endif

int main(int argc, char** argv) {
  rs::die_with_parent();  // a worker, or a traced run, of another reducescope: gone when that one goes
  std::vector<std::string> args(argv + 1, argv + argc);
  rs::Options o;
  try {
    o = rs::parse_cli(args);
  } catch (const rs::UsageError& e) {
    std::cerr << "reducescope: " << e.what() << "\nTry 'reducescope --help'.\n";
    return rs::kExitUsage;
  }
  // A user's kernel runs in a worker process with a time limit (app/worker.hpp): this process starts itself again
  // with the same arguments, unless it is that worker.
  const bool user_kernel = (o.command == rs::Command::Check && !o.list && !o.compile_only) ||
                           (!o.kernel_file.empty() && (o.command == rs::Command::Run || o.command == rs::Command::Trace ||
                                                       o.command == rs::Command::Bench || o.command == rs::Command::Record ||
                                                       o.command == rs::Command::Verify));
  if (user_kernel && !rs::become_worker()) return rs::run_in_worker(args, o, std::cout, std::cerr);
  if (!o.kernel_file.empty() && o.command != rs::Command::Gui && o.command != rs::Command::Verify) return rs::run_kernel_file(o, std::cout, std::cerr);
  switch (o.command) {
    case rs::Command::Help:
      std::cout << rs::help_text(o.help_topic);
      return rs::kExitOk;
    case rs::Command::Version:
      std::cout << "reducescope " << rs::kToolVersion << "\n";
      return rs::kExitOk;
    case rs::Command::Bench:
      return rs::run_bench(o, std::cout, std::cerr);
    case rs::Command::Trace:
      return rs::run_trace(o, std::cout, std::cerr);
    case rs::Command::Run:
      return rs::run_once(o, std::cout, std::cerr);
    case rs::Command::Show:
      return rs::run_show(o, std::cout, std::cerr);
    case rs::Command::Record:
      return rs::run_record(o, std::cout, std::cerr);
    case rs::Command::Profile:
      return rs::run_profile(o, std::cout, std::cerr);
    case rs::Command::Export:
      return rs::run_export(o, std::cout, std::cerr);
    case rs::Command::Histogram:
      return rs::run_histogram(o, std::cout, std::cerr);
    case rs::Command::Pitfalls:
      return rs::run_pitfalls(o, std::cout, std::cerr);
    case rs::Command::Grade:
      return rs::run_grade(o, std::cout, std::cerr);
    case rs::Command::Serve:
      return rs::run_serve(o, std::cout, std::cerr);
    case rs::Command::LessonReport:
      return rs::run_lesson_report(o, std::cout, std::cerr);
    case rs::Command::Sweep:
      return rs::run_sweep(o, std::cout, std::cerr);
    case rs::Command::Bits:
      return rs::run_bits(o, std::cout, std::cerr);
    case rs::Command::New:
      return rs::run_new(o, std::cout, std::cerr);
    case rs::Command::Check:
      return rs::run_check(o, std::cout, std::cerr);
    case rs::Command::Verify:
      if (o.binary) return rs::run_verify_binary(o, std::cout, std::cerr);
      return rs::run_verify(o, std::cout, std::cerr);
    case rs::Command::Gui:
#ifdef REDUCESCOPE_HAS_GUI
      return rs::run_gui(o);
#else
      std::cerr << "reducescope: this build has no window (built with REDUCESCOPE_GUI=OFF); "
                   "use bench, trace or show\n";
      return rs::kExitRuntime;
#endif
  }
  return rs::kExitOk;
}
