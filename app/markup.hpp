// Text for the pages and CSV files the CLI writes (lesson-report, grade, the charts' CSV): HTML-escaped text, printf
// numbers and CSV fields (RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace rs {

inline std::string html_escape(const std::string& v) {
  std::string o;
  for (char c : v) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

// A number as printf's format `f` writes it ("%.1f"), for a page or a report.
inline std::string number_text(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// A CSV field: as it is, or quoted with its quotes doubled where it holds a comma, a quote or a line break (\r or
// \n). Every CSV the program writes: grade's, lesson-report's and the charts' (app/export/chart_spec.hpp).
inline std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string o = "\"";
  for (char c : v) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

// The fields of one CSV line, the reverse of csv_field: a quoted field may hold commas, and its "" is a quote; a \r is
// dropped. ncu --csv's rows (profiling/ncu_metrics.cpp) and serve's roster (serve/store.cpp).
inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      f.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  f.push_back(cur);
  return f;
}

}  // namespace rs
