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
      (tr.binary ? ': per warp, which lane read from which (from the SASS). A binary trace has no values: ' +
        'the Compute Sanitizer API does not report them.' : ': per warp, what each lane offered (top) and received (bottom).'));
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
          if (s.src[i] >= 0 && s.src[i] !== lanes[i]) {
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
      if (tr.binary) {  // no operands, old values or landing order in a binary trace
        h += '<div><b>' + esc(t.label) + '</b> (' + esc(t.fn) + '): ' + landed + ' of ' + total + ' updates made by this ' +
          'step; a binary trace has no operands, old values or landing order.</div>';
        return;
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

