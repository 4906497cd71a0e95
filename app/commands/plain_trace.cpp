// trace_kernel_file (plain_trace.hpp): the wrapped dialect through GpuReducer::trace, plain CUDA through the binary
// tracer attached to `reducescope run --compiled FILE` (docs/binary-trace.md, docs/your-kernel.md).
#include "plain_trace.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "attach.hpp"
#include "common.hpp"
#include "user_kernel_gpu.hpp"
#include "worker.hpp"

namespace rs::cmd {

namespace fs = std::filesystem;

TempCompiledKernel::TempCompiledKernel(const UserKernel& k) {
  std::string tmpl = (fs::temp_directory_path() / "reducescope-plain-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder");
  dir = tmpl;
  path = (fs::path(dir) / "kernel.rsuk").string();
  save_user_kernel(k, path);
}

TempCompiledKernel::~TempCompiledKernel() {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

PreparedKernelFileTrace prepare_kernel_file_trace(GpuReducer& gpu, const ExternalKernel& ext, const UserKernel& k,
                                                  const KernelFileTraceRequest& q) {
  PreparedKernelFileTrace p;
  p.q = q;
  p.name = ext.name;
  p.track = ext.track;
  if (!k.plain) {
    const UserGpuBusy busy;
    p.done = gpu.trace(ext, q.block_size, q.traced_block);
    return p;
  }
  p.grid = gpu.first_grid(ext, q.block_size);
  if (q.traced_block >= p.grid) {
    throw std::invalid_argument("block " + std::to_string(q.traced_block) + " does not exist: the first launch of " +
                                ext.name + " has " + std::to_string(p.grid) + " blocks");
  }
  const UserGpuBusy busy;
  p.result = gpu.run(ext, q.block_size);
  return p;
}

Trace finish_kernel_file_trace(const PreparedKernelFileTrace& p, const UserKernel& k) {
  if (p.done) return *p.done;
  const KernelFileTraceRequest& q = p.q;
  const TempCompiledKernel compiled(k);
  AttachRequest a;
  a.program = {self_executable(), "run",           "--compiled", compiled.path,           "--kernel-file",
               k.file_name,       "--n",           std::to_string(q.n),       "--type", to_string(q.type),
               "--pattern",       to_string(q.pattern), "--block-size", std::to_string(q.block_size),
               "--kernel-timeout", fmt("%g", q.kernel_timeout_s)};
  a.kernel = "user_kernel<";  // the first launch of the entry point; later ones are the finish's
  a.block = std::to_string(q.traced_block);
  a.dtype = q.type;
  a.quiet_program = true;
  a.source_name = k.file_name;  // the line table names the file as NVRTC was given it: the text compiled
  a.source_text = k.source;
  // Not UserGpuBusy: the traced `reducescope run` is a worker of its own with the same time limit on its GPU work
  // (main.cpp), and nvdisasm's and the trace's own time is no kernel's (a loaded grading machine must not stop it).
  Attached at = attach_and_trace(a);
  Trace t = std::move(at.trace);
  t.meta.kernel = p.name;
  t.meta.track = p.track;
  t.meta.n = q.n;
  t.meta.pattern = to_string(q.pattern);
  t.meta.traced_block = q.traced_block;
  t.meta.grid_size = p.grid;
  t.meta.result = p.result;
  t.meta.dtype = q.type;
  return t;
}

Trace trace_kernel_file(GpuReducer& gpu, const ExternalKernel& ext, const UserKernel& k,
                        const KernelFileTraceRequest& q) {
  return finish_kernel_file_trace(prepare_kernel_file_trace(gpu, ext, k, q), k);
}

}  // namespace rs::cmd
