// `reducescope serve` (issue 55, docs/serve.md): the course's GPU machine serves each student a page where they
// write a kernel, Run it (compiled with NVRTC, its sums checked against the CPU on the GPU) or Check it (the
// exercise's checks and the profiler's report, as `check --json`), and the instructor a page with the class's
// latest verdicts, live. HTTP from cpp-httplib (Debian's libcpp-httplib-dev), the class's store in SQLite
// (store.hpp), the runs in worker processes (runner.hpp). docs/serve.md shows it behind nginx with TLS.
//
// Every request but the landing page and the page's own files carries a token: the page's path /s/TOKEN or
// /i/TOKEN, the API's "Authorization: Bearer TOKEN" (or ?token= for the event stream, which EventSource cannot give
// a header). A student sees their own submissions only; the instructor everyone's. What the server acknowledges
// (a 202 with the submission's id) is in the store before the reply.
//
// Limits, each with its message: the source's size (max_source bytes, 413), submissions per minute and requests
// per minute per token (429), one run in flight and one waiting per student (429), the kernel's time and the
// run's wall time (runner.hpp), the output's size (runner.cpp).
//
// Index
//   ServeOptions   where it listens, the store, the roster, the runner, the limits
//   serve()        runs the server until SIGINT or SIGTERM: the exit code
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

#include "runner.hpp"

namespace rs::serve {

struct ServeOptions {
  std::string listen = "127.0.0.1";  // --listen ADDR
  int port = 8471;                   // --port P (0: any free port, printed)
  std::filesystem::path data;        // --data DIR: class.sqlite, links.txt, runs/
  std::filesystem::path roster;      // --roster FILE.csv ("": the store's people as they are)
  std::filesystem::path session;     // --session FILE: the traces the room's questions are asked of ("": none)
  RunnerOptions runner;
  size_t max_source = 64 * 1024;     // bytes of a kernel file
  int submits_per_minute = 12;       // per student
  int requests_per_minute = 600;     // per token, every API request
  std::string codemirror_dir = "/usr/share/javascript/codemirror";  // Debian's libjs-codemirror
};

// Serves until SIGINT or SIGTERM. Prints the new private links (once: each person's link when the roster first
// names them; DATA/links.txt, readable by its owner only, keeps them all), then "serving on http://ADDR:PORT".
// Exit: 0 stopped by a signal, 1 the store or the port could not be opened (said on `err`).
int serve(const ServeOptions& o, std::ostream& out, std::ostream& err);

}  // namespace rs::serve
