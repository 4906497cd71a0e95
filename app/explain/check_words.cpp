#include "check_words.hpp"

#include <algorithm>

namespace rs::explain {

namespace check_msg {
#define RS_CHECK_MSG(name, text) const char* const name = text;
#include "check_messages.def"
#undef RS_CHECK_MSG
}  // namespace check_msg

const std::vector<const char*>& check_message_ids() {
  static const std::vector<const char*> ids = {
#define RS_CHECK_MSG(name, text) check_msg::name,
#include "check_messages.def"
#undef RS_CHECK_MSG
  };
  return ids;
}

const char* check_message_id(std::string_view text) {
  const auto& ids = check_message_ids();
  const auto it = std::find_if(ids.begin(), ids.end(), [&](const char* id) { return text == id; });
  return it == ids.end() ? nullptr : *it;
}

}  // namespace rs::explain
