// libFuzzer target: any bytes given to the trace reader and the replay model must give a
// Trace or a TraceFormatError / ReplayError, never a crash, a sanitizer report or a hang.
// Built by REDUCESCOPE_FUZZ=ON with clang; run by scripts/sanitize.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "replay.hpp"
#include "trace_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    rs::Trace t = rs::parse_trace(bytes, "fuzz input");
    rs::Replay r(t);
    for (size_t s = 0; s < r.num_steps(); ++s) (void)rs::describe_step(r, s, t.source);
  } catch (const rs::TraceFormatError&) {
  } catch (const rs::ReplayError&) {
  }
  return 0;
}
