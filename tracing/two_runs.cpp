#include "two_runs.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "replay.hpp"

namespace rs {

RunUpdates float_atomic_updates(const Trace& t) {
  RunUpdates out;
  out.result = static_cast<uint32_t>(t.meta.result);
  const Replay replay(t);
  const AtomicTarget* best = nullptr;
  for (const AtomicTarget& target : replay.atomic_targets()) {
    if (target.kind != AccessKind::GlobalAtomic || !(target.op & kOpFloatBit)) continue;
    if ((target.op & 0x3f) != static_cast<uint8_t>(AtomicOp::Add)) continue;
    if (!best || target.order.size() > best->order.size()) best = &target;
  }
  if (!best) return out;
  out.address = best->addr;
  uint32_t previous_new = 0;
  for (size_t i = 0; i < best->order.size(); ++i) {
    const AtomicUpdate& u = best->order[i];
    RunUpdate r;
    r.thread = u.thread;
    r.operand = bits_to_float(u.operand);
    r.old_value = bits_to_float(u.old);
    const uint32_t stored = atomic_result(u.op, u.old, u.operand);
    r.new_value = bits_to_float(stored);
    // The exact sum of two floats: long double (64 significant bits on x86) holds it for exponents up to 40 apart;
    // the difference to the stored float is the rounding error, a float (TwoSum).
    const long double exact = static_cast<long double>(r.old_value) + static_cast<long double>(r.operand);
    r.rounding = static_cast<double>(static_cast<long double>(r.new_value) - exact);
    r.after_others = i > 0 && u.old != previous_new;
    previous_new = stored;
    out.updates.push_back(r);
  }
  return out;
}

TwoRuns compare_runs(const Trace& run1, const Trace& run2) {
  const TraceMeta &m1 = run1.meta, &m2 = run2.meta;
  if (m1.kernel != m2.kernel || m1.block_size != m2.block_size || m1.n != m2.n || m1.pattern != m2.pattern ||
      m1.dtype != m2.dtype || m1.traced_block != m2.traced_block) {
    throw std::invalid_argument("two runs must be the same block of the same kernel on the same input: " + m1.kernel +
                                " and " + m2.kernel);
  }
  TwoRuns r;
  r.a = float_atomic_updates(run1);
  r.b = float_atomic_updates(run2);
  const size_t n = std::min(r.a.updates.size(), r.b.updates.size());
  for (size_t i = 0; i < n; ++i) {
    const RunUpdate &x = r.a.updates[i], &y = r.b.updates[i];
    if (!r.first_order && (x.thread != y.thread || x.old_value != y.old_value)) r.first_order = i;
    if (!r.first_rounding && x.rounding != y.rounding) r.first_rounding = i;
  }
  return r;
}

}  // namespace rs
