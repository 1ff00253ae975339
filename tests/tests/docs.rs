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

#[test]
fn browser_renders_the_ffma_page() {
    let Some(chrome) = chromium() else {
        assert!(std::env::var_os("CI").is_none(), "chromium is missing: .ci/run installs it");
        eprintln!("skipped: no chromium on PATH (.ci/run installs Debian's chromium)");
        return;
    };
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
