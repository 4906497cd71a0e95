// The course track's histogram bins, shared by the kernels (device) and the CPU reference (host).
//
//   LetterBins   the note's text histogram: the letters a-z in 7 bins of 4 (a-d, e-h, i-l, m-p, q-t,
//                u-x, y-z); any other byte (capitals too, as in the note's `buffer[i] - 'a'`) has no bin
//   ByteBins     one bin per byte value, 256 bins (the random-bytes input, and cub::DeviceHistogram's
//                HistogramEven with 257 levels from 0 to 256)
//
// bin(c) returns the bin of byte c, or -1 for none. Plain C++ that nvcc also compiles for the device.
#pragma once

#include "reduce_ops.hpp"  // RS_HOST_DEVICE

namespace rs {

struct LetterBins {
  static constexpr unsigned kCount = 7;
  RS_HOST_DEVICE static int bin(unsigned int c) {
    const int alphabet_position = static_cast<int>(c) - 'a';
    return (alphabet_position >= 0 && alphabet_position < 26) ? alphabet_position / 4 : -1;
  }
};

struct ByteBins {
  static constexpr unsigned kCount = 256;
  RS_HOST_DEVICE static int bin(unsigned int c) { return static_cast<int>(c & 0xffu); }
};

}  // namespace rs
