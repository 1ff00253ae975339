//! Diagnostics: the stable error/warning codes, the `Diagnostic` value every
//! stage produces, and rustc-style rendering (`isa_runtime::report`, which
//! the `isa` command's diagnostics share).
//! Stages never stop at the first problem: they push into a [`Diagnostics`]
//! list, which is sorted by position before it is shown.

use crate::source::{SourceMap, Span};
use isa_runtime::report::{self, Files};
use isa_runtime::report::codespan_reporting::diagnostic as cs;
use isa_runtime::report::codespan_reporting::files::Error as FilesError;
use serde::Serialize;

/// Severity of a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The command fails (a spec with errors generates nothing).
    Error,
    /// Reported; the command goes on (unless warnings are denied).
    Warning,
}

macro_rules! codes {
    ($( $variant:ident = $code:literal, $sev:ident, $title:literal; )*) => {
        /// Every diagnostic the compiler can emit. Codes are stable: tests and
        /// users refer to them, so a code is never reused for something else.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Code { $( #[doc = concat!("`", $code, "`: ", $title, ".")] $variant, )* }

        impl Code {
            /// All codes, in order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];
            /// The stable code, e.g. `E004`.
            pub fn as_str(self) -> &'static str { match self { $( Code::$variant => $code, )* } }
            /// Whether this code is an error or a warning.
            pub fn severity(self) -> Severity { match self { $( Code::$variant => Severity::$sev, )* } }
            /// One-line description of what the code means.
            pub fn title(self) -> &'static str { match self { $( Code::$variant => $title, )* } }
        }
    };
}

codes! {
    // --- reading and parsing ---------------------------------------------
    Io = "E001", Error, "a spec file or directory cannot be read";
    InvalidUtf8 = "E002", Error, "a file (spec, assembly or words) is not valid UTF-8";
    StrayText = "E003", Error, "text outside any declaration or section";
    MalformedDecl = "E004", Error, "malformed declaration header";
    MalformedEnumValue = "E005", Error, "malformed bit-field type value";
    MalformedField = "E006", Error, "malformed field";
    MalformedDirective = "E007", Error, "malformed OperandInfo directive";
    MalformedException = "E008", Error, "malformed exception rule";
    MalformedSyntax = "E009", Error, "malformed syntax template or value list";
    UnterminatedFence = "E010", Error, "code fence not closed before the end of its section";
    TooDeep = "E011", Error, "expression nested too deeply";
    MalformedProperty = "E012", Error, "malformed or unknown property of an operand type, the ISA or a value format";
    MalformedHook = "E013", Error, "malformed simulation hook";
    UnknownSectionKeyword = "E014", Error, "a section header that names no section (a misspelt Examples, say)";
    // --- names and inheritance --------------------------------------------
    UndefinedType = "E020", Error, "undefined type";
    UndefinedParent = "E021", Error, "undefined parent";
    DuplicateDefinition = "E022", Error, "duplicate definition";
    InheritanceCycle = "E023", Error, "inheritance cycle";
    WrongParentKind = "E024", Error, "parent of the wrong kind";
    UndefinedField = "E025", Error, "expression names an unknown field";
    UnknownValue = "E026", Error, "expression compares a field with a value its type does not have";
    TypeMismatch = "E027", Error, "expression has the wrong type";
    UnassemblableForm = "E028", Error, "syntax form no line can use: a mandatory operand has no field";
    // --- encoding ---------------------------------------------------------
    FieldOverlap = "E030", Error, "two fields of one opcode share bits";
    FieldOutOfRange = "E031", Error, "field extends past the instruction width";
    ZeroWidth = "E032", Error, "field or type of zero width, or a type wider than 64 bits";
    ValueTooWide = "E033", Error, "value does not fit its width";
    BadFieldValue = "E034", Error, "default or constant is not a value of the field's type";
    AmbiguousDecode = "E035", Error, "two opcodes can decode the same word";
    DuplicateValue = "E036", Error, "two values of one type share a name or an encoding";
    WidthMismatch = "E037", Error, "field width does not match its type";
    MissingIsa = "E038", Error, "no __DefIsa declaration, or more than one";
    BadAsmHook = "E039", Error, "AsmFormat names an unknown hook, or the values deciding it lack the format it reads";
    // --- assembly -----------------------------------------------------------
    AsmError = "E040", Error, "assembly line does not assemble";
    DisasmError = "E041", Error, "instruction word does not decode";
    WordsFile = "E042", Error, "a words file is neither hex words nor whole 16-byte words";
    // --- simulation -------------------------------------------------------
    UnknownHookName = "E050", Error, "simulation hook names an unknown optype, operand or field, or reads an operand of a width it cannot";
    KernelSignature = "E051", Error, "one kernel called with different argument types";
    SimFault = "E052", Error, "an instruction faults when simulated";
    SimState = "E053", Error, "a simulation state file is malformed";
    // --- generated code ---------------------------------------------------
    RustNameClash = "E060", Error, "two spec names, or a spec name and the generated API's own, become one Rust name";
    // --- warnings ----------------------------------------------------------
    IdenticalRedefinition = "W001", Warning, "field defined twice identically";
    UnboundModifier = "W002", Warning, "syntax modifier with no field to encode it";
    UnboundOperandDecoration = "W003", Warning, "operand prefix or suffix with no field to encode it";
    UnsettableField = "W004", Warning, "field that no syntax form can set";
    ValueListMismatch = "W005", Warning, "value list disagrees with the field's type";
    MandatoryWithDefault = "W006", Warning, "mandatory modifier or operand has a default";
    UnknownDirectiveOperand = "W007", Warning, "directive names an operand that does not exist";
    MissingSyntax = "W008", Warning, "optype without __Syntax";
    UnboundOperand = "W009", Warning, "syntax operand with no field";
    UnresolvedLink = "W010", Warning, "link to a document or instruction the spec does not contain";
    UnknownSection = "W011", Warning, "section content that is not understood";
    NoOpcodes = "W012", Warning, "optype without opcodes";
    LegacySkipped = "W013", Warning, "file not in the DSL skipped";
    BadExample = "W014", Warning, "example does not assemble or does not round-trip";
    SeedHookMismatch = "W015", Warning, "the spec's own __Simulation hook disagrees with the opcode's operands";
    ModifierNotApplied = "W016", Warning, "operand modifier the simulation neither applies nor passes";
    HookOutputNotListed = "W017", Warning, "simulation writes an operand OutList does not name";
    NoSimulation = "W018", Warning, "optype without a simulation hook";
    StrayBits = "W019", Warning, "instruction word with bits no field covers";
    MisspeltOperand = "W020", Warning, "syntax operand bound by position, though its name is one letter from a field's";
    LoneDomain = "W021", Warning, "simulation domain written once, near another domain's name";
    DuplicateOperand = "W022", Warning, "syntax operand written twice in one template";
    ForeignExample = "W023", Warning, "example of another instruction";
    EmptyType = "W024", Warning, "bit-field type without values";
    RegisterNamedOperand = "W025", Warning, "syntax operand named as a register, bound by position to a field of another kind";
    UnwritableWord = "W026", Warning, "instruction word no syntax form writes";
    TooManyModifiers = "W027", Warning, "template with more modifiers than a line may write";
    ShadowedForm = "W028", Warning, "syntax form whose lines assemble as another opcode";
    ListedTwice = "W029", Warning, "name listed twice in an operand-info directive or as an ISA control";
    OptionalWithoutDefault = "W030", Warning, "a line may leave out a field that has no default (it then encodes 0)";
    AmbiguousModifiers = "W031", Warning, "an optional modifier shares spellings with a later one: a line cannot leave it out and write the other";
    OutputNotWritten = "W032", Warning, "OutList names an operand the simulation hook never writes";
    UndeclaredControl = "W033", Warning, "a template's $name is a field the ISA does not declare as a control";
    OrderAgainstTemplate = "W034", Warning, "Order lists two operands in the other order than a template writes them";
    HookInputNotListed = "W035", Warning, "simulation reads an operand InList does not name";
    MessageNamesNoField = "W036", Warning, "an exception rule's message names a field the opcode does not have";
    TemplateCommas = "W037", Warning, "syntax template with a comma missing or doubled between operands";
    OrphanSubField = "W038", Warning, "sub-field (such as rb.neg) of a field the opcode does not have";
    ControlCharacter = "W039", Warning, "a control character (NUL, ESC, ...) in a spec file";
    UnbalancedBracket = "W040", Warning, "a bracket of __Semantics pseudo-code that closes nothing, the wrong one, or is never closed";
}

impl Code {
    /// The warning code `s` names (any case, spaces around), for
    /// `check --allow` and the `isa!` macro's `allow`: an error code, or a
    /// code that does not exist, is refused with the reason.
    pub fn allowed_warning(s: &str) -> Result<Code, String> {
        let all = Code::ALL;
        match all.iter().find(|c| c.as_str().eq_ignore_ascii_case(s.trim())) {
            Some(c) if c.severity() == Severity::Warning => Ok(*c),
            Some(c) => Err(format!("{} is an error; only warnings can be allowed", c.as_str())),
            None => Err(format!(
                "no diagnostic code `{s}` (warnings are W001 to {})",
                all.iter().rev().find(|c| c.severity() == Severity::Warning).map_or("", |c| c.as_str())
            )),
        }
    }

    /// Where the code sorts among diagnostics: 0 for problems with a
    /// declaration as such (unreadable, malformed, defined twice, a cycle,
    /// a second ISA), which others follow from, so they come first and
    /// are not cut off by the shown limit; 1 for the rest.
    pub fn rank(self) -> u8 {
        use Code::*;
        match self {
            Io | InvalidUtf8 | StrayText | MalformedDecl | MalformedEnumValue | MalformedProperty | UnknownSectionKeyword
            | UndefinedParent | DuplicateDefinition | InheritanceCycle | WrongParentKind | DuplicateValue | MissingIsa => 0,
            _ => 1,
        }
    }
}

/// A secondary label: another place that explains the primary one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    /// The place.
    pub span: Span,
    /// What it says about the place.
    pub message: String,
}

/// One diagnostic, with a primary span and optional secondary labels and notes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Which problem it is.
    pub code: Code,
    /// The headline, after `error[E030]: `.
    pub message: String,
    /// Where the problem is (`None` for one that is nowhere in a file, such as an empty spec).
    pub span: Option<Span>,
    /// Text under the primary caret (may be empty).
    pub label: String,
    /// Other places that explain this one.
    pub secondary: Vec<Label>,
    /// `note:` lines (see [`Diagnostic::all_notes`]).
    pub notes: Vec<String>,
    /// The opcodes a problem found once per opcode concerns (an inherited
    /// field, a shared hook): [`Diagnostics::sort`] merges the reports of one
    /// problem into one, and the last note names them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opcodes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic of `code` at `span`, with no label, secondary labels or notes.
    pub fn new(code: Code, span: impl Into<Option<Span>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            span: span.into(),
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
            opcodes: Vec::new(),
        }
    }
    /// Says the problem was found in opcode `name` (see [`Diagnostic::opcodes`]).
    pub fn in_opcode(mut self, name: impl Into<String>) -> Self {
        self.opcodes.push(name.into());
        self
    }
    /// Text under the primary caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// Adds a secondary label at `span`.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }
    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// Adds each of `notes` (none, when given `None`).
    pub fn with_notes(mut self, notes: impl IntoIterator<Item = String>) -> Self {
        self.notes.extend(notes);
        self
    }
    /// The notes as shown: [`Diagnostic::notes`], then the opcodes' names.
    pub fn all_notes(&self) -> impl Iterator<Item = String> + '_ {
        self.notes.iter().cloned().chain((!self.opcodes.is_empty()).then(|| format!("in {}", self.opcodes.join(", "))))
    }
    /// Its code's severity.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
    /// Whether its code is an error.
    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }
}

/// A list of diagnostics collected over a whole compilation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Diagnostics {
    /// The diagnostics, in the order pushed until [`Diagnostics::sort`].
    pub items: Vec<Diagnostic>,
    /// Errors and warnings [`Diagnostics::push_shown`] counted but did not keep.
    #[serde(skip)]
    unkept: (usize, usize),
    /// Errors and warnings [`Diagnostics::push_shown`] kept.
    #[serde(skip)]
    kept: (usize, usize),
}

impl Diagnostics {
    /// Adds one diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    /// Adds one diagnostic of a stream that arrives in the order it renders
    /// in (a words file's, word after word; an assembly file's, line after
    /// line) if it can be shown: past [`report::shown_limit`] errors (or
    /// warnings), it is only counted, so that a file of a million bad
    /// lines does not hold a million diagnostics. The counts, the summary
    /// and the "not shown" note still cover every one.
    pub fn push_shown(&mut self, d: Diagnostic) {
        let limit = report::shown_limit();
        let (kept, unkept) = if d.is_error() { (&mut self.kept.0, &mut self.unkept.0) } else { (&mut self.kept.1, &mut self.unkept.1) };
        if *kept < limit {
            *kept += 1;
            self.items.push(d);
        } else {
            *unkept += 1;
        }
    }
    /// Adds several diagnostics.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.unkept.0 > 0 || self.items.iter().any(Diagnostic::is_error)
    }
    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count() + self.unkept.0
    }
    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items.iter().filter(|d| !d.is_error()).count() + self.unkept.1
    }
    /// Whether there are no diagnostics.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.items.len() + self.unkept.0 + self.unkept.1
    }
    /// Sorts by [`Code::rank`] (broken declarations first), then errors
    /// before warnings (a spec's known warnings do not bury a new error),
    /// then file and position, code and message, and drops exact
    /// duplicates (a rule inherited by many opcodes is reported once).
    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| {
            (a.code.rank(), !a.is_error(), a.span, a.code, &a.message).cmp(&(b.code.rank(), !b.is_error(), b.span, b.code, &b.message))
        });
        // The same problem found again (an inherited field or rule, checked
        // once per opcode) is reported once, with the first one's notes and
        // every opcode's name.
        self.items.dedup_by(|b, a| {
            let same = a.span == b.span && a.code == b.code && a.message == b.message;
            if same {
                for o in b.opcodes.drain(..) {
                    if !a.opcodes.contains(&o) {
                        a.opcodes.push(o);
                    }
                }
            }
            same
        });
    }

    /// Sorts by place (placeless first), then code, keeping the order of
    /// diagnostics alike (a line's own error before its label's): the
    /// order `isa` shows a file's diagnostics in
    /// (`isa_runtime::report::FileReport`), for the commands that report
    /// on the same files (`isa-codegen asm`).
    pub fn sort_by_place(&mut self) {
        self.items.sort_by_key(|d| (d.span.map(|s| (s.file, s.start)), d.code.as_str()));
    }

    /// Renders all diagnostics like rustc (`error[E030]: ...`, ` --> file:line:col`,
    /// the source line and a caret), followed by a summary line.
    /// At most `ISA_MAX_DIAGNOSTICS` of them (`report::shown_limit`).
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        self.render_at_most(sources, color, report::shown_limit())
    }

    /// [`Diagnostics::render`] showing at most `limit`, whatever the
    /// environment says (golden files must not depend on it).
    pub fn render_at_most(&self, sources: &SourceMap, color: bool, limit: usize) -> String {
        let files = FilesAdapter::new(sources);
        let items: Vec<_> = self.items.iter().map(|d| to_codespan(d, sources)).collect();
        report::render_counted(&files, &items, color, limit, (self.error_count(), self.warning_count()))
    }

    /// One line such as `3 errors, 12 warnings`.
    pub fn summary(&self) -> String {
        report::summary(self.error_count(), self.warning_count())
    }
}

fn to_codespan(d: &Diagnostic, sources: &SourceMap) -> cs::Diagnostic<u32> {
    // Names what `printable` hides on the caret's line or in the message.
    let line = d.span.filter(|s| (s.file.0 as usize) < sources.len()).map(|s| {
        let f = sources.get(s.file);
        // The line's number as the snippet gives it (the source map's lines).
        let number = f.line_starts().binary_search(&s.start).unwrap_or_else(|i| i.saturating_sub(1)) + 1;
        (number, isa_runtime::report::line_at(&f.text, s.start as usize))
    });
    let hidden = isa_runtime::shown::hidden_note(line, &[&d.message, &d.label]);
    let mut out = match d.severity() {
        Severity::Error => cs::Diagnostic::error(),
        Severity::Warning => cs::Diagnostic::warning(),
    }
    .with_code(d.code.as_str())
    .with_message(printable(&d.message))
    .with_notes(d.all_notes().map(|n| printable(&n).into_owned()).chain(hidden).collect());
    let mut labels = Vec::new();
    if let Some(span) = d.span {
        labels.push(cs::Label::primary(span.file.0, span.range()).with_message(printable(&d.label)));
    }
    for l in &d.secondary {
        labels.push(cs::Label::secondary(l.span.file.0, l.span.range()).with_message(printable(&l.message)));
    }
    out = out.with_labels(labels);
    out
}

use isa_runtime::shown::printable;

/// The sources as `codespan` reads them: names and text made [`printable`]
/// (once per file, and only for files that need it).
struct FilesAdapter<'a> {
    sources: &'a SourceMap,
    shown: Vec<(std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>)>,
}

impl<'a> FilesAdapter<'a> {
    fn new(sources: &'a SourceMap) -> Self {
        let shown = sources.files().map(|(_, f)| (printable(&f.name), printable(&f.text))).collect();
        FilesAdapter { sources, shown }
    }
}

impl<'a> Files<'a> for FilesAdapter<'a> {
    type FileId = u32;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: u32) -> Result<&'a str, FilesError> {
        self.shown.get(id as usize).map(|(n, _)| n.as_ref()).ok_or(FilesError::FileMissing)
    }
    fn source(&'a self, id: u32) -> Result<&'a str, FilesError> {
        self.shown.get(id as usize).map(|(_, t)| t.as_ref()).ok_or(FilesError::FileMissing)
    }
    fn line_index(&'a self, id: u32, byte_index: usize) -> Result<usize, FilesError> {
        let f = self.file(id)?;
        Ok(match f.line_starts().binary_search(&(byte_index as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        })
    }
    fn line_range(&'a self, id: u32, line_index: usize) -> Result<std::ops::Range<usize>, FilesError> {
        let f = self.file(id)?;
        let starts = f.line_starts();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: starts.len() - 1,
        })? as usize;
        let end = starts.get(line_index + 1).map(|&e| e as usize).unwrap_or(f.text.len());
        Ok(start..end)
    }
}

impl FilesAdapter<'_> {
    fn file(&self, id: u32) -> Result<&crate::source::SourceFile, FilesError> {
        if (id as usize) < self.sources.len() {
            Ok(self.sources.get(crate::source::FileId(id)))
        } else {
            Err(FilesError::FileMissing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Code;
    use isa_runtime::report::codes;

    #[test]
    fn a_stream_keeps_what_shows_and_counts_the_rest() {
        let limit = isa_runtime::report::shown_limit().min(1_000_000);
        let mut ds = super::Diagnostics::default();
        for n in 0..limit + 150 {
            ds.push_shown(super::Diagnostic::new(Code::AsmError, None, format!("e{n}")));
        }
        for n in 0..3 {
            ds.push_shown(super::Diagnostic::new(Code::StrayBits, None, format!("w{n}")));
        }
        assert_eq!((ds.items.len(), ds.error_count(), ds.warning_count(), ds.len()), (limit + 3, limit + 150, 3, limit + 153));
        assert!(ds.has_errors() && !ds.is_empty());
        let text = ds.render(&crate::SourceMap::new(), false);
        assert!(text.contains("e0") && !text.contains(&format!("e{limit}\n")), "the first errors show");
        assert!(text.ends_with("note: 150 more errors and 3 more warnings not shown; ISA_MAX_DIAGNOSTICS=0 shows all\n\n"), "{text}");
        assert_eq!(ds.summary(), format!("{} errors, 3 warnings", limit + 150));
    }

    /// The codes the `isa` command uses without this crate are the ones
    /// this table gives the same diagnostics.
    #[test]
    fn the_runtime_s_codes_are_this_table_s() {
        for (code, shared) in [
            (Code::InvalidUtf8, codes::INVALID_UTF8),
            (Code::AsmError, codes::ASM_ERROR),
            (Code::DisasmError, codes::DISASM_ERROR),
            (Code::WordsFile, codes::WORDS_FILE),
            (Code::StrayBits, codes::STRAY_BITS),
            (Code::UnwritableWord, codes::UNWRITABLE),
            (Code::SimFault, codes::SIM_FAULT),
            (Code::SimState, codes::SIM_STATE),
        ] {
            assert_eq!((code.as_str(), code.title()), shared);
        }
    }

    /// `Code::ALL` is in order (errors, then warnings, by number): the
    /// manual's table of codes lists them so.
    #[test]
    fn codes_are_listed_in_order() {
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(codes, sorted);
    }

    #[test]
    fn only_warnings_can_be_allowed() {
        assert_eq!(Code::allowed_warning(" w010 "), Ok(Code::UnresolvedLink));
        assert_eq!(Code::allowed_warning("E030"), Err("E030 is an error; only warnings can be allowed".to_string()));
        assert!(Code::allowed_warning("W999").unwrap_err().starts_with("no diagnostic code `W999` (warnings are W001 to W"));
    }
}
