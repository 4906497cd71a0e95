// The web page's sources (web/replay.html, web/replay.css, the script's modules under web/js/), embedded
// into the binary at configure time (app/export/embed_web.cmake, web_assets.cpp.in). Internal to the web export.
#pragma once

#include <string>

namespace rs {

const std::string& web_asset_html();  // the page template with @@RS_*@@ markers (web_export.cpp fills them)
const std::string& web_asset_css();
const std::string& web_asset_js();  // one script: web/js/ joined in the order of RS_WEB_JS_FILES (embed_web.cmake)

}  // namespace rs
