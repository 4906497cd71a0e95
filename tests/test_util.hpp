// Helpers shared by the unit tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "cli.hpp"
#include "trace_format.hpp"

namespace rs::test {

// A fresh temporary directory for the running test, removed with its files when the test ends.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / ("rs_" + std::string(info->test_suite_name()) + "_" +
                                                     std::string(info->name()) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// ---- parsing outcomes and byte patching (trace and session files) -------------------------------

// A damaged file must give either a parsed result or the reader's format error; anything else (another
// exception, a crash) fails the test.
enum class Outcome { Parsed, FormatError, OtherError };

inline std::ostream& operator<<(std::ostream& o, Outcome x) {
  return o << (x == Outcome::Parsed ? "Parsed" : x == Outcome::FormatError ? "FormatError" : "OtherError");
}

// Runs parse(); Parsed (its result into *out if given), FormatError if it throws `Error` (message
// into *msg), OtherError for any other exception.
template <class Error, class Result, class Parse>
Outcome classify_parse(Parse parse, Result* out, std::string* msg) {
  try {
    Result r = parse();
    if (out) *out = std::move(r);
    return Outcome::Parsed;
  } catch (const Error& e) {
    if (msg) *msg = e.what();
    return Outcome::FormatError;
  } catch (const std::exception& e) {
    if (msg) *msg = std::string("not the reader's format error: ") + e.what();
    return Outcome::OtherError;
  }
}

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// The whole of a file's bytes ("" if it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Little-endian fields, as the file formats store them.
inline void put_u32(std::string& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
inline void put_u64(std::string& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
inline void append_u32(std::string& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>(v >> (8 * i)));
}
inline void append_u64(std::string& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<char>(v >> (8 * i)));
}

// Every field of two traces, and every record but its reserved bytes, are equal.
inline void expect_same_trace(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.meta.kernel, b.meta.kernel);
  EXPECT_EQ(a.meta.block_size, b.meta.block_size);
  EXPECT_EQ(a.meta.n, b.meta.n);
  EXPECT_EQ(a.meta.traced_block, b.meta.traced_block);
  EXPECT_EQ(a.meta.grid_size, b.meta.grid_size);
  EXPECT_EQ(a.meta.smem_bytes, b.meta.smem_bytes);
  EXPECT_EQ(a.meta.pattern, b.meta.pattern);
  EXPECT_EQ(a.meta.gpu, b.meta.gpu);
  EXPECT_EQ(a.meta.compute_capability, b.meta.compute_capability);
  EXPECT_EQ(a.meta.cuda_version, b.meta.cuda_version);
  EXPECT_EQ(a.meta.date, b.meta.date);
  EXPECT_EQ(a.meta.tool_version, b.meta.tool_version);
  EXPECT_EQ(a.meta.result, b.meta.result);
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t i = 0; i < a.records.size(); ++i) {
    const TraceRecord& x = a.records[i];
    const TraceRecord& y = b.records[i];
    EXPECT_EQ(x.epoch, y.epoch) << i;
    EXPECT_EQ(x.seq, y.seq) << i;
    EXPECT_EQ(x.addr, y.addr) << i;
    EXPECT_EQ(x.value, y.value) << i;
    EXPECT_EQ(x.active_mask, y.active_mask) << i;
    EXPECT_EQ(x.thread, y.thread) << i;
    EXPECT_EQ(x.line, y.line) << i;
    EXPECT_EQ(x.kind, y.kind) << i;
  }
}

// ---- file-level failures, the same for every file format ----------------------------------------

// Runs f(), which must throw `Error` with `path` in its message; returns the message.
template <class Error, class F>
std::string expect_error_naming(F f, const std::string& path) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), path)) << "the message does not name " << path << ": " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error raised for " << path;
  return "";
}

// save(path) where a non-empty directory stands: the rename fails; the error names the path, the
// temporary "<path>.part" is gone and the directory is untouched.
template <class Error, class Save>
void expect_failed_save_leaves_no_temporary(const TempDir& dir, Save save) {
  const std::string path = dir.path("taken");
  std::filesystem::create_directories(path + "/inside");
  expect_error_naming<Error>([&] { save(path); }, path);
  EXPECT_FALSE(std::filesystem::exists(path + ".part"));
  EXPECT_TRUE(std::filesystem::is_directory(path + "/inside"));
}

// save(path) into a folder that does not exist: an error naming the path, and no file or temporary.
template <class Error, class Save>
void expect_save_into_missing_directory_fails(const TempDir& dir, Save save, const std::string& file) {
  const std::string path = dir.path("no/such/dir/" + file);
  expect_error_naming<Error>([&] { save(path); }, path);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".part"));
}

using Args = std::vector<std::string>;

// The UsageError message of parse_cli(args); fails the test if it does not throw one.
inline std::string usage_error(const Args& args) {
  try {
    parse_cli(args);
  } catch (const UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected UsageError, got another exception: " << e.what();
    return "";
  }
  std::string joined;
  for (const auto& a : args) joined += " " + a;
  ADD_FAILURE() << "expected UsageError for:" << joined;
  return "";
}

}  // namespace rs::test
