#include "capture.hpp"

#include <cstring>

#include "binary_io.hpp"

namespace rs::bt {

using rs::detail::Reader;
using rs::detail::Writer;

namespace {

constexpr char kMagic[8] = {'R', 'S', 'B', 'T', 'C', 'A', 'P', '\0'};
enum Tag : uint32_t { kTagLaunch = 1, kTagCubin = 2, kTagAllocations = 3, kTagEvents = 4, kTagChecksum = 5 };
constexpr uint64_t kMaxEvents = 1ull << 27;

void write_launch(Writer& w, const Capture& c) {
  w.u32(static_cast<uint32_t>(c.status));
  w.str(c.message);
  w.u32(static_cast<uint32_t>(c.launched.size()));
  for (const auto& [name, count] : c.launched) {
    w.str(name);
    w.u32(count);
  }
  w.str(c.kernel_mangled);
  w.str(c.kernel);
  w.u32(c.launch);
  for (uint32_t v : c.grid) w.u32(v);
  for (uint32_t v : c.block) w.u32(v);
  for (uint32_t v : c.traced) w.u32(v);
  w.str(c.gpu);
  w.u32(c.cc_major);
  w.u32(c.cc_minor);
  w.u32(c.driver_version);
  w.u32(c.reserved_smem);
  w.u64(c.function_pc);
  w.u64(c.function_size);
  w.u32(c.capacity);
  w.u32(c.taken);
}

void read_launch(Reader& r, Capture& c) {
  const uint32_t status = r.u32();
  if (status > static_cast<uint32_t>(CaptureStatus::Failed)) r.fail("unknown capture status " + std::to_string(status));
  c.status = static_cast<CaptureStatus>(status);
  c.message = r.str();
  const uint32_t n = r.u32();
  if (n > 1u << 20) r.fail("implausible count of launched kernels " + std::to_string(n));
  for (uint32_t i = 0; i < n; ++i) {
    std::string name = r.str();
    const uint32_t count = r.u32();
    c.launched.emplace_back(std::move(name), count);
  }
  c.kernel_mangled = r.str();
  c.kernel = r.str();
  c.launch = r.u32();
  for (uint32_t& v : c.grid) v = r.u32();
  for (uint32_t& v : c.block) v = r.u32();
  for (uint32_t& v : c.traced) v = r.u32();
  c.gpu = r.str();
  c.cc_major = r.u32();
  c.cc_minor = r.u32();
  c.driver_version = r.u32();
  c.reserved_smem = r.u32();
  c.function_pc = r.u64();
  c.function_size = r.u64();
  c.capacity = r.u32();
  c.taken = r.u32();
}

void write_event(Writer& w, const Event& e) {
  w.u64(e.pc);
  w.u64(e.addr);
  for (uint32_t v : e.value) w.u32(v);
  w.u32(e.active_mask);
  w.u32(e.tseq);
  w.u16(e.thread);
  w.u8(e.kind);
  w.u8(e.size);
  w.u32(e.flags);
}

Event read_event(Reader& r) {
  Event e{};
  e.pc = r.u64();
  e.addr = r.u64();
  for (uint32_t& v : e.value) v = r.u32();
  e.active_mask = r.u32();
  e.tseq = r.u32();
  e.thread = r.u16();
  e.kind = r.u8();
  e.size = r.u8();
  e.flags = r.u32();
  return e;
}

}  // namespace

std::string serialize_capture(const Capture& c) {
  Writer w;
  rs::detail::write_header(w, kMagic, kCaptureVersion);
  Writer launch;
  write_launch(launch, c);
  rs::detail::section(w, kTagLaunch, launch.data());
  rs::detail::section(w, kTagCubin, c.cubin);
  Writer allocs;
  allocs.u32(static_cast<uint32_t>(c.allocations.size()));
  for (const Allocation& a : c.allocations) {
    allocs.u64(a.base);
    allocs.u64(a.size);
  }
  rs::detail::section(w, kTagAllocations, allocs.data());
  Writer events;
  events.u64(c.events.size());
  for (const Event& e : c.events) write_event(events, e);
  rs::detail::section(w, kTagEvents, events.data());
  rs::detail::append_checksum(w, kTagChecksum);
  return std::move(w.data());
}

Capture parse_capture(const std::string& bytes, const std::string& name) {
  Reader top(bytes.data(), bytes.size(), name, N_("file"));
  rs::detail::read_header(top, bytes, kMagic, kCaptureVersion, N_("capture"));
  Capture c;
  bool have_launch = false;
  const bool have_checksum =
      rs::detail::walk_sections(top, bytes, kTagChecksum, [&](uint32_t tag, const char* payload, uint64_t size) {
        switch (tag) {
          case kTagLaunch: {
            Reader r(payload, size, name, N_("launch section"));
            read_launch(r, c);
            have_launch = true;
            break;
          }
          case kTagCubin:
            c.cubin.assign(payload, size);
            break;
          case kTagAllocations: {
            Reader r(payload, size, name, N_("allocation section"));
            const uint32_t n = r.u32();
            r.need(uint64_t{n} * 16);
            for (uint32_t i = 0; i < n; ++i) {
              Allocation a;
              a.base = r.u64();
              a.size = r.u64();
              c.allocations.push_back(a);
            }
            break;
          }
          case kTagEvents: {
            Reader r(payload, size, name, N_("event section"));
            const uint64_t n = r.u64();
            if (n > kMaxEvents) r.fail("event count " + std::to_string(n) + " is implausible");
            if (n * sizeof(Event) != r.left()) {
              r.fail("event section holds " + std::to_string(r.left()) + " bytes, but " + std::to_string(n) +
                     " events need " + std::to_string(n * sizeof(Event)));
            }
            c.events.reserve(n);
            for (uint64_t i = 0; i < n; ++i) c.events.push_back(read_event(r));
            break;
          }
          default:
            break;
        }
      });
  if (!have_checksum) throw TraceFormatError(name + ": no checksum section (the capture was not written completely)");
  if (!have_launch) throw TraceFormatError(name + ": no launch section");
  return c;
}

}  // namespace rs::bt
