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
  // series: [{name, color, pts: [[x, y], ...], width, dash (a measured reference: dashed)}], hlines: [{y, color, label,
  // en (the label in English, for the test hook)}], band: x or null}. Returns {shown: the labels placed, in English}.
  // Labels (ticks, titles, the reference lines') sit outside the data: a reference line's label takes
  // the first place beside its line that no data line, marker or other label crosses, or none.
  function lineChart(c, o) {
    var g = canvasCtx(c, o.h), ctx = g.ctx, w = g.w, h = o.h, th = 20;
    var ys = [];
    o.series.forEach(function (s) { s.pts.forEach(function (p) { ys.push(p[1]); }); });
    o.hlines.forEach(function (l) { if (l.y > 0) ys.push(l.y); });
    if (!ys.length || !(Math.max.apply(null, ys) > 0)) { chartMessage(c, h, o.empty || t('no data')); return null; }
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
    ticks.forEach(function (v) { tickW = Math.max(tickW, ctx.measureText(axisNum(v)).width); });
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
    ticks.forEach(function (v) {
      var y = Math.round(Y(v)) + 0.5;
      ctx.strokeStyle = GRID;
      ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(right, y); ctx.stroke();
      ctx.fillStyle = COL.dim;
      ctx.fillText(axisNum(v), left - 8, y);
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
    var yTitle = o.yLog ? t('{0} (log scale)', o.yTitle) : o.yTitle;
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
      ctx.setLineDash(s.dash ? [10, 7] : []);
      ctx.beginPath();
      s.pts.forEach(function (p, i) { if (i) ctx.lineTo(X(p[0]), Y(p[1])); else ctx.moveTo(X(p[0]), Y(p[1])); });
      ctx.stroke();
      ctx.setLineDash([]);
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
        shown.push(l.en || l.label);
        break;
      }
    });
    return { shown: shown };
  }

