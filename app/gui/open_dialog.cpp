#include "open_dialog.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "app_setup.hpp"  // asset_dir
#include "panels.hpp"     // note_widget, strf

namespace rs::gui {

namespace {

namespace fs = std::filesystem;

// Files that a dialog offers: those in `dirs` whose extension is one of `exts`, sorted.
std::vector<std::string> files_in(std::initializer_list<fs::path> dirs, std::initializer_list<const char*> exts) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::path& dir : dirs) {
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const auto ext = it->path().extension();
      for (const char* e : exts) {
        if (ext == e) out.push_back(it->path().string());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Session files and traces that File > Open offers: the bundled ones and those in the working folder.
std::vector<std::string> openable_files() {
  std::error_code ec;
  return files_in({asset_dir() / "sessions", fs::current_path(ec), asset_dir() / "traces"}, {".rssession", ".rstrace"});
}

// The dialogs' titles, with their ImGui IDs after "###" (the same in either language).
std::string session_title() { return strf("%s###open_session", _("Open a session or trace")); }
std::string kernel_title() { return strf("%s###open_kernel", _("Open your kernel file")); }

}  // namespace

std::string OpenDialog::drawBody(const char* what, char* path, size_t size, const std::vector<std::string>& files) {
  ImGui::TextWrapped("%s", what);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##path", path, size, ImGuiInputTextFlags_EnterReturnsTrue);
  note_widget("open/path");
  ImGui::BeginChild("##files", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2.5f), true);
  for (const auto& f : files) {
    if (ImGui::Selectable(f.c_str(), f == path)) std::snprintf(path, size, "%s", f.c_str());
  }
  ImGui::EndChild();
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.25f, 1));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  std::string chosen;
  if (ImGui::Button(_("Open")) || enter) chosen = path;
  note_widget("open/open");
  ImGui::SameLine();
  if (ImGui::Button(_("Cancel"))) ImGui::CloseCurrentPopup();
  return chosen;
}

void OpenDialog::draw(AppState& s, DataFeed& feed) {
  if (requested_ != Kind::None) {
    const bool kernel = requested_ == Kind::KernelFile;
    ImGui::OpenPopup((kernel ? kernel_title() : session_title()).c_str());
    std::error_code ec;
    files_ = kernel ? files_in({fs::current_path(ec)}, {".cu", ".cuh"}) : openable_files();
    if (kernel && !kernel_path_[0] && !s.yours.path.empty()) {
      std::snprintf(kernel_path_, sizeof kernel_path_, "%s", s.yours.path.c_str());
    }
    error_.clear();
    requested_ = Kind::None;
  }
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(d.x * 0.6f, d.y * 0.5f), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal(session_title().c_str())) {
    const std::string chosen = drawBody(_("File (.rssession or .rstrace):"), path_, sizeof path_, files_);
    if (!chosen.empty()) {
      error_ = feed.open_file(s, chosen);
      if (error_.empty()) ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  ImGui::SetNextWindowSize(ImVec2(d.x * 0.6f, d.y * 0.5f), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal(kernel_title().c_str())) {
    const std::string chosen = drawBody(
        _("Your kernel file (.cu; `reducescope new --from reduce1 FILE.cu` writes a starting file). The window "
          "compiles it on each save and, on a GPU, runs and traces it:"),
        kernel_path_, sizeof kernel_path_, files_);
    if (!chosen.empty()) {
      std::error_code ec;
      if (!fs::is_regular_file(chosen, ec)) {
        error_ = strf(_("%s: no such file"), chosen.c_str());
      } else {
        feed.open_kernel_file(s, chosen, s.yours.exercise);
        s.selection_changed = true;  // side A: the user's kernel; side B and the timings as before
        ImGui::CloseCurrentPopup();
      }
    }
    ImGui::EndPopup();
  }
}

}  // namespace rs::gui
