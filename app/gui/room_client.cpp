#include "room_client.hpp"

#include <httplib.h>

#include <regex>
#include <stdexcept>

namespace rs::gui {

RoomClient::RoomClient(const std::string& url) {
  static const std::regex re(R"(^http://([A-Za-z0-9.\-]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?/i/([0-9a-f]{32})/?$)");
  std::smatch m;
  if (!std::regex_match(url, m, re)) {
    throw std::invalid_argument("--serve: '" + url + "' is not the instructor's link of `reducescope serve` "
                                "(http://HOST:PORT/i/TOKEN)");
  }
  host_ = m[1].str();
  port_ = m[2].matched ? std::stoi(m[2].str()) : 80;
  token_ = m[3].str();
  thread_ = std::thread([this] { run(); });
}

RoomClient::~RoomClient() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::optional<nlohmann::json> RoomClient::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

std::string RoomClient::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void RoomClient::open(const std::string& lesson, const std::string& kernel, uint32_t block_size,
                      const std::string& dtype, size_t step) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo_.emplace_back("/api/room/open", nlohmann::json{{"lesson", lesson}, {"kernel", kernel},
                                                       {"block_size", block_size}, {"dtype", dtype}, {"step", step}});
  }
  cv_.notify_all();
}

void RoomClient::second_vote() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo_.emplace_back("/api/room/vote2", nlohmann::json::object());
  }
  cv_.notify_all();
}

void RoomClient::reveal() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo_.emplace_back("/api/room/reveal", nlohmann::json::object());
  }
  cv_.notify_all();
}

void RoomClient::run() {
  httplib::Client c(host_, port_);
  c.set_connection_timeout(2);
  c.set_read_timeout(5);
  const httplib::Headers auth = {{"Authorization", "Bearer " + token_}};
  // The reply's line for people: the server's {"error"}, else what the HTTP layer said.
  auto failed = [](const httplib::Result& r) -> std::string {
    if (!r) return "the server does not answer (" + httplib::to_string(r.error()) + ")";
    if (r->status < 300) return "";
    const auto j = nlohmann::json::parse(r->body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].get<std::string>() : "HTTP " + std::to_string(r->status);
  };
  for (;;) {
    std::optional<std::pair<std::string, nlohmann::json>> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, std::chrono::milliseconds(300), [&] { return stop_ || !todo_.empty(); });
      if (stop_) return;
      if (!todo_.empty()) {
        job = std::move(todo_.front());
        todo_.pop_front();
      }
    }
    std::string why;
    if (job) why = failed(c.Post(job->first, auth, job->second.dump(), "application/json"));
    const httplib::Result r = c.Get("/api/room", auth);
    const std::string get_why = failed(r);
    std::optional<nlohmann::json> got;
    if (get_why.empty()) {
      auto j = nlohmann::json::parse(r->body, nullptr, false);
      if (j.is_object()) got = std::move(j);
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (got) state_ = std::move(got);
    error_ = !why.empty() ? why : get_why;
  }
}

bool room_asks(const nlohmann::json& st, const std::string& kernel, uint32_t block_size, const std::string& dtype,
               size_t step, const std::string& kind) {
  const auto q = st.find("question");
  if (q == st.end() || !q->is_object()) return false;
  return q->value("kernel", std::string()) == kernel && q->value("block_size", 0u) == block_size &&
         q->value("dtype", std::string()) == dtype && q->value("step", size_t{0}) == step &&
         q->value("kind", std::string()) == kind;
}

}  // namespace rs::gui
