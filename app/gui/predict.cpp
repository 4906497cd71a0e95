#include "predict.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "app_state.hpp"
#include "exports.hpp"  // live_session
#include "facts.hpp"
#include "i18n.hpp"
#include "kernel_info.hpp"
#include "multigpu.hpp"
#include "panels.hpp"  // strf, say

namespace rs::gui {
namespace {

constexpr float kClassScale = 1.5f;  // class mode's question, for the back of the room

std::string answer_key(const LoadedTrace& t, size_t step, explain::QuestionKind k) {
  const TraceMeta& m = t.trace.meta;
  return m.kernel + "@" + std::to_string(m.block_size) + "@" + to_string(m.dtype) + "@" + std::to_string(step) + "@" +
         explain::to_string(k);
}

const Lesson* lesson_of(const AppState& s) {
  const auto& all = bundled_lessons();
  return s.predict.lesson >= 0 && s.predict.lesson < static_cast<int>(all.size()) ? &all[s.predict.lesson] : nullptr;
}

}  // namespace

bool race_question_waiting(const AppState& s) {
  const Lesson* l = s.predict.on ? lesson_of(s) : nullptr;
  if (!l || !s.session || !s.shown) return false;
  const TraceMeta& m = s.shown->trace.meta;
  for (size_t i = 0; i < l->items.size(); ++i) {
    const LessonItem& it = l->items[i];
    if (it.ask != explain::QuestionKind::RaceLine || it.kernel != m.kernel || it.block_size != m.block_size) continue;
    if (s.session->races_of(m.kernel, m.block_size).empty()) continue;  // nothing to ask: nothing hidden
    const auto a = s.predict.session_asks.find(l->name + "#" + std::to_string(i));
    if (a == s.predict.session_asks.end() || !a->second.done) return true;
  }
  return false;
}

namespace {

// An answer as the page records it: the text typed, else the numbers picked ("0,1").
std::string answer_text(const explain::Answer& a) {
  if (!a.text.empty()) return a.text;
  std::string t;
  for (int64_t v : a.numbers) {
    if (!t.empty()) t += ',';
    t += std::to_string(v);
  }
  return t;
}

SavedAnswer record_of(const AppState& s, const explain::Question& q, const std::string& kernel, uint32_t bs,
                      const std::string& dtype, size_t step, bool right, const std::string& given, int tries,
                      const std::vector<std::string>& wrong, double t0) {
  const Lesson* l = lesson_of(s);
  SavedAnswer r;
  r.lesson = l ? l->name : "";
  r.kernel = kernel;
  r.block_size = bs;
  r.dtype = dtype;
  r.step = step;
  r.kind = explain::to_string(q.kind);
  r.question = say(q.ask);
  r.answer = right ? given : "";
  r.key = q.kind == explain::QuestionKind::FastestBlock ? std::to_string(q.index) : q.key_text;
  r.right = right;
  r.first_try = right && tries == 1;
  r.tries = tries;
  r.wrong = wrong;
  r.seconds = std::round((ImGui::GetTime() - t0) * 10) / 10;
  return r;
}

void reveal(AppState& s, bool right, const std::string& given = "") {
  PredictState& p = s.predict;
  if (!p.pending) return;
  if (p.classroom) room_reveal(s);  // the students' pages step to the answer too
  p.answered.insert(answer_key(*s.shown, p.pending->step, p.pending->q.kind));
  if (!p.classroom) {  // class mode scores no one: the room answered outside the app
    ++p.asked;
    p.tries += p.pending->tries;
    if (right && p.pending->tries == 1) ++p.first_try;
    const TraceMeta& m = s.shown->trace.meta;
    p.records.push_back(record_of(s, p.pending->q, m.kernel, m.block_size, to_string(m.dtype), p.pending->step, right,
                                  given, p.pending->tries, p.pending->wrong, p.pending->t0));
  }
  p.verdict_right = right;
  p.verdict = say(p.classroom ? explain::reveal_sentence(p.pending->q) : explain::verdict_sentence(p.pending->q, right));
  p.verdict_kind = p.pending->q.kind;
  s.step = p.pending->step;
  p.pending.reset();
}

void check(AppState& s, const explain::Answer& a) {
  PredictState& p = s.predict;
  if (!p.pending) return;
  ++p.pending->tries;
  if (explain::grade(p.pending->q, a).right) {
    reveal(s, true, answer_text(a));
  } else {
    p.pending->wrong.push_back(answer_text(a));
    p.verdict_right = false;
    p.verdict = _("Not yet: try again, or press Show.");
    p.verdict_kind = p.pending->q.kind;
  }
}

// The answer field and Check: the answer typed, once Enter or Check is pressed (a whole number also as a number,
// where `numbers`), else nullopt. `widget`: its name in the automation's widget map.
std::optional<explain::Answer> typed_answer_row(const char* id, char (&input)[32], const char* widget, bool numbers) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  const bool enter = ImGui::InputText(id, input, sizeof input, ImGuiInputTextFlags_EnterReturnsTrue);
  note_widget(widget);
  ImGui::SameLine();
  if (!enter && !ImGui::Button(_("Check"))) return std::nullopt;
  explain::Answer a;
  a.text = input;
  char* end = nullptr;
  const long v = std::strtol(input, &end, 10);
  if (numbers && end && end != input && *end == '\0') a.numbers = {v};
  return a;
}

void box(AppState& s) {
  PredictState& p = s.predict;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float w = ImGui::GetContentRegionAvail().x;
  const float wrap = w - 2 * st.WindowPadding.x - 4;
  const float chip = ImGui::GetFontSize() * 1.6f;
  const int per_row = std::max(1, static_cast<int>((wrap + st.ItemSpacing.x) / (chip + st.ItemSpacing.x)));
  // The box's height: its wrapped texts and its rows of buttons.
  float h = 2 * st.WindowPadding.y + 4;
  auto text_h = [&](const std::string& t) { return ImGui::CalcTextSize(t.c_str(), nullptr, false, wrap).y + st.ItemSpacing.y; };
  const std::string ask = !p.pending ? "" : say(p.classroom ? explain::ask_for_room(p.pending->q) : p.pending->q.ask);
  if (p.pending) {
    if (!p.pending->say.empty()) h += text_h(p.pending->say);
    h += text_h(ask);
    const int warps = s.shown ? s.shown->replay.num_warps() : 0;
    int rows = 1;  // the answer, Check and Show
    if (p.pending->q.kind == explain::QuestionKind::WorkingWarps) rows += (std::min(warps, 32) + per_row - 1) / per_row;
    if (p.pending->q.kind == explain::QuestionKind::Conflict) rows += (6 + per_row - 1) / per_row;
    h += rows * (ImGui::GetFrameHeight() + st.ItemSpacing.y);
  }
  if (!p.verdict.empty()) h += text_h(p.verdict);
  if (p.classroom && p.pending) {  // the question large, for the back of the room; no answer row, a Reveal button
    h = 2 * st.WindowPadding.y + 4 + (p.pending->say.empty() ? 0 : text_h(p.pending->say)) +
        ImGui::CalcTextSize(ask.c_str(), nullptr, false, wrap / kClassScale).y * kClassScale + st.ItemSpacing.y +
        text_h(_("The room answers. Right or Enter reveals the step.")) + ImGui::GetFrameHeight() + st.ItemSpacing.y +
        room_box_height(s, wrap);
  }
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(42, 36, 22, 255));
  ImGui::PushStyleColor(ImGuiCol_Border, IM_COL32(230, 159, 0, 255));
  ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, 2.0f);
  ImGui::BeginChild("##predict", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  // A row of small buttons, wrapped at the box's width; true and *picked set where one was pressed.
  auto chips = [&](int n, auto label, auto selected, int* picked) {
    for (int i = 0; i < n; ++i) {
      if (i % per_row) ImGui::SameLine();
      ImGui::PushID(i);
      const bool on = selected(i);
      if (on) ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(0, 114, 178, 255));  // chosen: the page's blue
      if (ImGui::Button(label(i).c_str(), ImVec2(chip, ImGui::GetFrameHeight()))) *picked = i;
      if (on) ImGui::PopStyleColor();
      ImGui::PopID();
    }
  };
  bool done = false;
  if (p.pending && p.classroom) {
    if (!p.pending->say.empty()) ImGui::TextUnformatted(p.pending->say.c_str());
    ImGui::SetWindowFontScale(kClassScale);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 220, 120, 255));
    ImGui::TextUnformatted(ask.c_str());
    ImGui::PopStyleColor();
    ImGui::SetWindowFontScale(1.0f);
    note_widget("predict/ask");
    ImGui::TextDisabled("%s", _("The room answers. Right or Enter reveals the step."));
    if (ImGui::Button(_("Reveal"))) reveal(s, false);
    note_widget("predict/reveal");
    draw_room_box(s);
    done = true;
  }
  if (p.pending && !done) {
    const explain::Question& q = p.pending->q;
    if (!p.pending->say.empty()) ImGui::TextUnformatted(p.pending->say.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 220, 120, 255));
    ImGui::TextUnformatted(ask.c_str());
    ImGui::PopStyleColor();
    note_widget("predict/ask");
    int picked = -1;
    if (q.kind == explain::QuestionKind::WorkingWarps) {
      const int warps = std::min(s.shown ? s.shown->replay.num_warps() : 0, 32);
      chips(warps, [](int i) { return std::to_string(i); }, [&](int i) { return p.picked[i]; }, &picked);
      if (picked >= 0) p.picked[picked] = !p.picked[picked];
    } else if (q.kind == explain::QuestionKind::Conflict) {
      static const int kWays[] = {1, 2, 4, 8, 16, 32};
      chips(6, [](int i) { return std::to_string(kWays[i]); }, [](int) { return false; }, &picked);
      if (picked >= 0) {
        check(s, {{kWays[picked]}, std::to_string(kWays[picked])});
        done = true;
      }
    }
    if (!done && q.kind != explain::QuestionKind::WorkingWarps) {
      if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
      if (const auto a = typed_answer_row("##answer", p.input, "predict/input", q.kind != explain::QuestionKind::WordValue)) {
        check(s, *a);
        done = true;
      }
      ImGui::SameLine();
    } else if (!done) {
      if (ImGui::Button(_("Check"))) {
        explain::Answer a;
        for (int i = 0; i < 32; ++i) {
          if (p.picked[i]) a.numbers.push_back(i);
        }
        check(s, a);
        done = true;
      }
      ImGui::SameLine();
    }
    if (!done && ImGui::Button(_("Show"))) reveal(s, false);
  }
  if (!p.verdict.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, p.classroom       ? IM_COL32(120, 190, 255, 255)   // no one graded: neutral
                                         : p.verdict_right ? IM_COL32(47, 197, 154, 255)
                                                           : IM_COL32(230, 110, 40, 255));
    ImGui::TextUnformatted(p.verdict.c_str());
    ImGui::PopStyleColor();
    note_widget("predict/verdict");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(2);
}

}  // namespace

namespace {

// Asks step `st`'s question where it has one not answered yet: true where one now waits.
bool ask(AppState& s, const explain::TraceFacts& facts, size_t st) {
  PredictState& p = s.predict;
  const Replay& r = s.shown->replay;
  const auto qs = explain::step_questions(r, facts, st);
  const auto asked = predict_question(lesson_of(s), s.shown->trace.meta, qs, st);
  if (!asked || p.answered.count(answer_key(*s.shown, st, asked->q.kind))) return false;
  s.playing = false;
  PredictState::Pending w;
  w.step = st;
  w.q = asked->q;
  if (asked->item) {
    w.say = s.lang == i18n::Lang::Zh && !asked->item->say.zh.empty() ? asked->item->say.zh : asked->item->say.en;
  }
  w.t0 = ImGui::GetTime();
  p.pending = w;
  p.verdict.clear();
  p.picked.fill(false);
  p.input[0] = '\0';
  return true;
}

explain::TraceFacts shown_facts(const AppState& s) {
  return explain::trace_facts(s.shown->replay, s.shown->trace.source,
                              explain::context_in(s.session.get(), s.shown->trace.meta));
}

}  // namespace

bool predict_gate(AppState& s, long target) {
  PredictState& p = s.predict;
  if (!p.on || !s.shown || target <= static_cast<long>(s.step)) return false;
  if (p.pending && p.classroom) {  // the instructor's one key: the room has answered, show the step
    reveal(s, false);
    return true;
  }
  if (p.pending) return true;
  const Replay& r = s.shown->replay;
  const explain::TraceFacts facts = shown_facts(s);
  for (long st = static_cast<long>(s.step) + 1; st <= target && st < static_cast<long>(r.num_steps()); ++st) {
    if (!ask(s, facts, static_cast<size_t>(st))) continue;
    s.step = static_cast<size_t>(st - 1);
    return true;
  }
  return false;
}

bool predict_hides_step(const AppState& s) {
  const PredictState& p = s.predict;
  return p.on && p.pending && p.pending->step == s.step;
}

void draw_predict_box(AppState& s, std::initializer_list<explain::QuestionKind> kinds) {
  PredictState& p = s.predict;
  if (!p.on || (!p.pending && p.verdict.empty())) return;
  const explain::QuestionKind k = p.pending ? p.pending->q.kind : p.verdict_kind;
  const int frame = ImGui::GetFrameCount();
  const bool own = std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  // Its own panel, where that one is on screen; else (folded away for room at 1280x720) the first panel drawn.
  if (!own && p.owner_frame >= frame - 1) return;
  if (p.box_frame == frame) return;  // once a frame (the compare view draws panels twice)
  p.box_frame = frame;
  if (own) p.owner_frame = frame;
  box(s);
}

void draw_predict_bar(AppState& s) {
  PredictState& p = s.predict;
  // A trace shown at step 0 with a question there asks it first; the panels keep step 0 out of sight meanwhile
  // (predict_hides_step), as the page does.
  if (p.on && !p.pending && s.shown && s.step == 0 && s.shown->replay.num_steps() > 0) ask(s, shown_facts(s), 0);
  if (ImGui::Checkbox(_("Predict"), &p.on)) {
    p.pending.reset();
    p.verdict.clear();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Answer a question before each step is shown"));
  if (!p.on) return;
  ImGui::SameLine();
  const auto& all = bundled_lessons();
  const auto title = [&](int i) {
    if (i < 0) return std::string(_("no lesson: a question per step"));
    const LessonWords& w = all[i].title;
    return s.lang == i18n::Lang::Zh && !w.zh.empty() ? w.zh : w.en;
  };
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("##lesson", title(p.lesson).c_str())) {
    for (int i = -1; i < static_cast<int>(all.size()); ++i) {
      if (ImGui::Selectable(title(i).c_str(), i == p.lesson)) {
        p.lesson = i;
        p.pending.reset();
        p.verdict.clear();
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Checkbox(_("Class mode"), &p.classroom)) {
    p.pending.reset();
    p.verdict.clear();
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("For the projector: the room answers by hand or on their phones; Right or Enter reveals "
                              "the step; nothing is scored"));
  }
  ImGui::SameLine();
  if (p.classroom) {
    ImGui::TextDisabled("%s", _("not scored"));
  } else {
    ImGui::TextUnformatted(strf(_("answered %d, right at the first try %d, tries %d"), p.asked, p.first_try, p.tries).c_str());
  }
  // Where the panel of the answer is not on screen (folded into the idle line), the box is drawn here.
  if ((p.pending || !p.verdict.empty()) && p.box_frame < ImGui::GetFrameCount() - 1) box(s);
}

std::string predict_status(const AppState& s) {
  const PredictState& p = s.predict;
  if (!p.on) return "off";
  const Lesson* l = lesson_of(s);
  std::string out = std::string("lesson ") + (l ? l->name : "none") + (p.classroom ? ", class mode" : ", scored");
  if (p.pending) {
    out += ", question before step " + std::to_string(p.pending->step) + " (" + explain::to_string(p.pending->q.kind) +
           "): " + say(p.pending->q.ask) + " (tried " + std::to_string(p.pending->tries) + ", typed '" + p.input + "')";
  }
  if (!p.verdict.empty()) out += "; verdict: " + p.verdict;
  for (const auto& [key, a] : p.session_asks) {
    if (!a.q) continue;
    out += "; session " + std::string(explain::to_string(a.q->kind)) + " (" + key + "): " +
           (a.verdict.empty() ? std::string("waiting") : a.verdict) + (a.done ? "" : " (tried " + std::to_string(a.tries) + ")");
  }
  if (!p.classroom) {
    out += "; answered " + std::to_string(p.asked) + ", right at the first try " + std::to_string(p.first_try) +
           ", tries " + std::to_string(p.tries);
  }
  return out;
}

bool draw_session_questions(AppState& s) {
  PredictState& p = s.predict;
  const Lesson* l = lesson_of(s);
  if (!p.on || !l || (!s.session && s.timings.empty())) return false;
  // The kernel on screen: a kernel file's trace (track "yours") or side A's kernel.
  const bool yours = s.shown && s.shown->trace.meta.track == kYoursKernel;
  const std::string kernel = yours ? s.shown->trace.meta.kernel : std::string(kernel_info(s.a.kernel).name);
  // The recording's session, or the live GPU's timings as one (live_session): its keys follow the timings as they
  // come in, until the question is answered.
  std::optional<Session> live;
  const Session* ses = s.session.get();
  const void* of = ses ? static_cast<const void*>(ses) : static_cast<const void*>(&s.timings);
  const size_t gen = ses ? 0 : s.timings.size() + s.yours.timings.size();
  bool waiting = false, first = true;
  for (size_t i = 0; i < l->items.size(); ++i) {
    const LessonItem& it = l->items[i];
    // The ring's questions (kernel "multigpu") while the multigpu tab is on screen, whatever kernel is.
    const bool ring = it.kernel == kMultiGpuTrack;
    if (!explain::is_session_kind(it.ask) ||
        (ring ? !s.multigpu_shown() : it.kernel != kernel && !(yours && it.kernel == kYoursKernel))) {
      continue;
    }
    const std::string& asked_of = ring ? it.kernel : kernel;
    PredictState::SessionAsk& a = p.session_asks[l->name + "#" + std::to_string(i)];
    if (a.of != of) {
      a = {};
      a.of = of;
      a.gen = static_cast<size_t>(-1);
      a.t0 = ImGui::GetTime();
    }
    if (a.gen != gen && !a.done) {
      if (!ses) ses = &live.emplace(live_session(s));
      a.q.reset();
      for (explain::Question& q : explain::session_questions(*ses, asked_of, it.block_size)) {
        if (q.kind == it.ask) a.q = std::move(q);
      }
      a.gen = gen;
    }
    if (!a.q) continue;  // the session cannot answer it: not asked
    const explain::Question& q = *a.q;
    ImGui::PushID(static_cast<int>(i));
    first = false;
    const std::string say_words = s.lang == i18n::Lang::Zh && !it.say.zh.empty() ? it.say.zh : it.say.en;
    if (!say_words.empty()) ImGui::TextWrapped("%s", say_words.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 220, 120, 255));
    ImGui::TextWrapped("%s", say(q.ask).c_str());
    ImGui::PopStyleColor();
    note_widget("predict/session/ask");
    auto finish = [&](bool right, const std::string& given) {
      a.done = true;
      a.scroll = true;
      a.right = right;
      a.verdict = say(p.classroom ? explain::reveal_sentence(q) : explain::verdict_sentence(q, right));
      if (!p.classroom) {
        ++p.asked;
        p.tries += a.tries;
        if (right && a.tries == 1) ++p.first_try;
        p.records.push_back(record_of(s, q, asked_of, it.block_size, it.type ? to_string(*it.type) : "int32", 0, right,
                                      given, a.tries, a.wrong, a.t0));
      }
    };
    auto try_answer = [&](const explain::Answer& ans) {
      ++a.tries;
      if (explain::grade(q, ans).right) {
        finish(true, answer_text(ans));
      } else {
        a.verdict = _("Not yet: try again, or press Show.");
        a.wrong.push_back(answer_text(ans));
        a.scroll = true;
      }
    };
    if (!a.done && p.classroom) {
      ImGui::TextDisabled("%s", _("The room answers. Press Reveal."));
      if (ImGui::Button(_("Reveal"))) finish(false, "");
      note_widget("predict/session/reveal");
    } else if (!a.done) {
      if (q.kind == explain::QuestionKind::SameBits || q.kind == explain::QuestionKind::BitsAcrossBlocks) {
        if (ImGui::Button(_("Yes"))) try_answer({{1}, "1"});
        note_widget("predict/session/yes");
        ImGui::SameLine();
        if (ImGui::Button(_("No"))) try_answer({{0}, "0"});
        note_widget("predict/session/no");
      } else if (q.kind == explain::QuestionKind::FastestBlock) {
        for (unsigned bs : kBlockSizes) {
          if (bs != kBlockSizes[0]) ImGui::SameLine();
          if (ImGui::Button(std::to_string(bs).c_str())) try_answer({{static_cast<int64_t>(bs)}, std::to_string(bs)});
        }
      } else {
        if (const auto ans = typed_answer_row("##session-answer", a.input, "predict/session/input", true)) try_answer(*ans);
      }
      ImGui::SameLine();
      if (!a.done && ImGui::Button(_("Show"))) finish(false, "");
    }
    if (!a.verdict.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, p.classroom || !a.done ? (a.done ? IM_COL32(120, 190, 255, 255)
                                                                           : IM_COL32(230, 110, 40, 255))
                                           : a.right ? IM_COL32(47, 197, 154, 255)
                                                     : IM_COL32(230, 110, 40, 255));
      ImGui::TextWrapped("%s", a.verdict.c_str());
      ImGui::PopStyleColor();
      note_widget("predict/session/verdict");
      if (a.scroll) ImGui::SetScrollHereY(1.0f);  // its last line at the panel's bottom edge
      a.scroll = false;
    }
    waiting = waiting || !a.done;
    ImGui::PopID();
  }
  if (waiting) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", _("Answer the question to see the recorded numbers."));
    ImGui::PopStyleColor();
  }
  if (!first) ImGui::Separator();
  return waiting;
}

bool session_question_waits(const AppState& s, explain::QuestionKind kind, const std::string& kernel) {
  const Lesson* l = lesson_of(s);
  if (!s.predict.on || !l) return false;
  for (const auto& [key, a] : s.predict.session_asks) {
    if (key.rfind(l->name + "#", 0) == 0 && a.q && a.q->kind == kind && a.q->kernel == kernel && !a.done) return true;
  }
  return false;
}

void draw_predict_hidden_line() { ImGui::TextDisabled("%s", _("Answer the question to see this step.")); }

}  // namespace rs::gui
