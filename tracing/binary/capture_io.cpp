// Capture files on disk (kept apart from capture.cpp, which the injector links without rs_tracing).
#include "binary_io.hpp"
#include "capture.hpp"

namespace rs::bt {

Capture load_capture(const std::string& path) { return parse_capture(rs::detail::read_file(path), path); }

void save_capture(const Capture& c, const std::string& path) {
  rs::detail::write_file_atomically(path, serialize_capture(c));
}

}  // namespace rs::bt
