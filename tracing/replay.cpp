#include "replay.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>


namespace rs {

const char* to_string(StepEnd e) {
  switch (e) {
    case StepEnd::BlockBarrier: return "__syncthreads()";
    case StepEnd::WarpBarrier: return "__syncwarp()";
    case StepEnd::KernelEnd: return "end of kernel";
    case StepEnd::Shuffle: return "a warp shuffle";
    case StepEnd::WarpReduce: return "a warp reduce";
  }
  return "?";
}

BankAnalysis analyze_banks(const std::array<uint32_t, kWarpSize>& addr, uint32_t lanes) {
  BankAnalysis a;
  std::array<std::set<uint32_t>, kNumBanks> words;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!(lanes >> l & 1u)) continue;
    int b = bank_of(addr[l]);
    words[b].insert(addr[l] / kBankWidthBytes);
    a.lanes_per_bank[b]++;
  }
  for (int b = 0; b < kNumBanks; ++b) {
    a.words_per_bank[b] = static_cast<uint8_t>(words[b].size());
    a.degree = std::max(a.degree, static_cast<int>(words[b].size()));
  }
  return a;
}

int Step::active_warps() const {
  return static_cast<int>(std::count_if(warps.begin(), warps.end(), [](const WarpStep& w) { return w.active(); }));
}

const char* intrinsic_name(AccessKind kind, uint8_t op) {
  op &= kOpMask;
  switch (kind) {
    case AccessKind::Shuffle:
      switch (static_cast<ShuffleKind>(op)) {
        case ShuffleKind::Idx: return "__shfl_sync";
        case ShuffleKind::Up: return "__shfl_up_sync";
        case ShuffleKind::Down: return "__shfl_down_sync";
        case ShuffleKind::Xor: return "__shfl_xor_sync";
      }
      return "__shfl?_sync";
    case AccessKind::WarpReduce:
      switch (static_cast<WarpReduceOp>(op)) {
        case WarpReduceOp::Add: return "__reduce_add_sync";
        case WarpReduceOp::Min: return "__reduce_min_sync";
        case WarpReduceOp::Max: return "__reduce_max_sync";
      }
      return "__reduce_?_sync";
    case AccessKind::SharedAtomic:
    case AccessKind::GlobalAtomic:
      switch (static_cast<AtomicOp>(op)) {
        case AtomicOp::Add: return "atomicAdd";
        case AtomicOp::Min: return "atomicMin";
        case AtomicOp::Max: return "atomicMax";
        case AtomicOp::Inc: return "atomicInc";
        case AtomicOp::Exch: return "atomicExch";
        case AtomicOp::Cas: return "atomicCAS";
      }
      return "atomic?";
    default:
      return to_string(kind);
  }
}

uint32_t atomic_result(uint8_t op, uint32_t old, uint32_t operand) {
  const bool is_float = (op & kOpFloatBit) != 0;
  switch (static_cast<AtomicOp>(op & kOpMask)) {
    case AtomicOp::Add:
      return is_float ? float_to_bits(bits_to_float(old) + bits_to_float(operand)) : old + operand;
    case AtomicOp::Min:
      if (is_float) return bits_to_float(operand) < bits_to_float(old) ? operand : old;
      return static_cast<int32_t>(operand) < static_cast<int32_t>(old) ? operand : old;
    case AtomicOp::Max:
      if (is_float) return bits_to_float(operand) > bits_to_float(old) ? operand : old;
      return static_cast<int32_t>(operand) > static_cast<int32_t>(old) ? operand : old;
    case AtomicOp::Inc: return old >= operand ? 0u : old + 1u;
    case AtomicOp::Exch:
    case AtomicOp::Cas: return operand;
  }
  return old;
}

namespace {

bool is_shared_access(AccessKind k) { return k == AccessKind::Load || k == AccessKind::Store; }
bool is_barrier(AccessKind k) { return k == AccessKind::BlockBarrier || k == AccessKind::WarpBarrier; }
bool is_lane_op(AccessKind k) { return k == AccessKind::Shuffle || k == AccessKind::WarpReduce; }
bool is_atomic(AccessKind k) { return k == AccessKind::SharedAtomic || k == AccessKind::GlobalAtomic; }

// A key that orders 32-bit values as numbers: int32, or float32 (a total order, NaNs last).
uint32_t order_key(uint32_t bits, bool is_float) {
  if (!is_float) return bits ^ 0x80000000u;
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

// One atomic update of one lane, before it becomes part of an AtomicTarget.
struct AtomicEvent {
  TraceRecord rec;
  size_t instruction;
};

// Groups the updates by target and puts each target's updates in landing order (AtomicTarget).
std::vector<AtomicTarget> build_targets(const std::vector<AtomicEvent>& events) {
  std::map<std::tuple<int, uint8_t, uint32_t>, std::vector<const AtomicEvent*>> by_target;
  for (const AtomicEvent& ev : events) {
    const bool global = ev.rec.kind == static_cast<uint8_t>(AccessKind::GlobalAtomic);
    by_target[{global ? 1 : 0, global ? ev.rec.space : uint8_t{0}, ev.rec.addr}].push_back(&ev);
  }
  std::vector<AtomicTarget> targets;
  targets.reserve(by_target.size());
  for (auto& [key, evs] : by_target) {
    AtomicTarget t;
    t.kind = std::get<0>(key) ? AccessKind::GlobalAtomic : AccessKind::SharedAtomic;
    t.space = std::get<1>(key);
    t.addr = std::get<2>(key);
    t.op = evs.front()->rec.op;
    const bool is_float = (t.op & kOpFloatBit) != 0;
    const auto aop = static_cast<AtomicOp>(t.op & kOpMask);
    // A binary trace (kOpNoValues) has no old values: its updates keep program order (epoch, thread).
    const bool by_old = !(t.op & kOpNoValues) &&
                        (aop == AtomicOp::Add || aop == AtomicOp::Inc || aop == AtomicOp::Max || aop == AtomicOp::Min);
    const bool descending = aop == AtomicOp::Min;
    std::sort(evs.begin(), evs.end(), [&](const AtomicEvent* a, const AtomicEvent* b) {
      if (by_old) {
        const uint32_t ka = order_key(a->rec.aux, is_float), kb = order_key(b->rec.aux, is_float);
        if (ka != kb) return descending ? ka > kb : ka < kb;
      }
      return std::make_tuple(a->rec.epoch, a->rec.thread, a->rec.seq) <
             std::make_tuple(b->rec.epoch, b->rec.thread, b->rec.seq);
    });
    for (const AtomicEvent* ev : evs) {
      AtomicUpdate u;
      u.thread = ev->rec.thread;
      u.epoch = ev->rec.epoch;
      u.operand = static_cast<uint32_t>(ev->rec.value);
      u.old = ev->rec.aux;
      u.op = ev->rec.op;
      u.instruction = ev->instruction;
      t.order.push_back(u);
    }
    for (size_t k = 1; k < t.order.size(); ++k) {
      const AtomicUpdate& prev = t.order[k - 1];
      if (prev.op & kOpNoValues) break;
      if (t.order[k].old == atomic_result(prev.op, prev.old, prev.operand)) ++t.chained;
    }
    targets.push_back(std::move(t));
  }
  return targets;
}

}  // namespace

// Renumbers each record's `seq` so that equal (epoch, warp, seq, kind, line) means one warp-level
// instruction, also where lanes took different paths inside an epoch. The probe numbers each
// thread's events in order; a lane that skips an event (the histograms' `if (bin >= 0) atomicAdd`
// in a loop) numbers every later one differently from its neighbours, so the raw seq would put the
// k-th iteration's load of one lane with the (k+1)-th of another. The lanes that execute one warp
// instruction together read the same __activemask(): the k-th execution of a (line, kind) with a
// given active mask by each lane is one instruction. The instructions of a warp's epoch keep their
// program order (by the largest raw seq of their lanes, then the smallest). For code in which the
// lanes of a warp run the same events, this is the raw seq's grouping unchanged.
static void group_warp_instructions(std::vector<TraceRecord>& recs) {
  std::vector<size_t> order(recs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(recs[a].epoch, recs[a].thread, recs[a].seq) <
           std::make_tuple(recs[b].epoch, recs[b].thread, recs[b].seq);
  });
  // (epoch, warp, line, kind, active mask, occurrence) of each record.
  using Key = std::tuple<uint32_t, uint32_t, uint16_t, uint8_t, uint32_t, uint32_t>;
  std::vector<Key> key(recs.size());
  std::map<std::tuple<uint32_t, uint16_t, uint16_t, uint8_t, uint32_t>, uint32_t> seen;  // per thread
  for (size_t i : order) {
    const TraceRecord& r = recs[i];
    const uint32_t k = seen[{r.epoch, r.thread, r.line, r.kind, r.active_mask}]++;
    key[i] = {r.epoch, r.thread / kWarpSize, r.line, r.kind, r.active_mask, k};
  }
  struct Span {
    uint32_t max_seq = 0, min_seq = ~0u;
  };
  std::map<Key, Span> spans;
  for (size_t i = 0; i < recs.size(); ++i) {
    Span& sp = spans[key[i]];
    sp.max_seq = std::max(sp.max_seq, recs[i].seq);
    sp.min_seq = std::min(sp.min_seq, recs[i].seq);
  }
  // Number the instructions of each (epoch, warp) in program order.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<std::tuple<uint32_t, uint32_t, Key>, const Key*>>> per_warp;
  for (const auto& [k, sp] : spans) {
    per_warp[{std::get<0>(k), std::get<1>(k)}].push_back({{sp.max_seq, sp.min_seq, k}, &k});
  }
  std::map<Key, uint32_t> number;
  for (auto& [w, list] : per_warp) {
    std::sort(list.begin(), list.end());
    for (uint32_t n = 0; n < list.size(); ++n) number[*list[n].second] = n;
  }
  for (size_t i = 0; i < recs.size(); ++i) recs[i].seq = number[key[i]];
}

// Renumbers epochs so that every thread's k-th block barrier (__syncthreads() and its _or, _and and
// _count forms) ends the same step. The probe counts epochs per thread, and a shuffle, a warp reduce
// or a __syncwarp() ends the epoch of the lanes that run it; where only some warps run one (warp 0's
// second warp sum in `if (warp == 0)`), the threads reach the next block barrier with different
// counts, and the raw epochs would put warp 0's work before that barrier in the same step as the other
// warps' work after it (single_pass_last_block at 256 threads, issue 17). Between two block barriers
// (a phase), each thread's own epochs keep their order from the phase's first step; a phase is as many
// steps as its longest thread's, and every thread's barrier record sits in the phase's last step.
// Where all threads count alike (every kernel without warp-level synchronisation in divergent code),
// this is the identity; where threads passed different numbers of block barriers, epochs stay as
// recorded.
static void align_block_barriers(std::vector<TraceRecord>& recs) {
  const auto is_block_barrier = [](const TraceRecord& r) {
    return r.kind == static_cast<uint8_t>(AccessKind::BlockBarrier);
  };
  std::map<uint16_t, std::vector<size_t>> per_thread;
  std::map<uint16_t, size_t> barriers;  // block-barrier records per thread
  for (size_t i = 0; i < recs.size(); ++i) {
    per_thread[recs[i].thread].push_back(i);
    barriers[recs[i].thread] += is_block_barrier(recs[i]);
  }
  // Threads that passed different numbers of block barriers (a thread that returned early, or a
  // __syncthreads() only some warps reach) have no k-th barrier in common: keep their epochs.
  for (const auto& [thread, k] : barriers) {
    if (k != barriers.begin()->second) return;
  }
  std::vector<uint32_t> phase(recs.size()), sub(recs.size());
  std::vector<uint32_t> phase_len;  // steps of each phase: the most any thread takes
  for (auto& [thread, idx] : per_thread) {
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
      return std::make_pair(recs[a].epoch, is_block_barrier(recs[a])) <
             std::make_pair(recs[b].epoch, is_block_barrier(recs[b]));
    });
    uint32_t p = 0, start = 0;
    for (size_t i : idx) {
      const TraceRecord& r = recs[i];
      phase[i] = p;
      sub[i] = r.epoch >= start ? r.epoch - start : 0;
      if (phase_len.size() <= p) phase_len.resize(p + 1, 0);
      phase_len[p] = std::max(phase_len[p], sub[i] + 1);
      if (is_block_barrier(r)) {
        ++p;
        start = r.epoch + 1;
      }
    }
  }
  std::vector<uint32_t> offset(phase_len.size(), 0);
  for (size_t p = 1; p < phase_len.size(); ++p) offset[p] = offset[p - 1] + phase_len[p - 1];
  for (size_t i = 0; i < recs.size(); ++i) {
    const uint32_t p = phase[i];
    recs[i].epoch = offset[p] + (is_block_barrier(recs[i]) ? phase_len[p] - 1 : sub[i]);
  }
}

Replay::Replay(const Trace& trace) : meta_(trace.meta) {
  if (trace.records.empty()) throw ReplayError(Said(N_("%s: the trace holds no records"), meta_.kernel.c_str()));
  num_warps_ = static_cast<int>((meta_.block_size + kWarpSize - 1) / kWarpSize);
  words_ = meta_.smem_bytes / kBankWidthBytes;

  if (meta_.block_size == 0 || meta_.block_size > 1024) {
    throw ReplayError(Said(N_("%s: block size %u is outside 1..1024"), meta_.kernel.c_str(), meta_.block_size));
  }
  for (const TraceRecord& r : trace.records) {
    Said why = record_problem(meta_, r);
    if (!why.empty()) {
      throw ReplayError(
          Said(N_("%s: a record does not fit the traced block: %s"), meta_.kernel.c_str(), why));
    }
  }
  std::vector<TraceRecord> recs = trace.records;
  align_block_barriers(recs);
  group_warp_instructions(recs);
  std::sort(recs.begin(), recs.end(), [](const TraceRecord& a, const TraceRecord& b) {
    auto key = [](const TraceRecord& r) {
      return std::make_tuple(r.epoch, r.thread / kWarpSize, r.seq, r.kind, r.line, r.thread % kWarpSize);
    };
    return key(a) < key(b);
  });

  // The last epoch of each thread: any event counts, barriers and shuffles included.
  uint32_t max_epoch = 0;
  std::vector<int64_t> last_epoch(meta_.block_size, -1);
  for (const auto& r : recs) {
    max_epoch = std::max(max_epoch, r.epoch);
    last_epoch[r.thread] = std::max<int64_t>(last_epoch[r.thread], r.epoch);
  }
  // The global slice (GlobalSlice): the buffer the block stores into in place, Scratch before
  // Input, over the indices it loads or stores there.
  {
    const auto scratch = static_cast<uint8_t>(GlobalBuffer::Scratch), input = static_cast<uint8_t>(GlobalBuffer::Input);
    bool stores_scratch = false, stores_input = false;
    for (const auto& r : recs) {
      if (r.kind != static_cast<uint8_t>(AccessKind::GlobalStore)) continue;
      stores_scratch = stores_scratch || r.space == scratch;
      stores_input = stores_input || r.space == input;
    }
    if (stores_scratch || stores_input) {
      slice_.space = stores_scratch ? scratch : input;
      uint32_t lo = UINT32_MAX, hi = 0;
      for (const auto& r : recs) {
        const auto k = static_cast<AccessKind>(r.kind);
        if ((k != AccessKind::GlobalLoad && k != AccessKind::GlobalStore) || r.space != slice_.space) continue;
        lo = std::min(lo, r.addr);
        hi = std::max(hi, r.addr);
      }
      slice_.first = lo;
      slice_.span = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{hi} - lo + 1, UINT32_MAX));
      slice_.count = std::min(slice_.span, kMaxGlobalSliceCells);
      slice_.truncated = slice_.span > kMaxGlobalSliceCells;
    }
  }
  // One snapshot per step: refuse traces whose snapshots would not fit in memory (a real
  // reduction of a 1024-thread block has about 20 steps of 1024 words).
  if (static_cast<uint64_t>(max_epoch + 1) * (std::max<size_t>(words_, 1) + slice_.count) > kMaxSnapshotCells) {
    throw ReplayError(
        slice_.count
            ? Said(N_("%s: %u steps of %zu shared-memory words and %u global elements are too many to replay"),
                         meta_.kernel.c_str(), max_epoch + 1, words_, slice_.count)
            : Said(N_("%s: %u steps of %zu shared-memory words are too many to replay"), meta_.kernel.c_str(),
                         max_epoch + 1, words_));
  }

  // Shared atomics change shared memory: per (epoch, word), the value the last update of that
  // epoch (in landing order) left there.
  std::map<std::pair<uint32_t, uint32_t>, int32_t> atomic_writes;
  {
    std::vector<AtomicEvent> shared;
    for (const auto& r : recs) {
      if (r.kind == static_cast<uint8_t>(AccessKind::SharedAtomic)) shared.push_back({r, 0});
    }
    for (const AtomicTarget& t : build_targets(shared)) {
      for (const AtomicUpdate& u : t.order) {
        if (u.op & kOpNoValues) continue;  // a binary trace: the value the atomic left is not known
        atomic_writes[{u.epoch, t.addr / kBankWidthBytes}] =
            static_cast<int32_t>(atomic_result(u.op, u.old, u.operand));
      }
    }
  }
  std::vector<AtomicEvent> atomic_events;

  steps_.resize(max_epoch + 1);
  std::vector<int32_t> smem(words_, 0);
  std::vector<uint8_t> defined(words_, 0);
  std::vector<int32_t> gvalues(slice_.count, 0);
  std::vector<uint8_t> gdefined(slice_.count, 0);
  size_t i = 0;
  for (uint32_t e = 0; e <= max_epoch; ++e) {
    Step& st = steps_[e];
    st.epoch = e;
    st.warps.resize(num_warps_);
    st.written.assign(words_, 0);
    st.read.assign(words_, 0);
    st.global_written.assign(slice_.count, 0);
    st.global_read.assign(slice_.count, 0);
    // Per warp: sum of useful-lane fractions and number of warp-level instructions, for efficiency.
    std::vector<int> warp_accesses(num_warps_, 0);
    std::vector<float> warp_eff(num_warps_, 0.f);
    // Per thread: words loaded since its last store this epoch, for the flows.
    std::map<uint32_t, std::vector<uint32_t>> pending_reads;
    std::map<uint32_t, std::vector<uint32_t>> pending_global;  // the same for global-slice cells
    std::set<uint16_t> lines;
    // The first shuffle or warp reduce of the step, which ends it if no barrier does.
    bool lane_end = false;
    StepEnd lane_end_kind = StepEnd::Shuffle;
    uint16_t lane_end_line = 0;

    // Warp-level bookkeeping shared by every kind of warp instruction.
    auto note_instruction = [&](uint32_t warp, uint32_t lanes, uint32_t active_mask, uint16_t line) {
      WarpStep& ws = st.warps[warp];
      ws.every = ws.instructions == 0 ? lanes : ws.every & lanes;
      ++ws.instructions;
      ws.useful |= lanes;
      ws.active_mask |= active_mask;
      // Live lanes of this warp: those that have not finished the kernel.
      uint32_t live = 0;
      for (int l = 0; l < kWarpSize; ++l) {
        uint32_t t = warp * kWarpSize + l;
        if (t < meta_.block_size && last_epoch[t] >= static_cast<int64_t>(e)) live |= 1u << l;
      }
      if ((active_mask & live) != live) {
        ws.diverged = true;
        ++ws.partial;
      }
      warp_accesses[warp]++;
      warp_eff[warp] += static_cast<float>(std::popcount(lanes)) / kWarpSize;
      lines.insert(line);
    };

    while (i < recs.size() && recs[i].epoch == e) {
      const TraceRecord& r0 = recs[i];
      const uint32_t warp = r0.thread / kWarpSize;
      const auto kind = static_cast<AccessKind>(r0.kind);
      if (is_barrier(kind)) {
        // Barriers end the step; all lanes of a correct kernel agree on which barrier.
        StepEnd end = kind == AccessKind::BlockBarrier ? StepEnd::BlockBarrier : StepEnd::WarpBarrier;
        if (st.barrier_line == 0 || end == StepEnd::BlockBarrier) {
          st.ended_by = end;
          st.barrier_line = r0.line;
        }
        ++i;
        continue;
      }
      // The records of one warp-level instruction: same epoch, warp, seq, kind and line.
      const size_t first = i;
      while (i < recs.size()) {
        const TraceRecord& r = recs[i];
        if (r.epoch != e || r.thread / kWarpSize != warp || r.seq != r0.seq || r.kind != r0.kind ||
            r.line != r0.line) {
          break;
        }
        ++i;
      }

      if (is_shared_access(kind)) {
        WarpAccess wa;
        wa.epoch = e;
        wa.warp = warp;
        wa.seq = r0.seq;
        wa.kind = kind;
        wa.line = r0.line;
        for (size_t k = first; k < i; ++k) {
          const TraceRecord& r = recs[k];
          const uint32_t lane = r.thread % kWarpSize;
          wa.lanes |= 1u << lane;
          wa.active_mask |= r.active_mask;
          wa.addr[lane] = r.addr;
          wa.value[lane] = r.value;
          const uint32_t word = r.addr / kBankWidthBytes;
          if (kind == AccessKind::Load) {
            st.read[word] = 1;
            pending_reads[r.thread].push_back(word);
          } else {
            st.written[word] = 1;
            smem[word] = r.value;
            defined[word] = 1;
            for (uint32_t src : pending_reads[r.thread]) {
              if (src != word) st.flows.emplace_back(word, src);
            }
            pending_reads[r.thread].clear();
          }
        }
        wa.banks = analyze_banks(wa.addr, wa.lanes);
        note_instruction(warp, wa.lanes, wa.active_mask, wa.line);
        if (kind == AccessKind::Load) {
          st.loads++;
          st.load_conflicts += wa.banks.conflicts();
        } else {
          st.stores++;
          st.store_conflicts += wa.banks.conflicts();
        }
        st.max_degree = std::max(st.max_degree, wa.banks.degree);
        st.accesses.push_back(accesses_.size());
        accesses_.push_back(wa);
      } else if (is_lane_op(kind)) {
        WarpShuffle sh;
        sh.epoch = e;
        sh.warp = warp;
        sh.seq = r0.seq;
        sh.kind = kind;
        sh.op = r0.op & kOpMask;
        sh.float_values = (r0.op & kOpFloatBit) != 0;
        sh.values = (r0.op & kOpNoValues) == 0;
        sh.width = r0.space;
        sh.line = r0.line;
        std::array<uint8_t, kWarpSize> src{};
        for (size_t k = first; k < i; ++k) {
          const TraceRecord& r = recs[k];
          const uint32_t lane = r.thread % kWarpSize;
          sh.lanes |= 1u << lane;
          sh.member_mask |= r.aux;
          sh.active_mask |= r.active_mask;
          sh.offered[lane] = r.addr;
          sh.received[lane] = static_cast<uint32_t>(r.value);
          src[lane] = r.lane_arg;
        }
        if (kind == AccessKind::Shuffle) {
          for (int l = 0; l < kWarpSize; ++l) {
            if (!(sh.lanes >> l & 1u)) continue;
            const uint8_t from = src[l];
            if (from >= kWarpSize) continue;  // kUnknownLane: the binary tracer could not tell
            sh.moves.push_back({from, static_cast<uint8_t>(l), sh.received[l]});
            // A lane that read from a lane not executing the shuffle got an undefined value.
            if (!(sh.lanes >> from & 1u) || sh.received[l] != sh.offered[from]) sh.consistent = false;
          }
        } else {
          uint32_t acc = 0;
          bool any = false;
          for (int l = 0; l < kWarpSize; ++l) {
            if (!(sh.lanes >> l & 1u)) continue;
            const uint32_t v = sh.offered[l];
            if (!any) {
              acc = v;
              any = true;
            } else if (sh.op == static_cast<uint8_t>(WarpReduceOp::Add)) {
              acc += v;
            } else if (sh.op == static_cast<uint8_t>(WarpReduceOp::Min)) {
              acc = static_cast<int32_t>(v) < static_cast<int32_t>(acc) ? v : acc;
            } else {
              acc = static_cast<int32_t>(v) > static_cast<int32_t>(acc) ? v : acc;
            }
          }
          for (int l = 0; l < kWarpSize; ++l) {
            if ((sh.lanes >> l & 1u) && sh.received[l] != acc) sh.consistent = false;
          }
        }
        note_instruction(warp, sh.lanes, sh.active_mask, sh.line);
        if (!lane_end) {
          lane_end = true;
          lane_end_kind = kind == AccessKind::Shuffle ? StepEnd::Shuffle : StepEnd::WarpReduce;
          lane_end_line = sh.line;
        }
        st.shuffles.push_back(shuffles_.size());
        shuffles_.push_back(std::move(sh));
      } else if (is_atomic(kind)) {
        WarpAtomic wa;
        wa.epoch = e;
        wa.warp = warp;
        wa.seq = r0.seq;
        wa.kind = kind;
        wa.op = r0.op & kOpMask;
        wa.float_values = (r0.op & kOpFloatBit) != 0;
        wa.space = kind == AccessKind::GlobalAtomic ? r0.space : 0;
        wa.line = r0.line;
        uint32_t active = 0;
        std::map<uint32_t, int> per_addr;
        for (size_t k = first; k < i; ++k) {
          const TraceRecord& r = recs[k];
          wa.lanes |= 1u << (r.thread % kWarpSize);
          active |= r.active_mask;
          per_addr[r.addr]++;
          atomic_events.push_back({r, atomics_.size()});
        }
        for (const auto& [addr, n] : per_addr) {
          wa.contention.emplace_back(addr, n);
          wa.max_contention = std::max(wa.max_contention, n);
        }
        note_instruction(warp, wa.lanes, active, wa.line);
        st.atomics.push_back(atomics_.size());
        atomics_.push_back(std::move(wa));
      } else {  // GlobalLoad, GlobalStore
        GlobalRequest g;
        g.epoch = e;
        g.warp = warp;
        g.seq = r0.seq;
        g.kind = kind;
        g.space = r0.space;
        g.line = r0.line;
        std::set<uint64_t> sectors, elements;
        int requested = 0;
        for (size_t k = first; k < i; ++k) {
          const TraceRecord& r = recs[k];
          const uint32_t lane = r.thread % kWarpSize;
          g.lanes |= 1u << lane;
          g.active_mask |= r.active_mask;
          g.index[lane] = r.addr;
          g.value[lane] = static_cast<uint32_t>(r.value);
          // A vector access (lane_arg: bytes per lane, int4: 16) covers several elements and maybe sectors.
          const uint32_t eb = element_bytes(r.space), width = r.lane_arg ? r.lane_arg : eb;
          const uint64_t byte = uint64_t{r.addr} * eb;
          for (uint64_t sec = byte / 32; sec <= (byte + width - 1) / 32; ++sec) sectors.insert(sec);
          for (uint32_t e = 0; e < width / eb; ++e) elements.insert(uint64_t{r.addr} + e);
          requested += width;
          // The slice's snapshot: a load shows what memory held, a store what it holds now.
          if (r.space != slice_.space || r.addr < slice_.first || r.addr - slice_.first >= slice_.count) continue;
          const uint32_t cell = r.addr - slice_.first;
          if (kind == AccessKind::GlobalLoad) {
            st.global_read[cell] = 1;
            if (!gdefined[cell]) {
              gvalues[cell] = r.value;
              gdefined[cell] = 1;
            }
            pending_global[r.thread].push_back(cell);
          } else {
            st.global_written[cell] = 1;
            gvalues[cell] = r.value;
            gdefined[cell] = 1;
            for (uint32_t src : pending_global[r.thread]) {
              if (src != cell) st.global_flows.emplace_back(cell, src);
            }
            pending_global[r.thread].clear();
          }
        }
        g.sectors = static_cast<int>(sectors.size());
        g.min_sectors = static_cast<int>((elements.size() * element_bytes(g.space) + 31) / 32);
        g.requested_bytes = requested;
        note_instruction(warp, g.lanes, g.active_mask, g.line);
        st.global_requests.push_back(global_.size());
        global_.push_back(g);
      }
    }
    if (st.barrier_line == 0 && st.ended_by == StepEnd::KernelEnd && lane_end) {
      st.ended_by = lane_end_kind;
      st.barrier_line = lane_end_line;
    }
    for (auto it = atomic_writes.lower_bound({e, 0}); it != atomic_writes.end() && it->first.first == e; ++it) {
      const uint32_t word = it->first.second;
      smem[word] = it->second;
      defined[word] = 1;
      st.written[word] = 1;
    }

    for (int w = 0; w < num_warps_; ++w) {
      WarpStep& ws = st.warps[w];
      for (int l = 0; l < kWarpSize; ++l) {
        uint32_t t = static_cast<uint32_t>(w) * kWarpSize + l;
        if (t >= meta_.block_size || last_epoch[t] < static_cast<int64_t>(e)) ws.exited |= 1u << l;
      }
      ws.efficiency = warp_accesses[w] ? warp_eff[w] / static_cast<float>(warp_accesses[w]) : 0.f;
    }
    std::sort(st.flows.begin(), st.flows.end());
    st.flows.erase(std::unique(st.flows.begin(), st.flows.end()), st.flows.end());
    std::sort(st.global_flows.begin(), st.global_flows.end());
    st.global_flows.erase(std::unique(st.global_flows.begin(), st.global_flows.end()), st.global_flows.end());
    st.global_values = gvalues;
    st.global_defined = gdefined;
    st.lines.assign(lines.begin(), lines.end());
    st.smem = smem;
    st.defined = defined;
    load_conflicts_ += st.load_conflicts;
    store_conflicts_ += st.store_conflicts;
  }

  targets_ = build_targets(atomic_events);

  // Per warp, the lane that holds the result after the warp's last shuffle or warp reduce: the
  // lane of its first store or atomic after that (lowest lane of the instruction), else lane 0.
  result_lanes_.assign(num_warps_, -1);
  std::vector<int64_t> last_lane_op(num_warps_, -1);
  for (const WarpShuffle& sh : shuffles_) {
    last_lane_op[sh.warp] = std::max<int64_t>(last_lane_op[sh.warp], sh.epoch);
  }
  // (epoch, seq, lane) of the first store or atomic after the last lane op, per warp.
  std::vector<std::tuple<uint32_t, uint32_t, int>> first_after(num_warps_, {UINT32_MAX, UINT32_MAX, 0});
  auto consider = [&](uint32_t warp, uint32_t epoch, uint32_t seq, uint32_t lanes) {
    if (last_lane_op[warp] < 0 || static_cast<int64_t>(epoch) <= last_lane_op[warp] || lanes == 0) return;
    first_after[warp] = std::min(first_after[warp], std::make_tuple(epoch, seq, std::countr_zero(lanes)));
  };
  for (const WarpAccess& a : accesses_) {
    if (a.kind == AccessKind::Store) consider(a.warp, a.epoch, a.seq, a.lanes);
  }
  for (const GlobalRequest& g : global_) {
    if (g.kind == AccessKind::GlobalStore) consider(g.warp, g.epoch, g.seq, g.lanes);
  }
  for (const WarpAtomic& a : atomics_) consider(a.warp, a.epoch, a.seq, a.lanes);
  for (int w = 0; w < num_warps_; ++w) {
    if (last_lane_op[w] < 0) continue;
    result_lanes_[w] = std::get<0>(first_after[w]) == UINT32_MAX ? 0 : std::get<2>(first_after[w]);
  }
}

int Replay::shuffle_instruction_count() const {
  return static_cast<int>(std::count_if(shuffles_.begin(), shuffles_.end(),
                                        [](const WarpShuffle& s) { return s.kind == AccessKind::Shuffle; }));
}

int Replay::atomic_instruction_count(AccessKind k) const {
  return static_cast<int>(
      std::count_if(atomics_.begin(), atomics_.end(), [k](const WarpAtomic& a) { return a.kind == k; }));
}

int Replay::global_request_count(AccessKind k) const {
  return static_cast<int>(
      std::count_if(global_.begin(), global_.end(), [k](const GlobalRequest& g) { return g.kind == k; }));
}

std::string source_line(const std::string& source, int line) {
  if (line <= 0) return {};
  std::istringstream in(source);
  std::string s;
  for (int n = 1; std::getline(in, s); ++n) {
    if (n == line) {
      size_t b = s.find_first_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b);
    }
  }
  return {};
}

std::string describe_step(const Replay& replay, size_t index, const std::string& source) {
  const Step& st = replay.step(index);
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "step %zu/%zu  ends at %s", index, replay.num_steps() - 1, to_string(st.ended_by));
  o << buf;
  if (st.barrier_line) o << " (line " << st.barrier_line << ")";
  o << "\n";
  std::snprintf(buf, sizeof buf,
                "  active warps %d/%d  warp-level loads %d, stores %d  bank conflicts: ld %d, st %d (worst %d-way)\n",
                st.active_warps(), replay.num_warps(), st.loads, st.stores, st.load_conflicts, st.store_conflicts,
                st.max_degree);
  o << buf;
  if (!st.shuffles.empty() || !st.atomics.empty() || !st.global_requests.empty()) {
    int worst = 0;
    for (size_t ai : st.atomics) worst = std::max(worst, replay.atomics()[ai].max_contention);
    std::snprintf(buf, sizeof buf, "  shuffles/warp reduces %zu  warp atomics %zu (worst %d-way)  global requests %zu\n",
                  st.shuffles.size(), st.atomics.size(), worst, st.global_requests.size());
    o << buf;
  }
  for (int w = 0; w < replay.num_warps(); ++w) {
    const WarpStep& ws = st.warps[w];
    if (!ws.active()) continue;
    std::snprintf(buf, sizeof buf, "  warp %2d  active mask %08x  useful lanes %08x (%2d)  %s  efficiency %3.0f%%\n", w,
                  ws.active_mask, ws.useful, std::popcount(ws.useful), ws.diverged ? "DIVERGED" : "converged",
                  100.0 * ws.efficiency);
    o << buf;
  }
  for (size_t ai : st.accesses) {
    const WarpAccess& a = replay.accesses()[ai];
    int first = std::countr_zero(a.lanes);
    std::snprintf(buf, sizeof buf, "    warp %2u %-5s lanes %08x  %d-way  line %3u: ", a.warp, to_string(a.kind), a.lanes,
                  a.banks.degree, a.line);
    o << buf << source_line(source, a.line);
    std::snprintf(buf, sizeof buf, "   [lane %d: word %u = ", first, a.addr[first] / kBankWidthBytes);
    o << buf << format_value(static_cast<uint32_t>(a.value[first]), replay.meta().dtype) << "]\n";
  }
  const DType dtype = replay.meta().dtype;
  auto value = [&](uint32_t bits, bool is_float) { return format_value(bits, is_float ? DType::Float32 : dtype); };
  // A lane operation's values in its own type: the probe marks float operands (kOpFloatBit), so an unmarked one is
  // int32 even in a float32 trace (reproducible_sum's __reduce_max_sync of exponents).
  auto lane_type = [](const WarpShuffle& s) { return s.float_values ? DType::Float32 : DType::Int32; };
  auto buffer = [](uint8_t space) { return to_string(static_cast<GlobalBuffer>(space)); };
  for (size_t si : st.shuffles) {
    const WarpShuffle& s = replay.shuffles()[si];
    std::snprintf(buf, sizeof buf, "    warp %2u %s", s.warp, intrinsic_name(s.kind, s.op));
    o << buf;
    if (s.kind == AccessKind::Shuffle) o << " width " << int{s.width};
    std::snprintf(buf, sizeof buf, "  lanes %08x  line %3u: ", s.lanes, s.line);
    o << buf << source_line(source, s.line) << "\n      ";
    if (s.kind == AccessKind::Shuffle) {
      int shown = 0, across = 0;
      std::string list;
      for (const LaneMove& m : s.moves) {
        if (m.src == m.dst) continue;
        ++across;
        if (shown == 8) continue;
        // A binary trace has no values (the Compute Sanitizer API gives none): no number is printed for them.
        list += (shown ? ", " : "") + std::to_string(m.dst) + " <- " + std::to_string(m.src) +
                (s.values ? " (" + format_value(m.value, lane_type(s)) + ")" : std::string());
        ++shown;
      }
      o << s.moves.size() << " lanes, " << across << " moves";
      if (across) o << ": " << list << (across > shown ? ", ..." : "");
      if (!s.values) o << " (no values: the binary tracer does not see them)";
    } else if (!s.values) {
      o << std::popcount(s.lanes) << " lanes (no values: the binary tracer does not see them)";
    } else {
      const int first = std::countr_zero(s.lanes);
      o << std::popcount(s.lanes) << " lanes, lane " << first << ": " << format_value(s.offered[first], lane_type(s))
        << " -> " << format_value(s.received[first], lane_type(s));
    }
    o << (s.consistent ? "" : "  INCONSISTENT: a lane did not get what its source held") << "\n";
  }
  for (size_t ai : st.atomics) {
    const WarpAtomic& a = replay.atomics()[ai];
    std::snprintf(buf, sizeof buf, "    warp %2u %s (%s)  lanes %08x  line %3u: ", a.warp, intrinsic_name(a.kind, a.op),
                  a.kind == AccessKind::SharedAtomic ? "shared" : buffer(a.space), a.lanes, a.line);
    o << buf << source_line(source, a.line) << "\n      ";
    const size_t addresses = a.contention.size();
    o << std::popcount(a.lanes) << " lanes -> " << addresses << (addresses == 1 ? " address: " : " addresses: ");
    if (a.max_contention <= 1) {
      o << "no contention\n";
    } else {
      o << (addresses == 1 ? "" : "worst ") << a.max_contention << "-way contention\n";
    }
  }
  for (size_t gi : st.global_requests) {
    const GlobalRequest& g = replay.global_requests()[gi];
    std::snprintf(buf, sizeof buf, "    warp %2u %s %s  lanes %08x  line %3u: ", g.warp, to_string(g.kind),
                  buffer(g.space), g.lanes, g.line);
    o << buf << source_line(source, g.line) << "\n      ";
    const int first = std::countr_zero(g.lanes);
    std::snprintf(buf, sizeof buf, "%d bytes: %d sectors of %d needed, %.0f%% efficiency   [lane %d: %s[%u] = ",
                  g.requested_bytes, g.sectors, g.min_sectors, 100.0 * g.efficiency(), first, buffer(g.space),
                  g.index[first]);
    o << buf << value(g.value[first], false) << "]\n";
  }
  return o.str();
}

}  // namespace rs
