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
pub use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
pub use codespan_reporting::files::{Files, SimpleFile};

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
}

/// Renders `diagnostics` about `files` one after another, in colour (ANSI)
/// or not.
pub fn render<'f, F: Files<'f>>(files: &'f F, diagnostics: &[Diagnostic<F::FileId>], color: bool) -> String {
    let mut out = Vec::new();
    {
        let mut writer: Box<dyn termcolor::WriteColor> = if color {
            Box::new(termcolor::Ansi::new(&mut out))
        } else {
            Box::new(termcolor::NoColor::new(&mut out))
        };
        let config = term::Config { chars: term::Chars::ascii(), ..Default::default() };
        for d in diagnostics {
            let _ = term::emit(&mut writer, &config, files, d);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The summary line after the diagnostics: `1 error, 0 warnings`.
pub fn summary(errors: usize, warnings: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    format!("{errors} error{}, {warnings} warning{}", plural(errors), plural(warnings))
}

/// Errors about one input file, rendered by [`render`]: with its name,
/// line, column and a caret when an error has a span (byte offset and
/// length) into the file's text, else by the file's name alone. The text's
/// line index is built once, whatever the number of errors, and the text
/// is borrowed unless it must be made printable.
pub struct FileReport<'t> {
    name: String,
    file: SimpleFile<String, Cow<'t, str>>,
    diagnostics: Vec<Diagnostic<()>>,
    /// Errors without a place, rendered as `error[code]: file: message`.
    unplaced: String,
    errors: usize,
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
        FileReport { file: SimpleFile::new(name.clone(), shown), name, diagnostics: Vec::new(), unplaced: String::new(), errors: 0 }
    }

    /// An error with a code (from [`codes`]) or none, at `span` (byte offset
    /// and length in the text) when it has one. `label` is shown under the
    /// caret.
    pub fn error(&mut self, code: Option<&str>, span: Option<(usize, usize)>, message: &str, label: &str) {
        self.errors += 1;
        let message = printable(message).into_owned();
        let Some((at, len)) = span else {
            let code = code.map(|c| format!("[{c}]")).unwrap_or_default();
            self.unplaced += &format!("error{code}: {}: {message}\n", self.name);
            return;
        };
        let end = (at + len).min(self.file.source().len());
        let mut d = Diagnostic::error().with_message(message).with_labels(vec![Label::primary((), at.min(end)..end).with_message(printable(label))]);
        if let Some(code) = code {
            d = d.with_code(code);
        }
        self.diagnostics.push(d);
    }

    /// How many errors were reported.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// The errors as text: placed ones rendered, then those without a place.
    pub fn render(&self, color: bool) -> String {
        render(&self.file, &self.diagnostics, color) + &self.unplaced
    }
}
