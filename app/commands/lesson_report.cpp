// reducescope lesson-report ANSWERS.json... (issue 39, item 6): a class's Predict-mode answers (app/lessons/class_answers.hpp).
#include <fstream>
#include <ostream>

#include "commands.hpp"
#include "class_answers.hpp"
#include "room.hpp"  // room_answer_files: --from-server
#include "lessons.hpp"
#include "session.hpp"

namespace rs {
namespace {

bool write_text(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    err << "lesson-report: cannot write " << path << "\n";
    return false;
  }
  return true;
}

}  // namespace

int run_lesson_report(const Options& o, std::ostream& out, std::ostream& err) {
  std::vector<AnswerFile> files;
  bool all_read = true;
  if (!o.from_server.empty()) {  // the room's answers in serve's store (issue 56)
    try {
      serve::Store store(o.from_server);
      files = serve::room_answer_files(store);
    } catch (const serve::StoreError& e) {
      err << "lesson-report: --from-server " << o.from_server << ": " << e.what() << "\n";
      return kExitRuntime;
    }
    if (files.empty()) {
      err << "lesson-report: --from-server " << o.from_server << ": the room holds no answers yet\n";
      return kExitRuntime;
    }
  }
  for (const std::string& p : o.csv_files) {
    try {
      files.push_back(load_answers(p));
    } catch (const AnswersError& e) {
      err << "lesson-report: " << e.what() << " (left out of the report)\n";
      all_read = false;
    }
  }
  if (files.empty()) {
    err << "lesson-report: no answers file could be read\n";
    return kExitRuntime;
  }
  std::optional<Lesson> lesson;
  if (!o.lesson.empty()) {
    try {
      lesson = bundled_or_file_lesson(o.lesson);
    } catch (const LessonError& e) {
      err << "lesson-report: " << e.what() << "\n";
      return kExitRuntime;
    }
  }
  std::optional<Session> session;
  if (!o.session.empty()) {
    try {
      session = load_session(o.session);
    } catch (const std::exception& e) {
      err << "lesson-report: " << e.what() << " (the page has no pictures)\n";
      all_read = false;
    }
  }
  const ClassReport r = make_class_report(files, lesson ? &*lesson : nullptr);
  out << class_report_text(r);
  bool wrote = true;
  if (!o.csv.empty() && (wrote &= write_text(o.csv, class_report_csv(r), err))) out << "wrote " << o.csv << "\n";
  if (!o.html.empty() && write_text(o.html, class_report_html(r, session ? &*session : nullptr), err)) {
    out << "wrote " << o.html << "\n";
  } else if (!o.html.empty()) {
    wrote = false;
  }
  return all_read && wrote ? kExitOk : kExitRuntime;
}

}  // namespace rs
