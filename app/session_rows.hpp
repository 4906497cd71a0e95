// A session's metadata and timing rows from GpuReducer's measurements, and back (issue 38, item 1: the row
// converters `record` and the window share, out of the commands library, so that the window does not link it).
//
// Index
//   timing_method()      GpuReducer::time's method in English words, as sessions store it
//   session_meta()       a session's metadata for measurements taken now
//   to_session_timing()  a Timing as a session's row (ms, GB/s), named by a shipped kernel or by a name
//   to_timing()          a session's row back as a Timing
//
// Plain C++ over kernels/ (the Timing and DeviceInfo structs; no CUDA call) and tracing/ (the session model).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu_reduce.hpp"
#include "session.hpp"

namespace rs {

// The timing method of GpuReducer::time in words, for session files and chart captions: `warmups` warm-ups,
// `samples` samples, the L2 (`l2_bytes`) flushed by writing twice its size before each. English, as sessions have
// always stored it; the views say it in their language through explain::parse_timing_method.
std::string timing_method(int samples, int warmups, size_t l2_bytes);

// A session's metadata for measurements taken now (UTC) on `d` over `n` elements of `pattern` with
// GpuReducer::time(samples, warmups); the references (copy, CUB) are left at 0.
SessionMeta session_meta(const DeviceInfo& d, uint64_t n, Pattern pattern, int samples, int warmups);

// A GpuReducer timing as a session's row, and back (the same numbers, in ms and GB/s). The row is named by the
// shipped kernel `k`, or by `name` (a user's kernel file: `record --kernel-file`, the window's live export).
SessionTiming to_session_timing(KernelId k, unsigned block_size, const Timing& t, bool correct);
SessionTiming to_session_timing(const std::string& name, unsigned block_size, const Timing& t, bool correct);
Timing to_timing(const SessionTiming& t);

}  // namespace rs
