#include "hazards.hpp"

#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <tuple>

namespace rs {

const char* to_string(SanitizerTool t) {
  switch (t) {
    case SanitizerTool::Racecheck: return "racecheck";
    case SanitizerTool::Synccheck: return "synccheck";
    case SanitizerTool::Memcheck: return "memcheck";
  }
  return "?";
}

namespace {

constexpr const char* kPrefix = "========= ";

uint32_t to_u32(const std::string& s) { return static_cast<uint32_t>(std::strtoul(s.c_str(), nullptr, 10)); }

// "... in k.cu:43" at a line's end: the line number (0 when the report names none).
uint32_t line_at_end(const std::string& l) {
  static const std::regex re(R"( in [^ ]*:([0-9]+)\s*$)");
  std::smatch m;
  return std::regex_search(l, m, re) ? to_u32(m[1]) : 0;
}

// The tool's own lines, which are no report of the kernel.
bool tool_line(const std::string& l) {
  for (const char* p : {"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY",
                        "Target application returned", "Program hit", "Saved host backtrace", "Host Frame"}) {
    if (l.rfind(p, 0) == 0) return true;
  }
  return false;
}

}  // namespace

SanitizerOutput read_sanitizer_output(SanitizerTool t, const std::string& text, uint32_t reserved_bytes) {
  static const std::regex race_head(
      R"((Warning|Error): (\(Warp Level Programming\) )?Potential (RAW|WAR|WAW) hazard detected at __shared__ (0x[0-9a-fA-F]+) in block)");
  static const std::regex race_end(R"(^\s+(Read|Write) Thread \(([0-9]+),[0-9]+,[0-9]+\))");
  static const std::regex by_thread(R"(^\s+by thread \(([0-9]+),[0-9]+,[0-9]+\))");
  static const std::regex race_summary(R"(RACECHECK SUMMARY: ([0-9]+) hazard)");
  static const std::regex error_summary(R"(^ERROR SUMMARY: ([0-9]+) error)");
  static const std::regex block_line(R"(block size ([0-9]+) N [0-9]+)");
  SanitizerOutput out;
  std::vector<std::pair<SanitizerFinding, size_t>> raw;  // each report and its segment (block size line) index
  std::vector<unsigned> segment_bs;                      // block size of segment k
  SanitizerFinding* open = nullptr;                      // the report whose detail lines follow
  int race_ends = 0;                                     // racecheck: the ends read of the open report
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (line.rfind(kPrefix, 0) != 0) {  // the program's own output: a block size's line closes its segment
      if (std::regex_search(line, m, block_line)) segment_bs.push_back(to_u32(m[1]));
      continue;
    }
    const std::string l = line.substr(std::string(kPrefix).size());
    const bool summary = t == SanitizerTool::Racecheck ? std::regex_search(l, m, race_summary)
                                                       : std::regex_search(l, m, error_summary);
    if (summary) {
      if (!out.complete) out.summary_count = to_u32(m[1]);  // not "ERROR SUMMARY: 41 errors were not printed"
      out.complete = true;
      open = nullptr;
      continue;
    }
    if (l.empty() || l.find_first_not_of(' ') == std::string::npos) {
      open = nullptr;
      continue;
    }
    if (l[0] == ' ') {  // a detail of the open report
      if (!open) continue;
      if (t == SanitizerTool::Racecheck) {
        if (std::regex_search(l, m, race_end) && race_ends < 2) {
          (race_ends == 0 ? open->first_access : open->second_access) = m[1];
          (race_ends == 0 ? open->first_thread : open->second_thread) = to_u32(m[2]);
          (race_ends == 0 ? open->first_line : open->second_line) = line_at_end(l);
          ++race_ends;
        }
      } else if (std::regex_search(l, m, by_thread)) {
        open->first_thread = to_u32(m[1]);
      } else if (l.find(" at ") != std::string::npos && open->first_line == 0) {
        open->first_line = line_at_end(l);
      }
      continue;
    }
    open = nullptr;
    if (tool_line(l)) continue;
    SanitizerFinding f;
    f.tool = t;
    if (t == SanitizerTool::Racecheck) {
      if (!std::regex_search(l, m, race_head)) continue;  // racecheck's other lines (its analysis report's, if any)
      f.warp_level = m[2].matched;
      f.kind = m[3];
      const unsigned long addr = std::strtoul(m[4].str().c_str(), nullptr, 16);
      f.word = addr >= reserved_bytes ? static_cast<int64_t>((addr - reserved_bytes) / 4) : -1;
    } else {
      f.kind = l;
      while (!f.kind.empty() && (f.kind.back() == ' ' || f.kind.back() == ':')) f.kind.pop_back();
    }
    raw.emplace_back(f, segment_bs.size());
    open = &raw.back().first;
    race_ends = 0;
  }
  // Fold: the same tool, block size, kind and both ends' accesses and lines; the first report's threads and word.
  using Key = std::tuple<unsigned, std::string, bool, std::string, uint32_t, std::string, uint32_t>;
  std::map<Key, size_t> index;
  for (auto& [f, segment] : raw) {
    f.block_size = segment < segment_bs.size() ? segment_bs[segment] : 0;
    const Key k{f.block_size, f.kind, f.warp_level, f.first_access, f.first_line, f.second_access, f.second_line};
    auto [it, fresh] = index.emplace(k, out.findings.size());
    if (fresh) {
      out.findings.push_back(f);
    } else {
      SanitizerFinding& g = out.findings[it->second];
      ++g.count;
      if (g.word < 0) g.word = f.word;
    }
  }
  return out;
}

}  // namespace rs
