#include "fence.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace rs {

namespace {

// One instruction as the fence check sees it.
enum class Kind { Other, Store, Fence, Atomic, Branch, End };

struct Ins {
  Kind kind = Kind::Other;
  bool predicated = false;  // @p / @P0: it may not run (a branch: it may not be taken)
  bool release = false;     // an atomic with release order at GPU or system scope (PTX only)
  std::string target;       // a branch's label
  uint32_t line = 0;        // in the kernel's own file
  std::string text;
};

struct Code {
  std::vector<Ins> ins;
  std::map<std::string, size_t> labels;  // label -> the index of the instruction after it
  std::string why_not;                   // "": the control flow can be read
};

std::string basename_of(const std::string& p) {
  const size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r;");
  return b == std::string::npos || b < a ? "" : s.substr(a, b - a + 1);
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// The dataflow over the control-flow graph. A state is a set of (store pending, atomic seen, stored) triples; for
// each pending one, the first store that made it pending.
FenceFinding judge(const Code& c, const std::string& what) {
  FenceFinding f;
  f.code = what;
  if (!c.why_not.empty()) {
    f.why_not = c.why_not;
    return f;
  }
  if (c.ins.empty()) {
    f.why_not = "the kernel's " + what + " has no instructions";
    return f;
  }
  for (const Ins& i : c.ins) {
    if (i.kind == Kind::Fence || (i.kind == Kind::Atomic && i.release)) ++f.fences;
    if (i.kind == Kind::Branch && !c.labels.count(i.target)) {
      f.why_not = "a branch to " + i.target + ", which is not a label of the kernel";
      return f;
    }
  }
  f.judged = true;
  constexpr int kPending = 1, kSeen = 2, kStored = 4;  // a triple as a bit index
  constexpr int kTriples = 8;
  struct State {
    unsigned pairs = 0;  // bit t: triple t is possible here
    size_t store[kTriples] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
  };
  std::vector<State> in(c.ins.size());
  std::vector<char> queued(c.ins.size(), 0);
  std::vector<size_t> work = {0};
  in[0].pairs = 1u << 0;
  queued[0] = 1;
  std::vector<char> ticket(c.ins.size(), 0);
  size_t bad_store = SIZE_MAX, bad_atomic = SIZE_MAX;
  while (!work.empty()) {
    const size_t at = work.back();
    work.pop_back();
    queued[at] = 0;
    const Ins& i = c.ins[at];
    const State& s = in[at];
    State out;
    auto put = [&](int pair, size_t store) {
      out.pairs |= 1u << pair;
      if (pair & kPending && out.store[pair] == SIZE_MAX) out.store[pair] = store;
    };
    for (int p = 0; p < kTriples; ++p) {
      if (!(s.pairs & (1u << p))) continue;
      const size_t st = s.store[p];
      if (i.predicated || (i.kind != Kind::Store && i.kind != Kind::Fence && i.kind != Kind::Atomic)) put(p, st);
      if (i.kind == Kind::Store) put(p | kPending | kStored, (p & kPending) ? st : at);
      if (i.kind == Kind::Fence) put(p & ~kPending, SIZE_MAX);
      if (i.kind == Kind::Atomic) {
        if (!(p & kSeen)) {
          ticket[at] = 1;
          if (p & kStored) f.stores_before_ticket = true;
          if (p & kPending) {
            if (!i.release && bad_store == SIZE_MAX) {
              bad_store = st;
              bad_atomic = at;
            }
          }
        }
        put(i.release ? (p & ~kPending) | kSeen : p | kSeen, i.release ? SIZE_MAX : st);
      }
    }
    std::vector<size_t> next;
    const bool ends = i.kind == Kind::End && !i.predicated;
    const bool jumps = i.kind == Kind::Branch;
    if (jumps) next.push_back(c.labels.at(i.target));
    if (!ends && !(jumps && !i.predicated) && at + 1 < c.ins.size()) next.push_back(at + 1);
    for (size_t n : next) {
      State& d = in[n];
      bool changed = (d.pairs | out.pairs) != d.pairs;
      d.pairs |= out.pairs;
      for (int p = 0; p < kTriples; ++p) {
        if (out.store[p] != SIZE_MAX && d.store[p] == SIZE_MAX) {
          d.store[p] = out.store[p];
          changed = true;
        }
      }
      if (changed && !queued[n]) {
        queued[n] = 1;
        work.push_back(n);
      }
    }
  }
  f.tickets = static_cast<int>(std::count(ticket.begin(), ticket.end(), 1));
  if (bad_store != SIZE_MAX) {
    f.missing = true;
    f.store_line = c.ins[bad_store].line;
    f.store_text = c.ins[bad_store].text;
    f.atomic_line = c.ins[bad_atomic].line;
    f.atomic_text = c.ins[bad_atomic].text;
  }
  return f;
}

// ---- PTX -------------------------------------------------------------------------------------------------------

// The body of `.entry NAME(...)`, or of `.func ... NAME(...)`: the text between its braces.
std::string ptx_body(const std::string& ptx, const std::string& name, bool entry) {
  size_t at = 0;
  while ((at = ptx.find(name + "(", at)) != std::string::npos) {
    const size_t line_start = ptx.rfind('\n', at) + 1;
    const std::string head = ptx.substr(line_start, at - line_start);
    const bool is_entry = has(head, ".entry");
    const bool is_func = has(head, ".func");
    if ((entry && is_entry) || (!entry && is_func)) {
      const size_t open = ptx.find('{', at);
      const size_t semi = ptx.find(';', at);
      if (open == std::string::npos || (semi != std::string::npos && semi < open)) {  // a declaration
        at += name.size();
        continue;
      }
      int depth = 0;
      for (size_t i = open; i < ptx.size(); ++i) {
        if (ptx[i] == '{') ++depth;
        if (ptx[i] == '}' && --depth == 0) return ptx.substr(open + 1, i - open - 1);
      }
      return ptx.substr(open + 1);
    }
    at += name.size();
  }
  return "";
}

bool ptx_touches_global(const std::string& body) {
  return has(body, "st.global") || has(body, "atom.") || has(body, "red.") || has(body, "membar") ||
         has(body, "fence.");
}

Code read_ptx(const std::string& ptx, const std::string& entry, const std::string& file) {
  Code c;
  const std::string body = ptx_body(ptx, entry, true);
  if (body.empty()) {
    c.why_not = "the PTX has no kernel " + entry;
    return c;
  }
  // The file index of the kernel's own file: its `.file` entry, else the one most `.loc` lines name.
  static const std::regex file_re(R"re(^\s*\.file\s+(\d+)\s+"([^"]*)")re");
  static const std::regex loc_re(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*inlined_at\s+(\d+)\s+(\d+))?)");
  int main_file = -1;
  {
    std::istringstream in(ptx);
    std::string l;
    std::smatch m;
    while (std::getline(in, l)) {
      if (!file.empty() && std::regex_search(l, m, file_re) && basename_of(m[2]) == basename_of(file)) {
        main_file = std::stoi(m[1]);
      }
    }
    if (main_file < 0) {
      std::map<int, int> count;
      std::istringstream b(body);
      while (std::getline(b, l)) {
        if (std::regex_search(l, m, loc_re)) ++count[std::stoi(m[1])];
      }
      int best = 0;
      for (auto [f, n] : count) {
        if (n > best) best = n, main_file = f;
      }
    }
  }
  std::istringstream in(body);
  std::string raw;
  uint32_t line = 0;
  static const std::regex label_re(R"(^\s*(\$?[A-Za-z_][\w$]*):\s*$)");
  while (std::getline(in, raw)) {
    std::string l = raw.substr(0, raw.find("//"));
    std::smatch m;
    if (std::regex_search(l, m, loc_re)) {
      if (std::stoi(m[1]) == main_file && std::stoul(m[2]) > 0) line = static_cast<uint32_t>(std::stoul(m[2]));
      else if (m[3].matched && std::stoi(m[4]) == main_file) line = static_cast<uint32_t>(std::stoul(m[5]));
      continue;
    }
    if (std::regex_match(l, m, label_re)) {
      c.labels[m[1]] = c.ins.size();
      continue;
    }
    l = trim(l);
    if (l.empty() || l[0] == '.' || l[0] == '{' || l[0] == '}') continue;  // directives, declarations, scopes
    Ins i;
    i.text = l;
    i.line = line;
    if (l[0] == '@') {
      i.predicated = true;
      const size_t sp = l.find_first_of(" \t");
      l = trim(l.substr(sp == std::string::npos ? l.size() : sp));
    }
    const std::string op = l.substr(0, l.find_first_of(" \t"));
    if (op == "bra" || op.rfind("bra.", 0) == 0) {
      i.kind = Kind::Branch;
      i.target = trim(l.substr(op.size()));
    } else if (op.rfind("brx", 0) == 0) {
      c.why_not = "an indirect branch (" + i.text + ")";
      return c;
    } else if (op == "ret" || op == "exit" || op == "trap" || op.rfind("ret.", 0) == 0) {
      i.kind = Kind::End;
    } else if (op.rfind("call", 0) == 0) {
      static const std::regex callee_re(R"(call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$]+))");
      if (std::regex_search(l, m, callee_re) && ptx_touches_global(ptx_body(ptx, m[1], false))) {
        c.why_not = "a call to " + m[1].str() + ", which the compiler did not inline";
        return c;
      }
    } else if (op.rfind("st.", 0) == 0 || op == "st") {
      if (!has(op, ".shared") && !has(op, ".local") && !has(op, ".param")) i.kind = Kind::Store;
    } else if (op == "membar.gl" || op == "membar.sys" || (op.rfind("fence.", 0) == 0 && !has(op, ".proxy") &&
                                                           (has(op, ".gpu") || has(op, ".sys")))) {
      i.kind = Kind::Fence;
    } else if (op.rfind("atom.", 0) == 0 || op.rfind("red.", 0) == 0) {
      if (!has(op, ".shared")) {
        i.kind = Kind::Atomic;
        i.release = (has(op, ".release") || has(op, ".acq_rel")) && !has(op, ".cta") && !has(op, ".cluster");
      }
    }
    c.ins.push_back(std::move(i));
  }
  return c;
}

// ---- SASS ------------------------------------------------------------------------------------------------------

// The text of function `name`'s section in an nvdisasm listing ("" when absent).
std::string sass_section(const std::string& listing, const std::string& name) {
  const std::string head = ".text." + name + ":";
  size_t at = listing.find(head);
  if (at == std::string::npos) return "";
  at += head.size();
  size_t end = listing.find("\n.text.", at);
  const size_t section = listing.find(".section", at);
  if (section != std::string::npos && (end == std::string::npos || section < end)) end = section;
  return listing.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

bool sass_touches_global(const std::string& s) {
  return has(s, " STG") || has(s, " ATOMG") || has(s, " ATOM.") || has(s, " RED.") || has(s, " REDG") ||
         has(s, " MEMBAR");
}

Code read_sass(const std::string& listing, const std::string& entry, const std::string& file) {
  Code c;
  const std::string body = sass_section(listing, entry);
  if (body.empty()) {
    c.why_not = "the SASS has no function " + entry;
    return c;
  }
  static const std::regex loc_re(R"re(//## File "([^"]*)", line (\d+)(.*))re");
  static const std::regex inlined_re(R"re(inlined at "([^"]*)", line (\d+))re");
  static const std::regex ins_re(R"(^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*$)");
  static const std::regex label_re(R"(^\s*(\.L_\w+):)");
  // The kernel's file: `file`'s name, else the file most locations name first.
  std::string main_file = basename_of(file);
  if (main_file.empty()) {
    std::map<std::string, int> count;
    std::istringstream in(body);
    std::string l;
    std::smatch m;
    while (std::getline(in, l)) {
      if (std::regex_search(l, m, loc_re)) ++count[basename_of(m[1])];
    }
    int best = 0;
    for (auto& [f, n] : count) {
      if (n > best) best = n, main_file = f;
    }
  }
  std::istringstream in(body);
  std::string l;
  uint32_t line = 0;
  // ptxas guards a release atomic's MEMBAR with the atomic's own predicate (`@P4 MEMBAR.ALL.GPU` ... `@P4 ATOM`):
  // the guard of the last predicated fence, until a label, a branch or an instruction that writes it.
  std::string fence_guard;
  while (std::getline(in, l)) {
    std::smatch m;
    if (std::regex_search(l, m, loc_re)) {
      uint32_t found = 0;
      if (basename_of(m[1]) == main_file) found = static_cast<uint32_t>(std::stoul(m[2]));
      std::string rest = m[3];
      for (std::sregex_iterator it(rest.begin(), rest.end(), inlined_re), e; !found && it != e; ++it) {
        if (basename_of((*it)[1]) == main_file) found = static_cast<uint32_t>(std::stoul((*it)[2]));
      }
      if (found) line = found;
      continue;
    }
    if (std::regex_search(l, m, label_re)) {
      c.labels[m[1]] = c.ins.size();
      fence_guard.clear();
      continue;
    }
    if (!std::regex_match(l, m, ins_re)) continue;
    std::string t = trim(m[2]);
    Ins i;
    i.text = t;
    i.line = line;
    std::string guard;
    if (!t.empty() && t[0] == '@') {
      i.predicated = true;
      const size_t sp = t.find_first_of(" \t");
      guard = t.substr(0, sp);
      t = trim(t.substr(sp == std::string::npos ? t.size() : sp));
    }
    const std::string op = t.substr(0, t.find_first_of(" \t"));
    if (!fence_guard.empty()) {  // an instruction that writes the guard's predicate ends it
      const std::string pred = fence_guard.substr(fence_guard[1] == '!' ? 2 : 1);
      const size_t sp = t.find_first_of(" \t");
      const std::string operands = sp == std::string::npos ? "" : trim(t.substr(sp));
      if (operands.rfind(pred + ",", 0) == 0 || operands.rfind(pred + " ", 0) == 0 || op.rfind("BRA", 0) == 0) {
        fence_guard.clear();
      }
    }
    auto starts = [&](const char* p) { return op.rfind(p, 0) == 0; };
    auto is_op = [&](const char* p) { return op == p || op.rfind(std::string(p) + ".", 0) == 0; };
    if (is_op("BRA")) {
      static const std::regex target_re(R"(`\((\.L_\w+)\))");
      std::smatch tm;
      if (!std::regex_search(t, tm, target_re)) {
        c.why_not = "a branch whose target is not a label (" + i.text + ")";
        return c;
      }
      i.kind = Kind::Branch;
      i.target = tm[1];
    } else if (is_op("BRX") || is_op("JMX") || is_op("JMP")) {
      c.why_not = "an indirect branch (" + i.text + ")";
      return c;
    } else if (is_op("EXIT") || is_op("RET") || is_op("BPT")) {
      i.kind = Kind::End;
    } else if (is_op("CALL")) {
      static const std::regex callee_re(R"(`\(([^)]+)\))");
      std::smatch cm;
      if (std::regex_search(t, cm, callee_re) && sass_touches_global(sass_section(listing, cm[1]))) {
        c.why_not = "a call to " + cm[1].str() + ", which the compiler did not inline";
        return c;
      }
    } else if (is_op("STG") || is_op("ST")) {
      i.kind = Kind::Store;
    } else if (starts("MEMBAR") && (has(op, ".GPU") || has(op, ".SYS") || has(op, ".GL"))) {
      i.kind = Kind::Fence;
      fence_guard = guard;
    } else if (is_op("ATOMG") || is_op("ATOM") || is_op("RED") || is_op("REDG")) {
      i.kind = Kind::Atomic;
      i.release = !guard.empty() && guard == fence_guard;  // fenced under its own predicate
    }
    c.ins.push_back(std::move(i));
  }
  return c;
}

}  // namespace

std::vector<ShuffleMask> shuffle_masks_in_ptx(const std::string& ptx, const std::string& entry,
                                              const std::string& file) {
  std::vector<ShuffleMask> out;
  const Code c = read_ptx(ptx, entry, file);
  // A register's value where the function writes it once, with an immediate (mov.u32 %r40, 65535).
  auto constant = [&](const std::string& reg) -> std::optional<uint32_t> {
    std::optional<uint32_t> v;
    int writes = 0;
    for (const Ins& i : c.ins) {
      const std::string t = i.text.substr(i.text[0] == '@' ? i.text.find_first_of(" \t") + 1 : 0);
      const size_t sp = t.find_first_of(" \t");
      if (sp == std::string::npos) continue;
      const std::string ops = trim(t.substr(sp));
      if (ops.rfind(reg + ",", 0) != 0 && ops.rfind(reg + "|", 0) != 0) continue;
      ++writes;
      static const std::regex mov_re(R"(^mov\.(?:u32|b32|s32)\s+[^,]+,\s*(-?(?:0[xX][0-9a-fA-F]+|[0-9]+))U?)");
      std::smatch m;
      if (std::regex_search(t, m, mov_re)) v = static_cast<uint32_t>(std::stoll(m[1], nullptr, 0));
    }
    return writes == 1 ? v : std::nullopt;
  };
  for (const Ins& i : c.ins) {
    if (i.text.find("shfl.sync") == std::string::npos) continue;
    const size_t last_comma = i.text.rfind(',');
    if (last_comma == std::string::npos) continue;
    const std::string mask = trim(i.text.substr(last_comma + 1));
    std::optional<uint32_t> v;
    if (!mask.empty() && mask[0] == '%') v = constant(mask);
    else if (!mask.empty()) {
      char* end = nullptr;
      const long long n = std::strtoll(mask.c_str(), &end, 0);
      if (end && *end == '\0') v = static_cast<uint32_t>(n);
    }
    if (v && *v != 0xffffffffu) out.push_back({i.line, *v});
  }
  return out;
}

FenceFinding fence_in_ptx(const std::string& ptx, const std::string& entry, const std::string& file) {
  return judge(read_ptx(ptx, entry, file), "PTX");
}

FenceFinding fence_in_sass(const std::string& listing, const std::string& entry, const std::string& file) {
  return judge(read_sass(listing, entry, file), "SASS");
}

}  // namespace rs
