// The exercises' checks as sentences (issue 53): the message ids of check_messages.def as constants
// (explain::check_msg::kSumsRight, ...), and the list of them, which the edges use to read a check's sentence back
// from `check --json` (check_message_id) and the page's dictionary carries.
//
// Index
//   check_msg::k...        one constant per RS_CHECK_MSG of check_messages.def (an English msgid, {0} .. {9})
//   check_message_ids()    every one of them, once, in the file's order
//   check_message_id()     the constant whose text is `text`, or nullptr (an id from another release)
#pragma once

#include <string_view>
#include <vector>

#ifndef N_
#define N_(msgid) msgid
#endif

namespace rs::explain {

// Defined once, in check_words.cpp: one address for each id in every translation unit (a string literal's address
// may differ between them, and does under ASan), so that ids compare as pointers, as explain's Sentence ids do.
namespace check_msg {
#define RS_CHECK_MSG(name, text) extern const char* const name;
#include "check_messages.def"
#undef RS_CHECK_MSG
}  // namespace check_msg

const std::vector<const char*>& check_message_ids();
const char* check_message_id(std::string_view text);

}  // namespace rs::explain
