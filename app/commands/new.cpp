// reducescope new --from KERNEL FILE.cu (or --exercise NAME): a starting file for a kernel of the user's own
// (kernels/user/ and kernels/user/exercises/, embedded; docs/your-kernel.md): plain CUDA, or with --wrapped the
// wrapped dialect (kernels/user/wrapped/). Never overwrites a file.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "commands.hpp"
#include "exercises.hpp"
#include "user_kernel.hpp"

namespace rs {

int run_new(const Options& o, std::ostream& out, std::ostream& err) {
  const char* text =
      o.exercise.empty() ? starting_file(o.from, o.wrapped) : exercise_starting_file(o.exercise, o.wrapped);
  if (!o.exercise.empty() && !text && o.wrapped && find_exercise(o.exercise)) {
    err << "reducescope new: --exercise " << o.exercise << " has no --wrapped file: it is plain CUDA only\n";
    return kExitUsage;
  }
  if (!o.exercise.empty() && !text) {
    err << "reducescope new: --exercise: '" << o.exercise << "' is not an exercise (" << exercise_names() << ")\n";
    return kExitUsage;
  }
  if (!text) {
    const std::string why = find_kernel(o.from) ? o.from + " has no starting file yet"
                                                : "'" + o.from + "' is not a shipped kernel";
    err << "reducescope new: --from: " << why << " (starting files: " << starting_file_names() << ")\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(o.file, ec)) {
    err << "reducescope new: " << o.file << " is a directory: give the path of the .cu file to write\n";
    return kExitRuntime;
  }
  // "x": create the file only if it does not exist (C11, glibc: O_CREAT | O_EXCL), so an existing file is
  // never truncated, even by a race.
  std::FILE* f = std::fopen(o.file.c_str(), "wx");
  if (!f) {
    if (errno == EEXIST) {
      err << "reducescope new: " << o.file << " exists: not overwritten (choose another name, or delete it first)\n";
    } else {
      err << "reducescope new: cannot write " << o.file << ": " << std::strerror(errno) << "\n";
    }
    return kExitRuntime;
  }
  const size_t size = std::strlen(text);
  const bool written = std::fwrite(text, 1, size, f) == size;
  if (std::fclose(f) != 0 || !written) {
    err << "reducescope new: could not write all of " << o.file << ": " << std::strerror(errno) << "\n";
    std::remove(o.file.c_str());
    return kExitRuntime;
  }
  if (!o.exercise.empty()) {
    out << "wrote " << o.file << ": the starting file of the exercise " << o.exercise << " (" << find_exercise(o.exercise)->title
        << ")\nnext: reducescope check " << o.file << " --exercise " << o.exercise << "\n";
    return kExitOk;
  }
  out << "wrote " << o.file << ": " << o.from << " as a kernel of your own (user_kernel, "
      << (o.wrapped ? "the wrapped dialect" : "plain CUDA") << "; docs/your-kernel.md)\n"
      << "next: reducescope check " << o.file << "\n";
  return kExitOk;
}

}  // namespace rs
