#include "pitfall_words.hpp"

#include <cstdlib>
#include <set>

namespace rs {

std::string runs_sentence(int wrong, int runs, int distinct, bool surprise) {
  const std::string r = std::to_string(runs);
  const std::string d = std::to_string(distinct);
  if (surprise) {
    std::string s = distinct < 1 ? "? different sums" : distinct == 1 ? "the same sum" : d + " different sums";
    s += " in " + r + " runs, ";
    s += wrong == 0 ? "none" : std::to_string(wrong);
    return s + " outside the float tolerance";
  }
  if (wrong == 0) {
    return "right in all " + r + " runs" + (distinct == 1 ? "" : " (" + d + " sums?)") +
           ": the bug did not change the sum here, which is what makes it dangerous";
  }
  if (wrong == runs) {
    if (distinct == 1) return "wrong in all " + r + " runs, always the same wrong sum";
    if (distinct > 1) return "wrong in all " + r + " runs, " + d + " different wrong sums";
    return "wrong in all " + r + " runs";
  }
  return "wrong in " + std::to_string(wrong) + " of " + r + " runs" +
         (distinct > 0 ? ", " + d + (distinct == 1 ? " sum" : " different sums") : std::string());
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
  return (one ? "line " : "lines ") + lines;
}

PitfallWords pitfall_words(const Session* session, const KernelInfo& k, unsigned block_size) {
  PitfallWords w;
  w.verdict = std::string(k.surprise ? "NOT WRONG CODE, A SURPRISE: " : "WRONG CODE on purpose: ") +
              (k.pitfall ? k.pitfall : "") + ".";
  w.fix = k.fixed_by ? k.fixed_by : "";
  const std::string bs = std::to_string(block_size);
  const SessionMetric* wrong = session ? session->find_metric(k.name, block_size, "wrong_runs") : nullptr;
  if (!wrong) {
    w.missing = "No recorded results at " + bs + " threads (run `reducescope pitfalls --out SESSION` on a GPU).";
    return w;
  }
  // wrong_runs' unit is "of 100 runs".
  const int runs = wrong->unit.rfind("of ", 0) == 0 ? std::atoi(wrong->unit.c_str() + 3) : 0;
  const SessionMetric* distinct = session->find_metric(k.name, block_size, "distinct_sums");
  w.results = "On " + session->meta.gpu + ": " +
              runs_sentence(static_cast<int>(wrong->value), runs, distinct ? static_cast<int>(distinct->value) : 0,
                            k.surprise) +
              ".";
  w.results_how = wrong->ncu_metric;
  if (const SessionMetric* at = session->find_metric(k.name, block_size, "saturates_at_n"); at && at->value > 0) {
    const auto n = static_cast<unsigned long long>(at->value);
    w.results += " A float32 running sum stops growing at 2^24 = 16777216: on this input from N = " + std::to_string(n) +
                 " on" + (session->meta.n < n ? " (the session's N is below that, so its sums are right within rounding; "
                                               "the bits view's sum_atomic at N = 2^26 + 3 shows it stuck)."
                                             : ".");
  }
  if (k.surprise) return w;  // atomics in arrival order: no race for racecheck to find
  const SessionMetric* hazards = session->find_metric(k.name, block_size, "racecheck_hazards");
  const std::vector<const SessionRace*> races = session->races_of(k.name, block_size);
  if (!hazards) {
    w.missing = "racecheck did not run at " + bs + " threads (compute-sanitizer was not on the PATH of `reducescope "
                "pitfalls --out`).";
    return w;
  }
  w.races_how = hazards->ncu_metric;
  const long n = static_cast<long>(hazards->value);
  if (races.empty() && n == 0) {
    w.races = "racecheck found no race in one block of " + bs + " threads.";
  } else if (races.empty()) {
    w.races = "racecheck: " + std::to_string(n) + (n == 1 ? " hazard" : " hazards") +
              " (this session was recorded before the races' lines were kept: record it again to see them on the "
              "source).";
  } else {
    w.races = "racecheck, one block of " + bs + " threads: " + std::to_string(races.size()) +
              (races.size() == 1 ? " race" : " races") + " on " + race_lines_phrase(races) + " (" + std::to_string(n) +
              (n == 1 ? " hazard" : " hazards") + "), marked on the source and on shared memory.";
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
  auto verb = [](const std::string& a) { return a == "Write" ? "writes" : "reads"; };
  std::string s = r.kind + ": ";
  if (r.first_line == r.second_line) {
    s += "line " + std::to_string(r.first_line) + " " + verb(r.first_access) + " and " + verb(r.second_access);
  } else {
    s += "line " + std::to_string(r.first_line) + " " + verb(r.first_access) + ", line " +
         std::to_string(r.second_line) + " " + verb(r.second_access);
  }
  s += ": " + std::to_string(r.words.size()) + (r.words.size() == 1 ? " word" : " words") + " (sdata[" +
       word_ranges(r.words) + "]), " + std::to_string(r.hazards) + (r.hazards == 1 ? " hazard" : " hazards");
  return s;
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
