# Embeds the served pages' files (web/serve/) into serve_assets.cpp as raw-string pieces, with the web export's
# rs_embed_web_file (export/embed_web.cmake: plain ASCII, no delimiter, no early </script> in the script and the
# style sheet; a change re-runs configure).
rs_embed_web_file(serve/page.html RS_SERVE_PAGE)
rs_embed_web_file(serve/landing.html RS_SERVE_LANDING)
rs_embed_web_file(serve/serve.js RS_SERVE_JS)
rs_embed_web_file(serve/serve.css RS_SERVE_CSS)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/serve/serve_assets.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/serve_assets.cpp @ONLY)
