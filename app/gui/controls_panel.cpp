#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>

#include "exercises.hpp"
#include "kernel_list.hpp"
#include "panels.hpp"
#include "predict.hpp"
#include "stored.hpp"  // explain: trace notes read back
#include "pitfall_words.hpp"

namespace rs::gui {

namespace {

// A binary trace's notes in the window's language, one line each (read back from the tracer's English:
// explain/stored.hpp; a line in other words as it is).
std::string trace_notes(const std::string& notes) {
  std::string out;
  for (const explain::Sentence& n : explain::trace_note_sentences(notes)) {
    if (!out.empty()) out += '\n';  // two appends: "\n" + say(n) trips GCC 12's -Wrestrict false positive
    out += say(n);
  }
  return out;
}

// A compare button: B shows `b` beside side A, stepping together; `label` and `label_on` (while it does, disabled)
// are formats of the kernel's name.
void compare_button(AppState& s, const Pick& b, const char* label, const char* label_on, const std::string& widget,
                    const std::string& tooltip) {
  const bool on = s.compare && s.b == b;
  const std::string name = b.name();
  ImGui::BeginDisabled(on);
  if (ImGui::Button(strf(on ? label_on : label, name.c_str()).c_str())) {
    s.compare = true;
    s.b = b;
    s.selection_changed = true;
  }
  ImGui::EndDisabled();
  note_widget(widget);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tooltip.c_str());
}

// A pitfall kernel (wrong code on purpose): what is wrong, what it did on the session's GPU
// (`reducescope pitfalls --out`: wrong sums in how many runs, racecheck's races) in pitfall_words' plain
// words, and a button that puts the kernel that fixes it beside it (compare mode, the same block size).
void pitfall_results(AppState& s, const KernelInfo& k) {
  const PitfallWords w = pitfall_words(s.session.get(), k, s.a.block_size);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
  ImGui::TextWrapped("%s", i18n::tr(w.verdict.c_str()));
  if (!w.results.empty()) {
    ImGui::TextWrapped("%s", i18n::tr(w.results.c_str()));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(w.results_how.c_str()));
    note_widget("A/pitfall-results");
  }
  if (!w.races.empty() && !race_question_waiting(s)) {  // the lesson's race question waits: not its answer
    ImGui::TextWrapped("%s", i18n::tr(w.races.c_str()));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(w.races_how.c_str()));
  }
  ImGui::PopStyleColor();
  if (!w.missing.empty()) ImGui::TextWrapped("%s", i18n::tr(w.missing.c_str()));
  const KernelInfo* fix = w.fix.empty() ? nullptr : find_kernel(w.fix);
  if (!fix) return;
  compare_button(s, Pick{fix->id, s.a.block_size}.valid(), _("Compare with the fix: %s"),
                 _("Comparing with the fix: %s"), "A/compare-fix",
                 strf(_("%s (%s) is the same kernel with the bug fixed: B shows it below this one, step by step."),
                      fix->name, i18n::tr(fix->title)));
}

// Every entry of the kernel list in its order (each track's kernels, then its library kernels the session holds),
// for Down and Up: shipped kernels at `bs`, library kernels at their trace's block size.
std::vector<Pick> list_order(const Session* ses, unsigned bs) {
  std::vector<Pick> out;
  for (const TrackInfo& track : track_table()) {
    for (KernelId kid : track_kernels(track.id)) out.push_back(Pick{kid, bs});
    for (int li : listed_library(ses, track.id)) {
      if (auto p = library_pick(library_table()[li].name, library_block_size(ses, li))) out.push_back(*p);
    }
  }
  return out;
}

// The entry after (dir 1) or before (dir -1) side A's in list_order, at side A's block size where it takes it.
Pick next_pick(const AppState& s, int dir) {
  const std::vector<Pick> order = list_order(s.session.get(), s.a.block_size);
  int at = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const Pick& p = order[i];
    if (s.a.library >= 0 ? p.library == s.a.library : p.library < 0 && p.kernel == s.a.kernel) at = static_cast<int>(i);
  }
  return order.at(static_cast<size_t>(std::clamp(at + dir, 0, static_cast<int>(order.size()) - 1)));
}

// The block size twice (dir 1) or half (dir -1) `bs`, within 32..1024.
unsigned next_block(unsigned bs, int dir) {
  const unsigned b = dir > 0 ? bs * 2 : bs / 2;
  return b < kBlockSizes.front() || b > kBlockSizes.back() ? bs : b;
}

// One choice of two among the open session's traces of side A: `label` over two radio buttons that set `value`
// (false: the first, true: the second), each with its widget id and tooltip (nullptr: none).
struct SwitchSide {
  const char* text;     // the button's words (translated by the caller)
  const char* widget;   // note_widget id
  const char* tooltip;  // translated, or nullptr
};
void session_switch(AppState& s, const char* label, bool& value, SwitchSide off, SwitchSide on) {
  ImGui::TextUnformatted(label);
  for (const bool side : {false, true}) {
    const SwitchSide& w = side ? on : off;
    if (side) ImGui::SameLine();
    if (ImGui::RadioButton(w.text, value == side) && value != side) {
      value = side;
      s.selection_changed = true;
    }
    note_widget(w.widget);
    if (w.tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", w.tooltip);
  }
}

// int32 / float32 (key D): the open session's float32 traces (issue 30), offered where it holds both of side A's
// kernel at its block size.
void element_type_switch(AppState& s) {
  if (!s.session) return;
  if (s.session->trace_dtypes(s.a.name(), s.a.block_size).size() < 2) return;
  session_switch(s, _("Element type"), s.float32, {"int32", "A/dtype/int32", nullptr},
                 {"float32", "A/dtype/float32",
                  _("The same block traced on float32 input of the same pattern: the shared-memory cells show float "
                    "values (key D)")});
}

// Source probe / as compiled (key B): the open session's binary trace of side A's kernel (the pitfalls as compiled,
// issue 29), offered where it holds a trace of it at its block size by each tracer.
void tracer_switch(AppState& s) {
  if (!s.session) return;
  const std::string name = s.a.name();
  if (!s.session->has_tracer(name, s.a.block_size, Tracer::SourceProbe) ||
      !s.session->has_tracer(name, s.a.block_size, Tracer::Binary)) {
    return;
  }
  session_switch(s, _("Traced by"), s.as_compiled,
                 {_("the source"), "A/tracer/source",
                  _("The source probe: every access the kernel's source makes, as the source says it")},
                 {_("as compiled"), "A/tracer/binary",
                  _("The binary tracer: the same block as the compiler built it; a load or store it removed is not "
                    "there (key B)")});
}

// Side A is a library kernel (CUB's, issue 29): what it is and how it does the job, what its trace cannot show, and
// buttons that put the shipped kernels doing the same job beside it.
void library_note(AppState& s, const LibraryKernelInfo& lk) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kLibrary));
  ImGui::TextWrapped("%s: %s", lk.name, i18n::tr(lk.title));
  note_widget("A/selected-title");
  ImGui::PopStyleColor();
  for (const char* beside : lk.beside) {  // first: what a class does with it (the long words below may scroll)
    const KernelInfo* k = beside ? find_kernel(beside) : nullptr;
    if (!k) continue;
    const std::string tip = strf(_("%s (%s) does the same job with our code: B shows it below the library's kernel, "
                                   "step by step."),
                                 k->name, i18n::tr(k->title));
    compare_button(s, Pick{k->id, s.a.block_size}.valid(), _("Compare with %s"), _("Comparing with %s"),
                   std::string("A/compare-with/") + k->name, tip);
  }
  ImGui::TextWrapped(_("How: %s"), i18n::tr(lk.what));
  ImGui::TextWrapped(_("Costs: %s"), i18n::tr(lk.costs));
  if (s.shown && !s.shown->trace.meta.notes.empty()) {  // what the binary tracer could not see
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.75f, 0.75f, 1));
    ImGui::TextWrapped("%s", trace_notes(s.shown->trace.meta.notes).c_str());
    ImGui::PopStyleColor();
    note_widget("A/library-notes");
  }
}

// Side A is a shipped kernel that a library kernel the session holds does the same job as: buttons that put the
// library's kernel beside it.
void library_buttons(AppState& s, const KernelInfo& k) {
  if (!s.session) return;
  for (const LibraryKernelInfo& lk : library_table()) {
    if (std::find_if(lk.beside.begin(), lk.beside.end(), [&](const char* b) { return b && std::string_view(b) == k.name; }) ==
        lk.beside.end()) {
      continue;
    }
    const int li = static_cast<int>(&lk - library_table().data());
    const unsigned bs = library_block_size(s.session.get(), li);
    if (!bs) continue;
    const std::string tip = strf(_("%s (%s): how the library does the same job, below this kernel, step by step "
                                   "(traced as compiled)."),
                                 lk.name, i18n::tr(lk.title));
    compare_button(s, *library_pick(lk.name, bs), _("Compare with %s"), _("Comparing with %s"),
                   std::string("A/compare-with/") + lk.name, tip);
  }
}

void select(AppState& s, Pick p) {
  p = p.valid();
  if (p != s.a) {
    s.a = p;
    s.selection_changed = true;
  }
}

// Side A at block size `bs`: the user's kernel where it is shown and takes it, else select().
void select_block(AppState& s, unsigned bs) {
  if (s.a.library >= 0 && !s.shows_yours(0)) return;  // a library kernel: the one block size CUB ran it at
  if (!s.shows_yours(0)) {
    select(s, {s.a.kernel, bs});
  } else if (bs != s.a.block_size && s.yours.takes(bs)) {
    s.a.block_size = bs;
    s.selection_changed = true;
  }
}

// Side A shows the user's kernel (`on`), or the shipped kernel AppState::a names, at a block size it takes.
void select_yours(AppState& s, bool on) {
  if (on == s.shows_yours(0) || (on && !s.yours.open())) return;
  s.yours_selected = on;
  if (on && !s.yours.takes(s.a.block_size)) s.a.block_size = s.yours.min_block_size;
  if (!on) s.a = s.a.valid();
  s.selection_changed = true;
}

// Under the list while side A shows the user's kernel: its file, launch shape and status, the banner (a compile
// error, a deleted file, a run stopped by the time limit or a CUDA fault) in full, and the exercise: a combo to
// choose one and how many of its checks pass (the checks themselves: draw_exercise_band, over the replay).
void draw_yours(AppState& s) {
  YoursState& y = s.yours;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kYours));
  ImGui::TextWrapped(_("%s: your kernel (track \"yours\")"), y.name.c_str());
  note_widget("A/selected-title");
  ImGui::PopStyleColor();
  if (!y.path.empty()) {  // its name (the whole path on hover: a long one took three lines at 1280x720)
    ImGui::TextWrapped(_("File: %s"), std::filesystem::path(y.path).filename().string().c_str());
    note_widget("yours/file");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", y.path.c_str());
  }
  if (!y.session.empty()) {
    ImGui::TextWrapped(y.path.empty() ? _("From %s") : _("Its trace: the recording in %s"), y.session.c_str());
  }
  // What its tracer could not see (a binary trace's notes: docs/binary-trace.md), one line each.
  if (s.shown && !s.shown->trace.meta.notes.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.75f, 0.75f, 1));
    ImGui::TextWrapped("%s", trace_notes(s.shown->trace.meta.notes).c_str());
    ImGui::PopStyleColor();
    note_widget("yours/notes");
  }
  if (!y.shape.empty()) ImGui::TextWrapped(_("Launch shape: %s"), y.shape.c_str());
  if (y.busy) {
    const char spin[] = "|/-\\";
    ImGui::TextWrapped("%c %s", spin[static_cast<int>(ImGui::GetTime() * 8) % 4], y.status.c_str());
  } else if (y.stale) {
    ImGui::TextWrapped(_("%s (STALE)"), y.status.c_str());
  } else {
    ImGui::TextWrapped("%s", y.status.c_str());
  }
  note_widget("yours/status");
  note_widget(std::string("yours/state/") + y.state());  // for the GUI tests: where the file stands
  if (!y.banner.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.35f, 1));
    ImGui::TextWrapped("%s", (y.banner_more.empty() ? y.banner : y.banner_more).c_str());
    ImGui::PopStyleColor();
    note_widget("yours/banner");
  }
  if (!y.path.empty()) {
    text_tr(N_("Exercise"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##exercise", y.exercise.empty() ? _("(none)") : y.exercise.c_str())) {
      if (ImGui::Selectable(strf("%s##none", _("(none)")).c_str(), y.exercise.empty())) y.exercise.clear();
      for (const Exercise& x : exercises()) {
        if (ImGui::Selectable(x.name, y.exercise == x.name)) y.exercise = x.name;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n(%s)", i18n::tr(x.title), i18n::tr(x.source));
      }
      ImGui::EndCombo();
    }
    note_widget("yours/exercise");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("After each good run the window runs `reducescope check FILE --exercise NAME` on the "
                                "GPU\nand shows its checks over the replay (`reducescope new --exercise NAME FILE.cu` "
                                "writes its starting file)."));
    }
  }
  if (!y.checks_note.empty()) {  // the checks themselves: over the replay (draw_exercise_band), where they have room
    const char* note = y.checks_note.c_str();
    if (y.checks.empty() || !s.shows_yours(0)) ImGui::TextWrapped("%s", note);
    else ImGui::TextWrapped(_("%s (above the replay)"), note);
    note_widget("yours/checks-note");
  }
}

// Where the data comes from, in English (`english`: the automation's "origin:" line, tests/gui_xvfb.sh) or in the
// window's language (i18n::tr). data_origin(), origin_sentence(): English; the window shows the translated forms.
using Words = const char* (*)(const char* msgid);
const char* english(const char* msgid) { return msgid; }

std::string data_origin_in(const AppState& s, Words t) {
  if (s.session) {
    return strf(t(N_("RECORDING from %s, %s (%s)")), s.session->meta.gpu.c_str(), s.session->meta.date.c_str(),
                s.session_path.c_str());
  }
  if (s.have_device) return strf(t(N_("live on %s")), s.device.name.c_str());
  if (s.shown) {
    const TraceMeta& m = s.shown->trace.meta;
    return strf(t(N_("trace file recorded on %s, %s")), m.gpu.c_str(), m.date.c_str());
  }
  return t(N_("no data yet"));
}

std::string origin_sentence_in(const AppState& s, Words t) {
  if (!s.session) return data_origin_in(s, t);
  const std::string date = s.session->meta.date.substr(0, 10);
  if (!s.have_device && s.device_known) {
    return strf(t(N_("No NVIDIA GPU here: showing the session recorded on %s, %s.")), s.session->meta.gpu.c_str(),
                date.c_str());
  }
  return strf(t(N_("RECORDING: replaying a session recorded on %s, %s.")), s.session->meta.gpu.c_str(), date.c_str());
}

}  // namespace

std::string origin_sentence(const AppState& s) { return origin_sentence_in(s, english); }

// The menu bar's forms: the window's language (the first is the whole of it, its tooltip).
std::vector<std::string> data_origin_forms(const AppState& s) {
  if (s.session) {
    const SessionMeta& m = s.session->meta;
    const std::string date = m.date.substr(0, 10);
    return {data_origin_in(s, i18n::tr), strf(_("RECORDING from %s, %s"), m.gpu.c_str(), m.date.c_str()),
            strf(_("RECORDING from %s, %s"), m.gpu.c_str(), date.c_str()), strf(_("RECORDING, %s"), m.gpu.c_str()),
            _("RECORDING")};
  }
  return {data_origin_in(s, i18n::tr), s.have_device ? _("live") : ""};
}

std::string data_origin(const AppState& s) { return data_origin_in(s, english); }

void step_to(AppState& s, long target) {
  const long last = static_cast<long>(s.max_steps()) - 1;
  if (last < 0) return;
  if (predict_gate(s, std::min(target, last))) return;  // Predict mode: a question waits for its answer first
  s.step = static_cast<size_t>(target < 0 ? 0 : target > last ? last : target);
}

void play_pause(AppState& s) {
  s.playing = !s.playing;
  if (s.playing && s.step + 1 >= s.max_steps()) s.step = 0;  // play at the end starts over
  s.next_play_step = ImGui::GetTime() + 1.0 / s.speed;
}

void ControlsPanel::tick(AppState& s) {
  if (!s.playing) return;
  const double now = ImGui::GetTime();
  if (now < s.next_play_step) return;
  s.next_play_step = now + 1.0 / s.speed;
  if (s.step + 1 >= s.max_steps()) {
    s.playing = false;  // stop at the last step
  } else {
    step_to(s, static_cast<long>(s.step) + 1);  // through Predict mode's gate
  }
}

void ControlsPanel::handleKeys(AppState& s, const std::vector<Key>& keys) {
  if (ImGui::GetIO().WantTextInput) return;
  for (Key k : keys) {
    switch (k) {
      case Key::Forward: step_to(s, static_cast<long>(s.step) + 1); break;
      case Key::Back: step_to(s, static_cast<long>(s.step) - 1); break;
      case Key::Start: step_to(s, 0); break;
      case Key::End: step_to(s, static_cast<long>(s.max_steps()) - 1); break;
      case Key::PlayPause: play_pause(s); break;
      case Key::Faster: s.speed = std::min(kMaxSpeed, s.speed * 1.5f); break;
      case Key::Slower: s.speed = std::max(kMinSpeed, s.speed / 1.5f); break;
      // The user's kernel heads the list: Up from the first shipped kernel reaches it, Down leaves it for the first.
      case Key::PrevKernel:
        if (s.shows_yours(0)) break;
        if (s.yours.open() && static_cast<int>(s.a.kernel) == 0 && s.a.library < 0) select_yours(s, true);
        else select(s, next_pick(s, -1));
        break;
      case Key::NextKernel:
        if (s.shows_yours(0)) {
          s.a.kernel = kernel_table().front().id;
          s.a.library = -1;
          select_yours(s, false);
        } else {
          select(s, next_pick(s, 1));
        }
        break;
      case Key::SmallerBlock: select_block(s, next_block(s.a.block_size, -1)); break;
      case Key::BiggerBlock: select_block(s, next_block(s.a.block_size, 1)); break;
      case Key::Compare:
        s.compare = !s.compare;
        s.selection_changed = true;
        break;
      case Key::ElementType:
        if (s.session) {
          s.float32 = !s.float32;
          s.selection_changed = true;
        }
        break;
      case Key::AsCompiled:
        if (s.session) {
          s.as_compiled = !s.as_compiled;
          s.selection_changed = true;
        }
        break;
      case Key::LargeCharts: s.large_charts = !s.large_charts; break;
      case Key::Focus: s.focus = !s.focus; break;
    }
  }
}

void draw_help(AppState& s) {
  if (!s.show_help) return;
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(d.x * 0.5f, d.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.97f);
  const std::string title = strf("%s###help", _("Keyboard shortcuts (F1 or ? to close)"));
  if (ImGui::Begin(title.c_str(), &s.show_help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    // The keys' names stay as they are; what they do is translated where it is drawn.
    static const char* const kRows[][2] = {
        {"Right / Left", N_("next / previous step (barrier epoch; on the multigpu tab, the ring's step)")},
        {"Home / End", N_("first / last step (of the ring, on the multigpu tab)")},
        {"Space", N_("play / pause")},
        {"] / [", N_("play faster / slower")},
        {"Down / Up", N_("next / previous kernel, through every track in order")},
        {"Page Up / Page Down", N_("double / halve the threads per block")},
        {"C", N_("compare mode: two kernels or two block sizes, A above B, stepping together")},
        {"T", N_("large timing charts in place of the replay (and back)")},
        {"F", N_("focus: the replay takes the whole width, larger cells (and back)")},
        {"D", N_("int32 / float32: a session's float32 traces, where it holds them (and back)")},
        {"B", N_("as compiled: a session's binary traces (the pitfalls as the compiler built them), and back")},
        {"Ctrl + / Ctrl -  (Ctrl 0)", N_("larger / smaller UI (reset)")},
        {"Ctrl H", N_("high-contrast theme on / off")},
        {"Ctrl O", N_("open a session or trace file")},
        {"Ctrl K", N_("open your own kernel file (.cu): compiled on each save, listed as \"yours\"")},
        {"Ctrl E", N_("export the timing charts (PNG, SVG, PDF, CSV)")},
        {"F1 or ?", N_("this help")},
        {"Ctrl Q", N_("quit")},
    };
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const auto& r : kRows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r[0]);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(_(r[1]));
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("%s", _("Hover any term (warp, lane, active mask, bank, n-way conflict...) for its meaning."));
  }
  ImGui::End();
}

void ControlsPanel::drawContent(AppState& s) {
  // Where the data comes from: a plain statement, loud for a recording.
  if (s.session) {
    // A student's laptop: say what is shown in plain words; the CUDA runtime's reason on hover.
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.62f, 0.0f, 1));
    ImGui::TextWrapped("%s", origin_sentence_in(s, i18n::tr).c_str());
    if (!s.have_device && s.device_known) {
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(_("CUDA said: %s\nRecorded %s; file %s"), s.no_device_reason.c_str(),
                          s.session->meta.date.c_str(), s.session_path.c_str());
      }
    } else if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(_("Recorded %s; file %s"), s.session->meta.date.c_str(), s.session_path.c_str());
    }
    ImGui::PopStyleColor();
    note_widget("controls/origin");
  } else if (!s.device_known) {
    ImGui::TextDisabled("%s", _("Looking for a CUDA GPU..."));
  } else if (s.have_device) {
    ImGui::TextWrapped(_("Live on %s (cc %d.%d, %d SMs, peak %.0f GB/s)"), s.device.name.c_str(), s.device.cc_major,
                       s.device.cc_minor, s.device.sm_count, s.device.peak_gbps());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.55f, 0.2f, 1));
    ImGui::TextWrapped("%s", s.no_device_reason.c_str());
    ImGui::PopStyleColor();
    if (s.shown) ImGui::TextWrapped(_("Showing %s."), data_origin_in(s, i18n::tr).c_str());
    else ImGui::TextWrapped("%s", _("Open a recorded session with File > Open (Ctrl O)."));
  }
  ImGui::Separator();

  // The list may take what the controls below it leave (about 16 lines of them; 26 in compare mode).
  const float rest = ImGui::GetTextLineHeightWithSpacing() * (s.compare ? 26.0f : 16.0f);
  const float list_h = std::max(ImGui::GetContentRegionAvail().y - rest, ImGui::GetContentRegionAvail().y * 0.22f);
  // The user's kernel, when one is open, heads list A.
  YoursEntry ye;
  if (s.yours.open()) {
    const std::string from = s.yours.path.empty() ? s.yours.session : s.yours.path;
    ye.header = strf(_("Yours: %s"), std::filesystem::path(from).filename().string().c_str());
    ye.name = s.yours.name;
    ye.title = s.yours.stale ? strf(_("STALE: %s"), s.yours.status.c_str()) : s.yours.status;
    ye.selected = s.shows_yours(0);
  }
  const Pick picked = pick_widgets("A", s.a, list_h, s.session.get(), s.yours.open() ? &ye : nullptr, &s.yours);
  if (ye.clicked) {
    select_yours(s, true);
  } else if (ye.selected && ye.kernel_clicked) {
    s.a = picked;
    select_yours(s, false);
  } else if (ye.selected) {
    select_block(s, picked.block_size);
  } else {
    select(s, picked);
  }
  if (!s.shows_yours(0)) {
    element_type_switch(s);
    tracer_switch(s);
  }
  if (s.shows_yours(0)) {
    draw_yours(s);
  } else if (const LibraryKernelInfo* lk = s.a.lib()) {
    library_note(s, *lk);
  } else {
    const KernelInfo& info = kernel_info(s.a.kernel);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kernel_color(info.id)));
    ImGui::TextWrapped("%s: %s", info.name, i18n::tr(info.title));
    note_widget("A/selected-title");
    hover_english(info.title);  // the kernel's title in the lecture's English words
    ImGui::PopStyleColor();
    library_buttons(s, info);  // above the long words, on the first screen of a 1280x720 projector
    ImGui::TextWrapped(_("Fixes: %s"), i18n::tr(info.fixes));
    ImGui::TextWrapped(_("Costs: %s"), i18n::tr(info.costs));
    if (info.pitfall) pitfall_results(s, info);
  }

  // Input: only a live GPU can take another N or pattern.
  ImGui::BeginDisabled(s.recorded() || !s.have_device);
  int log2n = 0;
  while ((2ull << log2n) <= s.n) ++log2n;
  char nlabel[48];
  std::snprintf(nlabel, sizeof nlabel, "N = 2^%d = %llu", log2n, static_cast<unsigned long long>(s.n));
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##n", &log2n, 10, 28, nlabel)) {
    s.n = 1ull << log2n;
    s.selection_changed = true;
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", s.recorded() ? _("A recording keeps the N it was recorded with.")
                                         : _("Elements (int32) reduced."));
  }
  static const Pattern kPatterns[] = {Pattern::Ones, Pattern::RandomBytes, Pattern::Iota};
  static const char* const kPatternNames[] = {N_("all ones"), N_("random bytes"), "0 .. N-1"};
  for (int i = 0; i < 3; ++i) {
    if (i) ImGui::SameLine();
    if (ImGui::RadioButton(_(kPatternNames[i]), s.pattern == kPatterns[i]) && s.pattern != kPatterns[i]) {
      s.pattern = kPatterns[i];
      s.selection_changed = true;
    }
  }
  ImGui::EndDisabled();

  if (ImGui::Checkbox(strf("%s###compare", _("Compare (C)")).c_str(), &s.compare)) s.selection_changed = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("Show a second kernel (B), or the same kernel at another block size,\n"
                              "under this one (A); both step together."));
  }
  if (s.compare &&
      ImGui::TreeNodeEx(strf("%s###compare_b", _("B: the compare side")).c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
    const Pick b = pick_widgets("B", s.b, ImGui::GetTextLineHeightWithSpacing() * 6, s.session.get());
    if (b != s.b) {
      s.b = b;
      s.selection_changed = true;
    }
    ImGui::TreePop();
  }
  ImGui::Separator();

  ImGui::Separator();
  if (s.busy) {
    const char spin[] = "|/-\\";
    ImGui::Text("%c %s", spin[static_cast<int>(ImGui::GetTime() * 8) % 4], s.status.c_str());
  } else if (s.have_device && !s.recorded() && !s.shows_yours(0)) {
    ImGui::TextDisabled("%s", _("GPU: re-running the selected kernel for the live plot"));
  }
  if (!s.notice.empty()) ImGui::TextWrapped("%s", s.notice.c_str());
  // Errors show in the step bar, which never scrolls away.
}

}  // namespace rs::gui
