// The language switch (i18n/i18n.hpp, issue 31): GNU gettext over the catalogue built from po/zh_CN.po.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "i18n.hpp"
#include "said.hpp"
#include "said_text.hpp"
#include "trace_io.hpp"

namespace {

using rs::i18n::Lang;

// The build's compiled catalogue (po/CMakeLists.txt), found through RS_LOCALEDIR as a moved install would be.
struct CatalogueEnv : ::testing::Test {
  void SetUp() override { setenv("RS_LOCALEDIR", RS_LOCALE_DIR, 1); }
  void TearDown() override {
    rs::i18n::set_language(Lang::En);
    unsetenv("RS_LOCALEDIR");
  }
};

TEST(I18n, ParsesLanguageNames) {
  EXPECT_EQ(rs::i18n::parse_lang("zh"), Lang::Zh);
  EXPECT_EQ(rs::i18n::parse_lang("zh_CN.UTF-8"), Lang::Zh);
  EXPECT_EQ(rs::i18n::parse_lang("zh-CN"), Lang::Zh);
  EXPECT_EQ(rs::i18n::parse_lang("中文"), Lang::Zh);
  EXPECT_EQ(rs::i18n::parse_lang("EN"), Lang::En);
  EXPECT_EQ(rs::i18n::parse_lang("en_GB.UTF-8"), Lang::En);
  EXPECT_FALSE(rs::i18n::parse_lang("fr"));
  EXPECT_FALSE(rs::i18n::parse_lang(""));
  EXPECT_STREQ(rs::i18n::lang_code(Lang::Zh), "zh");
  EXPECT_STREQ(rs::i18n::lang_name(Lang::Zh), "中文");
}

TEST(I18n, Utf8NextReadsOneCharacter) {
  const std::string s = "a\u4e2d\U0001F600\xff\xe4\xb8";  // a, 中, 😀, a stray byte, 中 cut short
  size_t at = 0;
  EXPECT_EQ(rs::i18n::utf8_next(s, &at), 0x61u);
  EXPECT_EQ(at, 1u);
  EXPECT_EQ(rs::i18n::utf8_next(s, &at), 0x4e2du);
  EXPECT_EQ(at, 4u);
  EXPECT_EQ(rs::i18n::utf8_next(s, &at), 0x1f600u);
  EXPECT_EQ(at, 8u);
  EXPECT_EQ(rs::i18n::utf8_next(s, &at), 0xffu);  // itself, one byte
  EXPECT_EQ(at, 9u);
  rs::i18n::utf8_next(s, &at);  // what is there of the last one
  EXPECT_EQ(at, s.size());
}

TEST(I18n, SystemLanguageFollowsTheFirstSetVariable) {
  const char* vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
  for (const char* v : vars) unsetenv(v);
  EXPECT_EQ(rs::i18n::system_language(), Lang::En);
  setenv("LANG", "zh_CN.UTF-8", 1);
  EXPECT_EQ(rs::i18n::system_language(), Lang::Zh);
  setenv("LC_ALL", "en_US.UTF-8", 1);  // LC_ALL comes before LANG
  EXPECT_EQ(rs::i18n::system_language(), Lang::En);
  for (const char* v : vars) unsetenv(v);
}

TEST_F(CatalogueEnv, SwitchesToChineseAndBack) {
  EXPECT_EQ(rs::i18n::catalogue_dir(), std::string(RS_LOCALE_DIR));
  EXPECT_STREQ(_("View"), "View");  // English until switched
  std::string why;
  ASSERT_TRUE(rs::i18n::set_language(Lang::Zh, &why)) << why;
  EXPECT_EQ(rs::i18n::language(), Lang::Zh);
  EXPECT_STREQ(_("View"), "视图");
  EXPECT_STREQ(_("a message the catalogue does not hold"), "a message the catalogue does not hold");
  EXPECT_STREQ(_(""), "");  // not the catalogue's header
  ASSERT_TRUE(rs::i18n::set_language(Lang::En));
  EXPECT_STREQ(_("View"), "View");
}

TEST_F(CatalogueEnv, DictionaryLeavesTheLanguageInForce) {
  const auto d = rs::i18n::dictionary(Lang::Zh, {"View", "not in the catalogue", ""});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].first, "View");
  EXPECT_EQ(d[0].second, "视图");
  EXPECT_EQ(rs::i18n::language(), Lang::En);
  EXPECT_STREQ(_("View"), "View");
  EXPECT_TRUE(rs::i18n::dictionary(Lang::En, {"View"}).empty());
}

TEST_F(CatalogueEnv, LanguageScopeSwitchesThisThreadForItsLifetime) {
  {
    rs::i18n::LanguageScope zh(Lang::Zh);
    EXPECT_STREQ(_("View"), "视图");
    {
      rs::i18n::LanguageScope en(Lang::En);  // nested: back to English inside
      EXPECT_STREQ(_("View"), "View");
    }
    EXPECT_STREQ(_("View"), "视图");
  }
  EXPECT_EQ(rs::i18n::language(), Lang::En);
  EXPECT_STREQ(_("View"), "View");
  ASSERT_TRUE(rs::i18n::set_language(Lang::Zh));
  { rs::i18n::LanguageScope en(Lang::En); EXPECT_STREQ(_("View"), "View"); }
  EXPECT_STREQ(_("View"), "视图");  // the language in force comes back
}

// Without the compiled catalogue, Chinese is refused with a reason that names every place looked in (issue 54), and
// every message stays English. In a fresh
// process (a "threadsafe" death test re-runs the binary), as an earlier test of this one may have bound it.
TEST(I18n, NoCatalogueStaysEnglishAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string empty = ::testing::TempDir() + "/rs-no-locale";
  std::filesystem::create_directories(empty);
  EXPECT_EXIT(
      {
        setenv("RS_LOCALEDIR", empty.c_str(), 1);
        std::string why;
        const bool ok = rs::i18n::set_language(Lang::Zh, &why);
        const bool english = rs::i18n::language() == Lang::En && std::string(_("View")) == "View";
        std::fprintf(stderr, "%s", why.c_str());
        std::exit(!ok && english && rs::i18n::catalogue_dir().empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "catalogue \\(reducescope.mo\\) is missing: looked for .*rs-no-locale/zh_CN/LC_MESSAGES/reducescope.mo");
}

}  // namespace

// tracing/'s messages (issue 38): kept untranslated, said in English by what() and in the window's language by
// said_text(), arguments and all.
namespace said_test {

// A stand-in catalogue that knows three messages, in capitals, so what was translated shows.
const char* upper(const char* msgid) {
  const std::string m = msgid;
  if (m == "%s: record %zu: %s") return "%s: RECORD %zu: %s";
  if (m == "%s index %d") return "%s INDEX %d";
  if (m == "global load") return "GLOBAL LOAD";
  return msgid;
}

}  // namespace said_test

TEST(Said, FormatsItsArgumentsAndCopiesStrings) {
  rs::Said s;
  {
    std::string name = "run.rstrace";
    const char* part = "record section";  // a pointer into a string that is about to go
    s = rs::Said("%s: %zu of %s (%.1f%%)", name.c_str(), size_t{3}, std::string(part), 12.5);
    name.assign(name.size(), 'x');
  }
  EXPECT_EQ(s.say(), "run.rstrace: 3 of record section (12.5%)");
  EXPECT_STREQ(s.id(), "%s: %zu of %s (%.1f%%)");
  EXPECT_FALSE(s.empty());
  EXPECT_TRUE(rs::Said().empty());
  EXPECT_EQ(rs::Said().say(), "");
  EXPECT_EQ(rs::Said("no arguments").say(), "no arguments");
}

TEST(Said, SaysTermsAndNestedMessagesInItsLanguage) {
  const rs::Said inner("%s index %d", rs::Term{"global load"}, 7);
  const rs::Said outer("%s: record %zu: %s", rs::Said::verbatim("run.rstrace"), size_t{2}, inner);
  EXPECT_EQ(outer.say(), "run.rstrace: record 2: global load index 7");
  // The verbatim name stays as it is; the formats and the term are looked up.
  EXPECT_EQ(outer.say(&said_test::upper), "run.rstrace: RECORD 2: GLOBAL LOAD INDEX 7");
  const rs::SaidError e(outer);
  EXPECT_STREQ(e.what(), "run.rstrace: record 2: global load index 7");
  EXPECT_EQ(e.said().say(&said_test::upper), "run.rstrace: RECORD 2: GLOBAL LOAD INDEX 7");
  const std::runtime_error plain("as it is");
  EXPECT_EQ(rs::said_text(plain), "as it is");
}

// A file that is not a trace: English in what() (the CLI's), Chinese in the window, the file type too.
TEST_F(CatalogueEnv, TraceErrorsAreSaidInTheWindowsLanguage) {
  std::string english, chinese;
  try {
    rs::parse_trace(std::string(64, 'x'), "bad.rstrace");
    FAIL() << "parse_trace took 64 bytes of x";
  } catch (const rs::TraceFormatError& e) {
    english = e.what();
    ASSERT_TRUE(rs::i18n::set_language(Lang::Zh));
    chinese = rs::said_text(e);
  }
  EXPECT_EQ(english, "bad.rstrace: not a ReduceScope trace (bad magic bytes)");
  using rs::i18n::strf;
  const std::string expect =
      strf(_("%s: %s"), "bad.rstrace", strf(_("not a ReduceScope %s (bad magic bytes)"), _("trace")).c_str());
  EXPECT_EQ(chinese, expect);
  EXPECT_EQ(chinese.find("magic"), std::string::npos) << chinese;
  EXPECT_NE(chinese.find("bad.rstrace"), std::string::npos) << chinese;
}
