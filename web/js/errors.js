  // ---- errors ---------------------------------------------------------------------------------
  var hook = { ready: false, error: null, renders: 0, exceptions: [], viewMs: {}, charts: {}, chartDraws: 0 };
  window.rs = hook;
  // msg: the message, or a function that says it in the page's language (said again after a language switch;
  // hook.error keeps its English).
  var errorShown = null;
  function showError(msg) {
    errorShown = msg;
    var words = typeof msg === 'function' ? msg() : String(msg);
    var e = $('rs-error');
    e.textContent = t('ReduceScope cannot show this recording: {0}\nThe page may be damaged or cut short. Export it ' +
      'again with `reducescope export SESSION --html FILE.html`, or open the .rssession file in ReduceScope.', words);
    e.hidden = false;
    hook.error = typeof msg === 'function' ? english(msg) : words;
    var b = $('rec-line');
    if (b && !hook.ready) b.textContent = t('The recorded session could not be loaded (see the message above).');
  }
  function renderError() { if (errorShown !== null) showError(errorShown); }
  // An Error whose message `words()` says in the page's language; errorOf(e) is what showError takes.
  function pageError(words) {
    var e = new Error(words());
    e.rsWords = words;
    return e;
  }
  function errorOf(e) { return e && e.rsWords ? e.rsWords : (e && e.message) || String(e); }
  window.addEventListener('error', function (ev) {
    hook.exceptions.push(String(ev.message));
    showError(function () { return t('a script error: {0}', ev.message); });
  });
  window.addEventListener('unhandledrejection', function (ev) {
    var r = ev.reason;
    hook.exceptions.push(String(r && r.message ? r.message : r));
    showError(r && r.rsWords ? r.rsWords : String(r && r.message ? r.message : r));
  });
