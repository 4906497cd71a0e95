// The window's, the page's and the teaching notes' language (issue 31): GNU gettext, nothing of our own.
//
// Index
//   Lang, parse_lang(), lang_code()   English or Chinese (简体中文), and their codes "en", "zh"
//   system_language()                 what the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)
//   set_language(), language()        switch this process's messages; which one is in force
//   tr(), _(), N_()                   look a message up; mark one for xgettext
//   page_dictionary()                 the page's messages and their translations, for the web export
//
// The catalogue is po/zh_CN.po (one file, GNU PO format), compiled by msgfmt at build time into
// <build>/locale/zh_CN/LC_MESSAGES/reducescope.mo; xgettext collects the messages (keywords _ and N_ in the
// C++, t in the page's script; po/CMakeLists.txt). The msgids are the English texts themselves, so English
// needs no catalogue and is what every lookup gives when a catalogue or a translation is missing.
//
// How the switch works (GNU gettext manual, "Being a gettext grok", and glibc's dcigettext.c): the messages
// category is set to a locale that is not "C" (the system's own, or glibc's built-in C.UTF-8, so no locale has
// to be generated), LANGUAGE names the catalogue (zh_CN), the domain is bound to the folder found by
// catalogue_dir() with codeset UTF-8, and _nl_msg_cat_cntr is incremented so glibc drops the lookups it cached.
// Only LC_MESSAGES changes: numbers keep the "C" decimal point everywhere.
//
// CLI messages stay English (docs/chinese.md): only the window, the page and the notes the two show are
// translated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rs::i18n {

enum class Lang : uint8_t { En = 0, Zh = 1 };

// "en", "english" -> En; "zh", "zh_CN", "zh-CN", "zh_CN.UTF-8", "chinese", "中文" -> Zh; anything else: nullopt.
std::optional<Lang> parse_lang(std::string_view s);
// "en" or "zh".
const char* lang_code(Lang l);
// The language's own name, for the menu: "English", "中文".
const char* lang_name(Lang l);

// The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set and not empty: Zh where it starts with "zh",
// else En.
Lang system_language();

// The folders the compiled catalogue is looked for in, in order: $RS_LOCALEDIR alone where it is set, else
// <this executable's folder>/locale (the build tree) and <its folder>/../share/locale (an install).
std::vector<std::string> catalogue_places();
// The first of those that holds zh_CN/LC_MESSAGES/reducescope.mo; empty where none does.
std::string catalogue_dir();

// Switches this process's messages to `l`. English always works. Chinese needs the compiled catalogue: where
// it is not found, or glibc cannot take a messages locale, the language stays English, false is returned and
// *why (if given) says why in one sentence.
bool set_language(Lang l, std::string* why = nullptr);
// The language in force (En until set_language(Zh) succeeds).
Lang language();

// The message's translation in the language in force; msgid itself in English or where untranslated. The
// pointer lives as long as the process (it points into the mapped catalogue or at msgid).
const char* tr(const char* msgid);
inline std::string tr(const std::string& msgid) { return tr(msgid.c_str()); }

// While it lives, this thread's lookups use `l` and every other thread's lookup waits (a recursive lock on the
// language): the web export writes the page's sentences in both languages while the window keeps its own.
// Where `l`'s catalogue is missing the lookups stay English. Not copyable; destroy it on the thread that made it.
class LanguageScope {
 public:
  explicit LanguageScope(Lang l);
  ~LanguageScope();
  LanguageScope(const LanguageScope&) = delete;
  LanguageScope& operator=(const LanguageScope&) = delete;

 private:
  Lang saved_;
};

// Every message of `msgids` with its translation into `l` (pairs whose translation equals the msgid are left
// out), without changing the language in force. For the page, which carries its own dictionary.
std::vector<std::pair<std::string, std::string>> dictionary(Lang l, const std::vector<std::string>& msgids);

// The code point of the UTF-8 character at text[*at], *at moved past it (the translations' text is UTF-8). A byte
// that starts no valid sequence stands for itself, one byte long; a sequence cut short takes what is there.
uint32_t utf8_next(std::string_view text, size_t* at);

// printf into a std::string, for translated formats: strf(_("%d of %d checks passed"), passed, total). A
// translation may reorder its arguments with %1$d, %2$s (glibc's printf; msgfmt --check compares them).
std::string strf(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace rs::i18n

// gettext's conventional markers: _("text") translates now; N_("text") only marks a string that is
// translated later with tr() (tables of static data such as the kernels' teaching notes).
#define _(msgid) ::rs::i18n::tr(msgid)
#define N_(msgid) msgid
