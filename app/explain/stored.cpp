// Stored English read back into sentences, and the atomics view's target names (stored.hpp).
#include "stored.hpp"

#include <cctype>
#include <cstdio>
#include <iterator>
#include <sstream>

#include "histogram.hpp"    // bin_label
#include "kernel_info.hpp"  // find_kernel

namespace rs::explain {

namespace {

// The binary trace's notes (tracing/binary/assemble.cpp) and the CUB lines `record --add --binary` adds.
constexpr const char* kNoteType = N_("Values are shown as {0}, the type of the kernel's parameter {1} (--type sets another).");
constexpr const char* kNoteNoType = N_("The kernel's parameters do not say its element type: values are shown as int32 "
                                       "(--type float32 shows them as floats).");
constexpr const char* kNoteShuffles =
    N_("The API gives no shuffle values: the lanes view shows who read from whom, not what.");
constexpr const char* kNoteAtomics = N_("The API gives no atomic's operand, old value or landing order.");
constexpr const char* kNoteOtherGlobal1 =
    N_("{0} global access outside the input and output allocations is not shown.");
// ... as traces recorded before 2026-11-28 evening word it.
constexpr const char* kNoteOtherGlobal1Old =
    N_("{0} global access outside the input and output allocations are not shown.");
constexpr const char* kNoteOtherGlobal = N_("{0} global accesses outside the input and output allocations are not shown.");
constexpr const char* kNoteDropped = N_("The block made {0} events; the buffer held {1}: the trace stops early.");
constexpr const char* kNoteLaunched = N_("Launched by {0} as {1}; the block size is CUB's tuning policy's.");
constexpr const char* kNoteSource = N_("The source file {0} was not found here: the source panel shows the SASS.");
constexpr const char* kNoteNoSource =
    N_("No line info in the binary (build with -lineinfo): the source panel shows the SASS.");
// kernels/multigpu_run.cu
constexpr const char* kMgMethod = N_(
    "nccl-tests' conventions: {0} warm-up calls, {1} timed; CUDA events on every GPU's stream around each call, after "
    "every GPU is idle; the slowest GPU's time counts; median [min .. max]; algbw = bytes / time; busbw = algbw x "
    "2(G-1)/G for the all-reduce. The spread sum: L2 flushed before each call");
constexpr const char* kMgEmulated = N_("EMULATED: {0} virtual GPUs on device 0, no NCCL; times mean nothing");
// app/commands/sweep.cpp
constexpr const char* kSweepMethod = N_(
    "`reducescope bench --csv` at each N: 3 warm-ups, L2 flushed before each sample, CUDA events around the whole "
    "reduction, median; each track's fastest correct kernel over every block size");
// The atomics view's targets.
constexpr const char* kTargetWarpByte = N_("shared warp {0} byte {1}");
constexpr const char* kTargetSharedBin = N_("shared bin {0}");
constexpr const char* kTargetGlobalBin = N_("global bin {0}");
constexpr const char* kTargetShared = N_("shared +{0}");
constexpr const char* kTargetGlobal = N_("global {0}");

// Two runs of a float atomic sum (tracing/two_runs.hpp).
constexpr const char* kTwoRunsPart = N_(
    "Update {0} of this block: run 1 adds {1} to {2} and rounds by {3}; run 2 adds {4} to {5} and rounds by {6}. The "
    "sums part there: float addition is not associative, so each rounding depends on the running value an update "
    "meets, and the order the updates land in comes from the hardware, not from the code.");
constexpr const char* kTwoRunsElsewhere = N_(
    "Every update of this block rounds the same in both runs, yet the sums differ: they part in other blocks' updates, "
    "which the trace does not record (it holds block 0), and the order in which the blocks' updates land.");
constexpr const char* kTwoRunsSame = N_("Every update of this block rounds the same in both runs, and the sums are the same bits.");

constexpr const char* kNotes[] = {kNoteType, kNoteNoType, kNoteShuffles, kNoteAtomics, kNoteOtherGlobal1, kNoteOtherGlobal1Old,
                                  kNoteOtherGlobal, kNoteDropped, kNoteLaunched, kNoteSource, kNoteNoSource};

// Whether `text` from `at` on is `id` from `from` on, with each {k} any non-empty text; the arguments in `args`.
bool match(const std::string& text, size_t at, const std::string& id, size_t from, std::vector<std::string>& args) {
  if (from == id.size()) return at == text.size();
  const bool arg = id[from] == '{' && from + 2 < id.size() && std::isdigit(static_cast<unsigned char>(id[from + 1])) &&
                   id[from + 2] == '}';
  if (!arg) return at < text.size() && text[at] == id[from] && match(text, at + 1, id, from + 1, args);
  const size_t k = static_cast<size_t>(id[from + 1] - '0');
  if (args.size() <= k) args.resize(k + 1);
  for (size_t end = at + 1; end <= text.size(); ++end) {  // the shortest argument that lets the rest match
    args[k] = text.substr(at, end - at);
    if (match(text, end, id, from + 3, args)) return true;
  }
  return false;
}

}  // namespace

std::optional<Sentence> read_back(const std::string& text, const std::vector<const char*>& ids) {
  for (const char* id : ids) {
    std::vector<std::string> args;
    if (!match(text, 0, id, 0, args)) continue;
    Sentence s{id, args, {}};
    if (render(s) == text) return s;
  }
  return std::nullopt;
}

std::vector<Sentence> trace_note_sentences(const std::string& notes) {
  std::vector<Sentence> out;
  std::istringstream in(notes);
  const std::vector<const char*> ids(std::begin(kNotes), std::end(kNotes));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (auto s = read_back(line, ids)) out.push_back(std::move(*s));
    else out.push_back(Sentence{"{0}", {line}, {}});
  }
  return out;
}

std::optional<Sentence> multigpu_method_sentence(const std::string& recorded) {
  return read_back(recorded, {kMgMethod, kMgEmulated});
}

std::optional<Sentence> sweep_method_sentence(const std::string& recorded) { return read_back(recorded, {kSweepMethod}); }

namespace {
std::string g9(double v, bool sign = false) {
  char b[48];
  std::snprintf(b, sizeof b, sign ? "%+.9g" : "%.9g", v);
  return b;
}
}  // namespace

Sentence two_runs_sentence(const TwoRuns& r) {
  if (!r.first_rounding) return {r.results_differ() ? kTwoRunsElsewhere : kTwoRunsSame, {}, {}};
  const size_t i = *r.first_rounding;
  const RunUpdate &x = r.a.updates[i], &y = r.b.updates[i];
  return {kTwoRunsPart,
          {std::to_string(i + 1), g9(x.operand), g9(x.old_value), g9(x.rounding, true), g9(y.operand), g9(y.old_value),
           g9(y.rounding, true)},
          {}};
}

Sentence atomic_target_sentence(const AtomicTarget& t, const TraceMeta& meta) {
  const KernelInfo* k = find_kernel(meta.kernel);
  const bool shared = t.kind == AccessKind::SharedAtomic;
  if (k && k->op == ReduceOp::Histogram && k->warp_bins && shared) {
    // histo_warp: each warp counts byte values (256 words per warp), not bins.
    return {kTargetWarpByte, {std::to_string(t.addr / 4 / 256), bin_label(HistoBins::Bytes256, t.addr / 4 % 256)}, {}};
  }
  if (k && k->op == ReduceOp::Histogram) {
    // The 7 letter bins for the text, 256 byte bins for the random inputs (kernels/histogram.hpp).
    const HistoBins bins = meta.pattern == to_string(HistoInput::Text) ? HistoBins::Letters7 : HistoBins::Bytes256;
    return {shared ? kTargetSharedBin : kTargetGlobalBin, {bin_label(bins, shared ? t.addr / 4 : t.addr)}, {}};
  }
  if (shared) return {kTargetShared, {std::to_string(t.addr)}, {}};
  if (t.space == static_cast<uint8_t>(GlobalBuffer::Output)) {
    if (k && k->finish == Finish::GlobalAtomic && t.addr == 0) return {kTargetGlobal, {"dev_sum"}, {}};
    return {kTargetGlobal, {"output[" + std::to_string(t.addr) + "]"}, {}};
  }
  return {kTargetGlobal, {std::string(to_string(static_cast<GlobalBuffer>(t.space))) + "[" + std::to_string(t.addr) + "]"},
          {}};
}

const std::vector<const char*>& stored_message_ids() {
  static const std::vector<const char*> ids = [] {
    std::vector<const char*> v(std::begin(kNotes), std::end(kNotes));  // the notes' ids, listed once (kNotes)
    v.insert(v.end(), {kMgMethod, kMgEmulated, kTwoRunsPart, kTwoRunsElsewhere, kTwoRunsSame, kSweepMethod,
                       kTargetWarpByte, kTargetSharedBin, kTargetGlobalBin, kTargetShared, kTargetGlobal});
    return v;
  }();
  return ids;
}

}  // namespace rs::explain
