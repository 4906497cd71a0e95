// The served pages' files (web/serve/), embedded at configure time (app/serve/embed.cmake), and the words their
// script says (each t("...") of web/serve/serve.js, read from the embedded script: listed once, there).
#pragma once

#include <string>
#include <vector>

namespace rs::serve {

const std::string& serve_asset_page();     // web/serve/page.html: the student's and the instructor's page
const std::string& serve_asset_landing();  // web/serve/landing.html: "/" and an unknown link
const std::string& serve_asset_js();       // web/serve/serve.js
const std::string& serve_asset_css();      // web/serve/serve.css

// Every t("...") literal of serve.js, once each: the msgids /api/words translates.
const std::vector<const char*>& serve_page_words();

}  // namespace rs::serve
