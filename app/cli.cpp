// parse_cli() and help_text(), generated from the tables of options and commands (cli_table.hpp): the
// loop over the arguments takes each option from the option table and checks that the command's entry
// names it; what no single option decides (defaults that depend on the command, options that must
// agree) is checked after the loop. The help prints a command's usage lines from its entry, wrapped
// at kUsageWidth, then its text; the overview prints every command's shorter usage lines.
#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "cli_table.hpp"
#include "multigpu.hpp"
#include "user_kernel.hpp"  // starting_file_names

namespace rs {

namespace {

using cli::CommandSpec;
using cli::Use;

// Usage lines wrap before an option that would pass this column (the longest that fits is
// pitfalls'; trace's, bench's and histogram's wrap onto a second line, aligned after the command).
constexpr size_t kUsageWidth = 109;

// Defaults that depend on the command and the checks across options, after every option is read.
// `topic` is the command's name. Throws UsageError.
void finish(cli::Parsing& p, const std::string& topic) {
  Options& o = p.o;
  const Command cmd = o.command;
  if (o.headless && o.screenshot.empty() && o.frames == 0 && o.reload_saves == 0) {
    throw UsageError("--headless draws no window to close: give it --screenshot FILE.png, --frames F or --reload-bench N");
  }
  if (o.reload_saves && o.kernel_file.empty()) {
    throw UsageError("--reload-bench N needs --kernel-file FILE.cu (the file it saves N times)");
  }
  // A kernel file of the user's: no track, no kernel list.
  if (cmd == Command::New) {
    if (o.from.empty() == o.exercise.empty()) {
      throw UsageError("new needs --from KERNEL (the shipped kernel to start from) or --exercise NAME, not both");
    }
    if (o.file.empty()) throw UsageError("new needs FILE.cu (the kernel file to write)");
    return;
  }
  if (cmd == Command::Check) {
    if (o.list) {
      if (!o.file.empty() || !o.exercise.empty() || o.json) throw UsageError("check --list takes nothing else");
      return;
    }
    if (o.file.empty()) throw UsageError("check needs FILE.cu (the kernel file to compile)");
    if (o.json && o.exercise.empty()) throw UsageError("check --json needs --exercise NAME");
    if ((o.cc || !o.save_compiled.empty()) && !o.compile_only) {
      throw UsageError("check --cc and --save-compiled go with --compile-only (then check --compiled FILE runs it)");
    }
    if (!o.save_compiled.empty() && !o.compiled.empty()) {
      throw UsageError("check --save-compiled compiles the file: it takes no --compiled");
    }
    return;
  }
  if (!o.kernel_file.empty() && cmd != Command::Gui) {
    if (p.have_kernel || o.have_track) {
      throw UsageError("--kernel-file FILE.cu is the kernel: it takes no --kernel or --track");
    }
    if (o.block_sizes.empty()) o.block_sizes.push_back(256);
    if (cmd == Command::Record && o.out.empty()) throw UsageError("record needs --out FILE (the session file to write)");
    return;
  }
  if (cmd == Command::Verify) {
    if (!p.have_kernel) throw UsageError("verify needs --kernel NAME or --kernel-file FILE.cu");
    if (o.block_sizes.empty()) o.block_sizes.push_back(256);
    if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(why->say());
    return;
  }
  if (o.tracks == std::vector<std::string>{kMultiGpuTrack}) {
    if (cmd != Command::Bench && cmd != Command::Record) {
      throw UsageError(std::string("the ") + kMultiGpuTrack + " track has no kernels to " + topic +
                       ": use `reducescope bench --track multigpu` or `record --track multigpu`");
    }
    if (p.have_kernel) throw UsageError("--kernel: the multigpu track measures NCCL, the ring and the naive way, not a kernel");
    if (cmd == Command::Record && o.out.empty()) throw UsageError("record needs --out FILE (the session file to write)");
    return;
  }
  // Tracks: --track, else the explicit kernel's track, else every track. An explicit kernel must
  // belong to an explicit track (names are unique across tracks).
  if (o.tracks.empty()) {
    if (p.have_kernel) {
      o.tracks.push_back(kernel_info(o.kernels[0]).track);
    } else {
      o.tracks = cli::parse_tracks("all");  // the pitfalls only by name
    }
  }
  if (p.have_kernel && o.have_track) {
    const std::string kt = kernel_info(o.kernels[0]).track;
    bool in = false;
    for (const auto& t : o.tracks) in = in || t == kt;
    if (!in) {
      throw UsageError("--kernel " + std::string(kernel_info(o.kernels[0]).name) + " belongs to the track " + kt +
                       ", not " + o.tracks[0]);
    }
  }
  if (o.gpus || !o.mg_sizes.empty()) throw UsageError("--gpus and --sizes belong to --track multigpu");
  if (cmd == Command::Profile) {
    if (!o.have_track) o.tracks = {"book"};
    if (o.tracks != std::vector<std::string>{"book"}) {
      throw UsageError("profile measures the book track's metrics (--track book); the other tracks have none yet");
    }
  }
  if (!p.have_kernel && o.library.empty() && (cmd == Command::Bench || cmd == Command::Record || (o.have_track && cmd != Command::Gui) ||
                       cmd == Command::Profile)) {
    for (const auto& t : o.tracks) {
      for (KernelId k : track_kernels(t)) {
        // The histograms are no reductions: `bench`, `run` and `trace` leave them to `histogram`.
        if (kernel_info(k).op == ReduceOp::Histogram && cmd != Command::Record && cmd != Command::Gui) continue;
        o.kernels.push_back(k);
      }
    }
  }
  if (p.have_kernel && kernel_info(o.kernels[0]).op == ReduceOp::Histogram &&
      (cmd == Command::Bench || cmd == Command::Trace || cmd == Command::Run)) {
    const char* k = kernel_info(o.kernels[0]).name;
    throw UsageError(std::string(k) + " is a histogram, not a reduction: use `reducescope histogram --kernel " + k +
                     "` (with --out FILE for a trace)");
  }
  if (o.have_type && o.kernels.size() == 1) {
    bool any = false;
    for (DType t : o.dtypes) any = any || kernel_info(o.kernels[0]).takes(t);
    if (!any) throw UsageError(dtype_problem(o.kernels[0], o.dtypes[0])->say());
  }

  switch (cmd) {
    case Command::Bench:
      // One explicit kernel at one explicit block size it cannot take: say why, as a usage error (in a list of
      // block sizes, bench skips the ones it cannot take, saying why, as with --block-size all).
      if (o.kernels.size() == 1 && o.have_block_size && !o.block_sizes_all && o.block_sizes.size() == 1) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(why->say());
      }
      break;
    case Command::Trace:
    case Command::Run:
      if (!o.cub.empty()) {  // run --cub: the library's own launches, at the library's block sizes
        if (p.have_kernel || o.have_track || o.have_block_size || !o.kernel_file.empty()) {
          throw UsageError("run --cub runs the library alone: leave out --kernel, --track, --block-size and "
                           "--kernel-file (CUB picks its own block size)");
        }
        if (o.cub == "histogram" && (o.have_type || o.have_pattern)) {
          throw UsageError("run --cub histogram counts the course's text (bytes): leave out --type and --pattern");
        }
        break;
      }
      if (o.kernels.empty()) {
        throw UsageError(topic + " needs --kernel NAME or --track T (kernels: " + cli::kernel_names() + ")");
      }
      if (!o.have_block_size) throw UsageError(topic + " needs --block-size B (32, 64, ..., 1024)");
      if (p.have_kernel) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(why->say());
      }
      break;
    case Command::Show:
      if (o.file.empty()) throw UsageError("show needs a trace or session FILE");
      break;
    case Command::Record:
      if (o.out.empty()) throw UsageError("record needs --out FILE (the session file to write)");
      if (o.two_runs && (o.binary || o.dtypes != std::vector<DType>{DType::Float32})) {
        throw UsageError("record --two-runs takes float32 traces by the source probe: give --type float32 (and no "
                         "--binary)");
      }
      if (!o.library.empty() && (!o.binary || !o.add)) {
        throw UsageError("--kernel " + o.library + " is a library's kernel: only the binary tracer sees it, so record "
                         "it into a session with --add --binary (it runs through `reducescope run --cub`)");
      }
      break;
    case Command::Profile:
      if (o.file.empty()) throw UsageError("profile needs a SESSION file to write the metrics into (from `reducescope record`)");
      break;
    case Command::Grade:
      if (o.merge.empty() && o.csv_files.empty() && o.from_server.empty()) {
        throw UsageError("grade needs the submissions (a folder of students, or their files and folders), or --merge DIR");
      }
      if (o.merge.empty() && o.exercise.empty()) throw UsageError("grade needs --exercise NAME (reducescope check --list)");
      if (o.merge.empty() && o.out.empty()) throw UsageError("grade needs --out DIR (where the results go)");
      break;
    case Command::Serve:
      if (o.out.empty()) o.out = "reducescope-class";
      break;
    case Command::LessonReport:
      if (o.csv_files.empty() && o.from_server.empty()) {
        throw UsageError("lesson-report needs one or more answers files (the page's Download my answers), or "
                         "--from-server DIR (serve's store)");
      }
      break;
    case Command::Sweep:
      if (o.csv_files.empty()) throw UsageError("sweep needs one or more CSV files (from `reducescope bench --csv` at several N)");
      if (o.out.empty()) throw UsageError("sweep needs --out SESSION (the session to store the sweep in)");
      break;
    case Command::Pitfalls:
      if (o.block_sizes.empty()) o.block_sizes = {256};
      if (!p.have_kernel) o.kernels = track_kernels(cli::kPitfallsTrack);
      else if (!kernel_info(o.kernels[0]).pitfall) {
        throw UsageError(std::string("--kernel: ") + kernel_info(o.kernels[0]).name +
                         " is not a pitfall (the pitfalls track: " +
                         cli::kernel_names([](const KernelInfo& k) { return k.pitfall != nullptr; }) + ")");
      }
      break;
    case Command::Bits:
      // Every float32 sum (the float-atomic surprise too), at every block size it takes.
      if (!p.have_kernel) {
        o.kernels.clear();
        for (const auto& k : kernel_table()) {
          if (k.takes(DType::Float32) && k.op == ReduceOp::Sum) o.kernels.push_back(k.id);
        }
      } else if (!kernel_info(o.kernels[0]).takes(DType::Float32) || kernel_info(o.kernels[0]).op != ReduceOp::Sum) {
        throw UsageError(std::string("--kernel: ") + kernel_info(o.kernels[0]).name + " adds no float32 (bits looks at float sums)");
      }
      if (!o.have_runs) o.runs = 20;
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
      if (p.have_kernel && o.have_block_size) {
        if (auto why = block_size_problem(o.kernels[0], o.block_sizes[0])) throw UsageError(why->say());
      }
      break;
    default:
      break;
  }
}

// True if a usage line of `c` names `flag`.
bool takes(const CommandSpec& c, const std::string& flag) {
  for (const auto& form : c.forms) {
    for (const Use& u : form) {
      if (flag == u.opt) return true;
    }
  }
  return false;
}

// "[--n N]", "--kernel NAME", "FILE"; `brief`: as the overview shows it.
std::string usage_item(const Use& u, bool brief) {
  std::string s = u.opt;
  const char* arg = brief && u.brief_arg ? u.brief_arg : u.arg;
  if (arg) s += std::string(" ") + arg;
  return u.required ? s : "[" + s + "]";
}

// One form of `c` as usage lines, the first starting with `lead` ("usage: " or its width in spaces).
std::string usage_lines(const char* lead, const CommandSpec& c, const std::vector<Use>& form, bool brief) {
  std::string head = std::string(lead) + "reducescope";
  if (c.name[0]) head += std::string(" ") + c.name;
  const std::string indent(head.size() + 1, ' ');
  std::vector<std::string> items;
  for (const Use& u : form) {
    if (u.section != cli::Section::Usage || (brief && !u.in_overview)) continue;
    if (u.nested && !items.empty()) {  // inside the brackets of the item before
      std::string& outer = items.back();
      outer.pop_back();  // its ']'
      outer += ' ';
      outer += usage_item(u, brief);
      outer += ']';
    } else {
      items.push_back(usage_item(u, brief));
    }
  }
  std::string out, line = head;
  for (const std::string& item : items) {
    if (line.size() + 1 + item.size() > kUsageWidth && line != head) {
      out += line + "\n";
      line = indent + item;
    } else {
      line += " " + item;
    }
  }
  return out + line + "\n";
}

// The help text after the usage lines, with the registry's names filled in.
std::string about(const CommandSpec& c) {
  std::string s = c.about;
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{tracks}", track_names()},
                                   std::pair<std::string, std::string>{"{kernels}", cli::kernel_names()},
                                   std::pair<std::string, std::string>{"{starters}", starting_file_names()}}) {
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size())) {
      s.replace(at, key.size(), value);
    }
  }
  return s;
}

// The overview's lists of the window's options: "Window options: --compare K[:B] (side B: ...), ...".
std::string window_options(const CommandSpec& gui) {
  std::string options = "Window options: ", automation = "Window automation: ";
  bool first_option = true, first_automation = true;
  for (const Use& u : gui.forms[0]) {
    if (u.section == cli::Section::Window) {
      if (!first_option) options += u.line_break ? ",\n  " : ", ";
      options += std::string(u.opt) + (u.arg ? std::string(" ") + u.arg : "") +
                 (u.note ? std::string(" (") + u.note + ")" : "");
      first_option = false;
    } else if (u.section == cli::Section::Automation) {
      if (!first_automation) automation += ' ';
      automation += usage_item(u, false);
      first_automation = false;
    }
  }
  return options + ".\n" + automation + ".\n";
}

}  // namespace

std::string help_text(const std::string& topic) {
  if (const CommandSpec* c = cli::find_command(topic)) {
    std::string s;
    for (const auto& form : c->forms) s += usage_lines(s.empty() ? "usage: " : "       ", *c, form, false);
    return s + about(*c);
  }
  const auto& table = cli::command_table();
  const CommandSpec& gui = table.front();
  std::string s = std::string(cli::kOverviewIntro) + "\n";
  for (const CommandSpec& c : table) {
    for (size_t f = 0; f < c.overview_forms; ++f) s += usage_lines(&c == &gui ? "usage: " : "       ", c, c.forms[f], true);
    // Any program, as compiled (parse_attach: the form after `--` is not one of the table's).
    if (c.command == Command::Trace) s += "       reducescope trace --kernel NAME [--launch K] --out FILE -- PROGRAM ARGS\n";
  }
  s += "       reducescope COMMAND --help | --version\n\n";
  return s + about(gui) + window_options(gui) + cli::kOverviewEnd;
}

namespace {

// `trace [options] -- PROGRAM ARGS`: the binary tracer's options (before --) and the program (after).
Options parse_attach(const std::vector<std::string>& args, size_t i, size_t dashes) {
  Options o;
  o.command = Command::Trace;
  o.program.assign(args.begin() + static_cast<std::ptrdiff_t>(dashes) + 1, args.end());
  if (o.program.empty()) throw UsageError("trace: no program after --");
  for (; i < dashes; ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= dashes) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--kernel") {
      o.attach_kernel = value();
      if (o.attach_kernel.empty()) throw UsageError("--kernel: the name is empty");
    } else if (a == "--launch") {
      const std::string& v = value();
      char* end = nullptr;
      const unsigned long k = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || k == 0 || k > 1000000) throw UsageError("--launch: '" + v + "' is not a launch number (1, 2, ...)");
      o.launch = static_cast<uint32_t>(k);
    } else if (a == "--block") {
      o.block_index = value();
      const std::string& v = o.block_index;
      int commas = 0;
      bool ok = !v.empty() && v.front() != ',' && v.back() != ',';
      for (char ch : v) {
        if (ch == ',') ++commas;
        else if (ch < '0' || ch > '9') ok = false;
      }
      if (!ok || (commas != 0 && commas != 2) || v.find(",,") != std::string::npos) {
        throw UsageError("--block: '" + v + "' is not a block index (X or X,Y,Z)");
      }
    } else if (a == "--out") {
      o.out = value();
    } else if (a == "--type") {
      const std::string& v = value();
      if (v == "int32") o.dtypes = {DType::Int32};
      else if (v == "float32") o.dtypes = {DType::Float32};
      else throw UsageError("--type: '" + v + "' is not int32 or float32");
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      throw UsageError(a + " is not an option of `reducescope trace -- PROGRAM` (--kernel, --launch, --block, --out, --type, --quiet)");
    }
  }
  if (o.attach_kernel.empty()) throw UsageError("trace -- PROGRAM: --kernel NAME is required (text of the kernel's name)");
  if (o.out.empty()) throw UsageError("trace -- PROGRAM: --out FILE.rstrace is required");
  return o;
}

}  // namespace

namespace {

// Edit distance (insertions, deletions, substitutions) between a and b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// A first argument that reads as a command word (letters, digits, '-' and '_', starting with a letter), not a file.
bool looks_like_command(const std::string& a) {
  if (a.empty() || !std::isalpha(static_cast<unsigned char>(a[0]))) return false;
  for (char c : a) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  std::error_code ec;
  return !std::filesystem::exists(a, ec);
}

// "unknown command 'tarce'; the nearest is 'trace' (...)": the command nearest by edit distance.
UsageError unknown_command(const std::string& word) {
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const CommandSpec& c : cli::command_table()) {
    if (!*c.name) continue;
    const size_t d = edit_distance(word, c.name);
    if (d < best_d) best_d = d, best = c.name;
  }
  return UsageError("unknown command '" + word + "'; the nearest is '" + best +
                    "' (the window opens a FILE only where it exists)");
}

}  // namespace

Options parse_cli(const std::vector<std::string>& args) {
  cli::Parsing p;
  Options& o = p.o;
  size_t i = 0;
  const CommandSpec* spec = &cli::command_table().front();  // the window
  if (!args.empty()) {
    if (args[0] == "help") {
      if (args.size() > 1 && !cli::find_command(args[1])) throw unknown_command(args[1]);
      o.command = Command::Help;
      o.help_topic = args.size() > 1 ? args[1] : "";
      return o;
    }
    if (const CommandSpec* c = cli::find_command(args[0])) {
      spec = c, i = 1;
    } else if (looks_like_command(args[0])) {
      // `reducescope frobnicate` used to try to open a window on a file of that name (issue 38, item 6).
      throw unknown_command(args[0]);
    }
  }
  o.command = spec->command;
  const std::string topic = spec->name;
  if (o.command == Command::Trace) {
    for (size_t j = i; j < args.size(); ++j) {
      if (args[j] == "--") return parse_attach(args, i, j);
    }
  }
  // --help anywhere wins, so `reducescope bench --n x --help` still helps.
  for (size_t j = i; j < args.size(); ++j) {
    if (args[j] == "--help" || args[j] == "-h") {
      o.command = Command::Help;
      o.help_topic = topic;
      return o;
    }
  }
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--version") {
      o.command = Command::Version;
      return o;
    }
    if (const cli::OptionSpec* opt = cli::find_option(a)) {
      if (!takes(*spec, a)) {
        throw UsageError(a + " is not an option of " +
                         (topic.empty() ? std::string("the window") : "`reducescope " + topic + "`"));
      }
      std::string value;
      if (opt->takes_value) {
        if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
        value = args[++i];
      }
      opt->apply(p, value);
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option " + a);
    } else if (spec->operands == cli::Operands::Many) {
      o.csv_files.push_back(a);
    } else if (spec->operands == cli::Operands::One && o.file.empty()) {
      o.file = a;
    } else {
      throw UsageError("unexpected argument '" + a + "'");
    }
  }
  finish(p, topic);
  return o;
}

}  // namespace rs
