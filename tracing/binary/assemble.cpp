#include "assemble.hpp"

#include <algorithm>
#include <map>

namespace rs::bt {

namespace {

struct AllocUse {
  uint64_t base = 0, size = 0;
  size_t loads = 0, writes = 0;  // writes: stores and atomics
  bool all_bytes = true;         // every access is 1 byte wide
};

// The allocation holding `addr`, or nullptr.
AllocUse* find_alloc(std::vector<AllocUse>& allocs, uint64_t addr) {
  auto it = std::upper_bound(allocs.begin(), allocs.end(), addr,
                             [](uint64_t a, const AllocUse& u) { return a < u.base; });
  if (it == allocs.begin()) return nullptr;
  --it;
  return addr < it->base + it->size ? &*it : nullptr;
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

namespace {

// Where a demangled name's parameter list opens: its first "(" outside a template's angle brackets (which may hold
// parentheses); npos where it has none.
size_t parameters_open(const std::string& demangled) {
  int depth = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    const char ch = demangled[i];
    if (ch == '<') ++depth;
    else if (ch == '>') --depth;
    else if (ch == '(' && depth == 0) return i;
  }
  return std::string::npos;
}

}  // namespace

std::string short_kernel_name(const std::string& demangled) {
  std::string s = demangled.substr(0, parameters_open(demangled));
  // "void f<...>" (a template's return type): drop it.
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return s.empty() ? demangled : s;
}

std::optional<DType> element_type_of(const std::string& demangled, std::string* pointee) {
  const size_t open = parameters_open(demangled);  // as short_kernel_name cuts it
  if (open == std::string::npos) return std::nullopt;
  std::vector<std::string> params;
  std::string cur;
  int depth = 0;
  for (size_t i = open + 1; i < demangled.size(); ++i) {
    const char ch = demangled[i];
    if (ch == '<' || ch == '(') ++depth;
    if (ch == '>' || ch == ')') {
      if (depth == 0) break;
      --depth;
    }
    if (ch == ',' && depth == 0) {
      params.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  params.push_back(cur);
  for (const std::string& p : params) {
    if (p.find('*') == std::string::npos || p.find('<') != std::string::npos) continue;
    // The pointee's words, without cv-qualifiers, restrict and the stars.
    std::string words;
    std::string w;
    auto flush = [&] {
      if (!w.empty() && w != "const" && w != "volatile" && w != "__restrict__" && w != "__restrict") {
        words += (words.empty() ? "" : " ") + w;
      }
      w.clear();
    };
    for (char ch : p) {
      if (ch == ' ' || ch == '*' || ch == '&') flush();
      else w += ch;
    }
    flush();
    std::optional<DType> t;
    if (words == "float") t = DType::Float32;
    else if (words == "int" || words == "unsigned int" || words == "unsigned" || words == "int32_t" ||
             words == "uint32_t")
      t = DType::Int32;
    if (!t) continue;
    if (pointee) {
      const size_t a = p.find_first_not_of(' '), b = p.find_last_not_of(' ');
      *pointee = p.substr(a, b - a + 1);
    }
    return t;
  }
  return std::nullopt;
}

Trace assemble_trace(const Capture& c, const std::vector<SassFunction>& sass, const AssembleOptions& opt,
                     AssembleReport* report) {
  AssembleReport rep;
  rep.events = c.events.size();
  if (c.status != CaptureStatus::Traced) throw AssembleError("the capture holds no traced launch: " + c.message);
  const SassFunction* fn = nullptr;
  for (const auto& f : sass) {
    if (f.name == c.kernel_mangled) fn = &f;
  }
  if (!fn) throw AssembleError("the SASS listing has no function " + c.kernel_mangled);
  const uint32_t threads = c.threads();
  if (threads == 0 || threads > 1024) {
    throw AssembleError("a block of " + std::to_string(threads) + " threads is outside 1..1024");
  }

  Trace t;
  TraceMeta& m = t.meta;
  std::vector<std::string> notes;

  // Source lines: the kernel's own file in the line table, else the SASS itself.
  const std::string main_file = fn->main_file();
  rep.source_file = main_file;
  std::optional<std::string> text;
  if (!main_file.empty() && opt.read_source) text = opt.read_source(main_file);
  rep.source_found = text.has_value();
  const bool sass_lines = !text;
  if (text) {
    t.source = *text;
  } else {
    t.source = fn->listing();
    notes.push_back(main_file.empty()
                        ? "No line info in the binary (build with -lineinfo): the source panel shows the SASS."
                        : "The source file " + main_file + " was not found here: the source panel shows the SASS.");
  }
  std::map<uint32_t, uint16_t> line_of;  // SASS offset -> line
  for (size_t i = 0; i < fn->code.size(); ++i) {
    const SassInstruction& ins = fn->code[i];
    const uint32_t line = sass_lines ? static_cast<uint32_t>(i + 1) : SassFunction::line_in(ins, main_file);
    line_of[ins.offset] = static_cast<uint16_t>(std::min<uint32_t>(line, 0xffff));
  }

  // Global buffers from the allocations the block touched.
  std::vector<AllocUse> allocs;
  for (const Allocation& a : c.allocations) allocs.push_back({a.base, a.size});
  std::sort(allocs.begin(), allocs.end(), [](const AllocUse& a, const AllocUse& b) { return a.base < b.base; });
  for (const Event& e : c.events) {
    if (e.kind != kEvGlobal) continue;
    AllocUse* u = find_alloc(allocs, e.addr);
    if (!u) continue;
    const SassInstruction* ins = fn->at(e.pc - c.function_pc);
    const bool atomic = ins && atomic_op(ins->opcode).has_value();
    if (atomic || (e.flags & kFlagWrite)) u->writes++;
    else u->loads++;
    if (e.size != 1) u->all_bytes = false;
  }
  const AllocUse* input = nullptr;
  const AllocUse* output = nullptr;
  for (const AllocUse& u : allocs) {
    if (u.loads && (!input || u.loads > input->loads)) input = &u;
  }
  for (const AllocUse& u : allocs) {
    if (&u != input && u.writes && (!output || u.writes > output->writes)) output = &u;
  }
  const bool input_bytes = input && input->all_bytes;
  m.n = input ? std::max<uint64_t>(1, input_bytes ? input->size : input->size / 4) : 1;
  m.output_elements = output ? std::max<uint64_t>(1, output->size / 4) : 0;

  // Each thread's events in its own program order.
  std::vector<std::vector<const Event*>> per_thread(threads);
  for (const Event& e : c.events) {
    if (e.thread < threads) per_thread[e.thread].push_back(&e);
  }
  uint32_t smem_end = 0;
  int32_t last_store = 0;
  uint64_t last_store_key = 0;
  for (uint32_t th = 0; th < threads; ++th) {
    auto& evs = per_thread[th];
    std::sort(evs.begin(), evs.end(), [](const Event* a, const Event* b) { return a->tseq < b->tseq; });
    uint32_t epoch = 0, seq = 0;
    for (const Event* e : evs) {
      if (e->kind == kEvExit) continue;
      const SassInstruction* ins = fn->at(e->pc - c.function_pc);
      if (!ins) {
        rep.unknown_pc++;
        continue;
      }
      TraceRecord r{};
      r.thread = static_cast<uint16_t>(th);
      r.active_mask = e->active_mask;
      r.line = line_of[ins->offset];
      auto push = [&](TraceRecord rec) {
        rec.epoch = epoch;
        rec.seq = seq++;
        t.records.push_back(rec);
      };
      auto end_epoch = [&] {
        ++epoch;
        seq = 0;
      };
      switch (e->kind) {
        case kEvBarrier:
          r.kind = static_cast<uint8_t>(AccessKind::BlockBarrier);
          push(r);
          end_epoch();
          break;
        case kEvSyncwarp:
          r.kind = static_cast<uint8_t>(AccessKind::WarpBarrier);
          push(r);
          end_epoch();
          break;
        case kEvShfl: {
          r.kind = static_cast<uint8_t>(AccessKind::Shuffle);
          const auto form = decode_shuffle(ins->opcode, ins->text);
          const ShuffleForm f = form.value_or(ShuffleForm{});
          r.op = static_cast<uint8_t>(f.kind) | kOpNoValues;
          r.space = static_cast<uint8_t>(f.width_known ? f.width : 32);
          r.lane_arg = f.lane_known ? static_cast<uint8_t>(f.source_lane(th % 32)) : kUnknownLane;
          push(r);
          end_epoch();
          break;
        }
        case kEvShared: {
          if (e->addr < c.reserved_smem) {
            rep.unknown_pc++;
            continue;
          }
          const uint32_t offset = static_cast<uint32_t>(e->addr - c.reserved_smem);
          const auto aop = atomic_op(ins->opcode);
          const bool write = (e->flags & kFlagWrite) != 0;
          const uint32_t words = e->size > 4 ? e->size / 4u : 1u;
          for (uint32_t w = 0; w < words && w < 4; ++w) {
            TraceRecord rec = r;
            rec.addr = (offset & ~3u) + 4 * w;
            smem_end = std::max(smem_end, rec.addr + 4);
            if (aop) {
              rec.kind = static_cast<uint8_t>(AccessKind::SharedAtomic);
              rec.op = *aop | kOpNoValues;
            } else {
              rec.kind = static_cast<uint8_t>(write ? AccessKind::Store : AccessKind::Load);
              rec.value = static_cast<int32_t>(e->value[w]);
            }
            push(rec);
          }
          break;
        }
        case kEvGlobal: {
          AllocUse* u = find_alloc(allocs, e->addr);
          if (!u || (u != input && u != output)) {
            rep.other_global++;
            continue;
          }
          const uint64_t off = e->addr - u->base;
          const auto aop = atomic_op(ins->opcode);
          const bool write = (e->flags & kFlagWrite) != 0;
          if (u == input) {
            r.space = static_cast<uint8_t>(input_bytes ? GlobalBuffer::Bytes : GlobalBuffer::Input);
          } else {
            r.space = static_cast<uint8_t>(GlobalBuffer::Output);
          }
          const bool bytes = u == input && input_bytes;
          r.addr = static_cast<uint32_t>(bytes ? off : off / 4);
          if (aop) {
            r.kind = static_cast<uint8_t>(AccessKind::GlobalAtomic);
            r.op = *aop | kOpNoValues;
          } else {
            r.kind = static_cast<uint8_t>(write ? AccessKind::GlobalStore : AccessKind::GlobalLoad);
            if (bytes) {
              r.value = static_cast<int32_t>((e->value[0] >> (8 * (off & 3))) & 0xffu);
            } else {
              r.value = static_cast<int32_t>(e->value[0]);
              if (e->size > 4) r.lane_arg = e->size;  // a vector access: bytes per lane
            }
            if (write) {
              const uint64_t key = (uint64_t{epoch} << 32) | e->tseq;
              if (key >= last_store_key) last_store_key = key, last_store = r.value;
            }
          }
          push(r);
          break;
        }
        default:
          rep.unknown_pc++;
          break;
      }
      if (epoch > kMaxEpoch) {
        throw AssembleError("thread " + std::to_string(th) + " passed more than " + std::to_string(kMaxEpoch) +
                            " barriers, shuffles or __syncwarps: more steps than a trace holds");
      }
    }
  }
  rep.records = t.records.size();
  rep.dropped = c.taken > c.events.size() ? c.taken - c.events.size() : 0;

  m.kernel = short_kernel_name(c.kernel);
  m.block_size = threads;
  m.grid_size = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{c.grid[0]} * c.grid[1] * c.grid[2], 0xffffffffu));
  m.traced_block = c.traced[0] + c.grid[0] * (c.traced[1] + c.grid[1] * c.traced[2]);
  m.smem_bytes = smem_end;
  m.pattern = "program";
  m.gpu = c.gpu;
  m.compute_capability = std::to_string(c.cc_major) + "." + std::to_string(c.cc_minor);
  m.cuda_version = std::to_string(c.driver_version / 1000) + "." + std::to_string(c.driver_version % 1000 / 10);
  m.date = opt.date;
  m.tool_version = opt.tool_version;
  m.result = last_store;
  m.track = "yours";
  m.launch = c.launch;
  m.tracer = Tracer::Binary;
  // The element type: as asked, else from the kernel's parameters (issue 38: a float kernel showed int32 bits).
  std::string pointee;
  if (opt.dtype) {
    m.dtype = *opt.dtype;
  } else if (const auto t = element_type_of(c.kernel, &pointee)) {
    m.dtype = *t;
    notes.push_back("Values are shown as " + std::string(to_string(*t)) + ", the type of the kernel's parameter " +
                    pointee + " (--type sets another).");
  } else {
    m.dtype = DType::Int32;
    notes.push_back("The kernel's parameters do not say its element type: values are shown as int32 (--type float32 "
                    "shows them as floats).");
  }
  bool shuffles = false, atomics = false;
  for (const auto& r : t.records) {
    shuffles |= r.kind == static_cast<uint8_t>(AccessKind::Shuffle);
    atomics |= r.kind == static_cast<uint8_t>(AccessKind::SharedAtomic) ||
               r.kind == static_cast<uint8_t>(AccessKind::GlobalAtomic);
  }
  if (shuffles) notes.push_back("The API gives no shuffle values: the lanes view shows who read from whom, not what.");
  if (atomics) notes.push_back("The API gives no atomic's operand, old value or landing order.");
  if (rep.other_global) {
    notes.push_back(plural(rep.other_global, "global access", "global accesses") +
                    (rep.other_global == 1 ? " outside the input and output allocations is not shown."
                                           : " outside the input and output allocations are not shown."));
  }
  if (rep.dropped) {
    notes.push_back("The block made " + std::to_string(c.taken) + " events; the buffer held " +
                    std::to_string(c.events.size()) + ": the trace stops early.");
  }
  for (size_t i = 0; i < notes.size(); ++i) m.notes += (i ? "\n" : "") + notes[i];
  for (size_t i = 0; i < t.records.size(); ++i) {
    const Said why = record_problem(m, t.records[i]);
    if (!why.empty()) throw AssembleError("record " + std::to_string(i) + ": " + why.say());
  }
  if (report) *report = rep;
  return t;
}

}  // namespace rs::bt
