// libFuzzer target: any bytes given to the session reader, and the replay model on every trace
// it accepts, must give a Session or a SessionFormatError / ReplayError, never a crash, a
// sanitizer report, a hang or a huge allocation (a TraceFormatError that escapes parse_session
// unconverted is a finding too). Built by REDUCESCOPE_FUZZ=ON with clang; run by
// scripts/sanitize.sh, seeded with tests/corpus (session-*.bin) and assets/sessions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "exercise_replay.hpp"
#include "replay.hpp"
#include "session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const rs::Session s = rs::parse_session(bytes, "fuzz input");
    (void)s.block_sizes();
    for (const auto& t : s.timings) (void)s.find_trace(t.kernel, t.block_size);
    for (const rs::Trace& t : s.traces) {
      (void)s.find_timing(t.meta.kernel, t.meta.block_size);
      try {
        rs::Replay r(t);
        rs::fuzz::exercise_replay(r, t);
      } catch (const rs::ReplayError&) {
      }
    }
    // What was read must write back and read again to the same counts.
    const rs::Session again = rs::parse_session(rs::serialize_session(s), "fuzz input, rewritten");
    if (again.timings.size() != s.timings.size() || again.traces.size() != s.traces.size()) __builtin_trap();
  } catch (const rs::SessionFormatError&) {
  }
  return 0;
}
