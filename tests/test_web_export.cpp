// The web page export (app/export/web_export.*): the page loads nothing from the network, its data
// block decodes (base64, CRC, zlib, JSON) back to exactly the steps the C++ replay model gives for
// every trace of the bundled H100 session, the multi-GPU recording of the multigpu fixture, the bundled
// session's page fits 3.5 MB, the byte budget keeps each track's default block size first, and every
// refusal (nothing to replay, a block size the session lacks, a trace the replay refuses, an unwritable
// file, a damaged data block).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "exact_steps.hpp"
#include "exact_sum.hpp"
#include "input.hpp"
#include "kernel_info.hpp"
#include "multigpu.hpp"
#include "replay.hpp"
#include "session.hpp"
#include "test_util.hpp"
#include "web_assets.hpp"
#include "web_export.hpp"
#include "web_i18n.hpp"

namespace rs {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The bundled session and its page with the default choice, built once for the suite.
struct Bundled {
  Session session;
  std::string page;
  WebExportResult result;
  std::vector<std::string> parts;  // decoded: [0] index, then the traces
  json index;
};

const Session& bundled_session() {
  static const Session* s = new Session(load_session(RS_TRACKS_SESSION_FILE));
  return *s;
}

const Bundled& bundled() {
  static const Bundled* b = [] {
    auto* x = new Bundled;
    x->session = bundled_session();
    x->page = web_page(x->session, {}, &x->result);
    x->parts = decode_web_data(web_data_block(x->page));
    x->index = json::parse(x->parts.at(0));
    return x;
  }();
  return *b;
}

// Undoes one lane list's delta coding (web_export.cpp: lane_values with delta).
std::array<int64_t, kWarpSize> undelta(uint32_t mask, const json& d) {
  std::array<int64_t, kWarpSize> out{};
  out.fill(-1);
  size_t i = 0;
  int64_t prev = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!(mask >> l & 1u)) continue;
    prev = i == 0 ? d.at(0).get<int64_t>() : prev + d.at(i).get<int64_t>();
    out[l] = prev;
    ++i;
  }
  EXPECT_EQ(i, d.size());
  return out;
}

std::vector<uint8_t> flags(const json& j, const char* key, size_t n) {
  std::vector<uint8_t> f(n, 0);
  if (!j.contains(key)) return f;
  const json& r = j[key];
  for (size_t i = 0; i + 1 < r.size(); i += 2) {
    for (uint32_t k = 0; k < r[i + 1].get<uint32_t>(); ++k) f.at(r[i].get<uint32_t>() + k) = 1;
  }
  return f;
}

// Compares one trace's part with the replay model's steps, field by field.
void expect_matches_replay(const Trace& trace, const json& t) {
  const Replay r(trace);
  SCOPED_TRACE(trace.meta.kernel + " at " + std::to_string(trace.meta.block_size));
  ASSERT_EQ(t["kernel"], trace.meta.kernel);
  ASSERT_EQ(t["bs"], trace.meta.block_size);
  ASSERT_EQ(t["warps"], r.num_warps());
  ASSERT_EQ(t["words"].get<size_t>(), r.num_words());
  EXPECT_EQ(t["ldc"], r.load_conflicts());
  EXPECT_EQ(t["stc"], r.store_conflicts());
  EXPECT_EQ(t["has"]["shared"], r.has_shared());
  EXPECT_EQ(t["has"]["lanes"], r.has_lane_work());
  EXPECT_EQ(t["has"]["atomics"], r.has_atomics());
  EXPECT_EQ(t["has"]["global"], r.has_global());
  EXPECT_EQ(t["has"]["slice"], r.has_global_slice());
  EXPECT_EQ(t["result_lanes"].get<std::vector<int>>(), r.result_lanes());
  EXPECT_EQ(t["counts"]["shuffles"], r.shuffle_instruction_count());
  EXPECT_EQ(t["counts"]["global_loads"], r.global_request_count(AccessKind::GlobalLoad));
  const json& steps = t["steps"];
  ASSERT_EQ(steps.size(), r.num_steps());

  // Atomic targets and their landing order.
  ASSERT_EQ(t["targets"].size(), r.atomic_targets().size());
  for (size_t i = 0; i < r.atomic_targets().size(); ++i) {
    const AtomicTarget& want = r.atomic_targets()[i];
    const json& got = t["targets"][i];
    EXPECT_EQ(got["addr"], want.addr);
    EXPECT_EQ(got["chained"], want.chained);
    ASSERT_EQ(got["o"].size(), want.order.size() * 5);
    for (size_t k = 0; k < want.order.size(); ++k) {
      EXPECT_EQ(got["o"][5 * k], want.order[k].thread);
      EXPECT_EQ(got["o"][5 * k + 1], want.order[k].epoch);
      EXPECT_EQ(static_cast<uint32_t>(got["o"][5 * k + 3].get<int32_t>()), want.order[k].old);
    }
  }

  std::vector<int32_t> smem(r.num_words(), 0), gv(r.global_slice().count, 0);
  std::vector<uint8_t> def(r.num_words(), 0), gdef(r.global_slice().count, 0);
  for (size_t si = 0; si < r.num_steps(); ++si) {
    const Step& st = r.step(si);
    const json& j = steps[si];
    SCOPED_TRACE("step " + std::to_string(si));
    EXPECT_EQ(j["end"], static_cast<int>(st.ended_by));
    EXPECT_EQ(j["bl"], st.barrier_line);
    EXPECT_EQ(j["lines"].get<std::vector<uint16_t>>(), st.lines);
    EXPECT_EQ(j["ld"], st.loads);
    EXPECT_EQ(j["st"], st.stores);
    EXPECT_EQ(j["ldc"], st.load_conflicts);
    EXPECT_EQ(j["stc"], st.store_conflicts);
    EXPECT_EQ(j["deg"], st.max_degree);
    EXPECT_EQ(j["aw"], st.active_warps());
    ASSERT_EQ(j["warps"].size(), st.warps.size() * 5);
    for (size_t w = 0; w < st.warps.size(); ++w) {
      EXPECT_EQ(j["warps"][5 * w], st.warps[w].useful);
      EXPECT_EQ(j["warps"][5 * w + 1], st.warps[w].active_mask);
      EXPECT_EQ(j["warps"][5 * w + 2], st.warps[w].exited);
      EXPECT_EQ(j["warps"][5 * w + 3], st.warps[w].diverged ? 1 : 0);
      EXPECT_NEAR(j["warps"][5 * w + 4].get<double>() / 1000.0, st.warps[w].efficiency, 0.0006);
    }
    // The snapshot after the step, rebuilt from the deltas.
    if (j.contains("set")) {
      for (size_t i = 0; i + 1 < j["set"].size(); i += 2) {
        smem.at(j["set"][i].get<size_t>()) = j["set"][i + 1].get<int32_t>();
        def.at(j["set"][i].get<size_t>()) = 1;
      }
    }
    EXPECT_EQ(def, st.defined);
    for (size_t w = 0; w < smem.size(); ++w) {
      if (st.defined[w]) {
        ASSERT_EQ(smem[w], st.smem[w]) << "word " << w;
      }
    }
    EXPECT_EQ(flags(j, "wr", r.num_words()), st.written);
    EXPECT_EQ(flags(j, "rd", r.num_words()), st.read);
    std::vector<std::pair<uint32_t, uint32_t>> flows;
    if (j.contains("flows")) {
      for (size_t i = 0; i + 1 < j["flows"].size(); i += 2) flows.emplace_back(j["flows"][i], j["flows"][i + 1]);
    }
    EXPECT_EQ(flows, st.flows);

    const json none = json::array();
    const json& acc = j.contains("acc") ? j["acc"] : none;
    ASSERT_EQ(acc.size(), st.accesses.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const WarpAccess& a = r.accesses()[st.accesses[i]];
      EXPECT_EQ(acc[i]["k"], static_cast<int>(a.kind));
      EXPECT_EQ(acc[i]["w"], a.warp);
      EXPECT_EQ(acc[i]["l"], a.line);
      EXPECT_EQ(acc[i]["m"], a.lanes);
      EXPECT_EQ(acc[i]["am"], a.active_mask);
      EXPECT_EQ(acc[i]["deg"], a.banks.degree);
      const auto words = undelta(a.lanes, acc[i]["a"]);
      for (int l = 0; l < kWarpSize; ++l) {
        if (a.lanes >> l & 1u) {
          EXPECT_EQ(words[l], a.addr[l] / kBankWidthBytes) << "lane " << l;
        }
      }
      for (int b = 0; b < kNumBanks; ++b) EXPECT_EQ(acc[i]["wpb"][b], a.banks.words_per_bank[b]);
    }
    const json& shf = j.contains("shf") ? j["shf"] : none;
    ASSERT_EQ(shf.size(), st.shuffles.size());
    for (size_t i = 0; i < shf.size(); ++i) {
      const WarpShuffle& s = r.shuffles()[st.shuffles[i]];
      EXPECT_EQ(shf[i]["w"], s.warp);
      EXPECT_EQ(shf[i]["m"], s.lanes);
      EXPECT_EQ(shf[i]["ok"], s.consistent);
      if (s.kind == AccessKind::Shuffle) {
        ASSERT_EQ(shf[i]["src"].size(), s.moves.size());
        for (size_t k = 0; k < s.moves.size(); ++k) EXPECT_EQ(shf[i]["src"][k], s.moves[k].src);
      }
      size_t k = 0;
      for (int l = 0; l < kWarpSize; ++l) {
        if (!(s.lanes >> l & 1u)) continue;
        EXPECT_EQ(static_cast<uint32_t>(shf[i]["of"][k].get<int32_t>()), s.offered[l]);
        EXPECT_EQ(static_cast<uint32_t>(shf[i]["rc"][k].get<int32_t>()), s.received[l]);
        ++k;
      }
    }
    const json& atm = j.contains("atm") ? j["atm"] : none;
    ASSERT_EQ(atm.size(), st.atomics.size());
    for (size_t i = 0; i < atm.size(); ++i) {
      const WarpAtomic& a = r.atomics()[st.atomics[i]];
      EXPECT_EQ(atm[i]["mx"], a.max_contention);
      ASSERT_EQ(atm[i]["ct"].size(), a.contention.size() * 2);
      for (size_t k = 0; k < a.contention.size(); ++k) {
        EXPECT_EQ(atm[i]["ct"][2 * k], a.contention[k].first);
        EXPECT_EQ(atm[i]["ct"][2 * k + 1], a.contention[k].second);
      }
    }
    const json& req = j.contains("req") ? j["req"] : none;
    ASSERT_EQ(req.size(), st.global_requests.size());
    for (size_t i = 0; i < req.size(); ++i) {
      const GlobalRequest& g = r.global_requests()[st.global_requests[i]];
      EXPECT_EQ(req[i]["k"], static_cast<int>(g.kind));
      EXPECT_EQ(req[i]["sec"], g.sectors);
      EXPECT_EQ(req[i]["min"], g.min_sectors);
      EXPECT_EQ(req[i]["rb"], g.requested_bytes);
      EXPECT_NEAR(req[i]["eff"].get<double>(), g.efficiency(), 0.0006);
      const auto idx = undelta(g.lanes, req[i]["ix"]);
      for (int l = 0; l < kWarpSize; ++l) {
        if (g.lanes >> l & 1u) {
          EXPECT_EQ(idx[l], g.index[l]) << "lane " << l;
        }
      }
    }
    if (r.has_global_slice()) {
      if (j.contains("gset")) {
        for (size_t i = 0; i + 1 < j["gset"].size(); i += 2) {
          gv.at(j["gset"][i].get<size_t>()) = j["gset"][i + 1].get<int32_t>();
          gdef.at(j["gset"][i].get<size_t>()) = 1;
        }
      }
      EXPECT_EQ(gdef, st.global_defined);
      for (size_t c = 0; c < gv.size(); ++c) {
        if (st.global_defined[c]) {
          ASSERT_EQ(gv[c], st.global_values[c]) << "cell " << c;
        }
      }
      EXPECT_EQ(flags(j, "gwr", gv.size()), st.global_written);
      EXPECT_EQ(flags(j, "grd", gv.size()), st.global_read);
    }
  }
}

const Trace& find_trace(const Session& s, const std::string& kernel, uint32_t bs,
                        std::optional<DType> dtype = std::nullopt) {
  const Trace* t = s.find_trace(kernel, bs, dtype);
  if (!t) throw std::runtime_error("the bundled session has no trace of " + kernel + " at " + std::to_string(bs));
  return *t;
}

// The JSON text of the trace an index entry names (its kernel's part, offset and length).
std::string entry_text(const std::vector<std::string>& parts, const json& e) {
  return web_trace_text(parts, e["part"].get<size_t>(), e["at"].get<size_t>(), e["bytes"].get<size_t>());
}

// A small session: two Harris traces from the bundled one, with their timings.
Session small_session() {
  const Session& big = bundled_session();
  Session s;
  s.meta = big.meta;
  for (const auto& [k, b] : std::vector<std::pair<std::string, uint32_t>>{{"reduce1", 128}, {"reduce1", 256}}) {
    s.traces.push_back(find_trace(big, k, b));
    if (const SessionTiming* t = big.find_timing(k, b)) s.timings.push_back(*t);
  }
  return s;
}

TEST(WebExport, PageLoadsNothingFromOutside) {
  const std::string& page = bundled().page;
  for (const char* bad : {"http://", "https://", "//cdn", "<link", "@import", "url(", "<iframe", "<img", "src="}) {
    EXPECT_EQ(page.find(bad), std::string::npos) << "the page holds " << bad;
  }
  // Every script is inline: the page's only <script> elements have no src: the code, the Chinese dictionary
  // (issue 31, web_i18n.hpp) and the data.
  size_t scripts = 0;
  for (size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) ++scripts;
  EXPECT_EQ(scripts, 3u);
  EXPECT_NE(page.find("RECORDING"), std::string::npos);
  EXPECT_NE(page.find("<title>ReduceScope replay: NVIDIA H100"), std::string::npos);
}

// Issue 57, item 6: the page the README links is at the exporter's version of the page's features (kWebPageVersion),
// so a new user who opens it finds what the exporter makes now (Predict mode, the lessons). When a change to the
// page's features raises the version, this fails until the page is exported again:
//   reducescope export assets/sessions/h100-tracks.rssession --html docs/replay/h100-tracks.html
TEST(WebExport, TheReadmesPageIsAtTheExportersVersion) {
  std::ifstream f(RS_README_PAGE, std::ios::binary);
  ASSERT_TRUE(f.good()) << "cannot read " << RS_README_PAGE;
  const std::string page(std::istreambuf_iterator<char>(f), {});
  EXPECT_GE(web_page_version(page), kWebPageVersion)
      << RS_README_PAGE << " is a page of version " << web_page_version(page) << ", the exporter's is " << kWebPageVersion
      << ": export it again from the bundled session";
  // A page without the tag is the first version; the exporter writes its own.
  EXPECT_EQ(web_page_version("<html><head></head></html>"), 1u);
  EXPECT_EQ(web_page_version(web_page(bundled_session())), kWebPageVersion);
}

TEST(WebExport, EmbeddedSourcesAreTheWebFolder) {
  // The build embeds web/ as it is: what the page runs is what the repository holds. The script is the
  // modules under web/js/ joined in the order of RS_WEB_JS_FILES (app/export/embed_web.cmake): one
  // function scope, which the first module opens and the last closes.
  auto read = [](const fs::path& path) {
    std::ifstream f(path, std::ios::binary);
    EXPECT_TRUE(f.good()) << "cannot read " << path;
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const fs::path web = RS_WEB_DIR;
  EXPECT_EQ(web_asset_html(), read(web / "replay.html"));
  EXPECT_EQ(web_asset_css(), read(web / "replay.css"));

  const std::string list = RS_WEB_JS_FILES;
  std::vector<std::string> modules;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    modules.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  ASSERT_GE(modules.size(), 2u) << "RS_WEB_JS_FILES: " << list;
  std::vector<std::string> texts;
  std::string joined;
  for (const std::string& m : modules) {
    texts.push_back(read(web / "js" / m));
    joined += texts.back();
  }
  const std::string& js = web_asset_js();
  std::string first_difference = "its end";
  for (size_t i = 0, at = 0; i < modules.size(); at += texts[i++].size()) {
    if (js.compare(at, texts[i].size(), texts[i]) != 0) {
      first_difference = modules[i];
      break;
    }
  }
  EXPECT_TRUE(js == joined) << "the embedded script (" << js.size() << " bytes) is not web/js/ joined in the order of "
                            << "RS_WEB_JS_FILES (" << joined.size() << " bytes); first difference: " << first_difference;
  EXPECT_GT(web_asset_js().size(), 20000u);

  // None forgotten, none twice: every .js file under web/js/ is in the list, once.
  const std::set<std::string> listed(modules.begin(), modules.end());
  EXPECT_EQ(listed.size(), modules.size()) << "a module is listed twice in RS_WEB_JS_FILES: " << list;
  size_t on_disk = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(web / "js")) {
    if (e.path().extension() != ".js") continue;
    ++on_disk;
    EXPECT_TRUE(listed.count(e.path().filename().string()))
        << e.path() << " is not in RS_WEB_JS_FILES (app/export/embed_web.cmake): the page would not run it";
  }
  EXPECT_EQ(on_disk, listed.size());

  // One function scope: the first module is comment lines, then the opening; the last ends with the
  // closing; every other line of every module is empty or indented (the scope's body).
  auto body_only = [](const std::string& text, const std::string& name) {
    size_t line = 0;
    for (size_t at = 0; at < text.size(); ++line) {
      const size_t end = std::min(text.find('\n', at), text.size());
      const std::string l = text.substr(at, end - at);
      EXPECT_TRUE(l.empty() || l.rfind("  ", 0) == 0)
          << name << ", line " << line + 1 << " of the scope's body is not indented: " << l;
      at = end + 1;
    }
  };
  for (size_t i = 0; i < modules.size(); ++i) {
    const std::string& text = texts[i];
    ASSERT_FALSE(text.empty()) << modules[i];
    EXPECT_EQ(text.back(), '\n') << modules[i] << " does not end its last line";
    std::string body = text, name = modules[i];
    if (i == 0) {
      const std::string open = "(function () {\n  'use strict';\n";
      const size_t at = text.find(open);
      ASSERT_NE(at, std::string::npos) << name << " does not open the function scope";
      for (size_t l = 0; l < at; l = text.find('\n', l) + 1) {
        EXPECT_EQ(text.compare(l, 2, "//"), 0) << name << ": only comments come before the function scope";
      }
      body = text.substr(at + open.size());
      name += " (after the opening)";
    }
    if (i + 1 == modules.size()) {
      const std::string close = "})();\n";
      ASSERT_TRUE(text.size() > close.size() && text.compare(text.size() - close.size(), close.size(), close) == 0 &&
                  text[text.size() - close.size() - 1] == '\n')
          << name << " does not close the function scope with its last line";
      body = body.substr(0, body.size() - close.size());
    }
    body_only(body, name);
  }
}

TEST(WebExport, DataDecodesToTheReplayModelsSteps) {
  const Bundled& b = bundled();
  const json& traces = b.index["traces"];
  ASSERT_EQ(traces.size(), b.result.traces);
  ASSERT_GT(traces.size(), 100u);
  // One part per kernel, its traces one per line, one after the other; the index says where each is.
  std::map<size_t, std::string> kernel_of_part;
  std::map<size_t, size_t> next_at;
  for (const json& e : traces) {
    const size_t part = e["part"];
    auto [it, first] = kernel_of_part.emplace(part, e["kernel"].get<std::string>());
    EXPECT_EQ(it->second, e["kernel"]) << "part " << part << " holds one kernel's traces";
    EXPECT_EQ(e["at"].get<size_t>(), next_at[part]) << e["kernel"] << " at " << e["bs"];
    next_at[part] = e["at"].get<size_t>() + e["bytes"].get<size_t>() + 1;
  }
  ASSERT_EQ(kernel_of_part.size(), b.parts.size() - 1);
  for (const auto& [part, at] : next_at) EXPECT_EQ(b.parts.at(part).size() + 1, at) << "part " << part << " holds no more";
  std::set<std::string> kinds;  // which views the compared traces exercise
  for (const json& e : traces) {
    const Trace& t = find_trace(b.session, e["kernel"], e["bs"], e["dtype"] == "float32" ? DType::Float32 : DType::Int32);
    const json part = json::parse(entry_text(b.parts, e));
    EXPECT_EQ(part["dtype"], e["dtype"]);
    EXPECT_EQ(e["steps"].get<size_t>(), part["steps"].size());
    expect_matches_replay(t, part);
    for (const json& st : part["steps"]) {
      for (const char* k : {"acc", "shf", "atm", "req", "gset"}) {
        if (st.contains(k)) kinds.insert(k);
      }
    }
    // The trace's source is the one its line numbers refer to.
    EXPECT_EQ(b.index["sources"][part["src"].get<size_t>()], t.source);
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"acc", "shf", "atm", "req", "gset"}));
}

TEST(WebExport, IndexHoldsTheSessionAndTheRegistry) {
  const Bundled& b = bundled();
  const json& ix = b.index;
  EXPECT_EQ(ix["meta"]["gpu"], b.session.meta.gpu);
  EXPECT_EQ(ix["meta"]["date"], b.session.meta.date);
  EXPECT_EQ(ix["meta"]["method"], b.session.meta.method);
  EXPECT_EQ(ix["timings"].size(), b.session.timings.size());
  // One trace per kernel, block size and element type counts: float32 ones beside int32 ones too (issue 30: the
  // page's switch), the binary tracer's where the source probe's is there too not.
  std::set<std::pair<std::string, uint32_t>> pairs;
  std::set<std::tuple<std::string, uint32_t, DType>> typed;
  for (const Trace& t : b.session.traces) {
    pairs.insert({t.meta.kernel, t.meta.block_size});
    typed.insert({t.meta.kernel, t.meta.block_size, t.meta.dtype});
  }
  EXPECT_LT(pairs.size(), typed.size()) << "the bundled session holds float32 traces beside int32 ones";
  EXPECT_LT(typed.size(), b.session.traces.size()) << "and the binary tracer's beside the source probe's";
  EXPECT_EQ(ix["traces_in_session"], typed.size());
  // Every registry track and kernel, in order; the pitfalls labelled.
  ASSERT_GE(ix["tracks"].size(), track_table().size());
  for (size_t i = 0; i < track_table().size(); ++i) {
    const json& t = ix["tracks"][i];
    EXPECT_EQ(t["id"], track_table()[i].id);
    EXPECT_EQ(t["bs"], track_table()[i].default_block_size);
    const auto ids = track_kernels(track_table()[i].id);
    ASSERT_EQ(t["kernels"].size(), ids.size());
    for (size_t k = 0; k < ids.size(); ++k) {
      EXPECT_EQ(t["kernels"][k]["name"], kernel_info(ids[k]).name);
      EXPECT_EQ(t["kernels"][k].contains("pitfall"), kernel_info(ids[k]).pitfall != nullptr);
    }
    // CUB's kernels the session holds (issue 29), after the track's own, with the kernels they do the job of.
    const auto libs = track_library_kernels(track_table()[i].id);
    ASSERT_EQ(t["library"].size(), libs.size()) << t["id"];
    for (size_t k = 0; k < libs.size(); ++k) {
      EXPECT_EQ(t["library"][k]["name"], libs[k]->name);
      EXPECT_EQ(t["library"][k]["beside"][0], libs[k]->beside[0]);
      EXPECT_EQ(t["library"][k]["file"], libs[k]->file);
      EXPECT_FALSE(t["library"][k]["how"].get<std::string>().empty());
      bool held = false;
      for (const json& e : ix["traces"]) held = held || e["kernel"] == libs[k]->name;
      EXPECT_TRUE(held) << libs[k]->name << "'s trace is on the page";
    }
  }
  for (const json& t : ix["tracks"]) EXPECT_NE(t["id"], "other") << "CUB's kernels are no unknown kernels";
  // Why the bits differ (issue 30): the session's second runs, each with its sentence and the first rows.
  ASSERT_EQ(ix["two_runs"].size(), b.session.other_runs.size());
  for (const json& r : ix["two_runs"]) {
    SCOPED_TRACE(r["kernel"].get<std::string>());
    EXPECT_NE(r["result1"], r["result2"]);
    ASSERT_GE(r["first"].get<int>(), 0);
    EXPECT_GT(r["rows"].size(), r["first"].get<size_t>());
    // [k, args]: the explain layer's sentence (explain::two_runs_sentence), said in the page's language.
    ASSERT_TRUE(r["sentence"].is_array());
    EXPECT_NE(ix["msgs"][r["sentence"][0].get<size_t>()].get<std::string>().find("not associative"), std::string::npos);
    EXPECT_EQ(r["sentence"].size(), 8u) << "the id, then the update, and each run's operand, running value and rounding";
    EXPECT_EQ(r["rows"][0].size(), 2u) << "a row: run 1's update, run 2's";
    // The traces' N, which the page says beside the table's (issue 38: the bits view's N is not the session's).
    EXPECT_EQ(r["n"].get<uint64_t>(), b.session.meta.n);
    EXPECT_NE(r["n"].get<uint64_t>(), b.session.bits.n);
    EXPECT_EQ(r["rows"][0][0].size(), 4u) << "[thread, met, added, rounding]";
  }
  // The bits view's reason a sum is stuck (issue 38, item 5): the explain layer's [k, args], k naming its msgid in
  // "msgs", so that the page says it in its language; other reasons stay text.
  size_t stuck = 0;
  for (const json& row : ix["bits"]["rows"]) {
    if (!row[5].get<bool>() || !row[6].is_array()) continue;
    EXPECT_NE(ix["msgs"][row[6][0].get<size_t>()].get<std::string>().find("stuck at 2^{0}"), std::string::npos);
    EXPECT_EQ(row[6].size(), 5u) << "the id, then its four arguments";
    ++stuck;
  }
  EXPECT_GT(stuck, 0u) << "sum_atomic's WRONG sum, stuck at 2^24, carries its sentence";
  // Every block size of every track fits (issue 30: the dictionary packed as the data is).
  for (const TrackInfo& t : track_table()) {
    if (!b.result.held.count(t.id)) continue;
    for (unsigned bs : kBlockSizes) {
      const auto& v = b.result.held.at(t.id);
      EXPECT_NE(std::find(v.begin(), v.end(), bs), v.end()) << t.id << " at " << bs;
    }
  }
  // vs CUB is CUB's time over the kernel's.
  for (const json& row : ix["timings"]) {
    const SessionTiming* t = b.session.find_timing(row[0], row[1]);
    ASSERT_NE(t, nullptr);
    EXPECT_DOUBLE_EQ(row[2].get<double>(), t->median_ms);
    EXPECT_NEAR(row[7].get<double>(), b.session.meta.cub_ms / t->median_ms, 1e-9);
  }
}

// The 2 x H200 recording (`record --track multigpu`, 2026-11-24): two GPUs over NV18, every result correct, the
// ring traced at 1 MiB and 256 MiB, and the figures the track's goal is judged by: the hand ring at 0.9x NCCL's
// busbw or more from 64 MiB up (docs/multigpu.md). The bundled session holds the same track.
TEST(WebExport, TheH200RecordingHoldsTheTrack) {
  const Session s = load_session(RS_MULTIGPU_H200X2);
  const SessionMultiGpu& m = s.multigpu;
  ASSERT_EQ(m.gpus, 2u);
  EXPECT_EQ(m.link, "NV18");
  EXPECT_EQ(m.nccl_version, "2.28.3");
  for (const std::string& g : m.gpu_names) EXPECT_EQ(g, "NVIDIA H200");
  for (const MultiGpuRow& r : m.rows) EXPECT_TRUE(r.correct) << r.op << " " << r.method << " " << r.bytes;
  ASSERT_EQ(m.rings.size(), 2u);
  for (uint64_t mib : {64ull, 256ull, 1024ull}) {
    const MultiGpuRow* ring = m.find("allreduce", "ring", mib << 20);
    const MultiGpuRow* nccl = m.find("allreduce", "nccl", mib << 20);
    ASSERT_TRUE(ring && nccl) << mib;
    EXPECT_GE(ring->busbw_gbps, 0.9 * nccl->busbw_gbps) << mib << " MiB";
  }
  EXPECT_FALSE(bundled_session().multigpu.empty());  // the bundled session holds the same recording
  EXPECT_EQ(bundled_session().multigpu.gpus, 2u);
  const std::string page = web_page(s, {});
  const json ix = json::parse(decode_web_data(web_data_block(page)).at(0));
  EXPECT_TRUE(ix.contains("multigpu"));
}

// A session a student recorded of a kernel file (`record --kernel-file`, on the H100): its kernel goes under the
// track "yours", with its own source for its traces' lines.
TEST(WebExport, AKernelFileGoesUnderYours) {
  const Session s = load_session(RS_YOURS_FIXTURE);
  const std::string page = web_page(s, {});
  const std::vector<std::string> parts = decode_web_data(web_data_block(page));
  const json ix = json::parse(parts.at(0));
  const json* yours = nullptr;
  for (const json& t : ix["tracks"]) {
    if (t["id"] == "yours") yours = &t;
    EXPECT_NE(t["id"], "other");  // nothing else is unknown
  }
  ASSERT_NE(yours, nullptr);
  ASSERT_EQ((*yours)["kernels"].size(), 1u);
  EXPECT_EQ((*yours)["kernels"][0]["name"], "bank_conflicts");
  EXPECT_EQ(parts.size(), 2u) << "the index and the kernel's part";
  EXPECT_EQ(ix["traces"].size(), s.traces.size());
  bool source_held = false;
  for (const json& src : ix["sources"]) source_held = source_held || src.get<std::string>().find("user_kernel") != std::string::npos;
  EXPECT_TRUE(source_held) << "the kernel file's source is in the page";
}

TEST(WebExport, IndexHoldsTheSweepAndLaunchCounts) {
  const Bundled& b = bundled();
  const json& ix = b.index;
  // Each timing's launch count, the session's (the bundled session stores them all).
  ASSERT_EQ(ix["timings"].size(), b.session.timings.size());
  size_t known = 0;
  for (size_t i = 0; i < b.session.timings.size(); ++i) {
    const SessionTiming& t = b.session.timings[i];
    const json& row = ix["timings"][i];
    ASSERT_EQ(row.size(), 10u);
    EXPECT_EQ(row[0], t.kernel);
    EXPECT_EQ(row[1], t.block_size);
    EXPECT_EQ(row[9].get<uint32_t>(), t.launches) << t.kernel << " at " << t.block_size;
    known += t.launches > 0;
  }
  EXPECT_GT(known, b.session.timings.size() / 2) << "the bundled session should store launch counts";
  // The registry's fixed launch counts, which the page shows where a session stores none (as the window).
  for (const json& track : ix["tracks"]) {
    for (const json& k : track["kernels"]) {
      const KernelInfo* info = find_kernel(k["name"].get<std::string>());
      if (!info) continue;
      const auto fixed = fixed_launches(info->id);
      EXPECT_EQ(k.contains("fixed_launches"), fixed.has_value()) << info->name;
      if (fixed) {
        EXPECT_EQ(k["fixed_launches"].get<unsigned>(), *fixed) << info->name;
      }
    }
  }
  // The N sweep, point by point, in the session's order.
  const Sweep& sw = b.session.sweep;
  ASSERT_FALSE(sw.empty()) << "the bundled session should hold an N sweep";
  const json& js = ix["sweep"];
  EXPECT_EQ(js["gpu"], sw.gpu);
  EXPECT_EQ(js["method"], sw.method);
  EXPECT_DOUBLE_EQ(js["peak_gbps"].get<double>(), sw.peak_gbps);
  EXPECT_EQ(js["cub"], kCubSeries);
  EXPECT_EQ(js["copy"], kCopySeries);
  ASSERT_EQ(js["points"].size(), sw.points.size());
  for (size_t i = 0; i < sw.points.size(); ++i) {
    const SweepPoint& p = sw.points[i];
    const json& q = js["points"][i];
    SCOPED_TRACE(p.series + " at " + std::to_string(p.n));
    ASSERT_EQ(q.size(), 7u);
    EXPECT_EQ(q[0], p.series);
    EXPECT_EQ(q[1].get<uint64_t>(), p.n);
    EXPECT_DOUBLE_EQ(q[2].get<double>(), p.gbps);
    EXPECT_EQ(q[3], p.kernel);
    EXPECT_EQ(q[4].get<uint32_t>(), p.block_size);
    EXPECT_DOUBLE_EQ(q[5].get<double>(), p.median_ms);
    EXPECT_EQ(q[6].get<uint32_t>(), p.launches);
  }
  // Every series the window draws, and N from 2^16 to 2^30.
  std::set<std::string> series;
  for (const json& q : js["points"]) series.insert(q[0].get<std::string>());
  EXPECT_EQ(series.size(), sw.series().size());
  EXPECT_TRUE(series.count(kCubSeries) && series.count(kCopySeries));
  EXPECT_EQ(sw.ns().front(), uint64_t{1} << 16);
  EXPECT_EQ(sw.ns().back(), uint64_t{1} << 30);
  // A session without a sweep writes an empty one, which the page says it lacks.
  const json small = json::parse(decode_web_data(web_data_block(web_page(small_session())))[0]);
  EXPECT_TRUE(small["sweep"]["points"].empty());
}

// The multigpu track (tracing/multigpu.hpp): the fixture's recording, row by row and transfer by transfer, with
// the schedule's summed chunks the page checks its own simulation against; a page of it alone (no traces)
// is made; a session without one has no "multigpu" key.
TEST(WebExport, IndexHoldsTheMultiGpuRecording) {
  Session s = load_session(RS_MULTIGPU_FIXTURE);
  const SessionMultiGpu& m = s.multigpu;
  ASSERT_FALSE(m.empty()) << RS_MULTIGPU_FIXTURE;
  s.traces.clear();  // the recording alone (as `record --track multigpu` writes it) makes a page
  WebExportResult r;
  const std::string page = web_page(s, {}, &r);
  EXPECT_EQ(r.traces, 0u);
  EXPECT_LE(page.size(), kWebPageBudget);
  const std::vector<std::string> parts = decode_web_data(web_data_block(page));
  ASSERT_EQ(parts.size(), 1u) << "the index only";
  const json ix = json::parse(parts[0]);
  ASSERT_TRUE(ix.contains("multigpu"));
  const json& j = ix["multigpu"];
  EXPECT_EQ(j["gpus"], m.gpus);
  EXPECT_EQ(j["names"].get<std::vector<std::string>>(), m.gpu_names);
  EXPECT_EQ(j["link"], m.link);
  EXPECT_EQ(j["nccl"], m.nccl_version);
  EXPECT_EQ(j["date"], m.date);
  EXPECT_EQ(j["method"], m.method);
  EXPECT_EQ(j["peer_access"], m.peer_access);
  EXPECT_DOUBLE_EQ(j["allreduce_factor"].get<double>(), busbw_factor("allreduce", m.gpus));
  ASSERT_EQ(j["rows"].size(), m.rows.size());
  std::map<uint64_t, std::string> labels;
  for (const json& l : j["labels"]) labels[l[0].get<uint64_t>()] = l[1].get<std::string>();
  for (size_t i = 0; i < m.rows.size(); ++i) {
    const MultiGpuRow& want = m.rows[i];
    const json& got = j["rows"][i];
    SCOPED_TRACE(want.op + " " + want.method + " " + std::to_string(want.bytes));
    EXPECT_EQ(got["op"], want.op);
    EXPECT_EQ(got["method"], want.method);
    EXPECT_EQ(got["bytes"].get<uint64_t>(), want.bytes);
    EXPECT_EQ(got["gpus"], want.gpus);
    EXPECT_DOUBLE_EQ(got["median_ms"].get<double>(), want.median_ms);
    EXPECT_DOUBLE_EQ(got["min_ms"].get<double>(), want.min_ms);
    EXPECT_DOUBLE_EQ(got["max_ms"].get<double>(), want.max_ms);
    EXPECT_EQ(got["samples"], want.samples);
    EXPECT_DOUBLE_EQ(got["algbw_gbps"].get<double>(), want.algbw_gbps);
    EXPECT_DOUBLE_EQ(got["busbw_gbps"].get<double>(), want.busbw_gbps);
    EXPECT_EQ(got["correct"], want.correct);
    EXPECT_EQ(j["methods"][want.op + " " + want.method], multigpu_method_text(want.op, want.method));
    EXPECT_EQ(labels[want.bytes], bytes_label(want.bytes));
  }
  for (const char* need : {"allreduce nccl", "allreduce ring", "allreduce naive", "copy p2p"}) {
    EXPECT_TRUE(j["methods"].contains(need)) << need;
  }
  ASSERT_EQ(j["rings"].size(), m.rings.size());
  ASSERT_FALSE(m.rings.empty());
  for (size_t i = 0; i < m.rings.size(); ++i) {
    const RingRecording& want = m.rings[i];
    const json& got = j["rings"][i];
    const uint32_t G = want.gpus;
    EXPECT_EQ(got["bytes"].get<uint64_t>(), want.bytes);
    EXPECT_EQ(got["gpus"], G);
    EXPECT_DOUBLE_EQ(got["total_us"].get<double>(), want.total_us);
    EXPECT_EQ(labels[want.bytes], bytes_label(want.bytes));
    // Transfer by transfer in ring_schedule's order, with the recorded times.
    const std::vector<RingTransfer> sched = ring_schedule(G);
    ASSERT_EQ(got["events"].size(), sched.size());
    ASSERT_EQ(want.events.size(), sched.size());
    for (size_t k = 0; k < sched.size(); ++k) {
      const json& e = got["events"][k];
      const RingEvent& w = want.events[k];
      ASSERT_EQ(e.size(), 10u);
      EXPECT_EQ(e[0], sched[k].step);
      EXPECT_EQ(e[1], static_cast<int>(sched[k].phase));
      EXPECT_EQ(e[2], sched[k].from);
      EXPECT_EQ(e[3], sched[k].to);
      EXPECT_EQ(e[4], sched[k].chunk);
      EXPECT_EQ(e[5].get<uint64_t>(), w.chunk_bytes);
      EXPECT_DOUBLE_EQ(e[6].get<double>(), w.copy_start_us);
      EXPECT_DOUBLE_EQ(e[7].get<double>(), w.copy_end_us);
      EXPECT_DOUBLE_EQ(e[8].get<double>(), w.add_start_us);
      EXPECT_DOUBLE_EQ(e[9].get<double>(), w.add_end_us);
    }
    // summed[k][g]: before any step nothing, after all 2(G-1) steps every chunk.
    ASSERT_EQ(got["summed"].size(), 2 * (G - 1) + 1);
    for (uint32_t k = 0; k <= 2 * (G - 1); ++k) {
      for (uint32_t g = 0; g < G; ++g) {
        EXPECT_EQ(got["summed"][k][g].get<std::vector<uint32_t>>(), summed_chunks(G, g, k)) << k << " " << g;
      }
    }
    EXPECT_TRUE(got["summed"][0][0].empty());
    EXPECT_EQ(got["summed"][2 * (G - 1)][0].size(), G);
  }
  // The page says what it holds: a session without a multi-GPU recording has no "multigpu" key, and the same
  // session with one added has it beside its traces (the bundled session holds the 2 x H200 recording).
  EXPECT_TRUE(bundled().index.contains("multigpu"));
  EXPECT_FALSE(json::parse(decode_web_data(web_data_block(web_page(small_session())))[0]).contains("multigpu"));
  Session both = small_session();
  both.multigpu = m;
  const json with = json::parse(decode_web_data(web_data_block(web_page(both)))[0]);
  EXPECT_EQ(with["multigpu"]["rows"].size(), m.rows.size());
  EXPECT_EQ(with["traces"].size(), 2u);
}

// reproducible_sum's exact accumulator (issue 30, exact_steps.hpp) on the H100's float32 trace at 256 threads: the
// trace's loaded values are the input's; block 0 loads its grid-stride share of float4s, 4 elements each, every one
// once; the steps' exact additions add up to what the block holds; the grid's exact sum rounds once to the float32
// the CPU's exact sum gives and the run gave; the page's steps carry the sentences.
TEST(ExactAccumulator, ReproducibleSumsBlockZeroOnTheH100) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  const Trace* t = s.find_trace("reproducible_sum", 256, DType::Float32);
  ASSERT_NE(t, nullptr);
  const Replay r(*t);
  const ExactAccumulator* a = exact_accumulator_of(*t, r);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(exact_accumulator_of(*t, r), a) << "computed once";
  EXPECT_TRUE(a->matches_input) << "the trace's values are the session's input";
  ASSERT_EQ(a->steps.size(), r.num_steps());
  const uint64_t n4 = t->meta.n / 4, stride = uint64_t{t->meta.block_size} * t->meta.grid_size;
  uint64_t want = 0;
  for (uint64_t i = 0; i < t->meta.block_size; ++i) want += i < n4 ? (n4 - i + stride - 1) / stride * 4 : 0;
  EXPECT_EQ(a->loaded, want) << "block 0's grid-stride share of float4s";
  const std::vector<float> in = make_input_f32(Pattern::RandomBytes, t->meta.n);
  long double sum_adds = 0, own = 0;
  for (const ExactStep& e : a->steps) {
    ASSERT_TRUE(e.adds.fits && e.holds.fits);
    sum_adds += e.adds.approx;
  }
  for (uint64_t i = 0; i < t->meta.block_size; ++i) {
    for (uint64_t k = i; k < n4; k += stride) {
      for (int c = 0; c < 4; ++c) own += static_cast<long double>(in[4 * k + c]);
    }
  }
  EXPECT_EQ(a->steps.back().holds.approx, own) << "what the block holds: every element it loaded, exactly";
  EXPECT_EQ(sum_adds, own);
  EXPECT_EQ(a->steps.back().so_far, a->loaded);
  const float cpu = exact::sum_host(in.data(), in.size());
  uint32_t cpu_bits;
  std::memcpy(&cpu_bits, &cpu, 4);
  EXPECT_EQ(a->rounded_bits, cpu_bits);
  EXPECT_EQ(a->result_bits, cpu_bits) << "the run's result: the exact sum rounded once";
  const auto last = exact_step_sentences(*a, a->steps.size() - 1);
  ASSERT_EQ(last.size(), 2u) << "what the last step adds, and the one rounding";
  EXPECT_NE(explain::render(last[1]).find("once to float32"), std::string::npos);
  EXPECT_NE(explain::render(last[1]).find(format_value(a->rounded_bits, DType::Float32)), std::string::npos);
  EXPECT_EQ(exact_accumulator_of(*s.find_trace("sum_atomic", 256, DType::Float32), r), nullptr) << "another kernel";
  // The page: each of reproducible_sum's steps says what it adds.
  const Bundled& b = bundled();
  for (const json& e : b.index["traces"]) {
    if (e["kernel"] != "reproducible_sum" || e["bs"] != 256) continue;
    const json tr = json::parse(entry_text(b.parts, e));
    for (const json& st : tr["steps"]) {  // [[id, args...], ...]: the id as text (exact_message_ids), in the dictionary
      ASSERT_TRUE(st["exact"].is_array() && !st["exact"].empty());
      EXPECT_NE(st["exact"][0][0].get<std::string>().find("Exact accumulator"), std::string::npos);
      const auto msgs = webi18n::data_messages();  // what the page's Chinese dictionary is looked up for
      EXPECT_NE(std::find(msgs.begin(), msgs.end(), st["exact"][0][0].get<std::string>()), msgs.end());
    }
  }
}

TEST(WebExport, BundledSessionFitsTheBudget) {
  const Bundled& b = bundled();
  EXPECT_EQ(b.result.bytes, b.page.size());
  EXPECT_LE(b.page.size(), kWebPageBudget);
  EXPECT_FALSE(b.result.over_budget);
  // Each track's default block size is held, and the page's index says what it holds.
  for (const TrackInfo& t : track_table()) {
    if (!b.result.held.count(t.id)) continue;  // a track without traces in the session (the pitfalls)
    const auto& v = b.result.held.at(t.id);
    EXPECT_NE(std::find(v.begin(), v.end(), t.default_block_size), v.end()) << t.id;
    EXPECT_EQ(b.index["held"][t.id].get<std::vector<uint32_t>>(), v);
  }
  std::cout << "bundled session page: " << b.page.size() << " bytes, " << b.result.traces << " of "
            << b.result.traces_in_session << " traces\n";
}

// Issue 30, item 1: the page's int32 / float32 switch. The bundled page holds float32 traces beside int32 ones in
// the same kernel's part as the int32 one, and only after every first trace: every block size of the int32 (or only)
// traces is held whole before any float32 one beside them. They come a track and a block size at a time, whole;
// on the bundled page every track switches at 32 to 256 threads.
TEST(WebExport, FloatTracesBesideInt32OnesAfterEveryBlockSize) {
  const Bundled& b = bundled();
  EXPECT_GT(b.result.second_types, 0u);
  std::set<uint32_t> all_sizes;
  for (const Trace& t : b.session.traces) all_sizes.insert(t.meta.block_size);
  EXPECT_EQ(std::set<uint32_t>(b.result.block_sizes.begin(), b.result.block_sizes.end()), all_sizes)
      << "every block size held whole before float32 traces beside int32 ones";
  std::map<std::pair<std::string, uint32_t>, std::map<std::string, size_t>> part_of;  // (kernel, bs) -> dtype -> part
  size_t seconds = 0;
  for (const json& e : b.index["traces"]) part_of[{e["kernel"], e["bs"]}][e["dtype"]] = e["part"];
  for (const auto& [kb, types] : part_of) {
    if (types.size() != 2) continue;
    ++seconds;
    EXPECT_EQ(types.at("int32"), types.at("float32")) << kb.first << " at " << kb.second;
  }
  EXPECT_EQ(seconds, b.result.second_types);
  // Per track and block size: every kernel the session holds in both types is held in both, or none is.
  std::map<std::pair<std::string, uint32_t>, std::pair<size_t, size_t>> unit;  // held, in the session
  for (const Trace& t : b.session.traces) {
    if (t.meta.dtype != DType::Float32 || !b.session.find_trace(t.meta.kernel, t.meta.block_size, DType::Int32)) continue;
    if (b.session.find_trace(t.meta.kernel, t.meta.block_size, DType::Float32) != &t) continue;
    auto& [held, in_session] = unit[{t.meta.track, t.meta.block_size}];
    ++in_session;
    held += part_of[{t.meta.kernel, t.meta.block_size}].size() == 2;
  }
  ASSERT_FALSE(unit.empty());
  for (const auto& [tb, n] : unit) {
    EXPECT_TRUE(n.first == 0 || n.first == n.second) << tb.first << " at " << tb.second << ": " << n.first << " of " << n.second;
    if (tb.second <= 256) {
      EXPECT_EQ(n.first, n.second) << tb.first << " at " << tb.second << " switches on the bundled page";
    }
  }
  // The float32 trace decodes to its own values: the same kernel's int32 and float32 results differ.
  std::string ti, tf;
  for (const json& e : b.index["traces"]) {
    if (e["kernel"] == "sum_shared" && e["bs"] == 256) (e["dtype"] == "int32" ? ti : tf) = entry_text(b.parts, e);
  }
  ASSERT_FALSE(ti.empty() || tf.empty());
  EXPECT_EQ(json::parse(tf)["dtype"], "float32");
  EXPECT_NE(json::parse(ti)["result"], json::parse(tf)["result"]);
}

TEST(WebExport, BudgetKeepsEachTracksDefaultBlockSizeFirst) {
  const Session& s = bundled().session;
  // A budget nothing fits: each track's default block size anyway, flagged.
  WebExportResult tiny;
  const std::string defaults_only = web_page(s, {{}, 1000, "", i18n::Lang::En, {}}, &tiny);
  EXPECT_TRUE(tiny.over_budget);
  EXPECT_GT(defaults_only.size(), 1000u);
  ASSERT_FALSE(tiny.held.empty());
  for (const auto& [track, sizes] : tiny.held) {
    ASSERT_NE(find_track(track), nullptr) << track;
    EXPECT_EQ(sizes, std::vector<uint32_t>{find_track(track)->default_block_size}) << track;
  }
  // Room for about half of the rest: the defaults, then whole block sizes while they fit.
  const size_t budget = defaults_only.size() + (bundled().page.size() - defaults_only.size()) / 2;
  WebExportResult half;
  const std::string page = web_page(s, {{}, budget, "", i18n::Lang::En, {}}, &half);
  EXPECT_FALSE(half.over_budget);
  EXPECT_LE(page.size(), budget);
  EXPECT_GT(half.traces, tiny.traces);
  EXPECT_LT(half.traces, s.traces.size());
  EXPECT_FALSE(half.block_sizes.empty());  // at least one block size held whole
  for (const auto& [track, sizes] : half.held) {
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), find_track(track)->default_block_size), sizes.end()) << track;
  }
  // The index lists exactly the traces the parts hold.
  const auto parts = decode_web_data(web_data_block(page));
  const json ix = json::parse(parts[0]);
  EXPECT_EQ(ix["traces"].size(), half.traces);
  std::set<std::string> kernels;
  for (const json& e : ix["traces"]) {
    kernels.insert(e["kernel"].get<std::string>());
    EXPECT_EQ(json::parse(entry_text(parts, e))["bs"], e["bs"]);
  }
  EXPECT_EQ(parts.size(), kernels.size() + 1);
}

TEST(WebExport, ChosenBlockSizesOnly) {
  const Session& s = bundled_session();
  WebExportResult r;
  const std::string page = web_page(s, {{128, 1024}, 1000, "", i18n::Lang::En, {}}, &r);  // a choice ignores the budget
  EXPECT_EQ(r.block_sizes, (std::vector<uint32_t>{128, 1024}));
  size_t want = 0, floats = 0;  // one per kernel and element type there, float32 ones beside int32 ones too
  for (const Trace& t : s.traces) {
    if (t.meta.block_size != 128 && t.meta.block_size != 1024) continue;
    if (s.find_trace(t.meta.kernel, t.meta.block_size, t.meta.dtype) != &t) continue;  // the binary tracer's beside
    ++want;
    floats += s.find_trace(t.meta.kernel, t.meta.block_size)->meta.dtype != t.meta.dtype;
  }
  EXPECT_EQ(r.traces, want);
  EXPECT_EQ(r.second_types, floats);
  EXPECT_GT(floats, 0u);
  const json ix = json::parse(decode_web_data(web_data_block(page))[0]);
  for (const json& e : ix["traces"]) EXPECT_TRUE(e["bs"] == 128 || e["bs"] == 1024);
  try {
    web_page(small_session(), {{64}, kWebPageBudget, "", i18n::Lang::En, {}});
    FAIL() << "a block size without traces was accepted";
  } catch (const WebExportError& e) {
    EXPECT_NE(std::string(e.what()).find("no trace at 64 threads"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("128, 256"), std::string::npos) << e.what();
  }
}

TEST(WebExport, RefusesASessionWithoutTraces) {
  Session s = small_session();
  s.traces.clear();
  try {
    web_page(s);
    FAIL() << "a session with nothing to replay was accepted";
  } catch (const WebExportError& e) {
    EXPECT_NE(std::string(e.what()).find("no traces and no multi-GPU recording"), std::string::npos) << e.what();
  }
  test::TempDir dir;
  EXPECT_THROW(export_web_page(s, dir.path("x.html")), WebExportError);
  EXPECT_FALSE(fs::exists(dir.path("x.html")));
}

TEST(WebExport, RefusesATraceTheReplayRefuses) {
  Session s = small_session();
  s.traces[1].records.clear();  // no records: the replay model refuses it
  try {
    web_page(s);
    FAIL() << "an empty trace was accepted";
  } catch (const WebExportError& e) {
    EXPECT_NE(std::string(e.what()).find("no records"), std::string::npos) << e.what();
  }
}

TEST(WebExport, WritesAFileAndRefusesUnwritablePaths) {
  test::TempDir dir;
  const Session s = small_session();
  const WebExportResult r = export_web_page(s, dir.path("sub/page.html"));
  EXPECT_EQ(r.path, dir.path("sub/page.html"));
  EXPECT_EQ(fs::file_size(r.path), r.bytes);
  EXPECT_EQ(r.traces, 2u);
  // A folder in the way, and a file where a folder should be: errors, and no file left behind.
  fs::create_directories(dir.path("a_folder"));
  EXPECT_THROW(export_web_page(s, dir.path("a_folder")), WebExportError);
  { std::ofstream(dir.path("plain")) << "x"; }
  EXPECT_THROW(export_web_page(s, dir.path("plain/page.html")), WebExportError);
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.dir())) files += e.is_regular_file();
  EXPECT_EQ(files, 2u);  // sub/page.html and plain
}

TEST(WebExport, DamagedDataBlocksAreRefused) {
  const std::string page = web_page(small_session());
  const std::string data = web_data_block(page);
  EXPECT_NO_THROW(decode_web_data(data));
  // One character changed in the middle: the CRC catches it.
  std::string flipped = data;
  size_t mid = flipped.size() / 2;
  while (flipped[mid] == '\n') ++mid;
  flipped[mid] = flipped[mid] == 'A' ? 'B' : 'A';
  try {
    decode_web_data(flipped);
    FAIL() << "a changed character was accepted";
  } catch (const WebExportError& e) {
    EXPECT_NE(std::string(e.what()).find("CRC"), std::string::npos) << e.what();
  }
  // Cut short at every 97th character (at least one data character lost): always refused.
  const size_t first = data.find_first_not_of('\n'), last = data.find_last_not_of('\n');
  const std::string trimmed = data.substr(first, last - first + 1);
  for (size_t cut = 0; cut + 2 < trimmed.size(); cut += 97) {
    EXPECT_THROW(decode_web_data(trimmed.substr(0, cut)), WebExportError) << "cut at " << cut;
  }
  EXPECT_THROW(decode_web_data(data + "QUJD"), WebExportError);
  EXPECT_THROW(decode_web_data("not base64 at all!"), WebExportError);
  EXPECT_THROW(web_data_block("<html>no data</html>"), WebExportError);
}

}  // namespace
}  // namespace rs
