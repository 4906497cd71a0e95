// reducescope serve: the verb over app/serve/ (server.hpp): the options turned into ServeOptions, the GPUs found.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"  // usable_cores
#include "server.hpp"
#include "user_kernel_gpu.hpp"  // cuda_device_count
#include "worker.hpp"           // self_executable

namespace rs {

int run_serve(const Options& o, std::ostream& out, std::ostream& err) {
  serve::ServeOptions s;
  s.listen = o.listen;
  s.port = o.port;
  s.data = o.out;
  s.roster = o.roster;
  s.runner.checker = o.checker.empty() ? self_executable() : o.checker;
  s.runner.exporter = self_executable();
  s.runner.kernel_timeout_s = o.kernel_timeout_s;
  s.runner.wall_limit_s = o.run_limit_s;
  s.runner.runs_dir = s.data / "runs";
  // The room's questions are asked of a session's traces: --session, else the bundled H100 session beside the
  // program (assets/, as the window finds it), else none (the room says so).
  s.session = o.session;
  if (s.session.empty()) {
    std::vector<std::filesystem::path> places;
    if (const char* env = std::getenv("REDUCESCOPE_ASSETS")) places.emplace_back(env);
    const std::filesystem::path exe = std::filesystem::path(self_executable()).parent_path();
    places.insert(places.end(), {exe / "assets", exe.parent_path() / "assets", exe.parent_path() / "share/reducescope/assets"});
    for (const auto& p : places) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(p / "sessions/h100-tracks.rssession", ec)) {
        s.session = p / "sessions/h100-tracks.rssession";
        break;
      }
    }
  }
  // The GPUs: every device (none: compile-only workers), or a list. Another --checker decides for itself what a
  // GPU number means, so a list is taken as it is then.
  const int count = cuda_device_count();
  if (o.gpu_list == "all") {
    // Several workers per GPU, as grade --gpus 0,0,0,0: NVRTC, the traces and compute-sanitizer (three processes
    // beside each check) spread over the cores, and the timed part takes the GPU's lock in turn (gpu_lock.hpp). A
    // check keeps about four cores busy.
    const int per_gpu = count ? std::clamp(static_cast<int>(cmd::usable_cores()) / (4 * count), 1, 8) : 0;
    for (int g = 0; g < count; ++g) {
      for (int k = 0; k < per_gpu; ++k) s.runner.gpus.push_back(g);
    }
  } else if (o.gpu_list != "none") {
    std::stringstream ss(o.gpu_list);
    std::string item;
    while (std::getline(ss, item, ',')) {
      char* end = nullptr;
      const long g = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end || g < 0 || (o.checker.empty() && g >= count)) {
        err << "reducescope serve: --gpus: '" << item << "' is not a GPU here ("
            << (count ? "0 to " + std::to_string(count - 1) : std::string("this machine has none")) << ")\n";
        return kExitUsage;
      }
      s.runner.gpus.push_back(static_cast<int>(g));
    }
  }
  return serve::serve(s, out, err);
}

}  // namespace rs
