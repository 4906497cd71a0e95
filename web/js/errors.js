  // ---- errors ---------------------------------------------------------------------------------
  var hook = { ready: false, error: null, renders: 0, exceptions: [], viewMs: {}, charts: {}, chartDraws: 0 };
  window.rs = hook;
  function showError(msg) {
    var e = $('rs-error');
    e.textContent = 'ReduceScope cannot show this recording: ' + msg +
      '\nThe page may be damaged or cut short. Export it again with `reducescope export SESSION --html FILE.html`, ' +
      'or open the .rssession file in ReduceScope.';
    e.hidden = false;
    hook.error = msg;
    var b = $('rec-line');
    if (b && !hook.ready) b.textContent = 'The recorded session could not be loaded (see the message above).';
  }
  window.addEventListener('error', function (ev) {
    hook.exceptions.push(String(ev.message));
    showError('a script error: ' + ev.message);
  });
  window.addEventListener('unhandledrejection', function (ev) {
    var r = ev.reason;
    hook.exceptions.push(String(r && r.message ? r.message : r));
    showError(String(r && r.message ? r.message : r));
  });

