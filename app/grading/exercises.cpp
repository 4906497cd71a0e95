// The exercises' table, what their checks read from a trace, and their JSON (exercises.hpp); the checks themselves
// are in exercise_checks.cpp.
#include "exercises.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "markup.hpp"  // number_text

namespace rs {

TraceFeatures features_of(const Replay& replay) {
  TraceFeatures f;
  f.warps = replay.num_warps();
  f.bank_conflicts = replay.load_conflicts() + replay.store_conflicts();
  for (const WarpAccess& a : replay.accesses()) {
    if (a.banks.degree > f.worst_degree && a.banks.degree > 1) {
      f.worst_degree = a.banks.degree;
      f.worst_conflict_line = a.line;
    }
  }
  f.binary = replay.meta().tracer == Tracer::Binary;
  std::map<uint32_t, uint32_t> first_lane_op;  // warp -> epoch of its first shuffle or warp reduce
  for (const WarpShuffle& s : replay.shuffles()) {
    auto [it, fresh] = first_lane_op.emplace(s.warp, s.epoch);
    if (!fresh) it->second = std::min(it->second, s.epoch);
    if (s.kind == AccessKind::Shuffle) {
      f.shuffle_lanes_by_line[s.line] |= s.lanes;
      if (!f.binary && s.member_mask) f.shuffle_mask_by_line[s.line] |= s.member_mask;
    }
    if (s.warp != 0) continue;
    if (s.kind == AccessKind::Shuffle) ++f.warp0_shuffles;
    else ++f.warp0_reduces;
  }
  std::set<uint32_t> words;
  for (const WarpAccess& a : replay.accesses()) {
    const auto it = first_lane_op.find(a.warp);
    if (a.kind != AccessKind::Store || it == first_lane_op.end() || a.epoch < it->second) continue;
    if (std::popcount(a.lanes) > 1) {
      if (!f.wide_stores_after_lane_op) f.wide_store_line = a.line;
      ++f.wide_stores_after_lane_op;
    }
    for (int l = 0; l < 32; ++l) {
      if (a.lanes >> l & 1) words.insert(a.addr[l] / 4);
    }
  }
  f.words_after_lane_op = static_cast<int>(words.size());
  for (const GlobalRequest& g : replay.global_requests()) {
    if (g.kind != AccessKind::GlobalLoad) continue;
    ++f.global_load_requests;
    f.global_load_sectors += g.sectors;
  }
  for (const WarpAccess& a : replay.accesses()) {
    ++f.shared_accesses;
    f.shared_wavefronts += std::max(1, static_cast<int>(a.banks.degree));
  }
  double eff = 0;
  int working = 0;
  for (const Step& s : replay.steps()) {
    double lanes = 0;
    int here = 0;
    for (const WarpStep& w : s.warps) {
      if (!w.active()) continue;
      eff += w.efficiency;
      ++working;
      lanes += std::popcount(w.useful);
      ++here;
    }
    f.lanes_per_step.push_back(here ? lanes / here : 0);
  }
  f.lane_efficiency = working ? eff / working : 0;
  for (size_t i = 0; i < replay.num_steps(); ++i) {
    const Step& s = replay.step(i);
    int diverged = 0;
    for (const WarpStep& w : s.warps) diverged += w.diverged ? 1 : 0;
    if (diverged > f.most_diverged_warps) {
      f.most_diverged_warps = diverged;
      f.most_diverged_step = i;
      f.diverged_line = s.lines.empty() ? 0 : s.lines.front();
    }
    if (s.ended_by == StepEnd::BlockBarrier) ++f.barriers;
  }
  return f;
}

const std::vector<Exercise>& exercises() {
  static const std::vector<uint64_t> kNs = {1, 33, 1000, 4097, 1000003, 1u << 24};
  // Block 0 traced at N = 4097 alone: block 0 is full there at every block size and elements per thread (up to 4096),
  // as at 1000003, so a second N traced the same block's work again; a check under 3 s (issue 40).
  static const std::vector<uint64_t> kTraceNs = {4097};
  static const std::vector<Exercise> table = {
      {"bank_conflicts", N_("reduce1 without shared-memory bank conflicts"),
       N_("Harris, Optimizing Parallel Reduction in CUDA, Reduction #2 -> #3 (sequential addressing)"), "reduce1",
       "reduce2", kNs, kTraceNs},
      {"divergence", N_("reduce0 without divergent warps in the tree steps"),
       N_("Harris, Reduction #1 -> #2 (interleaved addressing with a strided index)"), "reduce0", "reduce1", kNs,
       kTraceNs},
      {"first_add", N_("the first add during the global load: half the blocks, at least 1.5x reduce2"),
       N_("Harris, Reduction #4 (first add during load)"), "reduce2", "reduce3", kNs, kTraceNs, "reduce2", 1.5},
      {"unroll_last_warp", N_("the last warp's six steps without __syncthreads()"),
       N_("Harris, Reduction #5 (unroll the last warp)"), "reduce3", "reduce4", kNs, kTraceNs},
      {"shuffle", N_("the last warp with __shfl_down_sync instead of shared memory"),
       N_("The lecture's warp-shuffle reduction; CUDA Programming Guide, Warp Shuffle Functions"), "reduce3", "", kNs,
       kTraceNs},
      {"single_pass", N_("a single-pass finish: one launch, right at N = 1, 33, 1000003 and 2^24"),
       N_("The modern track's single-pass reduction (the last block finishes; threadFenceReduction in cuda-samples)"),
       "reduce3", "", {1, 33, 4097, 1000003, 1u << 24}, {4097}},
      // A histogram, not a sum: N is bytes of text (histogram.hpp, 7 letter bins), odd sizes among them; timed on
      // 2^26 bytes (the course track's size, docs/tracks.md).
      {"histogram", N_("the text histogram privatised in shared memory: at least 10x histo_basic"),
       N_("The course's histogram notes (seeds/004): Shared memory atomics for histogram (privatisation)"),
       "histo_basic", "histo_private", {1, 33, 1000, 4097, 1000003, 1u << 24}, {}, "histo_basic", 10.0},
  };
  return table;
}

const Exercise* find_exercise(const std::string& name) {
  for (const Exercise& x : exercises()) {
    if (name == x.name) return &x;
  }
  return nullptr;
}

std::string exercise_names() {
  std::string s;
  for (const Exercise& x : exercises()) s += (s.empty() ? "" : ", ") + std::string(x.name);
  return s;
}

std::string exercise_report_json(const Exercise& x, const ExerciseEvidence& ev) {
  if (ev.user_ms <= 0 || !x.reference_kernel) return "";
  const ExerciseEvidence* e = &ev;
  const bool bytes = std::string(x.name) == "histogram";  // its input is text: one byte an element
  const double input_bytes = static_cast<double>(e->timing_n) * (bytes ? 1 : 4);
  nlohmann::json rep = {{"block_size", e->timing_block_size},
                        {"input_bytes", input_bytes},
                        {"gbps", input_bytes / (e->user_ms * 1e6)},
                        {"reference_kernel", x.reference_kernel},
                        {"x_reference", e->reference_ms > 0 ? e->reference_ms / e->user_ms : 0.0},
                        {"proof", "The trace's counts are Nsight Compute's for the traced block: `reducescope verify` "
                                  "shows them equal on every counter (docs/gpu-results.md); no counter permission "
                                  "is needed to take them."}};
  if (e->copy_gbps > 0) {
    rep["copy_gbps"] = e->copy_gbps;
    rep["pct_copy_ceiling"] = 100.0 * (input_bytes / (e->user_ms * 1e6)) / e->copy_gbps;
  }
  if (e->blocks_per_sm > 0 && e->max_threads_per_sm > 0) {
    rep["blocks_per_sm"] = e->blocks_per_sm;
    rep["registers"] = e->registers;
    rep["occupancy_pct"] = std::min(100.0, 100.0 * e->blocks_per_sm * e->timing_block_size / e->max_threads_per_sm);
  }
  if (const auto& f = e->report_trace) {
    if (f->global_load_requests) {
      rep["sectors_per_request"] = static_cast<double>(f->global_load_sectors) / f->global_load_requests;
    }
    if (f->shared_accesses) {
      rep["bank_conflict_ways_per_access"] = static_cast<double>(f->shared_wavefronts) / f->shared_accesses;
    }
    rep["active_lanes_pct"] = 100.0 * f->lane_efficiency;
    rep["active_lanes_per_step"] = f->lanes_per_step;  // mean lanes of the working warps, step by step
  }
  return rep.dump();
}

std::string exercise_report_line(const std::string& report_json) {
  if (report_json.empty()) return "";
  nlohmann::json p;
  try {
    p = nlohmann::json::parse(report_json);
  } catch (const nlohmann::json::exception&) {
    return "";
  }
  std::string s = number_text("%.0f GB/s", p.value("gbps", 0.0));
  if (p.contains("pct_copy_ceiling")) {
    s += " = " + number_text("%.0f%%", p["pct_copy_ceiling"].get<double>()) + " of the copy ceiling (" +
         number_text("%.0f GB/s", p.value("copy_gbps", 0.0)) + ")";
  }
  if (p.contains("x_reference")) {
    s += ", " + number_text("%.2f", p["x_reference"].get<double>()) + "x " + p.value("reference_kernel", std::string());
  }
  s += " at " + std::to_string(p.value("block_size", 0)) + " threads";
  if (p.contains("sectors_per_request")) {
    s += "; " + number_text("%.1f", p["sectors_per_request"].get<double>()) + " sectors per global load";
  }
  if (p.contains("bank_conflict_ways_per_access")) {
    s += "; " + number_text("%.2f", p["bank_conflict_ways_per_access"].get<double>()) + "-way shared accesses on average";
  }
  if (p.contains("active_lanes_pct")) s += "; " + number_text("%.0f%%", p["active_lanes_pct"].get<double>()) + " of lanes active";
  if (p.contains("occupancy_pct")) {
    s += "; theoretical occupancy " + number_text("%.0f%%", p["occupancy_pct"].get<double>()) + " (" +
         std::to_string(p.value("blocks_per_sm", 0)) + " blocks per SM, " + std::to_string(p.value("registers", 0)) +
         " registers)";
  }
  return s;
}

std::string exercise_json(const Exercise& x, const std::string& file, const std::vector<ExerciseCheck>& checks,
                          const ExerciseEvidence* e) {
  nlohmann::json j;
  j["exercise"] = x.name;
  j["file"] = file;
  j["passed"] = all_passed(checks);
  j["checks"] = checks_to_json(checks);
  if (e && e->user_ms > 0 && x.reference_kernel) {
    const bool bytes = std::string(x.name) == "histogram";  // its input is text: one byte an element
    const double input_bytes = static_cast<double>(e->timing_n) * (bytes ? 1 : 4);
    j["timing"] = {{"n", e->timing_n},
                   {"block_size", e->timing_block_size},
                   {"user_ms", e->user_ms},
                   {"reference_kernel", x.reference_kernel},
                   {"reference_ms", e->reference_ms},
                   {"gbps", input_bytes / (e->user_ms * 1e6)},
                   {"x_reference", e->reference_ms > 0 ? e->reference_ms / e->user_ms : 0.0}};
    j["report"] = nlohmann::json::parse(exercise_report_json(x, *e));
  }
  return j.dump(2) + "\n";
}

}  // namespace rs
