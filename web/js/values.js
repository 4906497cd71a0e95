  // ---- values ---------------------------------------------------------------------------------
  var f32 = new Float32Array(1), i32 = new Int32Array(f32.buffer);
  // A 32-bit value for people: int32, or float32 in its shortest round-trip form.
  function fmt(bits, isFloat) {
    if (!isFloat) return String(bits | 0);
    i32[0] = bits | 0;
    var v = f32[0];
    if (!isFinite(v) || v === 0) return String(v);
    for (var p = 1; p <= 9; p++) {
      var s = v.toPrecision(p);
      if (Math.fround(Number(s)) === v) return String(Number(s));
    }
    return String(v);
  }
  // A value shortened to fit a small cell, as the window does: 3812 -> "3.8k", 123456 -> "123k"; with `fits`
  // characters of room, "3.8k" becomes "4k". A float (issue 38: the float32 grid was blank): 3 significant digits
  // (128.66483 -> "129"), then fewer, then e-notation ("1e-7"); 1000 and more as an integer is. The exact value
  // shows on hover.
  function compact(s, fits) {
    var v = Number(s);
    if (!/^-?\d+$/.test(s) && isFinite(v) && /[.e]/.test(s)) {
      if (Math.abs(v) >= 1000) return compact(String(Math.round(v)), fits);
      if (fits && s.length <= fits) return s;
      var tries = [3, 2, 1].map(function (p) { return String(Number(v.toPrecision(p))); });
      tries.push(v.toExponential(0).replace('e+', 'e'));
      for (var k = 0; k < tries.length; k++) if (!fits || tries[k].length <= fits) return tries[k];
      return tries[tries.length - 1];
    }
    if (!/^-?\d+$/.test(s) || Math.abs(v) < 1000) return s;
    var units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
    for (var i = 0; i < units.length; i++) {
      var x = v / units[i][0];
      if (Math.abs(x) < 1) continue;
      var short = (Math.abs(x) < 10 ? x.toFixed(1) : Math.round(x).toString()) + units[i][1];
      return fits && short.length > fits ? Math.round(x) + units[i][1] : short;
    }
    return s;
  }
  // A kernel name as HTML that a narrow column may break only between its words: after "::" and "_", and between a
  // lower-case letter or digit and the capital that starts the next word (reduceNeighbored -> reduce|Neighbored,
  // cub::DeviceReduceKernel -> cub::|Device|Reduce|Kernel). Issue 38: the sidebar broke "reduceNeighbore/d".
  function wordBreaks(name) {
    return esc(name).replace(/(::|_)/g, '$1<wbr>').replace(/([a-z0-9])([A-Z])/g, '$1<wbr>$2');
  }
  function popcount(m) {
    m = m >>> 0;
    var c = 0;
    while (m) { m &= m - 1; c++; }
    return c;
  }
  function lanesOf(mask) {
    var out = [];
    for (var l = 0; l < 32; l++) if ((mask >>> l) & 1) out.push(l);
    return out;
  }
  // innerHTML / textContent set only when it changes, compared with what was set last (reading
  // innerHTML back would serialise the DOM on every step).
  function setHtml(el, h) { if (el._rsHtml !== h) { el._rsHtml = h; el.innerHTML = h; } }
  function setText(el, s) { if (el._rsHtml !== '\u0000' + s) { el._rsHtml = '\u0000' + s; el.textContent = s; } }
  function hex(m) { return ('0000000' + (m >>> 0).toString(16)).slice(-8); }
  function esc(s) {
    return String(s).replace(/[&<>\u0022]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }
  // Steps as ranges for messages: "2-4, 7".
  function stepRanges(list) {
    var out = [], i = 0;
    while (i < list.length) {
      var j = i;
      while (j + 1 < list.length && list[j + 1] === list[j] + 1) j++;
      out.push(j > i ? list[i] + DASH + list[j] : String(list[i]));
      i = j + 1;
    }
    return out.join(', ');
  }
  // What ended a step (the index's end kind) and an access's kind, in words.
  function endName(end) {
    switch (end) {
      case 0: return '__syncthreads()';
      case 1: return '__syncwarp()';
      case 2: return t('end of kernel');
      case 3: return t('a warp shuffle');
      case 4: return t('a warp reduce');
      default: return undefined;
    }
  }
  function kindName(k) {
    switch (k) {
      case 0: return t('load');
      case 1: return t('store');
      case 4: return t('global load');
      case 5: return t('global store');
      case 6: return t('shuffle');
      case 7: return t('warp reduce');
      case 8: return t('shared atomic');
      case 9: return t('global atomic');
      default: return undefined;
    }
  }
  // What f() says in English: the test hook's values (window.rs) stay English whatever the page's language.
  function english(f) {
    var lang = I18N.lang;
    I18N.lang = 'en';
    try {
      return f();
    } finally {
      I18N.lang = lang;
    }
  }
