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
    if (!vals.length) { chartMessage(c, h, t('No timings of {0} at {1} threads in the session.', track.id, bs)); return; }
    ctx.textBaseline = 'middle';
    ctx.font = 'bold 17px ' + LABEL_FONT;
    var nameW = 0;
    rows.forEach(function (r) { nameW = Math.max(nameW, ctx.measureText(r.k.name).width); });
    ctx.font = '16px ' + LABEL_FONT;
    var unit = t('median ms'), left = Math.max(Math.min(Math.ceil(nameW) + 16, Math.floor(w * 0.42)),
      Math.ceil(ctx.measureText(unit).width) + 24);
    var valW = 0;
    rows.forEach(function (r) {
      r.label = r.t ? r.t[2].toFixed(4) + (r.t[8] ? '' : ' ' + t('WRONG'))
        : r.k.min_bs > bs ? t('needs {0}+ threads', r.k.min_bs) : t('no timing');
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
    ticks.forEach(function (v) {
      var x = Math.round(X(v)) + 0.5;
      ctx.strokeStyle = GRID;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      ctx.fillStyle = COL.dim;
      ctx.fillText(axisNum(v), Math.min(x, w - ctx.measureText(axisNum(v)).width / 2 - 2), bottom + 6);
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
      D.block_sizes.forEach(function (b) { var tm = timingOf(k.name, b); if (tm && tm[2] > 0) pts.push([log2(b), tm[2]]); });
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
      xTitle: t('threads per block'), yTitle: t('median ms'), yLog: S.logTime, series: series, band: log2(S.bs),
      hlines: series.length && cub > 0 ? [{ y: cub, color: COL.dim, label: 'CUB ' + cub.toFixed(4) }] : [],
      empty: t('No timings of {0} in the session.', track.id) });
    hook.charts.bs = { series: series.length, labels: r ? r.shown : [], log: !!S.logTime };
  }

  // The bits view (index "bits", `reducescope bits --out`): per float32 kernel, the distinct result bit
  // patterns of its runs at every block size, with their distance in ulps from the exact sum rounded once.
  function bitsView() {
    var v = D.bits, rows = v && v.rows ? v.rows : [];
    var cap = $('bits-caption'), table = $('bits-table');
    if (!rows.length) {
      setText(cap, t('No bits view in this session (`reducescope bits --out SESSION` on a GPU records it).'));
      setHtml(table, '');
      return;
    }
    setText(cap, t('Each float32 sum run {0} times at every block size on N = {1} ({2}). Float addition is not associative, so a ' +
      'kernel\'s bits change with its block size (the tree\'s shape) and, with atomics, with every run. ulps: distance from ' +
      'the exact sum rounded once ({3}). reproducible_sum adds exactly and rounds once: one pattern in all.', v.runs, v.n,
      patternName(v.pattern), fmt(v.exact_bits, true)));
    var by = [], at = {};
    rows.forEach(function (r) {
      if (!(r[0] in at)) { at[r[0]] = by.length; by.push({ name: r[0], rows: [] }); }
      by[at[r[0]]].rows.push(r);
    });
    var h = '<table><tr><th>' + t('kernel') + '</th><th>' + t('patterns') + '</th><th style="text-align:left">' +
      t('most frequent: value (ulps) \u00d7 runs [block sizes]') + '</th></tr>';
    by.forEach(function (k) {
      var list = k.rows.slice(0, 4).map(function (r) {
        return esc(fmt(r[1], true)) + ' (' + (r[3] > 0 ? '+' : '') + r[3] + ') ' + TIMES + r[2] +
          (r[4].length && r[4][0] ? ' [' + r[4].join(',') + ']' : '') +
          (r[5] ? ' <span class="bad">' + t('WRONG') + '</span>' + (r[6] ? paren(esc(typeof r[6] === 'string' ? t(r[6]) : said(r[6]))) : '') : '');
      }).join('; ') + (k.rows.length > 4 ? '; ' + MDASH + ' ' + t('{0} more', k.rows.length - 4) : '');
      h += '<tr' + (k.name === S.kernel ? ' class="cur"' : '') + '><td>' + esc(k.name) + '</td><td' +
        (k.rows.length === 1 && !k.rows[0][5] ? ' class="good"' : '') + '>' + k.rows.length + '</td><td style="text-align:left">' + list +
        '</td></tr>';
    });
    var exact = kernelInfo('reproducible_sum') && heldSizes('reproducible_sum').length ?
      '<p><button class="see" data-kernel="reproducible_sum">' + t('How reproducible_sum adds exactly: its accumulator, step by step') +
      '</button></p>' : '';
    setHtml(table, h + '</table>' + exact + twoRunsHtml());
    hook.bits = by.map(function (k) { return [k.name, k.rows.length]; });
    hook.bitsN = v.n;
  }

  // Why the bits differ (issue 30; index "two_runs", older pages: none): a float atomic kernel's block 0 in two runs
  // of the same input, its updates in landing order side by side, the first whose rounding differs marked.
  function twoRunsHtml() {
    var h = '';
    (D.two_runs || []).forEach(function (r) {
      var num = function (v) { return Number(v.toPrecision(8)).toString(); };
      var cell = function (u) {
        return u ? '<td>t' + u[0] + ' ' + num(u[1]) + ' + ' + Number(u[2].toPrecision(4)) + '</td><td>' +
          (u[3] === 0 ? '0' : (u[3] > 0 ? '+' : '') + Number(u[3].toPrecision(2))) + '</td>' : '<td></td><td></td>';
      };
      h += '<div class="two-runs" data-kernel="' + esc(r.kernel) + '"><h4>' +
        t('Why the bits differ: {0} at {1} threads, block 0 in two runs', esc(r.kernel), r.bs) + '</h4><p>' +
        // The traces' N (the session's), which is not the table's (issue 38: nothing said so).
        (r.n !== undefined ? t('The sums of N = {0} elements (the table above: N = {1}): run 1 {2}, run 2 {3}.', r.n, D.bits ? D.bits.n : '-',
          esc(fmt(r.result1, true)), esc(fmt(r.result2, true)))
          : t('The sums: run 1 {0}, run 2 {1}.', esc(fmt(r.result1, true)), esc(fmt(r.result2, true)))) + gap() +
        '<span class="bad">' + esc(said(r.sentence)) + '</span></p><table><tr><th>#</th><th>' + t('run 1: thread, met + added') +
        '</th><th>' + t('rounding') + '</th><th>' + t('run 2') + '</th><th>' + t('rounding') + '</th></tr>';
      r.rows.forEach(function (row, i) {
        h += '<tr' + (i === r.first ? ' class="first-diff"' : '') + '><td>' + (i + 1) + '</td>' + cell(row[0]) + cell(row[1]) + '</tr>';
      });
      h += '</table><p class="small">' + t('{0} of the block\'s {1} updates; the window shows them all (the atomics panel, ' +
        '"Two runs side by side").', r.rows.length, r.updates) + '</p></div>';
    });
    return h;
  }

  function sweepView(track) {
    var sw = D.sweep, pts = sw && sw.points ? sw.points : [];
    var fig = $('sweep-figure'), cap = $('sweep-caption'), table = $('sweep-table');
    if (!pts.length) {
      cap.textContent = t('No N sweep in this session. A sweep is `reducescope bench --csv` at several N (2^16 ... 2^30), ' +
        'stored into a session with `reducescope sweep BENCH.csv ... --out SESSION`.');
      fig.hidden = true;
      setHtml(table, '');
      hook.charts.sweep = { series: 0 };
      return;
    }
    fig.hidden = false;
    cap.textContent = t('Recorded on {0} (reducescope sweep). Method: {1}. CUB and the device-to-device copy (bytes read + ' +
      'written) for reference; the selected kernel\'s track drawn thick.', sw.gpu,
      (sw.method_say ? said(sw.method_say) : sw.method) || t('each track\'s fastest correct kernel over every block size, at each N'));
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
      legend.push({ name: name === sw.copy ? t('device-to-device copy') : name, color: col, sel: s.sel });
    });
    var peak = sw.peak_gbps > 0 ? sw.peak_gbps.toFixed(0) : '';
    if (peak) legend.push({ name: t('theoretical peak {0} GB/s', peak), color: COL.dim, dash: true });
    setHtml($('legend-sweep'), legendHtml(legend));
    var r = lineChart($('chart-sweep'), {
      h: 420, xs: ns.map(log2), xLabel: function (x) { return { pow2: Math.round(x) }; }, xTitle: t('N (int32 elements)'),
      yTitle: t('effective bandwidth, GB/s'), yLog: false, series: series, band: null,
      hlines: peak ? [{ y: sw.peak_gbps, color: COL.dim, label: t('theoretical peak {0} GB/s', peak),
        en: 'theoretical peak ' + peak + ' GB/s' }] : [] });
    hook.charts.sweep = { series: series.length, labels: r ? r.shown : [] };
    // The selected kernel's track against CUB at each N, as the window's table.
    var find = function (name, n) {
      for (var i = 0; i < pts.length; i++) if (pts[i][0] === name && pts[i][1] === n) return pts[i];
      return null;
    };
    if (!track || names.indexOf(mine) < 0) {
      setHtml(table, '<div class="small">' + t('{0} is not in the sweep (its tracks: {1}).', esc(mine || t('This kernel')),
        esc(names.filter(function (x) { return x !== sw.cub && x !== sw.copy; }).join(', '))) + '</div>');
      return;
    }
    var h = '<table><caption>' + t('{0} against CUB at each N', esc(mine)) + '</caption><tr><th>N</th><th>CUB GB/s</th>' +
      '<th class="name">' + t('fastest kernel (threads)') + '</th><th>GB/s</th><th title="' +
      esc(t('CUB\'s time / this kernel\'s time, measured in the same run')) + '">' + t('vs CUB') + '</th><th title="' +
      esc(t('kernel launches in one reduction')) + '">' + t('launches') + '</th></tr>';
    ns.forEach(function (n) {
      var c = find(sw.cub, n), p = find(mine, n), k = Math.round(Math.log(n) / Math.LN2);
      h += '<tr><td title="' + esc(t('{0} int32 elements', n)) + '">2<sup>' + k + '</sup></td><td>' + (c ? c[2].toFixed(0) : '-') + '</td>';
      if (!p) { h += '<td>' + t('not measured') + '</td><td></td><td></td><td></td></tr>'; return; }
      var ratio = c && c[2] > 0 ? p[2] / c[2] : 0;
      h += '<td class="name"' + (p[5] > 0 ? ' title="' + esc(t('median {0} ms', p[5].toFixed(4))) + '"' : '') + '>' + esc(p[3]) + ' (' + p[4] +
        ')</td><td>' +
        p[2].toFixed(0) + '</td><td' + (ratio >= 1 ? ' class="ratio-good"' : '') + '>' + (ratio ? ratio.toFixed(2) + TIMES : '-') +
        '</td><td>' + (p[6] ? p[6] : '?') + '</td></tr>';
    });
    setHtml(table, h + '</table>');
  }

  var timingsShown = '';
  function timingTable(track, bs, current) {
    var rows = [];
    track.kernels.forEach(function (k) {
      var tm = timingOf(k.name, bs);
      if (tm) rows.push([tm, k]);
    });
    if (!rows.length) return '';
    var h = '<table><caption>' + t('{0} at {1} threads', esc(track.id), bs) + '</caption><tr><th>' + t('kernel') + '</th><th>' +
      t('median ms') + '</th><th class="l" title="' + esc(t('L: kernel launches in one reduction (? = not recorded)')) + '">L</th>' +
      '<th>GB/s</th><th>' + t('{0} of peak', '%') + '</th><th>' + t('vs CUB') + '</th><th>' + t('result') + '</th></tr>';
    rows.forEach(function (r) {
      var tm = r[0], L = launchesOf(tm, r[1]);
      h += '<tr' + (tm[0] === current ? ' class="cur"' : '') + '><td>' + esc(tm[0]) + '</td><td>' + tm[2].toFixed(4) +
        '</td><td class="l">' + (L ? L : '?') + '</td><td>' + tm[5].toFixed(0) + '</td><td>' + tm[6].toFixed(1) + '%</td><td>' +
        (tm[7] ? tm[7].toFixed(2) + TIMES : '') + '</td><td>' + (tm[8] ? t('correct') : '<span class="bad">' + t('WRONG') + '</span>') +
        '</td></tr>';
    });
    return h + '</table>';
  }
  function renderTimings() {
    var k = kernelInfo(S.kernel);
    var sig = S.kernel + '@' + S.bs + '@' + (S.logTime ? 'log' : 'lin') + '@' + ($('timing-panel').clientWidth || 0) + '@' + I18N.lang;
    if (sig === timingsShown) return;
    timingsShown = sig;
    var m = D.meta;
    // The method in the page's language where the exporter knew its words (method_say), else as recorded.
    $('timing-caption').textContent = t('Recorded on {0} (compute capability {1}, CUDA {2}) on {3}.', m.gpu, m.cc, m.cuda, m.date) +
      gap() + t('N = {0} elements ({1}).', m.n, patternName(m.pattern)) + gap() + t('Method: {0}.', m.method_say ? said(m.method_say) : m.method) +
      gap() + t('Theoretical peak {0} GB/s; device copy {1} GB/s; cub::DeviceReduce::Sum {2} ms ({3} GB/s).', m.peak_gbps.toFixed(0),
        m.copy_gbps.toFixed(0), m.cub_ms.toFixed(4), m.cub_gbps.toFixed(0)) + gap() + t('vs CUB = CUB time / kernel time.') + gap() +
      t('L = kernel launches in one reduction.');
    var tr = k ? trackOf(k.track) : null;
    setHtml($('timing-tables'), tr ? timingTable(tr, S.bs, S.kernel) || '<div class="small">' +
      t('No timings of {0} at {1} threads in the session.', esc(tr.id), S.bs) + '</div>' : '');
    var all = '';
    D.tracks.forEach(function (tk) {
      D.block_sizes.forEach(function (b) { all += timingTable(tk, b, S.kernel); });
    });
    setHtml($('timing-all-tables'), all);
    bitsView();
    // A track without any timing (the pitfalls): its table says so, no empty charts.
    var timed = !!tr && tr.kernels.some(function (x) {
      return D.timings.some(function (tm) { return tm[0] === x.name; });
    });
    $('bars-figure').hidden = !timed;
    $('bs-figure').hidden = !timed;
    if (timed) {
      setText($('bars-title'), t('Median time per kernel: {0}, {1} threads per block', tr.id, S.bs));
      barChart($('chart-bars'), tr, S.bs, S.kernel);
      setText($('bs-title'), t('Median time against block size: {0}', tr.id));
      blockSizeChart(tr, S.kernel);
    }
    sweepView(tr);
    hook.chartDraws++;
  }

