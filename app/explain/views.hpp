// The replay views of a trace, as facts: which views a kernel has, which a step uses, their order, and the one line
// that stands for the views idle in a step; and the name of the barrier that ends a step. Moved out of the window's
// layout (app/gui/layout.hpp) so that the window and the page exporter read the same facts and say the same line
// (issue 38, item 1: the exporter reached up into the window's code, and built the idle line twice under a language
// lock).
//
// Index
//   View, kNumViews, view_name()          the replay views above the warps
//   view_has(), view_active()             whether a kernel, a step has anything for a view
//   views_in_order()                      the views of a kernel, the one carrying its lesson first
//   shared_atomic_count()                 a step's warp-level shared atomics
//   stores_warp_reduce_result(), kNcuReduxNote   the store after __reduce_add_sync Nsight Compute counts twice
//   wasteful()                            a global request that touched more sectors than its bytes need
//   step_ranges()                         "2-6, 9": the steps where something happens
//   barrier_call()                        "__syncthreads_or()": a predicate barrier's name, from the source
//   IdleLine, idle_line(), render_idle()  the one line for the views idle in a step, and its words
//
// Plain C++ over tracing/ (no GL, no i18n): the words are message ids, formatted by the caller's lookup (gettext in
// the window, the page's dictionary in its script, which composes the same ids the same way: web/js/views-step.js).
#pragma once

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "replay.hpp"

#ifndef N_
#define N_(msgid) msgid
#endif

namespace rs::explain {

// The replay views above the warps, one of each per side.
enum class View : int { Smem = 0, Global = 1, Lanes = 2, Atomics = 3 };
inline constexpr int kNumViews = 4;
const char* view_name(View v);  // "shared memory", "global memory", "lanes", "atomics": a msgid

// Whether the kernel has anything for view `v` at all: shared loads or stores (shared atomics count:
// they change its cells), global requests, warp shuffles or warp reduces, atomics.
bool view_has(const Replay& r, View v);
// Whether step `st` has anything for `v`: cells read or written, global requests, shuffles, atomics.
bool view_active(const Step& st, View v);

// The views of `r` in priority order, those the kernel has first. The most specific kind of event
// first, as it carries the kernel's lesson where the kernel has it: lanes (shuffles, warp reduces), then
// atomics, then the global slice of a kernel that reduces in place in global memory, then shared memory,
// then the global requests of a kernel that only loads its input there.
std::array<View, kNumViews> views_in_order(const Replay& r);

// The warp-level shared atomics of step `st` (they change shared memory, but are not bank-view accesses).
int shared_atomic_count(const Replay& r, const Step& st);

// Whether the block stores a warp-reduce result (__reduce_*_sync) to shared memory: a store by a lane
// of a warp, after that warp's warp reduce, of the value the reduce gave that lane. On the H100 Nsight
// Compute then counts 1-7 store wavefronts ("bank conflicts") more than the addresses need, from timing
// (docs/tracks.md, "Why Nsight Compute counts more store bank conflicts after __reduce_add_sync"); the
// bank view says so.
bool stores_warp_reduce_result(const Replay& r);
// A msgid: the bank view's note where stores_warp_reduce_result.
inline constexpr const char* kNcuReduxNote = N_(
    "Nsight Compute counts more store wavefronts (\"bank conflicts\") here than these addresses need: on the H100 "
    "a shared store of a __reduce_add_sync result, made right after it, is sometimes counted twice (timing, not "
    "the addresses; 1-7 in the modern track's 512- and 1024-thread launches; docs/tracks.md).");

// Whether a global request is flagged as wasteful: it touched more 32-byte sectors than its bytes need
// (uncoalesced). One lane's 4-byte store touches one sector, the fewest possible, though it uses 4 of its
// 32 bytes (12%): not flagged (issue 17: it was drawn orange as "1 sector (1 needed), 12%").
inline bool wasteful(const GlobalRequest& q) { return q.sectors > q.min_sectors; }

// The steps of `r` for which `has(step)` holds, as ranges: "2-6", "1, 3", "" if none.
template <class Pred>
std::string step_ranges(const Replay& r, Pred has) {
  std::string out;
  const size_t n = r.num_steps();
  for (size_t i = 0; i < n;) {
    if (!has(r.step(i))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < n && has(r.step(j + 1))) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(i);
    if (j > i) out.append(1, '-').append(std::to_string(j));
    i = j + 1;
  }
  return out;
}

// The predicate barrier that ends step `st`, by the name its line in `source` holds: "__syncthreads_or()",
// "_and()", "_count()" (the trace records them all as block barriers); "" for any other end.
std::string barrier_call(const Step& st, const std::string& source);

// The views idle in a step, as the one line says them: "Folded for room: global. Not in this step: lanes (steps
// 0-4), atomics (step 7); no global requests; shared memory not traced by the source probe".
struct IdleLine {
  std::vector<View> folded;                       // drawn this step but folded into the line for room
  std::vector<std::pair<View, std::string>> busy;  // idle now, busy in other steps: the view and those steps' ranges
  std::vector<View> never;                        // views the kernel has nothing for
  bool untraced = false;                          // the kernel's shared memory is not traced by the source probe
  bool empty() const { return folded.empty() && busy.empty() && never.empty() && !untraced; }
};
// `idle`: the views not drawn this step; `folded`: views with something this step that fit_views folded for room;
// `shared_not_traced`: explain::Seen::NotTraced for shared memory (then "no shared memory" is not said).
IdleLine idle_line(const Replay& r, const Step& st, const std::vector<View>& idle, const std::vector<View>& folded = {},
                   bool shared_not_traced = false);
// The line in words, each id through `lookup` (nullptr: English). Empty for an empty line.
std::string render_idle(const IdleLine& line, const std::function<const char*(const char*)>& lookup = nullptr);
// The ids render_idle uses (for the catalogue and the page's dictionary).
const std::vector<const char*>& idle_message_ids();

}  // namespace rs::explain
