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

Replay::Replay(const Trace& trace) : meta_(trace.meta) {
  if (trace.records.empty()) throw ReplayError(meta_.kernel + ": the trace holds no records");
  num_warps_ = static_cast<int>((meta_.block_size + kWarpSize - 1) / kWarpSize);
  words_ = meta_.smem_bytes / kBankWidthBytes;

  if (meta_.block_size == 0 || meta_.block_size > 1024) {
    throw ReplayError(meta_.kernel + ": block size " + std::to_string(meta_.block_size) + " is outside 1..1024");
  }
  for (const TraceRecord& r : trace.records) {
    std::string why = record_problem(meta_, r);
    if (!why.empty()) throw ReplayError(meta_.kernel + ": a record does not fit the traced block: " + why);
  }
  std::vector<TraceRecord> recs = trace.records;
  std::sort(recs.begin(), recs.end(), [](const TraceRecord& a, const TraceRecord& b) {
    auto key = [](const TraceRecord& r) {
      return std::make_tuple(r.epoch, r.thread / kWarpSize, r.seq, r.kind, r.line, r.thread % kWarpSize);
    };
    return key(a) < key(b);
  });

  uint32_t max_epoch = 0;
  std::vector<int64_t> last_epoch(meta_.block_size, -1);
  for (const auto& r : recs) {
    max_epoch = std::max(max_epoch, r.epoch);
    last_epoch[r.thread] = std::max<int64_t>(last_epoch[r.thread], r.epoch);
  }
  // One snapshot per step: refuse traces whose snapshots would not fit in memory (a real
  // reduction of a 1024-thread block has about 20 steps of 1024 words).
  if (static_cast<uint64_t>(max_epoch + 1) * std::max<size_t>(words_, 1) > kMaxSnapshotCells) {
    throw ReplayError(meta_.kernel + ": " + std::to_string(max_epoch + 1) + " steps of " + std::to_string(words_) +
                      " shared-memory words are too many to replay");
  }

  steps_.resize(max_epoch + 1);
  std::vector<int32_t> smem(words_, 0);
  std::vector<uint8_t> defined(words_, 0);
  // Per step and warp: sum of useful-lane fractions and number of accesses, for efficiency.
  size_t i = 0;
  for (uint32_t e = 0; e <= max_epoch; ++e) {
    Step& st = steps_[e];
    st.epoch = e;
    st.warps.resize(num_warps_);
    st.written.assign(words_, 0);
    st.read.assign(words_, 0);
    std::vector<int> warp_accesses(num_warps_, 0);
    std::vector<float> warp_eff(num_warps_, 0.f);
    // Per thread: words loaded since its last store this epoch, for the flows.
    std::map<uint32_t, std::vector<uint32_t>> pending_reads;
    std::set<uint16_t> lines;

    while (i < recs.size() && recs[i].epoch == e) {
      const TraceRecord& r0 = recs[i];
      const uint32_t warp = r0.thread / kWarpSize;
      const auto kind = static_cast<AccessKind>(r0.kind);
      if (kind == AccessKind::BlockBarrier || kind == AccessKind::WarpBarrier) {
        // Barriers end the step; all lanes of a correct kernel agree on which barrier.
        StepEnd end = kind == AccessKind::BlockBarrier ? StepEnd::BlockBarrier : StepEnd::WarpBarrier;
        if (st.barrier_line == 0 || end == StepEnd::BlockBarrier) {
          st.ended_by = end;
          st.barrier_line = r0.line;
        }
        ++i;
        continue;
      }
      // Group the lanes of one warp-level access: same epoch, warp, seq, kind and line.
      WarpAccess wa;
      wa.epoch = e;
      wa.warp = warp;
      wa.seq = r0.seq;
      wa.kind = kind;
      wa.line = r0.line;
      while (i < recs.size()) {
        const TraceRecord& r = recs[i];
        if (r.epoch != e || r.thread / kWarpSize != warp || r.seq != r0.seq || r.kind != r0.kind ||
            r.line != r0.line) {
          break;
        }
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
        ++i;
      }
      wa.banks = analyze_banks(wa.addr, wa.lanes);
      WarpStep& ws = st.warps[warp];
      ws.useful |= wa.lanes;
      ws.active_mask |= wa.active_mask;
      // Live lanes of this warp: those that have not finished the kernel.
      uint32_t live = 0;
      for (int l = 0; l < kWarpSize; ++l) {
        uint32_t t = warp * kWarpSize + l;
        if (t < meta_.block_size && last_epoch[t] >= static_cast<int64_t>(e)) live |= 1u << l;
      }
      if ((wa.active_mask & live) != live) ws.diverged = true;
      warp_accesses[warp]++;
      warp_eff[warp] += static_cast<float>(std::popcount(wa.lanes)) / kWarpSize;
      lines.insert(wa.line);
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
    st.lines.assign(lines.begin(), lines.end());
    st.smem = smem;
    st.defined = defined;
    load_conflicts_ += st.load_conflicts;
    store_conflicts_ += st.store_conflicts;
  }
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
    std::snprintf(buf, sizeof buf, "   [lane %d: word %u = %d]\n", first, a.addr[first] / kBankWidthBytes,
                  a.value[first]);
    o << buf;
  }
  return o.str();
}

}  // namespace rs
