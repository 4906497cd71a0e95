#include "pitfall_words.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "i18n.hpp"

namespace rs {

namespace {

using i18n::strf;

// "1 hazard", "1032 hazards"
std::string hazards_phrase(long n) { return strf(n == 1 ? _("%ld hazard") : _("%ld hazards"), n); }

}  // namespace

std::string runs_sentence(int wrong, int runs, int distinct, bool surprise) {
  if (surprise) {
    if (distinct < 1) {
      return wrong == 0 ? strf(_("? different sums in %d runs, none outside the float tolerance"), runs)
                        : strf(_("? different sums in %d runs, %d outside the float tolerance"), runs, wrong);
    }
    if (distinct == 1) {
      return wrong == 0 ? strf(_("the same sum in %d runs, none outside the float tolerance"), runs)
                        : strf(_("the same sum in %d runs, %d outside the float tolerance"), runs, wrong);
    }
    return wrong == 0
               ? strf(_("%d different sums in %d runs, none outside the float tolerance"), distinct, runs)
               : strf(_("%d different sums in %d runs, %d outside the float tolerance"), distinct, runs, wrong);
  }
  if (wrong == 0) {
    return distinct == 1
               ? strf(_("right in all %d runs: the bug did not change the sum here, which is what makes it "
                            "dangerous"),
                          runs)
               : strf(_("right in all %d runs (%d sums?): the bug did not change the sum here, which is what "
                            "makes it dangerous"),
                          runs, distinct);
  }
  if (wrong == runs) {
    if (distinct == 1) return strf(_("wrong in all %d runs, always the same wrong sum"), runs);
    if (distinct > 1) return strf(_("wrong in all %d runs, %d different wrong sums"), runs, distinct);
    return strf(_("wrong in all %d runs"), runs);
  }
  if (distinct == 1) return strf(_("wrong in %d of %d runs, %d sum"), wrong, runs, distinct);
  if (distinct > 1) return strf(_("wrong in %d of %d runs, %d different sums"), wrong, runs, distinct);
  return strf(_("wrong in %d of %d runs"), wrong, runs);
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

std::string race_lines_phrase(const std::vector<const SessionRace*>& races) {
  const std::string lines = race_lines(races);
  const bool one = lines.find_first_of("-,") == std::string::npos;
  return strf(one ? _("line %s") : _("lines %s"), lines.c_str());
}

PitfallWords pitfall_words(const Session* session, const KernelInfo& k, unsigned block_size) {
  PitfallWords w;
  w.verdict = strf(k.surprise ? _("NOT WRONG CODE, A SURPRISE: %s.") : _("WRONG CODE on purpose: %s."),
                       k.pitfall ? i18n::tr(k.pitfall) : "");
  w.fix = k.fixed_by ? k.fixed_by : "";
  const SessionMetric* wrong = session ? session->find_metric(k.name, block_size, "wrong_runs") : nullptr;
  if (!wrong) {
    w.missing = strf(_("No recorded results at %u threads (run `reducescope pitfalls --out SESSION` on a GPU)."),
                         block_size);
    return w;
  }
  // wrong_runs' unit is "of 100 runs".
  const int runs = wrong->unit.rfind("of ", 0) == 0 ? std::atoi(wrong->unit.c_str() + 3) : 0;
  const SessionMetric* distinct = session->find_metric(k.name, block_size, "distinct_sums");
  w.results = strf(_("On %s: %s."), session->meta.gpu.c_str(),
                       runs_sentence(static_cast<int>(wrong->value), runs,
                                     distinct ? static_cast<int>(distinct->value) : 0, k.surprise)
                           .c_str());
  w.results_how = wrong->ncu_metric;
  if (const SessionMetric* at = session->find_metric(k.name, block_size, "saturates_at_n"); at && at->value > 0) {
    const auto n = static_cast<unsigned long long>(at->value);
    // One more sentence after the results (the msgids start with the space between the two).
    w.results += session->meta.n < n
                     ? strf(_(" A float32 running sum stops growing at 2^24 = 16777216: on this input from "
                                  "N = %llu on (the session's N is below that, so its sums are right within "
                                  "rounding; the bits view's sum_atomic at N = 2^26 + 3 shows it stuck)."),
                                n)
                     : strf(_(" A float32 running sum stops growing at 2^24 = 16777216: on this input from "
                                  "N = %llu on."),
                                n);
  }
  if (k.surprise) return w;  // atomics in arrival order: no race for racecheck to find
  const SessionMetric* hazards = session->find_metric(k.name, block_size, "racecheck_hazards");
  const std::vector<const SessionRace*> races = session->races_of(k.name, block_size);
  if (!hazards) {
    w.missing = strf(_("racecheck did not run at %u threads (compute-sanitizer was not on the PATH of "
                           "`reducescope pitfalls --out`)."),
                         block_size);
    return w;
  }
  w.races_how = hazards->ncu_metric;
  const long n = static_cast<long>(hazards->value);
  if (races.empty() && n == 0) {
    w.races = strf(_("racecheck found no race in one block of %u threads."), block_size);
  } else if (races.empty()) {
    w.races = strf(_("racecheck: %s (this session was recorded before the races' lines were kept: record it "
                         "again to see them on the source)."),
                       hazards_phrase(n).c_str());
  } else {
    const std::string found = strf(races.size() == 1 ? _("%zu race") : _("%zu races"), races.size());
    w.races = strf(_("racecheck, one block of %u threads: %s on %s (%s), marked on the source and on shared "
                         "memory."),
                       block_size, found.c_str(), race_lines_phrase(races).c_str(), hazards_phrase(n).c_str());
  }
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

std::string describe_race(const SessionRace& r) {
  // racecheck's access kinds, as verbs
  auto verb = [](const std::string& a) { return a == "Write" ? _("writes") : _("reads"); };
  const std::string lines =
      r.first_line == r.second_line
          ? strf(_("line %u %s and %s"), r.first_line, verb(r.first_access), verb(r.second_access))
          : strf(_("line %u %s, line %u %s"), r.first_line, verb(r.first_access), r.second_line,
                     verb(r.second_access));
  const std::string words = strf(r.words.size() == 1 ? _("%zu word (sdata[%s])") : _("%zu words (sdata[%s])"),
                                     r.words.size(), word_ranges(r.words).c_str());
  // "RAW: line 43 writes, line 44 reads: 16 words (sdata[16..31]), 64 hazards"
  return strf(_("%s: %s: %s, %s"), r.kind.c_str(), lines.c_str(), words.c_str(),
                  hazards_phrase(static_cast<long>(r.hazards)).c_str());
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
