// reducescope verify (--kernel NAME | --kernel-file FILE.cu): the trace's counts against Nsight Compute's counters
// on a 1-block launch, pair by pair, so an instructor can show that the picture is the hardware's (issue 19,
// item 7). The trace comes from the tracing build, the counters from `ncu` profiling `reducescope run` (the timing
// build) of the same kernel, block size, N and type. The metrics and their pairing are tests/ncu_compare.sh's and
// tests/ncu_instructions.sh's (run on the H100, docs/tracks.md):
//   shared load / store bank conflicts  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum
//   shuffles                            SHFL in sass__inst_executed_per_opcode
//   shared atomics                      smsp__sass_inst_executed_op_shared_atom.sum (float32: a CAS loop, so at
//                                       least the trace's rounds)
//   global atomics                      smsp__sass_inst_executed_op_global_atom.sum + ..._global_red.sum
//   global load / store requests        smsp__sass_inst_executed_op_global_{ld,st}.sum
//   global load sectors                 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
#include <cstdio>
#include <ostream>
#include <sstream>
#include <unistd.h>

#include "commands.hpp"
#include "common.hpp"
#include "plain_trace.hpp"
#include "user_kernel_gpu.hpp"
#include "worker.hpp"

namespace rs {

using namespace cmd;

namespace {

const char* const kBankLd = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char* const kBankSt = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
const char* const kOpcodes = "sass__inst_executed_per_opcode";
const char* const kSharedAtom = "smsp__sass_inst_executed_op_shared_atom.sum";
const char* const kGlobalAtom = "smsp__sass_inst_executed_op_global_atom.sum";
const char* const kGlobalRed = "smsp__sass_inst_executed_op_global_red.sum";
const char* const kGlobalLd = "smsp__sass_inst_executed_op_global_ld.sum";
const char* const kGlobalSt = "smsp__sass_inst_executed_op_global_st.sum";
const char* const kSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";

// ncu's value of `metric` ("name  unit  value" lines; thousands separators dropped); -1 if absent.
long long ncu_value(const std::string& text, const std::string& metric) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first, last, w;
    words >> first;
    if (first != metric) continue;
    while (words >> w) last = w;
    std::string digits;
    for (char c : last) {
      if (c >= '0' && c <= '9') digits += c;
    }
    if (!digits.empty()) return std::stoll(digits);
  }
  return -1;
}

// SHFL's count in the per-opcode histogram ("... SHFL: 5; ..."), which ncu wraps at a fixed width; 0 when the
// histogram has no SHFL; -1 when there is no histogram.
long long ncu_shuffles(const std::string& text) {
  const size_t at = text.find(kOpcodes);
  if (at == std::string::npos) return -1;
  std::string joined;
  for (size_t i = at; i < text.size(); ++i) {
    if (text.compare(i, 4, "----") == 0) break;
    if (text[i] != ' ' && text[i] != '\n') joined += text[i];
  }
  const size_t s = joined.find("SHFL:");
  if (s == std::string::npos) return 0;
  return std::atoll(joined.c_str() + s + 5);
}

std::string ncu_path() {
  std::string p = find_on_path("ncu");
  if (p.empty() && access("/usr/local/cuda/bin/ncu", X_OK) == 0) p = "/usr/local/cuda/bin/ncu";
  return p;
}

}  // namespace

int run_verify(const Options& o_in, std::ostream& out, std::ostream& err) {
  const std::string ncu = ncu_path();
  if (ncu.empty()) {
    err << "reducescope verify: needs Nsight Compute: ncu is not on the PATH (nor in /usr/local/cuda/bin)\n";
    return kExitRuntime;
  }
  return guarded("verify", err, [&] {
    Options o = o_in;
    if (!o.kernel_file.empty()) {  // compile errors before "no GPU"
      int rc = kExitOk;
      if (!compile_kernel_file(o.kernel_file, 0, "verify", err, rc)) return rc;
    }
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const unsigned bs = o.block_sizes.empty() ? 256 : o.block_sizes[0];
    std::optional<UserKernel> user;
    std::unique_ptr<LoadedUserKernel> loaded;
    unsigned per_thread = 1;
    std::string name;
    DType type = o.dtypes.empty() ? DType::Int32 : o.dtypes[0];
    if (!o.kernel_file.empty()) {
      int rc = kExitOk;
      user = compile_kernel_file(o.kernel_file, d.cc_major * 10 + d.cc_minor, "verify", err, rc);
      if (!user) return rc;
      loaded = std::make_unique<LoadedUserKernel>(*user, user_kernel_name(o.kernel_file));
      per_thread = user->shape.inputs_per_thread;
      name = loaded->kernel().name;
    } else {
      const KernelInfo& k = kernel_info(o.kernels.at(0));
      if (!k.takes(type)) type = DType::Float32;
      if (auto why = block_size_problem(k.id, bs)) throw std::invalid_argument(why->say());
      per_thread = k.grid_stride ? 1 : k.inputs_per_thread;
      name = k.name;
    }
    o.n = uint64_t{bs} * per_thread;  // one block
    o.dtypes = {type};
    prepare_typed_input(gpu, o, type);
    Trace t;
    if (loaded) {
      t = trace_kernel_file(gpu, loaded->kernel(), *user, {type, o.pattern, o.n, bs, 0, o.kernel_timeout_s});
    } else {
      const UserGpuBusy busy;
      t = gpu.trace(o.kernels[0], bs);
    }
    if (t.meta.grid_size != 1) {
      throw std::invalid_argument(name + " launches " + std::to_string(t.meta.grid_size) +
                                  " blocks at N = " + std::to_string(o.n) + ": verify needs a 1-block launch");
    }
    const Replay r(t);
    int sectors = 0, rounds = 0;
    for (const GlobalRequest& g : r.global_requests()) {
      if (g.kind == AccessKind::GlobalLoad) sectors += g.sectors;
    }
    for (const WarpAtomic& a : r.atomics()) {
      if (a.kind == AccessKind::SharedAtomic) rounds += a.max_contention;
    }

    // ncu on `reducescope run` of the same launch, in a process of its own.
    std::vector<std::string> args = {"--print-metric-instances", "details", "--metrics",
                                     std::string(kBankLd) + "," + kBankSt + "," + kOpcodes + "," + kSharedAtom + "," +
                                         kGlobalAtom + "," + kGlobalRed + "," + kGlobalLd + "," + kGlobalSt + "," + kSectors,
                                     self_executable(), "run"};
    if (loaded) {
      args.insert(args.end(), {"--kernel-file", o.kernel_file});
    } else {
      args.insert(args.end(), {"--kernel", name});
    }
    args.insert(args.end(), {"--block-size", std::to_string(bs), "--n", std::to_string(o.n), "--type", to_string(type)});
    std::string text;
    WorkerOptions w;
    w.timeout_s = std::max(60.0, o.kernel_timeout_s * 10);  // ncu replays the kernel once per pass
    w.out = [&](const std::string& s) { text += s; };
    w.err = [&](const std::string& s) { text += s; };
    const WorkerResult res = run_worker(ncu, args, w);
    if (res.end != WorkerEnd::Exited || ncu_value(text, kBankLd) < 0) {
      err << "reducescope verify: ncu gave no counters for " << name << ":\n" << text.substr(0, 2000) << "\n";
      return kExitRuntime;
    }

    out << "verify " << name << " (" << to_string(type) << ", " << bs << " threads, N = " << o.n << ", one block) on "
        << d.name << "\n"
        << (user && user->plain ? "  trace: the binary tracer, block 0 as compiled, replayed"
                                : "  trace: the tracing build, block 0, replayed")
        << "; Nsight Compute: the timing build under ncu\n\n";
    char line[200];
    std::snprintf(line, sizeof line, "  %-30s %10s %16s  %s\n", "counter", "trace", "Nsight Compute", "");
    out << line;
    int bad = 0;
    // Kernels that read global memory through plain pointers (Harris's) record no global events: those rows
    // are left out, not called different.
    const bool global_traced = r.has_global() || r.atomic_instruction_count(AccessKind::GlobalAtomic) > 0;
    auto untraced = [&](const char* what, long long measured) {
      std::snprintf(line, sizeof line, "  %-30s %10s %16lld  %s\n", what, "-", measured,
                    "not traced: the kernel reaches global memory through plain pointers, not GlobalArray");
      out << line;
    };
    auto row = [&](const char* what, long long traced, long long measured, bool at_least = false) {
      const bool ok = measured >= 0 && (at_least ? measured >= traced : measured == traced);
      bad += ok ? 0 : 1;
      std::snprintf(line, sizeof line, "  %-30s %10lld %16lld  %s\n", what, traced, measured,
                    ok ? (at_least && measured != traced ? "ok (a CAS loop: at least the trace's rounds)" : "equal")
                       : "DIFFERENT");
      out << line;
    };
    row("shared load bank conflicts", r.load_conflicts(), ncu_value(text, kBankLd));
    row("shared store bank conflicts", r.store_conflicts(), ncu_value(text, kBankSt));
    row("shuffles", r.shuffle_instruction_count(), ncu_shuffles(text));
    const int satom = r.atomic_instruction_count(AccessKind::SharedAtomic);
    if (type == DType::Float32 && satom > 0) {
      row("shared atomics (tries)", rounds, ncu_value(text, kSharedAtom), true);
    } else {
      row("shared atomics", satom, ncu_value(text, kSharedAtom));
    }
    const long long gatom = ncu_value(text, kGlobalAtom), gred = ncu_value(text, kGlobalRed);
    row("global atomics", r.atomic_instruction_count(AccessKind::GlobalAtomic), gatom < 0 || gred < 0 ? -1 : gatom + gred);
    if (global_traced) {
      row("global load requests", r.global_request_count(AccessKind::GlobalLoad), ncu_value(text, kGlobalLd));
      row("global load sectors", sectors, ncu_value(text, kSectors));
      row("global store requests", r.global_request_count(AccessKind::GlobalStore), ncu_value(text, kGlobalSt));
    } else {
      untraced("global load requests", ncu_value(text, kGlobalLd));
      untraced("global load sectors", ncu_value(text, kSectors));
      untraced("global store requests", ncu_value(text, kGlobalSt));
    }
    out << (bad ? std::to_string(bad) + " counters differ\n" : "every counter matches\n");
    return bad ? kExitRuntime : kExitOk;
  });
}

}  // namespace rs
