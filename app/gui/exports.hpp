// File > Export: the timing charts (PNG, SVG, PDF and CSV; charts.hpp, absent from a build without
// cairo) and the web page that replays in any browser (web_export.hpp), both into the export folder
// (--export-dir, default "reducescope-charts"). One export at a time, off the UI thread (the bundled
// session's 231 traces take about 3 s as a web page): the open recording, or else the live timings.
#pragma once

#include <future>
#include <string>

#include "app_state.hpp"

namespace rs::gui {

// The live measurements as a session (the device, N, the pattern, the method; the timings, the user's kernel file's
// too): what File > Export writes when no recording is open, and what Predict mode's questions about the session
// ask of the live GPU.
Session live_session(const AppState& s);

class Exports {
 public:
  // `export_dir`: --export-dir ("": the default). App's constructor.
  explicit Exports(const std::string& export_dir);

  // Starts writing the timing charts of every block size with timings, as `reducescope export` does
  // without --block-size; says so in s.notice, or why not in s.error. frame(), for Ctrl E and the menu.
  void start_charts(AppState& s);
  // Starts writing the web page: the open recording, or the live timings with the traces on screen.
  // frame(), for the menu.
  void start_web_page(AppState& s);
  // Writes Predict mode's answers (s.predict.records) to dir()/reducescope-answers-$USER.json in the page's format
  // (answers_json, lessons/class_answers.hpp), through a temporary file; says where in s.notice, or why not in s.error.
  // frame(), for File > Save my answers.
  void save_answers(AppState& s);
  // Once the running export is done, says how it went in s.notice or s.error (and on stdout if
  // `print`, for --stats). frame(), once a frame.
  void poll(AppState& s, bool print);
  // An export is running: frame() tells the automation, which waits for it before it ends.
  bool running() const { return job_.valid(); }
  // Waits for the running export, if any. run_gui, before the window closes.
  void wait();

  // The charts' folder, and the web page's path in it: named in the menu's tooltips (frame()).
  const std::string& dir() const { return dir_; }
  const std::string& web_page_path() const { return web_page_path_; }

 private:
  struct Result {
    bool ok;
    std::string english;  // what was written, or why not: in English (stdout, with --stats)
    std::string shown;    // the same in the window's language (its notice or error)
  };
  std::future<Result> job_;
  std::string dir_, web_page_path_;
};

}  // namespace rs::gui
