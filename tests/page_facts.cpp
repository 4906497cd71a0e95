// The facts the page's step sentences must say (issue 38, item 2: the page's sentences are in the claims audit).
//
// Usage: rs_page_facts FILE OUT.json   (FILE: a session or a trace)
//
// For every trace of FILE and every step, from the explain layer (app/explain/facts.hpp, which the claims audit,
// tests/test_claims.cpp, checks against the raw records by a second route) and the replay model's bank counts
// (proven equal to Nsight Compute's by `verify`): the step's active warps, shared loads and stores with their
// conflicts, shuffles, warp reduces, atomics and global requests, the barrier's line, and the idle line as
// explain::render_idle says it in English and in Chinese. tests/web_chromium.py steps the exported page through
// every step of every kernel it holds and checks that what the page's script composed says these and nothing else.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts.hpp"
#include "i18n.hpp"
#include "replay.hpp"
#include "session.hpp"
#include "trace_io.hpp"
#include "views.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: rs_page_facts FILE OUT.json\n");
    return 2;
  }
  using namespace rs;
  if (!std::getenv("RS_LOCALEDIR")) setenv("RS_LOCALEDIR", RS_LOCALE_DIR, 1);
  try {
    std::vector<Trace> traces;
    Session session;
    std::ifstream in(argv[1], std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const bool is_session = is_session_bytes(bytes);
    if (is_session) {
      session = load_session(argv[1]);
      traces = session.traces;
    } else {
      traces.push_back(load_trace(argv[1]));
    }
    std::map<std::string, std::string> zh;
    for (const auto& [id, text] : i18n::dictionary(i18n::Lang::Zh, [] {
           std::vector<std::string> v;
           for (const char* id : explain::idle_message_ids()) v.emplace_back(id);
           return v;
         }())) {
      zh[id] = text;
    }
    if (zh.empty()) throw std::runtime_error("no Chinese catalogue (RS_LOCALEDIR)");
    const auto in_zh = [&](const char* id) {
      const auto it = zh.find(id);
      return it == zh.end() ? id : it->second.c_str();
    };
    nlohmann::json out = nlohmann::json::array();
    for (const Trace& t : traces) {
      const Replay r(t);
      const explain::TraceFacts facts =
          explain::trace_facts(r, t.source, explain::context_in(is_session ? &session : nullptr, t.meta));
      nlohmann::json steps = nlohmann::json::array();
      for (size_t si = 0; si < r.num_steps(); ++si) {
        const Step& st = r.step(si);
        const explain::StepFacts f = explain::step_facts(r, si);
        std::vector<explain::View> idle;
        for (explain::View v : explain::views_in_order(r)) {
          if (!explain::view_active(st, v)) idle.push_back(v);
        }
        const explain::IdleLine line = explain::idle_line(r, st, idle, {}, facts.shared == explain::Seen::NotTraced);
        steps.push_back({{"aw", f.active_warps},
                         {"warps", f.warps},
                         {"unrecorded", f.unrecorded_work},
                         {"line", f.barrier_line},
                         {"ld", f.loads},
                         {"st", f.stores},
                         {"ldc", st.load_conflicts},
                         {"stc", st.store_conflicts},
                         {"deg", st.max_degree},
                         {"shf", f.shuffles},
                         {"wred", f.warp_reduces},
                         {"atm", f.atomics},
                         {"req", f.global_requests},
                         {"idle_en", explain::render_idle(line)},
                         {"idle_zh", explain::render_idle(line, in_zh)}});
      }
      out.push_back({{"kernel", t.meta.kernel},
                     {"bs", t.meta.block_size},
                     {"dtype", to_string(t.meta.dtype)},
                     {"binary", t.meta.tracer == Tracer::Binary},
                     {"steps", steps}});
    }
    std::ofstream(argv[2]) << out.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rs_page_facts: %s\n", e.what());
    return 1;
  }
  return 0;
}
