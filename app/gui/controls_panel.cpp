#include <cstdio>

#include "panels.hpp"

namespace rs::gui {

void Panel::draw(AppState& s, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  if (ImGui::Begin(title_, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse)) {
    drawContent(s);
  }
  ImGui::End();
}

const char* compact_int(int32_t v, char* buf, size_t len) {
  const double a = v < 0 ? -static_cast<double>(v) : v;
  if (a < 1000) std::snprintf(buf, len, "%d", v);
  else if (a < 1e4) std::snprintf(buf, len, "%.1fk", v / 1e3);
  else if (a < 1e6) std::snprintf(buf, len, "%.0fk", v / 1e3);
  else if (a < 1e7) std::snprintf(buf, len, "%.1fM", v / 1e6);
  else if (a < 1e9) std::snprintf(buf, len, "%.0fM", v / 1e6);
  else std::snprintf(buf, len, "%.1fG", v / 1e9);
  return buf;
}

void legend_swatch(ImU32 c, const char* label, const char* tip) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  float h = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), c);
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  ImGui::SameLine(0, h);
}

ImU32 with_alpha(ImU32 c, float a) {
  ImU32 alpha = static_cast<ImU32>(static_cast<float>((c >> 24) & 0xff) * a);
  return (c & 0x00ffffffu) | alpha << 24;
}

namespace {
void step_to(AppState& s, long target) {
  const long last = static_cast<long>(s.num_steps()) - 1;
  if (last < 0) return;
  s.step = static_cast<size_t>(target < 0 ? 0 : target > last ? last : target);
}
}  // namespace

void ControlsPanel::handleKeys(AppState& s, const std::vector<Key>& keys) {
  if (ImGui::GetIO().WantTextInput) return;
  for (Key k : keys) {
    switch (k) {
      case Key::Forward: step_to(s, static_cast<long>(s.step) + 1); break;
      case Key::Back: step_to(s, static_cast<long>(s.step) - 1); break;
      case Key::Start: step_to(s, 0); break;
      case Key::End: step_to(s, static_cast<long>(s.num_steps()) - 1); break;
    }
  }
}

void ControlsPanel::drawContent(AppState& s) {
  // Device banner: a plain statement of what the numbers come from.
  if (!s.device_known) {
    ImGui::TextDisabled("Looking for a CUDA GPU...");
  } else if (s.have_device) {
    ImGui::TextWrapped("GPU: %s (cc %d.%d, %d SMs, peak %.0f GB/s)", s.device.name.c_str(), s.device.cc_major,
                       s.device.cc_minor, s.device.sm_count, s.device.peak_gbps());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.55f, 0.2f, 1));
    ImGui::TextWrapped("%s", s.no_device_reason.c_str());
    ImGui::PopStyleColor();
    if (s.shown) {
      ImGui::TextWrapped("Showing a trace recorded on %s at %s.", s.shown->trace.meta.gpu.c_str(),
                         s.shown->trace.meta.date.c_str());
    } else {
      ImGui::TextWrapped("Nothing can be run or traced here. Open a recorded trace: reducescope FILE.rstrace");
    }
  }
  ImGui::Separator();

  ImGui::TextUnformatted("Kernel");
  for (const KernelInfo& k : kernel_table()) {
    char label[128];
    std::snprintf(label, sizeof label, "%s  %s", k.name, k.title);
    if (ImGui::Selectable(label, s.kernel == k.id) && s.kernel != k.id) {
      s.kernel = k.id;
      s.selection_changed = true;
    }
  }
  ImGui::Spacing();
  ImGui::TextUnformatted("Threads per block");
  for (unsigned bs : kBlockSizes) {
    char label[16];
    std::snprintf(label, sizeof label, "%u", bs);
    if (bs != kBlockSizes.front() && bs != 256) ImGui::SameLine();  // two rows of three
    const bool possible = !block_size_problem(s.kernel, bs);
    if (!possible) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.4f);
    if (ImGui::RadioButton(label, s.block_size == bs) && possible && s.block_size != bs) {
      s.block_size = bs;
      s.selection_changed = true;
    }
    if (!possible) {
      ImGui::PopStyleVar();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", block_size_problem(s.kernel, bs)->c_str());
    }
  }
  if (auto why = block_size_problem(s.kernel, s.block_size)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.55f, 0.2f, 1));
    ImGui::TextWrapped("%s", why->c_str());
    ImGui::PopStyleColor();
  }
  const KernelInfo& info = kernel_info(s.kernel);
  ImGui::Spacing();
  ImGui::TextWrapped("Fixes: %s", info.fixes);
  ImGui::TextWrapped("Costs: %s", info.costs);
  ImGui::Separator();

  // Replay controls.
  const size_t steps = s.num_steps();
  if (ImGui::Button("|<")) step_to(s, 0);
  ImGui::SameLine();
  if (ImGui::Button("< Back")) step_to(s, static_cast<long>(s.step) - 1);
  ImGui::SameLine();
  if (ImGui::Button("Forward >")) step_to(s, static_cast<long>(s.step) + 1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) step_to(s, static_cast<long>(steps) - 1);
  if (steps > 0) {
    int st = static_cast<int>(s.step);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##step", &st, 0, static_cast<int>(steps) - 1, "step %d")) step_to(s, st);
  }
  ImGui::TextDisabled("Keys: Left/Right step, Home/End jump");

  if (const Step* st = s.current_step()) {
    const auto& m = s.shown->trace.meta;
    ImGui::Text("%s, %u threads: step %zu (steps 0-%zu)", m.kernel.c_str(), m.block_size, s.step, steps - 1);
    ImGui::Text("ends at %s%s", to_string(st->ended_by),
                st->barrier_line ? (" (line " + std::to_string(st->barrier_line) + ")").c_str() : "");
    for (uint16_t line : st->lines) {
      ImGui::TextWrapped("line %u: %s", line, source_line(s.shown->trace.source, line).c_str());
    }
    if (!s.shown->correct) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.3f, 0.2f, 1));
      ImGui::TextWrapped("The tracing build's sum differs from the CPU reference!");
      ImGui::PopStyleColor();
    }
  }
  ImGui::Separator();
  if (s.busy) {
    const char spin[] = "|/-\\";
    ImGui::Text("%c %s", spin[static_cast<int>(ImGui::GetTime() * 8) % 4], s.status.c_str());
  } else if (s.have_device) {
    ImGui::TextDisabled("GPU idle");
  }
  if (!s.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.25f, 1));
    ImGui::TextWrapped("Error: %s", s.error.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace rs::gui
