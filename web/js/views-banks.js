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
    L.labelW = Math.ceil(ctx.measureText(t('lanes')).width) + 12;
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
    ctx.fillText(t('lanes'), 0, L.laneY + L.boxH / 2 - L.th / 2 + 1);
    ctx.fillText(t('banks'), 0, L.bankY + L.boxH / 2 - L.th / 2 + 1);

    // "n-way" over each conflicted bank where every label fits beside its neighbours, else just "n";
    // a label that would still overlap the one before it is left out (its bank stays vermillion).
    // hook.bankMarks: the labels drawn, in English.
    ctx.font = 'bold 17px ' + LABEL_FONT;
    var degree = [], degreeX = [], marks = [];
    var lo = L.x, hi = L.x + 32 * L.pitch;
    [true, false].some(function (long) {
      var right = -1e9, fits = true;
      degree = [];
      degreeX = [];
      marks = [];
      for (var b = 0; b < 32; b++) {
        degree.push('');
        degreeX.push(0);
        if (!sel || !conflicted(b)) continue;
        var text = long ? t('{0}-way', wpb[b]) : String(wpb[b]), tw = ctx.measureText(text).width;
        var x = clampLabel(tw, L.midX(b), lo, hi);
        if (x < right) { fits = false; continue; }
        right = x + tw + 6;
        degree[b] = text;
        degreeX[b] = x;
        marks.push(wpb[b] + (long ? '-way' : ''));
      }
      return fits;
    });
    hook.bankMarks = marks;

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
    var sel = bankFig && bankFig.sel, what = sel ? kindName(sel.k) : '';
    if (!sel || (bankHover.lane < 0 && bankHover.bank < 0)) return '';
    var RA = '\u2192';
    var word = function (l) { return t('lane {0}', l) + ' ' + RA + ' sdata[' + sel.addr[l] + ']'; };
    var lanesOn = function (b) {
      return lanesOf(sel.m).filter(function (l) { return sel.addr[l] % 32 === b; });
    };
    var serves = function (b, n) {
      var words = sel.wpb[b];
      return words > 1 ? '<span class="bad">' + t('{0} distinct words: {0}-way conflict', words) + '</span>'
        : n > 1 ? t('one word for {0} lanes: a broadcast, no conflict', n) : t('one word: no conflict');
    };
    if (bankHover.lane >= 0) {
      var l = bankHover.lane;
      if (!((sel.m >>> l) & 1)) return t('lane {0}: not in this {1}.', l, what);
      var b = sel.addr[l] % 32;
      return t('{0} (byte {1}): bank {2}. Bank {2} serves {3}.', word(l), sel.addr[l] * 4, b, serves(b, lanesOn(b).length));
    }
    var bk = bankHover.bank, on = lanesOn(bk);
    if (!on.length) return t('bank {0}: no lane of this {1}.', bk, what);
    var list = on.slice(0, 8).map(word).join(', ');
    return (on.length === 1 ? t('bank {0}: {1} lane, {2}.', bk, 1, serves(bk, 1))
      : t('bank {0}: {1} lanes, {2}.', bk, on.length, serves(bk, on.length))) + '<br>' +
      (on.length > 8 ? t('{0} and {1} more.', list, on.length - 8) : t('{0}.', list));
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
      // From the facts (app/explain/); a kernel whose shared memory holds atomics only has its step's line.
      setText($('banks-text'), tr.say && tr.say.banks ? said(tr.say.banks) : said(st.bank_idle));
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
    var say = '';
    if (acc.length) {
      var one = st.ld === 1, oneSt = st.st === 1;
      say = (one && oneSt ? t('Step {0}: {1} warp load, {2} store; {3} load, {4} store bank conflicts.', S.step, st.ld, st.st, st.ldc, st.stc)
        : one ? t('Step {0}: {1} warp load, {2} stores; {3} load, {4} store bank conflicts.', S.step, st.ld, st.st, st.ldc, st.stc)
          : oneSt ? t('Step {0}: {1} warp loads, {2} store; {3} load, {4} store bank conflicts.', S.step, st.ld, st.st, st.ldc, st.stc)
            : t('Step {0}: {1} warp loads, {2} stores; {3} load, {4} store bank conflicts.', S.step, st.ld, st.st, st.ldc, st.stc)) + gap();
    }
    say += t('Whole block: {0} load, {1} store conflicts.', tr.ldc, tr.stc) + (acc.length ? gap() + t('Click an access to draw it.') : '');
    setHtml($('banks-text'), say);
    if (!acc.length) {
      // The list keeps its height (the page does not move while stepping) and says where the accesses are.
      var at = tr.stepsWith.acc;
      setHtml(list, '<div class="small">' + (!at.length ? t('No warp-level shared-memory access in this step.')
        : at.length > 1 ? t('No warp-level shared-memory access in this step; accesses in steps {0}.', esc(stepRanges(at)))
          : t('No warp-level shared-memory access in this step; accesses in step {0}.', esc(stepRanges(at)))) + '</div>');
      setText($('bank-caption'), said(st.bank_idle));  // from the facts (app/explain/: bank_idle_sentence)
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
      html += '<div class="item' + (i === S.acc ? ' sel' : '') + '" data-acc="' + i + '">' +
        t('warp {0} {1}, line {2}: {3} lanes, {4}', a.w, kindName(a.k), a.l, popcount(a.m),
          a.deg > 1 ? '<span class="bad">' + t('{0}-way conflict', a.deg) + '</span>' : '<span class="good">' + t('conflict free') + '</span>') +
        '</div>';
    }
    if (acc.length > shown) html += '<div>' + t('{0} more', acc.length - shown) + '</div>';
    setHtml(list, html);
    var sel = acc[S.acc];
    setHtml($('bank-caption'), t('warp {0} {1}, line {2}: {3}', sel.w, kindName(sel.k), sel.l,
      sel.deg > 1 ? '<span class="bad">' + t('{0}-way conflict', sel.deg) + '</span> <span class="pass">' +
        (sel.deg > 2 ? t('{0} passes, {1} bank conflicts', sel.deg, sel.deg - 1) : t('{0} passes, {1} bank conflict', sel.deg, sel.deg - 1)) +
        '</span>' : t('conflict free') + ' <span class="pass">' + t('one pass') + '</span>'));
    drawBankFigure(c, sel);
    if (bankMousePos) showBankTip();
  }

