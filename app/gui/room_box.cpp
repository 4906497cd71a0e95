// Class mode connected to `reducescope serve` (issue 56): under the question in the Predict box, the room's part
// (predict.hpp: room_box_height, draw_room_box, room_reveal; room_client.hpp).
#include <imgui.h>

#include <algorithm>

#include "app_state.hpp"
#include "panels.hpp"  // strf, note_widget
#include "predict.hpp"
#include "room_client.hpp"

namespace rs::gui {

namespace {

constexpr ImU32 kBar = IM_COL32(0, 114, 178, 255);     // the page's blue
constexpr ImU32 kRight = IM_COL32(26, 127, 55, 255);   // a right answer's bar, after the reveal

struct RoomView {
  std::optional<nlohmann::json> state;
  bool asks = false;  // the room's question is the one on screen
};

RoomView view_of(const AppState& s) {
  RoomView v;
  const PredictState& p = s.predict;
  if (!s.room || !p.classroom || !p.pending || !s.shown) return v;
  v.state = s.room->state();
  const TraceMeta& m = s.shown->trace.meta;
  v.asks = v.state && room_asks(*v.state, m.kernel, m.block_size, to_string(m.dtype), p.pending->step,
                                explain::to_string(p.pending->q.kind));
  return v;
}

std::string status_line(const AppState& s, const RoomView& v) {
  const std::string error = s.room->error();
  if (!error.empty()) return strf(_("Room: %s"), error.c_str());
  if (!v.state) return _("Room: connecting to the server");
  if (!v.asks) return _("Room: this question is not open on the students' pages yet");
  const nlohmann::json& votes = (*v.state)["votes"];
  const int answered = votes.is_array() && !votes.empty() ? votes.back().value("answers", 0) : 0;
  const int present = v.state->value("present", 0);
  // Those present are the pages with their event stream open; an answer through the API alone has none.
  if (present < answered) return strf(_("Room: %d answered"), answered);
  return strf(_("Room: %d of %d present answered"), answered, present);
}

int bar_rows(const RoomView& v) {
  if (!v.asks) return 0;
  int rows = 0;
  for (const nlohmann::json& vote : (*v.state)["votes"]) rows += 1 + static_cast<int>(vote["bins"].size());
  return rows;
}

}  // namespace

float room_box_height(const AppState& s, float wrap) {
  const RoomView v = view_of(s);
  if (!s.room || !s.predict.classroom || !s.predict.pending) return 0;
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(status_line(s, v).c_str(), nullptr, false, wrap).y + st.ItemSpacing.y +
         bar_rows(v) * (ImGui::GetTextLineHeight() + st.ItemSpacing.y) + ImGui::GetFrameHeight() + st.ItemSpacing.y;
}

void draw_room_box(AppState& s) {
  const RoomView v = view_of(s);
  if (!s.room || !s.predict.classroom || !s.predict.pending) return;
  ImGui::TextUnformatted(status_line(s, v).c_str());
  note_widget("room/status");
  if (v.asks) {
    const bool revealed = v.state->value("state", std::string()) == "revealed";
    const float line = ImGui::GetTextLineHeight();
    const float label_w = ImGui::CalcTextSize("0,1,2,3,4,5").x;
    const float bar_w = std::max(line * 4, ImGui::GetContentRegionAvail().x - label_w - line * 4);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    for (const nlohmann::json& vote : (*v.state)["votes"]) {
      ImGui::TextDisabled("%s", vote.value("vote", 1) == 1 ? _("First vote") : _("Second vote"));
      int most = 1;
      for (const nlohmann::json& b : vote["bins"]) most = std::max(most, b.value("count", 0));
      for (const nlohmann::json& b : vote["bins"]) {
        const int count = b.value("count", 0);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::TextUnformatted(b.value("answer", std::string()).c_str());
        const float x0 = at.x + label_w + line * 0.5f, w = bar_w * static_cast<float>(count) / static_cast<float>(most);
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x0, at.y + line * 0.1f), ImVec2(x0 + w, at.y + line * 0.9f),
                                                  revealed && b.value("right", false) ? kRight : kBar);
        const std::string n = std::to_string(count);
        ImGui::GetWindowDrawList()->AddText(ImVec2(x0 + w + line * 0.4f, at.y), ImGui::GetColorU32(ImGuiCol_Text),
                                            n.c_str());
      }
    }
    const ImVec2 bottom = ImGui::GetCursorScreenPos();
    if (bottom.y > top.y) note_rect("room/bars", top, ImVec2(top.x + label_w + bar_w + line * 2, bottom.y));
  }
  const PredictState& p = s.predict;
  const TraceMeta& m = s.shown->trace.meta;
  if (!v.asks) {
    if (ImGui::Button(_("Open to the room"))) {
      const auto& all = bundled_lessons();
      const std::string lesson = p.lesson >= 0 && p.lesson < static_cast<int>(all.size()) ? all[p.lesson].name : "";
      s.room->open(lesson, m.kernel, m.block_size, to_string(m.dtype), p.pending->step);
    }
    note_widget("room/open");
  } else if (v.state->value("vote", 1) == 1 && v.state->value("state", std::string()) == "open") {
    if (ImGui::Button(_("Second vote"))) s.room->second_vote();
    note_widget("room/vote2");
  } else {
    ImGui::Dummy(ImVec2(1, ImGui::GetFrameHeight()));
  }
}

void room_reveal(AppState& s) {
  if (view_of(s).asks) s.room->reveal();
}

}  // namespace rs::gui
