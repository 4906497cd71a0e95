// GPU tests of the multigpu track (ctest -L gpu): run on a machine with 2 or more GPUs (the device kind
// nvidia-h200-x2); with fewer, the track's refusal is what is tested.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "multigpu_run.hpp"

namespace rs {
namespace {

TEST(MultiGpuGpu, OneGpuIsRefusedWithAClearMessage) {
  if (multigpu_device_count() >= 2) GTEST_SKIP() << "this machine has 2 or more GPUs";
  MultiGpuConfig c;
  c.sizes = {4096};
  try {
    measure_multigpu(c, {});
    FAIL() << "measured on fewer than 2 GPUs";
  } catch (const MultiGpuError& e) {
    EXPECT_NE(std::string(e.what()).find("needs at least 2 GPUs"), std::string::npos) << e.what();
  }
}

// Every method right at sizes that divide by neither G nor 4, and timed rows at a few sizes.
TEST(MultiGpuGpu, EveryMethodIsRightAtSeveralSizes) {
  if (multigpu_device_count() < 2) GTEST_SKIP() << "needs 2 GPUs";
  MultiGpuConfig c;
  c.sizes = {4096, 4100, 1u << 20, (1u << 24) + 12};
  c.check_elems = {1, 3, 5, 1001, 1000003};
  c.sum_n = {3, 1000003, 1u << 24};
  c.ring_trace_sizes = {1u << 20};
  c.samples = 3;
  c.warmups = 1;
  std::vector<std::string> lines;
  const SessionMultiGpu m = measure_multigpu(c, [&](const std::string& l) { lines.push_back(l); });
  EXPECT_GE(m.gpus, 2u);
  EXPECT_EQ(m.gpu_names.size(), m.gpus);
  EXPECT_FALSE(m.nccl_version.empty());
  int checked = 0;
  for (const std::string& l : lines) {
    if (l.rfind("checked at", 0) == 0) {
      ++checked;
      EXPECT_EQ(l.find("WRONG"), std::string::npos) << l;
    }
  }
  EXPECT_EQ(checked, 5);
  for (uint64_t bytes : c.sizes) {
    for (const char* method : {"nccl", "ring", "naive"}) {
      const MultiGpuRow* r = m.find("allreduce", method, bytes);
      ASSERT_NE(r, nullptr) << method << " at " << bytes;
      EXPECT_TRUE(r->correct) << method << " at " << bytes;
      EXPECT_GT(r->median_ms, 0);
      EXPECT_NEAR(r->busbw_gbps, busbw_gbps("allreduce", bytes, r->median_ms, m.gpus), 1e-9);
    }
    ASSERT_NE(m.find("copy", "p2p", bytes), nullptr);
    EXPECT_TRUE(m.find("copy", "p2p", bytes)->correct);
    EXPECT_TRUE(m.find("copy_bidir", "p2p", bytes)->correct);
  }
  for (uint64_t n : c.sum_n) {
    ASSERT_NE(m.find("sum", "nccl", n * 4), nullptr);
    EXPECT_TRUE(m.find("sum", "nccl", n * 4)->correct) << "N = " << n;
    EXPECT_TRUE(m.find("sum", "one_gpu", n * 4)->correct) << "N = " << n;
  }
  ASSERT_EQ(m.rings.size(), 1u);
  const RingRecording& ring = m.rings[0];
  EXPECT_EQ(ring.events.size(), ring_schedule(m.gpus).size());
  for (const RingEvent& e : ring.events) {
    EXPECT_LE(e.copy_start_us, e.copy_end_us);
    if (e.phase == RingPhase::ReduceScatter) {
      EXPECT_GE(e.add_start_us, e.copy_end_us - 50) << "the add waits for the copy (lanes line up to a few us)";
      EXPECT_LE(e.add_start_us, e.add_end_us);
    }
  }
}

// The ring's and the naive way's code on any GPU: G virtual GPUs that are all device 0 (no NCCL), for
// G = 2, 3 and 4, at lengths that divide by neither G nor 4. Checks the results and the traced ring's events.
TEST(MultiGpuGpu, RingAndNaiveRightWithVirtualGpusOnOneDevice) {
  if (multigpu_device_count() < 1) GTEST_SKIP() << "needs a GPU";
  for (uint32_t g : {2u, 3u, 4u}) {
    MultiGpuConfig c;
    c.emulate_gpus = g;
    c.sizes = {4100, 1000004};
    c.check_elems = {1, 3, 5, 1001, 1000003};
    c.sum_n = {};
    c.ring_trace_sizes = {1000004};
    c.samples = 2;
    c.warmups = 1;
    std::vector<std::string> lines;
    const SessionMultiGpu m = measure_multigpu(c, [&](const std::string& l) { lines.push_back(l); });
    EXPECT_EQ(m.gpus, g);
    int checked = 0;
    for (const std::string& l : lines) {
      if (l.rfind("checked at", 0) != 0) continue;
      ++checked;
      EXPECT_EQ(l.find("WRONG"), std::string::npos) << l << " (G = " << g << ")";
      EXPECT_NE(l.find("ring correct"), std::string::npos) << l;
      EXPECT_NE(l.find("naive correct"), std::string::npos) << l;
    }
    EXPECT_EQ(checked, 5);
    for (uint64_t bytes : c.sizes) {
      for (const char* method : {"ring", "naive"}) {
        const MultiGpuRow* r = m.find("allreduce", method, bytes);
        ASSERT_NE(r, nullptr) << method << " at " << bytes << " bytes, G = " << g;
        EXPECT_TRUE(r->correct) << method << " at " << bytes << " bytes, G = " << g;
      }
      EXPECT_EQ(m.find("allreduce", "nccl", bytes), nullptr) << "no NCCL in the emulation";
    }
    ASSERT_EQ(m.rings.size(), 1u);
    EXPECT_EQ(m.rings[0].events.size(), ring_schedule(g).size());
    for (const RingEvent& e : m.rings[0].events) {
      EXPECT_LE(e.copy_start_us, e.copy_end_us);
      EXPECT_GT(e.chunk_bytes, 0u);
      if (e.phase == RingPhase::ReduceScatter) {
        EXPECT_GE(e.add_start_us + 1, e.copy_end_us) << "one device: the add starts after its copy";
      }
    }
    EXPECT_GT(m.rings[0].total_us, 0);
  }
}

TEST(MultiGpuGpu, MoreGpusThanPresentIsRefused) {
  const int n = multigpu_device_count();
  if (n < 2) GTEST_SKIP() << "needs 2 GPUs";
  MultiGpuConfig c;
  c.gpus = static_cast<uint32_t>(n + 1);
  c.sizes = {4096};
  try {
    measure_multigpu(c, {});
    FAIL() << "measured on more GPUs than present";
  } catch (const MultiGpuError& e) {
    EXPECT_NE(std::string(e.what()).find("this machine has"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rs
