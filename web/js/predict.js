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
    var covering = P.lesson ? P.lesson.items.filter(function (it) {
      var k = kernelInfo(tr.kernel);  // "yours": the user's own kernel file, whatever its name (app/lessons.hpp)
      return (it.kernel === tr.kernel || (it.kernel === 'yours' && k && k.track === 'yours')) && it.bs === tr.bs &&
        (!it.type || it.type === tr.dtype);
    }) : [];
    // A question about the session covers its kernel too (no default step questions there), but is asked in its panel.
    var items = covering.filter(function (it) { return !(it.ask in QUIZ_PANEL); });
    if (covering.length) {
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
      P.pending = { step: s, q: pick.q, item: pick.item, t0: performance.now(), tries: 0, wrong: [], tr: S.trace };
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
  // A verdict: "Right: <why>" or "Not quite: <why>" (explain::verdict_sentence), `why` already said.
  function verdictOf(right, why) {
    return { right: right, text: right ? t('Right: {0}', why) : t('Not quite: {0}', why) };
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
    P.verdict = verdictOf(right, why);
    P.verdict.panel = PREDICT_PANEL[w.q[0]];
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
    quizDraw();
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
    // Another trace on screen (another kernel, block size or type): a question still waiting was about the old one
    // (the window does the same as it takes a new trace: data_feed.cpp).
    if (P.pending && P.pending.tr !== S.trace) {
      P.pending = null;
      P.verdict = null;
    }
    if (P.on && !P.pending && S.trace && S.step === 0) {
      var pick = questionAt(S.trace, 0);
      if (pick) {
        if (S.playing) setPlaying(false);
        P.pending = { step: 0, q: pick.q, item: pick.item, t0: performance.now(), tries: 0, wrong: [], tr: S.trace };
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
      var first = P.lesson.items.filter(function (it) { return !(it.ask in QUIZ_PANEL); })[0];
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
  // ---- The lesson's questions about the session (index "session_q", explain::session_questions) ----------------
  // [lesson, item, kind, ask, kernel, bs, [key...], key text, lo, hi, why], for the kernel on screen (a lesson's
  // "yours": the page's kernel file, resolved at export): the fastest block size and a speedup are asked in the
  // timings panel, the bits questions and two runs' parting in the bits panel; the panel's tables wait
  // behind its questions until each is answered right or shown. Recorded as a step's answer is, at step 0 (their
  // lesson items have no steps; lesson-report names them by kind).
  var QUIZ_PANEL = { fastest: 'timing-panel', speedup: 'timing-panel', bits: 'bits-panel', bits_blocks: 'bits-panel',
    part: 'bits-panel', runs_right: 'timing-panel', race_line: 'timing-panel', distinct_sums: 'timing-panel',
    ring_chunk: 'multigpu-panel', ring_bytes: 'multigpu-panel' };
  var Q = { tries: {}, wrong: {}, t0: {}, verdict: {} };
  function quizQs(panel) {
    if (!P.on || !P.lesson) return [];
    return (D.session_q || []).filter(function (q) {  // the kernel on screen's, as the window asks them; the ring's
      // ("multigpu") in the multi-GPU panel, whatever kernel is on screen
      return q[0] === P.lesson.name && (q[4] === 'multigpu' ? !!D.multigpu : q[4] === S.kernel) &&
        (!panel || QUIZ_PANEL[q[2]] === panel);
    });
  }
  function quizId(q) { return q[0] + '#' + q[1]; }
  // Whether "which line races with which?" waits for the kernel on screen: racecheck's marks on the listing, the race
  // line above it and the pitfall's races sentence stay out of sight until it is answered or shown.
  function raceQuizWaiting() {
    return quizQs().some(function (q) { return q[2] === 'race_line' && !quizAnswered(q); });
  }
  function quizItem(q) { return (P.lesson && P.lesson.items[q[1]]) || {}; }
  function quizKey(q) { return [q[4], q[5], quizItem(q).type || 'int32', 0, q[2]].join('@'); }
  function quizAnswered(q) {
    var k = quizKey(q);
    return P.answers.some(function (a) { return a.key === k && a.lesson === q[0]; });
  }
  // The same rules as explain::grade: a speedup within [lo, hi] ("2", "2x", "2\u00d7"); the pitfalls' counts of runs
  // within [lo, hi]; a fastest block size any of the key's; else the one number.
  function quizRight(q, nums, text) {
    if (q[2] === 'speedup') {
      var v = Number(String(text).trim().replace(/\s*[x\u00d7X]$/, ''));
      if (String(text).trim() === '' || !isFinite(v)) return false;
      return v >= q[8] && v <= q[9];
    }
    if (q[2] === 'runs_right' || q[2] === 'distinct_sums' || q[2] === 'ring_bytes') {  // a count within [lo, hi]
      var typed = String(text).trim(), n = nums.length === 1 ? nums[0] : typed === '' ? NaN : Number(typed);
      return isFinite(n) && n >= q[8] && n <= q[9];
    }
    if (nums.length !== 1) return false;
    if (q[2] === 'fastest') return q[6].indexOf(nums[0]) >= 0;
    return nums[0] === q[6][0];
  }
  function quizRecord(q, right, answer) {
    var id = quizId(q), tries = Q.tries[id] || 0;
    P.answers.push({ key: quizKey(q), lesson: q[0], kernel: q[4], bs: q[5], dtype: quizItem(q).type || 'int32', step: 0,
      kind: q[2], question: said(q[3]), answer: answer, key_answer: q[7], right: right, first_try: right && tries === 1,
      tries: tries, wrong: Q.wrong[id] || [], seconds: Math.round((performance.now() - (Q.t0[id] || performance.now())) / 100) / 10 });
    predictSave();
    Q.verdict[id] = verdictOf(right, said(q[10]));
  }
  function quizAnswer(id, nums, text) {
    var q = quizQs().filter(function (x) { return quizId(x) === id; })[0];
    if (!q || quizAnswered(q)) return null;
    Q.tries[id] = (Q.tries[id] || 0) + 1;
    if (!quizRight(q, nums, text)) {
      (Q.wrong[id] = Q.wrong[id] || []).push(nums.length ? nums.join(',') : text);
      Q.verdict[id] = { right: false, text: t('Not yet: try again, or press Show.') };
      quizDraw();
      return false;
    }
    quizRecord(q, true, nums.length ? nums : [text]);
    quizDraw();
    return true;
  }
  function quizShow(id) {
    var q = quizQs().filter(function (x) { return quizId(x) === id; })[0];
    if (!q || quizAnswered(q)) return;
    quizRecord(q, false, null);
    quizDraw();
  }
  // Each panel's questions at its top; its other contents hidden (quiz-blank) while one waits.
  function quizDraw() {
    var raceWait = raceQuizWaiting();
    if (raceWait !== Q.raceWait) {
      Q.raceWait = raceWait;
      document.body.classList.toggle('quiz-race-wait', raceWait);
      highlightLines();  // the listing's race marks, again
    }
    ['timing-panel', 'bits-panel', 'multigpu-panel'].forEach(function (pid) {
      var panel = $(pid);
      if (!panel) return;
      var box = panel.querySelector('.quiz-box'), qs = quizQs(pid);
      if (!qs.length) {
        if (box) box.remove();
        panel.classList.remove('quiz-blank');
        return;
      }
      if (!box) {
        box = document.createElement('div');
        box.className = 'quiz-box predict-box';
        var h = panel.querySelector('h3');
        panel.insertBefore(box, h ? h.nextSibling : panel.firstChild);
      }
      var waiting = false, html = '';
      qs.forEach(function (q) {
        var id = quizId(q), done = quizAnswered(q), it = quizItem(q), v = Q.verdict[id];
        if (!done && !(id in Q.t0)) Q.t0[id] = performance.now();
        waiting = waiting || !done;
        html += '<div class="quiz-q" data-quiz="' + esc(id) + '">';
        var say = lessonWords(it.say, it.say_zh);
        if (say) html += '<div class="predict-say">' + esc(say) + '</div>';
        html += '<div class="predict-ask">' + esc(said(q[3])) + '</div>';
        if (!done) {
          html += '<div class="predict-input">';
          if (q[2] === 'bits' || q[2] === 'bits_blocks') {
            html += '<button type="button" class="chip" data-n="1">' + esc(t('Yes')) + '</button><button type="button" ' +
              'class="chip" data-n="0">' + esc(t('No')) + '</button>';
          } else if (q[2] === 'fastest') {
            [32, 64, 128, 256, 512, 1024].forEach(function (n) {
              html += '<button type="button" class="chip" data-n="' + n + '">' + n + '</button>';
            });
          } else {
            html += '<input type="text" inputmode="decimal" autocomplete="off" aria-label="' + esc(t('your answer')) + '">' +
              ' <button type="button" class="quiz-check">' + esc(t('Check')) + '</button>';
          }
          html += ' <button type="button" class="quiz-show">' + esc(t('Show')) + '</button></div>';
        }
        if (!v && done) {  // answered in an earlier visit: its verdict from the record
          var a = P.answers.filter(function (x) { return x.key === quizKey(q) && x.lesson === q[0]; })[0];
          v = verdictOf(a.right, said(q[10]));
        }
        if (v) html += '<div class="predict-verdict ' + (v.right ? 'right' : 'wrong') + '">' + esc(v.text) + '</div>';
        html += '</div>';
      });
      box.innerHTML = html;
      panel.classList.toggle('quiz-blank', waiting);
      box.querySelectorAll('.quiz-q').forEach(function (el) {
        var id = el.dataset.quiz, input = el.querySelector('input');
        el.querySelectorAll('[data-n]').forEach(function (b) {
          b.onclick = function () { quizAnswer(id, [Number(b.dataset.n)], b.dataset.n); };
        });
        var check = function () {
          var s = input.value.trim();
          quizAnswer(id, /^-?\d+$/.test(s) ? [Number(s)] : [], s);
        };
        if (el.querySelector('.quiz-check')) el.querySelector('.quiz-check').onclick = check;
        if (input) input.onkeydown = function (e) { if (e.key === 'Enter') { e.preventDefault(); check(); } };
        if (el.querySelector('.quiz-show')) el.querySelector('.quiz-show').onclick = function () { quizShow(id); };
      });
    });
  }

  hook.predict = {
    state: function () {
      return { on: P.on, lesson: P.lesson ? P.lesson.name : '', step: S.step,
        pending: P.pending ? { step: P.pending.step, kind: P.pending.q[0], key: P.pending.q[5], text: P.pending.q[6],
          kernel: P.pending.tr ? P.pending.tr.kernel : '',
          float: P.pending.q[7], panel: PREDICT_PANEL[P.pending.q[0]] } : null,
        verdict: P.verdict ? { right: P.verdict.right, text: P.verdict.text } : null, answers: P.answers.length };
    },
    answer: function (nums, text) { return predictAnswer(nums || [], text || ''); },
    show: function () { predictReveal(false, null); },
    set: function (on, lesson) { return setPredict(on, lesson); },
    download: function () { return predictDownload(); },
    lessons: function () { return D.lessons || []; },
    clear: function () { P.answers = []; Q.verdict = {}; Q.tries = {}; Q.wrong = {}; predictSave(); predictScore(); quizDraw(); },
    // The lesson's questions about the session: their ids, kinds, keys and panels, and whether each is answered.
    quiz: function () {
      return quizQs().map(function (q) {
        return { id: quizId(q), kind: q[2], kernel: q[4], bs: q[5], key: q[6], text: q[7], lo: q[8], hi: q[9],
          panel: QUIZ_PANEL[q[2]], answered: quizAnswered(q), blank: $(QUIZ_PANEL[q[2]]).classList.contains('quiz-blank') };
      });
    },
    quizAnswer: function (id, nums, text) { return quizAnswer(id, nums || [], text || ''); },
    quizShow: function (id) { quizShow(id); }
  };
