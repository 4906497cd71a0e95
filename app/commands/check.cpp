// reducescope check FILE.cu [--exercise NAME [--json]] | --list: a kernel file of the user's compiled with NVRTC in
// both builds (no GPU needed; kernels/user_kernel.hpp), then, on a GPU, its sums checked against the CPU
// (kernels/user_kernel_gpu.hpp), or an exercise's checks judged from its runs, traces and timing
// (app/exercises.hpp). main.cpp runs this in a worker process (app/worker.hpp) with a time limit.
// --lang zh|en: the language of the exercise's words in the output (its title, the checks' names, figures and
// hints). --json carries the checks as message ids with their arguments (check_record.hpp), so the window, grade and
// serve say them in their reader's language without it. The command's own lines stay English, as every CLI message
// does (docs/chinese.md); without --lang everything is English.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>

#include "commands.hpp"
#include "common.hpp"
#include "exercises.hpp"
#include "gpu_lock.hpp"
#include "i18n.hpp"
#include "attach.hpp"
#include "plain_trace.hpp"
#include "sanitize_check.hpp"
#include "trace_queue.hpp"
#include "user_kernel.hpp"
#include "user_kernel_gpu.hpp"

namespace rs {

using namespace cmd;

namespace {

// "2 elements per thread, repeated launches, 64 threads per block or more"
std::string shape_words(const UserLaunchShape& s) {
  return std::to_string(s.inputs_per_thread) + (s.inputs_per_thread == 1 ? " element" : " elements") +
         " per thread, " + to_string(s.finish) + ", " + std::to_string(s.min_block_size) +
         " threads per block or more";
}

// The sizes and block sizes a kernel is checked at: N = 1 and N below, at and past a block and a grid pass,
// not powers of two (the N = 1, 33, 1000003) and 2^24; every block size the shape allows.
const std::vector<uint64_t> kCheckNs = {1, 33, 1000, 4097, 1000003, 1u << 24};

int check_sums(const UserKernel& k, const Options& o, std::ostream& out) {
  std::vector<unsigned> sizes(kBlockSizes.begin(), kBlockSizes.end());
  const std::vector<UserSumCheck> checks = check_user_kernel_sums(k, kCheckNs, sizes);
  int wrong = 0;
  for (const UserSumCheck& c : checks) {
    out << "  " << to_string(c.type) << "  N = " << c.n << "  B = " << c.block_size << "  " << c.launches
        << (c.launches == 1 ? " launch  " : " launches  ") << (c.right ? "right: " : "WRONG: got ") << (c.result_unwritten ? with_unwritten_note(c.got) : c.got);
    if (!c.right) out << ", expected " << c.expected;
    out << "\n";
    wrong += c.right ? 0 : 1;
  }
  // A single-pass kernel whose ticket counter is not back at 0 (issue 29): say so once, it is why the next runs fail.
  for (const UserSumCheck& c : checks) {
    if (!c.ticket_after || *c.ticket_after == 0) continue;
    out << "  the ticket counter out[1] is " << *c.ticket_after << " after the run at N = " << c.n
        << ", B = " << c.block_size << ", not 0: the block that draws the last ticket must set it back to 0 (or take"
        << " the ticket with atomicInc(&out[1], gridDim.x - 1), which wraps), or the next launch's tickets never"
        << " reach the last one\n";
    break;
  }
  if (wrong) {
    out << o.file << ": " << wrong << " of " << checks.size() << " sums WRONG\n";
    return kExitRuntime;
  }
  out << o.file << ": all " << checks.size() << " sums right on the GPU (" << k.arch << ")\n";
  return kExitOk;
}

// The timed check's two medians (ms), the user's kernel's and the reference kernel's, with the GPU to this process:
// other processes' timed checks wait (gpu_lock.hpp). The user's run is marked as GPU work that may never finish
// (UserGpuBusy: in a worker process, the parent stops it at the time limit).
template <class User, class Reference>
void time_against_reference(ExerciseEvidence& e, User user_ms, Reference reference_ms) {
  const GpuTimingLock lock;
  e.timing_waited_ms = lock.waited_ms();
  {
    const UserGpuBusy busy;
    e.user_ms = user_ms();
  }
  e.reference_ms = reference_ms();
}

// The exercise histogram: the user's user_histogram over the text at each of x.ns bytes and every block size, each
// bin against the CPU; then both medians on 2^26 bytes against the reference kernel.
ExerciseEvidence gather_histogram(const UserKernel& k, const Exercise& x, const std::string& name,
                                  double kernel_timeout_s) {
  GpuReducer gpu;
  const LoadedUserKernel loaded(k, name);
  const ExternalHistogram& h = loaded.histogram();
  // compute-sanitizer's three tools on `run --kernel-file` of the histogram at every block size, begun now (issue 57).
  SanitizerRuns sanitizers(k, std::vector<unsigned>(kBlockSizes.begin(), kBlockSizes.end()),
                           static_cast<uint32_t>(gpu.device().reserved_smem_bytes), kernel_timeout_s);
  ExerciseEvidence e;
  e.shared_atomics = k.timing.ptx.find("atom.shared") != std::string::npos ||
                     k.timing.ptx.find("red.shared") != std::string::npos;
  for (uint64_t n : x.ns) {
    const std::vector<uint8_t> text = make_histo_input(HistoInput::Text, n);
    const std::vector<uint32_t> want = cpu_histogram(text, HistoBins::Letters7);
    gpu.set_histogram_input(text, HistoBins::Letters7, "text");
    for (unsigned bs : kBlockSizes) {
      ExerciseRun r;
      r.n = n;
      r.block_size = bs;
      r.launches = 1;
      r.grid = gpu.histogram_grid(h, bs);
      std::vector<uint32_t> got;
      {
        const UserGpuBusy busy;
        got = gpu.histogram(h, bs);
      }
      r.right = true;
      for (unsigned b = 0; b < want.size() && r.right; ++b) {
        if (got.at(b) == want[b]) continue;
        r.right = false;
        r.got = "bin " + std::to_string(b) + " (" + bin_label(HistoBins::Letters7, b) + "): " + std::to_string(got[b]);
        r.expected = std::to_string(want[b]);
      }
      e.runs.push_back(std::move(r));
    }
  }
  e.sanitizers = sanitizers.finish();  // before the timing, which wants the GPU to itself
  if (x.reference_kernel) {
    const KernelInfo* ref = find_kernel(x.reference_kernel);
    e.timing_n = uint64_t{1} << 26;
    e.timing_block_size = 256;
    gpu.set_histogram_input(make_histo_input(HistoInput::Text, e.timing_n), HistoBins::Letters7, "text");
    time_against_reference(e, [&] { return gpu.time_histogram(h, e.timing_block_size, 30, 3).median_ms; },
                           [&] { return gpu.time_histogram(ref->id, e.timing_block_size, 30, 3).median_ms; });
  }
  return e;
}

// The profiler's report (issue 40): the copy ceiling on the timing input, in the same run as the timing; the
// occupancy calculator's blocks per SM and the registers at the timing block size; the traced block at that size.
void profile(GpuReducer& gpu, const ExternalKernel& ext, ExerciseEvidence& e, const Exercise& x) {
  const unsigned bs = e.timing_block_size ? e.timing_block_size : 256;
  for (const ExerciseRun& r : e.runs) {
    if (r.features && r.block_size == bs && r.type == DType::Int32 && !e.report_trace) e.report_trace = r.features;
  }
  if (!x.reference_kernel) return;  // untimed: no copy ceiling to set the speed against
  {
    const GpuTimingLock lock;  // timed like the kernels: one at a time on a GPU
    e.copy_gbps = gpu.time_copy(30, 3).gbps;  // bytes read + written over the median (gpu_reduce.hpp)
  }
  e.max_threads_per_sm = gpu.device().max_threads_per_sm;
  if (ext.max_blocks_per_sm) e.blocks_per_sm = ext.max_blocks_per_sm(bs, bs * 4);
  if (ext.registers) e.registers = ext.registers();
}

// The fence between a SinglePass kernel's partials and its ticket (grading/fence.hpp): from the SASS of a plain file's
// cubin where the toolkit has nvdisasm (the code that runs), else from the PTX (the wrapped dialect's only code).
FenceFinding single_pass_fence(const UserKernel& k) {
  if (k.plain && !k.timing.cubin.empty()) {
    std::string listing;
    try {
      listing = disassemble_module(k.timing.cubin);
    } catch (const std::exception&) {
      listing.clear();  // the PTX below
    }
    if (!listing.empty()) return fence_in_sass(listing, k.timing.int_entry, k.file_name);
  }
  return fence_in_ptx(k.timing.ptx, k.timing.int_entry, k.file_name);
}

// Runs the user's kernel as exercise `x` asks and gathers what its checks read.
// kernel_timeout_s: the time limit of each traced run of a plain file (--kernel-timeout).
ExerciseEvidence gather(const UserKernel& k, const Exercise& x, const std::string& name, double kernel_timeout_s) {
  if (k.entry == UserEntry::Histogram) return gather_histogram(k, x, name, kernel_timeout_s);
  GpuReducer gpu;
  const LoadedUserKernel loaded(k, name);
  const ExternalKernel& ext = loaded.kernel();
  ExerciseEvidence e;
  e.redux_in_ptx = k.timing.ptx.find("redux.sync") != std::string::npos;
  e.ptx_read = !k.timing.ptx.empty();
  const std::vector<unsigned> sizes(kBlockSizes.begin(), kBlockSizes.end());
  // compute-sanitizer's three tools, begun now, beside the sums and the traces (issue 57): each block size traced.
  std::vector<unsigned> traced_sizes;
  for (unsigned bs : sizes) {
    if (bs >= k.shape.min_block_size && !x.trace_ns.empty()) traced_sizes.push_back(bs);
  }
  SanitizerRuns sanitizers(k, traced_sizes, static_cast<uint32_t>(gpu.device().reserved_smem_bytes), kernel_timeout_s);
  if (k.shape.finish == Finish::SinglePass) e.fence = single_pass_fence(k);
  e.shuffle_masks = shuffle_masks_in_ptx(k.timing.ptx, k.timing.int_entry, k.file_name);
  using Clock = std::chrono::steady_clock;
  const auto t_runs = Clock::now();
  // The traces side by side, and beside the sums (issue 40: a check under 3 s): each a `reducescope run` with the
  // binary tracer attached, a process of its own, started as soon as its N's run has given its grid and result,
  // while this process goes on with the other sums. The first failure is raised as it would have been one at a time.
  TraceQueue traces(k, std::min<size_t>(usable_cores(), 12));
  for_each_user_run(gpu, ext, x.ns, sizes, [&](const UserSumCheck& c) {
    ExerciseRun r;
    r.n = c.n;
    r.block_size = c.block_size;
    r.type = c.type;
    r.right = c.right;
    r.got = c.got;
    r.expected = c.expected;
    r.launches = c.launches;
    r.ticket_after = c.ticket_after;
    r.result_unwritten = c.result_unwritten;
    r.grid = gpu.first_grid(ext, c.block_size);
    if (c.type == DType::Int32 && std::find(x.trace_ns.begin(), x.trace_ns.end(), c.n) != x.trace_ns.end()) {
      // The grid and the result now, while the GPU holds this N's input; the trace itself in the queue's process.
      traces.add(e.runs.size(), prepare_kernel_file_trace(gpu, ext, k, {c.type, Pattern::RandomBytes, c.n,
                                                                        c.block_size, 0, kernel_timeout_s}));
    }
    e.runs.push_back(std::move(r));
  });
  e.runs_s = std::chrono::duration<double>(Clock::now() - t_runs).count();
  for (auto& [run, features] : traces.finish()) e.runs[run].features = std::move(features);
  e.traces = static_cast<int>(traces.count());
  e.traces_s = traces.seconds();
  e.sanitizers = sanitizers.finish();  // before the timing, which wants the GPU to itself
  if (x.reference_kernel) {
    const auto t0 = Clock::now();
    const KernelInfo* ref = find_kernel(x.reference_kernel);
    e.timing_n = 1u << 24;
    e.timing_block_size = std::max(256u, k.shape.min_block_size);
    gpu.set_input(make_input(Pattern::RandomBytes, e.timing_n), Pattern::RandomBytes);
    time_against_reference(e, [&] { return gpu.time(ext, e.timing_block_size, 30, 3).median_ms; },
                           [&] { return gpu.time(ref->id, e.timing_block_size, 30, 3).median_ms; });
    e.timing_s = std::chrono::duration<double>(Clock::now() - t0).count();
  }
  profile(gpu, ext, e, x);
  return e;
}

// compile_s: NVRTC's seconds in this process (0: compiled by another, --compiled), for the line saying where the
// time went.
int check_exercise(const UserKernel& k, const Exercise& x, const Options& o, std::ostream& out, double compile_s) {
  const ExerciseEvidence e = gather(k, x, user_kernel_name(o.file), o.kernel_timeout_s);
  const std::vector<ExerciseCheck> checks = judge_exercise(x, e);
  const bool all = all_passed(checks);  // a check not run: neither passed nor failed
  if (o.json) {
    out << exercise_json(x, o.file, checks, &e);
    return all ? kExitOk : kExitRuntime;
  }
  out << "exercise " << x.name << ": " << i18n::tr(x.title) << "\n";
  for (const ExerciseCheck& c : checks) {
    out << "  " << (!c.ran ? "- " : c.pass ? "\u2713 " : "\u2717 ") << said(c.name) << ": " << said(c.figure) << "\n";
    if (!c.pass && said_anything(c.hint)) out << "      hint: " << said(c.hint) << "\n";
  }
  if (e.timing_waited_ms >= 100) {
    out << "  (the timing waited " << fmt("%.1f", e.timing_waited_ms / 1000) << " s for other processes' timed checks: "
        << "one at a time on a GPU)\n";
  }
  const size_t passed = checks_passed(checks), judged = checks_ran(checks);
  if (const std::string report = exercise_report_line(exercise_report_json(x, e)); !report.empty()) {
    out << "  report: " << report << "\n";  // the profiler's report (issue 40), as check --json gives it
  }
  out << "  (time: ";
  if (compile_s > 0) out << "compile " << fmt("%.1f", compile_s) << " s; ";
  out << "sums " << fmt("%.1f", e.runs_s) << " s; ";
  if (e.traces) out << e.traces << " traces " << fmt("%.1f", e.traces_s) << " s, begun during the sums; ";
  out << "timing " << fmt("%.1f", e.timing_s) << " s";
  if (!e.sanitizers.reports.empty()) out << "; compute-sanitizer " << fmt("%.1f", e.sanitizers.seconds) << " s, beside them";
  out << ")\n";
  out << o.file << ": " << passed << " of " << judged << " checks passed";
  if (judged < checks.size()) out << " (" << checks.size() - judged << " not run here)";
  out << (all ? " - exercise done" : "") << "\n";
  return all ? kExitOk : kExitRuntime;
}

}  // namespace

int run_check(const Options& o, std::ostream& out, std::ostream& err) {
  if (!o.lang.empty()) {  // --lang: the exercise's words in that language (English where the catalogue is missing)
    const std::optional<i18n::Lang> lang = i18n::parse_lang(o.lang);
    std::string why;
    if (lang && !i18n::set_language(*lang, &why)) err << "reducescope check: --lang " << o.lang << ": " << why << "\n";
  }
  if (o.list) {
    for (const Exercise& x : exercises()) out << x.name << "\n";
    return kExitOk;
  }
  const Exercise* x = nullptr;
  if (!o.exercise.empty()) {
    x = find_exercise(o.exercise);
    if (!x) {
      err << "reducescope check: --exercise: '" << o.exercise << "' is not an exercise (" << exercise_names() << ")\n";
      return kExitUsage;
    }
  }
  int exit_code = kExitOk;
  std::optional<UserKernel> compiled;
  int compiled_cc = 0;  // the architecture `compiled` was built for (0: the generic one)
  double compile_s = 0;  // NVRTC's time in this process (check_exercise says it)
  if (!o.compiled.empty()) {
    exit_code = guarded("check", err, [&] {
      UserKernel c = *load_compiled(o.compiled, 0);
      std::error_code ec1, ec2;  // the same file however named ("./a.cu", "a.cu")
      const bool same = c.file_name == o.file || std::filesystem::weakly_canonical(c.file_name, ec1) ==
                                                     std::filesystem::weakly_canonical(o.file, ec2);
      if (!same) {  // a mix-up (grade's compiling ahead, the window's worker) is not graded
        throw std::invalid_argument(o.compiled + " was compiled from " + c.file_name + ", not from " + o.file);
      }
      // What compiling the file said (compile_kernel_file), so that the output is the same as without --compiled.
      for (const UserDiagnostic& d : c.warnings) err << format_diagnostic(d) << "\n";
      compiled = std::move(c);
      return kExitOk;
    });
  } else if (o.compile_only && o.cc) {
    compiled_cc = o.cc;  // --cc N: as check compiles on such a GPU
    compiled = compile_kernel_file(o.file, compiled_cc, "check", err, exit_code);
  } else {
    // For this GPU's architecture at once where there is one (issue 40: one NVRTC compile, not two; CUB's headers
    // take seconds), else for the generic one: compiling needs no GPU.
    if (!o.compile_only) {
      try {
        compiled_cc = user_kernel_device_cc();
      } catch (const std::exception&) {
        compiled_cc = 0;  // said below, after the compile's verdict
      }
    }
    std::optional<CudaContextWarmup> warm;  // the GPU's context opens while NVRTC compiles
    if (compiled_cc > 0) warm.emplace();
    const auto t0 = std::chrono::steady_clock::now();
    compiled = compile_kernel_file(o.file, compiled_cc, "check", err, exit_code);
    compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (!compiled) return exit_code;
  const UserKernel& k = *compiled;
  // A histogram file goes with the exercise histogram, and only there.
  const Exercise* histogram = find_exercise("histogram");
  if (k.entry == UserEntry::Histogram && x && x != histogram) {
    err << "reducescope check: " << o.file << " defines user_histogram: it is a histogram, checked with --exercise "
        << "histogram, not " << x->name << "\n";
    return kExitUsage;
  }
  if (k.entry != UserEntry::Histogram && x == histogram) {
    err << "reducescope check: the exercise histogram takes a file that defines user_histogram (`reducescope new "
        << "--exercise histogram FILE.cu`); " << o.file << " defines user_kernel\n";
    return kExitUsage;
  }
  if (k.entry == UserEntry::Histogram) x = histogram;  // its checks are the bins and the timing
  std::ostream& info = o.json ? err : out;  // --json: stdout holds the JSON alone
  if (k.entry == UserEntry::Histogram) {
    info << o.file << ": OK: NVRTC " << nvrtc_version() << " compiled it (plain CUDA, a histogram: user_histogram, 7 "
         << "letter bins) for " << k.arch << "\n";
  } else {
    info << o.file << ": OK: NVRTC " << nvrtc_version()
         << (k.plain ? " compiled it (plain CUDA: the binary tracer traces it as compiled)"
                     : " compiled the timing build (rs::NullProbe) and the tracing build (rs::TraceProbe)")
         << " for " << k.arch << ", "
         << (k.dtypes & dtype_bit(DType::Float32) ? "int32 and float32" : "int32 only") << "\n"
         << "launch shape: " << shape_words(k.shape) << "\n";
  }
  if (!o.save_compiled.empty()) {  // for a later check --compiled (grade compiles the next file while the GPU checks)
    const int saved = guarded("check", err, [&] {
      save_user_kernel(k, o.save_compiled);
      return kExitOk;
    });
    if (saved != kExitOk) return saved;
  }
  if (o.compile_only) return kExitOk;  // NVRTC's verdict alone (grade --compile-only, CI without a GPU)
  return guarded("check", err, [&] {
    int cc = 0;
    try {
      cc = user_kernel_device_cc();
    } catch (const NoDeviceError& e) {
      err << "reducescope check: " << o.file << " compiles, but running it needs a CUDA GPU: " << e.what() << "\n";
      return kExitRuntime;
    }
    // Again for the GPU's own architecture (sm_80 intrinsics such as __reduce_add_sync trap below it).
    if (!o.compiled.empty()) {  // compiled by the window for this GPU
      const UserKernel c = *load_compiled(o.compiled, cc);
      return x ? check_exercise(c, *x, o, out, 0) : check_sums(c, o, out);
    }
    if (compiled_cc == cc) return x ? check_exercise(k, *x, o, out, compile_s) : check_sums(k, o, out);
    const auto t0 = std::chrono::steady_clock::now();
    const UserCompileResult r = compile_user_kernel(k.source, k.file_name, {.cc = cc, .pch = false});
    compile_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      for (const UserDiagnostic& d : r.diagnostics) err << format_diagnostic(d) << "\n";
      err << o.file << ": does not compile for compute_" << cc << " (this GPU)\n";
      return kExitUsage;
    }
    return x ? check_exercise(*r.kernel, *x, o, out, compile_s) : check_sums(*r.kernel, o, out);
  });
}

}  // namespace rs
