// The SASS of a cubin as nvdisasm prints it (`nvdisasm -gi -c FILE.cubin`: code only, with the line
// table's source locations, inlined calls included), parsed: per function, each instruction's
// offset, text and source locations. And what the binary tracer reads off an instruction's text:
// a shuffle's mode, lane offset and width, an atomic's operation.
//
// The listing format (CUDA 13.0's nvdisasm, tests/fixtures/binary/*.sass):
//   .text._Z14reduce_stridedPKiPij:                       a function's section starts
//   	//## File "/path/a.cu", line 27                       the next instructions' location
//   	//## File "/x/sm_30_intrinsics.hpp", line 397 inlined at "/path/a.cu", line 42
//           /*0110*/                   LDG.E R3, desc[UR6][R2.64] ;
// Plain C++: no CUDA. Tested in CI on listings captured on an H100.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace_format.hpp"

namespace rs::bt {

struct SourceLoc {
  std::string file;
  uint32_t line = 0;
};

struct SassInstruction {
  uint32_t offset = 0;              // bytes from the function's start (the /*0110*/ column)
  std::string text;                 // "@!P0 LDG.E R0, desc[UR8][R2.64]" (predicate kept, ';' dropped)
  std::string opcode;               // "LDG.E" (no predicate)
  std::vector<SourceLoc> where;     // the line table's location, then each "inlined at" outward; empty
                                    // when the cubin has no line info
};

struct SassFunction {
  std::string name;                 // the symbol, e.g. "_Z14reduce_stridedPKiPij"
  std::vector<SassInstruction> code;  // ascending offset
  // The instruction at `offset`, or nullptr.
  const SassInstruction* at(uint64_t offset) const;
  // The file most of the function's outermost locations are in (the kernel's own source), or "".
  std::string main_file() const;
  // The line in `file` for `ins`: the first of its locations in that file, else 0.
  static uint32_t line_in(const SassInstruction& ins, const std::string& file);
  // The listing as text, one instruction per line ("/*0110*/ LDG.E R3, desc[UR6][R2.64]"), so that
  // line k (1-based) is code[k - 1]: the source panel's text for a cubin without line info.
  std::string listing() const;
};

// Parses nvdisasm's output. Functions without instructions are left out. Never throws: lines it
// does not understand are skipped.
std::vector<SassFunction> parse_nvdisasm(const std::string& text);

// A shuffle as SHFL.{IDX,UP,DOWN,BFLY} PT, Rd, Ra, b, c encodes it (PTX ISA, "shfl.sync": c packs
// the clamp value and the segment mask, c = ((32 - width) << 8) | clamp).
struct ShuffleForm {
  ShuffleKind kind = ShuffleKind::Idx;
  bool lane_known = false;          // b is an immediate (or RZ): the source lane can be computed
  uint32_t b = 0;                   // the lane offset (up, down), xor mask (bfly) or source lane (idx)
  bool width_known = false;         // c is an immediate
  uint32_t width = 32;              // the intrinsic's width argument
  // The lane `lane` reads from, as the CUDA Programming Guide's "Warp Shuffle Functions" define it
  // for the mode, b and width: a source outside the lane's segment means the lane keeps its own
  // value (src == lane). Only meaningful when lane_known.
  uint32_t source_lane(uint32_t lane) const;
};
std::optional<ShuffleForm> decode_shuffle(const std::string& opcode, const std::string& text);

// The AtomicOp of an atomic or reduction opcode (ATOMS.ADD, ATOMG.E.ADD.STRONG.GPU, RED.E.MIN.S32,
// ATOMS.CAS, ...), with kOpFloatBit for a float form (.F32); nullopt if `opcode` is not an atomic.
std::optional<uint8_t> atomic_op(const std::string& opcode);

}  // namespace rs::bt
