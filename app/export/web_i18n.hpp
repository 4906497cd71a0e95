// The web page's words in Chinese (issue 31, docs/chinese.md): the dictionary the exporter writes into the page,
// looked up with gettext in the same catalogue the window reads (po/zh_CN.po, i18n/i18n.hpp). Internal to
// app/export/ (web_export.cpp calls it) and its tests.
#pragma once

#include <string>
#include <vector>

#include "i18n.hpp"

namespace rs::webi18n {

// The messages the page's own sources hold, in the order found, each once: the first argument of every
// t('...') / t("...") call in `js` (string literals joined with +, JavaScript escapes \n \t \\ \' \" \uXXXX
// decoded to UTF-8), and the value of every data-t, data-t-html and data-t-title attribute in `html`. The same
// messages `xgettext -L JavaScript -kt` collects (po/update.sh; test_web_i18n.cpp checks it).
std::vector<std::string> page_messages(const std::string& js, const std::string& html);

// Every text the page shows from the kernel table (track titles and sources, kernel titles, fixes, costs,
// min_block_why, pitfall words) and the notes the index carries: the page passes them through t() too.
std::vector<std::string> data_messages();

// The JSON the page reads from its #rs-i18n element: {"lang":"zh"|"en","zh":{msgid: translation, ...}}, with
// the `catalogue`'s translations (i18n::dictionary of page_messages() and data_messages()), the first of each msgid
// ('<' written \u003c). The dictionary is empty where the catalogue is not found (the page then hides its switch
// and stays English). `lang` is the language the page opens in. (The exporter composes no sentence of its own: every
// sentence it sends is an explain id with arguments, whose translation the catalogue holds.)
std::string dictionary_json(i18n::Lang lang, const std::vector<std::pair<std::string, std::string>>& catalogue);

}  // namespace rs::webi18n
