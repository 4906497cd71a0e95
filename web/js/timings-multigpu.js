  // ---- multigpu: busbw and the tables ------------------------------------------------------------
  // All-reduce busbw against size (log2 x, the sizes' labels from the exporter's bytes_label) for NCCL, the
  // hand ring and the naive gather, the P2P one-way copy as a dashed line (its bytes / time: a copy's busbw
  // factor is 1, so it compares directly); the table of every size, and the spread sum against one GPU.
  // Numbers as recorded (index "multigpu".rows); nothing is recomputed here but the ratios.
  var MG_COLORS = { nccl: '#e69f00', ring: '#56b4e9', naive: '#cc79a7', p2p: '#f0e442' };  // the P2P line: dashed

  // busbw against size (log2 x, the sizes' labels): NCCL, ring and naive, the P2P one-way copy dashed.
  function mgChart() {
    var sizes = mgSizes('allreduce');
    mgSizes('copy').forEach(function (b) { if (sizes.indexOf(b) < 0) sizes.push(b); });
    sizes.sort(function (a, b) { return a - b; });
    var log2 = function (v) { return Math.log(v) / Math.LN2; };
    var lines = function () {
      return [['allreduce', 'nccl', t('NCCL all-reduce')], ['allreduce', 'ring', t('hand ring all-reduce')],
        ['allreduce', 'naive', t('naive gather to GPU 0')], ['copy', 'p2p', t('P2P copy GPU 0 \u2192 1, one way')]];
    };
    var defs = lines(), en = english(lines);  // the names in English for the test hook
    var series = [], legend = [];
    defs.forEach(function (d, i) {
      var pts = [];
      sizes.forEach(function (b) { var row = mgRow(d[0], d[1], b); if (row && row.busbw_gbps > 0) pts.push([log2(b), row.busbw_gbps]); });
      if (!pts.length) return;
      var s = { name: d[2], en: en[i][2], color: MG_COLORS[d[1]], pts: pts, dash: d[0] === 'copy' };
      series.push(s);
      legend.push({ name: s.dash ? t('{0} (bytes / time)', d[2]) : d[2], color: s.color, dash: s.dash });
    });
    setHtml($('legend-mg'), legendHtml(legend));
    var r = D.multigpu.rings[MG.ring];
    lineChart($('chart-mg'), {
      h: Math.max(280, Math.min(420, Math.round((window.innerHeight || 800) * 0.5))), xs: sizes.map(log2),
      xLabel: function (x) { return mgLabel(sizes[nearest(x)]); },
      xTitle: t('bytes per GPU (log2 scale)'), yTitle: t('busbw, GB/s'), yLog: MG.log, series: series,
      band: r ? log2(r.bytes) : null, hlines: [], empty: t('No all-reduce timings in the multi-GPU recording.') });
    function nearest(x) {
      var best = 0;
      sizes.forEach(function (b, i) { if (Math.abs(log2(b) - x) < Math.abs(log2(sizes[best]) - x)) best = i; });
      return best;
    }
    hook.mg.chart = { series: series.map(function (s) { return s.en; }),
      dashed: series.filter(function (s) { return s.dash; }).map(function (s) { return s.en; }), log: MG.log };
  }

  function mgTables() {
    var mg = D.multigpu, G = mg.gpus, ring = mg.rings[MG.ring];
    var bidir = mgSizes('copy_bidir').length > 0;
    var cell = function (row) {
      if (!row) return '<td>-</td>';
      return '<td title="' + esc(t('median {0} ms ({1}\u2013{2}, {3} samples); algbw {4} GB/s', row.median_ms.toFixed(4),
        row.min_ms.toFixed(4), row.max_ms.toFixed(4), row.samples, row.algbw_gbps.toFixed(1))) + '"' +
        (row.correct ? '' : ' class="bad"') + '>' + row.busbw_gbps.toFixed(1) + '</td>';
    };
    var h = '<table><caption>' + t('All-reduce on {0} GPUs: busbw, GB/s', G) + '</caption><tr>' +
      '<th>' + t('size') + '</th><th title="' + esc(t(mg.methods['copy p2p'] || '')) + '">' + t('P2P copy') + '</th>' +
      (bidir ? '<th title="' + esc(t(mg.methods['copy_bidir p2p'] || '')) + '">' + t('both ways') + '</th>' : '') +
      '<th>NCCL</th><th>' + t('ring') + '</th><th>' + t('naive') + '</th><th title="' + esc(t('the ring\'s busbw / NCCL\'s')) + '">' +
      t('ring / NCCL') + '</th><th>' + t('results') + '</th></tr>';
    mgSizes('allreduce').forEach(function (b) {
      var rows = { p2p: mgRow('copy', 'p2p', b), bi: mgRow('copy_bidir', 'p2p', b), nccl: mgRow('allreduce', 'nccl', b),
        ring: mgRow('allreduce', 'ring', b), naive: mgRow('allreduce', 'naive', b) };
      var ratio = rows.ring && rows.nccl && rows.nccl.busbw_gbps > 0 ? rows.ring.busbw_gbps / rows.nccl.busbw_gbps : 0;
      var wrong = [];
      ['p2p', 'bi', 'nccl', 'ring', 'naive'].forEach(function (m) {
        if (rows[m] && !rows[m].correct) wrong.push(rows[m].op + ' ' + rows[m].method);
      });
      h += '<tr' + (ring && ring.bytes === b ? ' class="cur"' : '') + '><td>' + esc(mgLabel(b)) + '</td>' + cell(rows.p2p) +
        (bidir ? cell(rows.bi) : '') + cell(rows.nccl) + cell(rows.ring) + cell(rows.naive) + '<td' +
        (ratio >= 1 ? ' class="ratio-good"' : '') + '>' + (ratio ? ratio.toFixed(2) + TIMES : '-') + '</td><td>' +
        (wrong.length ? '<span class="bad">' + t('WRONG: {0}', esc(wrong.join(', '))) + '</span>' : t('correct')) + '</td></tr>';
    });
    h += '</table><div class="small">' + t('NCCL: {0}.', esc(['allreduce nccl', 'allreduce ring', 'allreduce naive'].map(function (m) {
      return t(mg.methods[m] || '');
    }).join(semi()))) + '</div>';
    setHtml($('mg-table'), mgSizes('allreduce').length ? h : '');
    var sums = mgSizes('sum'), sh = '';
    if (sums.length) {
      sh = '<table><caption>' + t('A sum of N int32 spread over the GPUs, against one GPU') + '</caption><tr><th>N</th><th>' +
        t('bytes') + '</th><th>' + t('1 GPU ms') + '</th><th>GB/s</th><th>' + t('{0} GPUs ms', G) + '</th><th>GB/s</th><th title="' +
        esc(t('1 GPU\'s time / {0} GPUs\' time', G)) + '">' + t('speedup') + '</th><th>' + t('results') + '</th></tr>';
      sums.forEach(function (b) {
        var one = mgRow('sum', 'one_gpu', b), many = mgRow('sum', 'nccl', b);
        var ms = function (row) {
          return row ? '<td>' + row.median_ms.toFixed(4) + '</td><td>' + row.algbw_gbps.toFixed(1) + '</td>' : '<td>-</td><td>-</td>';
        };
        var up = one && many && many.median_ms > 0 ? one.median_ms / many.median_ms : 0;
        sh += '<tr><td>' + (b / 4).toLocaleString('en-US') + '</td><td>' + esc(mgLabel(b)) + '</td>' + ms(one) + ms(many) + '<td' +
          (up >= 1 ? ' class="ratio-good"' : '') + '>' + (up ? up.toFixed(2) + TIMES : '-') + '</td><td>' +
          ((one && !one.correct) || (many && !many.correct) ? '<span class="bad">' + t('WRONG') + '</span>' : t('correct')) + '</td></tr>';
      });
      sh += '</table><div class="small">' + t('GB/s = N \u00d7 4 bytes / median time.') + gap() +
        t('1 GPU = {0}.', esc(t(mg.methods['sum one_gpu'] || ''))) + gap() + t('{0} GPUs = {1}.', G, esc(t(mg.methods['sum nccl'] || ''))) +
        '</div>';
    }
    setHtml($('mg-sum-table'), sh);
  }
