// The window in class mode connected to `reducescope serve` (issue 56, docs/room.md): `--class-mode --serve URL`,
// URL the instructor's link (http://HOST:PORT/i/TOKEN). The window opens the question of the step on its screen to
// every student's page, draws the answers' distribution in its Predict box as they arrive, and its reveal reveals
// it in the pages too. The HTTP is cpp-httplib's client on a thread of its own: the window never waits for it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

namespace rs::gui {

class RoomClient {
 public:
  // Throws std::invalid_argument for a URL not of the form http://HOST[:PORT]/i/TOKEN (https: put nginx's
  // certificate aside and use the server's own loopback address on the server, docs/serve.md).
  explicit RoomClient(const std::string& url);
  ~RoomClient();
  RoomClient(const RoomClient&) = delete;
  RoomClient& operator=(const RoomClient&) = delete;

  // The room's latest state (GET /api/room, asked every 0.3 s): {"poll", "vote", "state", "question", "votes",
  // "present", ...}; nullopt before the first answer.
  std::optional<nlohmann::json> state() const;
  // The last request's failure in one line ("" where the last one went through).
  std::string error() const;
  // Queued for the thread, which sends them in order: opens the question before `step` of that trace (the server's
  // session must hold the same trace), the second vote, the reveal.
  void open(const std::string& lesson, const std::string& kernel, uint32_t block_size, const std::string& dtype,
            size_t step);
  void second_vote();
  void reveal();

 private:
  void run();
  std::string host_, token_;
  int port_ = 80;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<std::string, nlohmann::json>> todo_;  // path, body
  std::optional<nlohmann::json> state_;
  std::string error_;
  bool stop_ = false;
  std::thread thread_;
};

// Whether the room's open question (state()) is the one `kernel`, `block_size`, `dtype`, `step` and `kind` name.
bool room_asks(const nlohmann::json& state, const std::string& kernel, uint32_t block_size, const std::string& dtype,
               size_t step, const std::string& kind);

}  // namespace rs::gui
