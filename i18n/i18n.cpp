#include "i18n.hpp"

#include <libintl.h>
#include <unistd.h>

#include <clocale>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>

extern "C" int _nl_msg_cat_cntr;  // glibc: bumped to make gettext drop its cached lookups (gettext manual)

namespace rs::i18n {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDomain = "reducescope";
constexpr const char* kZhCatalogue = "zh_CN";

std::recursive_mutex g_mutex;  // LANGUAGE and the cached lookups are process-wide
Lang g_lang = Lang::En;
bool g_bound = false;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool has_catalogue(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kZhCatalogue / "LC_MESSAGES" / (std::string(kDomain) + ".mo"), ec);
}

// Binds the domain and gives LC_MESSAGES a locale that is not "C" (glibc ignores LANGUAGE under "C").
bool bind(std::string* why) {
  if (g_bound) return true;
  const std::string dir = catalogue_dir();
  if (dir.empty()) {
    if (why) {
      std::string where;
      for (const std::string& d : catalogue_places()) {
        where += (where.empty() ? "" : ", ") + (fs::path(d) / kZhCatalogue / "LC_MESSAGES" / (std::string(kDomain) + ".mo")).string();
      }
      *why = "the Chinese catalogue (reducescope.mo) is missing: looked for " + where +
             ". It is built with reducescope (po/, msgfmt from Debian's gettext) into locale/ beside the binary; "
             "`cmake --install` puts it in share/locale/, or name its folder in RS_LOCALEDIR";
    }
    return false;
  }
  const char* cur = std::setlocale(LC_MESSAGES, nullptr);
  if (!cur || std::string_view(cur) == "C" || std::string_view(cur) == "POSIX") {
    if (!std::setlocale(LC_MESSAGES, "") || std::string_view(std::setlocale(LC_MESSAGES, nullptr)) == "C" ||
        std::string_view(std::setlocale(LC_MESSAGES, nullptr)) == "POSIX") {
      if (!std::setlocale(LC_MESSAGES, "C.UTF-8")) {
        if (why) *why = "glibc has no locale for messages here (not even C.UTF-8)";
        return false;
      }
    }
  }
  if (!bindtextdomain(kDomain, dir.c_str()) || !bind_textdomain_codeset(kDomain, "UTF-8")) {
    if (why) *why = "gettext could not bind the catalogue in " + dir;
    return false;
  }
  g_bound = true;
  return true;
}

void use_catalogue(const char* language) {
  setenv("LANGUAGE", language, 1);
  ++_nl_msg_cat_cntr;
}

}  // namespace

std::optional<Lang> parse_lang(std::string_view s) {
  const std::string l = lower(s);
  if (l == "en" || l == "english" || l.rfind("en_", 0) == 0 || l.rfind("en-", 0) == 0) return Lang::En;
  if (l == "zh" || l == "chinese" || l.rfind("zh_", 0) == 0 || l.rfind("zh-", 0) == 0 || s == "中文") return Lang::Zh;
  return std::nullopt;
}

const char* lang_code(Lang l) { return l == Lang::Zh ? "zh" : "en"; }
const char* lang_name(Lang l) { return l == Lang::Zh ? "中文" : "English"; }

Lang system_language() {
  for (const char* var : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* v = std::getenv(var);
    if (v && *v) return lower(v).rfind("zh", 0) == 0 ? Lang::Zh : Lang::En;
  }
  return Lang::En;
}

std::vector<std::string> catalogue_places() {
  if (const char* env = std::getenv("RS_LOCALEDIR"); env && *env) return {env};
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  const fs::path exe_dir = fs::path(std::string(buf, static_cast<size_t>(n))).parent_path();
  return {(exe_dir / "locale").string(), (exe_dir.parent_path() / "share" / "locale").string()};
}

std::string catalogue_dir() {
  for (const std::string& d : catalogue_places()) {
    if (has_catalogue(d)) return d;
  }
  return "";
}

bool set_language(Lang l, std::string* why) {
  std::lock_guard lock(g_mutex);
  if (l == Lang::En) {
    if (g_bound) use_catalogue("en");
    g_lang = Lang::En;
    return true;
  }
  if (!bind(why)) return false;
  use_catalogue(kZhCatalogue);
  g_lang = l;
  return true;
}

Lang language() {
  std::lock_guard lock(g_mutex);
  return g_lang;
}

uint32_t utf8_next(std::string_view text, size_t* at) {
  const auto c = static_cast<unsigned char>(text[*at]);
  const size_t len = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
  if (len == 1) {
    ++*at;
    return c;
  }
  uint32_t cp = c & (0x3Fu >> (len - 1));
  size_t k = 1;
  for (; k < len && *at + k < text.size(); ++k) cp = cp << 6 | (static_cast<unsigned char>(text[*at + k]) & 0x3Fu);
  *at += k;
  return cp;
}

std::string strf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  va_list again;
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, format, ap);
  va_end(ap);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

const char* tr(const char* msgid) {
  if (!msgid || !*msgid) return msgid;  // gettext("") is the catalogue's header
  std::lock_guard lock(g_mutex);
  if (g_lang == Lang::En) return msgid;
  return dgettext(kDomain, msgid);
}

LanguageScope::LanguageScope(Lang l) {
  g_mutex.lock();
  saved_ = g_lang;
  if (l == Lang::Zh && !bind(nullptr)) l = Lang::En;
  use_catalogue(l == Lang::Zh ? kZhCatalogue : "en");
  g_lang = l;
}

LanguageScope::~LanguageScope() {
  if (g_bound) use_catalogue(saved_ == Lang::Zh ? kZhCatalogue : "en");
  g_lang = saved_;
  g_mutex.unlock();
}

std::vector<std::pair<std::string, std::string>> dictionary(Lang l, const std::vector<std::string>& msgids) {
  std::vector<std::pair<std::string, std::string>> out;
  if (l == Lang::En) return out;
  const LanguageScope scope(l);
  for (const std::string& id : msgids) {
    if (const char* t = tr(id.c_str()); id != t) out.emplace_back(id, t);
  }
  return out;
}

}  // namespace rs::i18n
