// ReloadBench (app/gui/reload_bench.hpp, `--reload-bench N`): driven frame by frame with a hand-made AppState
// in place of the window (a new trace arrives: YoursState::arrivals goes up).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "reload_bench.hpp"
#include "session.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using rs::gui::AppState;
using rs::gui::ReloadBench;

namespace {

// A trace for side A to show (any: the benchmark only looks that one is on screen).
std::shared_ptr<const rs::gui::LoadedTrace> some_trace() {
  static const std::shared_ptr<const rs::gui::LoadedTrace> t =
      std::make_shared<rs::gui::LoadedTrace>(rs::load_session(RS_TRACKS_SESSION_FILE).traces.at(0));
  return t;
}

using rs::test::read_file;

struct Fixture {
  rs::test::TempDir dir;
  fs::path file = dir.dir() / "mine.cu";
  std::string text = "// a kernel file\nRS_LAUNCH_SHAPE(1, Relaunch, 32);\n";
  AppState s;
  Fixture() {
    std::ofstream(file, std::ios::binary) << text;
    s.device_known = s.have_device = true;
    s.yours.name = "mine";
    s.yours.path = file.string();
    s.yours_selected = true;
    s.shown = some_trace();
  }
  // Frames until `until` says so (at most 5 s of them, 1 ms apart); false if it never did.
  template <class Until>
  bool frames(ReloadBench& b, Until until) {
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
      if (until()) return true;
      b.frame_shown(s, true);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return until();
  }
};

}  // namespace

TEST(ReloadBench, SavesTheFileTimesEachNewTraceAndPutsTheTextBack) {
  Fixture f;
  {
    ReloadBench b(3, f.file.string(), std::chrono::steady_clock::now());
    ASSERT_TRUE(b.running());
    EXPECT_FALSE(b.frame_shown(f.s, true));  // no trace on screen yet
    ++f.s.yours.arrivals;                     // the first trace
    for (int save = 1; save <= 3; ++save) {
      // It saves after a pause: the file changes, with a line naming the save.
      ASSERT_TRUE(f.frames(b, [&] { return read_file(f.file) != f.text; })) << "save " << save << " never came";
      const std::string saved = read_file(f.file);
      EXPECT_EQ(saved.rfind(f.text, 0), 0u) << "the file's own text first";
      EXPECT_NE(saved.find("save " + std::to_string(save) + " of 3"), std::string::npos) << saved;
      EXPECT_FALSE(b.frame_shown(f.s, true)) << "no new trace yet: it waits";
      std::ofstream(f.file, std::ios::binary) << f.text;  // (so that the next save shows as a change)
      ++f.s.yours.arrivals;                                  // the save's trace is on screen
      const bool over = b.frame_shown(f.s, true);
      EXPECT_EQ(over, save == 3) << "save " << save;
    }
    EXPECT_FALSE(b.running());
    EXPECT_EQ(b.exit_code(), rs::kExitOk);
    testing::internal::CaptureStdout();
    b.print();
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_NE(out.find("3 saves"), std::string::npos) << out;
    EXPECT_NE(out.find("median"), std::string::npos) << out;
    std::ofstream(f.file, std::ios::binary) << f.text << "// save 3\n";  // as the last save left it
  }
  EXPECT_EQ(read_file(f.file), f.text) << "the destructor puts the file's own text back";
}

TEST(ReloadBench, WaitsWhileTheFeedIsBusy) {
  Fixture f;
  ReloadBench b(2, f.file.string(), std::chrono::steady_clock::now());
  ++f.s.yours.arrivals;
  b.frame_shown(f.s, true);  // the first trace noted
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(600)) {
    b.frame_shown(f.s, false);  // the exercise's checks still running
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(read_file(f.file), f.text) << "it saved while the feed was busy";
}

TEST(ReloadBench, WithoutAGpuItStopsAndSaysWhy) {
  Fixture f;
  f.s.have_device = false;
  f.s.no_device_reason = "no CUDA GPU is available";
  ReloadBench b(20, f.file.string(), std::chrono::steady_clock::now());
  EXPECT_TRUE(b.frame_shown(f.s, true));
  EXPECT_FALSE(b.running());
  EXPECT_EQ(b.exit_code(), rs::kExitRuntime);
  testing::internal::CaptureStdout();
  b.print();
  EXPECT_NE(testing::internal::GetCapturedStdout().find("needs a CUDA GPU"), std::string::npos);
  EXPECT_EQ(read_file(f.file), f.text);
}

TEST(ReloadBench, AFileItCannotReadIsAnError) {
  ReloadBench b(5, "/nonexistent/dir/mine.cu", std::chrono::steady_clock::now());
  EXPECT_EQ(b.exit_code(), rs::kExitRuntime);
  EXPECT_FALSE(b.running());
}
