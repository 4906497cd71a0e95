  // ---- decode ---------------------------------------------------------------------------------
  var CRC_TABLE = (function () {
    var t = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })();
  function crc32(bytes, from) {
    var c = 0xffffffff;
    for (var i = from; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }
  function u32(b, at) { return (b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24) >>> 0; }

  function readContainer() {
    var el = $('rs-data');
    if (!el) throw new Error('the page has no data block');
    var text = el.textContent.replace(/\s+/g, '');
    var want = Number(el.getAttribute('data-length'));
    if (!(want > 0)) throw new Error('the data block has no length attribute');
    if (text.length !== want) {
      throw new Error('the data block is ' + (text.length < want ? 'truncated' : 'too long') + ': ' + text.length +
        ' of ' + want + ' characters');
    }
    var bin;
    try { bin = atob(text); } catch (e) { throw new Error('the data block is corrupt: it is not base64'); }
    var b = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
    var magic = 'RSWEB';
    for (i = 0; i < 5; i++) {
      if (b[i] !== magic.charCodeAt(i)) throw new Error('the data block is corrupt: it does not start with RSWEB');
    }
    if (u32(b, 8) !== 1) throw new Error('the data block is format version ' + u32(b, 8) + '; this page reads version 1');
    var parts = u32(b, 12), body = u32(b, 16), crc = u32(b, 20);
    if (b.length - 24 !== body) {
      throw new Error('the data block is truncated: ' + (b.length - 24) + ' of ' + body + ' bytes');
    }
    if (crc32(b, 24) !== crc) throw new Error('the data block is corrupt (its CRC-32 does not match)');
    var list = [], at = 24;
    for (var p = 0; p < parts; p++) {
      if (b.length - at < 8) throw new Error('the data block ends inside part ' + p);
      var packed = u32(b, at), raw = u32(b, at + 4);
      at += 8;
      if (b.length - at < packed) throw new Error('the data block ends inside part ' + p);
      list.push({ bytes: b.subarray(at, at + packed), raw: raw });
      at += packed;
    }
    return list;
  }

  function inflateJson(part, what) {
    if (typeof DecompressionStream === 'undefined') {
      return Promise.reject(new Error('this browser has no DecompressionStream (it needs Chrome 80, Firefox 113, ' +
        'Safari 16.4 or newer)'));
    }
    var stream = new Blob([part.bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).arrayBuffer().then(function (buf) {
      if (buf.byteLength !== part.raw) throw new Error(what + ' inflates to ' + buf.byteLength + ' bytes, not ' + part.raw);
      return JSON.parse(new TextDecoder().decode(buf));
    }, function (e) {
      throw new Error(what + ' does not inflate (' + (e && e.message ? e.message : e) + ')');
    });
  }

