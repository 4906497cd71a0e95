#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "panels.hpp"
#include "pitfall_words.hpp"

namespace rs::gui {


namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool has_line(const Step* st, int line) {
  return st && std::binary_search(st->lines.begin(), st->lines.end(), static_cast<uint16_t>(line));
}

// The races with an end on `line`, as the mark beside it says them: "<- race: 43 -> 44 (RAW), 44 (WAR)".
std::string race_mark(const std::vector<const SessionRace*>& races, int line) {
  std::string out;
  for (const SessionRace* r : races) {
    if (static_cast<int>(r->first_line) != line && static_cast<int>(r->second_line) != line) continue;
    out += out.empty() ? "" : ", ";
    out += r->first_line == r->second_line
               ? std::to_string(r->first_line)
               : std::to_string(r->first_line) + " -> " + std::to_string(r->second_line);
    out += " (" + r->kind + ")";
  }
  return out.empty() ? out : strf(_("<- race: %s"), out.c_str());
}

// Whether side `slot`'s listing is the user's kernel file as saved now rather than its trace's source: the user's
// kernel with no trace yet (no GPU, or the run still going), or a stale one where the file does not compile now.
// Its compile errors are marked at their lines; no step is highlighted (the replay is of other text). A stale trace
// of a file that compiles (its run failed, or a session's recording of an older text) keeps its own listing, the
// step's lines highlighted, under a line saying it is stale.
bool listing_of_file(const AppState& s, int slot) {
  if (!s.shows_yours(slot) || s.yours.source.empty()) return false;
  return !s.view(slot).trace || (s.yours.stale && !s.yours.compiled);
}

bool is_error(const YoursDiagnostic& d) { return d.severity == "error" || d.severity == "catastrophic error"; }

// The diagnostics at `line` as the mark beside it says them: "<- error: expected a \";\"".
std::string diagnostic_mark(const std::vector<YoursDiagnostic>& ds, int line) {
  std::string out;
  for (const YoursDiagnostic& d : ds) {
    if (static_cast<int>(d.line) != line) continue;
    out += out.empty() ? "<- " : "; ";
    out += d.severity + ": " + d.message;
  }
  return out;
}

}  // namespace

// The kernel file the trace's line numbers refer to (embedded in the trace when it was recorded, so it
// matches the code that ran). Lines whose warp instructions ran in the current step are highlighted (A
// orange, B sky blue); the barrier that ends the step is underlined in purple. Above the listing, the
// step's first highlighted line is written out whole, wrapped, so it reads however narrow the panel is.
// Compare mode: A's listing above B's, each scrolled to its own step (B may be another kernel file).
// The user's kernel file with no trace of its text (listing_of_file): the file as saved, its compile errors marked
// at their lines (a vermillion bar, the message beside the line, the column underlined), scrolled to the first.
void SourcePanel::drawContent(AppState& s) {
  const ReplayView a = s.view(0);
  if (!a.trace && !listing_of_file(s, 0)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", a.missing);
    ImGui::PopStyleColor();
    return;
  }
  const bool two = s.compare && s.view(1).trace;
  // English msgids: tr_entry translates them.
  static const char* const kLinesTip =
      N_("Source lines whose warp instructions (shared or global loads and stores, shuffles, atomics) ran in this step.");
  static const char* const kBarrierTip = N_("The __syncthreads() or __syncwarp() (or the warp shuffle) that ends the step.");
  if (listing_of_file(s, 0) && !two) {  // the file as saved: no step to highlight
    bool errors = false, others = false;
    for (const YoursDiagnostic& d : s.yours.diagnostics) (is_error(d) ? errors : others) = true;
    if (errors && others) {
      legend({tr_entry(color::kVermillion, N_("compile error"), N_("NVRTC's errors at their lines; the column underlined.")),
              tr_entry(color::kOrange, N_("warning or note"),
                       N_("NVRTC's warnings, and notes (a file that ends mid-line)."))});
    } else if (errors || others) {
      legend({tr_entry(errors ? color::kVermillion : color::kOrange, errors ? N_("compile error") : N_("warning or note"),
                       N_("NVRTC's messages at their lines; the column underlined."))});
    }
  } else if (two) {
    legend({tr_entry(with_alpha(color::kOrange, 0.55f), N_("A: this step"), kLinesTip),
            tr_entry(with_alpha(color::kSkyBlue, 0.55f), N_("B: this step"), kLinesTip),
            tr_entry(color::kPurple, N_("the step's barrier"), kBarrierTip)});
  } else {
    legend({tr_entry(with_alpha(color::kOrange, 0.55f), N_("this step"), kLinesTip),
            tr_entry(color::kPurple, N_("the step's barrier"), kBarrierTip)});
  }
  if (!two) {
    drawListing(s, 0, 0.0f);
    return;
  }
  const float half = (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) / 2;
  drawListing(s, 0, half);
  drawListing(s, 1, 0.0f);
}

void SourcePanel::drawListing(AppState& s, int slot, float height) {
  const ReplayView v = s.view(slot);
  const bool file = listing_of_file(s, slot);
  const Step* st = file ? nullptr : v.current();
  const ImU32 hl = with_alpha(slot == 0 ? color::kOrange : color::kSkyBlue, 0.55f);
  ImGui::BeginChild(slot == 0 ? "##listingA" : "##listingB", ImVec2(0, height), false);
  const std::string& text = file ? s.yours.source : v.trace->trace.source;
  if (text_of_[slot] != text) {
    lines_[slot] = split_lines(text);
    text_of_[slot] = text;
  }
  const std::vector<std::string>& lines = lines_[slot];
  const std::vector<const SessionRace*> races = s.races(slot);
  const std::vector<YoursDiagnostic> none;
  const std::vector<YoursDiagnostic>& diags = file ? s.yours.diagnostics : none;
  if (lines.size() <= 1 && !file) {
    ImGui::TextDisabled("%s", _("This trace holds no source text."));
    ImGui::EndChild();
    return;
  }
  // The step's first line, whole.
  const int first = st && !st->lines.empty() ? st->lines.front() : st ? st->barrier_line : 0;
  const std::string tag = s.compare ? std::string(slot == 0 ? "A " : "B ") : std::string();
  int first_error = 0;
  if (file) {  // what the listing is, and the first error whole (the file as a whole: line 0)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
    if (v.trace && s.yours.stale) {
      ImGui::TextWrapped(_("%sSTALE: the replay shows the last good build; below, %s as saved now."), tag.c_str(),
                         std::filesystem::path(s.yours.path).filename().string().c_str());
      note_widget("source/stale");
    }
    for (const YoursDiagnostic& d : diags) {
      if (!is_error(d)) continue;
      first_error = static_cast<int>(d.line);
      if (d.line) ImGui::TextWrapped(_("%sline %u: %s: %s"), tag.c_str(), d.line, d.severity.c_str(), d.message.c_str());
      else ImGui::TextWrapped("%s%s: %s", tag.c_str(), d.severity.c_str(), d.message.c_str());
      note_widget(slot == 0 ? "source/errorA" : "source/errorB");
      break;
    }
    ImGui::PopStyleColor();
  }
  if (!file && s.shows_yours(slot) && s.yours.stale) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
    ImGui::TextWrapped(_("%sSTALE: the replay and this listing are the last good build's; the file has changed since."),
                       tag.c_str());
    ImGui::PopStyleColor();
    note_widget("source/stale");
  }
  if (first > 0 && static_cast<size_t>(first) <= lines.size()) {
    std::string text = lines[static_cast<size_t>(first - 1)];
    text.erase(0, std::min(text.find_first_not_of(" \t"), text.size()));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(slot == 0 ? color::kOrange : color::kSkyBlue));
    ImGui::TextWrapped(_("%sline %d: %s"), tag.c_str(), first, text.c_str());
    ImGui::PopStyleColor();
    note_widget(slot == 0 ? "source/lineA" : "source/lineB");
  }
  if (!races.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
    ImGui::TextWrapped(races.size() == 1 ? _("%sracecheck: %zu race on %s (red marks).")
                                         : _("%sracecheck: %zu races on %s (red marks)."),
                       tag.c_str(), races.size(), race_lines_phrase(races).c_str());
    ImGui::PopStyleColor();
    note_widget(slot == 0 ? "source/racesA" : "source/racesB");
  }
  ImGui::BeginChild("##src", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  // Scroll the first highlighted line into view when the step or the trace changes (the file: its first error,
  // when the file or its errors change).
  const std::string scroll_key = file ? "file " + std::to_string(first_error) + " " + std::to_string(text.size())
                                      : std::to_string(reinterpret_cast<uintptr_t>(v.trace)) + " " + std::to_string(v.step);
  if (scroll_key_[slot] != scroll_key) {
    scroll_key_[slot] = scroll_key;
    scroll_frames_[slot] = 3;  // a listing that has just appeared can scroll only once its height is known
  }
  if (scroll_frames_[slot] > 0) {
    --scroll_frames_[slot];
    // Where racecheck found races, they are the lesson (the step's line is written out above): the
    // listing opens at the first race line.
    int target = races.empty() ? first : static_cast<int>(races.front()->first_line);
    for (const SessionRace* r : races) target = std::min(target, static_cast<int>(r->first_line));
    if (file) {  // its first error; else the code under the comment block, from its launch shape on
      target = first_error;
      for (size_t i = 0; i < lines.size() && target == 0; ++i) {
        const size_t at = lines[i].find_first_not_of(" \t");
        const bool comment = at != std::string::npos && lines[i].compare(at, 2, "//") == 0;
        if (!comment && lines[i].find("RS_LAUNCH_SHAPE") != std::string::npos) target = static_cast<int>(i) + 1;
      }
    }
    if (target > 0) ImGui::SetScrollY(std::max(0.0f, (target - 1) * lh - ImGui::GetWindowHeight() * 0.3f));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(lines.size()), lh);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const int line = i + 1;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool in = has_line(st, line);
      if (in) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), hl);
      const std::string mark = races.empty() ? std::string() : race_mark(races, line);
      if (!mark.empty()) dl->AddRectFilled(p, ImVec2(p.x + std::max(4.0f, lh * 0.2f), p.y + lh), color::kVermillion);
      if (st && st->barrier_line == line) dl->AddRectFilled(ImVec2(p.x, p.y + lh - 3), ImVec2(p.x + w, p.y + lh), color::kPurple);
      ImGui::TextDisabled("%4d", line);
      ImGui::SameLine();
      const float text_x = ImGui::GetCursorScreenPos().x;
      ImGui::TextUnformatted(lines[static_cast<size_t>(i)].c_str());
      const std::string diag = diags.empty() ? std::string() : diagnostic_mark(diags, line);
      if (!diag.empty()) {  // a compile error here: a bar, the column underlined, the message beside the line
        const bool hovered = ImGui::IsItemHovered();
        bool error_here = false;  // an error (vermillion), or only warnings and notes (orange)
        for (const YoursDiagnostic& d : diags) error_here = error_here || (static_cast<int>(d.line) == line && is_error(d));
        const ImU32 c = error_here ? color::kVermillion : color::kOrange;
        dl->AddRectFilled(p, ImVec2(p.x + std::max(4.0f, lh * 0.2f), p.y + lh), c);
        const std::string& src = lines[static_cast<size_t>(i)];
        for (const YoursDiagnostic& d : diags) {
          if (static_cast<int>(d.line) != line || d.column == 0) continue;
          const size_t col = std::min<size_t>(d.column - 1, src.size());
          const float x0 = text_x + ImGui::CalcTextSize(src.substr(0, col).c_str()).x;
          const float w1 = col < src.size() ? ImGui::CalcTextSize(src.substr(col, 1).c_str()).x : lh * 0.4f;
          dl->AddRectFilled(ImVec2(x0, p.y + lh - 4), ImVec2(x0 + std::max(w1, lh * 0.4f), p.y + lh - 1), c);
        }
        ImGui::SameLine();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c), "%s", diag.c_str());
        note_rect("source/error-line/" + std::to_string(line), p, ImVec2(p.x + w, p.y + lh));  // the row, as seen
        if (hovered || ImGui::IsItemHovered()) ImGui::SetTooltip(_("line %d: %s"), line, diag.substr(3).c_str());
        continue;
      }
      if (!mark.empty()) {
        const bool hovered = ImGui::IsItemHovered();
        ImGui::SameLine();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kVermillion), "%s", mark.c_str());
        if (hovered || ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          for (const SessionRace* r : races) {
            if (static_cast<int>(r->first_line) == line || static_cast<int>(r->second_line) == line) {
              ImGui::TextUnformatted(describe_race(*r).c_str());
            }
          }
          ImGui::TextDisabled("%s", _("compute-sanitizer --tool racecheck, one block; the first line's access came first"));
          ImGui::EndTooltip();
        }
        continue;
      }
      if (in && ImGui::IsItemHovered()) {
        int loads = 0, stores = 0;
        for (size_t ai : st->accesses) {
          const WarpAccess& acc = v.trace->replay.accesses()[ai];
          if (acc.line == line) (acc.kind == AccessKind::Load ? loads : stores)++;
        }
        ImGui::SetTooltip(_("line %d: %d warp-level shared loads and %d stores in this step (side %c)"), line, loads,
                          stores, v.tag);
      }
    }
  }
  ImGui::EndChild();
  ImGui::EndChild();
}

}  // namespace rs::gui
