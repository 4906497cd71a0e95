# Embeds the web page's sources (web/replay.html, web/replay.css and the script's modules under
# web/js/) into web_assets.cpp as raw strings, as kernels/CMakeLists.txt embeds the kernel sources.
# Each file is cut into pieces of at most 16 KiB (sane literal sizes for any compiler). A change to
# a file re-runs the configure step.
#
# The files must be plain ASCII (non-ASCII text is written as HTML entities or JS \u escapes),
# must not hold the raw-string delimiter, and the CSS and JS must not close their element early.
set(RS_WEB_DIR ${PROJECT_SOURCE_DIR}/web)
set(RS_WEB_CHUNK 16384)

# The page's script: one function scope cut into modules, joined in this order (the only place the
# order is written). The first opens the scope, the last closes it; the ones between are its sections,
# indented as its body. A new file under web/js/ goes here (the WebExport tests fail on a .js file that
# is not listed). The tests get the list as RS_WEB_JS_FILES (the global property of that name).
set(RS_WEB_JS_FILES
  00-head.js               # the page's header comment and index; opens the function scope
  errors.js                # every failure shown in #rs-error; the window.rs hook object
  i18n.js                  # the page's words in English or Chinese: t(), data-t, the switch
  decode.js                # base64 -> container (length, CRC-32) -> parts -> zlib -> JSON
  values.js                # 32-bit values, masks, HTML text and step ranges for people
  prepare.js               # one trace's steps: snapshots rebuilt from the per-step deltas
  state.js                 # selection, stepping, playing; the keys
  canvas.js                # canvas sizing and the grid of cells
  views-step.js            # the kernel list, note and source, the step's views; shared memory, warps x lanes
  views-banks.js           # the bank view (the lanes -> banks figure) and its hover
  views-lanes-global.js    # lanes (shuffles), atomics, global memory
  predict.js               # Predict mode: a question before each step, graded by the trace; lessons; answers
  timings-axes.js          # the timing tabs' colours, axis ticks, label placement, the line chart
  timings.js               # median time per kernel, time against block size, the N sweep, the table
  views-multigpu.js        # the multigpu track: the ring step by step and its measured timeline
  timings-multigpu.js      # the multigpu track: busbw against size with the P2P copy, the tables
  tail.js                  # start, the window.rs test hook, loading the data block; closes the scope
)
set_property(GLOBAL PROPERTY RS_WEB_JS_FILES ${RS_WEB_JS_FILES})

function(rs_embed_web_file file var)
  set(path ${RS_WEB_DIR}/${file})
  file(READ ${path} content)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
  string(FIND "${content}" ")RSWEB\"" bad_delim)
  if(NOT bad_delim EQUAL -1)
    message(FATAL_ERROR "${path} holds the raw-string delimiter )RSWEB\"")
  endif()
  string(REGEX MATCH "[^\t\n\r -~]" non_ascii "${content}")
  if(non_ascii)
    message(FATAL_ERROR "${path} is not plain ASCII: write other characters as HTML entities or \\u escapes")
  endif()
  string(TOLOWER "${content}" lower)
  if(NOT file MATCHES "\\.html$")
    string(FIND "${lower}" "</script" close_script)
    string(FIND "${lower}" "</style" close_style)
    if(NOT close_script EQUAL -1 OR NOT close_style EQUAL -1)
      message(FATAL_ERROR "${path} holds </script or </style, which would end its element in the page")
    endif()
  endif()
  string(LENGTH "${content}" len)
  set(out "")
  set(pos 0)
  while(pos LESS len)
    string(SUBSTRING "${content}" ${pos} ${RS_WEB_CHUNK} piece)
    string(APPEND out "R\"RSWEB(${piece})RSWEB\",\n")
    math(EXPR pos "${pos} + ${RS_WEB_CHUNK}")
  endwhile()
  if(out STREQUAL "")
    set(out "\"\",\n")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

rs_embed_web_file(replay.html RS_WEB_HTML)
rs_embed_web_file(replay.css RS_WEB_CSS)
set(RS_WEB_JS "")
foreach(module IN LISTS RS_WEB_JS_FILES)
  rs_embed_web_file(js/${module} pieces)
  string(APPEND RS_WEB_JS "${pieces}")
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/web_assets.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/web_assets.cpp @ONLY)
