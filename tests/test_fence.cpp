// The fence a single pass needs (app/grading/fence.hpp, issue 57 item 2): read from NVRTC's PTX of the corpus's single
// passes (CI has NVRTC), and from nvdisasm listings of the same kernels captured on the H100 (tests/fixtures/grading/,
// where present: CI has no nvdisasm). The right ones pass, the fence-less one fails at its store's and ticket's lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exercises.hpp"
#include "fence.hpp"
#include "user_kernel.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

uint32_t line_of(const std::string& text, const std::string& part) {
  std::istringstream in(text);
  std::string l;
  for (uint32_t n = 1; std::getline(in, l); ++n) {
    if (l.find(part) != std::string::npos) return n;
  }
  return 0;
}

const fs::path kCorpus = fs::path(RS_USER_FIXTURES) / "corpus" / "single_pass";

UserKernel compiled(const fs::path& f) {
  const UserCompileResult r = compile_user_kernel_file(f.string(), {.cc = 90, .pch = false});
  EXPECT_TRUE(r.ok()) << f;
  return *r.kernel;
}

TEST(Fence, EveryRightSinglePassOfTheCorpusHasItsFenceInPtx) {
  if (!user_kernels_supported()) GTEST_SKIP() << "this build has no NVRTC";
  int right = 0;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("right_", 0) != 0) continue;
    SCOPED_TRACE(name);
    const UserKernel k = compiled(entry.path());
    const FenceFinding f = fence_in_ptx(k.timing.ptx, k.timing.int_entry, k.file_name);
    EXPECT_TRUE(f.judged) << f.why_not;
    EXPECT_FALSE(f.missing) << "store line " << f.store_line << " (" << f.store_text << "), ticket line "
                            << f.atomic_line << " (" << f.atomic_text << ")";
    EXPECT_GE(f.tickets, 1);
    ++right;
  }
  EXPECT_GE(right, 4);
  // The project's own solution too.
  const UserKernel k = compiled(fs::path(RS_SOURCE_DIR) / "kernels/user/solutions/single_pass.cu");
  const FenceFinding f = fence_in_ptx(k.timing.ptx, k.timing.int_entry, k.file_name);
  EXPECT_TRUE(f.judged && !f.missing && f.stores_before_ticket) << f.why_not << f.store_line;
}

TEST(Fence, TheFencelessSinglePassIsNamedAtItsStoreAndTicket) {
  if (!user_kernels_supported()) GTEST_SKIP() << "this build has no NVRTC";
  const fs::path file = kCorpus / "wrong_no_threadfence.cu";
  const std::string text = read_text(file);
  const UserKernel k = compiled(file);
  const FenceFinding f = fence_in_ptx(k.timing.ptx, k.timing.int_entry, k.file_name);
  ASSERT_TRUE(f.judged) << f.why_not;
  EXPECT_TRUE(f.missing);
  EXPECT_EQ(f.store_line, line_of(text, "result[blockIdx.x] = partialSum;"));
  EXPECT_EQ(f.atomic_line, line_of(text, "atomicInc(count, gridDim.x)"));
  EXPECT_EQ(f.code, "PTX");
  // The exercise's check fails for it, whatever the sums did, and passes once the fence is back.
  ExerciseEvidence e;
  e.fence = f;
  const Exercise* x = find_exercise("single_pass");
  ASSERT_NE(x, nullptr);
  const std::vector<ExerciseCheck> checks = judge_exercise(*x, e);
  const auto it = std::find_if(checks.begin(), checks.end(), [](const ExerciseCheck& c) {
    return english(c.name) == "partials published before the ticket";
  });
  ASSERT_NE(it, checks.end());
  EXPECT_FALSE(it->pass);
  EXPECT_NE(english(it->figure).find("line " + std::to_string(f.store_line)), std::string::npos) << english(it->figure);
  EXPECT_NE(english(it->hint).find("__threadfence()"), std::string::npos);
}

// The control flow, on small listings written for the purpose: a fence on one branch only does not cover the other;
// a store after the ticket (the last block's result) needs none; a release atomic is its own fence.
TEST(Fence, EveryPathCountsInPtx) {
  const std::string head = ".visible .entry k(\n)\n{\n";
  const std::string one_branch = head +
      "\tst.global.u32 [%rd1], %r1;\n\t@%p1 bra $L__BB0_2;\n\tmembar.gl;\n$L__BB0_2:\n"
      "\tatom.global.inc.u32 %r2, [%rd2], %r3;\n\tret;\n}\n";
  FenceFinding f = fence_in_ptx(one_branch, "k");
  EXPECT_TRUE(f.judged && f.missing) << f.why_not;
  const std::string both = head +
      "\tst.global.u32 [%rd1], %r1;\n\tmembar.gl;\n\t@%p1 bra $L__BB0_2;\n\tst.shared.u32 [%rd3], %r1;\n"
      "$L__BB0_2:\n\tatom.global.inc.u32 %r2, [%rd2], %r3;\n\tst.global.u32 [%rd4], %r5;\n"
      "\tatom.global.exch.b32 %r6, [%rd2], 0;\n\tret;\n}\n";
  f = fence_in_ptx(both, "k");
  EXPECT_TRUE(f.judged && !f.missing && f.stores_before_ticket);
  EXPECT_EQ(f.tickets, 1);  // the exchange after the ticket is not a ticket
  const std::string release = head +
      "\tst.relaxed.gpu.b32 [%rd1], %r1;\n\tatom.add.acq_rel.gpu.u32 %r2, [%rd2], %r3;\n\tret;\n}\n";
  f = fence_in_ptx(release, "k");
  EXPECT_TRUE(f.judged && !f.missing);
  const std::string cta = head + "\tst.global.u32 [%rd1], %r1;\n\tmembar.cta;\n\tatom.global.add.u32 %r2, [%rd2], 1;\n\tret;\n}\n";
  EXPECT_TRUE(fence_in_ptx(cta, "k").missing);  // a block-scope fence orders nothing across blocks
  const std::string indirect = head + "\tbrx.idx %r1, $L_tab;\n\tret;\n}\n";
  EXPECT_FALSE(fence_in_ptx(indirect, "k").judged);
  EXPECT_FALSE(fence_in_ptx(indirect, "nope").judged);
}

TEST(Fence, EveryPathCountsInSass) {
  const std::string listing =
      "\t.text.k:\n"
      "\t//## File \"/t/k.cu\", line 10\n"
      "        /*0000*/                   STG.E desc[UR4][R2.64], R5 ;\n"
      "        /*0010*/               @P0 BRA `(.L_x_1) ;\n"
      "\t//## File \"/t/k.cu\", line 11\n"
      "        /*0020*/                   MEMBAR.SC.GPU ;\n"
      ".L_x_1:\n"
      "\t//## File \"/t/k.cu\", line 12\n"
      "        /*0030*/                   ATOMG.E.INC.STRONG.GPU PT, R7, desc[UR4][R8.64], R9 ;\n"
      "        /*0040*/                   EXIT ;\n"
      ".L_x_2:\n"
      "        /*0050*/                   BRA `(.L_x_2);\n";
  FenceFinding f = fence_in_sass(listing, "k", "k.cu");
  ASSERT_TRUE(f.judged) << f.why_not;
  EXPECT_TRUE(f.missing);
  EXPECT_EQ(f.store_line, 10u);
  EXPECT_EQ(f.atomic_line, 12u);
  std::string fenced = listing;
  fenced.replace(fenced.find("@P0 BRA"), 3, "   ");  // the branch gone: the MEMBAR is on the one path
  fenced.replace(fenced.find("BRA `(.L_x_1)"), 13, "NOP          ");
  f = fence_in_sass(fenced, "k", "k.cu");
  EXPECT_TRUE(f.judged && !f.missing && f.fences == 1) << f.why_not;
}

// Listings nvdisasm gave on the H100 for the corpus's single passes (scripts/device/hidden_bugs.sh keeps them):
// the right ones fenced, the fence-less one not, at the same lines as the PTX says.
TEST(Fence, TheH100sSassOfTheCorpus) {
  const fs::path dir = fs::path(RS_GRADING_FIXTURES) / "sass";
  if (!fs::exists(dir)) GTEST_SKIP() << "no listings recorded";
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    const FenceFinding f = fence_in_sass(read_text(entry.path()), "_Z11user_kernelIiEvPKT_PS0_j", name + ".cu");
    ASSERT_TRUE(f.judged) << f.why_not;
    EXPECT_EQ(f.missing, name.rfind("wrong_no_threadfence", 0) == 0) << f.store_line << " " << f.atomic_line;
    ++seen;
  }
  EXPECT_GE(seen, 5);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// The half-warp mask of the corpus (shuffle/wrong_half_mask_all_lanes.cu): a register set once to 65535, found at the
// shuffle's line; the right file's full mask is not listed.
TEST(Fence, ShuffleMasksFromThePtx) {
  if (!user_kernels_supported()) GTEST_SKIP() << "this build has no NVRTC";
  const fs::path dir = fs::path(RS_USER_FIXTURES) / "corpus" / "shuffle";
  const std::string text = read_text(dir / "wrong_half_mask_all_lanes.cu");
  UserCompileResult r = compile_user_kernel_file((dir / "wrong_half_mask_all_lanes.cu").string(), {.cc = 90, .pch = false});
  ASSERT_TRUE(r.ok());
  std::vector<ShuffleMask> m = shuffle_masks_in_ptx(r.kernel->timing.ptx, r.kernel->timing.int_entry, r.kernel->file_name);
  ASSERT_FALSE(m.empty());
  for (const ShuffleMask& s : m) {
    EXPECT_EQ(s.mask, 0xffffu);
    EXPECT_EQ(s.line, line_of(text, "__shfl_down_sync(FULL_MASK"));
  }
  r = compile_user_kernel_file((dir / "right_block_reduce_sum_first_add.cu").string(), {.cc = 90, .pch = false});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(shuffle_masks_in_ptx(r.kernel->timing.ptx, r.kernel->timing.int_entry, r.kernel->file_name).empty());
}

}  // namespace
}  // namespace rs
