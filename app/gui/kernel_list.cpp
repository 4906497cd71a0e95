#include "kernel_list.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "panels.hpp"
#include "said_text.hpp"

namespace rs::gui {

// listed_library, library_block_size: kernel_list.hpp.
std::vector<int> listed_library(const Session* ses, std::string_view track) {
  std::vector<int> out;
  if (!ses) return out;
  const auto& t = library_table();
  for (size_t i = 0; i < t.size(); ++i) {
    if (track != t[i].track) continue;
    for (const Trace& x : ses->traces) {
      if (x.meta.kernel == t[i].name) {
        out.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  return out;
}

unsigned library_block_size(const Session* ses, int i) {
  if (!ses || i < 0) return 0;
  for (const Trace& x : ses->traces) {
    if (x.meta.kernel == library_table().at(i).name) return x.meta.block_size;
  }
  return 0;
}

namespace {

// Where a kernel's line in the list puts its title: beside the name, wrapped under itself, or,
// where the room beside the name is narrow (a long name, the compare side's indented list), on the
// lines under the name, indented. The whole title is always shown.
struct KernelLine {
  float title_x = 0, title_y = 0;  // from the line's top-left
  float wrap = 0;                  // the title's wrap width
  float height = 0;                // the whole entry
};
KernelLine kernel_line(const char* name, const char* title, float width, bool titles) {
  KernelLine l;
  if (!titles) {  // names only (the selected kernel's title is under the list)
    l.height = ImGui::GetTextLineHeight();
    return l;
  }
  const float fs = ImGui::GetFontSize();
  const float beside = ImGui::CalcTextSize(name).x + fs * 1.1f;  // the name, its indent and a gap
  if (width - beside >= std::max(width * 0.45f, fs * 6)) {
    l.title_x = beside;
  } else {
    l.title_x = fs * 1.5f;
    l.title_y = ImGui::GetTextLineHeight();
  }
  l.wrap = std::max(width - l.title_x - 2, fs * 4);
  l.height = std::max(ImGui::GetTextLineHeight(), l.title_y + ImGui::CalcTextSize(title, nullptr, false, l.wrap).y);
  return l;
}
KernelLine kernel_line(const KernelInfo& k, float width, bool titles) {
  return kernel_line(k.name, i18n::tr(k.title), width, titles);
}

// The height of the user's kernel's header and entry in the list.
float yours_height(const YoursEntry& y, float width, bool titles) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(y.header.c_str(), nullptr, false, width).y + st.ItemSpacing.y +
         kernel_line(y.name.c_str(), y.title.c_str(), width, titles).height + st.ItemSpacing.y;
}

// The kernel list, grouped by track: a header per track (its source on hover), then its kernels:
// the name, and the whole title beside it or under it, wrapped, dimmer unless selected (the title and
// the teaching note on hover). The list scrolls inside `height` pixels and keeps the selected kernel
// in view when it changes. Each entry is noted as "<side>/kernel/<name>" for the GUI tests.
void kernel_list(const char* id, const char* side, Pick& p, float height, bool titles, YoursEntry* yours,
                 const Session* ses) {
  // Per list: the selection and the list's size when it last scrolled; a change of either (another
  // kernel, compare mode, another scale) brings the selection back into view.
  struct Scrolled {
    KernelId kernel;
    int library;
    bool yours;
    float w, h;
  };
  static std::map<std::string, Scrolled> scrolled_to;
  ImGui::BeginChild(id, ImVec2(0, height), false);
  note_rect(std::string(side) + "/kernel-list", ImGui::GetWindowPos(),
            ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()));
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const std::string key = std::string(side) + id;
  const bool yours_on = yours && yours->selected;
  const Scrolled now{p.kernel, p.library, yours_on, ImGui::GetWindowWidth(), ImGui::GetWindowHeight()};
  auto it = scrolled_to.find(key);
  const bool scroll = it == scrolled_to.end() || it->second.kernel != now.kernel ||
                      it->second.library != now.library || it->second.yours != now.yours || it->second.w != now.w ||
                      it->second.h != now.h;
  // Out of view, or at an edge: the last item into the middle, with its neighbours.
  auto scroll_into_view = [] {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const ImVec2 wlo = ImGui::GetWindowPos();
    const float wh = ImGui::GetWindowHeight();
    if (hi.y + 2 > wlo.y + wh || lo.y < wlo.y) ImGui::SetScrollHereY(0.5f);
  };
  scrolled_to[key] = now;
  if (yours) {  // the user's kernel first: the one being worked on
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kYours));
    ImGui::TextWrapped("%s", yours->header.c_str());
    ImGui::PopStyleColor();
    note_widget(std::string(side) + "/yours-header");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("Track \"yours\": your own kernel file, compiled on each save."));
    }
    const KernelLine line = kernel_line(yours->name.c_str(), yours->title.c_str(), ImGui::GetContentRegionAvail().x, titles);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##yours", yours_on, 0, ImVec2(0, line.height))) yours->clicked = true;
    note_widget(std::string(side) + "/kernel/yours");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", yours->name.c_str(), yours->title.c_str());
    if (scroll && yours_on) ImGui::SetScrollY(0.0f);  // the header and the entry at the top
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(pos.x + ImGui::GetFontSize() * 0.5f, pos.y), color::kYours, yours->name.c_str());
    if (titles) {
      dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(pos.x + line.title_x, pos.y + line.title_y),
                  yours_on ? text : dim, yours->title.c_str(), nullptr, line.wrap);
    }
  }
  for (const TrackInfo& track : track_table()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kSkyBlue));
    ImGui::TextWrapped("%s", i18n::tr(track.title));
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      std::string tip =
          strf(_("Track \"%s\": %s\nSource: %s"), track.id, i18n::tr(track.title), i18n::tr(track.source));
      if (track.source_gpu[0]) {
        tip += '\n';  // two appends: GCC 12's -Wrestrict false positive on "\n" + string
        tip += strf(_("Its timings are from %s"), track.source_gpu);
      }
      ImGui::SetTooltip("%s", tip.c_str());
    }
    for (KernelId kid : track_kernels(track.id)) {
      const KernelInfo& k = kernel_info(kid);
      const KernelLine line = kernel_line(k, ImGui::GetContentRegionAvail().x, titles);
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      ImGui::PushID(k.name);
      const bool on = p.kernel == k.id && p.library < 0 && !yours_on;
      if (ImGui::Selectable("##k", on, 0, ImVec2(0, line.height))) {
        p.kernel = k.id;
        p.library = -1;
        if (yours) yours->kernel_clicked = true;
      }
      ImGui::PopID();
      note_widget(std::string(side) + "/kernel/" + k.name);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(_("%s: %s\nFixes: %s\nCosts: %s"), k.name, i18n::tr(k.title), i18n::tr(k.fixes),
                          i18n::tr(k.costs));
      }
      if (scroll && on) scroll_into_view();
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddText(ImVec2(pos.x + ImGui::GetFontSize() * 0.5f, pos.y), text,
                  fit_name(k.name, ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 0.5f).c_str());
      if (titles) {
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(pos.x + line.title_x, pos.y + line.title_y),
                    on ? text : dim, i18n::tr(k.title), nullptr, line.wrap);
      }
    }
    // The library's own kernels for the same jobs (CUB's, traced as compiled), where the session holds them.
    for (int li : listed_library(ses, track.id)) {
      const LibraryKernelInfo& lk = library_table()[li];
      const KernelLine line = kernel_line(lk.name, i18n::tr(lk.title), ImGui::GetContentRegionAvail().x, titles);
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const bool on = p.library == li && !yours_on;
      ImGui::PushID(lk.name);
      if (ImGui::Selectable("##lib", on, 0, ImVec2(0, line.height))) {
        p = *library_pick(lk.name, library_block_size(ses, li));
        if (yours) yours->kernel_clicked = true;
      }
      ImGui::PopID();
      note_widget(std::string(side) + "/kernel/" + lk.name);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(_("%s: %s\nHow: %s\nCosts: %s\nThe library's own kernel, traced as compiled (the binary "
                            "tracer)"),
                          lk.name, i18n::tr(lk.title), i18n::tr(lk.what), i18n::tr(lk.costs));
      }
      if (scroll && on) scroll_into_view();
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddText(ImVec2(pos.x + ImGui::GetFontSize() * 0.5f, pos.y), color::kLibrary,
                  fit_name(lk.name, ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 0.5f).c_str());
      if (titles) {
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(pos.x + line.title_x, pos.y + line.title_y),
                    on ? text : dim, i18n::tr(lk.title), nullptr, line.wrap);
      }
    }
  }
  ImGui::EndChild();
}

// The height the kernel list wants: every track header and kernel entry (and the user's kernel's).
float kernel_list_height(float width, bool titles, const YoursEntry* yours, const Session* ses) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float h = st.WindowPadding.y;
  if (yours) h += yours_height(*yours, width, titles);
  for (const TrackInfo& track : track_table()) {
    h += ImGui::CalcTextSize(i18n::tr(track.title), nullptr, false, width).y + st.ItemSpacing.y;
    for (KernelId kid : track_kernels(track.id)) {
      h += kernel_line(kernel_info(kid), width, titles).height + st.ItemSpacing.y;
    }
    for (int li : listed_library(ses, track.id)) {
      const LibraryKernelInfo& lk = library_table()[li];
      h += kernel_line(lk.name, i18n::tr(lk.title), width, titles).height + st.ItemSpacing.y;
    }
  }
  return h;
}

}  // namespace

// pick_widgets (kernel_list.hpp).
Pick pick_widgets(const char* id, Pick p, float list_height, const Session* ses, YoursEntry* yours,
                  const YoursState* ys) {
  ImGui::PushID(id);
  // Each kernel's title beside its name where the whole list then fits; else names only (the title of
  // the selected one is under the list, every title on hover).
  const float width = ImGui::GetContentRegionAvail().x;
  const float with_titles = kernel_list_height(width, true, yours, ses);
  const bool titles = with_titles <= list_height;
  const float want = titles ? with_titles : kernel_list_height(width, false, yours, ses);
  kernel_list("##kernels", id, p, std::max(ImGui::GetTextLineHeightWithSpacing() * 4, std::min(want, list_height)),
              titles, yours, ses);
  const unsigned lib_bs = library_block_size(ses, p.library);  // a library kernel: the one size CUB ran it at
  const bool yours_on = yours && ys && yours->selected && !yours->kernel_clicked;
  ImGui::TextUnformatted(_("Threads per block"));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("blockDim.x: threads in each thread block, in warps of 32 lanes.\n"
                              "Each block reduces its part of the input in shared memory."));
  }
  for (unsigned bs : kBlockSizes) {
    char label[16];
    std::snprintf(label, sizeof label, "%u", bs);
    if (bs != kBlockSizes.front() && bs != 256) ImGui::SameLine();  // two rows of three
    const bool possible = yours_on           ? ys->takes(bs)
                          : p.library >= 0 ? bs == lib_bs
                                           : !block_size_problem(p.kernel, bs);
    if (!possible) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.4f);
    if (ImGui::RadioButton(label, p.block_size == bs) && possible) p.block_size = bs;
    note_widget(std::string(id) + "/bs" + label);
    if (!possible) {
      ImGui::PopStyleVar();
      if (ImGui::IsItemHovered()) {
        if (yours_on) {
          ImGui::SetTooltip(_("%s needs at least %u threads per block (its RS_LAUNCH_SHAPE)"), ys->name.c_str(),
                            ys->min_block_size);
        } else if (p.library >= 0) {
          ImGui::SetTooltip(_("%s ran at %u threads per block: CUB's tuning policy picks the block size for the GPU, "
                              "and the session holds that launch"),
                            p.lib()->name, lib_bs);
        } else {
          ImGui::SetTooltip("%s", said_text(*block_size_problem(p.kernel, bs)).c_str());
        }
      }
    }
  }
  ImGui::PopID();
  return yours_on ? p : p.valid();
}

}  // namespace rs::gui
