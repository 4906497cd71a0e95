  // ---- multigpu -------------------------------------------------------------------------------
  // The multigpu track (index "multigpu", tracing/multigpu.hpp; only when the session has one): a traced
  // ring all-reduce replayed step by step (each GPU's chunks, the step's copies to the right neighbour, one
  // sentence) and its measured timeline; all-reduce busbw against size and the tables are timings-multigpu.js'.
  // The ring's schedule is simulated here from its rule; the exporter's summed_chunks is only the browser
  // test's cross-check (hook.mg.summedMatches). Bandwidths follow nccl-tests (doc/PERFORMANCE.md): algbw =
  // S / t, S the bytes each GPU holds; busbw = algbw x 2(G-1)/G for an all-reduce; GB/s = 1e9 bytes/s.
  var MG = { ring: 0, step: 0, log: false };
  var MG_ADD = COL.orange, MG_STORE = COL.sky, MG_COPY_BAR = COL.blue, MG_ADD_BAR = COL.orange;
  var MICRO = '\u00b5s', MINUS = '\u2212', RARROW = '\u2192';
  hook.mg = { shown: false };

  function mgLabel(bytes) {
    var l = D.multigpu.labels;
    for (var i = 0; i < l.length; i++) if (l[i][0] === bytes) return l[i][1];
    return bytes + ' B';
  }
  function mgRow(op, method, bytes) {
    var rows = D.multigpu.rows;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (r.op === op && r.method === method && r.bytes === bytes) return r;
    }
    return null;
  }
  function mgSizes(op) {
    var out = [];
    D.multigpu.rows.forEach(function (r) { if (r.op === op && out.indexOf(r.bytes) < 0) out.push(r.bytes); });
    return out.sort(function (a, b) { return a - b; });
  }
  function us(v) { return v.toFixed(1) + ' ' + MICRO; }
  // "7.1-7.5 us", or one value when they agree to the digit shown.
  function usRange(vals) {
    var lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals);
    return lo.toFixed(1) === hi.toFixed(1) ? us(lo) : lo.toFixed(1) + DASH + us(hi);
  }

  // The ring's rule (tracing/multigpu.hpp): reduce-scatter step s, GPU g sends chunk (g - s) mod G to g + 1,
  // which adds it; all-gather step t, GPU g sends chunk (g + 1 - t) mod G, which g + 1 stores.
  function ringSchedule(G) {
    var out = [];
    for (var step = 0; step < 2 * (G - 1); step++) {
      var rs = step < G - 1, s = rs ? step : step - (G - 1);
      for (var g = 0; g < G; g++) {
        out.push({ step: step, rs: rs, from: g, to: (g + 1) % G, chunk: ((rs ? g - s : g + 1 - s) % G + G) % G });
      }
    }
    return out;
  }
  // held[g][c]: the GPUs whose values chunk c of GPU g holds after `steps` steps, ascending. Every transfer
  // of a step reads the state before it (the copies land in a receive buffer first).
  function ringHeld(G, steps) {
    var held = [], g, c;
    for (g = 0; g < G; g++) { held.push([]); for (c = 0; c < G; c++) held[g].push([g]); }
    var sched = ringSchedule(G);
    for (var step = 0; step < steps; step++) {
      var next = held.map(function (row) { return row.slice(); });
      sched.forEach(function (m) {
        if (m.step !== step) return;
        var sent = held[m.from][m.chunk];
        next[m.to][m.chunk] = m.rs ? next[m.to][m.chunk].concat(sent).sort(function (a, b) { return a - b; }) : sent.slice();
      });
      held = next;
    }
    return held;
  }
  // The ring's events as objects (index: [step, phase, from, to, chunk, chunk bytes, copy start, copy end,
  // add start, add end], times in us).
  function ringEvents(r) {
    return r.events.map(function (e) {
      return { step: e[0], rs: e[1] === 0, from: e[2], to: e[3], chunk: e[4], bytes: e[5], c0: e[6], c1: e[7], a0: e[8], a1: e[9] };
    });
  }
  // The measured span of step s: first copy start to last copy or add end.
  function stepSpan(evs, s) {
    var lo = Infinity, hi = 0;
    evs.forEach(function (e) {
      if (e.step !== s) return;
      lo = Math.min(lo, e.c0);
      hi = Math.max(hi, e.c1, e.rs ? e.a1 : 0);
    });
    return [lo, hi];
  }
  function chunkText(evs) {
    if (!evs.length) return t('unrecorded size');
    var b = evs.map(function (e) { return e.bytes; });
    var lo = Math.min.apply(null, b), hi = Math.max.apply(null, b);
    return lo === hi ? mgLabel(lo) : mgLabel(lo) + DASH + mgLabel(hi);
  }

  // The sentence for the ring after k steps: what moved, what each GPU holds now, the step's measured times.
  function ringSentence(r, evs, k) {
    var G = r.gpus, T = 2 * (G - 1);
    if (k === 0) {
      return t('Before the first step: each GPU holds its own {0} buffer, cut into {1} chunks of {2}; no chunk holds another ' +
        'GPU\'s values yet. The ring takes 2(G \u2212 1) = {3} steps: {4} in all, measured.', mgLabel(r.bytes), G, chunkText(evs), T,
        us(r.total_us));
    }
    var s = k - 1, rs = s < G - 1, i = rs ? s : s - (G - 1);
    var mine = evs.filter(function (e) { return e.step === s; });
    var held = ringHeld(G, k), moved;
    var moves = ringSchedule(G).filter(function (m) { return m.step === s; });
    if (G <= 4) {
      moved = moves.map(function (m) { return t('GPU {0} sends chunk {1} to GPU {2}', m.from, m.chunk, m.to); }).join(comma());
    } else {  // the rule: chunk (g - s) mod G in the reduce-scatter, (g + 1 - t) mod G in the all-gather
      var d = rs ? -i : 1 - i;
      moved = t('every GPU g sends chunk {0} to GPU g + 1', d === 0 ? 'g' : '(g ' + (d > 0 ? '+ ' : MINUS + ' ') + Math.abs(d) +
        ') mod ' + G);
    }
    var txt = (rs ? t('Step {0} of {1}, reduce-scatter {2} of {3}: {4}; each receiver adds it into its own copy of that chunk.',
      k, T, i + 1, G - 1, moved) : t('Step {0} of {1}, all-gather {2} of {3}: {4}; each receiver stores it over its own copy.',
      k, T, i + 1, G - 1, moved)) + gap();
    if (rs) {
      var n = held[moves[0].to][moves[0].chunk].length;
      if (n === G) {
        txt += t('Now each GPU holds one chunk summed over all {0} GPUs: {1}.', G, G <= 4 ? moves.map(function (m) {
          return t('GPU {0} chunk {1}', m.to, m.chunk);
        }).join(comma()) : t('GPU g has chunk (g + 1) mod {0}', G)) + gap();
      } else {
        txt += t('The chunks just added now hold {0} of {1} GPUs\' values.', n, G) + gap();
      }
    } else {
      var whole = held[0].filter(function (h) { return h.length === G; }).length;
      txt += (whole === G ? t('Now every GPU holds the whole sum: the all-reduce is done.')
        : t('Now each GPU holds {0} of its {1} chunks summed.', whole, G)) + gap();
    }
    if (!mine.length) return txt + t('This step has no measured times in the recording.');
    var span = stepSpan(evs, s), copies = usRange(mine.map(function (e) { return e.c1 - e.c0; }));
    txt += rs ? t('Measured: the copies took {0}, the adds {1}; the step ran from {2} to {3}.', copies,
      usRange(mine.map(function (e) { return e.a1 - e.a0; })), span[0].toFixed(1), us(span[1]))
      : t('Measured: the copies took {0}; the step ran from {1} to {2}.', copies, span[0].toFixed(1), us(span[1]));
    if (k === T) txt += gap() + t('The whole ring: {0}.', us(r.total_us));
    return txt;
  }

  // A rightward arrowhead with its tip at (x, y).
  function arrowHead(ctx, x, y, size) {
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x - size, y - size * 0.6);
    ctx.lineTo(x - size, y + size * 0.6);
    ctx.closePath();
    ctx.fill();
  }
  // Text on a dark box, so that it reads over a line.
  function labelBox(ctx, text, cx, y, color) {
    var w = ctx.measureText(text).width;
    ctx.fillStyle = PANEL_BG;
    ctx.fillRect(cx - w / 2 - 3, y - 10, w + 6, 20);
    ctx.fillStyle = color;
    ctx.fillText(text, cx, y);
  }
  function boxColor(n, G) { return n === G ? COL.green : n === 1 ? COL.cell : COL.purple; }

  // One lane (a column) per GPU with its G chunks, coloured by how many GPUs' values each holds after k
  // steps; the step's copies as arrows to the right neighbour (the last GPU's wraps round under the lanes).
  function drawRing(r, k) {
    var c = $('mg-ring'), G = r.gpus, held = ringHeld(G, k);
    var rowH = G <= 4 ? 52 : 36, headH = 28, wrapH = 52, h = headH + G * rowH + wrapH;
    var g = canvasCtx(c, h), ctx = g.ctx, w = g.w;
    // Lanes of at least 80 px where they fit, the gaps (the arrows' room) 56 to 190 px.
    var side = 34, avail = w - 2 * side, gap = Math.min(190, Math.max(56, (avail - G * 80) / (G - 1)));
    var laneW = Math.min(250, (avail - (G - 1) * gap) / G);
    var x0 = (w - (G * laneW + (G - 1) * gap)) / 2;
    var boxX = function (gpu) { return x0 + gpu * (laneW + gap); };
    var rowY = function (chunk) { return headH + chunk * rowH + 4; };
    var boxH = rowH - 8;
    var moves = k > 0 ? ringSchedule(G).filter(function (m) { return m.step === k - 1; }) : [];
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (var gpu = 0; gpu < G; gpu++) {
      ctx.font = 'bold 17px ' + LABEL_FONT;
      ctx.fillStyle = COL.text;
      ctx.fillText('GPU ' + gpu, boxX(gpu) + laneW / 2, headH / 2);
      for (var ch = 0; ch < G; ch++) {
        var who = held[gpu][ch], x = boxX(gpu), y = rowY(ch), col = boxColor(who.length, G);
        ctx.fillStyle = col;
        ctx.fillRect(x, y, laneW, boxH);
        ctx.fillStyle = col === COL.cell ? COL.text : COL.ink;
        var fits = function (text) { return ctx.measureText(text).width <= laneW - 6; };
        var count = who.length + '/' + G;
        if (rowH >= 50) {  // two lines: the chunk, then whose values it holds
          ctx.font = '16px ' + LABEL_FONT;
          var line2 = who.length === G ? t('summed: all {0}', G) : who.length === 1 ? t('GPU {0} only', gpu) : t('GPUs {0}', who.join('+'));
          ctx.fillText(fits(t('chunk {0}', ch)) ? t('chunk {0}', ch) : 'c' + ch, x + laneW / 2, y + boxH * 0.3);
          ctx.fillText(fits(line2) ? line2 : count, x + laneW / 2, y + boxH * 0.72);
        } else {  // one line: the chunk and how many GPUs' values it holds
          ctx.font = '14px ' + LABEL_FONT;
          var one = [t('chunk {0}: {1}', ch, count), 'c' + ch + ' ' + count, count].filter(fits)[0];
          if (one) ctx.fillText(one, x + laneW / 2, y + boxH / 2);
        }
      }
    }
    // The step's copies: the receiver's box framed thick, the sender's thin, an arrow between them.
    moves.forEach(function (m) {
      var color = m.rs ? MG_ADD : MG_STORE, y = rowY(m.chunk) + boxH / 2;
      ctx.strokeStyle = color;
      ctx.fillStyle = color;
      ctx.lineWidth = 2;
      ctx.strokeRect(boxX(m.from) + 1, rowY(m.chunk) + 1, laneW - 2, boxH - 2);
      ctx.lineWidth = 5;
      ctx.strokeRect(boxX(m.to) + 2.5, rowY(m.chunk) + 2.5, laneW - 5, boxH - 5);
      ctx.lineWidth = 3;
      ctx.font = 'bold 15px ' + LABEL_FONT;
      var from = boxX(m.from) + laneW + 3, to = boxX(m.to) - 3, label = m.rs ? t('chunk {0}, add', m.chunk) : t('chunk {0}, store', m.chunk);
      if (m.to === m.from + 1) {
        ctx.beginPath(); ctx.moveTo(from, y); ctx.lineTo(to - 10, y); ctx.stroke();
        arrowHead(ctx, to, y, 12);
        if (ctx.measureText(label).width > gap - 8) label = m.rs ? t('c{0} add', m.chunk) : t('c{0} store', m.chunk);
        labelBox(ctx, label, (from + to) / 2, y - 14, color);
      } else {  // the ring wraps round: out of the last lane's right, under the lanes, into the first lane's left
        var xr = from + side * 0.6, xl = to - side * 0.6, yb = headH + G * rowH + 14;
        ctx.beginPath();
        ctx.moveTo(from, y); ctx.lineTo(xr, y); ctx.lineTo(xr, yb); ctx.lineTo(xl, yb); ctx.lineTo(xl, y); ctx.lineTo(to - 10, y);
        ctx.stroke();
        arrowHead(ctx, to, y, 12);
        labelBox(ctx, t('GPU {0} \u2192 GPU {1} (the ring wraps round): {2}', m.from, m.to, label), w / 2, yb + 20, color);
      }
    });
  }

  // Every copy (on the sender's lane) and add (on the receiver's) of the traced ring against time, the
  // shown step bright and banded, the others dim; step numbers over their spans.
  function drawTimeline(r, evs, k) {
    var c = $('mg-timeline'), G = r.gpus, laneH = 42, top = 24, axisH = 44;
    var h = top + G * laneH + axisH, g = canvasCtx(c, h), ctx = g.ctx, w = g.w;
    var left = 70, right = w - 24, tmax = r.total_us;
    evs.forEach(function (e) { tmax = Math.max(tmax, e.c1, e.rs ? e.a1 : 0); });
    if (!(tmax > 0)) { chartMessage(c, h, t('The traced ring has no measured times.')); return; }
    var ticks = linearTicks(tmax, Math.max(2, Math.floor((right - left) / 90)));
    var xmax = Math.max(tmax, ticks[ticks.length - 1]);
    var X = function (v) { return left + v / xmax * (right - left); };
    var shown = k - 1, bottom = top + G * laneH;
    if (shown >= 0) {
      var sp = stepSpan(evs, shown);
      if (sp[1] > 0) {
        ctx.fillStyle = 'rgba(204, 121, 167, 0.22)';
        ctx.fillRect(X(sp[0]), top - 2, Math.max(2, X(sp[1]) - X(sp[0])), bottom - top + 4);
      }
    }
    ctx.font = '15px ' + LABEL_FONT;
    ctx.textBaseline = 'middle';
    for (var s = 0; s < 2 * (G - 1); s++) {
      var span = stepSpan(evs, s), lab = t('step {0}', s + 1);
      if (!(span[1] > 0)) continue;
      ctx.textAlign = 'center';
      ctx.fillStyle = s === shown ? COL.text : COL.dim;
      ctx.font = (s === shown ? 'bold ' : '') + '15px ' + LABEL_FONT;
      if (ctx.measureText(lab).width > X(span[1]) - X(span[0])) lab = String(s + 1);
      if (ctx.measureText(lab).width <= X(span[1]) - X(span[0]) + 8) ctx.fillText(lab, (X(span[0]) + X(span[1])) / 2, top / 2);
    }
    ctx.font = 'bold 16px ' + LABEL_FONT;
    ctx.textAlign = 'right';
    for (var gpu = 0; gpu < G; gpu++) {
      ctx.fillStyle = COL.text;
      ctx.fillText('GPU ' + gpu, left - 10, top + gpu * laneH + laneH / 2);
      ctx.strokeStyle = GRID;
      ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(left, top + (gpu + 1) * laneH + 0.5); ctx.lineTo(right, top + (gpu + 1) * laneH + 0.5); ctx.stroke();
    }
    var bar = function (lane, sub, t0, t1, color, on, text) {
      var x = X(t0), bw = Math.max(2, X(t1) - X(t0)), y = top + lane * laneH + 3 + sub * 18, bh = 16;
      ctx.globalAlpha = on ? 1 : 0.3;
      ctx.fillStyle = color;
      ctx.fillRect(x, y, bw, bh);
      ctx.globalAlpha = 1;
      if (on && shown >= 0) {
        ctx.strokeStyle = COL.text;
        ctx.lineWidth = 1.5;
        ctx.strokeRect(x + 0.75, y + 0.75, bw - 1.5, bh - 1.5);
      }
      ctx.font = '13px ' + LABEL_FONT;
      if (on && ctx.measureText(text).width + 4 < bw) {
        ctx.textAlign = 'center';
        ctx.fillStyle = color === MG_COPY_BAR ? COL.text : COL.ink;
        ctx.fillText(text, x + bw / 2, y + bh / 2 + 1);
      }
    };
    evs.forEach(function (e) {
      var on = shown < 0 || e.step === shown;
      bar(e.from, 0, e.c0, e.c1, MG_COPY_BAR, on, 'c' + e.chunk + ' ' + RARROW + ' GPU ' + e.to);
      if (e.rs && e.a1 > e.a0) bar(e.to, 1, e.a0, e.a1, MG_ADD_BAR, on, t('add c{0}', e.chunk));
    });
    ctx.strokeStyle = AXIS;
    ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(left, bottom + 0.5); ctx.lineTo(right, bottom + 0.5); ctx.stroke();
    ctx.font = '15px ' + LABEL_FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ticks.forEach(function (v) {
      var x = Math.round(X(v)) + 0.5;
      ctx.strokeStyle = AXIS;
      ctx.beginPath(); ctx.moveTo(x, bottom); ctx.lineTo(x, bottom + 5); ctx.stroke();
      ctx.fillStyle = COL.dim;
      ctx.fillText(axisNum(v), x, bottom + 7);
    });
    ctx.fillStyle = COL.text;
    ctx.textAlign = 'right';
    ctx.fillText(t('\u00b5s from the run\'s start'), right, bottom + 25);
  }

  function renderRing() {
    var mg = D.multigpu, r = mg.rings[MG.ring];
    if (!r) {
      $('mg-replay').hidden = true;
      return;
    }
    var T = 2 * (r.gpus - 1), k = MG.step, evs = ringEvents(r);
    setText($('mg-counter'), k === 0 ? t('start') : t('step {0} of {1}', k, T));
    var slider = $('mg-step');
    slider.max = T;
    slider.value = k;
    $('mg-start').disabled = $('mg-back').disabled = k === 0;
    $('mg-end').disabled = $('mg-fwd').disabled = k === T;
    // A button disabled under the focus would drop it, and the keys would go to the trace: the range takes it.
    var active = document.activeElement;
    if (active && active.disabled && $('mg-controls').contains(active)) slider.focus({ preventScroll: true });
    var sentence = ringSentence(r, evs, k);
    setText($('mg-sentence'), sentence);
    drawRing(r, k);
    drawTimeline(r, evs, k);
    hook.mg.ring = MG.ring;
    hook.mg.step = k;
    hook.mg.steps = T;
    hook.mg.sentence = I18N.lang === 'en' ? sentence : english(function () { return ringSentence(r, evs, k); });
    hook.mg.draws = (hook.mg.draws || 0) + 1;
  }
  function setRingStep(k) {
    var r = D.multigpu.rings[MG.ring];
    if (!r) return;
    MG.step = Math.max(0, Math.min(2 * (r.gpus - 1), k));
    renderRing();
  }
  // The keys for the ring (when the focus is in its panel, or the page has no trace to step).
  function ringKey(e) {
    var r = D.multigpu && D.multigpu.rings[MG.ring];
    if (!r) return false;
    switch (e.key) {
      case 'ArrowRight': setRingStep(MG.step + 1); return true;
      case 'ArrowLeft': setRingStep(MG.step - 1); return true;
      case 'Home': setRingStep(0); return true;
      case 'End': setRingStep(2 * (r.gpus - 1)); return true;
      default: return false;
    }
  }

  // The simulation against the exporter's summed_chunks, and the schedule against the recorded transfers.
  function mgSelfCheck() {
    var okSummed = true, okSchedule = true;
    D.multigpu.rings.forEach(function (r) {
      (r.summed || []).forEach(function (perGpu, k) {
        var held = ringHeld(r.gpus, k);
        perGpu.forEach(function (chunks, g) {
          var mine = [];
          held[g].forEach(function (h, c) { if (h.length === r.gpus) mine.push(c); });
          if (mine.join(',') !== chunks.join(',')) okSummed = false;
        });
      });
      var sched = ringSchedule(r.gpus);
      ringEvents(r).forEach(function (e, i) {
        var m = sched[i];
        if (!m || m.step !== e.step || m.from !== e.from || m.to !== e.to || m.chunk !== e.chunk || m.rs !== e.rs) okSchedule = false;
      });
    });
    hook.mg.summedMatches = okSummed;
    hook.mg.scheduleMatches = okSchedule;
  }

  var mgStarted = false;
  function startMultiGpu() {
    var mg = D.multigpu;
    $('multigpu-panel').hidden = false;
    mgStarted = true;
    $('mg-topo').hidden = !mg.topology;
    setText($('mg-topo-text'), mg.topology || '');
    mgWords();
    $('mg-ring-label').hidden = mg.rings.length < 2;
    var sel = $('mg-ring-select');
    sel.onchange = function () { MG.ring = Number(this.value); MG.step = 0; renderMultiGpu(); this.blur(); };
    $('mg-start').onclick = function () { setRingStep(0); };
    $('mg-back').onclick = function () { setRingStep(MG.step - 1); };
    $('mg-fwd').onclick = function () { setRingStep(MG.step + 1); };
    $('mg-end').onclick = function () { setRingStep(1e9); };
    $('mg-step').oninput = function () { setRingStep(Number(this.value)); };
    $('mg-log').checked = MG.log;
    $('mg-log').onchange = function () { MG.log = this.checked; mgChart(); this.blur(); };
    hook.mg.shown = true;
    hook.mg.rings = mg.rings.length;
    mgSelfCheck();
    renderMultiGpu();
  }
  // The panel's words that startMultiGpu writes once (said again after a language switch): the caption, the
  // note under the timeline, the ring selector's options (the selected ring kept).
  function mgWords() {
    var mg = D.multigpu;
    var names = mg.names.filter(function (n, i) { return mg.names.indexOf(n) === i; });
    var gpusText = mg.gpus + ' ' + TIMES + ' ' + (names.length === 1 ? names[0] : names.join(', '));
    $('mg-caption').textContent = (mg.link ? t('Recorded on {0} (GPU 0\u20131 link: {1}), NCCL {2}, on {3}.', gpusText, mg.link,
      mg.nccl, mg.date) : t('Recorded on {0}, NCCL {1}, on {2}.', gpusText, mg.nccl, mg.date)) + gap() +
      (mg.peer_access ? t('Peer access both ways.') : t('No peer access: the peer copies were staged through host memory.')) +
      gap() + t('Method: {0}.', mg.method_say ? said(mg.method_say) : mg.method) + gap() + t('busbw = algbw \u00d7 2(G \u2212 1)/G = algbw \u00d7 {0} here (nccl-tests, ' +
      'doc/PERFORMANCE.md): algbw = S / t, S the bytes each GPU holds, t one call\'s median time; busbw is what each link ' +
      'carries, comparable with the P2P copy (bytes / time) whatever G is.', Number(mg.allreduce_factor.toPrecision(4))) + gap() +
      t('GB/s = 1e9 bytes/s.') + gap() + t('Hover a table\'s number for its median time.');
    setText($('mg-nccl-note'), t('NCCL is a black box: timed, not traced.') + gap() + (mg.methods['allreduce nccl'] ?
      t('ncclAllReduce\'s busbw is in the chart and the table below, beside the hand ring\'s.') : ''));
    var sel = $('mg-ring-select');
    sel.innerHTML = mg.rings.map(function (r, i) {
      return '<option value="' + i + '">' + t('{0} on {1} GPUs', esc(mgLabel(r.bytes)), r.gpus) + '</option>';
    }).join('');
    sel.value = String(MG.ring);
  }
  function renderMultiGpu() {
    if (!mgStarted) return;
    renderRing();
    mgChart();
    mgTables();
  }
