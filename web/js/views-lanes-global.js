  function drawLanes(tr, st) {
    var c = $('lanes');
    hook.lanesCaptions = [];  // the result captions drawn (the canvas's text, for the browser test)
    if (!tr.has.lanes) {
      // From the trace's facts (app/explain/): a raw __shared__ array the probe does not record is not "not at all".
      setText($('lanes-text'), said(tr.say && tr.say.lanes));
      hide(c);
      return;
    }
    var sh = st.shf || [];
    if (!sh.length) {
      setText($('lanes-text'), tr.stepsWith.shf.length > 1 ? t('No shuffle in this step; shuffles in steps {0}.', stepRanges(tr.stepsWith.shf))
        : t('No shuffle in this step; shuffles in step {0}.', stepRanges(tr.stepsWith.shf)));
      hide(c);
      return;
    }
    var show = sh.slice(0, 4), rows = Math.min(4, Math.max(tr.maxShf, 1));
    var n = sh.length, head = sh[0].k === 7 ? (n === 1 ? t('{0} warp-level warp reduce this step', n)
      : t('{0} warp-level warp reduces this step', n)) : n === 1 ? t('{0} warp-level shuffle this step', n)
      : t('{0} warp-level shuffles this step', n);
    if (n > show.length) head = t('{0} (the first {1} drawn)', head, show.length);
    setText($('lanes-text'), tr.binary ? t('{0}: per warp, which lane read from which (from the SASS). A binary trace has no values: ' +
      'the Compute Sanitizer API does not report them.', head) : t('{0}: per warp, what each lane offered (top) and received (bottom).', head));
    var w = c.clientWidth || 600, labelW = 4, cw = (w - labelW) / 32, rowH = 26, band = 54, blockH = rowH * 2 + band + 46;
    // Issue 38, item 4: at 1280x720 a lane's cell is about 17 px wide, too narrow for its value, and every cell was
    // empty. Where "-1.2k" does not fit a cell, each warp's values follow its arrows in a table of 16 lanes a row
    // (lane numbers, offered, received; twice), as the window does; the exact value on hover.
    var probeCtx = c.getContext('2d');
    probeCtx.font = Math.max(10, Math.min(15, Math.floor(cw * 0.36))) + 'px "DejaVu Sans Mono", monospace';
    var table = !tr.binary && probeCtx.measureText('-1.2k').width >= cw - 1;
    // 16 lanes a row where 5 characters fit a cell ("-1.23k", 3 significant digits), else 8 (at 1280x720).
    probeCtx.font = '13px "DejaVu Sans Mono", monospace';
    var tLabel = 78, per = (w - labelW - tLabel) / 16 - 4 >= 5 * probeCtx.measureText('0').width ? 16 : 8;
    var tcw = (w - labelW - tLabel) / per, tRow = 22, tNum = 16, tableH = (32 / per) * (tNum + 2 * tRow) + 8;
    if (table) blockH += tableH;
    hook.lanesCells = [];  // the table's value cells drawn [x, y, w, h, text] (the browser test reads their pixels)
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
          if (s.src[i] >= 0 && s.src[i] !== lanes[i]) {
            var d = lanes[i], from = s.src[i];
            rule = s.op === 3 ? 'lane ' + ARROW + ' lane ^ ' + (from ^ d) : s.op === 2 ? 'lane ' + ARROW + ' lane + ' + (from - d)
              : s.op === 1 ? 'lane ' + ARROW + ' lane - ' + (d - from) : 'lane ' + ARROW + ' lane ' + from;
            break;
          }
        }
      }
      ctx.fillText(t('warp {0}', s.w) + '  ' + s.fn + (s.k === 6 ? ' ' + t('width {0}', s.wd) : '') + '  ' + t('line {0}', s.l) +
        (rule ? '  (' + rule + ')' : s.k === 7 ? '  ' + t('(every lane gets the reduction of all)') : '') +
        (s.ok ? '' : '  ' + t('INCONSISTENT: a lane did not get what its source held')), labelW, y0 + 10);
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
        if (on && !tr.binary) {
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
          if (src < 0 || src === dst) return;
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
        ctx.fillText(t('reduction of the {0} lanes \u2190 every lane', lanesAll.length), w / 2, yo + rowH + band / 2);
      }
      if (table) {
        var ty = yr + rowH + 22;
        ctx.textBaseline = 'middle';
        for (var half = 0; half < 32 / per; half++) {
          var yy = ty + half * (tNum + 2 * tRow);
          ctx.textAlign = 'left';
          ctx.font = '13px "DejaVu Sans", sans-serif';
          ctx.fillStyle = COL.dim;
          ctx.fillText(t('offered'), labelW, yy + tNum + tRow / 2);
          ctx.fillText(t('received'), labelW, yy + tNum + tRow * 1.5);
          for (var k = 0; k < per; k++) {
            var lane = half * per + k, tx = labelW + tLabel + k * tcw;
            ctx.textAlign = 'center';
            ctx.font = '11px "DejaVu Sans", sans-serif';
            ctx.fillStyle = COL.dim;
            ctx.fillText(String(lane), tx + tcw / 2, yy + tNum / 2);
            if (!(lane in of)) continue;
            ctx.font = '13px "DejaVu Sans Mono", monospace';
            var fitsCh = Math.max(1, Math.floor((tcw - 4) / ctx.measureText('0').width));
            [[of[lane], yy + tNum, COL.sky, true], [rc[lane], yy + tNum + tRow, COL.orange, false]]
              .forEach(function (cell) {
              var full = fmt(cell[0], s.f), text = full;
              if (text.length > fitsCh) text = compact(text, fitsCh);
              ctx.fillStyle = cell[2];
              ctx.fillRect(tx, cell[1], tcw - 2, tRow - 2);
              ctx.fillStyle = COL.ink;
              ctx.fillText(text, tx + (tcw - 2) / 2, cell[1] + (tRow - 2) / 2 + 1);
              hook.lanesCells.push([tx, cell[1], tcw - 2, tRow - 2, text,
                t('warp {0}', s.w) + ', lane ' + lane + ': ' + (cell[3] ? t('offered {0}', full) : t('received {0}', full))]);
            });
          }
        }
      }
      // Who holds the warp's result (app/explain/): after a warp reduce every lane does ("held"); where the page has
      // no "held", every warp's is the lane form, with its result lane.
      var k = tr.held ? tr.held[s.w] : -1, rl = tr.result_lanes[s.w];
      if (k >= 0 || (!tr.held && rl >= 0)) {
        ctx.fillStyle = COL.dim;
        ctx.textAlign = 'left';
        ctx.font = '13px "DejaVu Sans", sans-serif';
        var caption = k >= 0 ? said([k, rl, s.w]) : t('after its last shuffle, lane {0} of warp {1} holds the warp\'s result', rl, s.w);
        hook.lanesCaptions.push(caption);
        ctx.fillText(caption, labelW, yr + rowH + 12);
      }
    });
  }

  function drawAtomics(tr, st) {
    var list = $('atomics-list');
    if (!tr.has.atomics) {
      setText($('atomics-text'), t('{0} makes no atomic operations.', tr.kernel));
      setHtml(list, '');
      return;
    }
    var at = st.atm || [], h = '';
    var atIn = stepRanges(tr.stepsWith.atm);
    setText($('atomics-text'), at.length === 1 ? t('This step: {0} warp-level atomic instruction. Lanes on one address take their ' +
      'turn (contention).', 1) : at.length ? t('This step: {0} warp-level atomic instructions. Lanes on one address take their turn ' +
      '(contention).', at.length) : tr.stepsWith.atm.length > 1 ? t('No atomic in this step; atomics in steps {0}.', atIn)
      : t('No atomic in this step; atomics in step {0}.', atIn));
    at.slice(0, 8).forEach(function (a) {
      for (var i = 0; i + 1 < a.ct.length; i += 2) {
        var n = a.ct[i + 1];
        h += '<div>' + t('warp {0} {1} {2}, line {3}: {4}', a.w, esc(a.fn), esc(said(a.labels[i / 2])), a.l, n > 1 ? '<span class="bad">' +
          t('{0} updates contend', n) + '</span>' : '<span class="good">' + t('1 update, no contention') + '</span>') + '</div>';
      }
    });
    if (at.length > 8) h += '<div>' + t('{0} more instructions this step', at.length - 8) + '</div>';
    // Every target: the updates landed by the end of this step, in landing order.
    tr.targets.slice(0, 12).forEach(function (tg) {
      var landed = 0, last = null, total = tg.o.length / 5;
      for (var i = 0; i < tg.o.length; i += 5) {
        if (tg.o[i + 1] <= S.step) { landed++; last = i; }
      }
      if (tr.binary) {  // no operands, old values or landing order in a binary trace
        h += '<div>' + t('<b>{0}</b> ({1}): {2} of {3} updates made by this step; a binary trace has no operands, old values or ' +
          'landing order.', esc(said(tg.label)), esc(tg.fn), landed, total) + '</div>';
        return;
      }
      var say = total > 1 ? t('<b>{0}</b> ({1}): {2} of {3} updates landed by this step, {4} of {5} consecutive pairs chained',
        esc(said(tg.label)), esc(tg.fn), landed, total, tg.chained, total - 1)
        : t('<b>{0}</b> ({1}): {2} of {3} updates landed by this step', esc(said(tg.label)), esc(tg.fn), landed, total);
      if (last !== null) {
        say += t('; last: thread {0} {1} \u2192 {2}', tg.o[last], fmt(tg.o[last + 3], tg.f), fmt(tg.o[last + 4], tg.f));
      }
      h += '<div>' + say + '</div>';
    });
    if (tr.targets.length > 12) h += '<div>' + t('{0} more addresses', tr.targets.length - 12) + '</div>';
    setHtml(list, h);
  }

  function elements(q) {
    var idx = [];
    lanesOf(q.m).forEach(function (l) { idx.push(q.index[l]); });
    idx.sort(function (a, b) { return a - b; });
    idx = idx.filter(function (v, i) { return i === 0 || v !== idx[i - 1]; });
    var buf = bufName(q.buf);
    if (!idx.length) return buf;
    if (idx.length === 1) return buf + '[' + idx[0] + ']';
    var d = idx[1] - idx[0], even = true;
    for (var i = 2; i < idx.length && even; i++) even = idx[i] - idx[i - 1] === d;
    var lo = idx[0], hi = idx[idx.length - 1];
    if (even && d !== 1) return t('{0}[{1}..{2} step {3}]', buf, lo, hi, d);
    return even ? buf + '[' + lo + '..' + hi + ']' : t('{0}, {1} elements', buf + '[' + lo + '..' + hi + ']', idx.length);
  }

  function drawGlobal(tr, st) {
    var list = $('global-list'), c = $('gslice');
    if (!tr.has.global) {
      setText($('global-text'), t('{0} makes no global load or store that the trace records.', tr.kernel));
      setHtml(list, '');
      hide(c);
      return;
    }
    var req = st.req || [], h = '', text;
    if (st.gsum) {
      var g = st.gsum;
      text = t('This step: {0} load, {1} store requests; {2} sectors of 32 bytes, {3}; {4} of the bytes used.', g[0], g[1], g[2],
        g[2] > g[3] ? '<span class="bad">' + t('{0} more than needed ({1})', g[2] - g[3], g[3]) + '</span>'
          : '<span class="good">' + t('the fewest possible') + '</span>', Math.round(g[5] * 100) + '%');
    } else {
      var reqIn = esc(stepRanges(tr.stepsWith.req));
      text = tr.stepsWith.req.length > 1 ? t('No global request in this step; requests in steps {0}.', reqIn)
        : t('No global request in this step; requests in step {0}.', reqIn);
    }
    if (S.req >= req.length) S.req = -1;
    req.slice(0, 64).forEach(function (q, i) {
      var eff = '<span class="' + (q.sec > q.min ? 'bad' : 'good') + '">' + Math.round(q.eff * 100) + '%</span>';
      h += '<div class="item' + (i === S.req ? ' sel' : '') + '" data-req="' + i + '">' + (q.sec === 1
        ? t('warp {0} {1} {2}, line {3}: {4} sector ({5} needed), {6}', q.w, kindName(q.k), esc(elements(q)), q.l, q.sec, q.min, eff)
        : t('warp {0} {1} {2}, line {3}: {4} sectors ({5} needed), {6}', q.w, kindName(q.k), esc(elements(q)), q.l, q.sec, q.min, eff)) +
        '</div>';
    });
    if (req.length > 64) h += '<div>' + t('{0} more requests', req.length - 64) + '</div>';
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
    var slice = t('The block\'s slice of {0}, elements {1}..{2}', esc(sl.name), sl.first, sl.first + n - 1);
    if (sl.truncated) slice = t('{0} (the first {1} of {2})', slice, n, sl.span);
    setHtml($('global-text'), text + '<br>' + (outline ? t('{0} after the step: written orange, read blue, the selected request ' +
      'purple; click a request to outline its elements.', slice) : t('{0} after the step: written orange, read blue; click a ' +
      'request to outline its elements.', slice)));
  }

