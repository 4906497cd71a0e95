// A message for the user, kept untranslated until it is shown (issue 38: no gettext in tracing/ and the injector).
//
// A Said is a message id, which is the English printf format itself (the msgid of po/zh_CN.po, marked N_() so that
// po/update.sh collects it), and its arguments, copied. tracing/ and the injector loaded into users' programs raise
// their errors with it and link no gettext. Whoever shows the message says it:
//   - the CLI, the files and every comparison take what() or say(): English;
//   - the window says it in its language, say(i18n::tr) (app/said_text.hpp).
// An argument may be a Term (a name that is itself a message, "global load") or another Said (a file's name and the
// problem in it); both are said in the same language as the message around them.
//
// Formatting is printf's (vsnprintf): a translation must take the same conversions as its msgid, in the same order
// or numbered (%1$s), which msgfmt --check verifies for the catalogue (po/CMakeLists.txt).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#ifndef N_
#define N_(msgid) msgid  // marks a message for po/update.sh; whoever shows it translates it
#endif

namespace rs {

// Looks a message up in the language it is to be said in; nullptr says it in English. What it returns must stay
// valid while the message is said (gettext's strings live as long as the process).
using Translate = const char* (*)(const char*);

// An argument that is a message in its own right (a record kind's name: "global load"), said in the sentence's
// language. msgid must live as long as the process (a literal marked N_()).
struct Term {
  const char* msgid;
};

namespace said_detail {

// printf into a std::string; `format` comes from the catalogue or is a msgid.
inline std::string printf_string(const char* format, ...) {
  va_list a;
  va_start(a, format);
  va_list b;
  va_copy(b, a);
  const int n = std::vsnprintf(nullptr, 0, format, a);
  va_end(a);
  std::string out;
  if (n > 0) {
    out.resize(static_cast<size_t>(n) + 1);
    std::vsnprintf(out.data(), out.size(), format, b);
    out.resize(static_cast<size_t>(n));
  }
  va_end(b);
  return out;
}

}  // namespace said_detail

class Said {
 public:
  // An empty message (empty() is true; says "").
  Said() = default;

  // `id` (a literal marked N_()) with its arguments: numbers as printf takes them, strings (std::string or
  // const char*, copied now), Term, or Said.
  template <class... A>
  explicit Said(const char* id, const A&... args) : id_(id) {
    if constexpr (sizeof...(A) > 0) {
      format_ = [held = std::make_tuple(keep(args)...)](const char* format, Translate tr) {
        return std::apply(
            [&](const auto&... x) { return said_detail::printf_string(format, pass(said(x, tr))...); }, held);
      };
    }
  }

  // Text as it stands, said the same in every language (a file's name; a message from another library).
  static Said verbatim(std::string text) {
    Said s;
    s.text_ = std::move(text);
    return s;
  }

  bool empty() const { return id_ == nullptr && text_.empty(); }
  // The msgid, or nullptr for a verbatim text or an empty message.
  const char* id() const { return id_; }

  // The message in the language `tr` looks up (nullptr: English).
  std::string say(Translate tr = nullptr) const {
    if (id_ == nullptr) return text_;
    const char* format = tr != nullptr ? tr(id_) : id_;
    if (!format_) return format;
    return format_(format, tr);
  }

 private:
  template <class T>
  static auto keep(const T& x) {
    if constexpr (std::is_convertible_v<const T&, const char*> || std::is_same_v<T, std::string>) {
      return std::string(x);
    } else {
      static_assert(std::is_arithmetic_v<T> || std::is_same_v<T, Term> || std::is_same_v<T, Said>,
                    "a Said takes numbers, strings, Term and Said");
      return x;
    }
  }
  template <class T>
  static auto said(const T& x, Translate tr) {
    if constexpr (std::is_same_v<T, Term>) {
      return std::string(tr != nullptr ? tr(x.msgid) : x.msgid);
    } else if constexpr (std::is_same_v<T, Said>) {
      return x.say(tr);
    } else {
      return x;
    }
  }
  template <class T>
  static auto pass(const T& x) {
    if constexpr (std::is_same_v<T, std::string>) {
      return x.c_str();
    } else {
      return x;
    }
  }

  const char* id_ = nullptr;
  std::string text_;
  std::function<std::string(const char*, Translate)> format_;
};

// An error whose message is a Said: what() is its English; said() is there to say it in another language.
class SaidError : public std::runtime_error {
 public:
  explicit SaidError(Said s) : std::runtime_error(s.say()), said_(std::make_shared<Said>(std::move(s))) {}
  explicit SaidError(const std::string& english) : SaidError(Said::verbatim(english)) {}
  const Said& said() const { return *said_; }

 private:
  std::shared_ptr<const Said> said_;  // shared: exceptions are copied
};

}  // namespace rs
