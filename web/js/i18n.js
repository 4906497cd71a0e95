  // ---- i18n -----------------------------------------------------------------------------------
  // The page's words in English or Chinese (issue 31, docs/chinese.md). The exporter packs into #rs-i18n the
  // Chinese dictionary {English msgid: translation}, looked up with gettext in the catalogue built from
  // po/zh_CN.po, and the language the page opens in (`export --html --lang zh`); #lang=zh or #lang=en in the
  // address overrides it. The switch in the header changes the language in place.
  //   t(msgid, a, b)       the translation of msgid with {0}, {1} replaced by a, b (msgid itself in English or
  //                        where the dictionary lacks it). xgettext collects t('...') (po/update.sh).
  //   data-t="msgid"       an element whose text is the message (applyStatic); in Chinese its title gives the
  //                        English. data-t-html: the same with markup in the message; data-t-title: a title.
  //                        Attribute values are plain ASCII with no entities, so that they equal the msgid.
  //   said([k, a, b])      t(msgs[k], a, b) for a sentence the exporter composed from the trace's facts
  //   onLanguage(f)        f() runs after each switch (the renderers redraw their words).
  var I18N = { lang: 'en', zh: {} }, langHooks = [];
  function t(msgid) {
    var s = I18N.lang === 'zh' && Object.prototype.hasOwnProperty.call(I18N.zh, msgid) ? I18N.zh[msgid] : msgid;
    for (var i = 1; i < arguments.length; i++) s = s.split('{' + (i - 1) + '}').join(String(arguments[i]));
    return s;
  }
  // A sentence the exporter made with the explain layer (app/explain/, issue 38): [k, args...] with k the index of
  // its msgid in the index part's "msgs" (or [msgid, args...]), formatted here with the dictionary as t() does;
  // '' for none.
  function said(a) {
    if (!a) return '';
    if (typeof a === 'string') return a;  // text as recorded (a stored sentence in other words)
    // An argument that is an array is a sentence of its own (explain::Sentence::nested), said in the same language.
    var args = a.slice(1).map(function (x) { return Array.isArray(x) ? said(x) : x; });
    return t.apply(null, [typeof a[0] === 'number' ? D.msgs[a[0]] : a[0]].concat(args));
  }
  // What goes between two sentences: a space in English, nothing after a Chinese full stop (issue 38).
  function gap() { return I18N.lang === 'zh' ? '' : ' '; }
  // What separates the items of a list of clauses: a full-width semicolon in Chinese.
  function comma() { return I18N.lang === 'zh' ? '\uff0c' : ', '; }
  function semi() { return I18N.lang === 'zh' ? '\uff1b' : '; '; }
  // Text in parentheses after a word: full-width parentheses in Chinese.
  function paren(s) { return I18N.lang === 'zh' ? '\uff08' + s + '\uff09' : ' (' + s + ')'; }
  // An input pattern's name (kernels/input.cpp, kernels/histogram.cpp) in the page's language.
  function patternName(p) {
    var names = { ones: t('ones'), random: t('random'), iota: t('iota'), text: t('text'), uniform: t('uniform'),
                  skewed: t('skewed') };
    return names[p] || p;
  }
  // A global buffer's name (tracing/trace_io.cpp's to_string(GlobalBuffer)): the kernels' own array names, and the
  // input read as bytes.
  function bufName(b) { return b === 'input bytes' ? t('input bytes') : b; }
  function onLanguage(f) { langHooks.push(f); }
  function applyStatic() {
    var zh = I18N.lang === 'zh';
    document.querySelectorAll('[data-t]').forEach(function (el) {
      var id = el.getAttribute('data-t');
      el.textContent = t(id);
      if (!el.hasAttribute('data-t-title')) el.title = zh && t(id) !== id ? id : '';
    });
    document.querySelectorAll('[data-t-html]').forEach(function (el) { el.innerHTML = t(el.getAttribute('data-t-html')); });
    document.querySelectorAll('[data-t-title]').forEach(function (el) { el.title = t(el.getAttribute('data-t-title')); });
    document.documentElement.lang = zh ? 'zh-CN' : 'en';
    var b = $('lang-switch');
    if (b) {
      b.textContent = zh ? 'English' : '\u4e2d\u6587';
      b.title = zh ? 'Show this page in English' : 'Show this page in Chinese';
    }
  }
  function setLanguage(lang) {
    I18N.lang = lang === 'zh' ? 'zh' : 'en';
    applyStatic();
    langHooks.forEach(function (f) { f(); });
    hook.lang = I18N.lang;
  }
  // A Promise: the dictionary {lang, zh} is packed as the data is (base64 of a one-part container, deflated;
  // data-lang says the language the page opens in, also where the dictionary is damaged: the page then stays in
  // English words).
  function loadI18n() {
    var el = $('rs-i18n');
    if (el) I18N.lang = el.getAttribute('data-lang') === 'zh' ? 'zh' : 'en';
    var words;
    try {
      words = inflateJson(readContainer(el)[0], function () { return 'the dictionary'; });
    } catch (e) {
      words = Promise.reject(e);
    }
    return words.then(function (j) {
      if (j && j.zh) I18N.zh = j.zh;
      if (j && j.lang) I18N.lang = j.lang === 'zh' ? 'zh' : 'en';
    }, function () {
      I18N.zh = {};
    }).then(function () {
      var m = /(?:^#|[#&])lang=(zh|en)\b/.exec(location.hash);
      if (m) I18N.lang = m[1];
      setLanguage(I18N.lang);
      var b = $('lang-switch');
      if (b) b.onclick = function () { setLanguage(I18N.lang === 'zh' ? 'en' : 'zh'); this.blur(); };
    });
  }
