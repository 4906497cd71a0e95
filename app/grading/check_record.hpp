// The check record (issue 53, item 2: one record for check, the window, grade and the class page): one check of an
// exercise as `check` judged it, and its JSON form, which `check --json` writes, the window's worker and `grade` read,
// and grade's per-student record keeps:
//   {"name": "sums right", "pass": true, "figure": "...", "hint": ""[, "ran": false]}
// "ran" is written only where the check could not be made on the machine (issue 57: no compute-sanitizer), so that a
// record written before it reads the same.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rs {

// Its words are in the language in force when judge_exercise() ran (i18n.hpp: English in the CLI; `check --lang zh`,
// the window's worker for a window in Chinese, gives them in Chinese).
struct ExerciseCheck {
  std::string name;    // "sums right", "no bank conflicts", ...
  bool pass = false;
  std::string figure;  // the figure behind it, naming the N and block size where it fails
  std::string hint;    // what to look at when it fails ("" when it passes)
  bool ran = true;     // false: the check could not be made here (no compute-sanitizer): never a pass, never a
                       // fail; `figure` says what was not run and why
};

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
