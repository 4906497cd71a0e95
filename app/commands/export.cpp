// `reducescope export`: a session's timing charts (PNG, SVG, PDF, CSV; app/export/charts.hpp, only in
// builds with cairo), the bandwidth-against-N sweep from `bench --csv` files, or one web page that
// replays the session in a browser (--html; app/export/web_export.hpp, in every build).
#include "commands.hpp"
#include "lessons.hpp"

#include <ostream>
#include <string>

#include "common.hpp"
#ifdef REDUCESCOPE_HAS_CHARTS
#include "charts.hpp"
#endif
#include "trace_io.hpp"
#include "web_export.hpp"  // and i18n.hpp

namespace rs {

using namespace cmd;

// export SESSION --html FILE: the web page (app/export/web_export.hpp). Its errors reach `guarded`.
// A trace file (`trace --out`, a binary trace of any program) becomes a session of that one trace, with no timings.
static Session session_of(const std::string& path) {
  if (is_session_file(path)) return load_session(path);
  Session s;
  Trace t = load_trace(path);
  s.meta.gpu = t.meta.gpu;
  s.meta.compute_capability = t.meta.compute_capability;
  s.meta.cuda_version = t.meta.cuda_version;
  s.meta.date = t.meta.date;
  s.meta.tool_version = t.meta.tool_version;
  s.meta.pattern = t.meta.pattern;
  s.meta.n = t.meta.n;
  s.meta.method = "no timings: one trace (" + path.substr(path.find_last_of('/') + 1) + ")";
  s.traces.push_back(std::move(t));
  return s;
}

static int run_export_html(const Options& o, std::ostream& out, std::ostream& err) {
  const Session s = session_of(o.file);
  WebExportOptions w;
  w.block_sizes.assign(o.block_sizes.begin(), o.block_sizes.end());
  w.session_name = o.file.substr(o.file.find_last_of('/') + 1);  // npos + 1 == 0: no folder
  if (!o.lang.empty()) w.lang = *i18n::parse_lang(o.lang);
  if (!o.lesson.empty()) {  // the bundled lessons, and this one (in place of a bundled one of the same name)
    w.lessons = bundled_lessons();
    Lesson mine = load_lesson(o.lesson);
    std::erase_if(w.lessons, [&](const Lesson& l) { return l.name == mine.name; });
    w.lessons.push_back(std::move(mine));
  }
  if (w.lang == i18n::Lang::Zh && i18n::catalogue_dir().empty()) {
    err << "reducescope export: --lang zh: the Chinese catalogue (locale/zh_CN/LC_MESSAGES/reducescope.mo) is not "
           "installed beside reducescope; rebuild with gettext installed (scripts/setup.sh)\n";
    return kExitUsage;
  }
  const WebExportResult r = export_web_page(s, o.html, w);
  out << "web page of " << s.meta.gpu << " (" << s.meta.date << ") written to " << r.path << ": " << r.bytes
      << " bytes, " << r.traces << " of " << r.traces_in_session << " traces"
      << (s.multigpu.empty() ? "" : ", the multi-GPU recording") << "\ntraces held (threads per block):";
  for (const auto& [track, sizes] : r.held) {
    out << " " << track;
    for (size_t i = 0; i < sizes.size(); ++i) out << (i ? "," : " ") << sizes[i];
    out << ";";
  }
  out << "\n";
  if (w.lang == i18n::Lang::Zh) out << "the page opens in Chinese (its switch shows English)\n";
  if (r.traces < r.traces_in_session) out << "the page says the other traces are in " << o.file << "\n";
  if (r.over_budget) {
    err << "reducescope export: warning: the page is " << r.bytes << " bytes, more than " << kWebPageBudget
        << " with only each track's default block size\n";
  }
  return kExitOk;
}

int run_export(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("export", err, [&] {
    if (!o.html.empty()) return run_export_html(o, out, err);  // one web page (needs no chart export)
#ifdef REDUCESCOPE_HAS_CHARTS
    if (o.sweep) {
      const Sweep sweep = sweep_from_bench_csv(read_text_file(o.file));
      const ChartFiles files = export_sweep(sweep, o.out,
                                                             "`reducescope bench` method: 3 warm-ups, L2 flushed before "
                                                             "each sample, CUDA events around the whole reduction, median");
      out << "sweep of " << sweep.gpu << " written to " << o.out << ":\n";
      for (const auto& p : files.paths) out << "  " << p << "\n";
      return kExitOk;
    }
    const Session s = load_session(o.file);
    // The timing charts, the session's N sweep (`reducescope sweep`) and multi-GPU recording (`record --track multigpu`).
    const ChartFiles files = export_session(s, o.out, o.block_sizes.empty() ? 0 : o.block_sizes[0]);
    out << "charts of " << s.meta.gpu << " (" << s.meta.date << ") written to " << o.out << ":\n";
    for (const auto& p : files.paths) out << "  " << p << "\n";
    return kExitOk;
#else
    (void)o;
    (void)out;
    err << "reducescope export: this build has no chart export (built with REDUCESCOPE_CHARTS=OFF)\n";
    return kExitRuntime;
#endif
  });
}

}  // namespace rs
