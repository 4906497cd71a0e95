// compute-sanitizer's words about a kernel that faulted (app/commands/in_worker.cpp, issue 29): the first report
// of the kernel's own (a memory error, a trap) out of its output, and a trap said as a trap. Plain text parsing,
// tested on recorded output (tests/fixtures/user/trap-memcheck.txt).
#pragma once

#include <string>

namespace rs {

// The first report in compute-sanitizer's output `text` that is about the kernel, without the "=========" prefixes
// and the host backtrace: its head ("Invalid __global__ read of size 4 bytes", "Trace/breakpoint trap") and the
// lines under it (the kernel, its file:line, the thread and block, the address), at most 6 lines, each indented by
// two spaces. The tool's own lines ("Target application returned an error", "Program hit ... on CUDA API call",
// "ERROR SUMMARY") are no report of the kernel: a text with only those gives its first such line; "" for none.
std::string sanitizer_first_report(const std::string& text);

// One sentence for a report whose head is a trap ("Trace/breakpoint trap"): "the kernel trapped (__trap(), or a
// failed assert in device code) in block (3,0,0), thread (5,0,0), at trap.cu:31"; "" for any other report.
std::string trap_sentence(const std::string& report);

}  // namespace rs
