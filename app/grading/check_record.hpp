// The check record (issue 53, item 2: one record for check, the window, grade and the class page): one check of an
// exercise as `check` judged it, and its JSON form, which `check --json` writes, the window's worker and `grade` read,
// and grade's per-student record keeps:
//   {"name": "sums right", "pass": true, "figure": "...", "hint": ""[, "ran": false],
//    "said": {"name": ["sums right"], "figure": [ID, ARG, ...], "hint": [ID, ...]}}
// "name", "figure" and "hint" are the words in English; "said" has them as message ids of
// explain/check_messages.def with their arguments (an argument that is a sentence of its own is an array of the
// same form), so that each reader says them in its own language (issue 53). "ran" is written only where the check
// could not be made on the machine (issue 57: no compute-sanitizer), so that a record written before it reads the
// same. A record without "said" (written before 2026-12-06), or with an id this release does not know, reads back
// as its English words.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sentences.hpp"  // explain::Sentence

namespace rs {

// Its words are sentences (ids and arguments): say them with explain::render and the reader's lookup (gettext in
// the window and grade, English in check's output and the JSON's plain words).
struct ExerciseCheck {
  explain::Sentence name;    // "sums right", "no bank conflicts", ...
  bool pass = false;
  explain::Sentence figure;  // the figure behind it, naming the N and block size where it fails
  explain::Sentence hint;    // what to look at when it fails (id "" when it passes)
  bool ran = true;           // false: the check could not be made here (no compute-sanitizer): never a pass, never
                             // a fail; `figure` says what was not run and why
};

// The words in English (explain::render without a lookup).
std::string english(const explain::Sentence& s);
// The words in the language in force (i18n::tr: the window's, grade's or `check --lang`'s).
std::string said(const explain::Sentence& s);
// A sentence as JSON: [ID, ARG, ...], an argument that is a sentence as an array of its own (check --json's "said",
// serve's questions).
nlohmann::json sentence_json(const explain::Sentence& s);
// Whether a sentence says anything (a check without a hint has id "").
bool said_anything(const explain::Sentence& s);

// The JSON array of `checks`, as above.
nlohmann::json checks_to_json(const std::vector<ExerciseCheck>& checks);
// Back from such an array: a member that is missing or of another type reads as its default ("", false, ran true).
// `array` not an array: no checks.
std::vector<ExerciseCheck> checks_from_json(const nlohmann::json& array);

// Counts over a list: the checks that passed, and those that ran (judged here; a check that did not run is neither
// passed nor failed). all_passed: every check that ran passed, and there is at least one check.
size_t checks_passed(const std::vector<ExerciseCheck>& checks);
size_t checks_ran(const std::vector<ExerciseCheck>& checks);
bool all_passed(const std::vector<ExerciseCheck>& checks);

}  // namespace rs
