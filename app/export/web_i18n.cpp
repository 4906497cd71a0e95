#include "web_i18n.hpp"

#include <cstdio>
#include <set>

#include "exact_steps.hpp"
#include "kernel_info.hpp"
#include "pitfall_words.hpp"
#include "sentences.hpp"  // explain::message_ids
#include "web_json.hpp"

namespace rs::webi18n {

namespace {

void append_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A JavaScript string literal at js[i] (its opening quote): its value, i moved past it. False if unterminated.
bool read_literal(const std::string& js, size_t& i, std::string& out) {
  const char q = js[i++];
  while (i < js.size() && js[i] != q) {
    char c = js[i++];
    if (c == '\n') return false;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i >= js.size()) return false;
    c = js[i++];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'u': {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
          const int h = i < js.size() ? hex(js[i]) : -1;
          if (h < 0) return false;
          v = v * 16 + static_cast<uint32_t>(h);
          ++i;
        }
        append_utf8(out, v);
        break;
      }
      default: out += c;  // \\ \' \" and the rest stand for themselves
    }
  }
  if (i >= js.size()) return false;
  ++i;
  return true;
}

// `json` with every non-ASCII character written as \uXXXX (a surrogate pair above U+FFFF): the page stays plain
// ASCII, as its readers and tests take it.
std::string ascii_json(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size();) {
    if (static_cast<unsigned char>(json[i]) < 0x80) {
      out += json[i++];
      continue;
    }
    uint32_t cp = i18n::utf8_next(json, &i);
    char b[16];
    if (cp >= 0x10000) {
      cp -= 0x10000;
      std::snprintf(b, sizeof b, "\\u%04x\\u%04x", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
    } else {
      std::snprintf(b, sizeof b, "\\u%04x", cp);
    }
    out += b;
  }
  return out;
}

size_t skip_space(const std::string& s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  return i;
}

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.';
}

void add(std::vector<std::string>& out, std::set<std::string>& seen, const std::string& m) {
  if (!m.empty() && seen.insert(m).second) out.push_back(m);
}

}  // namespace

std::vector<std::string> page_messages(const std::string& js, const std::string& html) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  // Comments and other string literals are skipped, as xgettext skips them.
  for (size_t i = 0; i < js.size(); ++i) {
    const char c = js[i];
    if (c == '/' && i + 1 < js.size() && js[i + 1] == '/') {
      i = js.find('\n', i);
      if (i == std::string::npos) break;
      continue;
    }
    if (c == '/' && i + 1 < js.size() && js[i + 1] == '*') {
      i = js.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      for (++i; i < js.size() && js[i] != c; ++i) {
        if (js[i] == '\\') ++i;
      }
      continue;
    }
    if (c != 't' || i + 1 >= js.size() || js[i + 1] != '(' || (i > 0 && ident_char(js[i - 1]))) continue;
    size_t j = skip_space(js, i + 2);
    if (j >= js.size() || (js[j] != '\'' && js[j] != '"')) continue;
    std::string msg;
    bool ok = true;
    while (ok) {
      ok = read_literal(js, j, msg);
      j = skip_space(js, j);
      if (!ok || j >= js.size() || js[j] != '+') break;
      const size_t k = skip_space(js, j + 1);
      if (k >= js.size() || (js[k] != '\'' && js[k] != '"')) break;
      j = k;
    }
    if (ok) add(out, seen, msg);
    i = j - 1;
  }
  for (const char* attr : {"data-t=\"", "data-t-html=\"", "data-t-title=\""}) {
    const std::string a(attr);
    for (size_t i = 0; (i = html.find(a, i)) != std::string::npos;) {
      if (i > 0 && html[i - 1] != ' ' && html[i - 1] != '\n' && html[i - 1] != '\t') {
        i += a.size();
        continue;
      }
      const size_t b = i + a.size(), e = html.find('"', b);
      if (e == std::string::npos) break;
      add(out, seen, html.substr(b, e - b));
      i = e + 1;
    }
  }
  return out;
}

std::vector<std::string> data_messages() {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto put = [&](const char* s) {
    if (s) add(out, seen, s);
  };
  for (const TrackInfo& t : track_table()) {
    put(t.title);
    put(t.source);
  }
  for (const char* id : explain::message_ids()) put(id);  // the sentences the exporter sends as [msgid, args...]
  for (const KernelInfo& k : kernel_table()) {
    put(k.title);
    put(k.fixes);
    put(k.costs);
    put(k.min_block_why);
    put(k.pitfall);
  }
  for (const LibraryKernelInfo& k : library_table()) {  // CUB's kernels (issue 38: their notes were English)
    put(k.title);
    put(k.what);
    put(k.costs);
  }
  for (const char* id : exact_message_ids()) put(id);
  for (const char* id : pitfall_message_ids()) put(id);  // the pitfalls' words and racecheck's races (pitfall_words.hpp)  // reproducible_sum's exact accumulator (exact_steps.hpp)
  for (const auto& [op, method] : kMultiGpuMethods) put(multigpu_method_text(op, method).c_str());
  return out;
}

std::string dictionary_json(i18n::Lang lang, const std::vector<std::pair<std::string, std::string>>& catalogue) {
  webjson::Json j;
  j.obj().kv("lang", i18n::lang_code(lang));
  j.key("zh").obj();
  std::set<std::string> seen;
  for (const auto& [id, zh] : catalogue) {
    if (seen.insert(id).second) j.kv(id.c_str(), zh);
  }
  j.end_obj().end_obj();
  return ascii_json(j.take());
}

}  // namespace rs::webi18n
