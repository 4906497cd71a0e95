// The multigpu track's data (issue 21): reduction across G >= 2 GPUs. Plain C++: no CUDA, no NCCL, no GL,
// so CI tests the ring schedule, the bandwidth formulas and the session section without a GPU, and the
// window and the web page replay a recording anywhere.
//
// Index
//   algbw_gbps / busbw_factor / busbw_gbps   nccl-tests' bandwidth conventions
//   ChunkRange, ring_chunk                    how the ring splits a buffer of n elements into G chunks
//   RingTransfer, ring_schedule               which chunk each GPU sends to its neighbour at each step
//   ring_allreduce_cpu                        the schedule run on the CPU (tests; the page's and the window's
//                                             "what each GPU holds" at a step)
//   MultiGpuRow, RingEvent, RingRecording, SessionMultiGpu   what `record --track multigpu` stores (section 10)
//
// The ring all-reduce (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations", JPDC 2009; NCCL's ring algorithm): the buffer is cut into G chunks. Reduce-scatter, G-1
// steps: at step s GPU g sends chunk (g - s) mod G to GPU (g + 1) mod G, which adds it into its own copy of
// that chunk; afterwards GPU g holds the full sum of chunk (g + 1) mod G. All-gather, G-1 steps: at step t
// GPU g sends chunk (g + 1 - t) mod G, fully summed, to GPU g + 1, which stores it. Every GPU sends
// 2(G-1)/G of the buffer, which is the busbw factor below.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rs {

// The track's id for --track (it has no per-block kernels, so it is not in kernel_info's track table).
inline constexpr const char* kMultiGpuTrack = "multigpu";

// nccl-tests' conventions (NVIDIA/nccl-tests, doc/PERFORMANCE.md): algbw = S / t, with S the bytes of the
// buffer each GPU holds and t the time of one call; GB/s = 1e9 bytes/s. Throws nothing: 0 for ms <= 0.
double algbw_gbps(uint64_t bytes, double ms);
// busbw = algbw x factor, the bandwidth a link must carry, comparable with the peer-to-peer bandwidth
// whatever G is. PERFORMANCE.md: all-reduce 2(G-1)/G; reduce, broadcast and a plain copy 1; reduce-scatter and
// all-gather (G-1)/G. `op`: "allreduce", "reducescatter", "allgather", anything else 1. gpus >= 1.
double busbw_factor(const std::string& op, uint32_t gpus);
double busbw_gbps(const std::string& op, uint64_t bytes, double ms, uint32_t gpus);

// Elements [begin, end) of one chunk.
struct ChunkRange {
  uint64_t begin = 0, end = 0;
  uint64_t size() const { return end - begin; }
};
// Chunk `chunk` (< gpus) of n elements cut into `gpus` contiguous chunks: the first n % gpus chunks hold one
// element more, so any n works (a chunk may be empty when n < gpus). Throws std::invalid_argument for
// gpus == 0 or chunk >= gpus.
ChunkRange ring_chunk(uint64_t n, uint32_t gpus, uint32_t chunk);

enum class RingPhase : uint8_t { ReduceScatter = 0, AllGather = 1 };
const char* to_string(RingPhase p);  // "reduce-scatter", "all-gather"

// One peer copy of the ring: at `step` GPU `from` sends chunk `chunk` to GPU `to` = (from + 1) mod G, which
// adds it into its copy (reduce-scatter) or stores it (all-gather).
struct RingTransfer {
  uint32_t step = 0;  // 0 .. 2(G-1)-1; steps 0 .. G-2 are the reduce-scatter
  RingPhase phase = RingPhase::ReduceScatter;
  uint32_t from = 0, to = 0;
  uint32_t chunk = 0;
};
// Every transfer, step by step, G per step in order of `from`: 2(G-1) x G transfers. Throws
// std::invalid_argument for gpus < 2.
std::vector<RingTransfer> ring_schedule(uint32_t gpus);
// Which chunks GPU g holds fully summed after `steps` steps (0 .. 2(G-1)) of the schedule: after the
// reduce-scatter only chunk (g + 1) mod G, after the all-gather all of them. Ascending.
std::vector<uint32_t> summed_chunks(uint32_t gpus, uint32_t gpu, uint32_t steps);
// Runs the schedule over bufs[g] (one buffer per GPU, all the same length): afterwards every buffer holds
// the element-wise sum. Throws std::invalid_argument for fewer than 2 buffers or unequal lengths.
void ring_allreduce_cpu(std::vector<std::vector<float>>& bufs);

// One measured figure: a method at one size, timed as SessionMultiGpu::method says.
struct MultiGpuRow {
  std::string op;       // "allreduce" (element-wise, float32), "sum" (N int32 spread over the GPUs, one result),
                        // "copy" (one peer copy, GPU 0 -> 1), "copy_bidir" (0 -> 1 and 1 -> 0 at once)
  std::string method;   // allreduce: "nccl", "ring", "naive"; sum: "nccl" (shards + ncclReduce), "one_gpu";
                        // copy: "p2p"
  uint64_t bytes = 0;   // nccl-tests' S: the buffer each GPU holds (allreduce), N x 4 (sum), bytes one way (copy)
  uint32_t gpus = 0;    // GPUs it ran on (1 for one_gpu)
  double median_ms = 0, min_ms = 0, max_ms = 0;  // per call, ms: the slowest GPU's CUDA-event time
  uint32_t samples = 0;
  double algbw_gbps = 0;  // bytes / median
  double busbw_gbps = 0;  // algbw x busbw_factor(op, gpus); copy_bidir: each way
  bool correct = true;    // checked against the CPU (copies: the bytes arrived)
};

// One transfer of a traced ring all-reduce with its measured times: CUDA events on the sender's stream
// around the peer copy, and on the receiver's around its add. Times are microseconds from the run's start
// event on that GPU; the start events of all GPUs were recorded back to back after every GPU was idle, so
// lanes line up to a few microseconds.
struct RingEvent {
  uint32_t step = 0;
  RingPhase phase = RingPhase::ReduceScatter;
  uint32_t from = 0, to = 0, chunk = 0;
  uint64_t chunk_bytes = 0;
  double copy_start_us = 0, copy_end_us = 0;  // the peer copy (cudaMemcpyPeerAsync on the sender's stream)
  double add_start_us = 0, add_end_us = 0;    // the receiver's add kernel (reduce-scatter); 0, 0 in the all-gather
};
struct RingRecording {
  uint64_t bytes = 0;      // buffer per GPU
  uint32_t gpus = 0;
  double total_us = 0;     // first start to last end
  std::vector<RingEvent> events;  // ring_schedule(gpus) order
};

// `reducescope record --track multigpu` (section 10 of a session; readers before it skip it).
struct SessionMultiGpu {
  uint32_t gpus = 0;                    // 0: the session has no multi-GPU recording
  std::vector<std::string> gpu_names;   // one per GPU
  std::string topology;                 // `nvidia-smi topo -m` as printed ("" where it could not run)
  std::string link;                     // what the matrix says links GPU 0 and 1 ("NV18"), or ""
  bool peer_access = true;              // cudaDeviceCanAccessPeer both ways; false: copies staged through the host
  std::string nccl_version;             // e.g. "2.28.9"
  std::string method;                   // the timing method in words
  std::string date;                     // UTC, ISO 8601
  std::vector<MultiGpuRow> rows;
  std::vector<RingRecording> rings;     // traced ring all-reduces, ascending bytes
  bool empty() const { return gpus == 0; }
  // nullptr when there is no such row.
  const MultiGpuRow* find(const std::string& op, const std::string& method, uint64_t bytes) const;
  // The sizes of `op`'s rows, ascending, unique.
  std::vector<uint64_t> sizes(const std::string& op) const;
};

// What a row's method is, in words, for reports, the window and the page: ("allreduce", "ring") -> "hand ring:
// reduce-scatter + all-gather, ...".
// English, marked for the catalogue: the window and the page say it through gettext and the page's dictionary.
std::string multigpu_method_text(const std::string& op, const std::string& method);
// Every (op, method) pair a recording holds (kernels/multigpu_run.cu), each with its own words above.
inline constexpr std::pair<const char*, const char*> kMultiGpuMethods[] = {
    {"allreduce", "nccl"}, {"allreduce", "ring"}, {"allreduce", "naive"}, {"sum", "nccl"},
    {"sum", "one_gpu"},    {"copy", "p2p"},       {"copy_bidir", "p2p"}};

// "4 KiB", "256 MiB", "1 GiB"; other sizes in bytes ("4100 B") or to one decimal ("1.5 MiB").
std::string bytes_label(uint64_t bytes);

// --- What the window's ring replay draws at a step -------------------------------------------------------

// The bit mask of all `gpus` GPUs (bit g: GPU g's values): what a fully summed chunk holds.
uint64_t all_gpus_mask(uint32_t gpus);
// Whose values each chunk holds after `steps` steps (0 .. 2(G-1); more count as 2(G-1)) of ring_schedule:
// held[g][c] has bit k set when chunk c on GPU g includes GPU k's values. Before any step held[g][c] = 1 << g;
// a reduce-scatter transfer ORs the sender's mask into the receiver's, an all-gather one replaces it; every
// transfer of a step reads the masks from before the step. summed_chunks is the chunks equal to
// all_gpus_mask. Throws std::invalid_argument unless 2 <= gpus <= 64.
std::vector<std::vector<uint64_t>> ring_contributions(uint32_t gpus, uint32_t steps);

// The measured extent of one step of a traced ring, in microseconds on RingEvent's clock: from its first
// peer copy's start to the last end of its copies and adds. {0, 0} when the recording has no such step.
struct RingSpan {
  double start_us = 0, end_us = 0;
  double ms() const { return (end_us - start_us) * 1e-3; }
};
RingSpan ring_step_span(const RingRecording& r, uint32_t step);

}  // namespace rs
