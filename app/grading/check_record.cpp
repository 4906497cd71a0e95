#include "check_record.hpp"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "check_words.hpp"
#include "i18n.hpp"

namespace rs {

using explain::Sentence;

std::string english(const Sentence& s) { return explain::render(s); }

std::string said(const Sentence& s) {
  return explain::render(s, [](const char* id) { return i18n::tr(id); });
}

bool said_anything(const Sentence& s) { return s.id && *s.id; }

nlohmann::json sentence_json(const Sentence& s) {
  nlohmann::json a = nlohmann::json::array({s.id ? s.id : ""});
  for (size_t i = 0; i < s.args.size(); ++i) {
    if (const Sentence* sub = s.nested_arg(i)) a.push_back(sentence_json(*sub));
    else a.push_back(s.args[i]);
  }
  return a;
}

namespace {

// The sentence of such an array, where every id in it is one this release has (nullopt otherwise).
std::optional<Sentence> said_from_json(const nlohmann::json& a) {
  if (!a.is_array() || a.empty() || !a[0].is_string()) return std::nullopt;
  const std::string id = a[0].get<std::string>();
  Sentence s;
  if (!id.empty()) {
    s.id = explain::check_message_id(id);
    if (!s.id) return std::nullopt;
  }
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].is_string()) {
      s.args.push_back(a[i].get<std::string>());
    } else if (auto sub = said_from_json(a[i])) {
      s.args.emplace_back();
      s.with(i - 1, std::move(*sub));
    } else {
      return std::nullopt;
    }
  }
  return s;
}

// A plain English text as a sentence that says it as it is ("{0}" is no message of the catalogue).
Sentence as_is(const std::string& text) { return text.empty() ? Sentence() : Sentence("{0}", {text}); }

}  // namespace

nlohmann::json checks_to_json(const std::vector<ExerciseCheck>& checks) {
  nlohmann::json list = nlohmann::json::array();
  for (const ExerciseCheck& c : checks) {
    list.push_back({{"name", english(c.name)}, {"pass", c.pass}, {"figure", english(c.figure)},
                    {"hint", english(c.hint)}});
    if (!c.ran) list.back()["ran"] = false;
    list.back()["said"] = {{"name", sentence_json(c.name)}, {"figure", sentence_json(c.figure)}, {"hint", sentence_json(c.hint)}};
  }
  return list;
}

std::vector<ExerciseCheck> checks_from_json(const nlohmann::json& array) {
  std::vector<ExerciseCheck> out;
  if (!array.is_array()) return out;
  auto text = [](const nlohmann::json& c, const char* key) {
    const auto it = c.find(key);
    return it != c.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto flag = [](const nlohmann::json& c, const char* key, bool otherwise) {
    const auto it = c.find(key);
    return it != c.end() && it->is_boolean() ? it->get<bool>() : otherwise;
  };
  // Each part from "said" where this release knows its ids, else from its English words.
  auto part = [&](const nlohmann::json& c, const char* key) {
    const auto said = c.find("said");
    if (said != c.end() && said->is_object()) {
      if (const auto it = said->find(key); it != said->end()) {
        if (auto s = said_from_json(*it)) return *s;
      }
    }
    return as_is(text(c, key));
  };
  for (const nlohmann::json& c : array) {
    if (!c.is_object()) continue;
    out.push_back({part(c, "name"), flag(c, "pass", false), part(c, "figure"), part(c, "hint"), flag(c, "ran", true)});
  }
  return out;
}

size_t checks_passed(const std::vector<ExerciseCheck>& checks) {
  return static_cast<size_t>(std::count_if(checks.begin(), checks.end(), [](const ExerciseCheck& c) { return c.pass; }));
}

size_t checks_ran(const std::vector<ExerciseCheck>& checks) {
  return static_cast<size_t>(std::count_if(checks.begin(), checks.end(), [](const ExerciseCheck& c) { return c.ran; }));
}

bool all_passed(const std::vector<ExerciseCheck>& checks) {
  return !checks.empty() &&
         std::all_of(checks.begin(), checks.end(), [](const ExerciseCheck& c) { return c.pass || !c.ran; });
}

}  // namespace rs
