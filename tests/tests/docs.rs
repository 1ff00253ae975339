//! The reference manual as a reader gets it (`generated/docs/`, written by the
//! main job and kept fresh by the `--check` test):
//! * the FFMA page equals `tests/golden/FFMA.html` (`BLESS=1` rewrites it);
//! * no internal link of the site is broken (files and `#anchors`);
//! * the book's SUMMARY.md links every page, and every link resolves;
//! * a real browser (Debian's headless chromium) renders the FFMA page with
//!   its encoding diagram, modifier table and Chinese description; the
//!   screenshot is saved to `target/docs-screenshots/FFMA.png`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn site() -> PathBuf {
    root().join("generated/docs/html")
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Values of `attr="..."` in an HTML text, entities decoded as a browser does.
fn attrs(html: &str, attr: &str) -> Vec<String> {
    let pat = format!(" {attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&pat) {
        rest = &rest[i + pat.len()..];
        if let Some(j) = rest.find('"') {
            out.push(decode(&rest[..j]));
            rest = &rest[j..];
        }
    }
    out
}

fn decode(s: &str) -> String {
    s.replace("&#x2f;", "/").replace("&#x27;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

#[test]
fn ffma_page_matches_golden() {
    let page = std::fs::read_to_string(site().join("insn/FFMA.html")).unwrap();
    let golden = root().join("tests/golden/FFMA.html");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, &page).unwrap();
    }
    assert!(std::fs::read_to_string(&golden).unwrap() == page, "FFMA.html differs from tests/golden/FFMA.html (BLESS=1)");
    for needle in ["<meta charset=\"utf-8\">", "class=\"encoding\"", "class=\"modifiers\"", "FFMA_RRR", "执行3个输入"] {
        assert!(page.contains(needle), "FFMA page lacks {needle}");
    }
}

#[test]
fn site_has_no_broken_internal_links() {
    let mut pages = Vec::new();
    files(&site(), "html", &mut pages);
    assert!(pages.len() > 100, "{} pages", pages.len());
    let mut ids: std::collections::BTreeMap<PathBuf, BTreeSet<String>> = Default::default();
    for p in &pages {
        let html = std::fs::read_to_string(p).unwrap();
        ids.insert(p.canonicalize().unwrap(), attrs(&html, "id").into_iter().collect());
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for p in &pages {
        let html = std::fs::read_to_string(p).unwrap();
        for link in attrs(&html, "href").into_iter().chain(attrs(&html, "src")) {
            if link.starts_with("http://") || link.starts_with("https://") {
                broken.push(format!("{}: external link {link} (the site must work offline)", p.display()));
                continue;
            }
            let (file, anchor) = link.split_once('#').map_or((link.as_str(), None), |(f, a)| (f, Some(a)));
            let target = if file.is_empty() { p.clone() } else { p.parent().unwrap().join(file) };
            checked += 1;
            let Ok(target) = target.canonicalize() else {
                broken.push(format!("{}: {link} does not exist", p.display()));
                continue;
            };
            if let Some(a) = anchor {
                if target.extension().is_some_and(|x| x == "html") && !ids.get(&target).is_some_and(|s| s.contains(a)) {
                    broken.push(format!("{}: {link}: no id `{a}`", p.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
    assert!(checked > 1000, "only {checked} links checked");
}

#[test]
fn book_summary_links_every_page() {
    let book = root().join("generated/docs/md");
    let summary = std::fs::read_to_string(book.join("SUMMARY.md")).unwrap();
    let linked: BTreeSet<PathBuf> = summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter(|s| !s.is_empty())
        .map(|s| book.join(s))
        .collect();
    for l in &linked {
        assert!(l.is_file(), "SUMMARY.md links to missing {}", l.display());
    }
    let mut pages = Vec::new();
    files(&book, "md", &mut pages);
    for p in pages.iter().filter(|p| !p.ends_with("SUMMARY.md")) {
        assert!(linked.contains(p), "SUMMARY.md does not link {}", p.display());
    }
    assert!(summary.starts_with("# Summary"));
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|c| {
        std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(c)).find(|p| p.is_file())
    })
}

/// Chromium, or `None` after saying the test is skipped (never on CI,
/// where `.ci/run` installs it).
fn chromium_or_skip() -> Option<PathBuf> {
    let chrome = chromium();
    if chrome.is_none() {
        assert!(std::env::var_os("CI").is_none(), "chromium is missing: .ci/run installs it");
        eprintln!("skipped: no chromium on PATH (.ci/run installs Debian's chromium)");
    }
    chrome
}

#[test]
fn browser_renders_the_ffma_page() {
    let Some(chrome) = chromium_or_skip() else { return };
    let page = site().join("insn/FFMA.html").canonicalize().unwrap();
    let url = format!("file://{}", page.display());
    let profile = std::env::temp_dir().join(format!("isa-docs-chromium-{}", std::process::id()));
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ];
    let profile_flag = format!("--user-data-dir={}", profile.display());
    let dom = std::process::Command::new(&chrome).args(flags).arg(&profile_flag).arg("--dump-dom").arg(&url).output().unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    for needle in ["class=\"encoding\"", "class=\"modifiers\"", "执行3个输入", "FFMA_RCR"] {
        assert!(dom.contains(needle), "rendered DOM lacks {needle}");
    }
    // The diagram has a row per 32 bits for every opcode form.
    assert!(dom.matches("class=\"fields\"").count() >= 7 * 4);
    let shots = root().join("target/docs-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join("FFMA.png");
    let _ = std::fs::remove_file(&shot);
    let out = std::process::Command::new(&chrome)
        .args(flags)
        .arg(&profile_flag)
        .arg("--window-size=1400,3000")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    assert!(shot.is_file(), "no screenshot: {}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::metadata(&shot).unwrap().len() > 20_000, "screenshot looks empty");
}

fn book_pages() -> Vec<(PathBuf, String)> {
    let mut pages = Vec::new();
    files(&root().join("generated/docs/md/insn"), "md", &mut pages);
    pages.sort();
    pages.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// Every page of the Markdown book (instructions, types, index, diagnostics) and its text.
fn whole_book() -> Vec<(PathBuf, String)> {
    let mut pages = Vec::new();
    files(&root().join("generated/docs/md"), "md", &mut pages);
    pages.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// The cells of a Markdown table row (`| a | b |`), `\|` kept inside cells.
fn cells(row: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = row.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => out.last_mut().unwrap().push(chars.next().unwrap()),
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.pop();
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// A modifier the template writes without braces must be written, so the
/// manual never offers a default for it, even where the spec marks one (the
/// seeds do for `I2F ... .rnd` with `.RN*`); such a page then says why under
/// "Spec defects".
#[test]
fn mandatory_modifiers_have_no_default() {
    let mut mandatory = 0;
    for (path, page) in book_pages() {
        let Some(table) = page.split("## Modifiers\n").nth(1) else { continue };
        // The rows after the table's header and rule (a note may precede it).
        let rows = table.lines().skip_while(|l| !l.starts_with("| Modifier |")).skip(2);
        for row in rows.take_while(|l| l.starts_with('|')) {
            let c = cells(row);
            let written = c[0].split('`').nth(1).unwrap_or("");
            if written.contains('{') {
                continue;
            }
            mandatory += 1;
            assert!(c[2].starts_with('—'), "{}: mandatory `{written}` shows default {}", path.display(), c[2]);
            if c[2].contains("W006") {
                assert!(page.contains("## Spec defects") && page.contains("`W006`"), "{}: W006 not listed", path.display());
            }
        }
    }
    assert!(mandatory > 20, "only {mandatory} mandatory modifiers seen");
    // The seed's own case, read from the spec text: `.rnd` is mandatory in
    // I2F's template and its list marks `.RN*`.
    let spec = std::fs::read_to_string(root().join("spec/002_cvt.txt")).unwrap();
    assert!(spec.contains("I2F{.ftype}{.itype}.rnd Rd") && spec.contains(".rnd = {.RN*"));
    let i2f = std::fs::read_to_string(root().join("generated/docs/md/insn/I2F.md")).unwrap();
    let row = i2f.lines().find(|l| l.starts_with("| `.rnd` |")).expect("I2F .rnd row");
    assert!(cells(row)[2].contains("must be written") && cells(row)[2].contains(".RN"), "{row}");
}

/// Every diagnostic inside an instruction's declarations is shown on that
/// instruction's page, and the diagnostics page links to it.
#[test]
fn pages_list_their_spec_defects() {
    let book = root().join("generated/docs/md");
    let diags = std::fs::read_to_string(book.join("diagnostics.md")).unwrap();
    let mut linked = 0;
    // The diagnostics table (the codes table after it has two columns).
    for row in diags.lines().filter(|l| l.starts_with("| `")) {
        let c = cells(row);
        if c.len() < 4 {
            continue;
        }
        let loc = &c[1];
        let Some(link) = c[2].split("](").nth(1) else { continue };
        let target = link.trim_end_matches(')').split('#').next().unwrap();
        let page = std::fs::read_to_string(book.join(target)).unwrap_or_else(|_| panic!("{target} missing"));
        let defects = page.split("## Spec defects").nth(1).unwrap_or_else(|| panic!("{target} has no Spec defects section"));
        assert!(defects.contains(&format!("{} {loc}:", c[0])), "{target} does not list {} at {loc}", c[0]);
        linked += 1;
    }
    // Each W006/W003/W005 of the seeds sits inside an instruction.
    assert!(linked >= 70, "only {linked} diagnostics linked to pages");
}

/// A diagnostic about a simulation hook (W015, W017, W035) is on the page
/// of the optype declared last before it in its file (`__DefSimulation X`,
/// `__DefOptype X`, `__DefOpcode Y : [X]`; read from the spec's text, not
/// from the generator's positions).
#[test]
fn hook_diagnostics_are_on_their_optypes_page() {
    let book = root().join("generated/docs/md");
    let diags = std::fs::read_to_string(book.join("diagnostics.md")).unwrap();
    let mut seen = BTreeSet::new();
    for row in diags.lines().filter(|l| l.starts_with("| `")) {
        let c = cells(row);
        // The table of diagnostics, not that of the codes.
        if c.len() < 4 || !["W015", "W017", "W035"].iter().any(|w| c[0].contains(w)) {
            continue;
        }
        let at = &c[1];
        let (file, line) = (at.split(':').next().unwrap(), at.split(':').nth(1).unwrap().parse::<usize>().unwrap());
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let owner = text
            .lines()
            .take(line)
            .filter_map(|l| {
                let l = l.trim_end();
                l.strip_prefix("__DefSimulation ")
                    .or_else(|| l.strip_prefix("__DefOptype ").map(|r| r.split(':').next().unwrap()))
                    .or_else(|| l.strip_prefix("__DefOpcode ").and_then(|r| r.split('[').nth(1)).map(|r| r.trim_end_matches(']')))
            })
            .last()
            .unwrap()
            .trim();
        assert!(c[2].contains(&format!("(insn/{owner}.md")), "{at} is linked as {}, not to {owner}", c[2]);
        seen.insert(c[0].clone());
    }
    assert_eq!(seen.len(), 3, "the seeds' hook diagnostics (W015, W017, W035) are not all in the table: {seen:?}");
}

/// The SPA 5.3 file writes a form's immediate operands on the line before the
/// form (`{{-}{|}#Immfp10H1{|}}, ...`); the manual's syntax lines keep them,
/// and its example that `check` rejects (W014) is shown as rejected.
#[test]
fn legacy_pages_keep_what_the_notation_writes() {
    let spec = std::fs::read_to_string(root().join("spec/legacy/003_hmul2_spa53.txt")).unwrap();
    let pages: String = book_pages().into_iter().filter(|(p, _)| p.to_string_lossy().contains(".spa53.")).map(|(_, t)| t).collect();
    let imm_lines: Vec<&str> = spec.lines().filter(|l| l.trim_start().starts_with("{{") && l.contains("#Imm")).collect();
    assert_eq!(imm_lines.len(), 2);
    for l in imm_lines {
        assert!(pages.lines().any(|s| s.starts_with("{@{!}Pg}") && s.contains(l.trim())), "no syntax line carries `{l}`");
    }
    let html = std::fs::read_to_string(site().join("insn/HMUL2.spa53.html")).unwrap();
    let bad = spec.lines().find(|l| l.contains(".H0_H1")).expect("the seed's bad example");
    let row = html.split("<tr class=").find(|r| r.contains(bad.trim())).expect("example row");
    assert!(row.starts_with("\"bad\""), "W014 example shown as fine: {row}");
}

/// The SPA 5.3 prose is one definition a line, hard-wrapped: each
/// definition (`.F32: ...`) and term (`immfp16H0 ...`) starts a paragraph
/// and keeps its later sentences; a value list's reserved name (`INVALID`)
/// is listed as such, not dropped.
#[test]
fn legacy_prose_keeps_its_definitions() {
    let spec = std::fs::read_to_string(root().join("spec/legacy/003_hmul2_spa53.txt")).unwrap();
    let page = std::fs::read_to_string(root().join("generated/docs/md/insn/HMUL2.spa53.md")).unwrap();
    let lines: Vec<&str> = page.lines().collect();
    let before = |start: &str| {
        let k = lines.iter().position(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no line starts with `{start}`"));
        lines[k - 1]
    };
    // Read off the spec: where a definition starts, and its later sentences.
    for start in [".FMZ: Flush", ".F32: Compute", ".F32: Input", ".H1_H1: Input", "immfp16H0 fp16", "immfp10H1 Most", "For HMUL2 with an immediate", "Note: SASS"] {
        assert_eq!(before(start), "", "`{start}` does not start a paragraph");
    }
    for (line, of) in [("This mode flushes", ".F32: Compute"), ("Inputs are unaffected.", ".F32: Compute"), ("The conversion will round", ".F32: Input"), ("Denorms can still be generated", ".F32: Input"), ("This is default.", "< NULL >")] {
        assert!(spec.contains(line), "the spec has no `{line}`");
        assert_ne!(before(line), "", "`{line}` is cut from `{of}`'s paragraph");
    }
    let reserved: Vec<&str> = spec.lines().filter(|l| l.starts_with(".fmz:")).flat_map(|l| l.split(['{', '}', ','])).map(str::trim).filter(|i| i.starts_with(|c: char| c.is_ascii_uppercase())).collect();
    assert_eq!(reserved, ["INVALID"]);
    let row = lines.iter().find(|l| l.starts_with("| `{.fmz}`")).expect("the .fmz row");
    assert!(row.contains("`INVALID`=— reserved"), "{row}");
}

/// Directives and exception rules (`ModiOrder<...>`, `EncodingError<...>`)
/// appear as tables, not as prose; prose headings sit under the page's own.
#[test]
fn prose_holds_only_prose() {
    for (path, page) in book_pages() {
        let mut fence = false;
        for (k, line) in page.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fence = !fence;
                continue;
            }
            if fence {
                continue;
            }
            let t = line.trim_start();
            for kw in ["ModiOrder", "AsmFormat", "EncodingError", "Bitwidth", "InList", "OutList"] {
                assert!(!(t.starts_with(kw) && t[kw.len()..].trim_start().starts_with('<')), "{}:{}: rule as prose: {line}", path.display(), k + 1);
            }
            assert!(k == 0 || !line.starts_with("# "), "{}:{}: second top-level heading: {line}", path.display(), k + 1);
        }
    }
}

/// `mdbook build generated/docs/md` finds its configuration and chapters.
#[test]
fn book_has_its_configuration() {
    let toml = std::fs::read_to_string(root().join("generated/docs/md/book.toml")).unwrap();
    assert!(toml.contains("src = \".\""), "{toml}");
    assert!(root().join("generated/docs/md/SUMMARY.md").is_file());
}

/// Every opcode section of the book accounts for each bit once: its field
/// table's ranges and the "Bits no field covers" list (written by another
/// part of the generator) together cover bits 0..128 exactly.
#[test]
fn fields_and_unused_bits_cover_the_word_once() {
    let range = |t: &str| -> (u32, u32) {
        let t = t.trim().trim_start_matches('[').trim_end_matches(']');
        match t.split_once(':') {
            Some((hi, lo)) => (hi.parse().unwrap(), lo.parse().unwrap()),
            None => (t.parse().unwrap(), t.parse().unwrap()),
        }
    };
    let mut sections = 0;
    for (path, page) in book_pages() {
        let encodings = page.split_once("\n## Encodings").map_or("", |(_, e)| e);
        let encodings = encodings.split("\n## ").next().unwrap_or("");
        for section in encodings.split("\n### ").skip(1) {
            let name = section.lines().next().unwrap_or("");
            let mut count = [0u32; 128];
            let mut mark = |(hi, lo): (u32, u32)| (lo..=hi).for_each(|b| count[b as usize] += 1);
            for line in section.lines().filter(|l| l.starts_with("| [")) {
                mark(range(&cells(line)[0]));
            }
            if let Some(list) = section.lines().find_map(|l| l.strip_prefix("Bits no field covers: ")) {
                let list = list.split(". ").next().unwrap();
                list.split(", ").for_each(|r| mark(range(r)));
            } else {
                assert!(section.contains("Every bit is a field's."), "{}: {name}: no unused-bits line", path.display());
            }
            assert!(count.iter().all(|&c| c == 1), "{}: {name}: bits counted {:?}", path.display(), count);
            sections += 1;
        }
    }
    assert_eq!(sections, 184, "every opcode has a section");
}

/// No text of the book is struck through by accident: mdbook reads a pair
/// of single `~` as strikethrough, and the seeds write `~` as a range sign
/// (`b0~b3`), so outside code every `~` is escaped.
#[test]
fn no_accidental_strikethrough() {
    let mut escaped = 0;
    for (path, page) in whole_book() {
        let mut fence = false;
        for (k, line) in page.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fence = !fence;
                continue;
            }
            // Outside backtick spans (a span here is one backtick each side).
            let outside: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
            if fence {
                continue;
            }
            escaped += outside.matches("\\~").count();
            assert!(!outside.replace("\\~", "").contains('~'), "{}:{}: unescaped `~`: {line}", path.display(), k + 1);
        }
    }
    assert!(escaped > 0, "the seeds' range signs are in the book, escaped");
}

/// The site's search, run in the browser: a page beside the index loads
/// the generated search-index.js and search.js, types each query and
/// writes what the result list shows. Expectations from the spec text:
/// F2FP's formats include E4M3, `.XOR` is a boolean op (`.X` is not), FADD's
/// prose speaks of 舍入 (rounding).
#[test]
fn browser_search_finds_words_modifiers_and_prose() {
    let Some(chrome) = chromium_or_skip() else { return };
    let queries = ["E4M3", ".X", "舍入", "hadd2.rn"];
    let dir = std::env::temp_dir().join(format!("isa-docs-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["search-index.js", "search.js"] {
        std::fs::copy(site().join(f), dir.join(f)).unwrap();
    }
    let list = format!("[{}]", queries.iter().map(|q| format!("'{q}'")).collect::<Vec<_>>().join(","));
    let script = format!(
        "var out = document.getElementById('out'); var input = document.getElementById('search'); \
         {list}.forEach(function (q) {{ input.value = q; input.dispatchEvent(new Event('input')); \
         var names = Array.prototype.map.call(document.querySelectorAll('#results a'), function (a) {{ return a.textContent; }}); \
         out.textContent += q + ' = ' + names.join(',') + '\\n'; }});"
    );
    let html = format!("<!DOCTYPE html><meta charset=\"utf-8\"><input id=\"search\"><ul id=\"results\"></ul><pre id=\"out\"></pre><script src=\"search-index.js\"></script><script src=\"search.js\"></script><script>{script}</script>");
    std::fs::write(dir.join("t.html"), html).unwrap();
    let profile = format!("--user-data-dir={}", dir.join("profile").display());
    let dom = std::process::Command::new(&chrome)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--dump-dom"])
        .arg(&profile)
        .arg(format!("file://{}", dir.join("t.html").display()))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let dom = String::from_utf8_lossy(&dom.stdout);
    let line = |q: &str| dom.lines().find_map(|l| l.split_once(&format!("{q} = ")).map(|(_, r)| r)).unwrap_or_else(|| panic!("no results line for {q}: {dom}")).to_string();
    assert_eq!(line("E4M3"), "F2FP");
    let x = line(".X");
    assert!(x.split(',').any(|n| n == "IADD") && !x.split(',').any(|n| n == "FSETP"), ".X: {x}");
    assert!(line("舍入").split(',').any(|n| n == "FADD"));
    assert!(line("hadd2.rn").starts_with("HADD2"));
}

/// An optional operand whose `.not` defaults to True (`{, {!}pp}`, the
/// spec's `pp.not=True`, "pp的默认值是!PT") says so: leaving out the `!` and
/// leaving out the operand are different.
#[test]
fn an_omitted_predicate_shows_its_default() {
    let spec = std::fs::read_to_string(root().join("spec/004_ialu.txt")).unwrap();
    assert!(spec.contains("PModi pp.not=True;") && spec.contains("pp的默认值是!PT"));
    for page in ["IADD", "IMAD", "ISET"] {
        let md = std::fs::read_to_string(root().join(format!("generated/docs/md/insn/{page}.md"))).unwrap();
        let row = md.lines().find(|l| l.starts_with("| `{!}pp`")).unwrap_or_else(|| panic!("{page}: no pp row"));
        assert!(row.contains("`!` omitted: False; operand omitted: True"), "{page}: {row}");
    }
}

/// A modifier row lists every value of the spec's list, also one the field
/// cannot hold, and says when the field is a constant (the spec's
/// `satrelu = {.SAT*, .SATRELU}` with `satrelu==SAT`; `ftype==F32` under
/// F2IP's `{.F32}`).
#[test]
fn modifier_rows_keep_every_value_and_name_constants() {
    let spec = std::fs::read_to_string(root().join("spec/004_ialu.txt")).unwrap();
    assert!(spec.contains("satrelu = {.SAT*, .SATRELU}") && spec.contains("SATRelu satrelu==SAT;"));
    let cvt = std::fs::read_to_string(root().join("spec/002_cvt.txt")).unwrap();
    assert!(cvt.contains("FTypes ftype==F32;"));
    let row = |page: &str, start: &str| {
        let md = std::fs::read_to_string(root().join(format!("generated/docs/md/insn/{page}.md"))).unwrap();
        md.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{page}: no {start} row")).to_string()
    };
    let satrelu = row("I2IP", "| `.satrelu`");
    assert!(satrelu.contains("`.SATRELU`=— cannot be encoded") && satrelu.contains("`satrelu` is the constant `SAT`"), "{satrelu}");
    let f32 = row("F2IP", "| `{.F32}`");
    assert!(f32.contains("`ftype` is the constant `F32` in every opcode"), "{f32}");
}

/// Every row of every Markdown table has its header's cells: a `|` that
/// is not escaped, in a code span too, splits a cell in GFM (a note quoting
/// `|..|` once shifted the Fields column); and a blank line comes before
/// each table.
#[test]
fn book_table_rows_have_their_headers_cells() {
    let mut rows = 0;
    for (path, page) in whole_book() {
        let mut header: Option<usize> = None;
        let mut fence = false;
        for (k, line) in page.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fence = !fence;
            }
            if fence || !line.trim_start().starts_with('|') {
                header = None;
                continue;
            }
            let n = cells(line).len();
            match header {
                None => {
                    // A table right after a paragraph line is more paragraph in cmark-gfm.
                    let before = if k == 0 { "" } else { page.lines().nth(k - 1).unwrap_or("") };
                    assert!(before.trim().is_empty(), "{}:{}: a table needs a blank line before it: {before}", path.display(), k + 1);
                    header = Some(n)
                }
                Some(h) => {
                    rows += 1;
                    assert_eq!(n, h, "{}:{}: {n} cells, the header has {h}: {line}", path.display(), k + 1);
                }
            }
        }
    }
    assert!(rows > 1000, "the book's tables were read ({rows} rows)");
}

/// Messages and notes quote spec text in backticks; the site shows those as
/// `<code>`, never as raw backticks.
#[test]
fn site_shows_no_raw_backticks() {
    let mut pages = Vec::new();
    files(&site(), "html", &mut pages);
    assert!(pages.len() > 100);
    for path in pages {
        let page = std::fs::read_to_string(&path).unwrap();
        if let Some(at) = page.find('`') {
            // Up to 60 characters before it and 20 from it (on char boundaries).
            let before: String = page[..at].chars().rev().take(60).collect::<Vec<_>>().into_iter().rev().collect();
            let after: String = page[at..].chars().take(20).collect();
            panic!("{}: raw backtick near `{before}{after}`", path.display());
        }
    }
}

/// Type pages keep what the spec's comments say: a value's own comment
/// (`C; // CLAMP` in `spec/004_ialu.txt`), a list above a type line by line
/// (F2FPSrcType's spellings in `spec/002_cvt.txt`), and no bare `// TODO:`
/// (above VSel there).
#[test]
fn type_pages_keep_the_spec_s_comments() {
    let docs = root().join("generated/docs");
    let read = |p: &str| std::fs::read_to_string(docs.join(p)).unwrap();
    let cw_html = read("html/types/CWMode.html");
    assert!(cw_html.contains("<td><code>C</code></td><td><code>0b0</code></td><td><code>0x0</code></td><td>CLAMP</td>"), "{cw_html}");
    assert!(read("md/types/CWMode.md").contains("| `W` | `0b1` | `0x1` | WRAP |"));
    for page in ["html/types/VSel.html", "md/types/VSel.md"] {
        assert!(!read(page).contains("TODO"), "{page}");
    }
    let list = read("md/types/F2FPSrcType.md");
    assert!(list.contains("```text\nF2FP.BF16.E8\nF2FP.BF16.F32\n") && list.contains("\n** F2FP.BF16.E2M1\n"), "{list}");
    assert!(read("html/types/F2FPSrcType.html").contains("<pre class=\"comment\">F2FP.BF16.E8\nF2FP.BF16.F32\n"));
}

/// The manual's "Writing assembly" section says what the assembler reads;
/// each literal it gives is held to the generated assembler: the integers
/// and floats it offers assemble as an immediate, `07` is refused, and the
/// floats read back as the values the words hold.
#[test]
fn writing_assembly_says_what_the_assembler_reads() {
    let md = std::fs::read_to_string(root().join("generated/docs/md/README.md")).unwrap();
    let section = md.split("## Writing assembly").nth(1).and_then(|s| s.split("\n## ").next()).expect("the section");
    let bullet = |head: &str| section.lines().find(|l| l.starts_with(&format!("- **{head}"))).unwrap_or_else(|| panic!("no bullet {head}")).to_string();
    let spans = |l: &str| l.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>();
    let asm = |line: &str| isa_runtime::text::assemble_line(&isa_generated::text::MODEL, line);
    let ints = spans(&bullet("Integers"));
    assert_eq!(ints, ["42", "-7", "+3", "0x2A", "0b101", "07"]);
    for (text, value) in [("42", 42u128), ("-7", 0xffff_fff9), ("+3", 3), ("0x2A", 42), ("0b101", 5)] {
        let word = asm(&format!("IADD R0, R1, {text}")).unwrap().unwrap().word;
        assert_eq!(word >> 32 & 0xffff_ffff, value, "{text}");
    }
    assert!(asm("IADD R0, R1, 07").unwrap_err().message.contains("octal is not read"));
    let floats = spans(&bullet("Floats"));
    assert_eq!(floats, ["1.5", "-2e-3", "inf", "-inf", "0f", "0f3F800000"]);
    for (text, value) in [("1.5", 1.5f32), ("-2e-3", -2e-3), ("inf", f32::INFINITY), ("-inf", f32::NEG_INFINITY), ("0f3F800000", 1.0)] {
        let word = asm(&format!("FADD R0, R1, {text}")).unwrap().unwrap().word;
        assert_eq!(f32::from_bits((word >> 32) as u32), value, "{text}");
    }
    // A pair of lanes, the highest first.
    let word = asm("HADD2 R0, R1, 1.5, -2").unwrap().unwrap().word;
    assert_eq!(word >> 32 & 0xffff_ffff, 0x3e00_c000);
    // A pair, or its first register's name alone.
    assert_eq!(spans(&bullet("Registers")), ["prefix[n:n+1]", "R4", "R[4:5]"]);
    assert_eq!(asm("MOV.64 R0, R4").unwrap().unwrap().word, asm("MOV.64 R[0:1], R[4:5]").unwrap().unwrap().word);
    assert!(spans(&bullet("Constant memory")).contains(&"c[bank][offset]".to_string()));
    assert!(asm("IADD R0, R1, c[0x3][0x18]").unwrap().is_some());
    for label in ["loop: IADD R0, R1, R2", "_a.b$1: IADD R0, R1, R2 ; // done"] {
        assert!(asm(label).unwrap().is_some(), "{label}");
    }
    // The HTML index says the same: its code spans are the book's, in order.
    let html = std::fs::read_to_string(site().join("index.html")).unwrap();
    let html = html.split("id=\"writing\"").nth(1).and_then(|s| s.split("</details>").next()).expect("the HTML section");
    let html_spans: Vec<String> = html.split("<code>").skip(1).map(|c| decode(c.split("</code>").next().unwrap_or(""))).collect();
    assert_eq!(html_spans, spans(section), "the HTML and Markdown sections differ");
}

/// A page says which syntax forms no line can use (review 49 F09: LEA's
/// forms 1 and 3 were shown as ordinary syntax, and all five of its
/// examples fail). Only LEA's page says so, the forms it names are refused
/// by the assembler for the field it names, and its other form assembles.
#[test]
fn pages_say_which_forms_cannot_be_assembled() {
    let mut files_md = Vec::new();
    files(&root().join("generated/docs/md/insn"), "md", &mut files_md);
    let saying: Vec<String> = files_md.iter().filter(|p| std::fs::read_to_string(p).unwrap().contains("cannot be assembled: ")).map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(saying, ["LEA"]);
    let lea = std::fs::read_to_string(root().join("generated/docs/md/insn/LEA.md")).unwrap();
    assert!(lea.contains("**Forms 1 and 3 cannot be assembled: they set no value for field `rc`, which has no default (W004)."), "{lea}");
    let asm = |line: &str| isa_runtime::text::assemble_line(&isa_generated::text::MODEL, line);
    for line in ["LEA R0, R1, R2, 0x3", "LEA.HI.X.SX32 R0, R1, R2, 0x3"] {
        assert!(asm(line).unwrap_err().message.contains("cannot set field `rc`"), "{line}");
    }
    assert!(asm("LEA.HI.X R0, R1, R2, R3, 0x3").unwrap().is_some());
}
