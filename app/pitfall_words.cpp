#include "pitfall_words.hpp"

#include <cstdlib>
#include <set>

#include "i18n.hpp"

namespace rs {

namespace {

using explain::Sentence;

// The message ids of this file ({0} ... for the arguments): the window says them through gettext, the page through
// its dictionary (pitfall_message_ids()).
constexpr const char* kHazard = N_("{0} hazard");
constexpr const char* kHazards = N_("{0} hazards");
constexpr const char* kSurpriseUnknownNone = N_("? different sums in {0} runs, none outside the float tolerance");
constexpr const char* kSurpriseUnknownSome = N_("? different sums in {0} runs, {1} outside the float tolerance");
constexpr const char* kSurpriseSameNone = N_("the same sum in {0} runs, none outside the float tolerance");
constexpr const char* kSurpriseSameSome = N_("the same sum in {0} runs, {1} outside the float tolerance");
constexpr const char* kSurpriseManyNone = N_("{0} different sums in {1} runs, none outside the float tolerance");
constexpr const char* kSurpriseManySome = N_("{0} different sums in {1} runs, {2} outside the float tolerance");
constexpr const char* kRightAll =
    N_("right in all {0} runs: the bug did not change the sum here, which is what makes it dangerous");
constexpr const char* kRightAllSums =
    N_("right in all {0} runs ({1} sums?): the bug did not change the sum here, which is what makes it dangerous");
constexpr const char* kWrongAllSame = N_("wrong in all {0} runs, always the same wrong sum");
constexpr const char* kWrongAllMany = N_("wrong in all {0} runs, {1} different wrong sums");
constexpr const char* kWrongAll = N_("wrong in all {0} runs");
constexpr const char* kWrongSomeOne = N_("wrong in {0} of {1} runs, {2} sum");
constexpr const char* kWrongSomeMany = N_("wrong in {0} of {1} runs, {2} different sums");
constexpr const char* kWrongSome = N_("wrong in {0} of {1} runs");
constexpr const char* kLine = N_("line {0}");
constexpr const char* kLines = N_("lines {0}");
constexpr const char* kSurprise = N_("NOT WRONG CODE, A SURPRISE: {0}.");
constexpr const char* kWrongCode = N_("WRONG CODE on purpose: {0}.");
constexpr const char* kNoResults =
    N_("No recorded results at {0} threads (run `reducescope pitfalls --out SESSION` on a GPU).");
constexpr const char* kOn = N_("On {0}: {1}.");
constexpr const char* kSaturatesBelow =
    N_("A float32 running sum stops growing at 2^24 = 16777216: on this input from N = {0} on (the session's N is "
       "below that, so its sums are right within rounding; the bits view's sum_atomic at N = 2^26 + 3 shows it "
       "stuck).");
constexpr const char* kSaturates = N_("A float32 running sum stops growing at 2^24 = 16777216: on this input from N = {0} on.");
constexpr const char* kNoRacecheck = N_("racecheck did not run at {0} threads (compute-sanitizer was not on the PATH of "
                                        "`reducescope pitfalls --out`).");
constexpr const char* kNoRace = N_("racecheck found no race in one block of {0} threads.");
constexpr const char* kRacesUnkept = N_("racecheck: {0} (this session was recorded before the races' lines were kept: "
                                        "record it again to see them on the source).");
constexpr const char* kRace = N_("{0} race");
constexpr const char* kRaces = N_("{0} races");
constexpr const char* kRacesFound = N_("racecheck, one block of {0} threads: {1} on {2} ({3}), marked on the source "
                                       "and on shared memory.");
constexpr const char* kWrites = N_("writes");
constexpr const char* kReads = N_("reads");
constexpr const char* kLineBoth = N_("line {0} {1} and {2}");
constexpr const char* kLineThen = N_("line {0} {1}, line {2} {3}");
constexpr const char* kWord = N_("{0} word (sdata[{1}])");
constexpr const char* kWords = N_("{0} words (sdata[{1}])");
constexpr const char* kRaceSaid = N_("{0}: {1}: {2}, {3}");

std::string num(long long v) { return std::to_string(v); }

Sentence hazards_said(long n) { return {n == 1 ? kHazard : kHazards, {num(n)}, {}}; }

// The window's and the CLI's lookup: gettext in the language in force.
const char* gettext_lookup(const char* id) { return i18n::tr(id); }

std::string said(const Sentence& s) { return explain::render(s, gettext_lookup); }

}  // namespace

explain::Sentence runs_said(int wrong, int runs, int distinct, bool surprise) {
  if (surprise) {
    if (distinct < 1) return wrong == 0 ? Sentence{kSurpriseUnknownNone, {num(runs)}, {}}
                                        : Sentence{kSurpriseUnknownSome, {num(runs), num(wrong)}, {}};
    if (distinct == 1) return wrong == 0 ? Sentence{kSurpriseSameNone, {num(runs)}, {}}
                                         : Sentence{kSurpriseSameSome, {num(runs), num(wrong)}, {}};
    return wrong == 0 ? Sentence{kSurpriseManyNone, {num(distinct), num(runs)}, {}}
                      : Sentence{kSurpriseManySome, {num(distinct), num(runs), num(wrong)}, {}};
  }
  if (wrong == 0) {
    return distinct == 1 ? Sentence{kRightAll, {num(runs)}, {}} : Sentence{kRightAllSums, {num(runs), num(distinct)}, {}};
  }
  if (wrong == runs) {
    if (distinct == 1) return {kWrongAllSame, {num(runs)}, {}};
    if (distinct > 1) return {kWrongAllMany, {num(runs), num(distinct)}, {}};
    return {kWrongAll, {num(runs)}, {}};
  }
  if (distinct == 1) return {kWrongSomeOne, {num(wrong), num(runs), num(distinct)}, {}};
  if (distinct > 1) return {kWrongSomeMany, {num(wrong), num(runs), num(distinct)}, {}};
  return {kWrongSome, {num(wrong), num(runs)}, {}};
}

std::string runs_sentence(int wrong, int runs, int distinct, bool surprise) {
  return said(runs_said(wrong, runs, distinct, surprise));
}

std::string race_lines(const std::vector<const SessionRace*>& races) {
  std::set<uint32_t> lines;
  for (const SessionRace* r : races) {
    lines.insert(r->first_line);
    lines.insert(r->second_line);
  }
  std::string out;
  for (auto it = lines.begin(); it != lines.end();) {
    auto end = it;
    while (std::next(end) != lines.end() && *std::next(end) == *end + 1) ++end;
    if (!out.empty()) out += ", ";
    out += std::to_string(*it);
    if (end != it) out += "-" + std::to_string(*end);
    it = std::next(end);
  }
  return out;
}

explain::Sentence race_lines_said(const std::vector<const SessionRace*>& races) {
  const std::string lines = race_lines(races);
  return {lines.find_first_of("-,") == std::string::npos ? kLine : kLines, {lines}, {}};
}

std::string race_lines_phrase(const std::vector<const SessionRace*>& races) { return said(race_lines_said(races)); }

PitfallSaid pitfall_said(const Session* session, const KernelInfo& k, unsigned block_size) {
  PitfallSaid w;
  w.verdict = Sentence{k.surprise ? kSurprise : kWrongCode, {}, {}}.with(0, Sentence{k.pitfall ? k.pitfall : "", {}, {}});
  w.fix = k.fixed_by ? k.fixed_by : "";
  const SessionMetric* wrong = session ? session->find_metric(k.name, block_size, "wrong_runs") : nullptr;
  if (!wrong) {
    w.missing = Sentence{kNoResults, {num(block_size)}, {}};
    return w;
  }
  // wrong_runs' unit is "of 100 runs".
  const int runs = wrong->unit.rfind("of ", 0) == 0 ? std::atoi(wrong->unit.c_str() + 3) : 0;
  const SessionMetric* distinct = session->find_metric(k.name, block_size, "distinct_sums");
  w.results.push_back(Sentence{kOn, {session->meta.gpu}, {}}.with(
      1, runs_said(static_cast<int>(wrong->value), runs, distinct ? static_cast<int>(distinct->value) : 0, k.surprise)));
  w.results_how = wrong->ncu_metric;
  if (const SessionMetric* at = session->find_metric(k.name, block_size, "saturates_at_n"); at && at->value > 0) {
    const auto n = static_cast<unsigned long long>(at->value);
    w.results.push_back({session->meta.n < n ? kSaturatesBelow : kSaturates, {num(static_cast<long long>(n))}, {}});
  }
  if (k.surprise) return w;  // atomics in arrival order: no race for racecheck to find
  const SessionMetric* hazards = session->find_metric(k.name, block_size, "racecheck_hazards");
  const std::vector<const SessionRace*> races = session->races_of(k.name, block_size);
  if (!hazards) {
    w.missing = Sentence{kNoRacecheck, {num(block_size)}, {}};
    return w;
  }
  w.races_how = hazards->ncu_metric;
  const long n = static_cast<long>(hazards->value);
  if (races.empty() && n == 0) {
    w.races = Sentence{kNoRace, {num(block_size)}, {}};
  } else if (races.empty()) {
    w.races = Sentence{kRacesUnkept, {}, {}}.with(0, hazards_said(n));
  } else {
    w.races = Sentence{kRacesFound, {num(block_size)}, {}}
                  .with(1, Sentence{races.size() == 1 ? kRace : kRaces, {num(static_cast<long long>(races.size()))}, {}})
                  .with(2, race_lines_said(races))
                  .with(3, hazards_said(n));
  }
  return w;
}

PitfallWords pitfall_words(const Session* session, const KernelInfo& k, unsigned block_size) {
  const PitfallSaid s = pitfall_said(session, k, block_size);
  PitfallWords w;
  w.verdict = said(s.verdict);
  for (const Sentence& r : s.results) {
    w.results += (w.results.empty() || i18n::language() == i18n::Lang::Zh ? "" : " ") + said(r);
  }
  w.results_how = s.results_how;
  if (s.races) w.races = said(*s.races);
  w.races_how = s.races_how;
  if (s.missing) w.missing = said(*s.missing);
  w.fix = s.fix;
  return w;
}

std::string word_ranges(const std::vector<uint32_t>& words) {
  std::string out;
  for (size_t i = 0; i < words.size();) {
    size_t j = i;
    while (j + 1 < words.size() && words[j + 1] == words[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(words[i]);
    if (j > i) out += ".." + std::to_string(words[j]);
    i = j + 1;
  }
  return out;
}

explain::Sentence race_said(const SessionRace& r) {
  // racecheck's access kinds, as verbs
  auto verb = [](const std::string& a) { return Sentence{a == "Write" ? kWrites : kReads, {}, {}}; };
  Sentence lines = r.first_line == r.second_line
                       ? Sentence{kLineBoth, {num(r.first_line)}, {}}.with(1, verb(r.first_access)).with(2, verb(r.second_access))
                       : Sentence{kLineThen, {num(r.first_line), "", num(r.second_line)}, {}}
                             .with(1, verb(r.first_access))
                             .with(3, verb(r.second_access));
  // "RAW: line 43 writes, line 44 reads: 16 words (sdata[16..31]), 64 hazards"
  return Sentence{kRaceSaid, {r.kind}, {}}
      .with(1, std::move(lines))
      .with(2, Sentence{r.words.size() == 1 ? kWord : kWords, {num(static_cast<long long>(r.words.size())), word_ranges(r.words)}, {}})
      .with(3, hazards_said(static_cast<long>(r.hazards)));
}

std::string describe_race(const SessionRace& r) { return said(race_said(r)); }

std::vector<const char*> pitfall_message_ids() {
  return {kHazard, kHazards, kSurpriseUnknownNone, kSurpriseUnknownSome, kSurpriseSameNone, kSurpriseSameSome,
          kSurpriseManyNone, kSurpriseManySome, kRightAll, kRightAllSums, kWrongAllSame, kWrongAllMany, kWrongAll,
          kWrongSomeOne, kWrongSomeMany, kWrongSome, kLine, kLines, kSurprise, kWrongCode, kNoResults, kOn,
          kSaturatesBelow, kSaturates, kNoRacecheck, kNoRace, kRacesUnkept, kRace, kRaces, kRacesFound, kWrites,
          kReads, kLineBoth, kLineThen, kWord, kWords, kRaceSaid};
}

int64_t ulps_between(uint32_t bits, uint32_t exact_bits) {
  auto ordered = [](uint32_t b) {
    return (b & 0x80000000u) ? -static_cast<int64_t>(b & 0x7fffffffu) : static_cast<int64_t>(b);
  };
  return ordered(bits) - ordered(exact_bits);
}

std::string ulps_text(uint32_t bits, uint32_t exact_bits) {
  const int64_t d = ulps_between(bits, exact_bits);
  return (d > 0 ? "+" : "") + std::to_string(d) + (d == 1 || d == -1 ? " ulp" : " ulps");
}

}  // namespace rs
