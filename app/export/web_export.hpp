// One self-contained web page that replays a recorded session in any browser: no install, no
// network (students on Windows, macOS and ChromeOS laptops). Used by `reducescope export SESSION
// --html FILE.html` and by the window's File > Export > Web page.
//
// Index
//   WebExportError     what every failure raises
//   WebExportOptions   which block sizes, the byte budget
//   WebExportResult    what one export wrote: bytes, block sizes and traces held
//   web_page()         the page as a string;  export_web_page(): the page into a file
//   Data format        kWebDataMagic, kWebDataVersion, decode helpers for the tests
//
// The steps come from the C++ replay model (tracing/replay.hpp) at export time: the page only
// draws them, it never replays a trace itself. The page's HTML, CSS and JavaScript are the files
// under web/, embedded into this library at build time. No cairo, no GL: it builds with
// REDUCESCOPE_CHARTS=OFF and REDUCESCOPE_GUI=OFF.
//
// The data block. The page holds one <script type="application/octet-stream" id="rs-data">
// element whose text is the base64 of a container (little-endian):
//   8 bytes  magic "RSWEB\0\0\0"
//   u32      container version (kWebDataVersion)
//   u32      part count P (>= 1)
//   u32      byte length of everything after this 24-byte header
//   u32      CRC-32 (zlib's crc32) of everything after this 24-byte header
//   P times: u32 compressed size, u32 uncompressed size, then that many bytes of zlib-compressed
//            UTF-8 JSON
// Part 0 is the index: the session's metadata, tracks and kernels (the registry,
// kernels/kernel_info.hpp), the timing table with each timing's launch count, the N sweep
// (Session::sweep), profiler and pitfall metrics, the kernel sources, the multi-GPU recording ("multigpu",
// only when the session has one: rows, traced rings; tracing/multigpu.hpp), and the list of traces with
// the part that holds each and where (byte offset and length); the page draws the timing table and charts from it.
// Parts 1..P-1 are one kernel's traces each (every block size and element type the page holds, registry order, the
// JSON texts one per line: deflate finds what they share); each trace holds the replay's steps as deltas
// (shared-memory cells whose value changed, cells written and read, per warp masks, the step's warp accesses with
// their lane addresses, bank words and n-way degree, shuffles, atomics, global requests with sectors and efficiency,
// lines). docs/web-export.md
// describes every field. The page checks the length and the CRC, inflates the index at load and
// a kernel's part when one of its traces is opened (the browser's DecompressionStream("deflate")), and shows any
// failure as a visible message.
//
// Size. A session may be larger than a page should be; by default the page keeps each track's default block size
// (TrackInfo::default_block_size, each kernel's int32 trace where it has int32 and float32), then as many other
// block sizes as fit `max_bytes`, cheapest first, then the float32 traces beside int32 ones (the page's int32 /
// float32 switch, issue 30), one track and block size at a time, cheapest first. The page says which block sizes it
// holds and that the full session is in the .rssession file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "i18n.hpp"
#include "lessons.hpp"
#include "session.hpp"

namespace rs {

// A session with neither traces nor a multi-GPU recording, a block-size choice the session cannot serve, a trace the replay
// model refuses, or a file that cannot be written. what() is one line naming the problem.
class WebExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The default byte budget of a page: 3.5 MB (3,500,000 bytes), what a page mailed or put on a
// course site should stay under (the bundled H100 session, every trace of every track: 3.24 MB).
inline constexpr size_t kWebPageBudget = 3'500'000;

struct WebExportOptions {
  // Threads per block whose traces the page holds. Empty: each track's default block size, then
  // as many other block sizes as fit `max_bytes`. Non-empty: exactly these (every one must have at
  // least one trace in the session), whatever the size.
  std::vector<uint32_t> block_sizes;
  size_t max_bytes = kWebPageBudget;  // bytes of the whole page, for the default choice
  std::string session_name;           // the session's file name, shown in the page ("" : not shown)
  i18n::Lang lang = i18n::Lang::En;   // the language the page opens in; it holds the Chinese dictionary either way
                                      // (web_i18n.hpp) and switches in place
  std::vector<Lesson> lessons;        // Predict mode's lessons (app/lessons/lessons.hpp); empty: the bundled ones
};

struct WebExportResult {
  std::string path;                   // the file written (export_web_page), "" from web_page()
  size_t bytes = 0;                   // size of the page, bytes
  size_t data_bytes = 0;              // of which the base64 data block, bytes
  size_t traces = 0;                  // traces the page holds
  size_t traces_in_session = 0;       // traces the session holds, one per kernel, block size and element type (the
                                      // source probe's where the binary tracer's is there too)
  size_t second_types = 0;            // of `traces`, float32 traces beside the same kernel's int32 one (the switch)
  std::vector<uint32_t> block_sizes;  // block sizes of which the page holds every kernel's first trace (the int32 one
                                      // where it has two), ascending
  std::map<std::string, std::vector<uint32_t>> held;  // per track id: block sizes held, ascending
  bool over_budget = false;           // default choice only: even each track's default block size
                                      // alone did not fit max_bytes (the page holds them anyway)
};

// The page for `s`: one HTML document with the CSS, the JavaScript and the data block inline.
// Throws WebExportError (see above). `result` (may be null) receives what the page holds.
std::string web_page(const Session& s, const WebExportOptions& options = {}, WebExportResult* result = nullptr);

// Writes web_page() to `path` through a temporary file renamed into place (an existing file is
// replaced; a failed export leaves none). Throws WebExportError.
WebExportResult export_web_page(const Session& s, const std::string& path, const WebExportOptions& options = {});

// ---- The data format, for the tests and for tools that read a page ----------------------------

inline constexpr char kWebDataMagic[8] = {'R', 'S', 'W', 'E', 'B', 0, 0, 0};
inline constexpr uint32_t kWebDataVersion = 1;
// The version of the page's features (its views, Predict mode, the lessons), written in the page's
// <meta name="reducescope-page-version">. Raised when a committed page must be exported again to show what the
// exporter now makes: the README's page (docs/replay/h100-tracks.html) is checked against it (tests/test_web_export.cpp),
// so that it is re-exported when its features change, and not on every commit (issue 57, item 6).
//   1  pages that do not say (before Predict mode)
//   2  Predict mode, class mode and the lessons (issue 39)
//   3  the pitfalls lesson: questions of the pitfalls' runs and racecheck's races (issue 57)
inline constexpr uint32_t kWebPageVersion = 3;

// The features version a page says (web_page_version's <meta>), 1 where it says none.
uint32_t web_page_version(const std::string& page);

// The JSON of one trace's part (see docs/web-export.md); `source_index` is the index of its source
// text in the index part's "sources". Throws ReplayError as Replay does.
std::string web_trace_json(const Trace& trace, int source_index);

// The text between the data block's tags in `page`. Throws WebExportError if there is none.
std::string web_data_block(const std::string& page);
// The parts of a data block (base64 text), inflated: [0] the index JSON, then one part per kernel (its traces' JSON
// texts, one per line). Checks the magic, the version, the lengths and the CRC; throws WebExportError naming the
// problem.
std::vector<std::string> decode_web_data(const std::string& base64);

// One trace's JSON text from decoded parts, where the index's trace entry says it is: `part`, the byte offset `at`
// and the length `bytes`. Throws WebExportError when that is outside the parts.
std::string web_trace_text(const std::vector<std::string>& parts, size_t part, size_t at, size_t bytes);

}  // namespace rs
