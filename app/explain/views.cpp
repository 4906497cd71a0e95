// The replay views as facts, and the idle line (views.hpp).
#include "views.hpp"

#include <algorithm>

#include "sentences.hpp"  // render

namespace rs::explain {

namespace {

// The idle line's words (the window's and the page's: web/js/views-step.js composes the same ids the same way).
constexpr const char* kListItem = N_("{0}, {1}");
constexpr const char* kAtStep = N_("{0} (step {1})");
constexpr const char* kAtSteps = N_("{0} (steps {1})");
constexpr const char* kFoldedForRoom = N_("Folded for room: {0}");
constexpr const char* kNotInThisStep = N_("Not in this step: {0}");
constexpr const char* kThenNotInThisStep = N_("{0}. Not in this step: {1}");
constexpr const char* kNo = N_("No {0}");
constexpr const char* kThenNo = N_("{0}; no {1}");
constexpr const char* kUntraced = N_("Shared memory not traced by the source probe");
constexpr const char* kThenUntraced = N_("{0}; shared memory not traced by the source probe");
// A view in a few words, and what a kernel without it lacks.
constexpr const char* kShort[kNumViews] = {N_("shared"), N_("global"), N_("lanes"), N_("atomics")};
constexpr const char* kLacks[kNumViews] = {N_("shared memory"), N_("global requests"), N_("shuffles"), N_("atomics")};

}  // namespace

const char* view_name(View v) {
  switch (v) {
    case View::Smem: return N_("shared memory");
    case View::Global: return N_("global memory");
    case View::Lanes: return N_("lanes");
    case View::Atomics: return N_("atomics");
  }
  return "?";
}

bool view_has(const Replay& r, View v) {
  switch (v) {
    case View::Smem: return r.has_shared() || std::any_of(r.atomics().begin(), r.atomics().end(), [](const WarpAtomic& a) {
                              return a.kind == AccessKind::SharedAtomic;
                            });
    case View::Global: return r.has_global();
    case View::Lanes: return r.has_lane_work();
    case View::Atomics: return r.has_atomics();
  }
  return false;
}

bool view_active(const Step& st, View v) {
  switch (v) {
    case View::Smem:
      return !st.accesses.empty() || std::find(st.written.begin(), st.written.end(), 1) != st.written.end() ||
             std::find(st.read.begin(), st.read.end(), 1) != st.read.end();
    case View::Global: return !st.global_requests.empty();
    case View::Lanes: return !st.shuffles.empty();
    case View::Atomics: return !st.atomics.empty();
  }
  return false;
}

std::array<View, kNumViews> views_in_order(const Replay& r) {
  // The most specific kind of event first: a kernel's shuffles or atomics are its point where it has
  // them; a global slice it reduces in place comes before shared memory; global requests of a kernel
  // that only loads its input come last. Views the kernel has before those it has not.
  std::array<View, kNumViews> order = r.has_global_slice()
                                          ? std::array<View, kNumViews>{View::Lanes, View::Atomics, View::Global, View::Smem}
                                          : std::array<View, kNumViews>{View::Lanes, View::Atomics, View::Smem, View::Global};
  std::stable_partition(order.begin(), order.end(), [&](View v) { return view_has(r, v); });
  return order;
}

int shared_atomic_count(const Replay& r, const Step& st) {
  int n = 0;
  for (size_t ai : st.atomics) n += r.atomics()[ai].kind == AccessKind::SharedAtomic;
  return n;
}

bool stores_warp_reduce_result(const Replay& r) {
  for (const WarpShuffle& sh : r.shuffles()) {
    if (sh.kind != AccessKind::WarpReduce) continue;
    for (const WarpAccess& a : r.accesses()) {
      if (a.kind != AccessKind::Store || a.warp != sh.warp || a.epoch <= sh.epoch) continue;
      for (int l = 0; l < kWarpSize; ++l) {
        if ((a.lanes >> l & 1u) && (sh.lanes >> l & 1u) && static_cast<uint32_t>(a.value[l]) == sh.received[l]) {
          return true;
        }
      }
    }
  }
  return false;
}

std::string barrier_call(const Step& st, const std::string& source) {
  if (st.ended_by == StepEnd::BlockBarrier && st.barrier_line) {
    const std::string line = source_line(source, st.barrier_line);
    for (const char* v : {"__syncthreads_or", "__syncthreads_and", "__syncthreads_count"}) {
      if (line.find(v) != std::string::npos) return std::string(v) + "()";
    }
  }
  return "";
}

IdleLine idle_line(const Replay& r, const Step& st, const std::vector<View>& idle, const std::vector<View>& folded,
                   bool shared_not_traced) {
  IdleLine out;
  out.folded = folded;
  for (View v : idle) {
    if (view_active(st, v)) continue;
    if (v == View::Smem && !view_has(r, v) && shared_not_traced) {
      out.untraced = true;
      continue;
    }
    if (!view_has(r, v)) {
      out.never.push_back(v);
      continue;
    }
    out.busy.emplace_back(v, step_ranges(r, [v](const Step& x) { return view_active(x, v); }));
  }
  return out;
}

std::string render_idle(const IdleLine& line, const std::function<const char*(const char*)>& lookup) {
  auto say = [&](const char* id, std::vector<std::string> args) { return render(Sentence{id, std::move(args), {}}, lookup); };
  auto word = [&](const char* id) { return lookup ? std::string(lookup(id)) : std::string(id); };
  auto append = [&](std::string& list, const std::string& item) { list = list.empty() ? item : say(kListItem, {list, item}); };
  std::string room, busy, never;
  for (View v : line.folded) append(room, word(kShort[static_cast<int>(v)]));
  for (const auto& [v, where] : line.busy) {
    append(busy, say(where.find_first_of(",-") == std::string::npos ? kAtStep : kAtSteps,
                     {word(kShort[static_cast<int>(v)]), where}));
  }
  for (View v : line.never) append(never, word(kLacks[static_cast<int>(v)]));
  std::string out;
  if (!room.empty()) out = say(kFoldedForRoom, {room});
  if (!busy.empty()) out = out.empty() ? say(kNotInThisStep, {busy}) : say(kThenNotInThisStep, {out, busy});
  if (!never.empty()) out = out.empty() ? say(kNo, {never}) : say(kThenNo, {out, never});
  if (line.untraced) out = out.empty() ? word(kUntraced) : say(kThenUntraced, {out});
  return out;
}

const std::vector<const char*>& idle_message_ids() {
  static const std::vector<const char*> ids = {
      kListItem, kAtStep,   kAtSteps,  kFoldedForRoom, kNotInThisStep, kThenNotInThisStep, kNo,       kThenNo,
      kUntraced, kThenUntraced, kShort[0], kShort[1],      kShort[2],      kShort[3],          kLacks[0], kLacks[1],
      kLacks[2], kLacks[3]};
  return ids;
}

}  // namespace rs::explain
