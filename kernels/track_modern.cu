// The modern track's host dispatch table: the instantiations of kernels/modern_kernels.cuh, listed by
// the RS_TRACK_KERNELS line at the end of that file. One translation unit per track keeps builds
// parallel.
#include "dispatch.cuh"
#include "modern_kernels.cuh"

namespace rs {

const std::vector<HistoLaunchers>& modern_histogram_launchers() {
  static const std::vector<HistoLaunchers> v = {RS_HISTO_KERNEL(histo_warp)};
  return v;
}

}  // namespace rs
