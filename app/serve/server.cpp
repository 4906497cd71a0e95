#include "server.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <deque>
#include <fstream>
#include <map>
#include <ostream>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "check_words.hpp"
#include "exercises.hpp"
#include "i18n.hpp"
#include "room.hpp"
#include "sentences.hpp"
#include "serve_assets.hpp"
#include "server_state.hpp"
#include "session.hpp"
#include "user_kernel.hpp"  // exercise_starting_file

namespace rs::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop = true; }

thread_local std::chrono::steady_clock::time_point t_request_start;

void reply_error(httplib::Response& res, int status, const std::string& line) {
  res.status = status;
  res.set_content(json{{"error", line}}.dump(), "application/json");
}

void reply_json(httplib::Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(j.dump(), "application/json");
}

json brief_json(const Submission& s, int place) {
  json j = {{"id", s.id},          {"student", s.student}, {"exercise", s.exercise}, {"kind", to_string(s.kind)},
            {"state", to_string(s.state)}, {"stage", s.stage}, {"created", s.created}, {"line", s.line}};
  if (s.state == State::Queued) j["place"] = place;
  if (s.state == State::Done) j["finished"] = s.finished;
  if (s.passed >= 0) j["passed"] = s.passed;
  if (s.checks >= 0) j["checks"] = s.checks;
  return j;
}

std::string bearer(const httplib::Request& req) {
  const std::string h = req.get_header_value("Authorization");
  if (h.rfind("Bearer ", 0) == 0) return h.substr(7);
  return req.get_param_value("token");
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The links the instructor hands out: DATA/links.txt, readable by its owner only.
void write_links(const fs::path& data, const std::vector<Person>& people, const std::string& base) {
  const fs::path p = data / "links.txt";
  {
    std::ofstream f(p, std::ios::trunc);
    f << "# reducescope serve: each person's private link (keep this file to yourself)\n";
    for (const Person& q : people) {
      f << base << (q.role == Role::Instructor ? "/i/" : "/s/") << q.token << "  " << q.id << "  " << q.name << "\n";
    }
  }
  ::chmod(p.c_str(), 0600);
}

struct Server {
  const ServeOptions& o;
  Store& store;
  Changes& changes;
  RateLimit limits;
  Runner* runner = nullptr;
  Room* room = nullptr;
  Timings timings;
  std::mutex present_mu;
  std::map<std::string, int> present;  // students with an event stream open (the room's "of those present")

  int students_present() {
    std::lock_guard<std::mutex> lock(present_mu);
    int n = 0;
    for (const auto& [id, streams] : present) n += streams > 0 && id != "instructor";
    return n;
  }

  // The room (issue 56): GET /api/room; POST /api/room/open {"lesson"}, /api/room/vote2, /api/room/reveal (the
  // instructor); POST /api/room/answer (a student).
  void room_state(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    json j = room->state_json(p->role == Role::Instructor ? "" : p->id);
    if (p->role == Role::Instructor) {
      j["present"] = students_present();
      j["lessons"] = room->lessons_json();
    }
    reply_json(res, j);
  }

  void room_act(const httplib::Request& req, httplib::Response& res, const std::string& act) {
    const auto p = who(req, res);
    if (!p) return;
    const bool instructor = p->role == Role::Instructor;
    if ((act == "answer") == instructor) {
      return reply_error(res, 403, instructor ? "the instructor does not vote" : "the instructor's link only");
    }
    json body = json::object();
    if (!req.body.empty()) {
      body = json::parse(req.body, nullptr, false);
      if (body.is_discarded()) return reply_error(res, 400, "the request is not JSON");
    }
    try {
      json j;
      if (act == "open" && body.is_object() && body.contains("kernel")) {  // the window's step (class mode)
        j = room->open_at(body.value("lesson", std::string()), body.value("kernel", std::string()),
                          body.value("block_size", 0u), body.value("dtype", std::string("int32")),
                          body.value("step", size_t{0}), now_s());
      } else if (act == "open") {
        j = room->open_next(body.is_object() ? body.value("lesson", std::string()) : "", now_s());
      }
      if (act == "vote2") j = room->second_vote(now_s());
      if (act == "reveal") j = room->reveal(now_s());
      if (act == "answer") j = room->answer(p->id, body, now_s());
      changes.post(0, act == "answer" ? "instructor" : "");  // id 0: the room changed
      reply_json(res, j);
    } catch (const RoomError& e) {
      reply_error(res, e.status, e.what());
    } catch (const json::exception& e) {
      reply_error(res, 400, std::string("a field of the wrong type: ") + e.what());
    }
  }

  void stats(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    if (p->role != Role::Instructor) return reply_error(res, 403, "the instructor's link only");
    reply_json(res, {{"server", timings.summary()}});
  }

  // The person of the request's token, or a 401 said.
  std::optional<Person> who(const httplib::Request& req, httplib::Response& res) {
    const std::string token = bearer(req);
    std::optional<Person> p = store.person_by_token(token);
    if (!p) {
      reply_error(res, 401, token.empty() ? "no token: open the page from your private link"
                                          : "this token is not one of this class's links");
      return std::nullopt;
    }
    if (!limits.allow(p->token, o.requests_per_minute)) {
      reply_error(res, 429, "too many requests: at most " + std::to_string(o.requests_per_minute) +
                                " a minute from one link; wait a moment");
      return std::nullopt;
    }
    return p;
  }

  void me(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    json ex = json::array();
    for (const Exercise& x : exercises()) ex.push_back({{"name", x.name}, {"title", x.title}});
    reply_json(res, {{"id", p->id},
                     {"name", p->name},
                     {"role", p->role == Role::Instructor ? "instructor" : "student"},
                     {"exercises", ex},
                     {"max_source", o.max_source},
                     {"gpus", o.runner.gpus.size()}});
  }

  void words(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const auto lang = i18n::parse_lang(req.get_param_value("lang"));
    json w = json::object();
    if (lang && *lang != i18n::Lang::En) {
      std::vector<std::string> ids;
      for (const char* id : explain::check_message_ids()) ids.push_back(id);
      for (const char* id : serve_page_words()) ids.push_back(id);
      for (const char* id : explain::message_ids()) ids.push_back(id);  // the room's questions and reveals
      for (const Exercise& x : exercises()) ids.push_back(x.title);
      for (const auto& [en, tr] : i18n::dictionary(*lang, ids)) w[en] = tr;
    }
    reply_json(res, {{"words", w}});
  }

  void start_file(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const std::string name = req.get_param_value("exercise");
    const Exercise* x = find_exercise(name);
    const char* text = x ? exercise_starting_file(x->name) : nullptr;
    if (!text) return reply_error(res, 404, "'" + name + "' is not an exercise (" + exercise_names() + ")");
    reply_json(res, {{"exercise", x->name}, {"source", text}});
  }

  void submit(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    json body;
    try {
      body = json::parse(req.body);
    } catch (const json::exception&) {
      return reply_error(res, 400, "the request is not JSON: send {\"exercise\", \"kind\", \"source\"}");
    }
    if (!body.is_object()) return reply_error(res, 400, "the request is not a JSON object");
    const auto text = [&](const char* k) {
      const auto it = body.find(k);
      return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string exercise = text("exercise"), kind = text("kind"), source = text("source");
    if (!find_exercise(exercise)) {
      return reply_error(res, 400, "'" + exercise.substr(0, 64) + "' is not an exercise (" + exercise_names() + ")");
    }
    if (kind != "run" && kind != "check") return reply_error(res, 400, "kind must be \"run\" or \"check\"");
    if (source.empty()) return reply_error(res, 400, "the kernel file is empty");
    if (source.size() > o.max_source) {
      return reply_error(res, 413, "the kernel file is " + std::to_string(source.size()) + " bytes; the limit is " +
                                       std::to_string(o.max_source / 1024) + " KiB");
    }
    if (p->role == Role::Instructor && p->id != "instructor") return reply_error(res, 403, "not a student's link");
    if (store.unfinished(p->id) >= 2) {
      return reply_error(res, 429, "one run in flight and one waiting: wait for your run to finish");
    }
    if (!limits.allow("submit/" + p->id, o.submits_per_minute)) {
      return reply_error(res, 429, "at most " + std::to_string(o.submits_per_minute) +
                                       " runs a minute from one student; wait a moment");
    }
    int64_t id;
    try {
      id = store.add_submission(p->id, exercise, kind == "run" ? RunKind::Run : RunKind::Check, source, now_s());
    } catch (const StoreError& e) {
      return reply_error(res, 503, std::string("not stored, send it again: ") + e.what());
    }
    Submission sub;
    sub.id = id;
    sub.student = p->id;
    sub.exercise = exercise;
    sub.kind = kind == "run" ? RunKind::Run : RunKind::Check;
    sub.source = source;
    const bool reused = runner && runner->reuse_earlier(sub);  // the same file checked lately: its verdict at once
    changes.post(id, p->id);
    if (runner && !reused) runner->wake();
    reply_json(res, {{"id", id}, {"place", store.place(id)}}, 202);
  }

  // The submission the request's path names (its first match), if the person may see it; else nullopt with a 404
  // said (another student's is "not found", as a missing one).
  std::optional<Submission> visible(const Person& p, const httplib::Request& req, httplib::Response& res) {
    std::optional<Submission> s;
    try {
      s = store.submission(std::stoll(req.matches[1].str()));
    } catch (const std::exception&) {  // a number past int64: no such submission
    }
    if (!s || (p.role != Role::Instructor && s->student != p.id)) {
      reply_error(res, 404, "no submission " + req.matches[1].str() + " of yours");
      return std::nullopt;
    }
    return s;
  }

  void submission(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const auto s = visible(*p, req, res);
    if (!s) return;
    json j = brief_json(*s, store.place(s->id));
    j["source"] = s->source;
    j["result"] = s->result.empty() ? json(nullptr) : json::parse(s->result, nullptr, false);
    reply_json(res, j);
  }

  // A Run's trace as the page `export --html` made of it (runner.hpp, trace_run): its own page, with its inline
  // script (a Content-Security-Policy of its own); the token in the query, as the page's iframe gives it.
  void trace_page(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const auto s = visible(*p, req, res);
    if (!s) return;
    std::string html = read_file(o.runner.runs_dir / std::to_string(s->id) / "trace.html");
    if (html.empty()) return reply_error(res, 404, "this submission has no trace");
    res.headers.erase("Content-Security-Policy");  // the server's default forbids the page's inline script
    res.set_header("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                              "img-src data: blob:; font-src data:");
    res.set_content(std::move(html), "text/html; charset=utf-8");
  }

  void list(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const bool all = p->role == Role::Instructor;
    json list = json::array();
    for (const Submission& s : store.submissions(all ? "" : p->id, all ? 2000 : 200, true)) {
      list.push_back(brief_json(s, s.state == State::Queued ? store.place(s.id) : 0));
    }
    json j = {{"submissions", list}};
    if (all) {
      json people = json::array();
      for (const Person& q : store.people()) {
        if (q.role == Role::Student) people.push_back({{"id", q.id}, {"name", q.name}});
      }
      j["students"] = people;
    }
    reply_json(res, j);
  }

  // Server-sent events: "data: {brief}" for each change the person may see, a comment every 15 s to keep it open.
  void events(const httplib::Request& req, httplib::Response& res) {
    const auto p = who(req, res);
    if (!p) return;
    const std::string student = p->role == Role::Instructor ? "" : p->id;
    auto since = std::make_shared<uint64_t>(changes.last());
    {
      std::lock_guard<std::mutex> lock(present_mu);
      ++present[p->id];
    }
    const std::string who_id = p->id;
    changes.post(0, "instructor");  // the room's count of those present changed
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");  // nginx: pass each event on at once
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, student, since](size_t, httplib::DataSink& sink) {
          if (g_stop) return false;
          const std::vector<int64_t> ids = changes.after(*since, student, std::chrono::seconds(15));
          std::string chunk;
          for (const int64_t id : ids) {
            if (id == 0) {
              chunk += "event: room\ndata: {}\n\n";
            } else if (const auto s = store.submission(id)) {
              chunk += "data: " + brief_json(*s, store.place(id)).dump() + "\n\n";
            }
          }
          if (chunk.empty()) chunk = ": still here\n\n";
          return sink.write(chunk.data(), chunk.size());
        },
        [this, who_id](bool) {
          {
            std::lock_guard<std::mutex> lock(present_mu);
            --present[who_id];
          }
          changes.post(0, "instructor");
        });
  }
};

// The server's limits, headers and error replies.
void configure(httplib::Server& http, const ServeOptions& o) {
  // A thread per connection (cpp-httplib): every page holds its event stream open, so a room of 300 needs 300 of
  // them beside the requests (tests/serve_test.py's room load test).
  http.new_task_queue = [] { return new httplib::ThreadPool(600); };
  http.set_payload_max_length(4 * o.max_source + 4096);
  http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                            {"Referrer-Policy", "no-referrer"},
                            {"Content-Security-Policy",
                             "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"}});
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    reply_error(res, res.status, res.status == 413 ? "the request is too large" :
                                 res.status == 404 ? "not found" : "the request could not be served");
  });
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string why = "unknown";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      why = e.what();
    } catch (...) {
    }
    reply_error(res, 500, "the server failed on this request: " + why);
  });
}

// The pages, their files and the API.
void add_routes(httplib::Server& http, Server& s, const ServeOptions& o) {
  const auto page = [&s](Role role) {
    return [&s, role](const httplib::Request& req, httplib::Response& res) {
      const std::optional<Person> p = s.store.person_by_token(req.matches[1].str());
      if (!p || p->role != role) {
        res.status = 404;
        res.set_content(serve_asset_landing(), "text/html; charset=utf-8");
        return;
      }
      res.set_content(serve_asset_page(), "text/html; charset=utf-8");
    };
  };
  http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(serve_asset_landing(), "text/html; charset=utf-8");
  });
  http.Get(R"(/s/([0-9a-f]+))", page(Role::Student));
  http.Get(R"(/i/([0-9a-f]+))", page(Role::Instructor));
  http.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  http.Get("/serve.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(serve_asset_js(), "text/javascript; charset=utf-8");
  });
  http.Get("/serve.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(serve_asset_css(), "text/css; charset=utf-8");
  });
  // The editor: Debian's CodeMirror 5, by fixed names (nothing from the request names a file).
  const std::map<std::string, std::pair<std::string, const char*>> editor = {
      {"codemirror.js", {"lib/codemirror.js", "text/javascript"}},
      {"codemirror.css", {"lib/codemirror.css", "text/css"}},
      {"clike.js", {"mode/clike/clike.js", "text/javascript"}}};
  for (const auto& [name, file] : editor) {
    const fs::path path = fs::path(o.codemirror_dir) / file.first;
    const char* type = file.second;
    http.Get("/codemirror/" + name, [path, type](const httplib::Request&, httplib::Response& res) {
      std::string text = read_file(path);
      if (text.empty()) return reply_error(res, 404, "CodeMirror is not installed (apt-get install libjs-codemirror)");
      res.set_header("Cache-Control", "max-age=86400");
      res.set_content(std::move(text), type);
    });
  }
  using H = void (Server::*)(const httplib::Request&, httplib::Response&);
  const auto api = [&s](H h) { return [&s, h](const httplib::Request& q, httplib::Response& r) { (s.*h)(q, r); }; };
  http.Get("/api/me", api(&Server::me));
  http.Get("/api/words", api(&Server::words));
  http.Get("/api/start", api(&Server::start_file));
  http.Post("/api/submit", api(&Server::submit));
  http.Get("/api/submissions", api(&Server::list));
  http.Get(R"(/api/submissions/(\d{1,18}))", api(&Server::submission));
  http.Get(R"(/api/submissions/(\d{1,18})/trace\.html)", api(&Server::trace_page));
  http.Get("/api/events", api(&Server::events));
  http.Get("/api/stats", api(&Server::stats));
  http.Get("/api/room", api(&Server::room_state));
  for (const std::string act : {"open", "vote2", "reveal", "answer"}) {
    http.Post("/api/room/" + act, [&s, act](const httplib::Request& q, httplib::Response& r) { s.room_act(q, r, act); });
  }
  http.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    t_request_start = std::chrono::steady_clock::now();
    return httplib::Server::HandlerResponse::Unhandled;
  });
  http.set_logger([&s](const httplib::Request& req, const httplib::Response&) {
    if (req.path == "/api/events") return;  // a stream, open for minutes
    s.timings.add(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_request_start).count());
  });

}

}  // namespace

int serve(const ServeOptions& o, std::ostream& out, std::ostream& err) {
  std::unique_ptr<Store> store;
  std::vector<Person> added;
  try {
    store = std::make_unique<Store>(o.data);
    added = store->add_people(o.roster.empty() ? std::vector<Person>{} : read_roster(o.roster));
  } catch (const StoreError& e) {
    err << "reducescope serve: " << e.what() << "\n";
    return 1;
  }
  const int requeued = store->requeue_unfinished();
  std::shared_ptr<const Session> session;
  if (!o.session.empty()) {
    try {
      session = std::make_shared<const Session>(load_session(o.session.string()));
    } catch (const std::exception& e) {
      err << "reducescope serve: --session " << o.session.string() << ": " << e.what() << "\n";
      return 1;
    }
  }
  Room room(*store, session);
  Changes changes;
  Server s{o, *store, changes, {}, nullptr, &room};
  httplib::Server http;
  configure(http, o);
  add_routes(http, s, o);

  const int port = o.port == 0 ? http.bind_to_any_port(o.listen) : (http.bind_to_port(o.listen, o.port) ? o.port : -1);
  if (port < 0) {
    err << "reducescope serve: cannot listen on " << o.listen << ":" << o.port
        << " (in use, or not an address of this machine): --port P, --listen ADDR\n";
    return 1;
  }
  const std::string base = "http://" + (o.listen == "0.0.0.0" ? std::string("HOST") : o.listen) + ":" + std::to_string(port);
  write_links(o.data, store->people(), base);
  for (const Person& p : added) {
    out << (p.role == Role::Instructor ? "instructor" : "student   ") << "  " << p.id << "  " << base
        << (p.role == Role::Instructor ? "/i/" : "/s/") << p.token << "\n";
  }
  if (!added.empty()) out << "(these links are shown once; " << (o.data / "links.txt").string() << " keeps them)\n";
  if (requeued) out << requeued << " submissions that were running when the server stopped are queued again\n";
  Runner runner(*store, o.runner, [&](int64_t id) {
    if (const auto sub = store->submission(id)) changes.post(id, sub->student);
  });
  s.runner = &runner;
  out << "checking on " << (o.runner.gpus.empty() ? std::to_string(runner.workers()) + " compile-only workers (no GPU)"
                                                  : std::to_string(o.runner.gpus.size()) + " workers on the GPUs")
      << "\nserving on " << base << " (class store " << store->file().string() << "); Ctrl-C stops it\n"
      << std::flush;
  g_stop = false;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  std::thread watch([&] {
    while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    changes.wake_all();
    http.stop();
  });
  http.listen_after_bind();
  g_stop = true;
  watch.join();
  out << "stopped\n";
  return 0;
}

}  // namespace rs::serve
