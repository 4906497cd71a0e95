// Lessons (issue 39): which questions Predict mode asks, per kernel, block size and step, with the instructor's own
// words. A lesson is a JSON file (schema: docs/lessons.md), read with nlohmann-json; the bundled ones are in
// assets/lessons/ (one per track, the float lesson, CUB opened), each in English and Chinese.
//
// A lesson names questions by kind (app/explain/questions.hpp); the answer keys come from the trace when the page or
// the window reaches the step. An item whose step has no question of its kind (the trace cannot answer it) is not
// asked: lessons never carry keys of their own.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "questions.hpp"

namespace rs {

inline constexpr int kLessonFormatVersion = 1;
// An item's kernel that stands for the user's own kernel file (a trace of track "yours", from `trace --kernel-file`,
// `record --kernel-file` or the window's kernel file): an exercise's lesson asks of every student's kernel.
inline constexpr const char* kYoursKernel = "yours";

// Words in the page's two languages; zh may be empty (English is shown).
struct LessonWords {
  std::string en, zh;
};

struct LessonItem {
  std::string kernel;              // a kernel of the registry (kernels/kernel_info.hpp), e.g. "reduce1", a
                                   // library kernel it traces as compiled ("cub::DeviceReduceKernel"), or
                                   // kYoursKernel: the user's own kernel file, whatever its name
  uint32_t block_size = 256;       // 32..1024, a power of two
  std::optional<DType> type;       // the trace's element type; none: either (the int32 trace where a page has both)
  std::vector<uint32_t> steps;     // the steps to ask at; empty: every step with a question of this kind
  explain::QuestionKind ask = explain::QuestionKind::Conflict;
  LessonWords say;                 // the instructor's words, shown above the question (may be empty)

  // Whether the item is about the trace `m` describes: its kernel (or, for kYoursKernel, a kernel file's trace: track
  // "yours"), block size and type.
  bool matches(const TraceMeta& m) const;
  // The kernel the item asks about in `s`: `kernel`, or for kYoursKernel the name of the session's kernel file (its
  // first trace or timing of track "yours": `record --kernel-file`), "" where it has none.
  std::string kernel_in(const Session& s) const;
};

struct Lesson {
  std::string name;                // file name without .json; #lesson=NAME on the page
  std::string track;               // the track it follows ("harris"), or "" for one across tracks
  LessonWords title;
  std::vector<LessonItem> items;   // in the order the student meets them
};

// Raised for a lesson file that is not valid JSON or breaks the schema; what() names the file, and the item and
// field where there is one.
class LessonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a lesson; `name` is used in errors and as Lesson::name. Checks: "format" is "reducescope-lesson",
// "version" is 1 (a later version is refused with a message to update), every kernel is known, every block size is
// a power of two in 32..1024, every "ask" is a question kind, "steps" are non-negative. Throws LessonError.
Lesson parse_lesson(const std::string& json, const std::string& name);
// Reads and parses a file (name: its file name without the extension). Throws LessonError.
Lesson load_lesson(const std::string& path);
// A bundled lesson by its name ("harris"), else the lesson file at that path. Throws LessonError.
Lesson bundled_or_file_lesson(const std::string& name_or_path);
// Every *.json under `dir`, by name. Throws LessonError naming the first bad file.
std::vector<Lesson> load_lessons(const std::string& dir);

// The question Predict mode asks before step `step` of a trace of `m`, from `qs` (step_questions of that step): the
// lesson's first item for the trace's kernel, block size and type whose steps include `step` and whose kind the step
// can answer (none where the lesson covers this kernel and block size but not here, an item about the session covering
// it too), else default_question(qs).
// nullopt where none. The page does the same in its script (web/js/predict.js, questionAt).
struct AskedQuestion {
  explain::Question q;
  const LessonItem* item = nullptr;  // the lesson's item (its words), or nullptr for the default question
};
std::optional<AskedQuestion> predict_question(const Lesson* lesson, const TraceMeta& m,
                                              const std::vector<explain::Question>& qs, size_t step);

// The lessons bundled in assets/lessons/, compiled into the program (lessons_assets.cpp, generated at configure
// time), so that an export needs no assets folder; parsed once. A bundled lesson that does not parse is a build
// defect: the lesson tests parse every one.
const std::vector<Lesson>& bundled_lessons();

}  // namespace rs
