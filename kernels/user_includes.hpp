// What a kernel file of the user's may #include (issue 29, docs/your-kernel.md, "What a file may include"). A
// course grades untrusted files, and a header's text reaches the compiler's messages, so a file may include only
//   - the headers ReduceScope embeds (reducescope.cuh, probe.cuh, trace_format.hpp: user_kernel_headers()),
//   - the toolkit's cooperative groups (<cooperative_groups.h>, <cooperative_groups/...>) and CCCL's <cub/...> and
//     <cuda/...> (issue 40: the styles NVIDIA's guide and blogs teach), found at configure time,
//   - files in its own folder: a relative name without "..", which must resolve (links followed) inside the
//     folder; such a header is read and checked the same way, its own includes relative to the same folder.
// Anything else (an absolute path, "..", <stdio.h>, a computed `#include MACRO`, #include_next) is refused at its
// line, before the named file is opened by anyone: NVRTC never sees the program.
//
// Plain C++ (no NVRTC): kernels/user_kernel.cpp calls it before compiling; tests/test_user_kernel.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "user_kernel.hpp"  // UserDiagnostic

namespace rs {

struct IncludeCheck {
  std::vector<UserDiagnostic> refused;  // one error per refused include, at its file, line and column
  // The files of the kernel's folder it includes (directly or through one another): (name as written, text),
  // for NVRTC's list of headers.
  std::vector<std::pair<std::string, std::string>> local;
};

// `source` is the text of the file `file_name` (its folder: the folder local names resolve in; "" or a bare
// name: the current folder). `embedded`: the names of the embedded headers.
IncludeCheck check_includes(const std::string& source, const std::string& file_name,
                            const std::vector<std::string>& embedded);

}  // namespace rs
