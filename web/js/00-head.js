// ReduceScope web replay: draws the steps that ReduceScope's C++ replay model (tracing/replay.hpp)
// computed when the page was exported (reducescope export SESSION --html FILE). This script never
// replays a trace itself: it decodes the data block, undoes the delta encoding (each step lists
// the cells that changed), and draws. No libraries, no network: the data is inflated with the
// browser's own DecompressionStream. docs/web-export.md describes the data format.
//
// Index
//   errors        every failure is shown in #rs-error, never a blank page
//   decode        base64 -> container (length, CRC-32) -> parts -> zlib -> JSON
//   prepare       one trace's steps: snapshots rebuilt from the per-step deltas
//   state, keys   selection, stepping, playing; arrow keys, Home/End, Space, Up/Down, PageUp/PageDown, D
//                 (int32 / float32)
//   views         source, shared memory, warps x lanes, banks (the lanes -> banks figure), lanes, atomics,
//                 global memory
//   timings       the track's table, median time per kernel, time against block size, the N sweep
//   multigpu      the traced ring all-reduce step by step, its timeline, busbw against size, the tables
//   window.rs     a small read-only hook for the browser test (tests/web_chromium.py)
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var TIMES = '\u00d7', ARROW = '\u2190', DASH = '\u2013', MDASH = '\u2014';

