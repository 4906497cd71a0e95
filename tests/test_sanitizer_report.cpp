// compute-sanitizer's words about a faulting kernel (app/commands/sanitizer_report.hpp, issue 29), on its real
// output recorded on the H100: a trap (tests/fixtures/user/trap.cu) and an out-of-bounds read.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "commands/sanitizer_report.hpp"

namespace {

std::string read(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Before: the report's head did not say "error", so the first report read only "Target application returned an
// error". Now: the trap, its kernel and line, its thread and block, and no host backtrace.
TEST(SanitizerReport, ATrapIsReportedAsATrapWithItsBlockAndThread) {
  const std::string text = read(RS_USER_FIXTURES "/trap-memcheck.txt");
  const std::string first = rs::sanitizer_first_report(text);
  EXPECT_EQ(first,
            "  Trace/breakpoint trap\n"
            "      at void user_kernel<int, rs::NullProbe>(const T1 *, T1 *, unsigned int, T2)+0x70 in trap.cu:31\n"
            "      by thread (5,0,0) in block (3,0,0)\n");
  EXPECT_EQ(rs::trap_sentence(first),
            "the kernel trapped (__trap(), or a failed assert in device code) in block (3,0,0), thread (5,0,0), at "
            "trap.cu:31");
}

TEST(SanitizerReport, AMemoryErrorKeepsItsLinesAndIsNoTrap) {
  const std::string text =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at void user_kernel<int, rs::NullProbe>(const T1 *, T1 *, unsigned int, T2)+0x80 in out_of_bounds.cu:13\n"
      "=========     by thread (1,0,0) in block (0,0,0)\n"
      "=========     Access to 0x7f6093e00000 is out of bounds\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1\n"
      "========= \n"
      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call\n";
  const std::string first = rs::sanitizer_first_report(text);
  EXPECT_NE(first.find("  Invalid __global__ read of size 4 bytes\n"), std::string::npos) << first;
  EXPECT_NE(first.find("in out_of_bounds.cu:13"), std::string::npos) << first;
  EXPECT_EQ(first.find("Host Frame"), std::string::npos) << first;
  EXPECT_EQ(first.find("Program hit"), std::string::npos) << first;
  EXPECT_EQ(rs::trap_sentence(first), "");
}

TEST(SanitizerReport, OnlyTheToolsOwnLinesGiveTheFirstOfThem) {
  EXPECT_EQ(rs::sanitizer_first_report("========= COMPUTE-SANITIZER\n========= Target application returned an error\n"
                                       "========= ERROR SUMMARY: 0 errors\n"),
            "  Target application returned an error\n");
  EXPECT_EQ(rs::sanitizer_first_report("plain output, no tool\n"), "");
}

}  // namespace
