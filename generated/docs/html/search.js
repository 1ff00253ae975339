// Client-side search over the instruction index (no network): matches the
// query against mnemonics, modifiers and summaries from search-index.js.
(function () {
  var input = document.getElementById("search");
  var out = document.getElementById("results");
  if (!input || !out || typeof SEARCH_INDEX === "undefined") { return; }
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase();
    while (out.firstChild) { out.removeChild(out.firstChild); }
    if (!q) { return; }
    SEARCH_INDEX.filter(function (e) { return e.terms.toLowerCase().indexOf(q) >= 0; })
      .slice(0, 30)
      .forEach(function (e) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = e.href;
        a.textContent = e.name;
        li.appendChild(a);
        li.appendChild(document.createTextNode(" — " + e.summary));
        out.appendChild(li);
      });
  });
})();
