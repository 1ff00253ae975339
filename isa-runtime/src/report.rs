//! How every command shows a diagnostic: rustc-style (`error[E040]: ...`,
//! ` --> file:line:col`, the source line and a caret) through
//! `codespan-reporting`, framed in ASCII, with every text that comes from
//! the input made [`printable`] first. The front end renders its spec
//! diagnostics with [`render`], and the `isa` command reports on assembly,
//! word and state files with [`FileReport`], so both commands print the
//! same layout, codes and summary line. Behind the `report` feature: the
//! generated crate does not need it.

use crate::shown::printable;
use std::borrow::Cow;
use codespan_reporting::term::{self, termcolor};

/// The renderer itself, for callers that build their own file sets.
pub use codespan_reporting;
pub use codespan_reporting::diagnostic::{Diagnostic, Label};
pub use codespan_reporting::files::Files;
use codespan_reporting::files::{Error as FilesError, SimpleFile};

/// Codes and titles of the diagnostics about assembly input, for the
/// commands that do not link the front end. The front end's code table
/// (`isa_dsl::Code`) gives the same diagnostics the same code and title (a
/// test there checks).
pub mod codes {
    /// A file is not valid UTF-8.
    pub const INVALID_UTF8: (&str, &str) = ("E002", "a file (spec, assembly or words) is not valid UTF-8");
    /// An assembly line does not assemble.
    pub const ASM_ERROR: (&str, &str) = ("E040", "assembly line does not assemble");
    /// An instruction word does not decode.
    pub const DISASM_ERROR: (&str, &str) = ("E041", "instruction word does not decode");
    /// A words file is neither hex words nor whole 16-byte words.
    pub const WORDS_FILE: (&str, &str) = ("E042", "a words file is neither hex words nor whole 16-byte words");
    /// A word decodes, but has bits no field of its opcode covers.
    pub const STRAY_BITS: (&str, &str) = ("W019", "instruction word with bits no field covers");
    /// A word decodes, but no syntax form of its opcode writes it.
    pub const UNWRITABLE: (&str, &str) = ("W026", "instruction word no syntax form writes");
    /// An instruction faults when simulated.
    pub const SIM_FAULT: (&str, &str) = ("E052", "an instruction faults when simulated");
    /// A simulation state file is malformed.
    pub const SIM_STATE: (&str, &str) = ("E053", "a simulation state file is malformed");
}

/// Renders `diagnostics` about `files` one after another, in colour (ANSI)
/// or not. A diagnostic whose labels lie on one line longer than
/// [`LONG_LINE`] bytes shows that line cut around them (`cut_long_line`).
/// At most [`shown_limit`] of them are shown, errors before warnings, in
/// their order, and a last line counts those left out.
pub fn render<'f, F: Files<'f>>(files: &'f F, diagnostics: &[Diagnostic<F::FileId>], color: bool) -> String {
    render_limited(files, diagnostics, color, shown_limit())
}

/// [`render`], showing at most `limit` diagnostics.
pub fn render_limited<'f, F: Files<'f>>(files: &'f F, diagnostics: &[Diagnostic<F::FileId>], color: bool, limit: usize) -> String {
    let errors = diagnostics.iter().filter(|d| is_error(d)).count();
    render_counted(files, diagnostics, color, limit, (errors, diagnostics.len() - errors))
}

fn is_error<T>(d: &Diagnostic<T>) -> bool {
    d.severity >= codespan_reporting::diagnostic::Severity::Error
}

/// [`render_limited`] when `diagnostics` are only some of those reported,
/// `total` (errors, others) being all of them: `diagnostics` must hold the
/// first `limit` errors and the first `limit` others of them (as
/// [`FileReport`] keeps them), so that the ones shown, and the count of
/// those left out, are what rendering all of them would give.
pub fn render_counted<'f, F: Files<'f>>(files: &'f F, diagnostics: &[Diagnostic<F::FileId>], color: bool, limit: usize, total: (usize, usize)) -> String {
    let (errors, others) = total;
    // Errors first: a warning never hides an error.
    let (mut errors_left, mut others_left) = (limit.min(errors), limit.saturating_sub(errors));
    let shown = diagnostics.iter().filter(|d| {
        let left = if is_error(d) { &mut errors_left } else { &mut others_left };
        *left > 0 && {
            *left -= 1;
            true
        }
    });
    let mut out = render_all(files, shown, color);
    out += &not_shown((errors + others).saturating_sub(limit), errors.saturating_sub(limit));
    out
}

/// The line that counts the diagnostics [`render`] left out, if any.
fn not_shown(hidden: usize, hidden_errors: usize) -> String {
    if hidden == 0 {
        return String::new();
    }
    let count = |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
    let what = match (hidden_errors, hidden - hidden_errors) {
        (_, 0) => count(hidden, "error"),
        (0, w) => count(w, "warning"),
        (e, w) => format!("{} and {}", count(e, "error"), count(w, "warning")),
    };
    // A limit set but not a number is ignored: say so where it matters.
    let ignored = match std::env::var(SHOWN_VAR) {
        Ok(v) if v.trim().parse::<usize>().is_err() => {
            let why = if !v.trim().is_empty() && v.trim().bytes().all(|b| b.is_ascii_digit()) { "is too large" } else { "is not a number" };
            format!(" (`{SHOWN_VAR}={v}` {why}: the default, 100, holds)")
        }
        _ => String::new(),
    };
    format!("note: {what} not shown; {SHOWN_VAR}=0 shows all{ignored}\n\n")
}

/// The environment variable that sets how many diagnostics [`render`]
/// shows (`0`: all).
pub const SHOWN_VAR: &str = "ISA_MAX_DIAGNOSTICS";

/// How many diagnostics [`render`] shows at most when [`SHOWN_VAR`] is not set.
pub const DEFAULT_SHOWN: usize = 100;

/// How many diagnostics [`render`] shows at most: [`SHOWN_VAR`], else
/// [`DEFAULT_SHOWN`] (a broken file of half a million lines would print them all).
pub fn shown_limit() -> usize {
    match std::env::var(SHOWN_VAR).ok().and_then(|v| v.trim().parse::<usize>().ok()) {
        Some(0) => usize::MAX,
        Some(n) => n,
        None => DEFAULT_SHOWN,
    }
}

fn render_all<'f, 'd, F: Files<'f>>(files: &'f F, diagnostics: impl Iterator<Item = &'d Diagnostic<F::FileId>>, color: bool) -> String
where
    F::FileId: 'd,
{
    let mut out = Vec::new();
    {
        let mut writer: Box<dyn termcolor::WriteColor> = if color {
            Box::new(termcolor::Ansi::new(&mut out))
        } else {
            Box::new(termcolor::NoColor::new(&mut out))
        };
        let config = term::Config { chars: term::Chars::ascii(), ..Default::default() };
        for d in diagnostics {
            let _ = match cut_long_line(files, d) {
                Some((snip, cut)) => term::emit(&mut writer, &config, &snip, &cut),
                None => term::emit(&mut writer, &config, files, d),
            };
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Source lines longer than this many bytes are shown cut (a generated
/// assembly file can hold a line of a megabyte).
pub const LONG_LINE: usize = 200;

/// Bytes of a cut line kept on each side of the labels.
const CONTEXT: usize = 60;

/// The most bytes of a label shown on a cut line.
const LONGEST_LABEL: usize = 80;

/// `d` with its one long line cut to the labels and [`CONTEXT`] bytes either
/// side (`...` marks what was cut), and the one-line file that shows it with
/// the line's own number and columns; `None` when `d` has no label, labels
/// in several files or on several lines, or its line is not long.
fn cut_long_line<'f, F: Files<'f>>(files: &'f F, d: &Diagnostic<F::FileId>) -> Option<(Snip, Diagnostic<()>)> {
    let first = d.labels.first()?;
    let id = first.file_id;
    let line = files.line_index(id, first.range.start).ok()?;
    if d.labels.iter().any(|l| l.file_id != id || files.line_index(id, l.range.start).ok() != Some(line) || files.line_index(id, l.range.end).ok() != Some(line)) {
        return None;
    }
    let range = files.line_range(id, line).ok()?;
    if range.len() <= LONG_LINE {
        return None;
    }
    let source = files.source(id).ok()?;
    let text = source.as_ref().get(range.clone())?.trim_end_matches(['\n', '\r']);
    let start = d.labels.iter().map(|l| l.range.start).min()? - range.start;
    let end = d.labels.iter().map(|l| l.range.end).max()? - range.start;
    let end = end.min(start + LONGEST_LABEL);
    let from = floor_char_boundary(text, start.saturating_sub(CONTEXT));
    let to = ceil_char_boundary(text, (end + CONTEXT).min(text.len()));
    let before = if from > 0 { "..." } else { "" };
    let after = if to < text.len() { "..." } else { "" };
    let shown = format!("{before}{}{after}", &text[from..to]);
    let shift = |at: usize| (at - range.start).clamp(from, to) - from + before.len();
    let labels = d.labels.iter().map(|l| Label::new(l.style, (), shift(l.range.start)..shift(l.range.end).min(shift(range.start + end))).with_message(l.message.clone())).collect();
    let snip = Snip {
        name: files.name(id).ok()?.to_string(),
        line_number: files.line_number(id, line).ok()?,
        // The column of the first byte shown, less the `...` before it.
        column: files.column_number(id, line, range.start + from).ok()?.saturating_sub(before.len()),
        text: shown,
    };
    let cut = Diagnostic { severity: d.severity, code: d.code.clone(), message: d.message.clone(), labels, notes: d.notes.clone() };
    Some((snip, cut))
}

/// One cut line of a file, as [`cut_long_line`] shows it: the file's name,
/// the line's number and the column its first byte stands for.
struct Snip {
    name: String,
    line_number: usize,
    column: usize,
    text: String,
}

impl<'a> Files<'a> for Snip {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _byte_index: usize) -> Result<usize, FilesError> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _line_index: usize) -> Result<usize, FilesError> {
        Ok(self.line_number)
    }

    fn column_number(&'a self, (): (), _line_index: usize, byte_index: usize) -> Result<usize, FilesError> {
        let at = floor_char_boundary(&self.text, byte_index.min(self.text.len()));
        Ok(self.column + self.text[..at].chars().count())
    }

    fn line_range(&'a self, (): (), _line_index: usize) -> Result<std::ops::Range<usize>, FilesError> {
        Ok(0..self.text.len())
    }
}

/// The summary line after the diagnostics: `1 error, 0 warnings`.
pub fn summary(errors: usize, warnings: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    format!("{errors} error{}, {warnings} warning{}", plural(errors), plural(warnings))
}

/// E002's label under the first byte that is not UTF-8, the same in every tool.
pub const INVALID_UTF8_LABEL: &str = "invalid byte sequence here";

/// E002's notes for a file of `bytes`: that files are UTF-8, and the
/// `iconv` line when its bytes read as GBK (Chinese prose saved in the
/// legacy encoding).
pub fn invalid_utf8_notes(bytes: &[u8]) -> Vec<String> {
    let mut notes = vec!["files must be UTF-8; this one's bad bytes are read as replacement characters (U+FFFD)".to_string()];
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        notes.push("it starts with a UTF-16 byte-order mark: convert it with `iconv -f UTF-16 -t UTF-8`".to_string());
    } else if looks_like_gbk(bytes) {
        notes.push("its bytes read as GBK (GB 18030) text: convert it with `iconv -f GB18030 -t UTF-8`".to_string());
    }
    notes
}

/// Whether every non-ASCII byte of `bytes` is in a GBK two-byte pair (a
/// lead byte 0x81..=0xFE, then 0x40..=0xFE but 0x7F), and there is one.
pub fn looks_like_gbk(bytes: &[u8]) -> bool {
    let (mut i, mut pairs) = (0, 0usize);
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (0..=0x7F, _) => i += 1,
            (0x81..=0xFE, Some(&t)) if (0x40..=0xFE).contains(&t) && t != 0x7F => {
                i += 2;
                pairs += 1;
            }
            _ => return false,
        }
    }
    pairs > 0
}

/// The line of `text` that byte `at` lies on, without its end (a line ends
/// at `\n`, `\r\n` or a lone `\r`, as the snippet shows it). It reads the
/// line alone, so a diagnostic per line costs nothing more per diagnostic.
pub fn line_at(text: &str, at: usize) -> &str {
    let at = at.min(text.len());
    let b = text.as_bytes();
    let is_end = |x: &u8| matches!(x, b'\n' | b'\r');
    let start = b[..at].iter().rposition(is_end).map_or(0, |i| i + 1);
    let end = b[at..].iter().position(is_end).map_or(text.len(), |i| at + i);
    // Ends are ASCII, so both are character boundaries.
    text.get(start..end).unwrap_or("")
}

/// Errors and warnings about one input file, rendered by [`render`]: with its name,
/// line, column and a caret when an error has a span (byte offset and
/// length) into the file's text, else by the file's name alone. The text's
/// line index is built once, whatever the number of errors, and the text
/// is borrowed unless it must be made printable. Only the diagnostics
/// that can be shown ([`shown_limit`] errors and as many warnings, the
/// first in the order [`Self::render`] sorts them) are kept, the rest only
/// counted: a words file of random bytes gives an error per word, and
/// keeping them all took 56 bytes of memory per byte of input.
pub struct FileReport<'t> {
    name: String,
    /// The text as given, to name what [`printable`] hides (`hidden_note`).
    raw: &'t str,
    file: SimpleFile<String, Cow<'t, str>>,
    /// Errors without a place have no label, and the file's name leads
    /// their message.
    diagnostics: Vec<Diagnostic<()>>,
    errors: usize,
    warnings: usize,
    /// How many errors (and as many warnings) can be shown.
    limit: usize,
}

impl<'t> FileReport<'t> {
    /// A report on the file `name` whose text is `text`.
    pub fn new(name: &str, text: &'t str) -> FileReport<'t> {
        // The renderer ends lines at `\n` only; a lone `\r` ends one too
        // (as the assembler reads it), so it becomes `\n`: same offsets.
        let mut shown = printable(text);
        if shown.contains('\r') {
            let b = shown.as_bytes();
            shown = Cow::Owned(shown.char_indices().map(|(i, c)| if c == '\r' && b.get(i + 1) != Some(&b'\n') { '\n' } else { c }).collect());
        }
        let name = printable(name).into_owned();
        FileReport { file: SimpleFile::new(name.clone(), shown), name, raw: text, diagnostics: Vec::new(), errors: 0, warnings: 0, limit: shown_limit() }
    }

    /// An error with a code (from [`codes`]) or none, at `span` (byte offset
    /// and length in the text) when it has one. `label` is shown under the
    /// caret.
    pub fn error(&mut self, code: Option<&str>, span: Option<(usize, usize)>, message: &str, label: &str) {
        self.errors += 1;
        self.push(Diagnostic::error(), code, span, message, label);
    }

    /// A warning, placed as [`Self::error`] places an error.
    pub fn warning(&mut self, code: Option<&str>, span: Option<(usize, usize)>, message: &str, label: &str) {
        self.warnings += 1;
        self.push(Diagnostic::warning(), code, span, message, label);
    }

    fn push(&mut self, d: Diagnostic<()>, code: Option<&str>, span: Option<(usize, usize)>, message: &str, label: &str) {
        // The line's number from the renderer's own line index (a search),
        // wanted only when the line hides something.
        let line = span.map(|(at, _)| (at, line_at(self.raw, at))).filter(|(_, l)| l.chars().any(crate::shown::unprintable));
        let line = line.map(|(at, l)| (self.file.line_index((), at.min(self.file.source().len())).map_or(0, |i| i + 1), l));
        let hidden = crate::shown::hidden_note(line, &[message, label]);
        let message = printable(message).into_owned();
        let mut d = match span {
            Some((at, len)) => {
                let end = (at + len).min(self.file.source().len());
                d.with_message(message).with_labels(vec![Label::primary((), at.min(end)..end).with_message(printable(label))])
            }
            None => d.with_message(format!("{}: {message}", self.name)),
        };
        if let Some(code) = code {
            d = d.with_code(code);
        }
        d.notes.extend(hidden);
        // Pruned before the push, so that the diagnostic reported last is
        // the last one until the next (for [`Self::note`]).
        if self.diagnostics.len() >= self.limit.saturating_mul(4).max(1024) {
            self.prune();
        }
        self.diagnostics.push(d);
    }

    /// Keeps the diagnostics that can still be shown: the first `limit`
    /// errors and the first `limit` warnings, in render order. A stable
    /// sort keeps the order of diagnostics alike, as all of them would
    /// have it: the ones kept earlier came first.
    fn prune(&mut self) {
        self.diagnostics.sort_by_key(render_key);
        let (mut errors, mut warnings) = (self.limit, self.limit);
        self.diagnostics.retain(|d| {
            let left = if is_error(d) { &mut errors } else { &mut warnings };
            *left > 0 && {
                *left -= 1;
                true
            }
        });
    }

    /// Adds `note` under the diagnostic reported last.
    pub fn note(&mut self, note: &str) {
        if let Some(d) = self.diagnostics.last_mut() {
            d.notes.push(printable(note).into_owned());
        }
    }

    /// How many errors were reported.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// How many warnings were reported.
    pub fn warnings(&self) -> usize {
        self.warnings
    }

    /// The diagnostics as text, errors first (at most [`shown_limit`]), by
    /// place (placeless ones first), then code; diagnostics alike in both
    /// keep the order they were added in (a binary file's words, in file
    /// order: not `word 10` before `word 2`).
    pub fn render(&self, color: bool) -> String {
        let mut sorted = self.diagnostics.clone();
        sorted.sort_by_key(render_key);
        render_counted(&self.file, &sorted, color, self.limit, (self.errors, self.warnings))
    }
}

/// The order [`FileReport::render`] shows diagnostics in: by place
/// (placeless ones first), then code.
fn render_key(d: &Diagnostic<()>) -> (Option<usize>, Option<String>) {
    (d.labels.first().map(|l| l.range.start), d.code.clone())
}

/// The largest char boundary of `text` at or before `i` (at most its length);
/// `str::floor_char_boundary`, which is newer than this crate's Rust.
fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `text` at or after `i` (at most its length).
fn ceil_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_at_ends_lines_at_every_kind_of_line_end() {
        let text = "a\r\nb\rcc\nd";
        assert_eq!(line_at(text, 0), "a");
        assert_eq!(line_at(text, 3), "b");
        assert_eq!(line_at(text, 6), "cc");
        assert_eq!(line_at(text, text.len()), "d");
        assert_eq!(line_at("", 5), "");
        // The note numbers the line as the snippet does, lone `\r` included.
        let mut r = FileReport::new("f", "a\rb\r\n\u{200B}c\n");
        r.error(None, Some((6, 1)), "bad", "");
        assert!(r.render(false).contains("line 3 holds characters that do not show"), "{}", r.render(false));
    }

    /// The snippet line (after `N | `) and the caret line's carets.
    fn snippet(out: &str) -> (&str, &str) {
        let mut lines = out.lines().filter(|l| l.contains(" | ") || l.trim_start().starts_with('|'));
        let shown = lines.find(|l| l.trim_start().starts_with(char::is_numeric)).unwrap_or_default();
        let carets = lines.find(|l| l.contains('^')).unwrap_or_default();
        (shown, carets)
    }

    #[test]
    fn at_most_the_limit_is_shown_errors_first_and_the_rest_counted() {
        let text = "a\nb\nc\nd\n";
        let file = SimpleFile::new("t.s", text);
        let at = |i: usize, d: Diagnostic<()>| d.with_message(format!("line {i}")).with_labels(vec![Label::primary((), 2 * i..2 * i + 1)]);
        // Warnings on lines 0 and 1, errors on 2 and 3: both errors show.
        let ds = vec![at(0, Diagnostic::warning()), at(1, Diagnostic::warning()), at(2, Diagnostic::error()), at(3, Diagnostic::error())];
        let out = render_limited(&file, &ds, false, 3);
        let shown: Vec<&str> = out.lines().filter(|l| l.starts_with("warning") || l.starts_with("error")).collect();
        assert_eq!(shown, ["warning: line 0", "error: line 2", "error: line 3"], "{out}");
        assert!(out.ends_with("note: 1 more warning not shown; ISA_MAX_DIAGNOSTICS=0 shows all\n\n"), "{out}");
        let out = render_limited(&file, &ds, false, 1);
        assert!(out.contains("error: line 2") && !out.contains("line 3") && out.contains("note: 1 more error and 2 more warnings not shown"), "{out}");
        assert!(!render_limited(&file, &ds, false, 4).contains("not shown"));
        // An error without a place is a diagnostic without a label, led by
        // the file's name (as the front end renders one).
        let mut r = FileReport::new("w.bin", "");
        r.error(Some(codes::DISASM_ERROR.0), None, "word 0", "");
        assert_eq!(r.render(false), "error[E041]: w.bin: word 0\n\n");
    }

    #[test]
    fn a_report_keeps_only_what_it_shows_and_shows_what_keeping_all_would() {
        // 3,000 diagnostics on 500 lines, out of order, errors and warnings
        // mixed, some alike (same place and code): far past the pruning
        // threshold (1,024) at a limit of 7.
        let text: String = (0..500).map(|k| format!("line {k}\n")).collect();
        let line_start = |k: usize| text.match_indices('\n').nth(k.wrapping_sub(1)).map_or(0, |(i, _)| i + 1);
        let mut r = FileReport::new("t.s", &text);
        r.limit = 7;
        let mut all = Vec::new();
        let mut x = 12345u64;
        for n in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (at, error, code) = (line_start((x % 500) as usize), !x.is_multiple_of(3), ["E040", "E041"][(x >> 8) as usize % 2]);
            let message = format!("diagnostic {n}");
            if error {
                r.error(Some(code), Some((at, 1)), &message, "");
            } else {
                r.warning(Some(code), Some((at, 1)), &message, "");
            }
            all.push(r.diagnostics.last().unwrap().clone());
        }
        assert!(r.diagnostics.len() < 1100, "kept {}", r.diagnostics.len());
        all.sort_by_key(render_key);
        assert_eq!(r.render(false), render_limited(&r.file, &all, false, 7));
        assert!(r.render(false).contains("more errors and") && r.errors() + r.warnings() == 3000);
    }

    #[test]
    fn a_long_line_is_cut_around_the_caret_with_its_own_line_and_column() {
        let text = format!("MOV R1, R2\n{}XYZ{}\n", "é".repeat(300), "b".repeat(5000));
        let at = text.find("XYZ").unwrap();
        let mut r = FileReport::new("t.s", &text);
        r.error(Some(codes::ASM_ERROR.0), Some((at, 3)), "bad `XYZ`", "here");
        let out = r.render(false);
        // Line 2, column 301: the columns count characters, as uncut.
        assert!(out.contains("--> t.s:2:301\n"), "{out}");
        assert!(out.len() < 600, "{out}");
        let (shown, carets) = snippet(&out);
        assert!(shown.starts_with("2 | ...") && shown.ends_with("..."), "{out}");
        // The carets stand under `XYZ`.
        let col = |s: &str, i: usize| s[..i].chars().count();
        let x = shown.find("XYZ").unwrap();
        let c = carets.find('^').unwrap();
        assert_eq!((col(shown, x), &carets[c..]), (col(carets, c), "^^^ here"), "{out}");
    }

    #[test]
    fn short_lines_are_shown_whole() {
        let text = "MOV R1, R9999 ;\n";
        let mut r = FileReport::new("t.s", text);
        r.error(None, Some((8, 5)), "bad", "here");
        let out = r.render(false);
        assert!(out.contains("--> t.s:1:9\n") && out.contains("1 | MOV R1, R9999 ;\n") && !out.contains("..."), "{out}");
    }
}
