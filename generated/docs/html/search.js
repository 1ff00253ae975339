// Client-side search over the instruction index (no network), from
// search-index.js. The query's words (split at spaces and dots, so
// `hadd2.rn` is `hadd2` and the modifier `rn`) must all be found: in the
// name, as a whole word of the mnemonics, templates and modifier values
// (`.X` is not `.XOR`), or anywhere in the prose (Chinese has no spaces).
// Name matches come first, then mnemonic and modifier words, then prose.
(function () {
  var input = document.getElementById("search");
  var out = document.getElementById("results");
  if (!input || !out || typeof SEARCH_INDEX === "undefined") { return; }
  function words(s) { return s.toLowerCase().split(/[^0-9a-z_\u0080-\uffff]+/).filter(function (w) { return w; }); }
  var prepared = SEARCH_INDEX.map(function (e) {
    return { e: e, name: words(e.name), terms: words(e.terms), text: e.text.toLowerCase() };
  });
  // The query's words; one written after a dot (`.X`, `hadd2.rn`) is a
  // modifier, looked for among modifier words only.
  function query(s) {
    var out = [];
    s.toLowerCase().split(/\s+/).forEach(function (piece) {
      piece.split(".").forEach(function (w, i) {
        words(w).forEach(function (x) { out.push({ w: x, dotted: i > 0 }); });
      });
    });
    return out;
  }
  input.addEventListener("input", function () {
    var q = query(input.value);
    while (out.firstChild) { out.removeChild(out.firstChild); }
    if (!q.length) { return; }
    var hits = [];
    prepared.forEach(function (p, k) {
      var score = 0;
      for (var i = 0; i < q.length; i++) {
        var w = q[i].w;
        // Prose is matched anywhere, so only by words long enough to mean
        // something (or Chinese, which has no spaces).
        var prose = !q[i].dotted && (w.length >= 3 || /[^\u0000-\u007f]/.test(w));
        if (!q[i].dotted && p.name.indexOf(w) >= 0) { score += 3; }
        else if (p.terms.indexOf(w) >= 0) { score += 2; }
        else if (prose && p.text.indexOf(w) >= 0) { score += 1; }
        else { return; }
      }
      hits.push({ p: p, score: score, k: k });
    });
    hits.sort(function (a, b) { return b.score - a.score || a.k - b.k; });
    hits.slice(0, 30).forEach(function (h) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = h.p.e.href;
      a.textContent = h.p.e.name;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" — " + h.p.e.summary));
      out.appendChild(li);
    });
  });
})();
