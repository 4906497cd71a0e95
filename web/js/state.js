  // ---- state ----------------------------------------------------------------------------------
  var D = null;          // the index part
  var parts = null;      // the container's parts
  var partCache = {};    // part -> Promise of its inflated bytes (one kernel's traces)
  var cache = {};        // part + ':' + offset -> Promise of a prepared trace
  // float32: the float32 trace where a kernel has int32 and float32 ones (key D, as the window's switch).
  var S = { kernel: null, bs: 0, step: 0, trace: null, loading: false, playing: false, speed: 2, acc: -1, req: -1,
    logTime: true,       // "log time axis", on by default as in the window (app/gui/timing_panel.cpp)
    float32: false };
  var kernels = [];      // [{name, track, info}] in list order
  var traceOf = {};      // kernel + '@' + bs -> its first trace entry of the index (the int32 one where both)
  var typedOf = {};      // kernel + '@' + bs + '@' + dtype -> trace entry

  function key(k, b) { return k + '@' + b; }
  // The entry select() opens: the element type the switch asks for where the page has it, else the one there is.
  function entryOf(k, b) {
    return typedOf[key(k, b) + '@' + (S.float32 ? 'float32' : 'int32')] || traceOf[key(k, b)];
  }
  // Whether the page holds the kernel in both element types at some block size (the switch is shown).
  function bothTypes(k) {
    return D.block_sizes.some(function (b) { return typedOf[key(k, b) + '@int32'] && typedOf[key(k, b) + '@float32']; });
  }
  function heldSizes(k) {
    return D.block_sizes.filter(function (b) { return traceOf[key(k, b)]; });
  }
  function kernelInfo(name) {
    for (var i = 0; i < kernels.length; i++) if (kernels[i].name === name) return kernels[i];
    return null;
  }
  // racecheck's races of a kernel at a block size (index "races": [kernel, bs, kind, first access, first
  // line, second access, second line, hazards, [words], sentence]); [] for none, or a page exported before them.
  function racesOf(k, b) {
    return (D.races || []).filter(function (r) { return r[0] === k && r[1] === b; });
  }
  // The race in the window's words (app/pitfall_words.hpp, race_said): [k, args] said in the page's language (a page
  // exported before issue 38: the English text).
  function describeRace(r) { return !r[9] ? '' : typeof r[9] === 'string' ? t(r[9]) : said(r[9]); }
  // The pitfall's results in the window's sentences (index "pitfall_words"), or null.
  function pitfallWords(k, b) {
    var all = D.pitfall_words || [];
    for (var i = 0; i < all.length; i++) if (all[i].kernel === k && all[i].bs === b) return all[i];
    return null;
  }
  function trackOf(id) {
    for (var i = 0; i < D.tracks.length; i++) if (D.tracks[i].id === id) return D.tracks[i];
    return null;
  }

  function select(name, bs) {
    var k = kernelInfo(name);
    if (!k) return;
    var held = heldSizes(name);
    if (!bs || !traceOf[key(name, bs)]) {
      var tr = trackOf(k.track);
      bs = traceOf[key(name, S.bs)] ? S.bs : tr && traceOf[key(name, tr.bs)] ? tr.bs : held.length ? held[0] : S.bs;
    }
    var keepStep = S.kernel === name ? S.step : -1;
    S.kernel = name;
    S.bs = bs;
    S.acc = -1;
    S.req = -1;
    var entry = entryOf(name, bs);
    if (!entry) {
      S.trace = null;
      S.loading = false;
      renderAll();
      return Promise.resolve();
    }
    S.loading = true;
    renderAll();
    var id = entry.part + ':' + (entry.at || 0);
    if (!cache[id]) {
      var what = function () { return t('the trace of {0} at {1} threads ({2})', name, bs, entry.dtype); };
      if (!partCache[entry.part]) partCache[entry.part] = inflateBytes(parts[entry.part], what);
      cache[id] = partCache[entry.part].then(function (bytes) { return prepare(traceJson(bytes, entry, what)); });
    }
    return cache[id].then(function (tr) {
      if (S.kernel !== name || S.bs !== bs || entryOf(name, bs) !== entry) return;
      S.trace = tr;
      S.loading = false;
      S.step = keepStep >= 0 ? Math.min(keepStep, tr.steps.length - 1) : 0;
      renderAll();
    }, function (e) {
      S.loading = false;
      showError(errorOf(e));
    });
  }

  function setStep(i) {
    if (!S.trace) return;
    var n = S.trace.steps.length;
    i = Math.max(0, Math.min(n - 1, i));
    if (i > S.step && predictGate(i)) return;  // Predict mode: a question waits for its answer first
    if (i !== S.step) {
      S.step = i;
      S.acc = -1;
      S.req = -1;
    }
    renderStep();
  }
  function moveKernel(d) {
    var i = kernels.findIndex(function (k) { return k.name === S.kernel; });
    var j = Math.max(0, Math.min(kernels.length - 1, i + d));
    if (j !== i) select(kernels[j].name, S.bs);
  }
  // The int32 / float32 switch (key D): the same kernel, block size and step in the other element type. Where the
  // page holds the kernel's float32 trace at other block sizes only (the page's budget), the nearest of them.
  function setFloat32(on) {
    if (on === S.float32 && (!S.trace || (S.trace.dtype === 'float32') === on)) return;
    S.float32 = on;
    if (!S.kernel) return;
    var bs = S.bs, ty = on ? 'float32' : 'int32';
    if (!typedOf[key(S.kernel, bs) + '@' + ty] && bothTypes(S.kernel)) {
      D.block_sizes.forEach(function (b) {
        if (!typedOf[key(S.kernel, b) + '@' + ty]) return;
        var d = Math.abs(Math.log2(b) - Math.log2(S.bs)), best = Math.abs(Math.log2(bs) - Math.log2(S.bs));
        if (bs === S.bs || d < best || (d === best && b > bs)) bs = b;
      });
    }
    select(S.kernel, bs);
  }
  function moveBlock(d) {
    var held = heldSizes(S.kernel);
    var i = held.indexOf(S.bs);
    var j = i < 0 ? 0 : Math.max(0, Math.min(held.length - 1, i + d));
    if (held.length && held[j] !== S.bs) select(S.kernel, held[j]);
  }

  // Play: one step per 1/speed seconds, drawn on animation frames; stops at the last step.
  var lastTick = 0, carry = 0;
  function setPlaying(on) {
    S.playing = on && !!S.trace;
    if (S.playing && S.step >= S.trace.steps.length - 1) S.step = 0;
    playWords();
    $('btn-play').classList.toggle('sel', S.playing);
    lastTick = 0;
    carry = 0;
    if (S.playing) requestAnimationFrame(tick);
    renderStep();
  }
  function playWords() { $('btn-play').textContent = S.playing ? t('pause') : t('play'); }
  function tick(now) {
    if (!S.playing || !S.trace) return;
    if (lastTick) {
      carry += (now - lastTick) / 1000 * S.speed;
      var adv = Math.floor(carry);
      if (adv > 0) {
        carry -= adv;
        var next = S.step + adv;
        if (next >= S.trace.steps.length - 1) {
          setStep(S.trace.steps.length - 1);
          setPlaying(false);
          return;
        }
        setStep(next);
      }
    }
    lastTick = now;
    requestAnimationFrame(tick);
  }

  function onKey(e) {
    if (!D || e.ctrlKey || e.metaKey || e.altKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'range')) return;
    // The ring's keys: with the focus in its panel, or on a page with no trace to step.
    if (D.multigpu && ((e.target.closest && e.target.closest('#multigpu-panel')) || !D.traces.length)) {
      if (ringKey(e)) e.preventDefault();
      return;
    }
    var handled = true;
    switch (e.key) {
      case 'ArrowRight': setStep(S.step + 1); break;
      case 'ArrowLeft': setStep(S.step - 1); break;
      case 'Home': setStep(0); break;
      case 'End': if (S.trace) setStep(S.trace.steps.length - 1); break;
      case ' ': case 'Spacebar': if (!e.repeat) setPlaying(!S.playing); break;
      case 'ArrowUp': moveKernel(-1); break;
      case 'ArrowDown': moveKernel(1); break;
      case 'PageUp': moveBlock(1); break;
      case 'PageDown': moveBlock(-1); break;
      case 'd': case 'D': setFloat32(S.trace ? S.trace.dtype !== 'float32' : !S.float32); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  }

