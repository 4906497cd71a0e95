// The web page's JSON writer and the parts of its data that live in their own files (app/export/web_export.cpp
// assembles the page). Internal to app/export/.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "multigpu.hpp"
#include "sentences.hpp"  // explain::Sentence

namespace rs::webjson {

// ---- JSON text ---------------------------------------------------------------------------------

// Appends JSON to a string; commas between values are automatic.
class Json {
 public:
  Json& obj() { open('{'); return *this; }
  Json& end_obj() { close('}'); return *this; }
  Json& arr() { open('['); return *this; }
  Json& end_arr() { close(']'); return *this; }
  Json& key(const char* k) {
    sep();
    str_raw(k);
    s_ += ':';
    after_key_ = true;
    return *this;
  }
  Json& num(int64_t v) {
    sep();
    char b[24];
    auto [p, ec] = std::to_chars(b, b + sizeof b, v);
    s_.append(b, p);
    return *this;
  }
  Json& num(double v) {
    sep();
    if (!std::isfinite(v)) {
      s_ += "null";
      return *this;
    }
    char b[40];
    auto [p, ec] = std::to_chars(b, b + sizeof b, v);  // shortest form that reads back exactly
    s_.append(b, p);
    return *this;
  }
  Json& num(uint32_t v) { return num(static_cast<int64_t>(v)); }
  Json& num(int v) { return num(static_cast<int64_t>(v)); }
  Json& num(uint64_t v) { return num(static_cast<double>(v)); }
  Json& boolean(bool v) {
    sep();
    s_ += v ? "true" : "false";
    return *this;
  }
  Json& null() {
    sep();
    s_ += "null";
    return *this;
  }
  Json& str(const std::string& v) {
    sep();
    str_raw(v);
    return *this;
  }
  // key: value shorthands
  template <class T>
  Json& kv(const char* k, const T& v) {
    key(k);
    if constexpr (std::is_same_v<T, bool>) return boolean(v);
    else if constexpr (std::is_convertible_v<T, std::string>) return str(std::string(v));
    else if constexpr (std::is_floating_point_v<T>) return num(static_cast<double>(v));
    else if constexpr (std::is_signed_v<T>) return num(static_cast<int64_t>(v));
    else if constexpr (sizeof(T) <= 4) return num(static_cast<int64_t>(v));
    else return num(static_cast<uint64_t>(v));
  }
  template <class Seq>
  Json& ints(const char* k, const Seq& seq) {
    key(k).arr();
    for (auto v : seq) num(static_cast<int64_t>(v));
    return end_arr();
  }
  std::string take() { return std::move(s_); }

 private:
  void sep() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) s_ += ',';
      first_.back() = false;
    }
  }
  void open(char c) {
    sep();
    s_ += c;
    first_.push_back(true);
  }
  void close(char c) {
    s_ += c;
    first_.pop_back();
  }
  void str_raw(const std::string& v) {
    s_ += '"';
    for (unsigned char c : v) {
      switch (c) {
        case '"': s_ += "\\\""; break;
        case '\\': s_ += "\\\\"; break;
        case '\n': s_ += "\\n"; break;
        case '\r': s_ += "\\r"; break;
        case '\t': s_ += "\\t"; break;
        case '<': s_ += "\\u003c"; break;  // never "</script>" in the page, even uncompressed
        default:
          if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            s_ += b;
          } else {
            s_ += static_cast<char>(c);
          }
      }
    }
    s_ += '"';
  }

  std::string s_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

// The session's multigpu recording as the page's "multigpu" member (app/export/web_multigpu.cpp).
void multigpu_json(Json& j, const SessionMultiGpu& m);

// A sentence of the explain layer (app/explain/) as the page formats it with its dictionary: [k, args...], k the
// index of its msgid in explain::message_ids(), which the index part carries once as "msgs" (a trace's own copy of
// each msgid cost the page 18 KB packed); an id outside that list (a stored line read back as "{0}") as its text.
// `key`: the member's name, or nullptr for an element of an array.
inline void said(Json& j, const char* key, const explain::Sentence& s) {
  const auto& ids = explain::message_ids();
  const auto k = std::find_if(ids.begin(), ids.end(), [&](const char* id) { return std::string_view(id) == s.id; });
  if (key) j.key(key);
  j.arr();
  if (k == ids.end()) j.str(s.id);
  else j.num(static_cast<int64_t>(k - ids.begin()));
  for (size_t i = 0; i < s.args.size(); ++i) {
    if (const explain::Sentence* sub = s.nested_arg(i)) said(j, nullptr, *sub);  // a nested [k, args]: said in the page's language
    else j.str(s.args[i]);
  }
  j.end_arr();
}

}  // namespace rs::webjson
