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
//   state, keys   selection, stepping, playing; arrow keys, Home/End, Space, Up/Down, PageUp/PageDown
//   views         source, shared memory, warps x lanes, banks (the lanes -> banks figure), lanes, atomics,
//                 global memory
//   timings       the track's table, median time per kernel, time against block size, the N sweep
//   window.rs     a small read-only hook for the browser test (tests/web_chromium.py)
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var TIMES = '\u00d7', ARROW = '\u2190', DASH = '\u2013', MDASH = '\u2014';

  // ---- errors ---------------------------------------------------------------------------------
  var hook = { ready: false, error: null, renders: 0, exceptions: [], viewMs: {}, charts: {}, chartDraws: 0 };
  window.rs = hook;
  function showError(msg) {
    var e = $('rs-error');
    e.textContent = 'ReduceScope cannot show this recording: ' + msg +
      '\nThe page may be damaged or cut short. Export it again with `reducescope export SESSION --html FILE.html`, ' +
      'or open the .rssession file in ReduceScope.';
    e.hidden = false;
    hook.error = msg;
    var b = $('rec-line');
    if (b && !hook.ready) b.textContent = 'The recorded session could not be loaded (see the message above).';
  }
  window.addEventListener('error', function (ev) {
    hook.exceptions.push(String(ev.message));
    showError('a script error: ' + ev.message);
  });
  window.addEventListener('unhandledrejection', function (ev) {
    var r = ev.reason;
    hook.exceptions.push(String(r && r.message ? r.message : r));
    showError(String(r && r.message ? r.message : r));
  });

  // ---- decode ---------------------------------------------------------------------------------
  var CRC_TABLE = (function () {
    var t = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })();
  function crc32(bytes, from) {
    var c = 0xffffffff;
    for (var i = from; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }
  function u32(b, at) { return (b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24) >>> 0; }

  function readContainer() {
    var el = $('rs-data');
    if (!el) throw new Error('the page has no data block');
    var text = el.textContent.replace(/\s+/g, '');
    var want = Number(el.getAttribute('data-length'));
    if (!(want > 0)) throw new Error('the data block has no length attribute');
    if (text.length !== want) {
      throw new Error('the data block is ' + (text.length < want ? 'truncated' : 'too long') + ': ' + text.length +
        ' of ' + want + ' characters');
    }
    var bin;
    try { bin = atob(text); } catch (e) { throw new Error('the data block is corrupt: it is not base64'); }
    var b = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
    var magic = 'RSWEB';
    for (i = 0; i < 5; i++) {
      if (b[i] !== magic.charCodeAt(i)) throw new Error('the data block is corrupt: it does not start with RSWEB');
    }
    if (u32(b, 8) !== 1) throw new Error('the data block is format version ' + u32(b, 8) + '; this page reads version 1');
    var parts = u32(b, 12), body = u32(b, 16), crc = u32(b, 20);
    if (b.length - 24 !== body) {
      throw new Error('the data block is truncated: ' + (b.length - 24) + ' of ' + body + ' bytes');
    }
    if (crc32(b, 24) !== crc) throw new Error('the data block is corrupt (its CRC-32 does not match)');
    var list = [], at = 24;
    for (var p = 0; p < parts; p++) {
      if (b.length - at < 8) throw new Error('the data block ends inside part ' + p);
      var packed = u32(b, at), raw = u32(b, at + 4);
      at += 8;
      if (b.length - at < packed) throw new Error('the data block ends inside part ' + p);
      list.push({ bytes: b.subarray(at, at + packed), raw: raw });
      at += packed;
    }
    return list;
  }

  function inflateJson(part, what) {
    if (typeof DecompressionStream === 'undefined') {
      return Promise.reject(new Error('this browser has no DecompressionStream (it needs Chrome 80, Firefox 113, ' +
        'Safari 16.4 or newer)'));
    }
    var stream = new Blob([part.bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).arrayBuffer().then(function (buf) {
      if (buf.byteLength !== part.raw) throw new Error(what + ' inflates to ' + buf.byteLength + ' bytes, not ' + part.raw);
      return JSON.parse(new TextDecoder().decode(buf));
    }, function (e) {
      throw new Error(what + ' does not inflate (' + (e && e.message ? e.message : e) + ')');
    });
  }

  // ---- values ---------------------------------------------------------------------------------
  var f32 = new Float32Array(1), i32 = new Int32Array(f32.buffer);
  // A 32-bit value for people: int32, or float32 in its shortest round-trip form.
  function fmt(bits, isFloat) {
    if (!isFloat) return String(bits | 0);
    i32[0] = bits | 0;
    var v = f32[0];
    if (!isFinite(v) || v === 0) return String(v);
    for (var p = 1; p <= 9; p++) {
      var s = v.toPrecision(p);
      if (Math.fround(Number(s)) === v) return String(Number(s));
    }
    return String(v);
  }
  // An integer shortened to fit a small cell, as the window does: 3812 -> "3.8k", 123456 -> "123k".
  // With `fits` characters of room, "3.8k" becomes "4k".
  function compact(s, fits) {
    var v = Number(s);
    if (!/^-?\d+$/.test(s) || Math.abs(v) < 1000) return s;
    var units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
    for (var i = 0; i < units.length; i++) {
      var x = v / units[i][0];
      if (Math.abs(x) < 1) continue;
      var short = (Math.abs(x) < 10 ? x.toFixed(1) : Math.round(x).toString()) + units[i][1];
      return fits && short.length > fits ? Math.round(x) + units[i][1] : short;
    }
    return s;
  }
  function popcount(m) {
    m = m >>> 0;
    var c = 0;
    while (m) { m &= m - 1; c++; }
    return c;
  }
  function lanesOf(mask) {
    var out = [];
    for (var l = 0; l < 32; l++) if ((mask >>> l) & 1) out.push(l);
    return out;
  }
  // innerHTML / textContent set only when it changes, compared with what was set last (reading
  // innerHTML back would serialise the DOM on every step).
  function setHtml(el, h) { if (el._rsHtml !== h) { el._rsHtml = h; el.innerHTML = h; } }
  function setText(el, t) { if (el._rsHtml !== '\u0000' + t) { el._rsHtml = '\u0000' + t; el.textContent = t; } }
  function hex(m) { return ('0000000' + (m >>> 0).toString(16)).slice(-8); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }
  // Steps as ranges for messages: "2-4, 7".
  function stepRanges(list) {
    var out = [], i = 0;
    while (i < list.length) {
      var j = i;
      while (j + 1 < list.length && list[j + 1] === list[j] + 1) j++;
      out.push(j > i ? list[i] + DASH + list[j] : String(list[i]));
      i = j + 1;
    }
    return out.join(', ');
  }
  var END_NAMES = ['__syncthreads()', '__syncwarp()', 'end of kernel', 'a warp shuffle', 'a warp reduce'];
  var KIND_NAMES = { 0: 'load', 1: 'store', 4: 'global load', 5: 'global store', 6: 'shuffle', 7: 'warp reduce',
    8: 'shared atomic', 9: 'global atomic' };

  // ---- prepare one trace ----------------------------------------------------------------------
  // Undoes the delta encoding: the shared-memory (and global-slice) snapshot after every step,
  // flags of cells written and read, lane addresses of each access and request.
  function flagsFrom(ranges, n) {
    var f = new Uint8Array(n);
    if (!ranges) return f;
    for (var i = 0; i + 1 < ranges.length; i += 2) f.fill(1, ranges[i], ranges[i] + ranges[i + 1]);
    return f;
  }
  function undelta(mask, d) {
    var a = new Array(32).fill(-1), lanes = lanesOf(mask), prev = 0;
    for (var i = 0; i < lanes.length; i++) {
      prev = i === 0 ? d[0] : prev + d[i];
      a[lanes[i]] = prev;
    }
    return a;
  }
  function prepare(t) {
    var words = t.words, v = new Int32Array(words), d = new Uint8Array(words);
    var gn = t.slice ? t.slice.count : 0, gv = new Int32Array(gn), gd = new Uint8Array(gn);
    t.isFloat = t.dtype === 'float32';
    t.stepsWith = { shf: [], atm: [], req: [], acc: [] };
    // The largest n-way degree and shuffle count of any step: the banks and lanes canvases keep one
    // height through the trace, so the page does not jump (nor lay itself out again) while stepping.
    t.maxDeg = 1;
    t.maxShf = 0;
    t.steps.forEach(function (st, si) {
      var set = st.set || [];
      for (var i = 0; i + 1 < set.length; i += 2) { v[set[i]] = set[i + 1]; d[set[i]] = 1; }
      st.smem = v.slice(); st.def = d.slice();
      st.wrf = flagsFrom(st.wr, words); st.rdf = flagsFrom(st.rd, words);
      if (gn) {
        var gs = st.gset || [];
        for (i = 0; i + 1 < gs.length; i += 2) { gv[gs[i]] = gs[i + 1]; gd[gs[i]] = 1; }
        st.gval = gv.slice(); st.gdef = gd.slice();
        st.gwrf = flagsFrom(st.gwr, gn); st.grdf = flagsFrom(st.grd, gn);
      }
      (st.acc || []).forEach(function (a) { a.addr = undelta(a.m, a.a); });
      (st.req || []).forEach(function (q) { q.index = undelta(q.m, q.ix); });
      ['shf', 'atm', 'req', 'acc'].forEach(function (k) { if (st[k] && st[k].length) t.stepsWith[k].push(si); });
      t.maxDeg = Math.max(t.maxDeg, st.deg || 1);
      t.maxShf = Math.max(t.maxShf, st.shf ? st.shf.length : 0);
      st.flowsTo = {};
      var fl = st.flows || [];
      for (i = 0; i + 1 < fl.length; i += 2) (st.flowsTo[fl[i]] = st.flowsTo[fl[i]] || []).push(fl[i + 1]);
    });
    return t;
  }

  // ---- state ----------------------------------------------------------------------------------
  var D = null;          // the index part
  var parts = null;      // the container's parts
  var cache = {};        // part -> Promise of a prepared trace
  var S = { kernel: null, bs: 0, step: 0, trace: null, loading: false, playing: false, speed: 2, acc: -1, req: -1,
    logTime: true };     // "log time axis", on by default as in the window (app/gui/timing_panel.cpp)
  var kernels = [];      // [{name, track, info}] in list order
  var traceOf = {};      // kernel + '@' + bs -> trace entry of the index

  function key(k, b) { return k + '@' + b; }
  function heldSizes(k) {
    return D.block_sizes.filter(function (b) { return traceOf[key(k, b)]; });
  }
  function kernelInfo(name) {
    for (var i = 0; i < kernels.length; i++) if (kernels[i].name === name) return kernels[i];
    return null;
  }
  function trackOf(id) {
    for (var i = 0; i < D.tracks.length; i++) if (D.tracks[i].id === id) return D.tracks[i];
    return null;
  }

  function select(name, bs) {
    var k = kernelInfo(name);
    if (!k) return;
    var held = heldSizes(name);
    if (!bs || !traceOf[key(name, bs)]) {
      var tr = trackOf(k.track);
      bs = traceOf[key(name, S.bs)] ? S.bs : tr && traceOf[key(name, tr.bs)] ? tr.bs : held.length ? held[0] : S.bs;
    }
    var keepStep = S.kernel === name ? S.step : -1;
    S.kernel = name;
    S.bs = bs;
    S.acc = -1;
    S.req = -1;
    var entry = traceOf[key(name, bs)];
    if (!entry) {
      S.trace = null;
      S.loading = false;
      renderAll();
      return Promise.resolve();
    }
    S.loading = true;
    renderAll();
    if (!cache[entry.part]) {
      cache[entry.part] = inflateJson(parts[entry.part], 'the trace of ' + name + ' at ' + bs + ' threads').then(prepare);
    }
    return cache[entry.part].then(function (t) {
      if (S.kernel !== name || S.bs !== bs) return;
      S.trace = t;
      S.loading = false;
      S.step = keepStep >= 0 ? Math.min(keepStep, t.steps.length - 1) : 0;
      renderAll();
    }, function (e) {
      S.loading = false;
      showError(e.message);
    });
  }

  function setStep(i) {
    if (!S.trace) return;
    var n = S.trace.steps.length;
    i = Math.max(0, Math.min(n - 1, i));
    if (i !== S.step) {
      S.step = i;
      S.acc = -1;
      S.req = -1;
    }
    renderStep();
  }
  function moveKernel(d) {
    var i = kernels.findIndex(function (k) { return k.name === S.kernel; });
    var j = Math.max(0, Math.min(kernels.length - 1, i + d));
    if (j !== i) select(kernels[j].name, S.bs);
  }
  function moveBlock(d) {
    var held = heldSizes(S.kernel);
    var i = held.indexOf(S.bs);
    var j = i < 0 ? 0 : Math.max(0, Math.min(held.length - 1, i + d));
    if (held.length && held[j] !== S.bs) select(S.kernel, held[j]);
  }

  // Play: one step per 1/speed seconds, drawn on animation frames; stops at the last step.
  var lastTick = 0, carry = 0;
  function setPlaying(on) {
    S.playing = on && !!S.trace;
    if (S.playing && S.step >= S.trace.steps.length - 1) S.step = 0;
    $('btn-play').textContent = S.playing ? 'pause' : 'play';
    $('btn-play').classList.toggle('sel', S.playing);
    lastTick = 0;
    carry = 0;
    if (S.playing) requestAnimationFrame(tick);
    renderStep();
  }
  function tick(now) {
    if (!S.playing || !S.trace) return;
    if (lastTick) {
      carry += (now - lastTick) / 1000 * S.speed;
      var adv = Math.floor(carry);
      if (adv > 0) {
        carry -= adv;
        var next = S.step + adv;
        if (next >= S.trace.steps.length - 1) {
          setStep(S.trace.steps.length - 1);
          setPlaying(false);
          return;
        }
        setStep(next);
      }
    }
    lastTick = now;
    requestAnimationFrame(tick);
  }

  function onKey(e) {
    if (!D || e.ctrlKey || e.metaKey || e.altKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'range')) return;
    var handled = true;
    switch (e.key) {
      case 'ArrowRight': setStep(S.step + 1); break;
      case 'ArrowLeft': setStep(S.step - 1); break;
      case 'Home': setStep(0); break;
      case 'End': if (S.trace) setStep(S.trace.steps.length - 1); break;
      case ' ': case 'Spacebar': if (!e.repeat) setPlaying(!S.playing); break;
      case 'ArrowUp': moveKernel(-1); break;
      case 'ArrowDown': moveKernel(1); break;
      case 'PageUp': moveBlock(1); break;
      case 'PageDown': moveBlock(-1); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  }

  // ---- canvas helpers -------------------------------------------------------------------------
  var COL = { orange: '#e69f00', sky: '#56b4e9', green: '#009e73', yellow: '#f0e442', blue: '#0072b2', verm: '#d55e00',
    purple: '#cc79a7', cell: '#464a54', empty: '#26282e', text: '#f2f2f2', dim: '#a9b0bd', ink: '#0f0f0f' };
  // Sizes the canvas to its CSS width and `cssH` CSS pixels, for the device's pixel ratio.
  function canvasCtx(c, cssH) {
    var dpr = window.devicePixelRatio || 1;
    var w = c.clientWidth || c.parentNode.clientWidth || 600;
    c.style.height = cssH + 'px';
    var pw = Math.round(w * dpr), ph = Math.round(cssH * dpr);
    if (c.width !== pw || c.height !== ph) { c.width = pw; c.height = ph; }
    var ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, cssH);
    return { ctx: ctx, w: w, h: cssH };
  }
  function hide(c) { c.style.height = '0px'; c.width = c.width; }

  // A grid of cells (shared memory, the global slice): `cols` per row, colour per cell, value text
  // where it fits.
  function drawCells(canvas, n, cols, cellColor, valueText, firstIndex) {
    var w = canvas.clientWidth || canvas.parentNode.clientWidth || 600;
    var labelW = 36;
    var cw = (w - labelW) / cols;
    var ch = Math.max(4, Math.min(cw, 34));
    var rows = Math.ceil(n / cols);
    var g = canvasCtx(canvas, rows * ch + 2);
    var ctx = g.ctx;
    // Three digits fit a cell where they can (the DejaVu Sans Mono advance is 0.6 em).
    var fontPx = Math.max(8, Math.min(15, Math.floor(ch * 0.6), Math.floor((cw - 3) / (3 * 0.61))));
    ctx.font = fontPx + 'px "DejaVu Sans Mono", Consolas, monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    var charW = ctx.measureText('0').width;  // a monospace font: every value's width is its length x this
    var fits = Math.floor((cw - 2) / charW), bw = Math.max(1, cw - 1), bh = Math.max(1, ch - 1);
    // Fill by colour first (few colour changes), then the values (two text colours).
    var colors = new Array(n), texts = fontPx >= 8 && fits > 0 ? new Array(n) : null;
    for (var i = 0; i < n; i++) colors[i] = cellColor(i);
    [COL.empty, COL.cell, COL.orange, COL.sky, COL.purple].forEach(function (c) {
      var path = new Path2D(), any = false;
      for (var i = 0; i < n; i++) {
        if (colors[i] === c) { path.rect(labelW + (i % cols) * cw, Math.floor(i / cols) * ch, bw, bh); any = true; }
      }
      if (any) { ctx.fillStyle = c; ctx.fill(path); }
    });
    if (texts) {
      for (i = 0; i < n; i++) {
        var s = valueText(i);
        if (s !== null && s.length > fits) s = compact(s, fits);
        if (s !== null && s.length <= fits) {
          ctx.fillStyle = colors[i] === COL.empty || colors[i] === COL.cell ? COL.text : COL.ink;
          ctx.fillText(s, labelW + (i % cols) * cw + cw / 2, Math.floor(i / cols) * ch + ch / 2 + 1);
        }
      }
    }
    var r;
    if (ch >= 10) {
      ctx.textAlign = 'right';
      ctx.fillStyle = COL.dim;
      ctx.font = Math.min(13, Math.floor(ch * 0.6)) + 'px "DejaVu Sans", sans-serif';
      for (r = 0; r < rows; r += ch >= 14 ? 1 : 4) ctx.fillText(String((firstIndex || 0) + r * cols), labelW - 4, r * ch + ch / 2);
    }
    return { labelW: labelW, cw: cw, ch: ch, cols: cols };
  }

  // ---- views ----------------------------------------------------------------------------------
  function renderAll() {
    renderList();
    renderBlockSizes();
    renderNote();
    renderSource(true);
    renderTimings();
    renderStep();
  }

  function renderList() {
    var html = '';
    D.tracks.forEach(function (t) {
      if (!t.kernels.length) return;
      html += '<div class="track"><div class="track-title" title="' + esc(t.title) + '">' + esc(t.id) + '</div>';
      t.kernels.forEach(function (k) {
        var has = heldSizes(k.name).length > 0;
        html += '<button class="kernel' + (k.name === S.kernel ? ' sel' : '') + (has ? '' : ' notrace') +
          '" data-kernel="' + esc(k.name) + '" title="' + esc(k.title) + (has ? '' : ' (no trace in this page)') + '">' +
          esc(k.name) + (k.pitfall ? '<span class="wrong">WRONG</span>' : '') + '</button>';
      });
      html += '</div>';
    });
    var list = $('kernel-list');
    setHtml(list, html);
    // The selected kernel in view inside the list (the sidebar scrolls on its own; a phone's strip is short).
    var sel = list.querySelector('.kernel.sel'), bar = $('sidebar');
    if (sel && S.kernel !== renderList.shown) {
      renderList.shown = S.kernel;
      var top = sel.getBoundingClientRect().top - bar.getBoundingClientRect().top + bar.scrollTop;
      var bottom = top + sel.offsetHeight;
      if (top < bar.scrollTop || bottom > bar.scrollTop + bar.clientHeight) {
        bar.scrollTop = Math.max(0, top - (bar.clientHeight - sel.offsetHeight) / 2);
      }
    }
  }

  function renderBlockSizes() {
    var html = '', k = kernelInfo(S.kernel);
    D.block_sizes.forEach(function (b) {
      var held = !!traceOf[key(S.kernel, b)];
      var why = '';
      if (!held) {
        why = k && k.info.min_bs > b ? S.kernel + ' needs at least ' + k.info.min_bs + ' threads' +
          (k.info.min_why ? ': ' + k.info.min_why : '') : 'no trace at ' + b + ' threads in this page (the full session ' +
          'is in the .rssession file)';
      }
      html += '<button data-bs="' + b + '"' + (b === S.bs && held ? ' class="sel"' : '') + (held ? '' : ' disabled') +
        ' title="' + esc(why || b + ' threads per block (Page Up / Page Down)') + '">' + b + '</button>';
    });
    $('bs-buttons').innerHTML = html;
    var tr = S.trace;
    setText($('kernel-title'), S.kernel ? S.kernel + (S.bs ? ' at ' + S.bs + ' threads' : '') +
      (tr ? ' ' + MDASH + ' ' + tr.dtype + ', block ' + tr.block + ' of ' + tr.grid + ', N = ' + tr.n : '') : '');
  }

  function metric(k, bs, name) {
    var best = null;
    D.metrics.forEach(function (m) {
      if (m[0] === k && m[2] === name && (m[1] === bs || !best)) best = m;
    });
    return best;
  }

  function renderNote() {
    // On screen: the kernel's title, and what must not be missed (wrong code, no trace here); what it
    // fixes and costs a click away (#note-box), so the first screen keeps its room for the replay.
    var k = kernelInfo(S.kernel), el = $('kernel-note'), more = $('kernel-more');
    if (!k) { el.innerHTML = ''; more.innerHTML = ''; return; }
    var i = k.info, h = '<b>' + esc(i.title) + '</b>', m = '';
    if (i.fixes) m += 'Fixes: ' + esc(i.fixes);
    if (i.costs) m += (m ? '<br>' : '') + 'Costs: ' + esc(i.costs);
    more.innerHTML = m;
    if (i.pitfall) {
      h += '<span class="pit"><b>WRONG CODE on purpose.</b> ' + esc(i.pitfall);
      var wr = metric(k.name, S.bs, 'wrong_runs'), ds = metric(k.name, S.bs, 'distinct_sums');
      if (wr) h += '<br>Recorded: wrong in ' + wr[4] + ' ' + esc(wr[3]) + ' at ' + wr[1] + ' threads' +
        (ds ? ', ' + ds[4] + ' different sums' : '') + '.';
      var rc = metric(k.name, S.bs, 'racecheck_hazards');
      if (rc) h += '<br>compute-sanitizer racecheck: ' + rc[4] + ' hazards.';
      h += '</span>';
    }
    if (!traceOf[key(k.name, S.bs)]) {
      var held = heldSizes(k.name);
      h += '<br><span class="bad">No trace of ' + esc(k.name) + ' at ' + S.bs + ' threads in this page.</span> ' +
        (held.length ? 'This page holds it at ' + held.join(', ') + ' threads. ' : '') +
        'The full session is in the .rssession file.';
    }
    el.innerHTML = h;
  }

  var sourceShown = -1, sourceLines = [], highlighted = [];
  function renderSource(reset) {
    var tr = S.trace, k = kernelInfo(S.kernel);
    var idx = tr ? tr.src : k ? D.track_source[k.track] : -1;
    if (idx === undefined) idx = -1;
    if (idx !== sourceShown) {
      sourceShown = idx;
      var text = idx >= 0 ? D.sources[idx] : '';
      var pre = $('source');
      pre.textContent = '';
      sourceLines = [];
      var frag = document.createDocumentFragment();
      text.split('\n').forEach(function (line, i) {
        var div = document.createElement('span');
        div.className = 'ln';
        var no = document.createElement('span');
        no.className = 'no';
        no.textContent = String(i + 1);
        div.appendChild(no);
        div.appendChild(document.createTextNode(line));
        frag.appendChild(div);
        sourceLines.push(div);
      });
      pre.appendChild(frag);
      highlighted = [];
      highlightLines.sig = null;
      srcGeom = null;
      var t = k ? trackOf(k.track) : null;
      $('source-title').textContent = (t && t.file ? t.file : '') + (tr ? ' (as recorded with the trace)' : '');
    }
    if (reset) highlightLines();
  }
  // The step's lines (and the barrier's) highlighted, scrolled into view inside the source box. No
  // layout is read while stepping: the line height and the box's height are measured when the source
  // is built or the window resized, and the scroll position is followed with a scroll listener.
  var srcGeom = null, srcScroll = 0;
  function measureSource() {
    var pre = $('source');
    srcGeom = sourceLines.length ? { line: sourceLines[0].offsetHeight || 20, top: sourceLines[0].offsetTop - pre.offsetTop,
      h: pre.clientHeight } : null;
    srcScroll = pre.scrollTop;
  }
  function highlightLines() {
    var st = S.trace && S.trace.steps[S.step];
    var want = [];
    if (st) {
      (st.lines || []).forEach(function (l) { if (sourceLines[l - 1]) want.push([l, 'hl']); });
      if (st.bl && sourceLines[st.bl - 1]) want.push([st.bl, 'bar']);
    }
    var sig = want.join(';');
    if (sig === highlightLines.sig) return;
    // The step's first line written out whole above the listing (wrapped: a narrow column never cuts it).
    var first = want.length ? want[0][0] : 0;
    setText($('source-line'), first ? 'line ' + first + ': ' + sourceLines[first - 1].textContent.slice(
      String(first).length).replace(/^\s+/, '') : '');
    highlightLines.sig = sig;
    highlighted.forEach(function (el) { el.classList.remove('hl', 'bar'); });
    highlighted = [];
    want.forEach(function (w) {
      var el = sourceLines[w[0] - 1];
      el.classList.add(w[1]);
      highlighted.push(el);
    });
    if (want.length) {
      if (!srcGeom) measureSource();
      var top = srcGeom.top + (want[0][0] - 1) * srcGeom.line;
      if (top < srcScroll || top > srcScroll + srcGeom.h - 2 * srcGeom.line) {
        srcScroll = Math.max(0, top - 3 * srcGeom.line);
        $('source').scrollTop = srcScroll;
      }
    }
  }

  // The replay views of a step, as the window lays them out (app/gui/layout.hpp): the views the kernel has
  // come in the trace's `views` order; those with something in this step (the step's `on`, bit per view:
  // smem 0, global 1, lanes 2, atomics 3) are shown, the first of them first; the others are named in one
  // idle line (the step's `idle`, the replay model's sentence). A barrier-only step keeps the first view.
  var VIEW_BITS = { smem: 1, global: 2, lanes: 4, atomics: 8 };
  var VIEW_PANEL = { smem: 'smem-panel', global: 'global-panel', lanes: 'lanes-panel', atomics: 'atomics-panel' };
  function layoutViews(tr, st) {
    var order = tr ? tr.views || [] : [], shown = {}, any = false, pos = 0;
    order.forEach(function (v) { if (st && (st.on & VIEW_BITS[v])) { shown[v] = true; any = true; } });
    if (!any && order.length) shown[order[0]] = true;
    Object.keys(VIEW_PANEL).forEach(function (v) {
      var p = $(VIEW_PANEL[v]);
      var on = !tr || !!shown[v];
      if (p.hidden === on) p.hidden = !on;
    });
    order.forEach(function (v) { if (shown[v]) $(VIEW_PANEL[v]).style.order = String(pos++); });
    order.forEach(function (v) { if (!shown[v]) $(VIEW_PANEL[v]).style.order = String(pos++); });
    $('warps-panel').style.order = String(pos + 1);
    var idle = $('idle-line'), text = tr && st && st.idle ? st.idle : '';
    setText(idle, text);
    if (idle.hidden !== !text) idle.hidden = !text;
    hook.shownViews = order.filter(function (v) { return shown[v]; });
  }

  function renderStep() {
    hook.renders++;
    var tr = S.trace, st = tr && tr.steps[S.step];
    var slider = $('step-slider');
    if (!tr) {
      setText($('step-counter'), S.loading ? 'loading' + '\u2026' : 'no trace');
      slider.max = 0;
      slider.value = 0;
      setText($('step-summary'), S.loading ? '' : 'Choose a kernel and a block size that this page holds a trace of.');
      ['smem', 'warps', 'banks', 'lanes', 'gslice'].forEach(function (id) { hide($(id)); });
      layoutViews(null, null);
      bankFig = null;
      $('bank-hover').hidden = true;
      ['smem-text', 'warps-text', 'banks-text', 'bank-caption', 'lanes-text', 'atomics-text', 'global-text', 'access-list',
        'atomics-list', 'global-list', 'smem-hover'].forEach(function (id) { setHtml($(id), ''); });
      highlightLines();
      return;
    }
    var n = tr.steps.length;
    setText($('step-counter'), 'step ' + S.step + ' / ' + (n - 1));
    slider.max = n - 1;
    slider.value = S.step;
    var s = 'Ends at <b>' + esc(st.endname || END_NAMES[st.end]) + '</b>' + (st.bl ? ' (line ' + st.bl + ')' : '') + '. Active warps ' +
      st.aw + ' of ' + tr.warps + '. ';
    if (st.ld || st.st) {
      s += 'Shared: ' + st.ld + ' warp loads, ' + st.st + ' stores; bank conflicts ' + st.ldc + ' load, ' + st.stc +
        ' store' + (st.deg > 1 ? ' (<span class="bad">worst ' + st.deg + '-way</span>)' : '') + '. ';
    }
    if (st.shf) s += st.shf.length + ' shuffle' + (st.shf.length === 1 ? '' : 's') + '. ';
    if (st.atm) s += st.atm.length + ' warp atomic' + (st.atm.length === 1 ? '' : 's') + '. ';
    if (st.req) s += st.req.length + ' global request' + (st.req.length === 1 ? '' : 's') + '. ';
    setHtml($('step-summary'), s);
    layoutViews(tr, st);
    // Each view, timed (hook.viewMs: the browser test prints where a frame's time goes).
    var t = performance.now(), ms = hook.viewMs;
    [['source', highlightLines], ['smem', drawSmem], ['warps', drawWarps], ['banks', drawBanks], ['lanes', drawLanes],
      ['atomics', drawAtomics], ['global', drawGlobal]].forEach(function (v) {
      v[1](tr, st);
      var now = performance.now();
      ms[v[0]] = (ms[v[0]] || 0) + (now - t);
      t = now;
    });
    hook.step = S.step;
  }

  var smemLayout = null;
  function drawSmem(tr, st) {
    var c = $('smem');
    if (!tr.has.shared && !tr.words) {
      setText($('smem-text'), tr.kernel + ' does not use shared memory.');
      hide(c);
      smemLayout = null;
      return;
    }
    setText($('smem-text'), tr.words + ' words of 4 bytes, 32 per row (one row = the 32 banks).' +
      (tr.has.shared ? '' : ' ' + tr.kernel + ' makes no shared load or store (its shared memory holds atomics only).'));
    smemLayout = drawCells(c, tr.words, 32, function (i) {
      return st.wrf[i] ? COL.orange : st.rdf[i] ? COL.sky : st.def[i] ? COL.cell : COL.empty;
    }, function (i) { return st.def[i] ? fmt(st.smem[i], tr.isFloat) : null; }, 0);
  }
  function smemHover(ev) {
    var tr = S.trace, st = tr && tr.steps[S.step], L = smemLayout;
    if (!st || !L) return;
    var r = ev.target.getBoundingClientRect();
    var x = ev.clientX - r.left - L.labelW, y = ev.clientY - r.top;
    var col = Math.floor(x / L.cw), row = Math.floor(y / L.ch), i = row * L.cols + col;
    var out = '';
    if (x >= 0 && col < L.cols && i >= 0 && i < tr.words) {
      out = 'word ' + i + ' (bank ' + (i % 32) + ', byte ' + (i * 4) + '): ' +
        (st.def[i] ? fmt(st.smem[i], tr.isFloat) : 'not yet stored') + (st.wrf[i] ? ', written this step' : '') +
        (st.rdf[i] ? ', read this step' : '');
      var from = st.flowsTo[i];
      if (from) out += '; computed from word' + (from.length > 1 ? 's ' : ' ') + from.join(', ');
    }
    $('smem-hover').textContent = out;
  }

  function drawWarps(tr, st) {
    var c = $('warps'), W = tr.warps;
    var any = tr.has.shared || tr.has.lanes || tr.has.atomics || tr.has.global;
    if (!any) {
      setText($('warps-text'), tr.kernel + ': the trace holds no warp instruction, only barriers.');
      hide(c);
      return;
    }
    setText($('warps-text'), 'Active warps: ' + st.aw + ' of ' + W + '.');
    var w = c.clientWidth || 600;
    var labelW = 72, flagW = 124;
    var cell = Math.max(4, Math.min(30, (w - labelW - flagW) / 32));
    var g = canvasCtx(c, W * cell + 2), ctx = g.ctx;
    var font = Math.max(10, Math.min(16, Math.floor(cell * 0.8)));
    ctx.font = font + 'px "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'middle';
    // The lanes, one path per colour: exited, useful, active but idle, inactive.
    var paths = [new Path2D(), new Path2D(), new Path2D(), new Path2D()];
    for (var k = 0; k < W; k++) {
      var u = st.warps[5 * k] >>> 0, a = st.warps[5 * k + 1] >>> 0, x = st.warps[5 * k + 2] >>> 0;
      for (var l = 0; l < 32; l++) {
        var bit = (1 << l) >>> 0;
        paths[(x & bit) ? 0 : (u & bit) ? 1 : (a & bit) ? 2 : 3].rect(labelW + l * cell, k * cell, cell - 1, cell - 1);
      }
    }
    [COL.empty, COL.green, COL.yellow, COL.cell].forEach(function (c, i) { ctx.fillStyle = c; ctx.fill(paths[i]); });
    // Lanes useful in part of the step only (st.part: warp, lanes pairs): their lower half grey, as the window
    // draws them, so a DIVERGED warp never looks fully useful.
    var part = st.part || [], half = new Path2D();
    for (var pi = 0; pi + 1 < part.length; pi += 2) {
      for (var pl = 0; pl < 32; pl++) {
        if ((part[pi + 1] >>> pl) & 1) half.rect(labelW + pl * cell, part[pi] * cell + (cell - 1) / 2, cell - 1, (cell - 1) / 2);
      }
    }
    ctx.fillStyle = COL.cell;
    ctx.fill(half);
    for (k = 0; k < W; k++) {
      u = st.warps[5 * k] >>> 0;
      var div = st.warps[5 * k + 3], eff = st.warps[5 * k + 4];
      var y = k * cell;
      if (cell >= 11 || k % 4 === 0) {
        ctx.textAlign = 'left';
        ctx.fillStyle = u ? COL.text : COL.dim;
        ctx.fillText('warp ' + k, 2, y + cell / 2);
      }
      if (div) {  // a divergence flag that shows at any size
        ctx.fillStyle = COL.verm;
        ctx.fillRect(labelW + 32 * cell + 2, y, 5, cell - 1);
      }
      if (u && cell >= 11) {
        ctx.fillStyle = div ? COL.verm : COL.text;
        ctx.fillText((div ? 'DIVERGED ' : '') + Math.round(eff / 10) + '%', labelW + 32 * cell + 10, y + cell / 2);
      }
    }
  }

  // The bank view as the classic figure of the CUDA C++ Programming Guide (as the window draws it,
  // app/gui/banks_panel.cpp): the warp's 32 lanes on top, the 32 banks below, a line from each lane
  // of the access to the bank its 4-byte word falls in (bank = word % 32: drawing, not replaying).
  // Which banks conflict and their n-way degree are the replay model's (the access's `wpb`, distinct
  // words per bank, and `deg`). Hover a lane or a bank for its words.
  var LABEL_FONT = '"DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif';
  var PANEL_BG = '#1b1e25';
  var bankFig = null;                        // what the figure shows: {tr, sel, L}, for the hover
  var bankHover = { lane: -1, bank: -1 };
  hook.bankMarks = [];                       // the n-way labels drawn last (the browser test reads them)

  // Columns, rows and fonts of a figure `w` CSS pixels wide. Its height depends on the width only, so
  // the page does not move while stepping.
  function bankLayout(ctx, w) {
    var L = { th: 20, font: 16, pad: 5 };
    ctx.font = L.font + 'px ' + LABEL_FONT;
    L.labelW = Math.ceil(ctx.measureText('lanes').width) + 12;
    L.x = L.labelW;
    L.pitch = (w - L.labelW - 2) / 32;
    L.boxW = L.pitch - Math.max(1, L.pitch * 0.15);
    L.boxH = Math.max(L.th * 0.6, Math.min(L.boxW, L.th * 1.1));
    var need = ctx.measureText('31').width + 6;
    L.every = 1;
    while (L.every < 16 && L.every * L.pitch < need) L.every *= 2;
    L.band = Math.max(3.5 * L.th, Math.min(7 * L.th, w * 0.2));
    L.laneLabelY = 0;
    L.laneY = L.th + L.pad;
    L.bankY = L.laneY + L.boxH + L.band;
    L.degreeY = L.bankY - L.th - L.pad;
    L.bankLabelY = L.bankY + L.boxH + L.pad;
    L.h = Math.ceil(L.bankLabelY + L.th + 2);
    L.colX = function (i) { return L.x + i * L.pitch; };
    L.midX = function (i) { return L.x + i * L.pitch + L.boxW / 2; };
    return L;
  }

  // A label centred on cx, kept inside [lo, hi].
  function clampLabel(width, cx, lo, hi) { return Math.max(lo, Math.min(cx - width / 2, Math.max(lo, hi - width))); }

  function drawBankFigure(c, sel) {
    var w = c.clientWidth || c.parentNode.clientWidth || 900;
    var probe = c.getContext('2d');
    var L = bankLayout(probe, w);
    var g = canvasCtx(c, L.h), ctx = g.ctx;
    bankFig = { c: c, sel: sel, L: L };
    ctx.textBaseline = 'top';
    var thick = 2;
    var mask = sel ? sel.m : 0;
    var active = function (l) { return ((mask >>> l) & 1) === 1; };
    var bankOf = function (l) { return sel.addr[l] % 32; };
    var wpb = sel ? sel.wpb : [];
    var conflicted = function (b) { return wpb[b] > 1; };
    var colour = function (b) { return conflicted(b) ? COL.verm : COL.green; };

    // Row titles at the left.
    ctx.font = L.font + 'px ' + LABEL_FONT;
    ctx.fillStyle = COL.dim;
    ctx.textAlign = 'left';
    ctx.fillText('lanes', 0, L.laneY + L.boxH / 2 - L.th / 2 + 1);
    ctx.fillText('banks', 0, L.bankY + L.boxH / 2 - L.th / 2 + 1);

    // "n-way" over each conflicted bank where every label fits beside its neighbours, else just "n";
    // a label that would still overlap the one before it is left out (its bank stays vermillion).
    ctx.font = 'bold 17px ' + LABEL_FONT;
    var degree = [], degreeX = [];
    var lo = L.x, hi = L.x + 32 * L.pitch;
    [true, false].some(function (long) {
      var right = -1e9, fits = true;
      degree = [];
      degreeX = [];
      for (var b = 0; b < 32; b++) {
        degree.push('');
        degreeX.push(0);
        if (!sel || !conflicted(b)) continue;
        var text = wpb[b] + (long ? '-way' : ''), tw = ctx.measureText(text).width;
        var x = clampLabel(tw, L.midX(b), lo, hi);
        if (x < right) { fits = false; continue; }
        right = x + tw + 6;
        degree[b] = text;
        degreeX[b] = x;
      }
      return fits;
    });
    hook.bankMarks = degree.filter(function (d) { return d; });

    // The lines: conflict-free first, then the conflicts on top, then the hovered lane's or bank's.
    var line = function (l, col, width) {
      var b = bankOf(l);
      ctx.strokeStyle = col;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.moveTo(L.midX(l), L.laneY + L.boxH);
      ctx.lineTo(L.midX(b), degree[b] ? L.degreeY : L.bankY);
      ctx.stroke();
    };
    var l, b;
    if (sel) {
      for (var pass = 0; pass < 2; pass++) {
        for (l = 0; l < 32; l++) {
          if (active(l) && conflicted(bankOf(l)) === (pass === 1)) line(l, pass ? COL.verm : COL.green, thick);
        }
      }
      for (l = 0; l < 32; l++) {
        if (active(l) && (l === bankHover.lane || bankOf(l) === bankHover.bank)) line(l, COL.text, thick * 2);
      }
    }

    // Lanes filled in the colour of their line, hollow when not in the access; banks filled when used,
    // vermillion when conflicted, hollow when unused. Numbers every `every` columns.
    ctx.font = L.font + 'px ' + LABEL_FONT;
    ctx.lineWidth = thick;
    for (var i = 0; i < 32; i++) {
      var x0 = L.colX(i);
      var laneOn = sel && active(i), bankOn = sel && wpb[i] > 0;
      if (laneOn) { ctx.fillStyle = colour(bankOf(i)); ctx.fillRect(x0, L.laneY, L.boxW, L.boxH); }
      else { ctx.strokeStyle = COL.cell; ctx.strokeRect(x0 + 1, L.laneY + 1, L.boxW - 2, L.boxH - 2); }
      if (bankOn) { ctx.fillStyle = colour(i); ctx.fillRect(x0, L.bankY, L.boxW, L.boxH); }
      else { ctx.strokeStyle = COL.cell; ctx.strokeRect(x0 + 1, L.bankY + 1, L.boxW - 2, L.boxH - 2); }
      ctx.strokeStyle = COL.text;
      if (i === bankHover.lane) ctx.strokeRect(x0 - 2, L.laneY - 2, L.boxW + 4, L.boxH + 4);
      if (i === bankHover.bank) ctx.strokeRect(x0 - 2, L.bankY - 2, L.boxW + 4, L.boxH + 4);
      if (i % L.every === 0) {
        var s = String(i), tw = ctx.measureText(s).width, lx = clampLabel(tw, L.midX(i), lo, hi);
        ctx.fillStyle = laneOn ? COL.text : COL.dim;
        ctx.fillText(s, lx, L.laneLabelY + 1);
        ctx.fillStyle = bankOn ? COL.text : COL.dim;
        ctx.fillText(s, lx, L.bankLabelY + 1);
      }
    }
    ctx.font = 'bold 17px ' + LABEL_FONT;
    for (b = 0; b < 32; b++) {
      if (!degree[b]) continue;
      var dw = ctx.measureText(degree[b]).width;
      ctx.fillStyle = PANEL_BG;  // the lines pass under the label
      ctx.fillRect(degreeX[b] - 2, L.degreeY, dw + 4, L.th);
      ctx.fillStyle = COL.verm;
      ctx.fillText(degree[b], degreeX[b], L.degreeY + 1);
    }
  }

  // What the mouse is over: a lane (its number or box) or a bank (its n-way label, box or number).
  function bankHoverAt(ev) {
    if (!bankFig) return { lane: -1, bank: -1 };
    var L = bankFig.L, r = bankFig.c.getBoundingClientRect();
    var x = ev.clientX - r.left, y = ev.clientY - r.top, col = Math.floor((x - L.x) / L.pitch);
    if (col < 0 || col >= 32) return { lane: -1, bank: -1 };
    if (y < L.laneY + L.boxH + L.pad) return { lane: col, bank: -1 };
    if (y >= L.degreeY) return { lane: -1, bank: col };
    return { lane: -1, bank: -1 };
  }
  function bankHoverText() {
    var sel = bankFig && bankFig.sel, what = sel ? KIND_NAMES[sel.k] : '';
    if (!sel || (bankHover.lane < 0 && bankHover.bank < 0)) return '';
    var RA = '\u2192';
    var word = function (l) { return 'lane ' + l + ' ' + RA + ' sdata[' + sel.addr[l] + ']'; };
    var lanesOn = function (b) {
      return lanesOf(sel.m).filter(function (l) { return sel.addr[l] % 32 === b; });
    };
    var serves = function (b, n) {
      var words = sel.wpb[b];
      return words > 1 ? '<span class="bad">' + words + ' distinct words: ' + words + '-way conflict</span>'
        : n > 1 ? 'one word for ' + n + ' lanes: a broadcast, no conflict' : 'one word: no conflict';
    };
    if (bankHover.lane >= 0) {
      var l = bankHover.lane;
      if (!((sel.m >>> l) & 1)) return 'lane ' + l + ': not in this ' + what + '.';
      var b = sel.addr[l] % 32;
      return word(l) + ' (byte ' + sel.addr[l] * 4 + '): bank ' + b + '. Bank ' + b + ' serves ' +
        serves(b, lanesOn(b).length) + '.';
    }
    var bk = bankHover.bank, on = lanesOn(bk);
    if (!on.length) return 'bank ' + bk + ': no lane of this ' + what + '.';
    return 'bank ' + bk + ': ' + on.length + ' lane' + (on.length === 1 ? '' : 's') + ', ' + serves(bk, on.length) + '.<br>' +
      on.slice(0, 8).map(word).join(', ') + (on.length > 8 ? ' and ' + (on.length - 8) + ' more' : '') + '.';
  }
  // The tooltip by the mouse, kept inside the panel.
  var bankMousePos = null;
  function showBankTip() {
    var tip = $('bank-hover'), text = bankHoverText();
    setHtml(tip, text);
    tip.hidden = !text || !bankMousePos;
    if (tip.hidden) return;
    // Under the figure, so that it hides neither the lines nor the bank numbers.
    var panel = $('banks-panel').getBoundingClientRect(), fig = $('banks').getBoundingClientRect();
    var x = bankMousePos[0] - panel.left - 40, y = fig.bottom - panel.top + 4;
    var w = tip.offsetWidth;
    tip.style.left = Math.max(4, Math.min(x, panel.width - w - 8)) + 'px';
    tip.style.top = y + 'px';
  }
  function bankMouse(ev) {
    var h = ev.type === 'mouseleave' ? { lane: -1, bank: -1 } : bankHoverAt(ev);
    bankMousePos = ev.type === 'mouseleave' ? null : [ev.clientX, ev.clientY];
    if (h.lane !== bankHover.lane || h.bank !== bankHover.bank) {
      bankHover = h;
      if (bankFig) drawBankFigure(bankFig.c, bankFig.sel);
    }
    showBankTip();
  }

  function drawBanks(tr, st) {
    var c = $('banks'), list = $('access-list'), ncu = $('ncu-note');
    // Where Nsight Compute's counter disagrees with the addresses (app/gui/layout.hpp, kNcuReduxNote).
    if (ncu.hidden === !!tr.ncu_redux) ncu.hidden = !tr.ncu_redux;
    if (!tr.has.shared) {
      setText($('bank-caption'), '');
      setText($('banks-text'), tr.kernel + ' does not use shared memory: no banks to conflict.');
      setHtml(list, '');
      $('bank-hover').hidden = true;
      $('bank-legend').hidden = true;
      bankFig = null;
      hook.bankMarks = [];
      hide(c);
      return;
    }
    $('bank-legend').hidden = false;
    var acc = st.acc || [];
    setHtml($('banks-text'), (acc.length ? 'Step ' + S.step + ': ' + st.ld + ' warp load' + (st.ld === 1 ? '' : 's') + ', ' +
      st.st + ' store' + (st.st === 1 ? '' : 's') + '; ' + st.ldc + ' load, ' + st.stc + ' store bank conflicts. ' : '') +
      'Whole block: ' + tr.ldc + ' load, ' + tr.stc + ' store conflicts.' + (acc.length ? ' Click an access to draw it.' : ''));
    if (!acc.length) {
      // The list keeps its height (the page does not move while stepping) and says where the accesses are.
      var at = tr.stepsWith.acc;
      setHtml(list, '<div class="small">No warp-level shared-memory access in this step' + (at.length ? '; accesses in step' +
        (at.length > 1 ? 's ' : ' ') + esc(stepRanges(at)) : '') + '.</div>');
      setText($('bank-caption'), st.bank_idle || 'No shared load or store in this step.');
      drawBankFigure(c, null);
      $('bank-hover').hidden = true;
      return;
    }
    if (S.acc < 0 || S.acc >= acc.length) {
      S.acc = 0;
      for (var i = 1; i < acc.length; i++) if (acc[i].deg > acc[S.acc].deg) S.acc = i;
    }
    var html = '';
    var shown = Math.min(acc.length, 24);
    for (i = 0; i < shown; i++) {
      var a = acc[i];
      html += '<div class="item' + (i === S.acc ? ' sel' : '') + '" data-acc="' + i + '">warp ' + a.w + ' ' +
        KIND_NAMES[a.k] + ', line ' + a.l + ': ' + popcount(a.m) + ' lanes, ' +
        (a.deg > 1 ? '<span class="bad">' + a.deg + '-way conflict</span>' : '<span class="good">conflict free</span>') + '</div>';
    }
    if (acc.length > shown) html += '<div>' + (acc.length - shown) + ' more</div>';
    setHtml(list, html);
    var sel = acc[S.acc];
    setHtml($('bank-caption'), 'warp ' + sel.w + ' ' + KIND_NAMES[sel.k] + ', line ' + sel.l + ': ' +
      (sel.deg > 1 ? '<span class="bad">' + sel.deg + '-way conflict</span> <span class="pass">' + sel.deg + ' passes, ' +
        (sel.deg - 1) + ' bank conflict' + (sel.deg > 2 ? 's' : '') + '</span>' : 'conflict free <span class="pass">one pass</span>'));
    drawBankFigure(c, sel);
    if (bankMousePos) showBankTip();
  }

  function drawLanes(tr, st) {
    var c = $('lanes');
    if (!tr.has.lanes) {
      setText($('lanes-text'), tr.kernel + ' makes no warp shuffles: its lanes exchange values ' +
        (tr.has.shared ? 'through shared memory.' : tr.has.slice ? 'through global memory.' :
          tr.has.atomics ? 'only through atomics.' : 'not at all.'));
      hide(c);
      return;
    }
    var sh = st.shf || [];
    if (!sh.length) {
      setText($('lanes-text'), 'No shuffle in this step; shuffles in step' +
        (tr.stepsWith.shf.length > 1 ? 's ' : ' ') + stepRanges(tr.stepsWith.shf) + '.');
      hide(c);
      return;
    }
    var show = sh.slice(0, 4), rows = Math.min(4, Math.max(tr.maxShf, 1));
    setText($('lanes-text'), sh.length + ' warp-level ' + (sh[0].k === 7 ? 'warp reduce' : 'shuffle') +
      (sh.length === 1 ? '' : 's') + ' this step' + (sh.length > show.length ? ' (the first ' + show.length + ' drawn)' : '') +
      ': per warp, what each lane offered (top) and received (bottom).');
    var w = c.clientWidth || 600, labelW = 4, cw = (w - labelW) / 32, rowH = 26, band = 54, blockH = rowH * 2 + band + 46;
    var g = canvasCtx(c, rows * blockH), ctx = g.ctx;
    show.forEach(function (s, bi) {
      var y0 = bi * blockH;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.font = '15px "DejaVu Sans", sans-serif';
      ctx.fillStyle = s.ok ? COL.text : COL.verm;
      var rule = '';
      if (s.k === 6) {
        var lanes = lanesOf(s.m);
        for (var i = 0; i < lanes.length; i++) {
          if (s.src[i] !== lanes[i]) {
            var d = lanes[i], from = s.src[i];
            rule = s.op === 3 ? 'lane ' + ARROW + ' lane ^ ' + (from ^ d) : s.op === 2 ? 'lane ' + ARROW + ' lane + ' + (from - d)
              : s.op === 1 ? 'lane ' + ARROW + ' lane - ' + (d - from) : 'lane ' + ARROW + ' lane ' + from;
            break;
          }
        }
      }
      ctx.fillText('warp ' + s.w + '  ' + s.fn + (s.k === 6 ? ' width ' + s.wd : '') + '  line ' + s.l +
        (rule ? '  (' + rule + ')' : s.k === 7 ? '  (every lane gets the reduction of all)' : '') +
        (s.ok ? '' : '  INCONSISTENT: a lane did not get what its source held'), labelW, y0 + 10);
      var yo = y0 + 22, yr = yo + rowH + band;
      var lanesAll = lanesOf(s.m), of = {}, rc = {};
      lanesAll.forEach(function (l, i) { of[l] = s.of[i]; rc[l] = s.rc[i]; });
      ctx.font = Math.max(10, Math.min(15, Math.floor(cw * 0.36))) + 'px "DejaVu Sans Mono", monospace';
      ctx.textAlign = 'center';
      for (var l = 0; l < 32; l++) {
        var x = labelW + l * cw, on = l in of;
        ctx.fillStyle = on ? COL.cell : COL.empty;
        ctx.fillRect(x, yo, cw - 1, rowH);
        ctx.fillRect(x, yr, cw - 1, rowH);
        if (on) {
          ctx.fillStyle = COL.text;
          var a = fmt(of[l], s.f), b = fmt(rc[l], s.f);
          if (ctx.measureText(a).width >= cw - 1) a = compact(a);
          if (ctx.measureText(b).width >= cw - 1) b = compact(b);
          if (ctx.measureText(a).width < cw - 1) ctx.fillText(a, x + cw / 2, yo + rowH / 2);
          if (ctx.measureText(b).width < cw - 1) ctx.fillText(b, x + cw / 2, yr + rowH / 2);
        }
      }
      // Arrows from the source lane (top) to the lane that received its value (bottom).
      ctx.strokeStyle = COL.orange;
      ctx.fillStyle = COL.orange;
      ctx.lineWidth = 1.5;
      if (s.k === 6) {
        lanesAll.forEach(function (dst, i) {
          var src = s.src[i];
          if (src === dst) return;
          var x1 = labelW + src * cw + cw / 2, x2 = labelW + dst * cw + cw / 2, y1 = yo + rowH, y2 = yr;
          ctx.beginPath();
          ctx.moveTo(x1, y1);
          ctx.bezierCurveTo(x1, y1 + band / 2, x2, y2 - band / 2, x2, y2 - 5);
          ctx.stroke();
          ctx.beginPath();
          ctx.moveTo(x2 - 4, y2 - 6);
          ctx.lineTo(x2 + 4, y2 - 6);
          ctx.lineTo(x2, y2);
          ctx.fill();
        });
      } else {
        ctx.textAlign = 'center';
        ctx.fillText('reduction of the ' + lanesAll.length + ' lanes ' + ARROW + ' every lane', w / 2, yo + rowH + band / 2);
      }
      var rl = tr.result_lanes[s.w];
      if (rl >= 0) {
        ctx.fillStyle = COL.dim;
        ctx.textAlign = 'left';
        ctx.font = '13px "DejaVu Sans", sans-serif';
        ctx.fillText('after its last shuffle, lane ' + rl + ' of warp ' + s.w + ' holds the warp\'s result', labelW,
          yr + rowH + 12);
      }
    });
  }

  function drawAtomics(tr, st) {
    var list = $('atomics-list');
    if (!tr.has.atomics) {
      setText($('atomics-text'), tr.kernel + ' makes no atomic operations.');
      setHtml(list, '');
      return;
    }
    var at = st.atm || [], h = '';
    setText($('atomics-text'), at.length ? 'This step: ' + at.length + ' warp-level atomic instruction' +
      (at.length === 1 ? '' : 's') + '. Lanes on one address take their turn (contention).'
      : 'No atomic in this step; atomics in step' + (tr.stepsWith.atm.length > 1 ? 's ' : ' ') +
        stepRanges(tr.stepsWith.atm) + '.');
    at.slice(0, 8).forEach(function (a) {
      for (var i = 0; i + 1 < a.ct.length; i += 2) {
        var n = a.ct[i + 1];
        h += '<div>warp ' + a.w + ' ' + esc(a.fn) + ' ' + esc(a.labels[i / 2]) + ', line ' + a.l + ': ' +
          (n > 1 ? '<span class="bad">' + n + ' updates contend</span>' : '<span class="good">1 update, no contention</span>') +
          '</div>';
      }
    });
    if (at.length > 8) h += '<div>' + (at.length - 8) + ' more instructions this step</div>';
    // Every target: the updates landed by the end of this step, in landing order.
    tr.targets.slice(0, 12).forEach(function (t) {
      var landed = 0, last = null, total = t.o.length / 5;
      for (var i = 0; i < t.o.length; i += 5) {
        if (t.o[i + 1] <= S.step) { landed++; last = i; }
      }
      h += '<div><b>' + esc(t.label) + '</b> (' + esc(t.fn) + '): ' + landed + ' of ' + total + ' updates landed by ' +
        'this step' + (total > 1 ? ', ' + t.chained + ' of ' + (total - 1) + ' consecutive pairs chained' : '');
      if (last !== null) {
        h += '; last: thread ' + t.o[last] + ' ' + fmt(t.o[last + 3], t.f) + ' ' + '\u2192' + ' ' + fmt(t.o[last + 4], t.f);
      }
      h += '</div>';
    });
    if (tr.targets.length > 12) h += '<div>' + (tr.targets.length - 12) + ' more addresses</div>';
    setHtml(list, h);
  }

  function elements(q) {
    var idx = [];
    lanesOf(q.m).forEach(function (l) { idx.push(q.index[l]); });
    idx.sort(function (a, b) { return a - b; });
    idx = idx.filter(function (v, i) { return i === 0 || v !== idx[i - 1]; });
    if (!idx.length) return q.buf;
    if (idx.length === 1) return q.buf + '[' + idx[0] + ']';
    var d = idx[1] - idx[0], even = true;
    for (var i = 2; i < idx.length && even; i++) even = idx[i] - idx[i - 1] === d;
    return q.buf + '[' + idx[0] + '..' + idx[idx.length - 1] + (even ? (d === 1 ? '' : ' step ' + d) : '') + ']' +
      (even ? '' : ', ' + idx.length + ' elements');
  }

  function drawGlobal(tr, st) {
    var list = $('global-list'), c = $('gslice');
    if (!tr.has.global) {
      setText($('global-text'), tr.kernel + ' makes no global load or store that the trace records.');
      setHtml(list, '');
      hide(c);
      return;
    }
    var req = st.req || [], h = '', text;
    if (st.gsum) {
      var g = st.gsum;
      text = 'This step: ' + g[0] + ' load, ' + g[1] + ' store requests; ' + g[2] +
        ' sectors of 32 bytes, ' + (g[2] > g[3] ? '<span class="bad">' + (g[2] - g[3]) + ' more than needed (' + g[3] +
        ')</span>' : '<span class="good">the fewest possible</span>') + '; ' + Math.round(g[5] * 100) +
        '% of the bytes used.';
    } else {
      text = 'No global request in this step; requests in step' +
        (tr.stepsWith.req.length > 1 ? 's ' : ' ') + esc(stepRanges(tr.stepsWith.req)) + '.';
    }
    if (S.req >= req.length) S.req = -1;
    req.slice(0, 64).forEach(function (q, i) {
      h += '<div class="item' + (i === S.req ? ' sel' : '') + '" data-req="' + i + '">warp ' + q.w + ' ' + KIND_NAMES[q.k] +
        ' ' + esc(elements(q)) + ', line ' + q.l + ': ' + q.sec + ' sector' + (q.sec === 1 ? '' : 's') + ' (' + q.min +
        ' needed), <span class="' + (q.sec > q.min ? 'bad' : 'good') + '">' + Math.round(q.eff * 100) + '%</span></div>';
    });
    if (req.length > 64) h += '<div>' + (req.length - 64) + ' more requests</div>';
    setHtml(list, h);
    if (!tr.slice) { setHtml($('global-text'), text); hide(c); return; }
    var sl = tr.slice, n = sl.count;
    var cols = n <= 1024 ? 32 : n <= 4096 ? 64 : 128;
    var outline = null;
    if (S.req >= 0 && req[S.req] && req[S.req].sp === sl.space) {
      outline = {};
      lanesOf(req[S.req].m).forEach(function (l) { outline[req[S.req].index[l] - sl.first] = 1; });
    }
    drawCells(c, n, cols, function (i) {
      if (outline && outline[i]) return COL.purple;
      return st.gwrf[i] ? COL.orange : st.grdf[i] ? COL.sky : st.gdef[i] ? COL.cell : COL.empty;
    }, function (i) { return st.gdef[i] ? fmt(st.gval[i], tr.isFloat) : null; }, sl.first);
    setHtml($('global-text'), text + '<br>The block\'s slice of ' + esc(sl.name) + ', elements ' + sl.first + '..' +
      (sl.first + n - 1) + (sl.truncated ? ' (the first ' + n + ' of ' + sl.span + ')' : '') +
      ' after the step: written orange, read blue' + (outline ? ', the selected request purple' : '') +
      '; click a request to outline its elements.');
  }

  // ---- timings --------------------------------------------------------------------------------
  // The track's table (with launches, "L"), its charts (median time per kernel; time against block
  // size, log time axis on request) and the N sweep with its table: the window's timing tabs
  // (app/gui/timing_panel.cpp), drawn with Canvas 2D from the recorded numbers.
  // A kernel's colour is its place in its track, as in the window (kernel_color) and the exported charts.
  var KERNEL_COLORS = ['#e69f00', '#56b4e9', '#009e73', '#0072b2', '#d55e00', '#cc79a7', '#ebebeb', '#f0e442'];
  // The sweep's tracks in their order of appearance, as the window's "vs N" tab colours them.
  var SWEEP_COLORS = ['#e69f00', '#56b4e9', '#009e73', '#0072b2', '#d55e00', '#cc79a7', '#f0e442'];
  var GRID = '#323744', AXIS = '#8a919e';
  var SEL_ROW = '#50394c';  // the window's selected-kernel purple at 30% on the panel (as the table's row)
  function kernelColor(track, name) {
    for (var i = 0; i < track.kernels.length; i++) {
      if (track.kernels[i].name === name) return KERNEL_COLORS[i % KERNEL_COLORS.length];
    }
    return COL.dim;
  }
  function timingOf(name, bs) {
    for (var i = 0; i < D.timings.length; i++) if (D.timings[i][0] === name && D.timings[i][1] === bs) return D.timings[i];
    return null;
  }
  // Launches of one reduction: the session's count, else the kernel's fixed count (as the window's
  // table), else unknown ("?").
  function launchesOf(t, info) {
    if (t && t[9]) return t[9];
    return info && info.fixed_launches ? info.fixed_launches : 0;
  }
  // A number for an axis: at most 4 significant digits, no float noise (0.15, not 0.15000000000000002).
  function axisNum(v) { return String(Number(v.toPrecision(4))); }
  function niceStep(range, n) {
    var raw = range / Math.max(1, n), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function linearTicks(hi, n) {
    var step = niceStep(hi, n), out = [];
    for (var v = 0; v <= hi * (1 + 1e-9); v += step) out.push(Number(v.toPrecision(12)));
    return out;
  }
  // The 1-2-5 value at or below v (down) or at or above it (up): the log axis's ends, as the window's.
  function round125(v, up) {
    var p = Math.pow(10, Math.floor(Math.log10(v))), m = [1, 2, 5, 10], i;
    if (up) { for (i = 0; i < m.length; i++) if (m[i] * p >= v * (1 - 1e-9)) return Number((m[i] * p).toPrecision(6)); }
    for (i = m.length - 1; i >= 0; i--) if (m[i] * p <= v * (1 + 1e-9)) return Number((m[i] * p).toPrecision(6));
    return v;
  }
  // Ticks at 1, 2 and 5 x 10^k between lo and hi; only the decades when those crowd.
  function logTicks(lo, hi, n) {
    var out = [], d0 = Math.floor(Math.log10(lo)), d1 = Math.ceil(Math.log10(hi));
    [[1, 2, 5], [1]].some(function (mult) {
      out = [];
      for (var d = d0; d <= d1; d++) {
        mult.forEach(function (m) {
          var v = Number((m * Math.pow(10, d)).toPrecision(6));
          if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
        });
      }
      return out.length <= n;
    });
    return out;
  }
  function rectsOverlap(a, b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }
  // Does the segment (x1, y1)-(x2, y2) pass through rectangle r? Sampled every 2 px: a label box is
  // far larger than that.
  function segmentHits(r, x1, y1, x2, y2) {
    var n = Math.max(1, Math.ceil(Math.hypot(x2 - x1, y2 - y1) / 2));
    for (var i = 0; i <= n; i++) {
      var x = x1 + (x2 - x1) * i / n, y = y1 + (y2 - y1) * i / n;
      if (x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h) return true;
    }
    return false;
  }
  // "2^16" as 2 with a raised 16; returns its width (draws nothing with draw = false).
  function pow2Label(ctx, k, cx, y, draw) {
    ctx.font = '16px ' + LABEL_FONT;
    var bw = ctx.measureText('2').width;
    ctx.font = '12px ' + LABEL_FONT;
    var ew = ctx.measureText(String(k)).width, w = bw + ew + 1;
    if (draw) {
      var x = cx - w / 2;
      ctx.textAlign = 'left';
      ctx.font = '16px ' + LABEL_FONT;
      ctx.fillText('2', x, y + 4);
      ctx.font = '12px ' + LABEL_FONT;
      ctx.fillText(String(k), x + bw + 1, y);
    }
    return w;
  }
  function chartMessage(c, h, text) {
    var g = canvasCtx(c, h), ctx = g.ctx;
    ctx.fillStyle = COL.dim;
    ctx.font = '18px ' + LABEL_FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, g.w / 2, h / 2);
  }

  // A line chart. o: {h, xs (tick positions), xLabel(x) -> text | {pow2: k}, xTitle, yTitle, yLog,
  // series: [{name, color, pts: [[x, y], ...], width}], hlines: [{y, color, label}], band: x or null}.
  // Labels (ticks, titles, the reference lines') sit outside the data: a reference line's label takes
  // the first place beside its line that no data line, marker or other label crosses, or none.
  function lineChart(c, o) {
    var g = canvasCtx(c, o.h), ctx = g.ctx, w = g.w, h = o.h, th = 20;
    var ys = [];
    o.series.forEach(function (s) { s.pts.forEach(function (p) { ys.push(p[1]); }); });
    o.hlines.forEach(function (l) { if (l.y > 0) ys.push(l.y); });
    if (!ys.length || !(Math.max.apply(null, ys) > 0)) { chartMessage(c, h, o.empty || 'no data'); return null; }
    var yMax = Math.max.apply(null, ys), yMin = Math.min.apply(null, ys), ticks, ylo, yhi;
    var plotH0 = h - 2 * th - 30;
    if (o.yLog) {
      ylo = round125(yMin, false);
      yhi = round125(yMax, true);
      ticks = logTicks(ylo, yhi, Math.max(3, Math.floor(plotH0 / (th * 1.6))));
    } else {
      ticks = linearTicks(yMax * 1.1, Math.max(3, Math.floor(plotH0 / (th * 2.2))));
      ylo = 0;
      yhi = ticks[ticks.length - 1];
      if (yhi < yMax * 1.04) { yhi += ticks[1] - ticks[0]; ticks.push(Number(yhi.toPrecision(12))); }
    }
    ctx.font = '16px ' + LABEL_FONT;
    var tickW = 0;
    ticks.forEach(function (t) { tickW = Math.max(tickW, ctx.measureText(axisNum(t)).width); });
    var left = Math.ceil(tickW) + 14, top = th + 10, bottom = h - (2 * th + 16), right = w - 24;
    var xlo = o.xs[0], xhi = o.xs[o.xs.length - 1];
    if (xhi === xlo) { xlo -= 1; xhi += 1; }
    var X = function (x) { return left + 12 + (x - xlo) / (xhi - xlo) * (right - left - 24); };
    var Y = o.yLog ? function (y) { return bottom - Math.log(y / ylo) / Math.log(yhi / ylo) * (bottom - top); }
      : function (y) { return bottom - (y - ylo) / (yhi - ylo) * (bottom - top); };
    // The selected block size (or N) as a faint band behind the data.
    if (o.band !== null && o.band !== undefined) {
      ctx.fillStyle = 'rgba(204, 121, 167, 0.18)';
      var bx = Math.max(left + 1, X(o.band) - 14);
      ctx.fillRect(bx, top, X(o.band) + 14 - bx, bottom - top);
    }
    // Grid, y ticks, the y title above the ticks.
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    ctx.lineWidth = 1;
    ticks.forEach(function (t) {
      var y = Math.round(Y(t)) + 0.5;
      ctx.strokeStyle = GRID;
      ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(right, y); ctx.stroke();
      ctx.fillStyle = COL.dim;
      ctx.fillText(axisNum(t), left - 8, y);
    });
    ctx.strokeStyle = AXIS;
    ctx.beginPath();
    ctx.moveTo(left + 0.5, top);
    ctx.lineTo(left + 0.5, bottom + 0.5);
    ctx.lineTo(right, bottom + 0.5);
    ctx.stroke();
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillStyle = COL.text;
    var yTitle = o.yTitle + (o.yLog ? ' (log scale)' : '');
    ctx.fillText(yTitle, 4, 2);
    var titleBox = { x: 0, y: 0, w: ctx.measureText(yTitle).width + 12, h: th + 2 };
    // x ticks: a label where it does not touch the one before it.
    var lastRight = -1e9;
    o.xs.forEach(function (x) {
      var cx = X(x), lab = o.xLabel(x), lw;
      ctx.strokeStyle = AXIS;
      ctx.beginPath(); ctx.moveTo(cx + 0.5, bottom); ctx.lineTo(cx + 0.5, bottom + 6); ctx.stroke();
      ctx.fillStyle = x === o.band ? COL.text : COL.dim;
      if (lab.pow2 !== undefined) {
        lw = pow2Label(ctx, lab.pow2, cx, bottom + 8, false);
        if (cx - lw / 2 > lastRight + 10) { pow2Label(ctx, lab.pow2, cx, bottom + 8, true); lastRight = cx + lw / 2; }
      } else {
        ctx.font = (x === o.band ? 'bold ' : '') + '16px ' + LABEL_FONT;
        lw = ctx.measureText(lab).width;
        if (cx - lw / 2 > lastRight + 10) {
          ctx.textAlign = 'center';
          ctx.fillText(lab, cx, bottom + 9);
          lastRight = cx + lw / 2;
        }
      }
    });
    ctx.font = '16px ' + LABEL_FONT;
    ctx.textAlign = 'center';
    ctx.fillStyle = COL.text;
    ctx.fillText(o.xTitle, (left + right) / 2, bottom + th + 12);

    // Reference lines (dashed), then the series, the selected one last and thickest.
    var segs = [], marks = [];
    o.series.forEach(function (s) {
      for (var i = 0; i < s.pts.length; i++) {
        marks.push([X(s.pts[i][0]), Y(s.pts[i][1])]);
        if (i) segs.push([X(s.pts[i - 1][0]), Y(s.pts[i - 1][1]), X(s.pts[i][0]), Y(s.pts[i][1])]);
      }
    });
    ctx.setLineDash([8, 6]);
    o.hlines.forEach(function (l) {
      if (!(l.y > 0)) return;
      var y = Math.round(Y(l.y)) + 0.5;
      ctx.strokeStyle = l.color;
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(right, y); ctx.stroke();
    });
    ctx.setLineDash([]);
    var order = o.series.filter(function (s) { return !s.sel; }).concat(o.series.filter(function (s) { return s.sel; }));
    order.forEach(function (s) {
      ctx.strokeStyle = s.color;
      ctx.fillStyle = s.color;
      ctx.lineWidth = s.sel ? 5 : 2.5;
      ctx.beginPath();
      s.pts.forEach(function (p, i) { if (i) ctx.lineTo(X(p[0]), Y(p[1])); else ctx.moveTo(X(p[0]), Y(p[1])); });
      ctx.stroke();
      s.pts.forEach(function (p) {
        ctx.beginPath();
        ctx.arc(X(p[0]), Y(p[1]), s.sel ? 6 : 4, 0, 2 * Math.PI);
        ctx.fill();
      });
    });
    // The reference lines' labels, where nothing is in the way.
    ctx.font = '16px ' + LABEL_FONT;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    var placed = [titleBox], shown = [];
    o.hlines.forEach(function (l) {
      if (!(l.y > 0) || !l.label) return;
      var tw = ctx.measureText(l.label).width + 6, y = Y(l.y);
      var cands = [[right - tw - 4, y - th - 3], [right - tw - 4, y + 4], [left + 8, y - th - 3], [left + 8, y + 4],
        [(left + right - tw) / 2, y - th - 3], [(left + right - tw) / 2, y + 4]];
      for (var i = 0; i < cands.length; i++) {
        var r = { x: cands[i][0], y: cands[i][1], w: tw, h: th };
        if (r.y < top - th || r.y + r.h > bottom) continue;
        var hit = placed.some(function (p) { return rectsOverlap(p, r); }) ||
          segs.some(function (sg) { return segmentHits(r, sg[0], sg[1], sg[2], sg[3]); }) ||
          marks.some(function (m) { return m[0] + 6 > r.x && m[0] - 6 < r.x + r.w && m[1] + 6 > r.y && m[1] - 6 < r.y + r.h; });
        if (hit) continue;
        placed.push(r);
        ctx.fillStyle = PANEL_BG;
        ctx.fillRect(r.x, r.y, r.w, r.h);
        ctx.fillStyle = l.color;
        ctx.fillText(l.label, r.x + 3, r.y + 2);
        shown.push(l.label);
        break;
      }
    });
    return { shown: shown };
  }

  // Median time per kernel of the track at one block size: one row per kernel (names never collide),
  // a bar in the kernel's colour, the time after it; the selected kernel's row highlighted; CUB as a
  // dashed reference line.
  function barChart(c, track, bs, current) {
    var th = 20, rowH = 30, barH = 22, n = track.kernels.length;
    var h = th + 10 + n * rowH + th + 12;
    var g = canvasCtx(c, h), ctx = g.ctx, w = g.w;
    var rows = track.kernels.map(function (k) {
      return { k: k, t: timingOf(k.name, bs), color: kernelColor(track, k.name) };
    });
    var vals = rows.filter(function (r) { return r.t; }).map(function (r) { return r.t[2]; });
    if (!vals.length) { chartMessage(c, h, 'No timings of ' + track.id + ' at ' + bs + ' threads in the session.'); return; }
    ctx.textBaseline = 'middle';
    ctx.font = 'bold 17px ' + LABEL_FONT;
    var nameW = 0;
    rows.forEach(function (r) { nameW = Math.max(nameW, ctx.measureText(r.k.name).width); });
    ctx.font = '16px ' + LABEL_FONT;
    var unit = 'median ms', left = Math.max(Math.min(Math.ceil(nameW) + 16, Math.floor(w * 0.42)),
      Math.ceil(ctx.measureText(unit).width) + 24);
    var valW = 0;
    rows.forEach(function (r) {
      r.label = r.t ? r.t[2].toFixed(4) + (r.t[8] ? '' : ' WRONG')
        : r.k.min_bs > bs ? 'needs ' + r.k.min_bs + '+ threads' : 'no timing';
      r.lw = ctx.measureText(r.label).width;
      if (r.t) valW = Math.max(valW, r.lw);
    });
    var cub = D.meta.cub_ms > 0 ? D.meta.cub_ms : 0;
    var max = Math.max(Math.max.apply(null, vals), cub);
    var top = th + 10, right = w - Math.ceil(valW) - 16;
    var ticks = linearTicks(max, Math.max(2, Math.floor((right - left) / 90)));
    var xmax = Math.max(max, ticks[ticks.length - 1]);
    var X = function (v) { return left + v / xmax * (right - left); };
    var bottom = top + n * rowH;
    // Grid and ticks along the bottom; the unit under the names.
    ctx.lineWidth = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ticks.forEach(function (t) {
      var x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = GRID;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      ctx.fillStyle = COL.dim;
      ctx.fillText(axisNum(t), Math.min(x, w - ctx.measureText(axisNum(t)).width / 2 - 2), bottom + 6);
    });
    ctx.textAlign = 'right';
    ctx.fillStyle = COL.text;
    ctx.fillText(unit, left - 12, bottom + 6);
    // Rows.
    rows.forEach(function (r, i) {
      var y = top + i * rowH, sel = r.k.name === current;
      if (sel) {
        ctx.fillStyle = SEL_ROW;
        ctx.fillRect(0, y, w, rowH);
      }
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'right';
      ctx.font = (sel ? 'bold 17px ' : '17px ') + LABEL_FONT;
      ctx.fillStyle = r.t ? COL.text : COL.dim;
      var name = r.k.name;
      while (name.length > 3 && ctx.measureText(name).width > left - 14) name = name.slice(0, -2) + '\u2026';
      ctx.fillText(name, left - 10, y + rowH / 2);
      if (r.t) {
        var bw = Math.max(2, X(r.t[2]) - left);
        ctx.fillStyle = r.color;
        ctx.fillRect(left, y + (rowH - barH) / 2, bw, barH);
        if (sel) {
          ctx.strokeStyle = COL.text;
          ctx.lineWidth = 3;
          ctx.strokeRect(left + 1.5, y + (rowH - barH) / 2 - 1.5, bw - 1, barH + 3);
        }
      }
    });
    ctx.strokeStyle = AXIS;
    ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(left + 0.5, top); ctx.lineTo(left + 0.5, bottom); ctx.stroke();
    // CUB: a dashed line through the rows, its label in the strip above them.
    if (cub) {
      var cx = Math.round(X(cub)) + 0.5;
      ctx.setLineDash([6, 5]);
      ctx.strokeStyle = COL.text;
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(cx, top - 4); ctx.lineTo(cx, bottom); ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = '16px ' + LABEL_FONT;
      var cl = 'CUB ' + cub.toFixed(4), cw = ctx.measureText(cl).width;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillStyle = COL.text;
      ctx.fillText(cl, clampLabel(cw, cx, left, w - 2), 2);
    }
    // Values after the bars, on the panel's colour (the CUB line passes under them).
    ctx.font = '16px ' + LABEL_FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    rows.forEach(function (r, i) {
      var y = top + i * rowH, x = r.t ? X(r.t[2]) + 8 : left + 8;
      ctx.fillStyle = r.k.name === current ? SEL_ROW : PANEL_BG;
      ctx.fillRect(x - 3, y + (rowH - th) / 2, r.lw + 6, th);
      ctx.fillStyle = !r.t ? COL.dim : r.t[8] ? COL.text : COL.verm;
      ctx.fillText(r.label, x, y + rowH / 2 + 1);
    });
  }

  function legendHtml(items) {
    return items.map(function (it) {
      return '<span' + (it.sel ? ' class="sel"' : '') + '><i' + (it.dash ? ' class="dash" style="border-color:' + it.color + '"'
        : ' style="background:' + it.color + '"') + '></i>' + esc(it.name) + '</span>';
    }).join('');
  }

  function blockSizeChart(track, current) {
    var log2 = function (v) { return Math.log(v) / Math.LN2; };
    var series = [], legend = [];
    track.kernels.forEach(function (k) {
      var pts = [];
      D.block_sizes.forEach(function (b) { var t = timingOf(k.name, b); if (t && t[2] > 0) pts.push([log2(b), t[2]]); });
      if (!pts.length) return;
      var col = kernelColor(track, k.name);
      series.push({ name: k.name, color: col, pts: pts, sel: k.name === current });
      legend.push({ name: k.name, color: col, sel: k.name === current });
    });
    var cub = D.meta.cub_ms;
    if (series.length && cub > 0) {
      legend.push({ name: 'CUB DeviceReduce::Sum ' + cub.toFixed(4) + ' ms', color: COL.dim, dash: true });
    }
    setHtml($('legend-bs'), legendHtml(legend));
    var r = lineChart($('chart-bs'), {
      h: Math.max(260, Math.min(400, Math.round((window.innerHeight || 800) * 0.4))), xs: D.block_sizes.map(log2),
      xLabel: function (x) { return String(Math.round(Math.pow(2, x))); },
      xTitle: 'threads per block', yTitle: 'median ms', yLog: S.logTime, series: series, band: log2(S.bs),
      hlines: series.length && cub > 0 ? [{ y: cub, color: COL.dim, label: 'CUB ' + cub.toFixed(4) }] : [],
      empty: 'No timings of ' + track.id + ' in the session.' });
    hook.charts.bs = { series: series.length, labels: r ? r.shown : [], log: !!S.logTime };
  }

  function sweepView(track) {
    var sw = D.sweep, pts = sw && sw.points ? sw.points : [];
    var fig = $('sweep-figure'), cap = $('sweep-caption'), table = $('sweep-table');
    if (!pts.length) {
      cap.textContent = 'No N sweep in this session. A sweep is `reducescope bench --csv` at several N (2^16 ... 2^30), ' +
        'stored into a session with `reducescope sweep BENCH.csv ... --out SESSION`.';
      fig.hidden = true;
      setHtml(table, '');
      hook.charts.sweep = { series: 0 };
      return;
    }
    fig.hidden = false;
    cap.textContent = 'Recorded on ' + sw.gpu + ' (reducescope sweep). Method: ' + (sw.method ||
      'each track\'s fastest correct kernel over every block size, at each N') + '. CUB and the device-to-device copy ' +
      '(bytes read + written) for reference; the selected kernel\'s track drawn thick.';
    var names = [], ns = [];
    pts.forEach(function (p) {
      if (names.indexOf(p[0]) < 0) names.push(p[0]);
      if (ns.indexOf(p[1]) < 0) ns.push(p[1]);
    });
    ns.sort(function (a, b) { return a - b; });
    var log2 = function (v) { return Math.round(Math.log(v) / Math.LN2 * 1000) / 1000; };
    var series = [], legend = [], ti = 0, mine = track ? track.id : '';
    names.forEach(function (name) {
      var col = name === sw.cub ? COL.dim : name === sw.copy ? COL.text : SWEEP_COLORS[ti++ % SWEEP_COLORS.length];
      var s = { name: name, color: col, sel: name === mine, pts: [] };
      pts.forEach(function (p) { if (p[0] === name) s.pts.push([log2(p[1]), p[2]]); });
      series.push(s);
      legend.push({ name: name, color: col, sel: s.sel });
    });
    if (sw.peak_gbps > 0) {
      legend.push({ name: 'theoretical peak ' + sw.peak_gbps.toFixed(0) + ' GB/s', color: COL.dim, dash: true });
    }
    setHtml($('legend-sweep'), legendHtml(legend));
    var r = lineChart($('chart-sweep'), {
      h: 420, xs: ns.map(log2), xLabel: function (x) { return { pow2: Math.round(x) }; }, xTitle: 'N (int32 elements)',
      yTitle: 'effective bandwidth, GB/s', yLog: false, series: series, band: null,
      hlines: sw.peak_gbps > 0 ? [{ y: sw.peak_gbps, color: COL.dim, label: 'theoretical peak ' + sw.peak_gbps.toFixed(0) + ' GB/s' }] : [] });
    hook.charts.sweep = { series: series.length, labels: r ? r.shown : [] };
    // The selected kernel's track against CUB at each N, as the window's table.
    var find = function (name, n) {
      for (var i = 0; i < pts.length; i++) if (pts[i][0] === name && pts[i][1] === n) return pts[i];
      return null;
    };
    if (!track || names.indexOf(mine) < 0) {
      setHtml(table, '<div class="small">' + esc(mine || 'This kernel') + ' is not in the sweep (its tracks: ' +
        esc(names.filter(function (x) { return x !== sw.cub && x !== sw.copy; }).join(', ')) + ').</div>');
      return;
    }
    var h = '<table><caption>' + esc(mine) + ' against CUB at each N</caption><tr><th>N</th><th>CUB GB/s</th>' +
      '<th class="name">fastest kernel (threads)</th><th>GB/s</th><th title="CUB\'s time / this kernel\'s time, measured in the same run">' +
      'vs CUB</th><th title="kernel launches in one reduction">launches</th></tr>';
    ns.forEach(function (n) {
      var c = find(sw.cub, n), p = find(mine, n), k = Math.round(Math.log(n) / Math.LN2);
      h += '<tr><td title="' + n + ' int32 elements">2<sup>' + k + '</sup></td><td>' + (c ? c[2].toFixed(0) : '-') + '</td>';
      if (!p) { h += '<td>not measured</td><td></td><td></td><td></td></tr>'; return; }
      var ratio = c && c[2] > 0 ? p[2] / c[2] : 0;
      h += '<td class="name"' + (p[5] > 0 ? ' title="median ' + p[5].toFixed(4) + ' ms"' : '') + '>' + esc(p[3]) + ' (' + p[4] + ')</td><td>' +
        p[2].toFixed(0) + '</td><td' + (ratio >= 1 ? ' class="ratio-good"' : '') + '>' + (ratio ? ratio.toFixed(2) + TIMES : '-') +
        '</td><td>' + (p[6] ? p[6] : '?') + '</td></tr>';
    });
    setHtml(table, h + '</table>');
  }

  var timingsShown = '';
  function timingTable(track, bs, current) {
    var rows = [];
    track.kernels.forEach(function (k) {
      var t = timingOf(k.name, bs);
      if (t) rows.push([t, k]);
    });
    if (!rows.length) return '';
    var h = '<table><caption>' + esc(track.id) + ' at ' + bs + ' threads</caption><tr><th>kernel</th><th>median ms</th>' +
      '<th class="l" title="L: kernel launches in one reduction (? = not recorded)">L</th>' +
      '<th>GB/s</th><th>% of peak</th><th>vs CUB</th><th>result</th></tr>';
    rows.forEach(function (r) {
      var t = r[0], L = launchesOf(t, r[1]);
      h += '<tr' + (t[0] === current ? ' class="cur"' : '') + '><td>' + esc(t[0]) + '</td><td>' + t[2].toFixed(4) +
        '</td><td class="l">' + (L ? L : '?') + '</td><td>' + t[5].toFixed(0) + '</td><td>' + t[6].toFixed(1) + '%</td><td>' +
        (t[7] ? t[7].toFixed(2) + TIMES : '') + '</td><td>' + (t[8] ? 'correct' : '<span class="bad">WRONG</span>') + '</td></tr>';
    });
    return h + '</table>';
  }
  function renderTimings() {
    var k = kernelInfo(S.kernel);
    var sig = S.kernel + '@' + S.bs + '@' + (S.logTime ? 'log' : 'lin') + '@' + ($('timing-panel').clientWidth || 0);
    if (sig === timingsShown) return;
    timingsShown = sig;
    var m = D.meta;
    $('timing-caption').textContent = 'Recorded on ' + m.gpu + ' (compute capability ' + m.cc + ', CUDA ' + m.cuda +
      ') on ' + m.date + '. N = ' + m.n + ' elements (' + m.pattern + '). Method: ' + m.method + '. Theoretical peak ' +
      m.peak_gbps.toFixed(0) + ' GB/s; device copy ' + m.copy_gbps.toFixed(0) + ' GB/s; cub::DeviceReduce::Sum ' +
      m.cub_ms.toFixed(4) + ' ms (' + m.cub_gbps.toFixed(0) + ' GB/s). vs CUB = CUB time / kernel time. ' +
      'L = kernel launches in one reduction.';
    var tr = k ? trackOf(k.track) : null;
    setHtml($('timing-tables'), tr ? timingTable(tr, S.bs, S.kernel) || '<div class="small">No timings of ' + esc(tr.id) +
      ' at ' + S.bs + ' threads in the session.</div>' : '');
    var all = '';
    D.tracks.forEach(function (t) {
      D.block_sizes.forEach(function (b) { all += timingTable(t, b, S.kernel); });
    });
    setHtml($('timing-all-tables'), all);
    // A track without any timing (the pitfalls): its table says so, no empty charts.
    var timed = !!tr && tr.kernels.some(function (x) {
      return D.timings.some(function (t) { return t[0] === x.name; });
    });
    $('bars-figure').hidden = !timed;
    $('bs-figure').hidden = !timed;
    if (timed) {
      setText($('bars-title'), 'Median time per kernel: ' + tr.id + ', ' + S.bs + ' threads per block');
      barChart($('chart-bars'), tr, S.bs, S.kernel);
      setText($('bs-title'), 'Median time against block size: ' + tr.id);
      blockSizeChart(tr, S.kernel);
    }
    sweepView(tr);
    hook.chartDraws++;
  }

  // ---- start ----------------------------------------------------------------------------------
  function describeHeld() {
    var parts2 = [];
    D.tracks.forEach(function (t) {
      var held = D.held[t.id];
      if (held && held.length) parts2.push(t.id + ' ' + held.join(', '));
    });
    return parts2.join('; ');
  }

  function start(index) {
    D = index;
    D.tracks.forEach(function (t) {
      t.kernels.forEach(function (k) { kernels.push({ name: k.name, track: t.id, info: k }); });
    });
    D.traces.forEach(function (e) { traceOf[key(e.kernel, e.bs)] = traceOf[key(e.kernel, e.bs)] || e; });
    var m = D.meta;
    // One line on screen (a laptop's first screen is for the replay); the rest behind "details".
    $('rec-line').innerHTML = '<b>recorded</b> on <b>' + esc(m.gpu) + '</b>, ' + esc(String(m.date).slice(0, 10)) +
      '; nothing runs on your GPU.';
    $('rec-text').innerHTML = 'This page replays a session <b>recorded</b> on <b>' + esc(m.gpu) + '</b> on <b>' +
      esc(m.date) + '</b>; nothing runs on your computer\'s GPU. Steps come from ReduceScope\'s replay model. ' +
      'Traces held (threads per block): ' + esc(describeHeld()) + ' (' + D.traces.length + ' of ' + D.traces_in_session +
      ' traces). The full session' + (D.session_name ? ', <b>' + esc(D.session_name) + '</b>,' : '') +
      ' holds every block size; open it in ReduceScope.';
    $('footer').textContent = 'Exported by ' + D.exporter + ' from a session recorded by ReduceScope ' + m.tool +
      '. Bank model: 32 banks of 4 bytes. Global efficiency: bytes requested / (32-byte sectors touched ' + TIMES +
      ' 32).';
    $('ncu-note').title = D.ncu_redux_note || '';
    $('app').hidden = false;
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', function (e) { if (e.key === ' ' && D) e.preventDefault(); });
    $('kernel-list').addEventListener('click', function (e) {
      var b = e.target.closest('[data-kernel]');
      if (b) { select(b.getAttribute('data-kernel'), S.bs); b.blur(); }
    });
    $('bs-buttons').addEventListener('click', function (e) {
      var b = e.target.closest('[data-bs]');
      if (b && !b.disabled) { select(S.kernel, Number(b.getAttribute('data-bs'))); b.blur(); }
    });
    $('access-list').addEventListener('click', function (e) {
      var b = e.target.closest('[data-acc]');
      if (b) { S.acc = Number(b.getAttribute('data-acc')); renderStep(); }
    });
    $('global-list').addEventListener('click', function (e) {
      var b = e.target.closest('[data-req]');
      if (b) { var i = Number(b.getAttribute('data-req')); S.req = S.req === i ? -1 : i; renderStep(); }
    });
    $('btn-start').onclick = function () { setStep(0); this.blur(); };
    $('btn-back').onclick = function () { setStep(S.step - 1); this.blur(); };
    $('btn-fwd').onclick = function () { setStep(S.step + 1); this.blur(); };
    $('btn-end').onclick = function () { if (S.trace) setStep(S.trace.steps.length - 1); this.blur(); };
    $('btn-play').onclick = function () { setPlaying(!S.playing); this.blur(); };
    $('step-slider').oninput = function () { setStep(Number(this.value)); };
    $('speed').onchange = function () { S.speed = Number(this.value); this.blur(); };
    $('smem').addEventListener('mousemove', smemHover);
    $('banks').addEventListener('mousemove', bankMouse);
    $('banks').addEventListener('mouseleave', bankMouse);
    $('log-time').checked = S.logTime;  // not what the browser may restore on a reload
    $('log-time').onchange = function () { S.logTime = this.checked; renderTimings(); this.blur(); };
    $('source').addEventListener('scroll', function () { srcScroll = this.scrollTop; }, { passive: true });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { srcGeom = null; highlightLines.sig = null; renderTimings(); renderStep(); }, 100);
    });
    // The first kernel with a trace here, at its track's block size.
    var first = null;
    for (var i = 0; i < kernels.length && !first; i++) if (heldSizes(kernels[i].name).length) first = kernels[i];
    if (!first) throw new Error('the page holds no trace');
    var tr = trackOf(first.track);
    S.bs = tr ? tr.bs : 0;
    return select(first.name, tr ? tr.bs : 0).then(function () { hook.ready = true; });
  }

  // The test hook: read-only state, and a timing of redraws (the 60 fps check).
  hook.state = function () {
    return { kernel: S.kernel, bs: S.bs, step: S.step, steps: S.trace ? S.trace.steps.length : 0,
      playing: S.playing, loading: S.loading, ready: hook.ready, error: hook.error,
      warps: S.trace ? S.trace.warps : 0,
      part: S.trace && S.trace.steps[S.step] && S.trace.steps[S.step].part ? S.trace.steps[S.step].part.length / 2 : 0 };
  };
  hook.kernels = function () { return kernels.map(function (k) { return k.name; }); };
  hook.held = function (name) { return heldSizes(name); };
  hook.stepsWith = function (kind) { return S.trace ? S.trace.stepsWith[kind] : []; };
  // The bank figure's geometry in CSS pixels inside its canvas (the test hovers a bank), and the
  // selected access's degree.
  hook.bankFigure = function () {
    if (!bankFig) return null;
    var L = bankFig.L;
    return { x: L.x, pitch: L.pitch, boxW: L.boxW, boxH: L.boxH, laneY: L.laneY, bankY: L.bankY,
      deg: bankFig.sel ? bankFig.sel.deg : 0, marks: hook.bankMarks.slice() };
  };
  hook.select = function (name, bs) { return select(name, bs); };
  // Steps one per animation frame for n frames; resolves to the mean frame interval in ms (16.7 at 60 fps).
  hook.playFrames = function (n) {
    return new Promise(function (resolve) {
      var t0 = 0, k = 0;
      function frame(now) {
        if (!S.trace) { resolve(-1); return; }
        if (k === 0) t0 = now;
        if (k === n) { resolve((now - t0) / n); return; }
        S.step = (S.step + 1) % S.trace.steps.length;
        renderStep();
        k++;
        requestAnimationFrame(frame);
      }
      requestAnimationFrame(frame);
    });
  };
  hook.benchSteps = function (n) {
    if (!S.trace) return -1;
    var t0 = performance.now();
    for (var i = 0; i < n; i++) {
      S.step = i % S.trace.steps.length;
      renderStep();
    }
    return (performance.now() - t0) / n;
  };

  // The data block follows this script in the page: read it once the document is parsed (also when
  // the file was cut short inside the data, which then fails the length check and says so).
  function load() {
    try {
      parts = readContainer();
      inflateJson(parts[0], 'the index').then(start).catch(function (e) { showError(e.message || String(e)); });
    } catch (e) {
      showError(e.message || String(e));
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', load);
  else load();
})();
