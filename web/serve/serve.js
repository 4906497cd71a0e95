// reducescope serve's page (issue 55, docs/serve.md): a student writes a kernel in CodeMirror, runs or checks it on
// the course's GPU, and sees the verdict; the instructor sees the class's latest verdicts. Everything comes from
// the server's API with the link's token; every text from the server is put in the page as text (textContent),
// never as HTML. The words are English here and translated by the server's catalogue (/api/words): each t("...")
// literal of this file is one of the catalogue's messages (the server reads them from this file). The checks
// arrive as message ids with their arguments (check --json's "said"), said here in the reader's language.
(function () {
  "use strict";
  var parts = location.pathname.split("/");
  var token = parts[2] || "";
  var words = {};
  var lang = localStorage.getItem("rs-serve-lang") || ((navigator.language || "").indexOf("zh") === 0 ? "zh" : "en");
  var me = null, editor = null, current = null, mine = [], everyone = {}, shown = null;

  function $(id) { return document.getElementById(id); }
  function t(s) { return words[s] || s; }
  function fmt(s, args) {
    return s.replace(/\{(\d)\}/g, function (m, k) { return k < args.length ? args[k] : m; });
  }
  // [id, arg, ...] with nested arrays for arguments that are sentences: in the reader's language.
  function said(a) {
    if (!Array.isArray(a) || !a.length) return "";
    var args = a.slice(1).map(function (x) { return Array.isArray(x) ? said(x) : String(x); });
    return fmt(t(a[0]), args);
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function fail(msg) { var e = $("error"); e.textContent = msg; e.hidden = !msg; }

  function api(path, opts) {
    opts = opts || {};
    opts.headers = Object.assign({"Authorization": "Bearer " + token}, opts.headers || {});
    return fetch(path, opts).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) throw new Error(j.error || (t("the server answered") + " " + r.status));
        return j;
      });
    });
  }

  function applyWords() {
    var fixed = {"l-exercise": t("Exercise"), "start": t("Start from the exercise's file"), "run": t("Run"),
                 "check": t("Check"), "h-verdict": t("Verdict"), "h-mine": t("Your submissions"),
                 "h-class": t("The class's latest verdicts"), "l-lesson": t("Lesson"),
                 "h-trace": t("The trace of your kernel"), "room-open": t("Open the next question"),
                 "room-vote2": t("Second vote"), "room-reveal": t("Reveal")};
    Object.keys(fixed).forEach(function (id) { if ($(id)) $(id).textContent = fixed[id]; });
    $("lang").textContent = lang === "zh" ? "English" : "\u4e2d\u6587";
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    if (me) {
      var sel = $("exercise"), keep = sel.value;
      clear(sel);
      me.exercises.forEach(function (x) { var o = el("option", x.name + ": " + t(x.title)); o.value = x.name; sel.appendChild(o); });
      if (keep) sel.value = keep;
    }
  }

  function loadWords() {
    return api("/api/words?lang=" + lang).then(function (j) { words = j.words || {}; applyWords(); redraw(); });
  }

  // The server's stages (runner.cpp) in the reader's language.
  function stageText(stage) {
    var m = /^on GPU (\d+)$/.exec(stage);
    if (m) return fmt(t("on GPU {0}"), [m[1]]);
    if (stage === "compiling") return t("compiling");
    m = /^tracing on GPU (\d+)$/.exec(stage);
    if (m) return fmt(t("tracing on GPU {0}"), [m[1]]);
    if (stage === "compiling (no GPU on this server)") return t("compiling (no GPU on this server)");
    return stage;
  }

  // A run's one line: a compile error's from its diagnostics, in the reader's language; else the server's.
  function lineText(r) {
    var errors = (r.diagnostics || []).filter(function (d) { return d.severity !== "warning" && d.severity !== "remark"; });
    if (errors.length && r.exit !== 0) return fmt(t("does not compile: {0} errors, the first at line {1}"), [errors.length, errors[0].line]);
    return r.line || "";
  }

  function stateText(s) {
    if (s.state === "queued") return fmt(t("waiting: place {0} in the queue"), [s.place || "?"]);
    if (s.state === "running") return s.stage ? fmt(t("running: {0}"), [stageText(s.stage)]) : t("running");
    return t("done");
  }

  function checksCell(s) {
    if (s.checks === undefined || s.checks === null) return "";
    return fmt(t("{0} of {1} checks passed"), [s.passed, s.checks]);
  }

  // The verdict of one submission (with its result) into the elements of `ids`.
  function drawVerdict(s, ids, ed) {
    var line = $(ids.line), diags = clear($(ids.diagnostics)), checks = clear($(ids.checks));
    if (ids.output) { $(ids.output).hidden = true; }
    if (ed) markLines(ed, []);
    if (!s) { line.textContent = ""; return; }
    if (s.state !== "done" || !s.result) { line.textContent = stateText(s); return; }
    var r = s.result, c = r.check;
    line.textContent = c ? checksCell(s) : lineText(r);
    (r.diagnostics || []).forEach(function (d) {
      var li = el("li", fmt(t("line {0}: {1}: {2}"), [d.line, d.severity, d.message]));
      li.dataset.line = d.line;
      li.addEventListener("click", function () { if (ed) { ed.focus(); ed.setCursor({line: d.line - 1, ch: Math.max(0, d.column - 1)}); } });
      diags.appendChild(li);
    });
    if (ed) markLines(ed, r.diagnostics || []);
    if (c && Array.isArray(c.checks)) {
      c.checks.forEach(function (k) {
        var tr = el("tr");
        var ran = k.ran !== false;
        tr.appendChild(el("td", !ran ? "\u2013" : k.pass ? "\u2713" : "\u2717", !ran ? "none" : k.pass ? "pass" : "fail"));
        var sd = k.said || {};
        var name = sd.name ? said(sd.name) : k.name, figure = sd.figure ? said(sd.figure) : k.figure;
        var hint = sd.hint ? said(sd.hint) : k.hint;
        var td = el("td");
        td.appendChild(el("strong", name));
        td.appendChild(document.createTextNode(": " + figure));
        if (!k.pass && ran && hint) td.appendChild(el("div", fmt(t("hint: {0}"), [hint]), "hint"));
        tr.appendChild(td);
        checks.appendChild(tr);
      });
    }
    if (ids.output && r.output && !c) { $(ids.output).hidden = false; $(ids.output).textContent = r.output; }
    if (ids.output) drawTrace(s);
  }

  // A Run's trace: the page `export --html` made of it, in a frame (the same views as the bundled kernels').
  function drawTrace(s) {
    var r = s.result || {}, frame = $("trace-frame"), want = r.trace ? "/api/submissions/" + s.id + "/trace.html?token=" +
      encodeURIComponent(token) : "";
    $("trace").hidden = !(r.trace || r.trace_error);
    $("trace-note").textContent = r.trace ? fmt(t("Block 0 at N = {0}, {1} threads per block, traced on the server's GPU."),
                                                [r.trace_n, r.trace_block_size]) :
                                  r.trace_error ? fmt(t("No trace: {0}"), [r.trace_error]) : "";
    frame.hidden = !r.trace;
    if (frame.dataset.src !== want) { frame.dataset.src = want; frame.src = want || "about:blank"; }
  }

  function markLines(ed, diags) {
    if (!ed.markLines) return;
    ed.markLines(diags);
  }

  function makeEditor(textarea, readOnly) {
    if (!window.CodeMirror) {  // CodeMirror missing on the server: a plain text area
      return {getValue: function () { return textarea.value; }, setValue: function (v) { textarea.value = v; },
              focus: function () { textarea.focus(); }, setCursor: function () {}, markLines: null, plain: true};
    }
    var cpp = CodeMirror.resolveMode("text/x-c++src");
    var cuda = Object.assign({}, cpp, {name: "clike", keywords: Object.assign({}, cpp.keywords)});
    ("__global__ __device__ __host__ __shared__ __constant__ __restrict__ __syncthreads __syncwarp __threadfence " +
     "__shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync __reduce_add_sync __activemask __ballot_sync " +
     "atomicAdd atomicInc atomicCAS threadIdx blockIdx blockDim gridDim warpSize").split(" ")
      .forEach(function (w) { cuda.keywords[w] = true; });
    CodeMirror.defineMIME("text/x-cuda", cuda);
    var cm = CodeMirror.fromTextArea(textarea, {mode: "text/x-cuda", lineNumbers: true, indentUnit: 2,
                                                readOnly: !!readOnly, gutters: ["rs-marks", "CodeMirror-linenumbers"]});
    var marked = [];
    cm.markLines = function (diags) {
      marked.forEach(function (h) { cm.removeLineClass(h, "background", "cm-error-line"); cm.removeLineClass(h, "background", "cm-warning-line"); });
      marked = [];
      cm.clearGutter("rs-marks");
      diags.forEach(function (d) {
        if (!d.line || d.line > cm.lineCount()) return;
        var warn = d.severity === "warning" || d.severity === "remark";
        var h = cm.addLineClass(d.line - 1, "background", warn ? "cm-warning-line" : "cm-error-line");
        var mark = el("span", warn ? "!" : "\u2717", warn ? "" : "fail");
        mark.title = d.message;
        cm.setGutterMarker(d.line - 1, "rs-marks", mark);
        marked.push(h);
      });
    };
    return cm;
  }

  // ---- the student's page ----
  function drawMine() {
    var tb = clear($("mine"));
    mine.forEach(function (s) {
      var tr = el("tr", null, "pick");
      tr.appendChild(el("td", "#" + s.id));
      tr.appendChild(el("td", s.exercise));
      tr.appendChild(el("td", t(s.kind === "run" ? "Run" : "Check")));
      tr.appendChild(el("td", s.state === "done" ? (s.checks !== undefined ? checksCell(s) : s.line) : stateText(s)));
      tr.addEventListener("click", function () { openMine(s.id, true); });
      tb.appendChild(tr);
    });
  }

  var opens = 0;  // the latest open or send: an answer to an older one is dropped
  function openMine(id, loadSource) {
    var ticket = ++opens;
    return api("/api/submissions/" + id).then(function (s) {
      if (ticket !== opens) return;
      current = s;
      if (loadSource) { editor.setValue(s.source); $("exercise").value = s.exercise; }
      drawVerdict(s, {line: "line", diagnostics: "diagnostics", checks: "checks", output: "output"}, editor);
      $("status").textContent = s.state === "done" ? "" : stateText(s);
    }).catch(function (e) { fail(e.message); });
  }

  function submit(kind) {
    fail("");
    ++opens;
    var body = {exercise: $("exercise").value, kind: kind, source: editor.getValue()};
    $("status").textContent = t("sending");
    api("/api/submit", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (j) {
        current = {id: j.id, state: "queued", place: j.place};
        $("status").textContent = stateText(current);
        drawVerdict(current, {line: "line", diagnostics: "diagnostics", checks: "checks", output: "output"}, editor);
        watch(j.id);
        return refreshMine();
      })
      .catch(function (e) { $("status").textContent = ""; fail(e.message); });
  }

  // Besides the event stream (which a page that has just opened may not have yet): asks every 2 s until the
  // submission `id` is done, while it is the one shown.
  function watch(id) {
    setTimeout(function () {
      if (!current || current.id !== id || current.state === "done") return;
      api("/api/submissions/" + id).then(function (s) {
        if (s.state === "done") { if (current && current.id === id && current.state !== "done") openMine(id, false); }
        else watch(id);
      }).catch(function () { watch(id); });
    }, 2000);
  }

  function refreshMine() {
    return api("/api/submissions").then(function (j) { mine = j.submissions; drawMine(); });
  }

  function onChange(s) {
    if (me.role === "instructor") {
      if (!everyone[s.student] || everyone[s.student].id <= s.id) everyone[s.student] = s;
      drawClass();
      if (shown && shown === s.id && s.state === "done") openTheirs(s.id);
      return;
    }
    var i = mine.findIndex(function (x) { return x.id === s.id; });
    if (i >= 0) mine[i] = s; else mine.unshift(s);
    drawMine();
    if (current && current.id === s.id) {
      if (s.state === "done") openMine(s.id, false);
      else { $("status").textContent = stateText(s); $("line").textContent = stateText(s); }
    }
  }

  function listen() {
    if (!window.EventSource) { setInterval(function () { (me.role === "instructor" ? refreshClass : refreshMine)(); }, 3000); return; }
    var es = new EventSource("/api/events?token=" + encodeURIComponent(token));
    es.onmessage = function (ev) { try { onChange(JSON.parse(ev.data)); } catch (e) { /* not ours */ } };
    es.addEventListener("room", function () { refreshRoom(); });
    es.onopen = function () { (me.role === "instructor" ? refreshClass : refreshMine)(); refreshRoom(); };
  }

  function startStudent() {
    $("student").hidden = false;
    editor = makeEditor($("source"), false);
    $("start").addEventListener("click", function () {
      api("/api/start?exercise=" + encodeURIComponent($("exercise").value)).then(function (j) { editor.setValue(j.source); })
        .catch(function (e) { fail(e.message); });
    });
    $("run").addEventListener("click", function () { submit("run"); });
    $("check").addEventListener("click", function () { submit("check"); });
    $("exercise").addEventListener("change", function () { localStorage.setItem("rs-serve-exercise", $("exercise").value); });
    var keep = localStorage.getItem("rs-serve-exercise");
    if (keep) $("exercise").value = keep;
    return refreshMine().then(function () {
      if (mine.length) return openMine(mine[0].id, true);
      return api("/api/start?exercise=" + encodeURIComponent($("exercise").value)).then(function (j) { editor.setValue(j.source); });
    });
  }

  // ---- the instructor's page ----
  var theirs = null;
  function drawClass() {
    var tb = clear($("class"));
    var head = el("tr");
    [t("student"), t("name"), t("exercise"), t("state"), t("verdict")].forEach(function (h) { head.appendChild(el("th", h)); });
    tb.appendChild(head);
    (me.students || []).forEach(function (p) {
      var s = everyone[p.id];
      var tr = el("tr", null, s ? "pick" : "");
      tr.dataset.student = p.id;
      tr.appendChild(el("td", p.id));
      tr.appendChild(el("td", p.name));
      tr.appendChild(el("td", s ? s.exercise + " (" + t(s.kind === "run" ? "Run" : "Check") + ")" : ""));
      tr.appendChild(el("td", s ? stateText(s) : t("nothing yet")));
      var v = el("td", s && s.state === "done" ? (s.checks !== undefined ? checksCell(s) : s.line) : "");
      if (s && s.checks !== undefined) v.className = s.passed === s.checks ? "pass" : "fail";
      tr.appendChild(v);
      if (s) tr.addEventListener("click", function () { openTheirs(s.id); });
      tb.appendChild(tr);
    });
  }

  function openTheirs(id) {
    shown = id;
    return api("/api/submissions/" + id).then(function (s) {
      $("h-one").textContent = fmt(t("{0}: submission {1}"), [s.student, "#" + s.id]);
      $("their").hidden = false;  // shown once a submission is opened
      theirs.setValue(s.source);
      if (theirs.refresh) theirs.refresh();  // CodeMirror measures itself again once visible
      drawVerdict(s, {line: "their-line", diagnostics: "their-diagnostics", checks: "their-checks"}, theirs);
    }).catch(function (e) { fail(e.message); });
  }

  function refreshClass() {
    return api("/api/submissions").then(function (j) {
      me.students = j.students;
      everyone = {};
      j.submissions.forEach(function (s) { if (!everyone[s.student] || everyone[s.student].id < s.id) everyone[s.student] = s; });
      drawClass();
    });
  }

  function startInstructor() {
    $("instructor").hidden = false;
    theirs = makeEditor($("their-source"), true);
    return refreshClass();
  }


  // ---- the room (peer instruction, issue 56) ----
  var room = null;
  function refreshRoom() {
    return api("/api/room").then(function (j) { room = j; drawRoom(); }).catch(function (e) { fail(e.message); });
  }

  function roomAnswer() {
    var q = room.question, body = {poll: room.poll, vote: room.vote};
    if (q.kind === "warps") {
      body.numbers = Array.prototype.slice.call(document.querySelectorAll("#room-input input:checked"))
        .map(function (x) { return parseInt(x.value, 10); });
      if (!body.numbers.length) body.text = "none";
    } else {
      var v = ($("room-answer") || {}).value || "";
      if (q.kind === "value") body.text = v; else if (/^-?\d+$/.test(v.trim())) body.numbers = [parseInt(v, 10)]; else body.text = v;
    }
    api("/api/room/answer", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(refreshRoom).catch(function (e) { fail(e.message); });
  }

  function drawRoomInput(q) {
    var box = clear($("room-input"));
    if (q.kind === "warps") {
      for (var w = 0; w < q.warps; ++w) {
        var l = el("label"), c = el("input");
        c.type = "checkbox"; c.value = w; c.name = "warp";
        l.appendChild(c); l.appendChild(document.createTextNode(" " + fmt(t("warp {0}"), [w])));
        box.appendChild(l);
      }
    } else {
      var i = el("input");
      i.id = "room-answer"; i.type = q.kind === "value" ? "text" : "number";
      box.appendChild(i);
    }
    var b = el("button", t("Answer"));
    b.type = "button"; b.id = "room-send";
    b.addEventListener("click", roomAnswer);
    box.appendChild(b);
  }

  function drawDistribution() {
    var box = clear($("room-dist"));
    if (!room.votes) return;
    var answered = room.votes[room.votes.length - 1].answers, present = room.present || 0;
    box.appendChild(el("p", present >= answered ? fmt(t("{0} of {1} present answered"), [answered, present]) :
                                                  fmt(t("{0} answered"), [answered])));
    var row = el("div", null, "votes");
    room.votes.forEach(function (v) {
      var col = el("div", null, "vote");
      col.dataset.vote = v.vote;
      col.appendChild(el("h3", v.vote === 1 ? t("First vote") : t("Second vote")));
      var most = Math.max.apply(null, [1].concat(v.bins.map(function (b) { return b.count; })));
      v.bins.forEach(function (b) {
        var bar = el("div", null, "bar" + (room.state === "revealed" && b.right ? " right" : ""));
        bar.dataset.answer = b.answer;
        bar.dataset.count = b.count;
        bar.appendChild(el("span", b.answer, "label"));
        var fill = el("span", null, "fill");
        fill.style.width = (12 * b.count / most) + "em";
        bar.appendChild(fill);
        bar.appendChild(el("span", String(b.count), "count"));
        col.appendChild(bar);
      });
      row.appendChild(col);
    });
    box.appendChild(row);
  }

  function drawRoom() {
    var instructor = me.role === "instructor";
    $("room").hidden = !(instructor || (room && room.question));
    $("room-control").hidden = !instructor;
    if (instructor && room.lessons) {
      var sel = $("room-lesson"), keep = sel.value;
      clear(sel);
      room.lessons.forEach(function (l) {
        var o = el("option", (lang === "zh" && l.title.zh ? l.title.zh : l.title.en) + " (" + l.questions + ")");
        o.value = l.name; sel.appendChild(o);
      });
      if (keep) sel.value = keep; else if (room.lesson) sel.value = room.lesson;
    }
    if (!room || !room.question) {
      $("room-head").textContent = instructor ? t("No question open yet") : "";
      clear($("room-input")); $("room-ask").textContent = ""; $("room-say").textContent = ""; $("room-status").textContent = "";
      clear($("room-dist"));
      return;
    }
    var q = room.question;
    $("room-head").textContent = (q.of ? fmt(t("Question {0} of {1}: {2} at {3} threads, before step {4}"),
                                             [room.ordinal + 1, q.of, q.kernel, q.block_size, q.step]) :
                                  fmt(t("{0} at {1} threads, before step {2}"), [q.kernel, q.block_size, q.step])) +
      (room.vote === 2 ? " \u2013 " + t("Second vote") : "");
    $("room-say").textContent = lang === "zh" && q.say.zh ? q.say.zh : q.say.en;
    $("room-ask").textContent = said(q.ask);
    var status = $("room-status");
    if (instructor) {
      clear($("room-input"));
      status.textContent = room.state === "revealed" ? fmt(t("The answer: {0}. {1}"), [room.key, said(room.reveal)]) :
                           room.state === "open" ? t("Open: the room is answering") : t("Closed");
      drawDistribution();
      return;
    }
    if (room.state === "open" && room.mine === undefined) {
      if (!$("room-send") || $("room-input").dataset.poll !== room.poll + "/" + room.vote) {
        drawRoomInput(q);
        $("room-input").dataset.poll = room.poll + "/" + room.vote;
      }
      status.textContent = room.vote === 2 ? t("Talk it over with your neighbour, then answer again") : "";
    } else {
      clear($("room-input"));
      $("room-input").dataset.poll = "";
      if (room.state === "revealed") {
        status.textContent = fmt(t("The answer: {0}. {1}"), [room.key, said(room.verdict)]);
        status.className = room.right === true ? "pass" : room.right === false ? "fail" : "";
      } else {
        status.className = "";
        status.textContent = room.mine !== undefined ? fmt(t("Your answer: {0}. Wait for the reveal."), [room.mine]) :
                                                       t("The question is closed");
      }
    }
  }

  function startRoom() {
    if (me.role === "instructor") {
      $("room-open").addEventListener("click", function () {
        api("/api/room/open", {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify({lesson: $("room-lesson").value})}).then(refreshRoom)
          .catch(function (e) { fail(e.message); });
      });
      $("room-vote2").addEventListener("click", function () {
        api("/api/room/vote2", {method: "POST"}).then(refreshRoom).catch(function (e) { fail(e.message); });
      });
      $("room-reveal").addEventListener("click", function () {
        api("/api/room/reveal", {method: "POST"}).then(refreshRoom).catch(function (e) { fail(e.message); });
      });
    }
    return refreshRoom();
  }

  function redraw() {
    if (!me) return;
    if (room) drawRoom();
    if (me.role === "instructor") { drawClass(); if (shown) openTheirs(shown); }
    else { drawMine(); if (current && current.id) openMine(current.id, false); }
  }

  $("lang").addEventListener("click", function () {
    lang = lang === "zh" ? "en" : "zh";
    localStorage.setItem("rs-serve-lang", lang);
    loadWords().catch(function (e) { fail(e.message); });
  });

  api("/api/me").then(function (j) {
    me = j;
    $("who").textContent = me.name + (me.role === "instructor" ? "" : " (" + me.id + ")");
    return loadWords();
  }).then(function () {
    return me.role === "instructor" ? startInstructor() : startStudent();
  }).then(startRoom).then(listen).catch(function (e) { fail(e.message); });

  window.rsServe = {said: said, state: function () { return {me: me, mine: mine, current: current, everyone: everyone, room: room}; }};
})();
