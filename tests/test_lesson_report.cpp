// lesson-report (app/lessons/class_answers.hpp, issue 39 item 6): answers files read and refused, the class's figures per
// question and per student, the lesson's order, the CSV and the page's pictures.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "class_answers.hpp"
#include "session.hpp"

namespace rs {
namespace {

using nlohmann::json;

json answer(const std::string& kernel, size_t step, const std::string& kind, bool first_try,
            std::vector<std::string> wrong, double seconds, bool right = true) {
  return {{"lesson", "harris"}, {"kernel", kernel}, {"bs", 256}, {"dtype", "int32"}, {"step", step},
          {"kind", kind}, {"question", kind + "?"}, {"answer", right ? json::array({2}) : json(nullptr)},
          {"key_answer", "2"}, {"right", right}, {"first_try", first_try},
          {"tries", static_cast<int>(wrong.size()) + (right ? 1 : 0)}, {"wrong", wrong}, {"seconds", seconds}};
}

AnswerFile file(const std::string& student, std::vector<json> answers) {
  json j = {{"format", "reducescope-answers"}, {"version", 1}, {"lesson", "harris"}, {"gpu", "NVIDIA H100"},
            {"student", student}, {"answers", answers}};
  return parse_answers(j.dump(), "/class/" + student + ".json");
}

TEST(LessonReport, AnAnswersFileIsReadWithItsStudentAndAnswers) {
  json j = {{"format", "reducescope-answers"}, {"version", 1}, {"lesson", "harris"},
            {"answers", {answer("reduce1", 3, "conflict", false, {"1", "4"}, 7.5)}}};
  const AnswerFile f = parse_answers(j.dump(), "/x/ana.json");
  EXPECT_EQ(f.student, "ana");  // no "student": the file's name
  ASSERT_EQ(f.answers.size(), 1u);
  EXPECT_EQ(f.answers[0].kernel, "reduce1");
  EXPECT_EQ(f.answers[0].step, 3u);
  EXPECT_EQ(f.answers[0].answer, "2");
  EXPECT_EQ(f.answers[0].wrong, (std::vector<std::string>{"1", "4"}));
  EXPECT_EQ(f.answers[0].tries, 3);
  EXPECT_DOUBLE_EQ(f.answers[0].seconds, 7.5);
}

// What the window saves (answers_json) reads back as it was written, in the page's format.
TEST(LessonReport, TheWindowsAnswersFileReadsBackAsWritten) {
  AnswerFile f;
  f.student = "ana";
  f.lesson = "harris";
  f.page = "the window";
  f.gpu = "NVIDIA H100 80GB HBM3";
  SavedAnswer a;
  a.lesson = "harris";
  a.kernel = "reduce1";
  a.block_size = 256;
  a.dtype = "int32";
  a.step = 2;
  a.kind = "conflict";
  a.question = "Warp 0's shared load at line 69: how many ways does it conflict?";
  a.answer = "4";
  a.key = "4";
  a.right = true;
  a.tries = 3;
  a.wrong = {"1", "2"};
  a.seconds = 12.5;
  SavedAnswer shown = a;
  shown.kind = "speedup";
  shown.step = 0;
  shown.answer = "";
  shown.right = false;
  f.answers = {a, shown};
  const AnswerFile b = parse_answers(answers_json(f), "/x/whatever.json");
  EXPECT_EQ(b.student, "ana");
  EXPECT_EQ(b.gpu, f.gpu);
  ASSERT_EQ(b.answers.size(), 2u);
  EXPECT_EQ(b.answers[0].kernel, "reduce1");
  EXPECT_EQ(b.answers[0].step, 2u);
  EXPECT_EQ(b.answers[0].answer, "4");
  EXPECT_EQ(b.answers[0].wrong, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(b.answers[0].tries, 3);
  EXPECT_DOUBLE_EQ(b.answers[0].seconds, 12.5);
  EXPECT_TRUE(b.answers[0].right);
  EXPECT_EQ(b.answers[1].kind, "speedup");
  EXPECT_EQ(b.answers[1].answer, "");  // Show: no answer
  EXPECT_FALSE(b.answers[1].right);
}

TEST(LessonReport, ABadFileIsRefusedNamingFileAndField) {
  auto why = [](const std::string& text) {
    try {
      parse_answers(text, "s.json");
    } catch (const AnswersError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("{").find("s.json: not an answers file (not JSON"), std::string::npos);
  EXPECT_NE(why(R"({"format":"reducescope-lesson","version":1})").find("not an answers file"), std::string::npos);
  EXPECT_NE(why(R"({"format":"reducescope-answers","version":2,"answers":[]})").find("newer"), std::string::npos);
  EXPECT_NE(why(R"({"format":"reducescope-answers","version":1,"answers":[{"kernel":"reduce1","kind":"conflict"}]})")
                .find("s.json: answer 1: no block size"),
            std::string::npos);
  EXPECT_NE(why(R"({"format":"reducescope-answers","version":1,"answers":[{"kernel":"r","bs":256,"step":1,"kind":"x"}]})")
                .find("not a question kind"),
            std::string::npos);
  EXPECT_EQ(why(R"({"format":"reducescope-answers","version":1,"answers":[]})"), "accepted");
}

TEST(LessonReport, PerQuestionTheFirstTryRateTheCommonestWrongAnswersAndTheTime) {
  std::vector<AnswerFile> files = {
      file("cy", {answer("reduce1", 1, "conflict", false, {"1", "4", "1"}, 10)}),  // "1" twice: one student
      file("al", {answer("reduce1", 1, "conflict", false, {"4"}, 4)}),
      file("bo", {answer("reduce1", 1, "conflict", true, {}, 2)}),
      file("di", {answer("reduce1", 1, "conflict", false, {"1", "16", "32"}, 6, false)}),  // Show after three
  };
  const ClassReport r = make_class_report(files);
  ASSERT_EQ(r.questions.size(), 1u);
  const QuestionRow& q = r.questions[0];
  EXPECT_EQ(q.answered, 4);
  EXPECT_EQ(q.first_try, 1);
  EXPECT_EQ(q.shown, 1);
  ASSERT_EQ(q.wrong.size(), 3u);  // the three most common of four
  EXPECT_EQ(q.wrong[0].answer, "1");
  EXPECT_EQ(q.wrong[0].students, 2);
  EXPECT_EQ(q.wrong[1].answer, "4");
  EXPECT_EQ(q.wrong[1].students, 2);
  EXPECT_EQ(q.wrong[2].students, 1);
  EXPECT_DOUBLE_EQ(q.median_s, 5);
  EXPECT_DOUBLE_EQ(q.min_s, 2);
  EXPECT_DOUBLE_EQ(q.max_s, 10);
  ASSERT_EQ(r.students.size(), 4u);
  EXPECT_EQ(r.students[0].student, "al");  // by name
  EXPECT_EQ(r.students[1].student, "bo");
  EXPECT_EQ(r.students[1].first_try, 1);
  EXPECT_EQ(r.students[3].tries, 3);
  const std::string text = class_report_text(r);
  EXPECT_NE(text.find("1 (2 students), 4 (2), "), std::string::npos) << text;
  EXPECT_NE(text.find("1 right at the first try (25%)"), std::string::npos) << text;
}

TEST(LessonReport, QuestionsComeInTheLessonsOrderAndTheCsvMarksEachStudent) {
  // Met in the other order: the bundled harris lesson asks reduce0 before reduce1.
  std::vector<AnswerFile> files = {
      file("al", {answer("reduce1", 1, "conflict", true, {}, 3), answer("reduce0", 1, "lanes", false, {"32"}, 5)}),
      file("bo", {answer("reduce0", 1, "lanes", true, {}, 4)}),
  };
  const ClassReport r = make_class_report(files);
  ASSERT_EQ(r.lesson, "harris");
  ASSERT_EQ(r.questions.size(), 2u);
  EXPECT_EQ(r.questions[0].kernel, "reduce0");
  EXPECT_EQ(r.questions[1].kernel, "reduce1");
  EXPECT_EQ(r.students[0].marks, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.students[1].marks, (std::vector<int>{1, -1}));  // bo never met reduce1's question
  const std::string csv = class_report_csv(r);
  EXPECT_NE(csv.find("student,file,answered,right_first_try,tries,q1 reduce0@256 step 1 lanes,"), std::string::npos);
  EXPECT_NE(csv.find("\nal,/class/al.json,2,1,3,0,1\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nbo,/class/bo.json,1,1,1,1,\n"), std::string::npos) << csv;
}

TEST(LessonReport, ThePageDrawsEachQuestionsStepFromTheSession) {
  const Session s = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  const ClassReport r = make_class_report({file("al", {answer("reduce1", 1, "conflict", false, {"1"}, 3)})});
  const std::string with = class_report_html(r, &s), without = class_report_html(r, nullptr);
  EXPECT_NE(with.find("lanes that made an instruction"), std::string::npos);
  EXPECT_NE(with.find("banks 0-31 (tallest: 2 words)"), std::string::npos);  // reduce1 at 256, step 1: 2-way
  EXPECT_NE(with.find("2 wavefronts: 2-way bank conflict"), std::string::npos);  // the trace's reason
  EXPECT_EQ(without.find("<svg"), std::string::npos);
  EXPECT_NE(without.find("No pictures: give --session"), std::string::npos);
}

// A lesson's question about the session (a speedup, here harris's reduce1 over reduce0) is no step's: named without
// one in the table, the CSV and the page, whose reason is the session's (no step's picture).
TEST(LessonReport, AQuestionAboutTheSessionIsNamedWithoutAStep) {
  const Session s = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  const ClassReport r = make_class_report({file("al", {answer("reduce1", 0, "speedup", false, {"3"}, 9)})});
  ASSERT_EQ(r.questions.size(), 1u);
  const std::string text = class_report_text(r), csv = class_report_csv(r), page = class_report_html(r, &s);
  EXPECT_NE(text.find("reduce1             -  speedup"), std::string::npos) << text;
  EXPECT_NE(csv.find("q1 reduce1@256 speedup"), std::string::npos) << csv;
  EXPECT_NE(page.find("reduce1 at 256 threads, speedup"), std::string::npos);
  EXPECT_NE(page.find("reduce0 took 0.1724 ms (median) and reduce1 0.1122 ms: 1.54x"), std::string::npos);
  EXPECT_EQ(page.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace rs
