// The command line as data, internal to the CLI: each option once, with whether it takes a value and
// how that value goes into Options (cli_options.cpp), and each command with the options and operands
// it takes, in the order and form its usage lines show them, and the help text that follows them
// (cli_commands.cpp). parse_cli() and help_text() (cli.cpp) are generated from these two tables: a
// command takes exactly the options its usage lines (and, for the window, its window options) name.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace rs::cli {

// ---- Options (cli_options.cpp) ------------------------------------------------------------------

// A parse in progress: the options so far, and what the option handlers note beside them.
struct Parsing {
  Options o;                 // o.command is set before any option is applied
  bool have_kernel = false;  // one explicit kernel (bench's --kernel all names none)
};

struct OptionSpec {
  const char* flag;    // "--block-size"
  bool takes_value;    // the next argument is its value ("--n 2^24"); else a switch ("--quiet")
  // Checks the value and stores it in p.o (the command is known to take the option). Throws UsageError.
  void (*apply)(Parsing& p, const std::string& value);
};

// Every option but --help, -h and --version, which parse_cli() handles before the table.
const std::vector<OptionSpec>& option_table();
const OptionSpec* find_option(const std::string& flag);  // nullptr: no such option

// The track of wrong code on purpose (kernels/pitfall_kernels.cuh).
inline constexpr const char* kPitfallsTrack = "pitfalls";

// --track's value: one track, or `all`: every track but the pitfalls (asked for by name only).
std::vector<std::string> parse_tracks(const std::string& v);

// Comma-separated names of the kernels `keep` accepts (every kernel by default), for messages.
template <class Keep>
std::string kernel_names(Keep keep) {
  std::string s;
  for (const auto& k : kernel_table()) {
    if (keep(k)) s += (s.empty() ? "" : ", ") + std::string(k.name);
  }
  return s;
}
std::string kernel_names();

// ---- Commands (cli_commands.cpp) ----------------------------------------------------------------

// Where the overview lists a window option: on the window's usage line, or in its two lists.
enum class Section { Usage, Window, Automation };

// An option or an operand as a usage line shows it. An operand's `opt` does not start with '-'.
struct Use {
  const char* opt;                  // "--n"; an operand: "FILE", "BENCH.csv [BENCH.csv ...]"
  const char* arg = nullptr;        // the value's placeholder ("N", "B|all"); nullptr for a switch
  bool required = false;            // "--kernel NAME", not "[--kernel NAME]"
  bool nested = false;              // inside the brackets of the item before: "[--out FILE [--block K]]"
  bool in_overview = true;          // the overview's usage line shows it too
  const char* brief_arg = nullptr;  // the overview's placeholder where it is shorter ("T" for int32|float32)
  Section section = Section::Usage; // the window's options: which of the overview's lists
  const char* note = nullptr;       // the window options list: a word on it, in parentheses
  bool line_break = false;          // the window options list starts a new line here
};

enum class Operands { None, One, Many };  // FILE or SESSION (the first one given), or CSV files

struct CommandSpec {
  Command command;
  const char* name;                    // "" for the window
  Operands operands;
  std::vector<std::vector<Use>> forms; // its usage lines, one per form (export has three)
  size_t overview_forms;               // how many of them the overview lists
  const char* about;                   // the help after the usage lines; "{tracks}", "{kernels}", "{starters}"
                                       // (new's starting files) are filled in
};

// The window first, then the commands in the overview's order.
const std::vector<CommandSpec>& command_table();
const CommandSpec* find_command(const std::string& name);  // a named command; nullptr for "" or unknown

// The overview's words before its usage lines and after the window's options.
extern const char* const kOverviewIntro;
extern const char* const kOverviewEnd;

}  // namespace rs::cli
