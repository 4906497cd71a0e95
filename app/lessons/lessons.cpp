#include "lessons.hpp"

#include "session.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kernel_info.hpp"
#include "multigpu.hpp"

namespace rs {
namespace {

using nlohmann::json;

LessonWords words(const json& j, const std::string& where) {
  LessonWords w;
  if (j.is_null()) return w;
  if (j.is_string()) {
    w.en = j.get<std::string>();
    return w;
  }
  if (!j.is_object()) throw LessonError(where + ": not a string or {\"en\": ..., \"zh\": ...}");
  if (j.contains("en")) {
    if (!j["en"].is_string()) throw LessonError(where + ".en: not a string");
    w.en = j["en"].get<std::string>();
  }
  if (j.contains("zh")) {
    if (!j["zh"].is_string()) throw LessonError(where + ".zh: not a string");
    w.zh = j["zh"].get<std::string>();
  }
  return w;
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& name) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw LessonError(name + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw LessonError(name + ": not a JSON object");
  if (j.value("format", std::string()) != "reducescope-lesson") {
    throw LessonError(name + ": \"format\" is not \"reducescope-lesson\"");
  }
  if (!j.contains("version") || !j["version"].is_number_integer()) throw LessonError(name + ": no integer \"version\"");
  const int version = j["version"].get<int>();
  if (version > kLessonFormatVersion) {
    throw LessonError(name + ": lesson format version " + std::to_string(version) + " is newer than this build reads (" +
                      std::to_string(kLessonFormatVersion) + "); update ReduceScope");
  }
  if (version < 1) throw LessonError(name + ": lesson format version " + std::to_string(version) + " is not valid");
  Lesson l;
  l.name = name;
  if (j.contains("track")) {
    if (!j["track"].is_string()) throw LessonError(name + ": \"track\" is not a string");
    l.track = j["track"].get<std::string>();
    if (!l.track.empty() && l.track != kMultiGpuTrack && !find_track(l.track)) throw LessonError(name + ": unknown track \"" + l.track + "\"");
  }
  l.title = words(j.value("title", json()), name + ": title");
  if (!j.contains("items") || !j["items"].is_array() || j["items"].empty()) {
    throw LessonError(name + ": \"items\" is not a non-empty array");
  }
  for (size_t i = 0; i < j["items"].size(); ++i) {
    const json& x = j["items"][i];
    const std::string where = name + ": item " + std::to_string(i);
    if (!x.is_object()) throw LessonError(where + ": not an object");
    LessonItem it;
    if (!x.contains("kernel") || !x["kernel"].is_string()) throw LessonError(where + ": no \"kernel\" name");
    it.kernel = x["kernel"].get<std::string>();
    if (it.kernel != kYoursKernel && it.kernel != kMultiGpuTrack && !find_kernel(it.kernel) &&
        !find_library_kernel(it.kernel)) {
      throw LessonError(where + ": unknown kernel \"" + it.kernel + "\"");
    }
    if (x.contains("type")) {
      const std::string ty = x["type"].is_string() ? x["type"].get<std::string>() : "";
      if (ty == "int32") it.type = DType::Int32;
      else if (ty == "float32") it.type = DType::Float32;
      else throw LessonError(where + ": \"type\" is not \"int32\" or \"float32\"");
    }
    if (x.contains("block_size")) {
      if (!x["block_size"].is_number_unsigned()) throw LessonError(where + ": \"block_size\" is not a whole number");
      it.block_size = x["block_size"].get<uint32_t>();
    }
    if (it.block_size < 32 || it.block_size > 1024 || (it.block_size & (it.block_size - 1)) != 0) {
      throw LessonError(where + ": block size " + std::to_string(it.block_size) +
                        " is not a power of two in 32..1024");
    }
    if (!x.contains("ask") || !x["ask"].is_string()) throw LessonError(where + ": no \"ask\"");
    const auto kind = explain::parse_question_kind(x["ask"].get<std::string>());
    if (!kind) {
      throw LessonError(where + ": \"ask\" is \"" + x["ask"].get<std::string>() +
                        "\", not one of warps, lanes, conflict, value, shuffle, sectors, fastest, speedup, bits, bits_blocks, "
                        "part, runs_right, race_line, distinct_sums, ring_chunk, ring_bytes");
    }
    it.ask = *kind;
    const bool ring = it.ask == explain::QuestionKind::RingChunk || it.ask == explain::QuestionKind::RingBytes;
    if (ring != (it.kernel == kMultiGpuTrack)) {  // the ring's questions are of the multigpu track, and only those
      throw LessonError(where + ": " + (ring ? "\"" + x["ask"].get<std::string>() + "\" asks of \"kernel\": \"multigpu\""
                                             : std::string("\"kernel\": \"multigpu\" asks ring_chunk or ring_bytes")));
    }
    if (x.contains("steps")) {
      if (!x["steps"].is_array()) throw LessonError(where + ": \"steps\" is not an array");
      for (const json& s : x["steps"]) {
        if (!s.is_number_unsigned()) throw LessonError(where + ": a step is not a non-negative whole number");
        it.steps.push_back(s.get<uint32_t>());
      }
      std::sort(it.steps.begin(), it.steps.end());
    }
    it.say = words(x.value("say", json()), where + ": say");
    l.items.push_back(std::move(it));
  }
  return l;
}

Lesson load_lesson(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string name = std::filesystem::path(path).stem().string();
  if (!f) throw LessonError(path + ": cannot open (does the file exist?)");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_lesson(ss.str(), name);
}

std::vector<Lesson> load_lessons(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Lesson> out;
  for (const std::string& p : paths) out.push_back(load_lesson(p));
  return out;
}

std::string LessonItem::kernel_in(const Session& s) const {
  if (kernel != kYoursKernel) return kernel;
  for (const Trace& t : s.traces) {
    if (t.meta.track == kYoursKernel) return t.meta.kernel;
  }
  return "";
}

bool LessonItem::matches(const TraceMeta& m) const {
  const bool kernel_ok = kernel == kYoursKernel ? m.track == kYoursKernel : kernel == m.kernel;
  return kernel_ok && block_size == m.block_size && (!type || *type == m.dtype);
}

Lesson bundled_or_file_lesson(const std::string& name_or_path) {
  for (const Lesson& l : bundled_lessons()) {
    if (l.name == name_or_path) return l;
  }
  return load_lesson(name_or_path);
}

std::optional<AskedQuestion> predict_question(const Lesson* lesson, const TraceMeta& m,
                                              const std::vector<explain::Question>& qs, size_t step) {
  bool covered = false;
  if (lesson) {
    for (const LessonItem& it : lesson->items) {
      if (!it.matches(m)) continue;
      covered = true;  // a question about the session covers its kernel too: no default step questions there
      if (explain::is_session_kind(it.ask)) continue;
      if (!it.steps.empty() && std::find(it.steps.begin(), it.steps.end(), step) == it.steps.end()) continue;
      for (const explain::Question& q : qs) {
        if (q.kind == it.ask) return AskedQuestion{q, &it};
      }
    }
  }
  if (covered) return std::nullopt;
  if (const explain::Question* q = explain::default_question(qs)) return AskedQuestion{*q, nullptr};
  return std::nullopt;
}

// lessons_assets.cpp: (name, JSON) of each assets/lessons/*.json.
const std::vector<std::pair<std::string, std::string>>& bundled_lesson_files();

const std::vector<Lesson>& bundled_lessons() {
  static const std::vector<Lesson> all = [] {
    std::vector<Lesson> v;
    for (const auto& [name, text] : bundled_lesson_files()) v.push_back(parse_lesson(text, name));
    return v;
  }();
  return all;
}

}  // namespace rs
