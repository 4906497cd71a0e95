  // ---- views ----------------------------------------------------------------------------------
  function renderAll() {
    renderList();
    renderBlockSizes();
    renderNote();
    renderSource(true);
    renderTimings();
    renderStep();
  }

  function renderList() {
    var html = '';
    D.tracks.forEach(function (tk) {
      if (!tk.kernels.length) return;
      html += '<div class="track"><div class="track-title" title="' + esc(t(tk.title)) + '">' + esc(tk.id) + '</div>';
      tk.kernels.concat(tk.library || []).forEach(function (k) {
        var has = heldSizes(k.name).length > 0, lib = !!k.how;
        html += '<button class="kernel' + (k.name === S.kernel ? ' sel' : '') + (has ? '' : ' notrace') + (lib ? ' lib' : '') +
          '" data-kernel="' + esc(k.name) + '" title="' + esc(k.name + ': ' + (has ? t(k.title) : t('{0} (no trace in this page)', t(k.title)))) +
          '">' + wordBreaks(k.name) + (k.pitfall ? '<span class="wrong">' + (k.surprise ? t('SURPRISE') : t('WRONG')) + '</span>' : '') +
          (lib ? '<span class="libtag" title="' + esc(t('The library\'s own kernel, traced as compiled')) + '">CUB</span>' : '') +
          '</button>';
      });
      html += '</div>';
    });
    var mg = D.multigpu;
    if (mg) {  // the multigpu track has no kernels to step: a link to its panel
      html += '<div class="track"><div class="track-title" title="' + esc(t('reduction across GPUs')) + '">multigpu</div>' +
        '<button class="kernel" data-jump="multigpu-panel" data-focus="mg-step" title="' +
        esc(t('the ring all-reduce step by step, NCCL, busbw')) + '">' + t('ring all-reduce, {0} GPUs', mg.gpus) + '</button></div>';
    }
    var list = $('kernel-list');
    setHtml(list, html);
    // The selected kernel in view inside the list (the sidebar scrolls on its own; a phone's strip is short).
    var sel = list.querySelector('.kernel.sel'), bar = $('sidebar');
    if (sel && S.kernel !== renderList.shown) {
      renderList.shown = S.kernel;
      var top = sel.getBoundingClientRect().top - bar.getBoundingClientRect().top + bar.scrollTop;
      var bottom = top + sel.offsetHeight;
      if (top < bar.scrollTop || bottom > bar.scrollTop + bar.clientHeight) {
        bar.scrollTop = Math.max(0, top - (bar.clientHeight - sel.offsetHeight) / 2);
      }
    }
  }

  function renderBlockSizes() {
    var html = '', k = kernelInfo(S.kernel);
    D.block_sizes.forEach(function (b) {
      var held = !!traceOf[key(S.kernel, b)];
      // A block size outside the app's six (CUB's histogram ran at 768) only for the kernel that has it.
      if (!held && [32, 64, 128, 256, 512, 1024].indexOf(b) < 0) return;
      var why = '';
      if (!held) {
        why = !(k && k.info.min_bs > b) ? t('no trace at {0} threads in this page (the full session is in the .rssession file)', b)
          : k.info.min_why ? t('{0} needs at least {1} threads: {2}', S.kernel, k.info.min_bs, t(k.info.min_why))
            : t('{0} needs at least {1} threads', S.kernel, k.info.min_bs);
      }
      html += '<button data-bs="' + b + '"' + (b === S.bs && held ? ' class="sel"' : '') + (held ? '' : ' disabled') +
        ' title="' + esc(why || t('{0} threads per block (Page Up / Page Down)', b)) + '">' + b + '</button>';
    });
    $('bs-buttons').innerHTML = html;
    // int32 / float32 (key D), where the page holds the kernel in both: the trace shown is selected; a type the page
    // lacks at this block size is disabled, saying where it is.
    var both = !!S.kernel && bothTypes(S.kernel), types = '';
    $('type-row').hidden = !both;
    if (both) {
      ['int32', 'float32'].forEach(function (ty) {
        var e = typedOf[key(S.kernel, S.bs) + '@' + ty], on = S.trace ? S.trace.dtype === ty : (ty === 'float32') === S.float32;
        var held = D.block_sizes.filter(function (b) { return typedOf[key(S.kernel, b) + '@' + ty]; });
        var why = e ? t('{0} traced on {1} input (D switches)', S.kernel, ty)
          : t('no {0} trace of {1} at {2} threads in this page: it holds it at {3} threads, D goes there (the full session ' +
            'is in the .rssession file)', ty, S.kernel, S.bs, held.join(', '));
        types += '<button data-type="' + ty + '"' + (on && e ? ' class="sel"' : '') + (e || held.length ? '' : ' disabled') + ' title="' +
          esc(why) + '">' + ty + '</button>';
      });
    }
    $('type-buttons').innerHTML = types;
    var tr = S.trace;
    var title = !S.kernel ? '' : S.bs ? t('{0} at {1} threads', S.kernel, S.bs) : S.kernel;
    if (S.kernel && tr) title += ' ' + MDASH + ' ' + t('{0}, block {1} of {2}, N = {3}', tr.dtype, tr.block, tr.grid, tr.n);
    setText($('kernel-title'), title);
  }

  function metric(k, bs, name) {
    var best = null;
    D.metrics.forEach(function (m) {
      if (m[0] === k && m[2] === name && (m[1] === bs || !best)) best = m;
    });
    return best;
  }

  function renderNote() {
    // On screen: the kernel's title, and what must not be missed (wrong code, no trace here); what it
    // fixes and costs a click away (#note-box), so the first screen keeps its room for the replay.
    var k = kernelInfo(S.kernel), el = $('kernel-note'), more = $('kernel-more');
    if (!k) { el.innerHTML = ''; more.innerHTML = ''; return; }
    var i = k.info, h = '<b>' + esc(t(i.title)) + '</b>', m = '';
    if (i.fixes) m += t('Fixes: {0}', esc(t(i.fixes)));
    if (i.how) m += t('How: {0}', esc(t(i.how)));
    if (i.costs) m += (m ? '<br>' : '') + t('Costs: {0}', esc(t(i.costs)));
    more.innerHTML = m;
    if (i.pitfall) {
      // The window's sentences (app/pitfall_words.hpp), exported per kernel and block size.
      var w = pitfallWords(k.name, S.bs);
      h += '<span class="pit"><b>' + (i.surprise ? t('NOT WRONG CODE, A SURPRISE.') : t('WRONG CODE on purpose.')) + '</b>' + gap() +
        t('{0}.', esc(t(i.pitfall)));
      // The explain layer's sentences ([k, args]; a page exported before issue 38: English text).
      var say = function (x) { return typeof x === 'string' ? t(x) : Array.isArray(x) && Array.isArray(x[0]) ?
        x.map(said).join(gap()) : said(x); };
      if (w && w.results && w.results.length) {
        h += '<br><span title="' + esc(t(w.results_how)) + '">' + esc(say(w.results)) + '</span>';
      }
      if (w && w.races) h += '<br><span class="pit-races" title="' + esc(t(w.races_how)) + '">' + esc(say(w.races)) + '</span>';
      if (w && w.missing) h += '<br>' + esc(say(w.missing));
      if (i.fixed_by) {
        h += '<br><button class="fix" data-kernel="' + esc(i.fixed_by) + '" title="' + esc(t('The same kernel with the bug fixed')) +
          '">' + t('See the fix: {0}', esc(i.fixed_by)) + '</button>';
      }
      h += '</span>';
    }
    // A library kernel: the shipped kernels doing the same job; a shipped kernel: the library's kernels doing its job.
    var see = [];
    if (k.library) {
      (i.beside || []).forEach(function (b) { if (kernelInfo(b)) see.push([b, t('See {0}', b), t('The same job in our code')]); });
    } else {
      kernels.forEach(function (x) {
        if (x.library && (x.info.beside || []).indexOf(k.name) >= 0 && heldSizes(x.name).length) {
          see.push([x.name, t('See how CUB does it: {0}', x.name), t(x.info.title)]);
        }
      });
    }
    see.forEach(function (b) {
      h += ' <button class="see" data-kernel="' + esc(b[0]) + '" title="' + esc(b[2]) + '">' + esc(b[1]) + '</button>';
    });
    if (!traceOf[key(k.name, S.bs)]) {
      var held = heldSizes(k.name);
      h += '<br><span class="bad">' + t('No trace of {0} at {1} threads in this page.', esc(k.name), S.bs) + '</span> ' +
        (held.length ? t('This page holds it at {0} threads.', held.join(', ')) + gap() : '') +
        t('The full session is in the .rssession file.');
    }
    var tr = S.trace;
    if (tr && tr.binary) {
      h += '<br><span class="dim">' + t('Recorded by the binary backend (the kernel as compiled).') + gap() +
        (tr.notes_say ? tr.notes_say.map(function (n) { return esc(said(n)); }).join(gap())
                      : esc(tr.notes || '').replace(/\n/g, ' ')) + '</span>';
    }
    el.innerHTML = h;
  }

  var sourceShown = -1, sourceLines = [], highlighted = [], sourceTitle = ['', false];
  // The listing's file, and whether it is the source recorded with the trace.
  function sourceTitleWords() {
    $('source-title').textContent = sourceTitle[1] ? t('{0} (as recorded with the trace)', sourceTitle[0]) : sourceTitle[0];
  }
  function renderSource(reset) {
    var tr = S.trace, k = kernelInfo(S.kernel);
    var idx = tr ? tr.src : k ? D.track_source[k.track] : -1;
    if (idx === undefined) idx = -1;
    if (idx !== sourceShown) {
      sourceShown = idx;
      var text = idx >= 0 ? D.sources[idx] : '';
      var pre = $('source');
      pre.textContent = '';
      sourceLines = [];
      var frag = document.createDocumentFragment();
      text.split('\n').forEach(function (line, i) {
        var div = document.createElement('span');
        div.className = 'ln';
        var no = document.createElement('span');
        no.className = 'no';
        no.textContent = String(i + 1);
        div.appendChild(no);
        div.appendChild(document.createTextNode(line));
        frag.appendChild(div);
        sourceLines.push(div);
      });
      pre.appendChild(frag);
      highlighted = [];
      highlightLines.sig = null;
      srcGeom = null;
      var tk = k ? trackOf(k.track) : null;
      sourceTitle = [k && k.library ? k.info.file || '' : tk && tk.file ? tk.file : '', !!tr];  // CUB's own file
      sourceTitleWords();
    }
    if (reset) highlightLines();
  }
  // The step's lines (and the barrier's) highlighted, scrolled into view inside the source box. No
  // layout is read while stepping: the line height and the box's height are measured when the source
  // is built or the window resized, and the scroll position is followed with a scroll listener.
  var srcGeom = null, srcScroll = 0;
  function measureSource() {
    var pre = $('source');
    srcGeom = sourceLines.length ? { line: sourceLines[0].offsetHeight || 20, top: sourceLines[0].offsetTop - pre.offsetTop,
      h: pre.clientHeight } : null;
    srcScroll = pre.scrollTop;
  }
  // racecheck's races on the listing: both ends of each marked (class "race", the races in its title
  // and after the line), and one line above the listing that says so.
  var raced = [];
  function markRaces(races) {
    raced.forEach(function (el) { el.classList.remove('race'); el.removeAttribute('data-race'); el.title = ''; });
    raced = [];
    var by = {};
    races.forEach(function (r) {
      [r[4], r[6]].forEach(function (l, end) {
        if (end === 1 && r[6] === r[4]) return;
        (by[l] = by[l] || []).push(r);
      });
    });
    Object.keys(by).forEach(function (l) {
      var el = sourceLines[l - 1];
      if (!el) return;
      el.classList.add('race');
      el.setAttribute('data-race', ' ' + ARROW + ' ' + t('race: {0}', by[l].map(function (r) {
        return (r[4] === r[6] ? r[4] : r[4] + ' -> ' + r[6]) + ' (' + r[2] + ')';
      }).join(', ')));
      el.title = by[l].map(describeRace).join('\n');
      raced.push(el);
    });
    var lines = Object.keys(by).map(Number).sort(function (a, b) { return a - b; });
    var n = races.length, at = stepRanges(lines), one = lines.length === 1;
    setText($('source-races'), !n ? ''
      : n === 1 && one ? t('racecheck: {0} race on line {1}, marked in red (both ends of each; hover a line).', n, at)
        : n === 1 ? t('racecheck: {0} race on lines {1}, marked in red (both ends of each; hover a line).', n, at)
          : one ? t('racecheck: {0} races on line {1}, marked in red (both ends of each; hover a line).', n, at)
            : t('racecheck: {0} races on lines {1}, marked in red (both ends of each; hover a line).', n, at));
    $('source-races').hidden = !races.length;
  }
  function highlightLines() {
    var st = S.trace && S.trace.steps[S.step];
    var want = [];
    if (st) {
      (st.lines || []).forEach(function (l) { if (sourceLines[l - 1]) want.push([l, 'hl']); });
      if (st.bl && sourceLines[st.bl - 1]) want.push([st.bl, 'bar']);
    }
    var hideRaces = raceQuizWaiting();  // Predict's race question waits: not its answer (predict.js)
    var races = S.trace && !hideRaces ? racesOf(S.trace.kernel, S.trace.bs) : [];
    var sig = want.join(';') + '|' + (S.trace ? S.trace.kernel + S.trace.bs : '') + (hideRaces ? '|hidden' : '');
    if (sig === highlightLines.sig) return;
    markRaces(races);
    // The step's first line written out whole above the listing (wrapped: a narrow column never cuts it).
    var first = want.length ? want[0][0] : 0;
    setText($('source-line'), first ? t('line {0}: {1}', first, sourceLines[first - 1].textContent.slice(
      String(first).length).replace(/^\s+/, '')) : '');
    highlightLines.sig = sig;
    highlighted.forEach(function (el) { el.classList.remove('hl', 'bar'); });
    highlighted = [];
    want.forEach(function (w) {
      var el = sourceLines[w[0] - 1];
      el.classList.add(w[1]);
      highlighted.push(el);
    });
    // Where racecheck found races, they are the lesson: the listing opens at the first race line.
    var target = races.length ? Math.min.apply(null, races.map(function (r) { return r[4]; })) : want.length ? want[0][0] : 0;
    if (target) {
      if (!srcGeom) measureSource();
      var top = srcGeom.top + (target - 1) * srcGeom.line;
      if (top < srcScroll || top > srcScroll + srcGeom.h - 2 * srcGeom.line) {
        srcScroll = Math.max(0, top - 3 * srcGeom.line);
        $('source').scrollTop = srcScroll;
      }
    }
  }

  // The replay views of a step, as the window lays them out (app/gui/layout.hpp): the views the kernel has
  // come in the trace's `views` order; those with something in this step (the step's `on`, bit per view:
  // smem 0, global 1, lanes 2, atomics 3) are shown, the first of them first; the others are named in one
  // idle line (the step's `idle`, the replay model's sentence). A barrier-only step keeps the first view.
  var VIEW_BITS = { smem: 1, global: 2, lanes: 4, atomics: 8 };
  var VIEW_PANEL = { smem: 'smem-panel', global: 'global-panel', lanes: 'lanes-panel', atomics: 'atomics-panel' };
  // The idle line from its parts (the exporter's explain::idle_line: [folded views], [[view, steps], ...], [views never
  // used], untraced), in the words explain::render_idle uses: the same message ids in the same order, so the page says
  // what the window says (issue 38, item 1: the exporter composed it twice under a language lock). A page exported
  // before holds the line as text.
  function idleText(x) {
    if (typeof x === 'string') return t(x);
    var short = [t('shared'), t('global'), t('lanes'), t('atomics')];
    var lacks = [t('shared memory'), t('global requests'), t('shuffles'), t('atomics')];
    var list = function (items) {
      return items.reduce(function (a, b) { return a === null ? b : t('{0}, {1}', a, b); }, null) || '';
    };
    var room = list(x[0].map(function (v) { return short[v]; }));
    var busy = list(x[1].map(function (b) {
      return /[,-]/.test(b[1]) ? t('{0} (steps {1})', short[b[0]], b[1]) : t('{0} (step {1})', short[b[0]], b[1]);
    }));
    var never = list(x[2].map(function (v) { return lacks[v]; }));
    var out = room ? t('Folded for room: {0}', room) : '';
    if (busy) out = out ? t('{0}. Not in this step: {1}', out, busy) : t('Not in this step: {0}', busy);
    if (never) out = out ? t('{0}; no {1}', out, never) : t('No {0}', never);
    if (x[3]) {
      out = out ? t('{0}; shared memory not traced by the source probe', out) : t('Shared memory not traced by the source probe');
    }
    return out;
  }

  function layoutViews(tr, st) {
    var order = tr ? tr.views || [] : [], shown = {}, any = false, pos = 0;
    order.forEach(function (v) { if (st && (st.on & VIEW_BITS[v])) { shown[v] = true; any = true; } });
    // Shared memory not recorded, but racecheck's races on it (the pitfalls): the raced words, first.
    if (tr && !tr.has.shared && racesOf(tr.kernel, tr.bs).length) {
      order = ['smem'].concat(order.filter(function (v) { return v !== 'smem'; }));
      shown.smem = true;
      any = true;
    }
    if (!any && order.length) shown[order[0]] = true;
    Object.keys(VIEW_PANEL).forEach(function (v) {
      var p = $(VIEW_PANEL[v]);
      var on = !tr || !!shown[v];
      if (p.hidden === on) p.hidden = !on;
    });
    order.forEach(function (v) { if (shown[v]) $(VIEW_PANEL[v]).style.order = String(pos++); });
    order.forEach(function (v) { if (!shown[v]) $(VIEW_PANEL[v]).style.order = String(pos++); });
    $('warps-panel').style.order = String(pos + 1);
    var idle = $('idle-line'), text = tr && st && st.idle ? idleText(st.idle) : '';
    setText(idle, text);
    if (idle.hidden !== !text) idle.hidden = !text;
    hook.shownViews = order.filter(function (v) { return shown[v]; });
  }

  function renderStep() {
    hook.renders++;
    var tr = S.trace, st = tr && tr.steps[S.step];
    var slider = $('step-slider');
    if (!tr) {
      setText($('step-counter'), S.loading ? t('loading\u2026') : t('no trace'));
      slider.max = 0;
      slider.value = 0;
      setText($('step-summary'), S.loading ? '' : t('Choose a kernel and a block size that this page holds a trace of.'));
      ['smem', 'warps', 'banks', 'lanes', 'gslice'].forEach(function (id) { hide($(id)); });
      layoutViews(null, null);
      bankFig = null;
      $('bank-hover').hidden = true;
      ['smem-text', 'warps-text', 'banks-text', 'bank-caption', 'lanes-text', 'atomics-text', 'global-text', 'access-list',
        'atomics-list', 'global-list', 'smem-hover'].forEach(function (id) { setHtml($(id), ''); });
      highlightLines();
      return;
    }
    var n = tr.steps.length;
    setText($('step-counter'), t('step {0} / {1}', S.step, n - 1));
    slider.max = n - 1;
    slider.value = S.step;
    var end = esc(st.endname ? t(st.endname) : endName(st.end));
    var sep = gap();  // a space between English sentences, none after Chinese full stops
    var s = (st.bl ? t('Ends at <b>{0}</b> (line {1}).', end, st.bl) : t('Ends at <b>{0}</b>.', end)) + sep +
      (st.aws ? said(st.aws) : t('Active warps {0} of {1}.', st.aw, tr.warps)) + sep;
    if (st.ld || st.st) {
      s += (st.deg > 1 ? t('Shared: {0} warp loads, {1} stores; bank conflicts {2} load, {3} store ' +
        '(<span class="bad">worst {4}-way</span>).', st.ld, st.st, st.ldc, st.stc, st.deg)
        : t('Shared: {0} warp loads, {1} stores; bank conflicts {2} load, {3} store.', st.ld, st.st, st.ldc, st.stc)) + sep;
    }
    // Lane instructions by name: warp reduces (st.wred) are not shuffles.
    var nShf = (st.shf ? st.shf.length : 0) - (st.wred || 0);
    if (nShf > 0) s += (nShf === 1 ? t('{0} shuffle.', 1) : t('{0} shuffles.', nShf)) + sep;
    if (st.wred) s += (st.wred === 1 ? t('{0} warp reduce.', 1) : t('{0} warp reduces.', st.wred)) + sep;
    if (st.atm) s += (st.atm.length === 1 ? t('{0} warp atomic.', 1) : t('{0} warp atomics.', st.atm.length)) + sep;
    if (st.req) s += (st.req.length === 1 ? t('{0} global request.', 1) : t('{0} global requests.', st.req.length)) + sep;
    // reproducible_sum (issue 30): what the step adds to the block's exact accumulator; the one rounding at the end.
    if (st.exact) {  // [[k, args], ...] (a page before issue 38: one English string)
      s += '<br><span class="exact">' + esc(typeof st.exact === 'string' ? t(st.exact) : st.exact.map(said).join(gap())) +
        '</span>';
    }
    setHtml($('step-summary'), s);
    layoutViews(tr, st);
    // Each view, timed (hook.viewMs: the browser test prints where a frame's time goes).
    var t0 = performance.now(), ms = hook.viewMs;
    [['source', highlightLines], ['smem', drawSmem], ['warps', drawWarps], ['banks', drawBanks], ['lanes', drawLanes],
      ['atomics', drawAtomics], ['global', drawGlobal]].forEach(function (v) {
      v[1](tr, st);
      var now = performance.now();
      ms[v[0]] = (ms[v[0]] || 0) + (now - t0);
      t0 = now;
    });
    hook.step = S.step;
    predictAfterRender();
  }

  var smemLayout = null;
  function drawSmem(tr, st) {
    var c = $('smem');
    var races = tr.has.shared ? [] : racesOf(tr.kernel, tr.bs);
    if (races.length) {
      var hit = {}, words = tr.words || tr.bs;
      races.forEach(function (r) { r[8].forEach(function (w) { hit[w] = true; words = Math.max(words, w + 1); }); });
      setText($('smem-text'), t('Not recorded here: this kernel\'s shared memory (the probe\'s wrapper would change what ' +
        'the compiler keeps in registers, which is the bug). In red: the words compute-sanitizer\'s racecheck found ' +
        'raced on in block 0 (hover a word).'));
      smemLayout = drawCells(c, words, 32, function (i) { return hit[i] ? COL.verm : COL.empty; },
        function () { return null; }, 0);
      smemLayout.races = races;
      smemLayout.words = words;
      return;
    }
    if (!tr.has.shared && tr.say && tr.say.smem) {  // from the facts: "does not use", or "not traced"
      setText($('smem-text'), said(tr.say.smem));
      hide(c);
      smemLayout = null;
      return;
    }
    setText($('smem-text'), t('{0} words of 4 bytes, 32 per row (one row = the 32 banks).', tr.words) +
      (tr.has.shared ? '' : gap() + t('{0} makes no shared load or store (its shared memory holds atomics only).', tr.kernel)));
    smemLayout = drawCells(c, tr.words, 32, function (i) {
      return st.wrf[i] ? COL.orange : st.rdf[i] ? COL.sky : st.def[i] ? COL.cell : COL.empty;
    }, function (i) { return st.def[i] ? fmt(st.smem[i], tr.isFloat) : null; }, 0);
  }
  var smemEvent = null;  // the last mouse move, to say its words again after a language switch
  function smemHover(ev) {
    smemEvent = ev;
    var tr = S.trace, st = tr && tr.steps[S.step], L = smemLayout;
    if (!st || !L) return;
    var r = ev.target.getBoundingClientRect();
    var x = ev.clientX - r.left - L.labelW, y = ev.clientY - r.top;
    var col = Math.floor(x / L.cw), row = Math.floor(y / L.ch), i = row * L.cols + col;
    var out = '';
    if (L.races) {
      if (x >= 0 && col < L.cols && i >= 0 && i < L.words) {
        var on = L.races.filter(function (r) { return r[8].indexOf(i) >= 0; });
        out = t('word {0} (bank {1}, byte {2}): {3}', i, i % 32, i * 4, on.length ? on.map(describeRace).join('; ')
          : t('no race found'));
      }
      $('smem-hover').textContent = out;
      return;
    }
    if (x >= 0 && col < L.cols && i >= 0 && i < tr.words) {
      var what = st.def[i] ? fmt(st.smem[i], tr.isFloat) : t('not yet stored');
      if (st.wrf[i]) what = t('{0}, written this step', what);
      if (st.rdf[i]) what = t('{0}, read this step', what);
      out = t('word {0} (bank {1}, byte {2}): {3}', i, i % 32, i * 4, what);
      var from = st.flowsTo[i];
      if (from) {
        out = from.length > 1 ? t('{0}; computed from words {1}', out, from.join(', ')) : t('{0}; computed from word {1}', out, from[0]);
      }
    }
    $('smem-hover').textContent = out;
  }

  function drawWarps(tr, st) {
    var c = $('warps'), W = tr.warps;
    var any = tr.has.shared || tr.has.lanes || tr.has.atomics || tr.has.global;
    if (!any) {
      setText($('warps-text'), t('{0}: the trace holds no warp instruction, only barriers.', tr.kernel));
      hide(c);
      return;
    }
    setText($('warps-text'), st.aws ? said(st.aws) : t('Active warps: {0} of {1}.', st.aw, W));
    var w = c.clientWidth || 600;
    // 72 px for "warp 31" at the largest font (16 px), and what the page's language needs more.
    var probe = c.getContext('2d');
    probe.font = '16px "DejaVu Sans", sans-serif';
    var more = probe.measureText(t('warp {0}', W - 1)).width - probe.measureText('warp ' + (W - 1)).width;
    var labelW = 72 + Math.max(0, Math.ceil(more)), flagW = 124;
    var cell = Math.max(4, Math.min(30, (w - labelW - flagW) / 32));
    var g = canvasCtx(c, W * cell + 2), ctx = g.ctx;
    var font = Math.max(10, Math.min(16, Math.floor(cell * 0.8)));
    ctx.font = font + 'px "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'middle';
    // The lanes, one path per colour: exited, useful, active but idle, inactive.
    var paths = [new Path2D(), new Path2D(), new Path2D(), new Path2D()];
    for (var k = 0; k < W; k++) {
      var u = st.warps[5 * k] >>> 0, a = st.warps[5 * k + 1] >>> 0, x = st.warps[5 * k + 2] >>> 0;
      for (var l = 0; l < 32; l++) {
        var bit = (1 << l) >>> 0;
        paths[(x & bit) ? 0 : (u & bit) ? 1 : (a & bit) ? 2 : 3].rect(labelW + l * cell, k * cell, cell - 1, cell - 1);
      }
    }
    [COL.empty, COL.green, COL.yellow, COL.cell].forEach(function (c, i) { ctx.fillStyle = c; ctx.fill(paths[i]); });
    // Lanes useful in part of the step only (st.part: warp, lanes pairs): their lower half grey, as the window
    // draws them, so a DIVERGED warp never looks fully useful.
    var part = st.part || [], half = new Path2D();
    for (var pi = 0; pi + 1 < part.length; pi += 2) {
      for (var pl = 0; pl < 32; pl++) {
        if ((part[pi + 1] >>> pl) & 1) half.rect(labelW + pl * cell, part[pi] * cell + (cell - 1) / 2, cell - 1, (cell - 1) / 2);
      }
    }
    ctx.fillStyle = COL.cell;
    ctx.fill(half);
    for (k = 0; k < W; k++) {
      u = st.warps[5 * k] >>> 0;
      var div = st.warps[5 * k + 3], eff = st.warps[5 * k + 4];
      var y = k * cell;
      if (cell >= 11 || k % 4 === 0) {
        ctx.textAlign = 'left';
        ctx.fillStyle = u ? COL.text : COL.dim;
        ctx.fillText(t('warp {0}', k), 2, y + cell / 2);
      }
      if (div) {  // a divergence flag that shows at any size
        ctx.fillStyle = COL.verm;
        ctx.fillRect(labelW + 32 * cell + 2, y, 5, cell - 1);
      }
      if (u && cell >= 11) {
        ctx.fillStyle = div ? COL.verm : COL.text;
        var pct = Math.round(eff / 10) + '%';
        ctx.fillText(div ? t('DIVERGED {0}', pct) : pct, labelW + 32 * cell + 10, y + cell / 2);
      }
    }
  }

