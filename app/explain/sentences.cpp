#include "sentences.hpp"

#include "input.hpp"  // float_sum_stuck

#include "questions.hpp"
#include "stored.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>

namespace rs::explain {

namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Every message of this layer, once (message_ids() lists them for the page's dictionary).
constexpr const char* kNoSharedBanks = N_("{0} does not use shared memory: no banks to conflict.");
constexpr const char* kNoSharedSmem = N_("{0} does not use shared memory.");
constexpr const char* kNotTracedBanksKeyB =
    N_("Not traced by the source probe: the shared memory {0} declares (a raw __shared__ array) is not recorded, so "
       "its bank conflicts are not counted here. See it as compiled: key B.");
constexpr const char* kNotTracedBanksRecord =
    N_("Not traced by the source probe: the shared memory {0} declares (a raw __shared__ array) is not recorded, so "
       "its bank conflicts are not counted here. The binary tracer sees it (record --add --binary).");
constexpr const char* kNotTracedSmemKeyB =
    N_("Not traced by the source probe: {0} declares shared memory (a raw __shared__ array) that the probe does not "
       "record. See it as compiled: key B.");
constexpr const char* kNotTracedSmemRecord =
    N_("Not traced by the source probe: {0} declares shared memory (a raw __shared__ array) that the probe does not "
       "record. The binary tracer sees it (record --add --binary).");
constexpr const char* kNoShuffleNotTracedKeyB =
    N_("The source probe recorded no warp shuffle of {0}, and does not trace its shared memory (a raw __shared__ "
       "array). See it as compiled: key B.");
constexpr const char* kNoShuffleNotTraced =
    N_("The source probe recorded no warp shuffle of {0}, and does not trace its shared memory (a raw __shared__ "
       "array).");
constexpr const char* kExchangeShared =
    N_("{0} makes no warp shuffles: its lanes exchange values through shared memory.");
constexpr const char* kExchangeGlobal =
    N_("{0} makes no warp shuffles: its lanes exchange values through global memory.");
constexpr const char* kExchangeAtomics =
    N_("{0} makes no warp shuffles: its lanes exchange values only through atomics.");
constexpr const char* kExchangeNone = N_("{0} makes no warp shuffles: its lanes exchange values not at all.");
constexpr const char* kBarrierOnlyBinary =
    N_("Active warps: none of {0} made a memory access, shuffle or atomic in this step; all {1} reached the barrier at "
       "line {2}.");
constexpr const char* kBarrierOnlyProbe =
    N_("Active warps: none of {0} made an instruction the source probe records in this step; all {1} reached the "
       "barrier at line {2}, running code the probe does not record.");
constexpr const char* kActiveWarps = N_("Active warps: {0} of {1}.");
constexpr const char* kResultReduce = N_("after its warp reduce, every lane of warp {1} holds the warp's result");
constexpr const char* kResultEveryShuffle =
    N_("after its last shuffle, every lane of warp {1} holds the warp's result");
constexpr const char* kResultLane = N_("after its last shuffle, lane {0} of warp {1} holds the warp's result");
constexpr const char* kShuffle = N_("{0} shuffle.");
constexpr const char* kShuffles = N_("{0} shuffles.");
constexpr const char* kWarpReduce = N_("{0} warp reduce.");
constexpr const char* kWarpReduces = N_("{0} warp reduces.");
constexpr const char* kIdleNotTraced =
    N_("No shared access recorded in this step: the source probe does not trace the shared memory {0} declares (a "
       "raw __shared__ array).");
constexpr const char* kIdleSharedAtomic =
    N_("No shared load or store in this step; {0} warp-level shared atomic (see Atomics).");
constexpr const char* kIdleSharedAtomics =
    N_("No shared load or store in this step; {0} warp-level shared atomics (see Atomics).");
constexpr const char* kIdleNothing = N_("No shared-memory access or global request in this step.");
constexpr const char* kIdleNoShared = N_("No shared load or store in this step.");
constexpr const char* kTimingMethod =
    N_("CUDA events around the whole multi-launch reduction; {0} warm-ups, {1} samples, L2 flushed ({2} MiB write) "
       "before each; median, min-max");
constexpr const char* kFloatStuck =
    N_("stuck at 2^{0} = {1}: float32 keeps 24 significant bits, so there its values are 2^{2} apart and adding "
       "anything below 2^{3} rounds to nothing; a running float sum stops growing");
constexpr const char* kAll[] = {
    kNoSharedBanks, kNoSharedSmem, kNotTracedBanksKeyB, kNotTracedBanksRecord, kNotTracedSmemKeyB,
    kNotTracedSmemRecord, kNoShuffleNotTracedKeyB, kNoShuffleNotTraced, kExchangeShared, kExchangeGlobal,
    kExchangeAtomics, kExchangeNone, kBarrierOnlyBinary, kBarrierOnlyProbe, kActiveWarps, kResultReduce,
    kResultEveryShuffle, kResultLane, kShuffle, kShuffles, kWarpReduce, kWarpReduces,
    kIdleNotTraced, kIdleSharedAtomic, kIdleSharedAtomics, kIdleNothing, kIdleNoShared, kTimingMethod, kFloatStuck};


}  // namespace

const std::vector<const char*>& message_ids() {
  static const std::vector<const char*> ids = [] {
    std::vector<const char*> v(std::begin(kAll), std::end(kAll));
    for (const char* id : stored_message_ids()) v.push_back(id);    // stored.hpp
    for (const char* id : question_message_ids()) v.push_back(id);  // questions.hpp
    return v;
  }();
  return ids;
}

Sentence& Sentence::with(size_t k, Sentence s) {
  if (args.size() <= k) args.resize(k + 1);
  nested.push_back(std::move(s));
  nested_at.push_back(k);
  return *this;
}

const Sentence* Sentence::nested_arg(size_t k) const {
  for (size_t i = 0; i < nested_at.size() && i < nested.size(); ++i) {
    if (nested_at[i] == k) return &nested[i];
  }
  return nullptr;
}

std::string render(const Sentence& s, const std::function<const char*(const char*)>& lookup) {
  const std::string text = lookup ? lookup(s.id) : s.id;
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 2 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
        text[i + 2] == '}') {
      const size_t k = static_cast<size_t>(text[i + 1] - '0');
      if (const Sentence* sub = s.nested_arg(k)) {
        out += render(*sub, lookup);
        i += 2;
        continue;
      }
      if (k < s.args.size()) {
        out += s.args[k];
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::optional<Sentence> no_shared_sentence(const TraceFacts& f, Panel p) {
  const bool banks = p == Panel::Banks;
  switch (f.shared) {
    case Seen::Recorded: return std::nullopt;
    case Seen::None:
      return Sentence{banks ? kNoSharedBanks
                            : kNoSharedSmem,
                      {f.kernel},
                      {{ClaimKind::NoSharedMemory}}};
    case Seen::NotTraced: break;
  }
  const char* id = nullptr;
  if (banks) {
    id = f.binary_twin ? kNotTracedBanksKeyB
                       : kNotTracedBanksRecord;
  } else {
    id = f.binary_twin ? kNotTracedSmemKeyB
                       : kNotTracedSmemRecord;
  }
  return Sentence{id, {f.kernel}, {{ClaimKind::SharedNotTraced}}};
}

std::optional<Sentence> lane_exchange_sentence(const TraceFacts& f, bool global_slice, bool atomics) {
  if (f.shuffles + f.warp_reduces > 0) return std::nullopt;
  if (f.shared == Seen::NotTraced) {
    // The probe saw neither the shared memory nor what the code behind it does with registers (a library's
    // shuffles, say): only that it recorded none.
    return Sentence{f.binary_twin ? kNoShuffleNotTracedKeyB
                                  : kNoShuffleNotTraced,
                    {f.kernel},
                    {{ClaimKind::SharedNotTraced}}};
  }
  if (f.shared == Seen::Recorded) {
    return Sentence{kExchangeShared,
                    {f.kernel},
                    {{ClaimKind::NoLaneWork}, {ClaimKind::ExchangeShared}}};
  }
  if (global_slice) {
    return Sentence{kExchangeGlobal,
                    {f.kernel},
                    {{ClaimKind::NoLaneWork}, {ClaimKind::NoSharedMemory}}};
  }
  if (atomics) {
    return Sentence{kExchangeAtomics,
                    {f.kernel},
                    {{ClaimKind::NoLaneWork}, {ClaimKind::NoSharedMemory}}};
  }
  return Sentence{kExchangeNone,
                  {f.kernel},
                  {{ClaimKind::NoLaneWork}, {ClaimKind::ExchangeNone}}};
}

Sentence active_warps_sentence(const TraceFacts& t, const StepFacts& f) {
  if (f.unrecorded_work) {
    return Sentence{t.tracer == Tracer::Binary
                        ? kBarrierOnlyBinary
                        : kBarrierOnlyProbe,
                    {num(f.warps), num(f.at_barrier), num(f.barrier_line)},
                    {{ClaimKind::ActiveWarps, 0, f.warps}, {ClaimKind::WarpsAtBarrier, f.at_barrier}}};
  }
  return Sentence{kActiveWarps,
                  {num(f.active_warps), num(f.warps)},
                  {{ClaimKind::ActiveWarps, f.active_warps, f.warps}}};
}

Sentence result_sentence(const WarpResult& r) {
  // The same arguments in all three (lane, warp): the page passes its result_lanes and the warp to each.
  const std::vector<std::string> args{num(r.lane), num(r.warp)};
  if (r.reduce) return Sentence{kResultReduce, args, {{ClaimKind::ResultEveryLane, r.warp}}};
  if (r.every_lane) return Sentence{kResultEveryShuffle, args, {{ClaimKind::ResultEveryLane, r.warp}}};
  return Sentence{kResultLane, args, {{ClaimKind::ResultLane, r.warp, r.lane}}};
}

std::optional<Sentence> bank_idle_sentence(const TraceFacts& t, const StepFacts& f) {
  if (f.loads + f.stores > 0) return std::nullopt;
  if (t.shared == Seen::NotTraced) {
    return Sentence{kIdleNotTraced, {t.kernel}, {{ClaimKind::SharedNotTraced}}};
  }
  if (f.shared_atomics > 0) {
    return Sentence{f.shared_atomics == 1 ? kIdleSharedAtomic : kIdleSharedAtomics,
                    {num(f.shared_atomics)},
                    {{ClaimKind::StepSharedAccesses, 0}, {ClaimKind::StepSharedAtomics, f.shared_atomics}}};
  }
  if (f.global_requests == 0) {
    return Sentence{kIdleNothing, {}, {{ClaimKind::StepSharedAccesses, 0}, {ClaimKind::StepGlobalRequests, 0}}};
  }
  return Sentence{kIdleNoShared, {}, {{ClaimKind::StepSharedAccesses, 0}}};
}

std::vector<Sentence> step_count_sentences(const StepFacts& f) {
  std::vector<Sentence> out;
  if (f.shuffles) {
    out.push_back({f.shuffles == 1 ? kShuffle : kShuffles,
                   {num(f.shuffles)},
                   {{ClaimKind::Shuffles, f.shuffles}}});
  }
  if (f.warp_reduces) {
    out.push_back({f.warp_reduces == 1 ? kWarpReduce : kWarpReduces,
                   {num(f.warp_reduces)},
                   {{ClaimKind::WarpReduces, f.warp_reduces}}});
  }
  return out;
}

Sentence timing_method_sentence(int warmups, int samples, double l2_flush_mib) {
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.0f", l2_flush_mib);
  return {kTimingMethod, {num(warmups), num(samples), mib}, {}};
}

std::optional<Sentence> parse_timing_method(const std::string& recorded) {
  int warmups = 0, samples = 0;
  double mib = 0;
  if (std::sscanf(recorded.c_str(),
                  "CUDA events around the whole multi-launch reduction; %d warm-ups, %d samples, L2 flushed (%lf MiB",
                  &warmups, &samples, &mib) != 3) {
    return std::nullopt;
  }
  Sentence s = timing_method_sentence(warmups, samples, mib);
  if (render(s) != recorded) return std::nullopt;  // the same words only, nothing dropped
  return s;
}

std::optional<Sentence> float_stuck_sentence(float got, double exact) {
  const std::optional<FloatStuck> f = float_sum_stuck(got, exact);
  if (!f) return std::nullopt;
  char v[32];
  std::snprintf(v, sizeof v, "%.0f", f->value);
  return Sentence{kFloatStuck, {num(f->power), v, num(f->power - 23), num(f->power - 24)}, {}};
}

std::vector<Sentence> step_sentences(const Trace& t, const Replay& r, size_t step, const Context& c) {
  const TraceFacts tf = trace_facts(r, t.source, c);
  const StepFacts sf = step_facts(r, step);
  std::vector<Sentence> out;
  out.push_back(active_warps_sentence(tf, sf));
  for (Sentence& s : step_count_sentences(sf)) out.push_back(std::move(s));
  if (auto s = bank_idle_sentence(tf, sf)) out.push_back(std::move(*s));
  for (Panel p : {Panel::SharedMemory, Panel::Banks}) {
    if (auto s = no_shared_sentence(tf, p)) out.push_back(std::move(*s));
  }
  if (auto s = lane_exchange_sentence(tf, r.has_global_slice(), r.has_atomics())) out.push_back(std::move(*s));
  for (const WarpResult& w : sf.results) out.push_back(result_sentence(w));
  return out;
}

}  // namespace rs::explain
