#include "racecheck.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace rs {

namespace {

struct End {
  std::string access, file;
  uint32_t line = 0;
};

// "    Write Thread (16,0,0) at rs::f(...)+0x2e0 in pitfall_kernels.cuh:43" -> Write, pitfall_kernels.cuh, 43.
bool read_end(const std::string& line, End& e) {
  static const std::regex re(R"((Read|Write) Thread \([0-9, ]+\) at .* in ([^ :]+):([0-9]+)\s*$)");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return false;
  e.access = m[1];
  e.file = m[2];
  const size_t slash = e.file.find_last_of('/');
  if (slash != std::string::npos) e.file = e.file.substr(slash + 1);
  e.line = static_cast<uint32_t>(std::strtoul(m[3].str().c_str(), nullptr, 10));
  return true;
}

}  // namespace

RacecheckReport parse_racecheck(const std::string& text, const std::string& kernel, uint32_t block_size,
                                uint32_t reserved_bytes) {
  static const std::regex head(
      R"(Potential (RAW|WAR|WAW) hazard detected at __shared__ (0x[0-9a-fA-F]+) in block \(([0-9]+),([0-9]+),([0-9]+)\))");
  static const std::regex summary(R"(RACECHECK SUMMARY: ([0-9]+) hazards?)");
  RacecheckReport out;
  bool have_summary = false;
  using Key = std::tuple<std::string, std::string, std::string, uint32_t, std::string, uint32_t>;
  std::map<Key, size_t> index;          // -> out.races
  std::vector<std::set<uint32_t>> words;  // per race
  std::istringstream in(text);
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::smatch m;
    if (std::regex_search(line, m, summary)) {
      out.hazards_total = static_cast<uint32_t>(std::strtoul(m[1].str().c_str(), nullptr, 10));
      have_summary = true;
      continue;
    }
    if (!std::regex_search(line, m, head)) continue;
    const std::string kind = m[1];
    const unsigned long addr = std::strtoul(m[2].str().c_str(), nullptr, 16);
    const bool block0 = m[3] == "0" && m[4] == "0" && m[5] == "0";
    End first, second;
    std::string l1, l2;
    if (!std::getline(in, l1) || !std::getline(in, l2) || !read_end(l1, first) || !read_end(l2, second)) {
      throw RacecheckError("racecheck's hazard at line " + std::to_string(line_no) +
                           " of its output does not name its two accesses (file:line)");
    }
    line_no += 2;
    if (!block0 || addr < reserved_bytes) continue;
    const Key key{kind, first.file, first.access, first.line, second.access, second.line};
    auto [it, fresh] = index.emplace(key, out.races.size());
    if (fresh) {
      SessionRace r;
      r.kernel = kernel;
      r.block_size = block_size;
      r.kind = kind;
      r.file = first.file;
      r.first_access = first.access;
      r.first_line = first.line;
      r.second_access = second.access;
      r.second_line = second.line;
      out.races.push_back(std::move(r));
      words.emplace_back();
    }
    ++out.races[it->second].hazards;
    words[it->second].insert(static_cast<uint32_t>((addr - reserved_bytes) / 4));
  }
  if (!have_summary) {
    throw RacecheckError("compute-sanitizer printed no RACECHECK SUMMARY for " + kernel +
                         " (it did not run to the end)");
  }
  for (size_t i = 0; i < out.races.size(); ++i) out.races[i].words.assign(words[i].begin(), words[i].end());
  return out;
}

}  // namespace rs
