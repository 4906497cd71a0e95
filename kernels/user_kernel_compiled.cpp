// save_user_kernel / load_user_kernel (user_kernel.hpp): a compiled kernel in a file of its own, for another process
// of the same reducescope (the window's worker, `check --compiled`, grade's compiling ahead).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "user_kernel.hpp"

namespace rs {

namespace {
constexpr const char* kCompiledMagic = "RSUK 3\n";  // 2: the dialect and the cubin; 3: the warnings
}

void save_user_kernel(const UserKernel& k, const std::string& path) {
  std::string out = kCompiledMagic;
  auto put = [&](const std::string& v) { out += std::to_string(v.size()) + "\n" + v; };
  put(k.file_name);
  put(k.source);
  put(k.arch);
  put(std::to_string(k.shape.inputs_per_thread) + " " + std::to_string(static_cast<unsigned>(k.shape.finish)) + " " +
      std::to_string(k.shape.min_block_size) + " " + std::to_string(k.dtypes) + " " + (k.plain ? "1" : "0") + " " +
      std::to_string(static_cast<unsigned>(k.entry)));
  for (const UserBuild* b : {&k.timing, &k.tracing}) {
    put(b->ptx);
    put(b->cubin);
    put(b->int_entry);
    put(b->float_entry);
  }
  // NVRTC's warnings, so that `check --compiled` says what `check` of the file says.
  put(std::to_string(k.warnings.size()));
  for (const UserDiagnostic& d : k.warnings) {
    put(d.file);
    put(std::to_string(d.line) + " " + std::to_string(d.column));
    put(d.severity);
    put(d.message);
  }
  const std::string tmp = path + ".part";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);  // whole or not at all
  if (ec) throw std::runtime_error("cannot write " + path + ": " + ec.message());
}

UserKernel load_user_kernel(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read the compiled kernel");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  const std::string magic = kCompiledMagic;
  if (text.compare(0, magic.size(), magic) != 0) throw std::runtime_error(path + ": not a compiled kernel of this reducescope");
  size_t at = magic.size();
  auto get = [&]() {
    const size_t nl = text.find('\n', at);
    if (nl == std::string::npos || nl == at || nl - at > 12) throw std::runtime_error(path + ": truncated compiled kernel");
    const unsigned long long len = std::stoull(text.substr(at, nl - at));
    if (len > text.size() - nl - 1) throw std::runtime_error(path + ": truncated compiled kernel");
    at = nl + 1 + len;
    return text.substr(nl + 1, len);
  };
  UserKernel k;
  k.file_name = get();
  k.source = get();
  k.arch = get();
  std::istringstream shape(get());
  unsigned finish = 0, dtypes = 0, plain = 0, entry = 0;
  shape >> k.shape.inputs_per_thread >> finish >> k.shape.min_block_size >> dtypes >> plain >> entry;
  k.plain = plain == 1;
  k.entry = static_cast<UserEntry>(entry);
  if (!shape || plain > 1 || entry > 1 || finish > static_cast<unsigned>(Finish::HostReduce) || k.shape.inputs_per_thread < 1 || k.shape.inputs_per_thread > 8 ||
      dtypes == 0 || dtypes > 3) {
    throw std::runtime_error(path + ": a compiled kernel with an impossible launch shape");
  }
  k.shape.finish = static_cast<Finish>(finish);
  k.dtypes = static_cast<uint8_t>(dtypes);
  for (UserBuild* b : {&k.timing, &k.tracing}) {
    b->ptx = get();
    b->cubin = get();
    b->int_entry = get();
    b->float_entry = get();
  }
  const std::string count = get();
  const unsigned long n_warnings = !count.empty() && count.size() < 6 && count.find_first_not_of("0123456789") == std::string::npos
                                      ? std::stoul(count)
                                      : ~0ul;
  if (n_warnings > 10000) throw std::runtime_error(path + ": a compiled kernel with an impossible warning count");
  for (unsigned long i = 0; i < n_warnings; ++i) {
    UserDiagnostic d;
    d.file = get();
    std::istringstream at_line(get());
    at_line >> d.line >> d.column;
    d.severity = get();
    d.message = get();
    if (!at_line) throw std::runtime_error(path + ": a compiled kernel with an unreadable warning");
    k.warnings.push_back(std::move(d));
  }
  return k;
}

}  // namespace rs
