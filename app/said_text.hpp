// An error's message in the window's language: tracing/'s errors carry their message untranslated (a Said,
// tracing/said.hpp) and are said here through gettext; any other exception's what() is shown as it is.
#pragma once

#include <exception>
#include <string>

#include "i18n.hpp"
#include "said.hpp"

namespace rs {

// The message of `s` in the language in force (i18n::language()).
inline std::string said_text(const Said& s) {
  return s.say([](const char* msgid) { return i18n::tr(msgid); });
}

// e.said() in the language in force for a SaidError (TraceFormatError, SessionFormatError, ReplayError), else
// e.what().
inline std::string said_text(const std::exception& e) {
  if (const auto* s = dynamic_cast<const SaidError*>(&e)) return said_text(s->said());
  return e.what();
}

}  // namespace rs
