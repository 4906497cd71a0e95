#include "sass.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>

namespace rs::bt {

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// `File "F", line L` at `pos` of `s`; advances pos past it.
bool read_loc(const std::string& s, size_t& pos, SourceLoc& loc) {
  const size_t q1 = s.find('"', pos);
  if (q1 == std::string::npos) return false;
  const size_t q2 = s.find('"', q1 + 1);
  if (q2 == std::string::npos) return false;
  const size_t l = s.find("line ", q2);
  if (l == std::string::npos) return false;
  char* end = nullptr;
  const unsigned long line = std::strtoul(s.c_str() + l + 5, &end, 10);
  if (end == s.c_str() + l + 5) return false;
  loc.file = s.substr(q1 + 1, q2 - q1 - 1);
  loc.line = static_cast<uint32_t>(line);
  pos = static_cast<size_t>(end - s.c_str());
  return true;
}

std::vector<SourceLoc> parse_locs(const std::string& s) {
  std::vector<SourceLoc> locs;
  size_t pos = 0;
  SourceLoc loc;
  while (read_loc(s, pos, loc)) locs.push_back(loc);
  return locs;
}

// "0x10" or "16" or "RZ" -> value; nullopt for a register or anything else.
std::optional<uint32_t> immediate(const std::string& operand) {
  const std::string t = trim(operand);
  if (t == "RZ") return 0u;
  if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])))) return std::nullopt;
  char* end = nullptr;
  const unsigned long v = std::strtoul(t.c_str(), &end, 0);
  if (*end != '\0') return std::nullopt;
  return static_cast<uint32_t>(v);
}

}  // namespace

const SassInstruction* SassFunction::at(uint64_t offset) const {
  auto it = std::lower_bound(code.begin(), code.end(), offset,
                             [](const SassInstruction& i, uint64_t o) { return i.offset < o; });
  return it != code.end() && it->offset == offset ? &*it : nullptr;
}

std::string SassFunction::main_file() const {
  std::map<std::string, size_t> count;
  for (const auto& i : code) {
    if (!i.where.empty()) count[i.where.back().file]++;
  }
  std::string best;
  size_t most = 0;
  for (const auto& [f, c] : count) {
    if (c > most) most = c, best = f;
  }
  return best;
}

uint32_t SassFunction::line_in(const SassInstruction& ins, const std::string& file) {
  for (const auto& w : ins.where) {
    if (w.file == file) return w.line;
  }
  return 0;
}

std::string SassFunction::listing() const {
  std::ostringstream out;
  for (const auto& i : code) {
    char off[16];
    std::snprintf(off, sizeof off, "/*%04x*/ ", i.offset);
    out << off << i.text << "\n";
  }
  return out.str();
}

std::vector<SassFunction> parse_nvdisasm(const std::string& text) {
  std::vector<SassFunction> fns;
  std::istringstream in(text);
  std::string raw;
  std::vector<SourceLoc> where;
  SassFunction* cur = nullptr;
  bool after_code = true;
  while (std::getline(in, raw)) {
    const std::string line = trim(raw);
    if (starts_with(line, ".text.") && !line.empty() && line.back() == ':') {
      fns.push_back({});
      cur = &fns.back();
      cur->name = line.substr(6, line.size() - 7);
      where.clear();
      after_code = true;
      continue;
    }
    if (!cur) continue;
    if (starts_with(line, "//## File")) {
      // -gi prints an inlined instruction's chain, then its outer location on a line of its own: the
      // comment lines before an instruction together are its locations.
      if (after_code) where.clear(), after_code = false;
      for (auto& l : parse_locs(line)) where.push_back(std::move(l));
      continue;
    }
    if (!starts_with(line, "/*")) continue;
    const size_t close = line.find("*/");
    if (close == std::string::npos) continue;
    char* end = nullptr;
    const unsigned long off = std::strtoul(line.c_str() + 2, &end, 16);
    if (end != line.c_str() + close) continue;
    std::string body = trim(line.substr(close + 2));
    const size_t semi = body.find(';');
    if (semi != std::string::npos) body = trim(body.substr(0, semi));
    if (body.empty()) continue;
    SassInstruction ins;
    ins.offset = static_cast<uint32_t>(off);
    ins.text = body;
    std::string rest = body;
    if (rest[0] == '@') {
      const size_t sp = rest.find(' ');
      rest = sp == std::string::npos ? "" : trim(rest.substr(sp + 1));
    }
    ins.opcode = rest.substr(0, rest.find(' '));
    ins.where = where;
    after_code = true;
    cur->code.push_back(std::move(ins));
  }
  fns.erase(std::remove_if(fns.begin(), fns.end(), [](const SassFunction& f) { return f.code.empty(); }), fns.end());
  for (auto& f : fns) {
    std::sort(f.code.begin(), f.code.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  }
  return fns;
}

uint32_t ShuffleForm::source_lane(uint32_t lane) const {
  const uint32_t w = width == 0 || width > 32 ? 32 : width;
  const uint32_t seg = lane & ~(w - 1);
  switch (kind) {
    case ShuffleKind::Idx: return seg + (b % w);
    case ShuffleKind::Up: return lane >= seg + b ? lane - b : lane;
    case ShuffleKind::Down: return lane + b < seg + w ? lane + b : lane;
    case ShuffleKind::Xor: {
      const uint32_t src = lane ^ b;
      return src >= seg && src < seg + w ? src : lane;
    }
  }
  return lane;
}

std::optional<ShuffleForm> decode_shuffle(const std::string& opcode, const std::string& text) {
  if (!starts_with(opcode, "SHFL.")) return std::nullopt;
  ShuffleForm f;
  const std::string mode = opcode.substr(5);
  if (starts_with(mode, "IDX")) f.kind = ShuffleKind::Idx;
  else if (starts_with(mode, "UP")) f.kind = ShuffleKind::Up;
  else if (starts_with(mode, "DOWN")) f.kind = ShuffleKind::Down;
  else if (starts_with(mode, "BFLY")) f.kind = ShuffleKind::Xor;
  else return std::nullopt;
  // Operands after the opcode: PT, Rd, Ra, b, c
  const size_t at = text.find(opcode);
  std::vector<std::string> ops;
  std::string rest = at == std::string::npos ? "" : text.substr(at + opcode.size());
  std::istringstream in(rest);
  std::string op;
  while (std::getline(in, op, ',')) ops.push_back(trim(op));
  if (ops.size() >= 5) {
    if (auto b = immediate(ops[3])) f.lane_known = true, f.b = *b;
    if (auto c = immediate(ops[4])) {
      f.width_known = true;
      const uint32_t seg = (*c >> 8) & 0x1f;
      f.width = 32 - seg;
    }
  }
  return f;
}

std::optional<uint8_t> atomic_op(const std::string& opcode) {
  if (!(starts_with(opcode, "ATOM") || starts_with(opcode, "RED"))) return std::nullopt;
  auto has = [&](const char* part) { return opcode.find(part) != std::string::npos; };
  uint8_t op;
  if (has(".CAS")) op = static_cast<uint8_t>(AtomicOp::Cas);
  else if (has(".EXCH")) op = static_cast<uint8_t>(AtomicOp::Exch);
  else if (has(".MIN")) op = static_cast<uint8_t>(AtomicOp::Min);
  else if (has(".MAX")) op = static_cast<uint8_t>(AtomicOp::Max);
  else if (has(".INC") && !has(".POPC")) op = static_cast<uint8_t>(AtomicOp::Inc);
  else op = static_cast<uint8_t>(AtomicOp::Add);  // .ADD, .POPC.INC (a warp-aggregated add)
  if (has(".F32") || has(".F16") || has(".BF16")) op |= kOpFloatBit;
  return op;
}

}  // namespace rs::bt
