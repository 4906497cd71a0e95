  // ---- decode ---------------------------------------------------------------------------------
  var CRC_TABLE = (function () {
    var tab = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      tab[n] = c >>> 0;
    }
    return tab;
  })();
  function crc32(bytes, from) {
    var c = 0xffffffff;
    for (var i = from; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }
  function u32(b, at) { return (b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24) >>> 0; }

  // Its failures say the words again in the page's language after a switch (pageError, errors.js). `el`: the
  // element holding the container (the data block; the dictionary, #rs-i18n, is packed the same way).
  function readContainer(el) {
    if (!el) throw pageError(function () { return t('the page has no data block'); });
    var text = el.textContent.replace(/\s+/g, '');
    var want = Number(el.getAttribute('data-length'));
    if (!(want > 0)) throw pageError(function () { return t('the data block has no length attribute'); });
    if (text.length !== want) {
      throw pageError(function () {
        return text.length < want ? t('the data block is truncated: {0} of {1} characters', text.length, want)
          : t('the data block is too long: {0} of {1} characters', text.length, want);
      });
    }
    var bin;
    try { bin = atob(text); } catch (e) { throw pageError(function () { return t('the data block is corrupt: it is not base64'); }); }
    var b = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
    var magic = 'RSWEB';
    for (i = 0; i < 5; i++) {
      if (b[i] !== magic.charCodeAt(i)) throw pageError(function () { return t('the data block is corrupt: it does not start with RSWEB'); });
    }
    if (u32(b, 8) !== 1) {
      throw pageError(function () { return t('the data block is format version {0}; this page reads version 1', u32(b, 8)); });
    }
    var parts = u32(b, 12), body = u32(b, 16), crc = u32(b, 20);
    if (b.length - 24 !== body) {
      throw pageError(function () { return t('the data block is truncated: {0} of {1} bytes', b.length - 24, body); });
    }
    if (crc32(b, 24) !== crc) throw pageError(function () { return t('the data block is corrupt (its CRC-32 does not match)'); });
    var list = [], at = 24;
    for (var p = 0; p < parts; p++) {
      var inside = function () { return t('the data block ends inside part {0}', p); };
      if (b.length - at < 8) throw pageError(inside);
      var packed = u32(b, at), raw = u32(b, at + 4);
      at += 8;
      if (b.length - at < packed) throw pageError(inside);
      list.push({ bytes: b.subarray(at, at + packed), raw: raw });
      at += packed;
    }
    return list;
  }

  // The part's bytes inflated (a Promise of a Uint8Array), checked against the size the container gives.
  // what(): the part in words ("the index"), in the page's language.
  function inflateBytes(part, what) {
    if (typeof DecompressionStream === 'undefined') {
      return Promise.reject(pageError(function () {
        return t('this browser has no DecompressionStream (it needs Chrome 80, Firefox 113, Safari 16.4 or newer)');
      }));
    }
    var stream = new Blob([part.bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).arrayBuffer().then(function (buf) {
      if (buf.byteLength !== part.raw) {
        throw pageError(function () { return t('{0} inflates to {1} bytes, not {2}', what(), buf.byteLength, part.raw); });
      }
      return new Uint8Array(buf);
    }, function (e) {
      throw pageError(function () { return t('{0} does not inflate ({1})', what(), e && e.message ? e.message : e); });
    });
  }
  function inflateJson(part, what) {
    return inflateBytes(part, what).then(function (b) { return JSON.parse(new TextDecoder().decode(b)); });
  }
  // One trace of a kernel's part (its JSON texts one per line): the bytes the index entry names.
  function traceJson(bytes, entry, what) {
    var at = entry.at || 0, n = entry.bytes;
    if (!(n > 0) || at + n > bytes.length) {
      throw pageError(function () { return t('{0} is outside its part ({1} bytes)', what(), bytes.length); });
    }
    return JSON.parse(new TextDecoder().decode(bytes.subarray(at, at + n)));
  }
