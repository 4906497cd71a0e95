#include "proof.hpp"

#include <algorithm>
#include <sstream>

namespace rs::bt {

namespace {

std::string list(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ' ';
    s += std::to_string(v[i]);
  }
  return s;
}

struct GlobalCounts {
  int ld = 0, st = 0, ld_sectors = 0, st_sectors = 0;
  std::string str(bool sectors) const {
    return sectors ? std::to_string(ld_sectors) + " / " + std::to_string(st_sectors)
                   : std::to_string(ld) + " / " + std::to_string(st);
  }
};

GlobalCounts global_counts(const Replay& r) {
  GlobalCounts c;
  for (const GlobalRequest& g : r.global_requests()) {
    if (g.kind == AccessKind::GlobalLoad) c.ld++, c.ld_sectors += g.sectors;
    else c.st++, c.st_sectors += g.sectors;
  }
  return c;
}

}  // namespace

std::vector<Agreement> compare_tracers(const Replay& p, const Replay& b) {
  std::vector<Agreement> rows;
  rows.push_back({"steps", std::to_string(p.num_steps()), std::to_string(b.num_steps()), p.num_steps() == b.num_steps()});

  // Shared memory after each step.
  const size_t steps = std::min(p.num_steps(), b.num_steps());
  std::string first_diff;
  size_t equal_steps = 0;
  for (size_t i = 0; i < steps && first_diff.empty(); ++i) {
    const Step& ps = p.step(i);
    const Step& bs = b.step(i);
    bool same = true;
    for (size_t w = 0; w < ps.smem.size() && same; ++w) {
      if (!ps.defined[w]) continue;
      const bool has = w < bs.smem.size() && bs.defined[w];
      if (!has || bs.smem[w] != ps.smem[w]) {
        same = false;
        std::ostringstream d;
        d << "step " << i << ", word " << w << ": " << ps.smem[w] << " vs "
          << (has ? std::to_string(bs.smem[w]) : std::string("never written"));
        first_diff = d.str();
      }
    }
    if (same) ++equal_steps;
  }
  const bool smem_equal = first_diff.empty() && p.num_steps() == b.num_steps();
  // A probe trace without shared memory beside a binary one with it (a raw extern __shared__ array the probe does
  // not wrap: pitfall_no_volatile, pitfall_no_syncwarp): the shared memory and its bank conflicts are the binary
  // tracer's only. Comparing them would claim an agreement over nothing.
  const bool smem_blind = !p.has_shared() && b.has_shared();
  if (smem_blind) {
    rows.push_back({"shared memory after each step", "not traced",
                    std::to_string(b.num_words()) + " words", true, true});
  } else {
    rows.push_back({"shared memory after each step",
                    p.has_shared() ? std::to_string(p.num_words()) + " words" : "no shared memory",
                    smem_equal ? "equal in all " + std::to_string(steps) + " steps"
                               : first_diff.empty() ? "equal in the " + std::to_string(steps) + " common steps"
                                                    : "differs at " + first_diff,
                    smem_equal});
  }

  // Bank conflicts per step.
  std::vector<int> pl, ps_, bl, bs_;
  for (const Step& s : p.steps()) pl.push_back(s.load_conflicts), ps_.push_back(s.store_conflicts);
  for (const Step& s : b.steps()) bl.push_back(s.load_conflicts), bs_.push_back(s.store_conflicts);
  const std::string unseen = "not traced";
  rows.push_back({"load bank conflicts per step", smem_blind ? unseen : list(pl), list(bl), smem_blind || pl == bl, smem_blind});
  rows.push_back({"store bank conflicts per step", smem_blind ? unseen : list(ps_), list(bs_), smem_blind || ps_ == bs_,
                  smem_blind});

  // Global requests and sectors.
  const GlobalCounts pg = global_counts(p), bg = global_counts(b);
  const bool blind = !p.has_global() && b.has_global();
  rows.push_back({"global load / store requests", pg.str(false), bg.str(false),
                  blind || (pg.ld == bg.ld && pg.st == bg.st), blind});
  rows.push_back({"global load / store sectors", pg.str(true), bg.str(true),
                  blind || (pg.ld_sectors == bg.ld_sectors && pg.st_sectors == bg.st_sectors), blind});
  rows.push_back({"shuffles", std::to_string(p.shuffle_instruction_count()), std::to_string(b.shuffle_instruction_count()),
                  p.shuffle_instruction_count() == b.shuffle_instruction_count()});
  const int pa = p.atomic_instruction_count(AccessKind::SharedAtomic) + p.atomic_instruction_count(AccessKind::GlobalAtomic);
  const int ba = b.atomic_instruction_count(AccessKind::SharedAtomic) + b.atomic_instruction_count(AccessKind::GlobalAtomic);
  rows.push_back({"atomics (warp-level)", std::to_string(pa), std::to_string(ba), pa == ba});
  return rows;
}

}  // namespace rs::bt
