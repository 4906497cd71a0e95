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
    [COL.empty, COL.cell, COL.orange, COL.sky, COL.purple, COL.verm].forEach(function (c) {
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

