// The course track's host dispatch tables: the instantiations of kernels/course_kernels.cuh, listed by
// the RS_TRACK_KERNELS line at the end of that file, and its histogram kernels. One translation unit
// per track keeps builds parallel.
#include "dispatch.cuh"
#include "course_kernels.cuh"

namespace rs {

const std::vector<HistoLaunchers>& course_histogram_launchers() {
  static const std::vector<HistoLaunchers> v = {RS_HISTO_KERNEL(histo_sectioned), RS_HISTO_KERNEL(histo_basic),
                                                RS_HISTO_KERNEL(histo_private)};
  return v;
}

}  // namespace rs
