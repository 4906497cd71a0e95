// The page's words in Chinese (issue 31, app/export/web_i18n.hpp): the messages the exporter finds in the page's
// sources are the ones xgettext collects into the catalogue; the dictionary it writes; a page exported in Chinese.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "session.hpp"
#include "web_assets.hpp"
#include "web_export.hpp"
#include "web_i18n.hpp"

namespace {

namespace fs = std::filesystem;
using rs::i18n::Lang;

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A PO string line's text between its quotes, C escapes undone.
std::string po_string(const std::string& line, size_t open_quote) {
  std::string v;
  for (size_t i = open_quote + 1; i + 1 < line.size(); ++i) {
    if (line[i] == '\\' && i + 2 < line.size()) {
      const char c = line[++i];
      v += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      v += line[i];
    }
  }
  return v;
}

// The msgids of a .pot (a msgid with a newline continues on "..." lines), the header's "" left out.
std::set<std::string> pot_msgids(const std::string& pot) {
  std::set<std::string> out;
  std::istringstream in(pot);
  std::string cur;
  bool in_msgid = false;
  auto flush = [&] {
    if (in_msgid && !cur.empty()) out.insert(cur);
    cur.clear();
    in_msgid = false;
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("msgid \"", 0) == 0) {
      flush();
      in_msgid = true;
      cur = po_string(line, 6);
    } else if (in_msgid && line.rfind("\"", 0) == 0) {
      cur += po_string(line, 0);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

// The page's dictionary element: packed as the data block is (base64 of a one-part container), its language in
// data-lang; the JSON inside, whose "lang" must agree.
nlohmann::json page_dictionary(const std::string& page) {
  const size_t tag = page.find("id=\"rs-i18n\"");
  const size_t a = page.find(">\n", tag);
  const size_t b = page.find("\n</script>", a);
  if (tag == std::string::npos || a == std::string::npos || b == std::string::npos) return nullptr;
  const std::vector<std::string> parts = rs::decode_web_data(page.substr(a + 2, b - a - 2));
  if (parts.size() != 1) return nullptr;
  nlohmann::json j = nlohmann::json::parse(parts[0]);
  const size_t lang = page.find("data-lang=\"", tag);
  if (lang == std::string::npos || lang > a || page.compare(lang + 11, 2, j["lang"].get<std::string>()) != 0) {
    return nullptr;  // the element's language and the dictionary's must agree
  }
  return j;
}

TEST(WebI18n, FindsTheArgumentsOfTAndTheDataAttributes) {
  const std::string js =
      "var a = t('one'), b = t(\"two \\\"quoted\\\"\"), c = t('three ' +\n    'joined', x);\n"
      "not('no'); set('no'); x.t('no'); t(name); t('times \\u00d7 {0}', 2); t('one');\n";
  const std::string html = "<h3 data-t=\"Shared memory\">Shared memory</h3><b data-t-html=\"<b>bold</b> words\"></b>"
                           "<button data-t-title=\"First step (Home)\">|&lt;</button><i xdata-t=\"no\"></i>";
  const std::vector<std::string> got = rs::webi18n::page_messages(js, html);
  const std::vector<std::string> want = {"one", "two \"quoted\"", "three joined", "times \u00d7 {0}", "Shared memory",
                                         "<b>bold</b> words", "First step (Home)"};
  EXPECT_EQ(got, want);
}

// The exporter looks up exactly what xgettext puts in the catalogue for the page (po/update.sh's commands), so no
// word of the page is collected by one and missed by the other.
TEST(WebI18n, PageMessagesAreTheCataloguesPageMessages) {
  if (std::system("command -v xgettext > /dev/null 2>&1") != 0) GTEST_SKIP() << "no xgettext (Debian: gettext)";
  const fs::path dir = fs::path(::testing::TempDir()) / "rs-web-i18n";
  fs::create_directories(dir);
  const std::string web = RS_WEB_DIR;
  const std::string cmd =
      "cd '" + web + "' && grep -o 'data-t\\(-html\\|-title\\)\\?=\"[^\"]*\"' replay.html | "
      "sed 's/^data-t[a-z-]*=\\(.*\\)$/t(\\1);/' > '" + (dir / "html.js").string() + "'; "
      "xgettext --from-code=UTF-8 --no-wrap -L JavaScript -kt -o '" + (dir / "page.pot").string() + "' js/*.js '" +
      (dir / "html.js").string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::set<std::string> xgettext = pot_msgids(read(dir / "page.pot"));
  const std::vector<std::string> found = rs::webi18n::page_messages(rs::web_asset_js(), rs::web_asset_html());
  const std::set<std::string> ours(found.begin(), found.end());
  for (const std::string& m : xgettext) EXPECT_TRUE(ours.count(m)) << "xgettext only: " << m;
  for (const std::string& m : ours) EXPECT_TRUE(xgettext.count(m)) << "exporter only: " << m;
  EXPECT_GT(ours.size(), 5u);
}

struct CatalogueEnv : ::testing::Test {
  void SetUp() override { setenv("RS_LOCALEDIR", RS_LOCALE_DIR, 1); }
  void TearDown() override { unsetenv("RS_LOCALEDIR"); }
};

TEST_F(CatalogueEnv, DictionaryHoldsTranslationsAndSentences) {
  auto catalogue = rs::i18n::dictionary(Lang::Zh, {"View", "not in the catalogue"});
  catalogue.insert(catalogue.end(), {{"A sentence.", "一句话。"}, {"astral", "\U0001F600"}, {"View", "not the first"}});
  const std::string text = rs::webi18n::dictionary_json(Lang::Zh, catalogue);
  for (const char c : text) ASSERT_LT(static_cast<unsigned char>(c), 0x80) << "the page stays ASCII: " << text;
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["zh"]["astral"], "\U0001F600");  // a surrogate pair
  EXPECT_EQ(j["lang"], "zh");
  EXPECT_EQ(j["zh"]["View"], "视图");
  EXPECT_FALSE(j["zh"].contains("not in the catalogue"));
  EXPECT_EQ(j["zh"]["A sentence."], "一句话。");
  const std::string raw = rs::webi18n::dictionary_json(Lang::En, {{"<b>x</b>", "<b>y</b>"}});
  EXPECT_EQ(raw.find("</"), std::string::npos) << raw;  // never "</script>" inside the page
}

// A page exported in Chinese opens in Chinese and carries the translations of its words and of the sentences the
// exporter composed; in English it carries the same dictionary (for its switch) and opens in English.
TEST_F(CatalogueEnv, PageCarriesTheDictionary) {
  const rs::Session s = rs::load_session(RS_TRACKS_SESSION_FILE);
  rs::WebExportOptions o;
  o.block_sizes = {256};
  o.lang = Lang::Zh;
  const std::string zh_page = rs::web_page(s, o);
  for (const char c : zh_page) ASSERT_LT(static_cast<unsigned char>(c), 0x80) << "the Chinese page stays ASCII";
  EXPECT_NE(zh_page.find("<title>ReduceScope &#x56de;&#x653e;&#xff1a;NVIDIA H100"), std::string::npos)
      << "the title in Chinese (回放：)";
  const nlohmann::json zh = page_dictionary(zh_page);
  ASSERT_FALSE(zh.is_null());
  EXPECT_EQ(zh["lang"], "zh");
  o.lang = Lang::En;
  const nlohmann::json en = page_dictionary(rs::web_page(s, o));
  EXPECT_EQ(en["lang"], "en");
  EXPECT_EQ(en["zh"], zh["zh"]);
  // A track's title from the kernel table, and a sentence the exporter composed (the bank view's words for a
  // step with no shared access), each with its Chinese.
  const nlohmann::json& d = zh["zh"];
  ASSERT_TRUE(d.contains("Harris: Optimizing Parallel Reduction in CUDA"));
  EXPECT_NE(d["Harris: Optimizing Parallel Reduction in CUDA"].get<std::string>().find("归约"), std::string::npos);
  ASSERT_TRUE(d.contains("No shared load or store in this step."));
  EXPECT_NE(d["No shared load or store in this step."].get<std::string>().find("共享"), std::string::npos);
  EXPECT_EQ(rs::i18n::language(), Lang::En);  // exporting leaves the process's language alone
}

}  // namespace
