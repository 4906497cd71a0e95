#include "exports.hpp"

#include <cctype>
#include <chrono>
#include <exception>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "binary_io.hpp"      // detail::write_file_atomically
#include "class_answers.hpp"  // answers_json
#include "session_rows.hpp"
#include "gpu_worker.hpp"  // kGuiSamples, kTimingWarmups
#include "panels.hpp"      // strf
#include "said_text.hpp"
#include "web_export.hpp"
#ifdef REDUCESCOPE_HAS_CHARTS
#include "charts.hpp"
#endif

namespace rs::gui {

namespace {

namespace fs = std::filesystem;

// A finished export's words: in English (stdout, with --stats) and in the window's language (its notice).
template <class... Args>
std::pair<std::string, std::string> both(const char* format, Args... args) {
  return {strf(format, args...), strf(i18n::tr(format), args...)};
}

}  // namespace

Session live_session(const AppState& s) {
  Session out;
  out.meta = session_meta(s.device, s.n, s.pattern, kGuiSamples, kTimingWarmups);
  SessionMeta& m = out.meta;
  m.copy_gbps = s.copy_gbps;
  m.cub_ms = s.cub_ms;
  for (const auto& [key, t] : s.timings) {
    out.timings.push_back(to_session_timing(key.first, key.second, t, !s.wrong_sum.count(key)));
  }
  // The user's kernel file's runs here on this input (as `record --kernel-file` stores them: rows under its name).
  const YoursState& y = s.yours;
  if (y.open() && y.session.empty() && y.n == s.n) {
    for (const auto& [bs, t] : y.timings) {
      out.timings.push_back(to_session_timing(y.name, bs, t, !y.wrong_sum.count(bs)));
    }
  }
  return out;
}

Exports::Exports(const std::string& export_dir)
    : dir_(export_dir.empty() ? "reducescope-charts" : export_dir),
      web_page_path_((fs::path(dir_) / "reducescope-replay.html").string()) {}

void Exports::save_answers(AppState& s) {
  AnswerFile f;
  if (const char* u = std::getenv("USER")) f.student = u;
  f.lesson = s.predict.records.empty() ? "" : s.predict.records.back().lesson;
  f.page = "ReduceScope window";
  f.gpu = s.session ? s.session->meta.gpu : s.device.name;
  f.session = s.session_path;
  f.answers = s.predict.records;
  // As the page names its download: reducescope-answers-NAME.json, the name's other characters as "_".
  std::string name = "reducescope-answers";
  if (!f.student.empty()) {
    name += "-";
    for (char c : f.student) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  }
  const fs::path path = fs::path(dir_) / (name + ".json");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  try {
    detail::write_file_atomically(path.string(), answers_json(f));  // through "<path>.part", as sessions are
  } catch (const std::exception& e) {
    s.error = said_text(e);
    return;
  }
  s.notice = strf(_("saved %d answers to %s (reducescope lesson-report reads it)"),
                  static_cast<int>(f.answers.size()), path.string().c_str());
  std::cout << "saved " << f.answers.size() << " answers to " << path.string() << std::endl;
}

void Exports::start_charts(AppState& s) {
#ifdef REDUCESCOPE_HAS_CHARTS
  if (job_.valid()) return;
  if (s.timings.empty() && !(s.session && !s.session->multigpu.empty())) {
    s.error = _("nothing to export yet: no timings");
    return;
  }
  auto ses = s.session ? s.session : std::make_shared<const Session>(live_session(s));
  s.notice = strf(_("exporting charts to %s ..."), dir_.c_str());
  // Every block size with timings, the N sweep and the multi-GPU chart where the session has them, as
  // `reducescope export` does without --block-size.
  job_ = std::async(std::launch::async, [ses, dir = dir_]() -> Result {
    try {
      const ChartFiles f = export_session(*ses, dir);
      auto [english, shown] = both(N_("exported %zu files (PNG, SVG, PDF, CSV) to %s"), f.paths.size(),
                                   fs::absolute(dir).string().c_str());
      return {true, english, shown};
    } catch (const std::exception& e) {
      return {false, e.what(), said_text(e)};
    }
  });
#else
  s.error = _("this build has no chart export (built with REDUCESCOPE_CHARTS=OFF)");
#endif
}

void Exports::start_web_page(AppState& s) {
  if (job_.valid()) return;
  std::shared_ptr<const Session> ses = s.session;
  if (!ses) {
    Session live = live_session(s);
    for (const auto& t : {s.shown, s.shown_b}) {
      if (t && t->trace.meta.track != kYoursTrack) live.traces.push_back(t->trace);
    }
    // The user's kernel's traces at every block size it ran at here (track "yours", its source inside).
    if (s.yours.open() && s.yours.session.empty()) {
      for (const auto& [bs, t] : s.yours.traces) live.traces.push_back(t->trace);
    }
    ses = std::make_shared<const Session>(std::move(live));
  }
  s.notice = strf(_("writing the web page %s ..."), web_page_path_.c_str());
  const std::string name = fs::path(s.session_path).filename().string();
  job_ = std::async(std::launch::async, [ses, path = web_page_path_, name, lang = s.lang]() -> Result {
    try {
      WebExportOptions w;
      w.session_name = name;
      w.lang = lang;  // the page opens in the window's language (and has its own switch)
      const WebExportResult r = export_web_page(*ses, path, w);
      auto [english, shown] = both(N_("web page written to %s (%zu kB, %zu of %zu traces)"),
                                   fs::absolute(path).string().c_str(), r.bytes / 1000, r.traces, r.traces_in_session);
      return {true, english, shown};
    } catch (const std::exception& e) {
      return {false, e.what(), said_text(e)};
    }
  });
}

void Exports::poll(AppState& s, bool print) {
  if (!job_.valid() || job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  const Result r = job_.get();
  if (r.ok) s.notice = r.shown;
  else s.error = strf(_("export failed: %s"), r.shown.c_str());
  if (print) std::cout << "export: " << r.english << std::endl;
}

void Exports::wait() {
  if (job_.valid()) job_.wait();
}

}  // namespace rs::gui
