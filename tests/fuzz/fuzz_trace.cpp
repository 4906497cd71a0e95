// libFuzzer target: any bytes given to the trace reader and the replay model must give a
// Trace or a TraceFormatError / ReplayError, never a crash, a sanitizer report or a hang; every
// accessor of the replay (shuffles, atomics, landing order, global requests) is exercised and
// its invariants checked (exercise_replay.hpp). Each input is also read as raw records folded
// into range (folded_records), which reaches the version 3 replay without a valid checksum.
// Built by REDUCESCOPE_FUZZ=ON with clang; run by scripts/sanitize.sh.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "exercise_replay.hpp"
#include "replay.hpp"
#include "trace_io.hpp"

namespace {

// Records that pass rs::record_problem(), whatever the bytes: each 32-byte chunk of the input
// becomes one record with its fields folded into range, so that the replay model of every kind
// (version 3 kinds included, which files only reach through the checksum) is fuzzed directly.
rs::Trace folded_records(const uint8_t* data, size_t size) {
  rs::Trace t;
  t.meta.kernel = "folded";
  t.meta.block_size = 64;
  t.meta.smem_bytes = 256;
  t.meta.n = 512;
  t.meta.grid_size = 4;
  t.meta.dtype = size > 0 && (data[0] & 1) ? rs::DType::Float32 : rs::DType::Int32;
  for (size_t at = 0; at + sizeof(rs::TraceRecord) <= size; at += sizeof(rs::TraceRecord)) {
    rs::TraceRecord r;
    std::memcpy(&r, data + at, sizeof r);
    r.kind %= rs::kMaxAccessKind + 1;
    r.thread %= t.meta.block_size;
    r.epoch %= 8;
    r.seq %= 8;
    const auto kind = static_cast<rs::AccessKind>(r.kind);
    const uint8_t float_bit = r.op & rs::kOpFloatBit;
    switch (kind) {
      case rs::AccessKind::Load:
      case rs::AccessKind::Store:
        r.addr = r.addr % 64 * 4;
        r.op = 0;
        break;
      case rs::AccessKind::SharedAtomic:
        r.addr = r.addr % 64 * 4;
        r.op = static_cast<uint8_t>(float_bit | (r.op & rs::kOpMask) % 6);
        break;
      case rs::AccessKind::GlobalLoad:
      case rs::AccessKind::GlobalStore:
      case rs::AccessKind::GlobalAtomic:
        r.space %= 2;
        // A load or store of the input may be a 16-byte vector (lane_arg: its width); it must end inside.
        r.lane_arg = (r.space == 0 && kind != rs::AccessKind::GlobalAtomic && (r.lane_arg & 1)) ? 16 : 0;
        r.addr %= r.space == 0 ? (r.lane_arg ? 509 : 512) : 4;
        r.op = kind == rs::AccessKind::GlobalAtomic ? static_cast<uint8_t>(float_bit | (r.op & rs::kOpMask) % 6) : 0;
        break;
      case rs::AccessKind::Shuffle:
        r.lane_arg %= 32;
        r.space = static_cast<uint8_t>(1u << (r.space % 6));
        r.op = static_cast<uint8_t>(float_bit | (r.op & rs::kOpMask) % 4);
        break;
      case rs::AccessKind::WarpReduce:
        r.op = static_cast<uint8_t>((r.op & rs::kOpMask) % 3);
        break;
      case rs::AccessKind::BlockBarrier:
      case rs::AccessKind::WarpBarrier:
        break;
    }
    if (!rs::record_problem(t.meta, r).empty()) __builtin_trap();  // the folding above is wrong
    t.records.push_back(r);
  }
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (size >= sizeof(rs::TraceRecord) && size <= 64 * sizeof(rs::TraceRecord)) {
    const rs::Trace folded = folded_records(data, size);
    rs::fuzz::exercise_replay(rs::Replay(folded), folded);  // every record is valid: no ReplayError
  }
  try {
    rs::Trace t = rs::parse_trace(bytes, "fuzz input");
    // What was read (any version) writes back as the current version and reads again the same.
    try {
      const rs::Trace again = rs::parse_trace(rs::serialize_trace(t), "fuzz input, rewritten");
      rs::fuzz::check(again.records.size() == t.records.size() && again.meta.dtype == t.meta.dtype &&
                      again.meta.track == t.meta.track);
    } catch (const rs::TraceFormatError&) {
      __builtin_trap();
    }
    rs::Replay r(t);
    rs::fuzz::exercise_replay(r, t);
  } catch (const rs::TraceFormatError&) {
  } catch (const rs::ReplayError&) {
  }
  return 0;
}
