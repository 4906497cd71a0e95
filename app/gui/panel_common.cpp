// What every panel shares (panels.hpp): the Panel frame (its begin/end, title and the one-line "nothing to
// show" form), compact cell values, legends, colours with alpha, and the widget map the GUI tests read.
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <map>

#include "panels.hpp"

namespace rs::gui {

void Panel::draw(AppState& s, ImVec2 pos, ImVec2 size) {
  // The first title that fits the title bar: in compare mode "Shared memory A: reduce1 @256", then
  // "A: reduce1 @256", "A: reduce1"; else the full title, then the short one.
  std::vector<std::string> titles;
  if (s.compare && per_side_) {
    const Pick& p = slot_ == 0 ? s.a : s.b;
    const std::string side = std::string(1, slot_ == 0 ? 'A' : 'B') + ": " + s.side_name(slot_);
    const std::string at = " @" + std::to_string(p.block_size);
    titles = {std::string(_(short_title_)) + " " + side + at, side + at, side};
  } else {
    titles = {_(title_)};
    if (short_title_) titles.emplace_back(_(short_title_));
  }
  const float room = size.x - 2 * ImGui::GetStyle().FramePadding.x - 2;
  std::string name = titles.back();
  for (const std::string& t : titles) {
    if (ImGui::CalcTextSize(t.c_str()).x <= room) {
      name = t;
      break;
    }
  }
  name += std::string("###") + id_;
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  if (ImGui::Begin(name.c_str(), nullptr,
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings |
                       (no_title_ ? ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar : 0))) {
    note_rect(std::string("panel/") + id_, pos, ImVec2(pos.x + size.x, pos.y + size.y));
    // In Chinese, the title bar keeps the panel's English on hover (a title bar is no item: its rectangle).
    if (i18n::language() != i18n::Lang::En && !no_title_ &&
        ImGui::IsMouseHoveringRect(ImGui::GetCurrentWindow()->TitleBarRect().Min,
                                   ImGui::GetCurrentWindow()->TitleBarRect().Max, false) &&
        ImGui::IsWindowHovered()) {
      ImGui::SetTooltip("%s", title_);
    }
    drawContent(s);
  }
  ImGui::End();
}

const Step* Panel::stepOrSay(const ReplayView& v) {
  const Step* st = v.current();
  if (!st) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", v.missing);
    ImGui::PopStyleColor();
  }
  return st;
}

// A legend entry (panels.hpp's legend) from its English label and tip (msgids marked N_), translated. In Chinese
// its tip starts with the English label, so that the term reads in English on hover too (hover_english's rule;
// the entry's own tip is its tooltip). The views' legends (smem, global, warps, lanes, source) share it.
LegendEntry tr_entry(ImU32 color, const char* label, const char* tip, ImU32 lower) {
  LegendEntry e{color, _(label), tip ? _(tip) : nullptr, lower};
  if (i18n::language() != i18n::Lang::En) {
    // The combined tips by their msgids, kept for the process's life (LegendEntry holds pointers); a few dozen.
    static std::map<std::pair<const char*, const char*>, std::string> tips;
    std::string want = std::string(label) + (e.tip ? std::string("\n") + e.tip : std::string());
    std::string& t = tips[{label, tip}];
    if (t != want) t = std::move(want);
    e.tip = t.c_str();
  }
  return e;
}

void hover_english(const char* msgid) {
  if (i18n::language() == i18n::Lang::En || !ImGui::IsItemHovered()) return;
  if (ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00"); tip && tip->Active) return;  // one of its own
  ImGui::SetTooltip("%s", msgid);
}

const explain::TraceFacts& trace_facts_of(const AppState& s, const ReplayView& v) {
  struct Cached {
    const LoadedTrace* trace = nullptr;
    const Session* session = nullptr;
    std::string key;  // kernel, block size, tracer, type and records: a trace freed and another made at its address
    explain::TraceFacts facts;
  };
  static std::array<Cached, 4> cache;  // both sides, and a trace each switched from
  static size_t next = 0;
  static const explain::TraceFacts none;
  if (!v.trace) return none;
  const TraceMeta& m = v.trace->trace.meta;
  const std::string key = m.kernel + "@" + std::to_string(m.block_size) + "/" + std::to_string(int(m.tracer)) + "/" +
                          std::to_string(int(m.dtype)) + "/" + std::to_string(v.trace->trace.records.size());
  for (const Cached& c : cache) {
    if (c.trace == v.trace && c.session == s.session.get() && c.key == key) return c.facts;
  }
  Cached& c = cache[next++ % cache.size()];
  c = {v.trace, s.session.get(), key,
       explain::trace_facts(v.trace->replay, v.trace->trace.source, explain::context_in(s.session.get(), m))};
  return c.facts;
}

std::string say(const explain::Sentence& sentence) {
  return explain::render(sentence, [](const char* id) { return i18n::tr(id); });
}

void text_say(const explain::Sentence& sentence) {
  ImGui::TextWrapped("%s", say(sentence).c_str());
  if (i18n::language() != i18n::Lang::En) hover_english(explain::render(sentence).c_str());
}

void as_compiled_button(AppState& s, const ReplayView& v) {
  if (v.tag != 'A' || s.as_compiled || !trace_facts_of(s, v).binary_twin) return;
  if (ImGui::SmallButton(_("See it as compiled (B)"))) {
    s.as_compiled = true;
    s.selection_changed = true;
  }
  note_widget(std::string(1, v.tag) + "/as-compiled");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("The binary tracer's trace of the same block: every shared-memory access as the compiler "
                              "built it"));
  }
}

std::string fit_name(const char* name, float width) {
  const std::string s = name;
  if (ImGui::CalcTextSize(name).x <= width) return s;
  const char* ellipsis = "...";  // ASCII: the font atlas may lack U+2026
  const float room = width - ImGui::CalcTextSize(ellipsis).x;
  auto boundary = [&](size_t k) {
    const unsigned char p = s[k - 1], n = s[k];
    return (k >= 2 && s.compare(k - 2, 2, "::") == 0) || p == '_' || n == '<' ||
           ((std::islower(p) || std::isdigit(p)) && std::isupper(n));
  };
  size_t cut = 0;
  for (size_t k = 1; k < s.size(); ++k) {
    if (boundary(k) && ImGui::CalcTextSize(s.c_str(), s.c_str() + k).x <= room) cut = k;
  }
  if (cut == 0) {  // its first word alone is too wide: as many characters as fit
    while (cut + 1 < s.size() && ImGui::CalcTextSize(s.c_str(), s.c_str() + cut + 1).x <= room) ++cut;
  }
  return s.substr(0, cut) + ellipsis;
}

void text_tr(const char* msgid) {
  ImGui::TextUnformatted(_(msgid));
  hover_english(msgid);
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

const char* compact_value(uint32_t bits, DType t, char* buf, size_t len) {
  if (t == DType::Int32) return compact_int(static_cast<int32_t>(bits), buf, len);
  const float f = bits_to_float(bits);
  const float a = f < 0 ? -f : f;
  // At most four characters where it can (a sign adds one): .82, .097, 2.3, 15, 512, 1.2k, 6e-4 (the exact value
  // shows on hover). Issue 38: "0.097" and "6e-04" ran into the next cell of the shared-memory grid.
  if (a != 0 && a < 0.01f) {
    int e = static_cast<int>(std::floor(std::log10(static_cast<double>(a))));
    long m = std::lround(a / std::pow(10.0, e));
    if (m >= 10) {  // 9.7e-4 rounds to 1e-3
      m = 1;
      ++e;
    }
    std::snprintf(buf, len, "%s%lde%d", f < 0 ? "-" : "", m, e);
  } else if (a < 1 && a != 0) {
    char tmp[32];
    std::snprintf(tmp, sizeof tmp, "%.2g", static_cast<double>(a));  // "0.097", "0.59"
    std::snprintf(buf, len, "%s%s", f < 0 ? "-" : "", tmp[0] == '0' && tmp[1] == '.' ? tmp + 1 : tmp);
  } else if (a < 10) std::snprintf(buf, len, "%.2g", static_cast<double>(f));
  else if (a < 1000) std::snprintf(buf, len, "%.0f", static_cast<double>(f));
  else if (a < 2e9f) return compact_int(static_cast<int32_t>(f), buf, len);
  else std::snprintf(buf, len, "%.0e", static_cast<double>(f));
  return buf;
}

void legend_swatch(ImU32 c, const char* label, const char* tip) {
  float h = ImGui::GetTextLineHeight();
  // On the next line where this entry would not fit the rest of this one (a legend wraps, never clips).
  const float need = h + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
  if (ImGui::GetCursorPosX() > ImGui::GetCursorStartPos().x + 1 && ImGui::GetContentRegionAvail().x < need) {
    ImGui::NewLine();
  }
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), c);
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  ImGui::SameLine(0, h);
}

void legend(std::initializer_list<LegendEntry> entries, bool then_same_line) {
  const float h = ImGui::GetTextLineHeight(), gap = ImGui::GetStyle().ItemSpacing.x;
  float full = 0;
  for (const LegendEntry& e : entries) full += h + gap + ImGui::CalcTextSize(e.label).x + h;
  const bool labels = full - h <= ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const LegendEntry& e : entries) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(p, ImVec2(p.x + h, p.y + (e.lower ? h / 2 : h)), e.color);
    if (e.lower) dl->AddRectFilled(ImVec2(p.x, p.y + h / 2), ImVec2(p.x + h, p.y + h), e.lower);
    ImGui::Dummy(ImVec2(h, h));
    if (!labels && ImGui::IsItemHovered()) ImGui::SetTooltip("%s%s%s", e.label, e.tip ? ": " : "", e.tip ? e.tip : "");
    ImGui::SameLine();
    if (labels) {
      ImGui::TextUnformatted(e.label);
      if (e.tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.tip);
      ImGui::SameLine(0, h);
    }
  }
  const char* hover = _("(hover)");
  if (!labels && ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hover).x) {
    ImGui::TextDisabled("%s", hover);
    if (then_same_line) ImGui::SameLine();
  } else if (!then_same_line) {
    ImGui::NewLine();
  }
}

ImU32 with_alpha(ImU32 c, float a) {
  ImU32 alpha = static_cast<ImU32>(static_cast<float>((c >> 24) & 0xff) * a);
  return (c & 0x00ffffffu) | alpha << 24;
}

namespace {
// The rectangles noted in this frame, and in the frame last written: a widget or panel that is not
// drawn any more (a view folded into the idle line) leaves the map.
std::map<std::string, std::array<float, 4>> g_frame, g_written;
}  // namespace

void note_widget(const std::string& name) { note_rect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()); }

void note_rect(const std::string& name, ImVec2 a, ImVec2 b) { g_frame[name] = {a.x, a.y, b.x, b.y}; }

void write_widget_map(const std::string& path) {
  if (path.empty() || g_frame == g_written) {
    g_frame.clear();
    return;
  }
  g_written = std::move(g_frame);
  g_frame.clear();
  const std::string tmp = path + ".part";
  if (FILE* f = std::fopen(tmp.c_str(), "w")) {
    for (const auto& [name, r] : g_written) std::fprintf(f, "%s %.0f %.0f %.0f %.0f\n", name.c_str(), r[0], r[1], r[2], r[3]);
    std::fclose(f);
    std::rename(tmp.c_str(), path.c_str());
  }
}

}  // namespace rs::gui
