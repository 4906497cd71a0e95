#include "sanitizer_report.hpp"

#include <regex>
#include <sstream>
#include <vector>

namespace rs {

namespace {

// The lines of `text` that compute-sanitizer wrote, without its prefix.
std::vector<std::string> tool_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("=========", 0) != 0) continue;
    line = line.substr(9);
    if (!line.empty() && line[0] == ' ') line = line.substr(1);
    out.push_back(line);
  }
  return out;
}

bool tool_own(const std::string& head) {
  for (const char* p : {"COMPUTE-SANITIZER", "Target application", "Program hit", "ERROR SUMMARY", "Error: "}) {
    if (head.rfind(p, 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::string sanitizer_first_report(const std::string& text) {
  const std::vector<std::string> lines = tool_lines(text);
  std::string fallback;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& head = lines[i];
    if (head.empty() || head[0] == ' ') continue;  // not the head of a report
    if (tool_own(head)) {
      if (fallback.empty() && head.rfind("COMPUTE-SANITIZER", 0) != 0 && head.rfind("ERROR SUMMARY", 0) != 0) {
        fallback = "  " + head + "\n";
      }
      continue;
    }
    std::string out = "  " + head + "\n";
    int n = 1;
    for (size_t j = i + 1; j < lines.size() && n < 6; ++j) {
      const std::string& l = lines[j];
      if (l.empty() || l[0] != ' ') break;  // the report ends at a blank line or the next head
      if (l.find("Saved host backtrace") != std::string::npos) break;
      out += "  " + l + "\n";
      ++n;
    }
    return out;
  }
  return fallback;
}

std::string trap_sentence(const std::string& report) {
  std::istringstream in(report);
  std::string head;
  std::getline(in, head);
  if (head.find("trap") == std::string::npos && head.find("Trap") == std::string::npos) return "";
  static const std::regex thread_block(R"(by thread \(([0-9,]+)\) in block \(([0-9,]+)\))");
  static const std::regex where(R"( in ([^ ]+:[0-9]+)\s*$)");
  std::string block, thread, at;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, thread_block)) {
      thread = m[1];
      block = m[2];
    } else if (at.empty() && line.find(" at ") != std::string::npos && std::regex_search(line, m, where)) {
      at = m[1];
    }
  }
  std::string s = "the kernel trapped (__trap(), or a failed assert in device code)";
  if (!block.empty()) s += " in block (" + block + "), thread (" + thread + ")";
  if (!at.empty()) s += ", at " + at;
  return s;
}

}  // namespace rs
