#include "user_includes.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace rs {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 16;

struct Directive {
  unsigned line = 0, column = 0;  // 1-based, of the '#'
  std::string keyword;            // "include", "include_next", "import"
  char open = 0;                  // '"' or '<'; 0: neither (a computed include)
  std::string name;
};

// The #include-like directives of `text`, outside comments. A directive is a line whose first token is '#'.
std::vector<Directive> directives(const std::string& text) {
  std::vector<Directive> out;
  bool in_block = false;
  unsigned line = 0;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    ++line;
    size_t i = 0;
    // Skip what a block comment still covers, then leading blanks and comments.
    for (;;) {
      if (in_block) {
        const size_t e = l.find("*/", i);
        if (e == std::string::npos) {
          i = l.size();
          break;
        }
        in_block = false;
        i = e + 2;
      }
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r')) ++i;
      if (l.compare(i, 2, "/*") == 0) {
        in_block = true;
        i += 2;
        continue;
      }
      break;
    }
    const bool directive = i < l.size() && l[i] == '#';
    const size_t hash = i;
    // Block comments opened later on the line (outside strings, which a directive line rarely has).
    for (size_t k = i; k + 1 < l.size(); ++k) {
      if (l[k] == '/' && l[k + 1] == '/') break;
      if (l[k] == '/' && l[k + 1] == '*') {
        const size_t e = l.find("*/", k + 2);
        if (e == std::string::npos) {
          in_block = true;
          break;
        }
        k = e + 1;
      }
    }
    if (!directive) continue;
    size_t j = hash + 1;
    while (j < l.size() && (l[j] == ' ' || l[j] == '\t')) ++j;
    size_t k = j;
    while (k < l.size() && (std::isalnum(static_cast<unsigned char>(l[k])) || l[k] == '_')) ++k;
    const std::string keyword = l.substr(j, k - j);
    if (keyword != "include" && keyword != "include_next" && keyword != "import") continue;
    Directive d;
    d.line = line;
    d.column = static_cast<unsigned>(hash + 1);
    d.keyword = keyword;
    while (k < l.size() && (l[k] == ' ' || l[k] == '\t')) ++k;
    if (k < l.size() && (l[k] == '"' || l[k] == '<')) {
      const char close = l[k] == '"' ? '"' : '>';
      const size_t e = l.find(close, k + 1);
      if (e != std::string::npos) {
        d.open = l[k];
        d.name = l.substr(k + 1, e - k - 1);
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

bool inside(const fs::path& p, const fs::path& folder) {
  const std::string a = p.lexically_normal().string(), f = folder.lexically_normal().string();
  return a.size() > f.size() && a.compare(0, f.size(), f) == 0 && (f.back() == '/' || a[f.size()] == '/');
}

// The CUDA toolkit's headers a kernel file may include (issue 40): cooperative groups, as the CUDA programming guide
// teaches a warp reduction, and CCCL's CUB and libcu++ (cub::BlockReduce, cuda::std), which NVRTC compiles.
bool toolkit_header(const std::string& name) {
  if (name.find("..") != std::string::npos) return false;
  return name == "cooperative_groups.h" || name.rfind("cooperative_groups/", 0) == 0 || name.rfind("cub/", 0) == 0 ||
         name.rfind("cuda/", 0) == 0;
}

struct Walker {
  const std::vector<std::string>& embedded;
  fs::path folder;  // canonical
  IncludeCheck out;
  std::set<std::string> seen;  // local names already taken

  void refuse(const std::string& file, const Directive& d, const std::string& why) {
    out.refused.push_back({file, d.line, d.column, "error",
                           "#" + d.keyword + (d.open ? " " + std::string(1, d.open) + d.name +
                                                           (d.open == '"' ? "\"" : ">")
                                                     : std::string()) +
                               " is not allowed: " + why +
                               ". A kernel file may include the embedded headers (reducescope.cuh), the toolkit's "
                               "<cooperative_groups.h>, <cooperative_groups/...>, <cub/...> and <cuda/...>, and files "
                               "in its own folder (docs/your-kernel.md)"});
  }

  void walk(const std::string& text, const std::string& file, int depth) {
    for (const Directive& d : directives(text)) {
      if (d.keyword != "include") {
        refuse(file, d, "only #include is");
        continue;
      }
      if (!d.open) {
        refuse(file, d, "a computed include (a macro) cannot be checked");
        continue;
      }
      if (std::find(embedded.begin(), embedded.end(), d.name) != embedded.end()) continue;
      if (d.open == '<') {
        if (toolkit_header(d.name)) continue;
        refuse(file, d, "the system's headers, and the toolkit's other than cooperative groups and CCCL's, are not");
        continue;
      }
      const fs::path name(d.name);
      bool dotdot = false;
      for (const fs::path& part : name) dotdot = dotdot || part == "..";
      if (d.name.empty() || name.is_absolute() || dotdot) {
        refuse(file, d, name.is_absolute() ? "an absolute path" : "a path out of the kernel's folder");
        continue;
      }
      std::error_code ec;
      const fs::path real = fs::weakly_canonical(folder / name, ec);
      if (ec || !inside(real, folder)) {
        refuse(file, d, "it leads out of the kernel's folder");
        continue;
      }
      if (!fs::is_regular_file(real, ec)) {
        out.refused.push_back({file, d.line, d.column, "error",
                               "#include \"" + d.name + "\": no such file in the kernel's folder " + folder.string()});
        continue;
      }
      if (!seen.insert(d.name).second) continue;
      if (depth >= kMaxDepth) {
        refuse(file, d, "includes nest more than 16 deep");
        continue;
      }
      std::ifstream f(real, std::ios::binary);
      std::stringstream ss;
      ss << f.rdbuf();
      out.local.emplace_back(d.name, ss.str());
      const std::string header_text = out.local.back().second;
      walk(header_text, (fs::path(file).parent_path() / name).string(), depth + 1);
    }
  }
};

}  // namespace

IncludeCheck check_includes(const std::string& source, const std::string& file_name,
                            const std::vector<std::string>& embedded) {
  fs::path folder = fs::path(file_name).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec) canon = fs::absolute(folder);
  Walker w{embedded, canon, {}, {}};
  w.walk(source, file_name, 0);
  return std::move(w.out);
}

}  // namespace rs
