#include "open_dialog.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "app_setup.hpp"  // asset_dir

namespace rs::gui {

namespace {

namespace fs = std::filesystem;

// Session files and traces that File > Open offers: the bundled ones and those in the working folder.
std::vector<std::string> openable_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::path& dir : {asset_dir() / "sessions", fs::current_path(ec), asset_dir() / "traces"}) {
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext == ".rssession" || ext == ".rstrace") out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void OpenDialog::draw(AppState& s, DataFeed& feed) {
  if (requested_) {
    ImGui::OpenPopup("Open a session or trace");
    requested_ = false;
    files_ = openable_files();
    error_.clear();
  }
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(d.x * 0.6f, d.y * 0.5f), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Open a session or trace")) return;
  ImGui::TextUnformatted("File (.rssession or .rstrace):");
  ImGui::SetNextItemWidth(-1);
  const bool enter = ImGui::InputText("##path", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::BeginChild("##files", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2.5f), true);
  for (const auto& f : files_) {
    if (ImGui::Selectable(f.c_str(), f == path_)) std::snprintf(path_, sizeof path_, "%s", f.c_str());
  }
  ImGui::EndChild();
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.25f, 1));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  if (ImGui::Button("Open") || enter) {
    error_ = feed.open_file(s, path_);
    if (error_.empty()) ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace rs::gui
