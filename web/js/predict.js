  // ---- Predict mode (issue 39) ------------------------------------------------------------------
  // Before a step is shown, a question about it, where its answer will be drawn; the student answers with a click or
  // a number; then the step is shown with the answer marked right or wrong and one sentence why. The questions and
  // their keys come from the trace (each step's "q", app/explain/questions.hpp): [kind, ask, warp, lane, word,
  // [key...], key text, float key, why]. A lesson (index "lessons", docs/lessons.md) chooses which to ask and adds the
  // instructor's words; a kernel it does not cover gets each step's first question in PREDICT_ORDER. Answers stay in
  // localStorage; "Download my answers" saves them as JSON. No network.
  var PREDICT_PANEL = { warps: 'warps-panel', lanes: 'warps-panel', conflict: 'banks-panel', value: 'smem-panel',
    shuffle: 'lanes-panel', sectors: 'global-panel' };
  var PREDICT_ORDER = ['conflict', 'shuffle', 'sectors', 'warps', 'lanes'];
  var PREDICT_STORE = 'reducescope-predict-v1';
  var P = { on: false, lesson: null, pending: null, verdict: null, picked: {}, answers: [] };

  function predictLoad() {
    try { P.answers = JSON.parse(localStorage.getItem(PREDICT_STORE) || '[]') || []; } catch (e) { P.answers = []; }
  }
  function predictSave() {
    try { localStorage.setItem(PREDICT_STORE, JSON.stringify(P.answers)); } catch (e) { /* private mode: kept in memory */ }
  }
  function lessonNamed(name) {
    return (D.lessons || []).filter(function (l) { return l.name === name; })[0] || null;
  }
  function lessonWords(en, zh) { return I18N.lang === 'zh' && zh ? zh : en; }
  function answerKey(tr, step, kind) { return [tr.kernel, tr.bs, tr.dtype, step, kind].join('@'); }
  function answered(tr, step, kind) {
    var k = answerKey(tr, step, kind);
    return P.answers.some(function (a) { return a.key === k && (!P.lesson || a.lesson === P.lesson.name); });
  }

  // The question to ask before `step` of `tr` is shown, or null: the lesson's item for this kernel and block size
  // whose kind the step can answer (none where the lesson covers the kernel but not this step), else the first of
  // PREDICT_ORDER the step has. Never one already answered.
  function questionAt(tr, step) {
    var st = tr.steps[step], qs = (st && st.q) || [];
    if (!qs.length) return null;
    var ofKind = function (k) { return qs.filter(function (q) { return q[0] === k; })[0] || null; };
    var pick = null;
    var items = P.lesson ? P.lesson.items.filter(function (it) {
      var k = kernelInfo(tr.kernel);  // "yours": the user's own kernel file, whatever its name (app/lessons.hpp)
      return (it.kernel === tr.kernel || (it.kernel === 'yours' && k && k.track === 'yours')) && it.bs === tr.bs &&
        (!it.type || it.type === tr.dtype) && it.ask !== 'fastest';
    }) : [];
    if (items.length) {
      for (var i = 0; i < items.length && !pick; i++) {
        if (items[i].steps.length && items[i].steps.indexOf(step) < 0) continue;
        var q = ofKind(items[i].ask);
        if (q) pick = { q: q, item: items[i] };
      }
    } else {
      for (var k = 0; k < PREDICT_ORDER.length && !pick; k++) {
        var x = ofKind(PREDICT_ORDER[k]);
        if (x) pick = { q: x, item: null };
      }
    }
    return pick && !answered(tr, step, pick.q[0]) ? pick : null;
  }

  // setStep's gate: going forward to step `to` in Predict mode, the first step on the way with a question waits for
  // its answer. True where one now waits (the step shown stays the one before it).
  function predictGate(to) {
    if (!P.on || !S.trace || to <= S.step) return false;
    if (P.pending) return true;
    for (var s = S.step + 1; s <= to; s++) {
      var pick = questionAt(S.trace, s);
      if (!pick) continue;
      if (s > S.step + 1) { S.step = s - 1; renderStep(); }
      if (S.playing) setPlaying(false);
      P.pending = { step: s, q: pick.q, item: pick.item, t0: performance.now(), tries: 0, wrong: [] };
      P.verdict = null;
      P.picked = {};
      predictDraw();
      return true;
    }
    return false;
  }

  // Whether `nums` / `text` answers q: the same rules as explain::grade (app/explain/questions.cpp).
  function significant(s) {
    var m = String(s).toLowerCase().split('e')[0].replace(/[^0-9]/g, '').replace(/^0+/, '');
    return m.length;
  }
  function predictRight(q, nums, text) {
    var kind = q[0], key = q[5];
    if (kind === 'warps') {
      var a = nums.slice().sort(function (x, y) { return x - y; });
      return a.length === key.length && a.every(function (v, i) { return v === key[i]; });
    }
    if (kind === 'value') {
      var v = Number(String(text).trim());
      if (String(text).trim() === '' || !isFinite(v)) return false;
      if (!q[7]) return v === key[0];
      i32[0] = key[0];
      var f = f32[0];
      if (v === f) return true;
      var need = Math.min(3, significant(q[6])), p = significant(text);
      return p >= need && p <= 9 && Number(f.toPrecision(p)) === v;
    }
    return nums.length === 1 && nums[0] === key[0];
  }

  function predictAnswer(nums, text) {
    var w = P.pending;
    if (!w) return null;
    w.tries++;
    var right = predictRight(w.q, nums, text);
    if (!right) {
      w.wrong.push(nums.length ? nums.join(',') : text);  // lesson-report's misconception table
      P.verdict = { right: false, text: t('Not yet: try again, or press Show.') };
      predictDraw();
      return false;
    }
    predictReveal(true, nums.length ? nums : [text]);
    return true;
  }
  // Shows the step: after a right answer, or at Show (counted as not right at the first try).
  function predictReveal(right, answer) {
    var w = P.pending, tr = S.trace;
    if (!w || !tr) return;
    P.answers.push({ key: answerKey(tr, w.step, w.q[0]), lesson: P.lesson ? P.lesson.name : '', kernel: tr.kernel,
      bs: tr.bs, dtype: tr.dtype, step: w.step, kind: w.q[0], question: said(w.q[1]), answer: answer,
      key_answer: w.q[6], right: right, first_try: right && w.tries === 1, tries: w.tries, wrong: w.wrong,
      seconds: Math.round((performance.now() - w.t0) / 100) / 10 });
    predictSave();
    P.pending = null;
    var why = said(w.q[8]);
    P.verdict = { right: right, text: right ? t('Right: {0}', why) : t('Not quite: {0}', why), panel: PREDICT_PANEL[w.q[0]] };
    S.step = w.step;
    S.acc = -1;
    S.req = -1;
    var t0 = performance.now();
    renderStep();
    hook.predict.revealMs = performance.now() - t0;  // the browser test prints it (target: under 50 ms)
  }

  // The question box: in the panel where the answer will be drawn, which is shown for it.
  function predictDraw() {
    var box = $('predict-box'), w = P.pending, v = P.verdict;
    $('btn-predict').classList.toggle('sel', P.on);
    $('predict-bar').hidden = !P.on;
    if (!P.on || (!w && !v)) { box.hidden = true; predictScore(); return; }
    var panel = $(w ? PREDICT_PANEL[w.q[0]] : v.panel);
    if (panel) {
      panel.hidden = false;
      var h = panel.querySelector('h3');
      if (box.parentNode !== panel || box.previousElementSibling !== h) panel.insertBefore(box, h ? h.nextSibling : panel.firstChild);
    }
    box.hidden = false;
    var html = '';
    if (w) {
      var say = w.item ? lessonWords(w.item.say, w.item.say_zh) : '';
      if (say) html += '<div class="predict-say">' + esc(say) + '</div>';
      html += '<div class="predict-ask">' + esc(said(w.q[1])) + '</div><div class="predict-input">';
      if (w.q[0] === 'warps') {
        for (var i = 0; i < S.trace.warps; i++) {
          html += '<button type="button" class="chip' + (P.picked[i] ? ' sel' : '') + '" data-warp="' + i + '">' + i + '</button>';
        }
      } else {
        if (w.q[0] === 'conflict') {
          [1, 2, 4, 8, 16, 32].forEach(function (n) { html += '<button type="button" class="chip" data-n="' + n + '">' + n + '</button>'; });
        }
        html += '<input id="predict-input" type="text" inputmode="decimal" autocomplete="off" aria-label="' +
          esc(t('your answer')) + '">';
      }
      html += ' <button type="button" id="predict-check">' + esc(t('Check')) + '</button> <button type="button" id="predict-show">' +
        esc(t('Show')) + '</button></div>';
    }
    if (v) html += '<div class="predict-verdict ' + (v.right ? 'right' : 'wrong') + '">' + esc(v.text) + '</div>';
    box.innerHTML = html;
    box.querySelectorAll('[data-warp]').forEach(function (b) {
      b.onclick = function () { var k = Number(b.dataset.warp); P.picked[k] = !P.picked[k]; b.classList.toggle('sel', P.picked[k]); };
    });
    box.querySelectorAll('[data-n]').forEach(function (b) { b.onclick = function () { predictAnswer([Number(b.dataset.n)], b.dataset.n); }; });
    var input = $('predict-input');
    var check = function () {
      if (w.q[0] === 'warps') {
        predictAnswer(Object.keys(P.picked).filter(function (k) { return P.picked[k]; }).map(Number), '');
      } else {
        var s = input ? input.value.trim() : '';
        predictAnswer(/^-?\d+$/.test(s) && w.q[0] !== 'value' ? [Number(s)] : [], s);
      }
    };
    if ($('predict-check')) $('predict-check').onclick = check;
    if ($('predict-show')) $('predict-show').onclick = function () { predictReveal(false, null); };
    if (input) {
      input.onkeydown = function (e) { if (e.key === 'Enter') { e.preventDefault(); check(); } };
      if (w && !v) input.focus();
    }
    predictScore();
  }
  // After every renderStep: the box back in its panel (the views' layout may have moved or hidden it). A trace opened
  // at step 0 with a question there asks it first: step 0 is drawn but kept out of sight (predict-blank) until the
  // answer, as a later step is kept back by predictGate.
  function predictAfterRender() {
    if (P.on && !P.pending && S.trace && S.step === 0) {
      var pick = questionAt(S.trace, 0);
      if (pick) {
        if (S.playing) setPlaying(false);
        P.pending = { step: 0, q: pick.q, item: pick.item, t0: performance.now(), tries: 0, wrong: [] };
        P.verdict = null;
        P.picked = {};
      }
    }
    if (P.on) predictDraw();
    document.body.classList.toggle('predict-blank', !!(P.on && P.pending && P.pending.step === S.step));
  }

  // Per kernel: questions answered, right at the first try, tries.
  function predictScore() {
    var el = $('predict-score');
    if (!P.on) { el.innerHTML = ''; return; }
    var lesson = P.lesson ? P.lesson.name : '', rows = {};
    P.answers.forEach(function (a) {
      if (a.lesson !== lesson) return;
      var r = rows[a.kernel] = rows[a.kernel] || { n: 0, first: 0, tries: 0 };
      r.n++;
      if (a.first_try) r.first++;
      r.tries += a.tries;
    });
    var names = Object.keys(rows);
    if (!names.length) { el.innerHTML = '<span class="small">' + esc(t('No answers yet.')) + '</span>'; return; }
    var html = '<table class="score"><tr><th>' + esc(t('kernel')) + '</th><th>' + esc(t('answered')) + '</th><th>' +
      esc(t('right at the first try')) + '</th><th>' + esc(t('tries')) + '</th></tr>';
    names.forEach(function (k) {
      var r = rows[k];
      html += '<tr><td>' + esc(k) + '</td><td>' + r.n + '</td><td>' + r.first + '</td><td>' + r.tries + '</td></tr>';
    });
    el.innerHTML = html + '</table>';
  }

  // The student's name as typed (kept in localStorage): lesson-report's per-student score; may be empty (the report
  // then names the file).
  function predictName() {
    var el = $('predict-name'), v = el ? el.value.trim() : '';
    try { localStorage.setItem(PREDICT_STORE + '-name', v); } catch (e) { /* private mode */ }
    return v;
  }
  function predictDownload() {
    var student = predictName();
    var out = { format: 'reducescope-answers', version: 1, lesson: P.lesson ? P.lesson.name : '', page: D.exporter,
      gpu: D.meta ? D.meta.gpu : '', session: D.session_name || '', student: student, answers: P.answers };
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([JSON.stringify(out, null, 1)], { type: 'application/json' }));
    a.download = 'reducescope-answers' + (student ? '-' + student.replace(/[^\w\u00a0-\uffff-]+/g, '_') : '') + '.json';
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    return out;
  }

  // The page's kernel file (track "yours"), which a lesson's "kernel": "yours" names; null where it holds none.
  function yoursKernel() {
    var k = kernels.filter(function (x) { return x.track === 'yours'; })[0];
    return k ? k.name : null;
  }
  // Turns Predict mode on or off; with a lesson, opens its first kernel at its block size, at step 0.
  function setPredict(on, lessonName) {
    P.on = on;
    P.pending = null;
    P.verdict = null;
    if (lessonName !== undefined) P.lesson = lessonName ? lessonNamed(lessonName) : null;
    $('lesson-select').value = P.lesson ? P.lesson.name : '';
    predictDraw();
    if (on && P.lesson && P.lesson.items.length) {
      var first = P.lesson.items.filter(function (it) { return it.ask !== 'fastest'; })[0];
      var name = first && first.kernel === 'yours' ? yoursKernel() : first && first.kernel;
      if (first && name && traceOf[key(name, first.bs)]) {
        if (first.type) S.float32 = first.type === 'float32';
        return select(name, first.bs).then(function () { setStep(0); });
      }
    }
    renderStep();
    return Promise.resolve();
  }
  function predictLessons() {
    var sel = $('lesson-select');
    sel.innerHTML = '<option value="">' + esc(t('no lesson: a question per step')) + '</option>' +
      (D.lessons || []).map(function (l) {
        return '<option value="' + esc(l.name) + '">' + esc(lessonWords(l.title, l.title_zh) || l.name) + '</option>';
      }).join('');
    sel.value = P.lesson ? P.lesson.name : '';
  }
  function predictSetup() {
    predictLoad();
    predictLessons();
    onLanguage(function () { predictLessons(); predictDraw(); });
    var sel = $('lesson-select');
    sel.onchange = function () { setPredict(true, sel.value); };
    $('btn-predict').onclick = function () { setPredict(!P.on); this.blur(); };
    $('predict-download').onclick = function () { predictDownload(); };
    try { $('predict-name').value = localStorage.getItem(PREDICT_STORE + '-name') || ''; } catch (e) { /* private mode */ }
    var fromAddress = function () {
      var m = /(?:^|[#&])lesson=([\w.-]+)/.exec(location.hash || '');
      return m && lessonNamed(m[1]) ? setPredict(true, m[1]) : null;
    };
    window.addEventListener('hashchange', fromAddress);  // a link to #lesson=NAME on the open page
    return fromAddress();
  }
  hook.predict = {
    state: function () {
      return { on: P.on, lesson: P.lesson ? P.lesson.name : '', step: S.step,
        pending: P.pending ? { step: P.pending.step, kind: P.pending.q[0], key: P.pending.q[5], text: P.pending.q[6],
          float: P.pending.q[7], panel: PREDICT_PANEL[P.pending.q[0]] } : null,
        verdict: P.verdict ? { right: P.verdict.right, text: P.verdict.text } : null, answers: P.answers.length };
    },
    answer: function (nums, text) { return predictAnswer(nums || [], text || ''); },
    show: function () { predictReveal(false, null); },
    set: function (on, lesson) { return setPredict(on, lesson); },
    download: function () { return predictDownload(); },
    lessons: function () { return D.lessons || []; },
    clear: function () { P.answers = []; predictSave(); predictScore(); }
  };
