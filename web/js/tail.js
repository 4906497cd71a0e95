  // ---- start ----------------------------------------------------------------------------------
  function describeHeld() {
    var parts2 = [];
    D.tracks.forEach(function (tk) {
      var held = D.held[tk.id];
      if (held && held.length) parts2.push(tk.id + ' ' + held.join(', '));
    });
    return parts2.join('; ');
  }
  // The block sizes at which the page holds float32 traces beside int32 ones (the switch, key D).
  function floatSizes() {
    return D.block_sizes.filter(function (b) {
      return D.traces.some(function (e) { return e.bs === b && e.dtype === 'float32' && typedOf[key(e.kernel, b) + '@int32']; });
    });
  }

  // The words start() writes once: the banner, the footer, the Nsight Compute note, the keys, the play button,
  // the controls' labels for screen readers. Said again after a language switch.
  function renderWords() {
    var m = D.meta, mg = D.multigpu;
    // One line on screen (a laptop's first screen is for the replay); the rest behind "details".
    var where = D.traces.length || !mg ? esc(m.gpu) : mg.gpus + ' ' + TIMES + ' ' + esc(mg.names[0] || m.gpu);
    if (!hook.error || hook.ready) {  // else it says the session could not be loaded (showError)
      $('rec-line').innerHTML = t('<b>recorded</b> on <b>{0}</b>, {1}; nothing runs on your GPU.', where,
        esc(String(m.date).slice(0, 10)));
    }
    $('rec-text').innerHTML = t('This page replays a session <b>recorded</b> on <b>{0}</b> on <b>{1}</b>; nothing runs on ' +
      'your computer\'s GPU.', esc(m.gpu), esc(m.date)) + gap() + t('Steps come from ReduceScope\'s replay model.') + gap() +
      t('Traces held (threads per block): {0} ({1} of {2} traces).', esc(describeHeld()), D.traces.length, D.traces_in_session) +
      gap() + (floatSizes().length ? t('float32 traces beside int32 ones (key D): at {0} threads.', floatSizes().join(', ')) + gap() : '') +
      (D.session_name ? t('The full session, <b>{0}</b>, holds every block size; open it in ReduceScope.', esc(D.session_name))
        : t('The full session holds every block size; open it in ReduceScope.'));
    $('footer').textContent = t('Exported by {0} from a session recorded by ReduceScope {1}.', D.exporter, m.tool) + gap() +
      t('Bank model: 32 banks of 4 bytes.') + gap() + t('Global efficiency: bytes requested / (32-byte sectors touched \u00d7 32).');
    $('ncu-note').textContent = t('Nsight Compute counts more store conflicts here: timing, not these addresses (hover)');
    $('ncu-note').title = D.ncu_redux_note ? t(D.ncu_redux_note) : '';
    $('keys').textContent = t('Keys: \u2190 \u2192 step, Home / End first / last step, Space play / pause, \u2191 \u2193 kernel, ' +
      'Page Up / Page Down block size, D int32 / float32.');
    playWords();
    [['mg-ring-select', t('traced ring')], ['mg-step', t('ring step')],
      ['banks', t('the warp\'s 32 lanes, the 32 banks, a line from each lane to its bank')],
      ['chart-bars', t('median time per kernel')], ['chart-bs', t('median time against block size')],
      ['chart-sweep', t('effective bandwidth against N')], ['mg-ring', t('each GPU\'s chunks after the step, and the step\'s copies')],
      ['mg-timeline', t('the traced ring\'s copies and adds against time')],
      ['chart-mg', t('busbw against size: NCCL, ring, naive, the P2P copy')]].forEach(function (a) {
      $(a[0]).setAttribute('aria-label', a[1]);
    });
  }
  // A language switch: every view says its words again; the selection, the step and the scroll stay.
  function renderLanguage() {
    renderWords();
    if (mgStarted) mgWords();
    if (S.kernel) {
      highlightLines.sig = null;  // the source's line and race marks
      sourceTitleWords();
      renderAll();
      if (smemEvent) smemHover(smemEvent);
    }
    renderMultiGpu();
  }

  function start(index) {
    D = index;
    D.tracks.forEach(function (tk) {
      tk.kernels.forEach(function (k) { kernels.push({ name: k.name, track: tk.id, info: k }); });
      // The library's own kernels for the same jobs (CUB's, traced as compiled), after the track's (older pages: none).
      (tk.library || []).forEach(function (k) { kernels.push({ name: k.name, track: tk.id, info: k, library: true }); });
    });
    D.traces.forEach(function (e) {
      traceOf[key(e.kernel, e.bs)] = traceOf[key(e.kernel, e.bs)] || e;
      typedOf[key(e.kernel, e.bs) + '@' + e.dtype] = e;
    });
    var mg = D.multigpu;
    renderWords();
    onLanguage(renderLanguage);
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
    $('kernel-note').addEventListener('click', function (e) {  // "See the fix", "See how CUB does it" buttons
      var b = e.target.closest('[data-kernel]');
      if (b) { select(b.getAttribute('data-kernel'), S.bs); b.blur(); }
    });
    $('bits-table').addEventListener('click', function (e) {  // "How reproducible_sum adds exactly"
      var b = e.target.closest('[data-kernel]');
      if (b) { select(b.getAttribute('data-kernel'), 256); $('step-row').scrollIntoView(); b.blur(); }
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
    $('type-buttons').addEventListener('click', function (e) {
      var b = e.target.closest('[data-type]');
      if (b) { setFloat32(b.getAttribute('data-type') === 'float32'); b.blur(); }
    });
    $('btn-end').onclick = function () { if (S.trace) setStep(S.trace.steps.length - 1); this.blur(); };
    $('btn-play').onclick = function () { setPlaying(!S.playing); this.blur(); };
    $('step-slider').oninput = function () { setStep(Number(this.value)); };
    $('speed').onchange = function () { S.speed = Number(this.value); this.blur(); };
    $('smem').addEventListener('mousemove', smemHover);
    // The lanes table's exact values on hover (a cell shows 3 significant digits where the whole value does not fit).
    $('lanes').addEventListener('mousemove', function (ev) {
      var r = ev.target.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, tip = '';
      (hook.lanesCells || []).forEach(function (q) { if (x >= q[0] && x < q[0] + q[2] && y >= q[1] && y < q[1] + q[3]) tip = q[5]; });
      ev.target.title = tip;
    });
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
    if (!first) throw pageError(function () { return t('the page holds no trace'); });
    var tr = trackOf(first.track);
    S.bs = tr ? tr.bs : 0;
    return select(first.name, tr ? tr.bs : 0).then(function () {
      return predictSetup();  // Predict mode: #lesson=NAME in the address opens its lesson
    }).then(function () {
      hook.ready = true;
      hook.readyMs = performance.now();  // from the navigation's start: the first trace on screen (bench/web_page_load.py)
    });
  }

  // The test hook: read-only state, and a timing of redraws (the 60 fps check).
  hook.state = function () {
    return { kernel: S.kernel, bs: S.bs, step: S.step, steps: S.trace ? S.trace.steps.length : 0,
      dtype: S.trace ? S.trace.dtype : '', float32: S.float32, binary: !!(S.trace && S.trace.binary),
      playing: S.playing, loading: S.loading, ready: hook.ready, error: hook.error,
      warps: S.trace ? S.trace.warps : 0,
      part: S.trace && S.trace.steps[S.step] && S.trace.steps[S.step].part ? S.trace.steps[S.step].part.length / 2 : 0 };
  };
  hook.kernels = function () { return kernels.map(function (k) { return k.name; }); };
  hook.held = function (name) { return heldSizes(name); };
  // The index's trace entries with their part's packed size (bench/web_page_load.py opens the largest).
  hook.entries = function () {
    return D.traces.map(function (e) {
      return { kernel: e.kernel, bs: e.bs, dtype: e.dtype, part: e.part, bytes: e.bytes, partBytes: parts[e.part].bytes.length };
    });
  };
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
  // The centre of shared-memory word i in the viewport (the test hovers it), or null before it is drawn.
  hook.smemCell = function (i) {
    var L = smemLayout, c = $('smem');
    if (!L || !c) return null;
    var r = c.getBoundingClientRect();
    return { x: r.left + L.labelW + (i % L.cols + 0.5) * L.cw, y: r.top + (Math.floor(i / L.cols) + 0.5) * L.ch };
  };
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
  // Every step of the open trace drawn in turn, and what its summary and idle line said (tests/web_chromium.py
  // checks them against the explain layer's facts of each step: the claims audit of the page's sentences).
  hook.stepTexts = function () {
    if (!S.trace) return null;
    var keep = S.step, out = [];
    for (var i = 0; i < S.trace.steps.length; i++) {
      S.step = i;
      renderStep();
      out.push({ summary: $('step-summary').textContent, idle: $('idle-line').textContent });
    }
    S.step = keep;
    renderStep();
    return out;
  };
  // A message in the page's language with its arguments, as the page's text shows it (tags dropped): the test
  // builds what a step's sentences must say from the ids the page composes them with.
  hook.say = function () {
    var d = document.createElement('div');
    d.innerHTML = t.apply(null, arguments);
    return d.textContent;
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
    loadI18n().then(function () {
      onLanguage(function () {
        if (!D && !hook.error) $('rec-line').textContent = t('Loading the recorded session\u2026');
        renderError();
      });
      if (I18N.lang !== 'en') $('rec-line').textContent = t('Loading the recorded session\u2026');
      try {
        parts = readContainer($('rs-data'));
        inflateJson(parts[0], function () { return t('the index'); }).then(start).catch(function (e) { showError(errorOf(e)); });
      } catch (e) {
        showError(errorOf(e));
      }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', load);
  else load();
})();
