#include "check_record.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace rs {

nlohmann::json checks_to_json(const std::vector<ExerciseCheck>& checks) {
  nlohmann::json list = nlohmann::json::array();
  for (const ExerciseCheck& c : checks) {
    list.push_back({{"name", c.name}, {"pass", c.pass}, {"figure", c.figure}, {"hint", c.hint}});
    if (!c.ran) list.back()["ran"] = false;
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
  for (const nlohmann::json& c : array) {
    if (!c.is_object()) continue;
    out.push_back({text(c, "name"), flag(c, "pass", false), text(c, "figure"), text(c, "hint"), flag(c, "ran", true)});
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
