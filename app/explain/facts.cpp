#include "facts.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>
#include <tuple>

namespace rs::explain {

namespace {

// The source with comments, string and character literals blanked (newlines kept, so lines still count).
std::string code_only(const std::string& s) {
  std::string out = s;
  enum { Code, Line, Block, Str, Chr } st = Code;
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (st) {
      case Code:
        if (c == '/' && n == '/') st = Line, out[i] = ' ';
        else if (c == '/' && n == '*') st = Block, out[i] = ' ';
        else if (c == '"') st = Str;
        else if (c == '\'') st = Chr;
        break;
      case Line:
        if (c == '\n') st = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && n == '/') st = Code, out[i] = out[i + 1] = ' ', ++i;
        else if (c != '\n') out[i] = ' ';
        break;
      case Str:
      case Chr:
        if (c == '\\' && n != '\0') out[i] = out[i + 1] = ' ', ++i;
        else if (c == (st == Str ? '"' : '\'')) st = Code;
        else if (c != '\n') out[i] = ' ';
        break;
    }
  }
  return out;
}

struct Body {
  size_t header_begin = 0, end = 0;  // byte offsets: the header's start, the closing brace
  int first_line = 0, last_line = 0; // 1-based
};

// Top-level bodies of `code` (comments blanked): a body whose enclosing bodies are all namespaces, with its header
// (the text since the previous ';', '{' or '}').
std::vector<Body> top_level_bodies(const std::string& code) {
  std::vector<Body> out;
  std::vector<bool> stack;  // true: a namespace (or extern "C") body
  std::vector<Body> open;
  size_t header = 0;
  int line = 1;
  std::vector<int> line_at;  // the line of each byte
  line_at.reserve(code.size());
  for (char c : code) {
    line_at.push_back(line);
    if (c == '\n') ++line;
  }
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '{') {
      const std::string head = code.substr(header, i - header);
      const bool ns = head.find("namespace") != std::string::npos || head.find("extern") != std::string::npos;
      const bool top = std::all_of(stack.begin(), stack.end(), [](bool b) { return b; });
      stack.push_back(ns);
      if (top && !ns) {
        size_t h = header;
        while (h < i && (code[h] == ' ' || code[h] == '\n' || code[h] == '\t' || code[h] == '\r')) ++h;
        open.push_back({h, 0, line_at[h], 0});
      }
      header = i + 1;
    } else if (c == '}') {
      if (!stack.empty()) {
        const bool ns = stack.back();
        stack.pop_back();
        const bool top = std::all_of(stack.begin(), stack.end(), [](bool b) { return b; });
        if (top && !ns && !open.empty()) {
          Body b = open.back();
          open.pop_back();
          b.end = i;
          b.last_line = line_at[i];
          out.push_back(b);
        }
      }
      header = i + 1;
    } else if (c == ';') {
      header = i + 1;
    }
  }
  return out;
}

bool names(const std::string& head, const std::string& kernel) {
  for (size_t at = head.find(kernel); at != std::string::npos; at = head.find(kernel, at + 1)) {
    const bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(head[at - 1])) || head[at - 1] == '_');
    size_t e = at + kernel.size();
    while (e < head.size() && (head[e] == ' ' || head[e] == '\n')) ++e;
    if (left && e < head.size() && (head[e] == '(' || head[e] == '<')) return true;
  }
  return false;
}

}  // namespace

bool shared_declared(const std::string& source, const std::string& kernel, const std::vector<uint16_t>& lines) {
  if (source.empty()) return false;
  const std::string code = code_only(source);
  for (const Body& b : top_level_bodies(code)) {
    const std::string text = code.substr(b.header_begin, b.end - b.header_begin + 1);
    const size_t brace = text.find('{');
    const bool mine = names(text.substr(0, brace), kernel) ||
                      std::any_of(lines.begin(), lines.end(), [&](uint16_t l) {
                        return l >= b.first_line && l <= b.last_line;
                      });
    if (mine && (text.find("__shared__") != std::string::npos || text.find("dynamic_smem(") != std::string::npos)) {
      return true;
    }
  }
  return false;
}

Context context_in(const Session* s, const TraceMeta& m) {
  Context c;
  if (!s || m.tracer != Tracer::SourceProbe) return c;
  if (const Trace* twin = s->find_trace(m.kernel, m.block_size, std::nullopt, Tracer::Binary)) {
    c.binary_twin = true;
    c.binary_twin_shared = std::any_of(twin->records.begin(), twin->records.end(), [](const TraceRecord& r) {
      return r.kind == static_cast<uint8_t>(AccessKind::Load) || r.kind == static_cast<uint8_t>(AccessKind::Store) ||
             r.kind == static_cast<uint8_t>(AccessKind::SharedAtomic);
    });
  }
  return c;
}

TraceFacts trace_facts(const Replay& r, const std::string& source, const Context& c) {
  const TraceMeta& m = r.meta();
  TraceFacts f;
  f.kernel = m.kernel;
  f.tracer = m.tracer;
  f.binary_twin = c.binary_twin;
  for (const WarpShuffle& sh : r.shuffles()) (sh.kind == AccessKind::WarpReduce ? f.warp_reduces : f.shuffles)++;
  const bool shared_atomics = std::any_of(r.atomics().begin(), r.atomics().end(),
                                          [](const WarpAtomic& a) { return a.kind == AccessKind::SharedAtomic; });
  if (r.has_shared() || shared_atomics) {
    f.shared = Seen::Recorded;
  } else if (m.tracer == Tracer::SourceProbe) {
    std::vector<uint16_t> lines;
    for (const Step& st : r.steps()) lines.insert(lines.end(), st.lines.begin(), st.lines.end());
    for (const Step& st : r.steps()) {
      if (st.barrier_line) lines.push_back(st.barrier_line);
    }
    f.shared = c.binary_twin_shared || shared_declared(source, m.kernel, lines) ? Seen::NotTraced : Seen::None;
  }
  return f;
}

StepFacts step_facts(const Replay& r, size_t step) {
  const Step& st = r.step(step);
  StepFacts f;
  f.step = step;
  f.ended_by = st.ended_by;
  f.barrier_line = st.barrier_line;
  f.warps = static_cast<int>(st.warps.size());
  f.active_warps = st.active_warps();
  for (const WarpStep& w : st.warps) f.exited_warps += w.exited == 0xffffffffu;
  if (st.ended_by == StepEnd::BlockBarrier) f.at_barrier = f.warps - f.exited_warps;
  f.unrecorded_work = f.active_warps == 0 && f.at_barrier > 0;
  f.loads = st.loads;
  f.stores = st.stores;
  for (size_t i : st.shuffles) (r.shuffles()[i].kind == AccessKind::WarpReduce ? f.warp_reduces : f.shuffles)++;
  f.atomics = static_cast<int>(st.atomics.size());
  for (size_t i : st.atomics) f.shared_atomics += r.atomics()[i].kind == AccessKind::SharedAtomic;
  f.global_requests = static_cast<int>(st.global_requests.size());
  // Each warp's last lane operation, and whether it is done by this step.
  std::map<uint32_t, size_t> last;
  const auto& all = r.shuffles();
  for (size_t i = 0; i < all.size(); ++i) {
    auto it = last.find(all[i].warp);
    if (it == last.end() || std::tie(all[it->second].epoch, all[it->second].seq) < std::tie(all[i].epoch, all[i].seq)) {
      last[all[i].warp] = i;
    }
  }
  for (const auto& [w, i] : last) {
    const WarpShuffle& sh = all[i];
    if (sh.epoch > st.epoch) continue;
    WarpResult res;
    res.warp = w;
    res.lane = w < r.result_lanes().size() ? r.result_lanes()[w] : -1;
    res.reduce = sh.kind == AccessKind::WarpReduce;
    if (res.reduce) {
      res.every_lane = true;  // __reduce_*_sync returns the reduction to every participating lane
    } else if (r.meta().tracer != Tracer::Binary && sh.lanes != 0) {
      const int first = std::countr_zero(sh.lanes);
      res.every_lane = std::popcount(sh.lanes) > 1;
      for (int l = 0; l < kWarpSize; ++l) {
        if ((sh.lanes >> l & 1u) && sh.received[l] != sh.received[first]) res.every_lane = false;
      }
    }
    f.results.push_back(res);
  }
  return f;
}

}  // namespace rs::explain
