  // ---- prepare one trace ----------------------------------------------------------------------
  // Undoes the delta encoding: the shared-memory (and global-slice) snapshot after every step,
  // flags of cells written and read, lane addresses of each access and request.
  function flagsFrom(ranges, n) {
    var f = new Uint8Array(n);
    if (!ranges) return f;
    for (var i = 0; i + 1 < ranges.length; i += 2) f.fill(1, ranges[i], ranges[i] + ranges[i + 1]);
    return f;
  }
  function undelta(mask, d) {
    var a = new Array(32).fill(-1), lanes = lanesOf(mask), prev = 0;
    for (var i = 0; i < lanes.length; i++) {
      prev = i === 0 ? d[0] : prev + d[i];
      a[lanes[i]] = prev;
    }
    return a;
  }
  function prepare(tr) {
    var words = tr.words, v = new Int32Array(words), d = new Uint8Array(words);
    var gn = tr.slice ? tr.slice.count : 0, gv = new Int32Array(gn), gd = new Uint8Array(gn);
    tr.isFloat = tr.dtype === 'float32';
    tr.stepsWith = { shf: [], atm: [], req: [], acc: [], aws: [], wred: [] };
    // The largest n-way degree and shuffle count of any step: the banks and lanes canvases keep one
    // height through the trace, so the page does not jump (nor lay itself out again) while stepping.
    tr.maxDeg = 1;
    tr.maxShf = 0;
    tr.steps.forEach(function (st, si) {
      var set = st.set || [];
      for (var i = 0; i + 1 < set.length; i += 2) { v[set[i]] = set[i + 1]; d[set[i]] = 1; }
      st.smem = v.slice(); st.def = d.slice();
      st.wrf = flagsFrom(st.wr, words); st.rdf = flagsFrom(st.rd, words);
      if (gn) {
        var gs = st.gset || [];
        for (i = 0; i + 1 < gs.length; i += 2) { gv[gs[i]] = gs[i + 1]; gd[gs[i]] = 1; }
        st.gval = gv.slice(); st.gdef = gd.slice();
        st.gwrf = flagsFrom(st.gwr, gn); st.grdf = flagsFrom(st.grd, gn);
      }
      (st.acc || []).forEach(function (a) { a.addr = undelta(a.m, a.a); });
      (st.req || []).forEach(function (q) { q.index = undelta(q.m, q.ix); });
      ['shf', 'atm', 'req', 'acc'].forEach(function (k) { if (st[k] && st[k].length) tr.stepsWith[k].push(si); });
      if (st.aws) tr.stepsWith.aws.push(si);  // the warps reached a barrier running code the tracer does not record
      if (st.wred) tr.stepsWith.wred.push(si);
      tr.maxDeg = Math.max(tr.maxDeg, st.deg || 1);
      tr.maxShf = Math.max(tr.maxShf, st.shf ? st.shf.length : 0);
      st.flowsTo = {};
      var fl = st.flows || [];
      for (i = 0; i + 1 < fl.length; i += 2) (st.flowsTo[fl[i]] = st.flowsTo[fl[i]] || []).push(fl[i + 1]);
    });
    return tr;
  }

