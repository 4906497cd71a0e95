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
    var m = D.meta, mg = D.multigpu;
    // One line on screen (a laptop's first screen is for the replay); the rest behind "details".
    var where = D.traces.length || !mg ? esc(m.gpu) : mg.gpus + ' ' + TIMES + ' ' + esc(mg.names[0] || m.gpu);
    $('rec-line').innerHTML = '<b>recorded</b> on <b>' + where + '</b>, ' + esc(String(m.date).slice(0, 10)) +
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
      var b = e.target.closest('[data-kernel]'), jump = e.target.closest('[data-jump]');
      if (b) { select(b.getAttribute('data-kernel'), S.bs); b.blur(); }
      if (jump) {  // to a panel, the focus on its control (the arrow keys then step it)
        $(jump.getAttribute('data-jump')).scrollIntoView();
        $(jump.getAttribute('data-focus')).focus({ preventScroll: true });
      }
    });
    $('kernel-note').addEventListener('click', function (e) {  // a pitfall's "See the fix" button
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
      resizeTimer = setTimeout(function () {
        renderMultiGpu();
        if (!D.traces.length) return;
        srcGeom = null;
        highlightLines.sig = null;
        renderTimings();
        renderStep();
      }, 100);
    });
    if (mg) startMultiGpu();
    // The first kernel with a trace here, at its track's block size.
    var first = null;
    for (var i = 0; i < kernels.length && !first; i++) if (heldSizes(kernels[i].name).length) first = kernels[i];
    if (!first && mg) {  // a multi-GPU recording alone: only its panel
      ['sidebar', 'controls', 'columns', 'timing-panel', 'sweep-panel', 'bits-panel'].forEach(function (id) { $(id).hidden = true; });
      hook.ready = true;
      return Promise.resolve();
    }
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
