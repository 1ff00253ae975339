//! Second front end: the older "SPA 5.3" notation (`spa.pest`) read into the
//! same IR types as the DSL. It describes syntax only: forms, operands and
//! their kinds, modifiers with values and defaults, prose and examples; it
//! has no bit encodings, so its optypes have no opcodes (encodings absent, not
//! invented). They go to [`Isa::legacy`](crate::ir::Isa::legacy). The
//! examples are checked against the file's own forms (W014).

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::ir::*;
use crate::source::{FileId, SourceMap, Span};
use pest::iterators::Pair;
use pest::Parser;

/// The parser pest derives from `spa.pest`, in a module of its own: pest
/// generates [`Rule`] (one variant per grammar rule) and `Rule::all_rules`
/// without docs, which the crate's `missing_docs` lint would report.
mod derived {
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "spa.pest"]
    pub(super) struct SpaParser;
}
use derived::SpaParser;
pub use derived::Rule;

/// Name of the notation, as shown in docs and diffs.
pub const NOTATION: &str = "SPA 5.3";

/// Whether a file is in the SPA notation (its first non-blank line is
/// `SPA x.y:`; lines end as in [`parse_file`]).
pub fn is_spa(text: &str) -> bool {
    isa_runtime::text::lex::lines(text).map(|(_, l)| l).find(|l| !l.trim().is_empty()).is_some_and(|l| SpaParser::parse(Rule::header, l).is_ok())
}

struct Form {
    start: Span,
    lines: Vec<String>,
    /// Index in `lines` of the operand line, where operands written on a
    /// line before the form (`{{-}{|}#Immfp10H1{|}}, ...`) belong.
    operand_line: Option<usize>,
    mnemonic: Option<(String, Span)>,
    modifiers: Vec<SyntaxModifier>,
    operands: Vec<SyntaxOperand>,
    controls: Vec<String>,
    comment: Option<String>,
}

/// Reads one SPA file into legacy optypes (one per mnemonic).
pub fn parse_file(sources: &SourceMap, file: FileId, diags: &mut Diagnostics) -> Vec<Optype> {
    let text = &sources.get(file).text;
    let loc = |span: Span| {
        let (line, col) = sources.get(span.file).line_col(span.start);
        Loc { file: span.file.0, line: line as u32, col: col as u32, span: Some(span) }
    };
    let mut forms: Vec<(SyntaxForm, Span)> = Vec::new();
    let mut lists: Vec<ValueList> = Vec::new();
    let mut prose = String::new();
    // The last paragraph of `prose` is a definition (`.FTZ: ...`).
    let mut in_definition = false;
    let mut prose_start: Option<Span> = None;
    let mut examples: Vec<(String, Example)> = Vec::new();
    let mut pending: Vec<SyntaxOperand> = Vec::new();
    let mut pending_text: Option<String> = None;
    let mut current: Option<Form> = None;
    let mut seen_header = false;
    // Lines end at `\n`, `\r\n` or a lone `\r`, as in the DSL's files.
    for (at, line) in isa_runtime::text::lex::lines(text) {
        let span = Span::new(file, at, at + line.len());
        if line.trim().is_empty() {
            continue;
        }
        if !seen_header {
            seen_header = true;
            if SpaParser::parse(Rule::header, line).is_ok() {
                continue;
            }
        }
        if let Ok(mut p) = SpaParser::parse(Rule::value_list, line) {
            lists.push(value_list(&mut p, loc(span)));
            // Between prose paragraphs, the list is what the next lines
            // describe (`.ofmt: {...}` then `Output format.`): the prose keeps it.
            if current.is_none() && prose_start.is_some() {
                prose.push_str("\n\n");
                prose.push_str(line.trim());
                in_definition = false;
            }
            continue;
        }
        if let Some(form) = &mut current {
            form.lines.push(line.trim().to_string());
            if let Ok(mut p) = SpaParser::parse(Rule::form_end, line) {
                let comment = p.next().and_then(|p| p.into_inner().find(|i| i.as_rule() == Rule::rest)).map(|r| r.as_str().trim().to_string());
                form.comment = comment.filter(|c| !c.is_empty());
                if !pending.is_empty() {
                    // Operands written before the form end its operand list.
                    if let (Some(k), Some(text)) = (form.operand_line, pending_text.take()) {
                        let l = &mut form.lines[k];
                        l.push_str(if l.trim_end().ends_with(',') { " " } else { ", " });
                        l.push_str(&text);
                    }
                }
                form.operands.append(&mut pending);
                let f = current.take().expect("in a form");
                match f.mnemonic {
                    Some((m, _)) => forms.push((
                        SyntaxForm {
                            text: f.lines.join(" "),
                            mnemonic: m,
                            modifiers: f.modifiers,
                            operands: f.operands,
                            controls: f.controls,
                            control_locs: Vec::new(),
                            comment: f.comment,
                            loc: loc(f.start),
                        },
                        f.start,
                    )),
                    None => diags.push(Diagnostic::new(Code::MalformedSyntax, f.start, "SPA form without a mnemonic")),
                }
                continue;
            }
            if let Ok(mut p) = SpaParser::parse(Rule::control, line) {
                if let Some(name) = p.next().and_then(|p| p.into_inner().find(|i| i.as_rule() == Rule::ident)) {
                    form.controls.push(name.as_str().to_string());
                }
                continue;
            }
            if form.mnemonic.is_none() {
                match SpaParser::parse(Rule::mnemonic_line, line) {
                    Ok(mut p) => {
                        for c in p.next().map(|p| p.into_inner()).into_iter().flatten() {
                            let cs = span.sub(c.as_span().start(), c.as_span().end());
                            match c.as_rule() {
                                Rule::mnemonic => form.mnemonic = Some((c.as_str().to_string(), cs)),
                                Rule::modifier => {
                                    let optional = c.as_str().starts_with('{');
                                    let name = c.into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default();
                                    form.modifiers.push(SyntaxModifier { name, optional, loc: loc(cs) });
                                }
                                _ => {}
                            }
                        }
                    }
                    Err(e) => diags.push(failure(span, line, &e, "SPA mnemonic line")),
                }
                continue;
            }
            match SpaParser::parse(Rule::operand_line, line) {
                Ok(mut p) => {
                    form.operand_line = Some(form.lines.len() - 1);
                    for o in p.next().map(|p| p.into_inner()).into_iter().flatten().filter(|o| o.as_rule() == Rule::operand) {
                        form.operands.push(operand(o, span, &loc));
                    }
                }
                Err(e) => diags.push(failure(span, line, &e, "SPA operand line")),
            }
            continue;
        }
        if SpaParser::parse(Rule::form_start, line).is_ok() {
            current = Some(Form {
                start: span,
                lines: vec![line.trim().to_string()],
                operand_line: None,
                mnemonic: None,
                modifiers: Vec::new(),
                operands: Vec::new(),
                controls: Vec::new(),
                comment: None,
            });
            continue;
        }
        if line.trim_start().starts_with("{{") {
            if let Ok(mut p) = SpaParser::parse(Rule::operand_line, line) {
                pending = p
                    .next()
                    .map(|p| p.into_inner())
                    .into_iter()
                    .flatten()
                    .filter(|o| o.as_rule() == Rule::operand)
                    .map(|o| operand(o, span, &loc))
                    .collect();
                pending_text = Some(line.trim().to_string());
                continue;
            }
        }
        let known = |m: &str| forms.iter().any(|(f, _)| f.mnemonic == m);
        if let Ok(mut p) = SpaParser::parse(Rule::example, line) {
            let m = p.next().and_then(|p| p.into_inner().find(|i| i.as_rule() == Rule::mnemonic)).map(|m| m.as_str().to_string());
            if let Some(m) = m.filter(|m| known(m)) {
                examples.push((m, Example { text: line.to_string(), loc: loc(span) }));
                continue;
            }
        }
        prose_start.get_or_insert(span);
        // The prose is hard-wrapped: a line continues the paragraph before
        // it unless it starts a definition (`.FTZ: ...`, `< NULL >: ...`),
        // a term's line (`immfp16H0 fp16 immediate ...`), a label (`Note:
        // ...`), or a new sentence after one that ended outside a
        // definition (a definition's later sentences are its own).
        let t = line.trim();
        let ended = prose.trim_end().ends_with(['.', ':', ')']);
        let definition = t.starts_with(['.', '<']);
        let first = t.split(' ').next().unwrap_or_default();
        let term = t.len() > first.len()
            && first.bytes().all(|c| c.is_ascii_alphanumeric())
            && first.bytes().any(|c| c.is_ascii_digit())
            && first.starts_with(|c: char| c.is_ascii_lowercase());
        let label = first.len() > 1 && first.ends_with(':') && first[..first.len() - 1].bytes().all(|c| c.is_ascii_alphabetic());
        let starts = definition || term || label || (ended && !in_definition && t.starts_with(|c: char| c.is_uppercase()));
        if starts {
            in_definition = definition;
        }
        if !prose.is_empty() {
            prose.push_str(if starts { "\n\n" } else { "\n" });
        }
        prose.push_str(t);
    }
    if let Some(f) = current {
        diags.push(Diagnostic::new(Code::MalformedSyntax, f.start, "SPA form is never closed").with_label("expected a `;` line"));
    }
    // One optype per mnemonic, in order of appearance.
    let mut out: Vec<Optype> = Vec::new();
    for (form, span) in forms {
        let name = form.mnemonic.clone();
        let idx = match out.iter().position(|o| o.name == name) {
            Some(i) => i,
            None => {
                out.push(Optype {
                    name: name.clone(),
                    groups: Vec::new(),
                    loc: loc(span),
                    syntax: Vec::new(),
                    broken_templates: 0,
                    broken_hook: false,
                    value_lists: lists.clone(),
                    docs: Docs {
                        description: prose_start.map(|s| Prose { text: prose.clone(), loc: loc(s) }),
                        ..Docs::default()
                    },
                    examples: examples.iter().filter(|(m, _)| *m == name).map(|(_, e)| e.clone()).collect(),
                    simulation: None,
                    hook: None,
                    opcodes: Vec::new(),
                    notation: Some(NOTATION.to_string()),
                });
                out.len() - 1
            }
        };
        out[idx].syntax.push(form);
    }
    out
}

/// Checks the examples of the SPA optypes (`isa.legacy`) against their
/// forms (W014). Runs once the ISA is resolved: an example's operands are
/// told apart by the spec's register types (their prefixes and named
/// registers), not by any spelling known here.
pub fn check_examples(isa: &Isa, diags: &mut Diagnostics) {
    let kinds = OperandKinds::new(isa);
    for o in &isa.legacy {
        for e in &o.examples {
            if let Some((reason, at)) = check_example(o, &e.text, &kinds) {
                if let Some(span) = e.loc.span {
                    // At the text the reason is about, when it names one.
                    let span = match at {
                        Some(part) => {
                            let start = part.as_ptr() as usize - e.text.as_ptr() as usize;
                            span.sub(start, start + part.len())
                        }
                        None => span,
                    };
                    diags.push(
                        Diagnostic::new(Code::BadExample, span, format!("example does not match the SPA forms: {reason}")).with_label(reason),
                    );
                }
            }
        }
    }
}

/// What an example's operand text is, by the ISA's register types: their
/// prefixes (a prefix then digits) and named registers, each a register
/// or a predicate.
struct OperandKinds<'a> {
    /// (prefix, is a predicate file)
    prefixes: Vec<(&'a str, bool)>,
    /// (name, is in a predicate file)
    named: Vec<(&'a str, bool)>,
}

impl<'a> OperandKinds<'a> {
    fn new(isa: &'a Isa) -> Self {
        let mut k = OperandKinds { prefixes: Vec::new(), named: Vec::new() };
        for t in &isa.types {
            if let TypeKind::Register { prefix, predicate, constants, .. } = &t.kind {
                k.prefixes.push((prefix.as_str(), *predicate));
                k.named.extend(constants.iter().map(|c| (c.name.as_str(), *predicate)));
            }
        }
        k
    }

    /// `Some(is a predicate)` when `name` names a register.
    fn register(&self, name: &str) -> Option<bool> {
        if let Some(&(_, p)) = self.named.iter().find(|(n, _)| *n == name) {
            return Some(p);
        }
        // The longest prefix wins (`UR4` is not an `R`-file name).
        self.prefixes
            .iter()
            .filter(|(pre, _)| name.strip_prefix(pre).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())))
            .max_by_key(|(pre, _)| pre.len())
            .map(|&(_, p)| p)
    }

    /// The operand kind letter of [`operand_kind`] for an example's text.
    fn of(&self, core: &str) -> char {
        if core.starts_with("c[") {
            'C'
        } else if core.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            'I'
        } else {
            match self.register(core) {
                Some(true) => 'P',
                _ => 'R',
            }
        }
    }
}

fn value_list(p: &mut pest::iterators::Pairs<Rule>, loc: Loc) -> ValueList {
    let mut it = p.next().map(|p| p.into_inner()).into_iter().flatten();
    let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
    // An undotted name (`INVALID`) marks a reserved encoding: nothing a
    // line can write, so not a value; the manual lists it as reserved.
    let (items, reserved): (Vec<_>, Vec<_>) = it.filter(|i| i.as_rule() == Rule::list_item).partition(|i| i.as_str().trim_start().starts_with(['.', '<']));
    let reserved = reserved.iter().map(|i| i.as_str().trim().trim_end_matches('*').trim_end().to_string()).collect();
    let items = items
        .into_iter()
        .map(|i| {
            let is_default = i.as_str().trim_end().ends_with('*');
            // `< NULL >` (no modifier written) has the empty spelling.
            let spelling = i
                .into_inner()
                .find(|x| matches!(x.as_rule(), Rule::value_name | Rule::null_item))
                .map(|x| if x.as_rule() == Rule::null_item { String::new() } else { x.as_str().to_string() })
                .unwrap_or_default();
            ValueListItem { spelling, is_default, span: None }
        })
        .collect();
    ValueList { name, items, reserved, loc }
}

fn failure(span: Span, line: &str, e: &pest::error::Error<Rule>, what: &str) -> Diagnostic {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    }
    .min(line.len());
    Diagnostic::new(Code::MalformedSyntax, span.sub(pos, pos), format!("malformed {what}"))
}

fn operand(o: Pair<Rule>, line: Span, loc: &dyn Fn(Span) -> Loc) -> SyntaxOperand {
    let s = o.as_span();
    let span = line.sub(s.start(), s.end());
    let inner = o.into_inner().next();
    let optional = inner.as_ref().is_some_and(|i| i.as_rule() == Rule::opt_group);
    let plain = match inner {
        Some(i) if i.as_rule() == Rule::opt_group => i.into_inner().next(),
        other => other,
    };
    let mut op = SyntaxOperand { name: String::new(), shape: OperandShape::Named, optional, prefixes: Vec::new(), suffixes: Vec::new(), loc: loc(span) };
    for part in plain.map(|p| p.into_inner()).into_iter().flatten() {
        let ps = part.as_span();
        let dloc = loc(line.sub(ps.start(), ps.end()));
        match part.as_rule() {
            Rule::decoration => {
                let t = part.as_str();
                let kind = match t.trim_matches(['{', '}']) {
                    "-" => DecorationKind::Neg,
                    "|" => DecorationKind::Abs,
                    "!" => DecorationKind::Not,
                    _ => DecorationKind::Invert,
                };
                op.prefixes.push(Decoration { kind, name: t.trim_matches(['{', '}']).to_string(), optional: t.starts_with('{'), loc: dloc });
            }
            Rule::atom => op.name = part.as_str().to_string(),
            Rule::suffix => {
                if let Some(n) = part.clone().into_inner().next() {
                    op.suffixes.push(Decoration { kind: DecorationKind::Suffix, name: n.as_str().to_string(), optional: true, loc: dloc });
                }
            }
            _ => {}
        }
    }
    op
}

/// Operand kind letter of an SPA operand text: R (register), C (constant
/// memory), I (immediate), P (predicate).
pub fn operand_kind(name: &str) -> char {
    if name.starts_with("c[") {
        'C'
    } else if name.starts_with('#') {
        'I'
    } else if name.starts_with('P') || name.starts_with('p') {
        'P'
    } else {
        'R'
    }
}

/// Why an example matches none of the optype's forms (the best reason), and
/// the part of `text` it is about (none: the whole line), or None.
fn check_example<'t>(o: &Optype, text: &'t str, kinds: &OperandKinds) -> Option<(String, Option<&'t str>)> {
    let code = text.split("//").next().unwrap_or("").trim().trim_end_matches(';').trim();
    let (head, rest) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
    let mods: Vec<&str> = head.split('.').skip(1).collect();
    let ops: Vec<&str> = split_operands(rest);
    let mut best: Option<(usize, String, Option<&str>)> = None;
    for f in &o.syntax {
        match match_form(o, f, &mods, &ops, kinds) {
            Ok(()) => return None,
            Err((progress, r, at)) => {
                if best.as_ref().is_none_or(|b| progress > b.0) {
                    best = Some((progress, r, at));
                }
            }
        }
    }
    best.map(|b| (b.1, b.2))
}

/// The operand texts of an example, split at commas outside brackets; a
/// comma with nothing after it leaves an empty last text.
fn split_operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() || !out.is_empty() {
        out.push(s[start..].trim());
    }
    out
}

fn list_values<'a>(o: &'a Optype, name: &str) -> Option<Vec<&'a str>> {
    o.value_lists.iter().find(|l| l.name == name).map(|l| l.items.iter().map(|i| i.spelling.as_str()).collect())
}

/// Matches an example against a form; on failure, how far it got, why,
/// and the part of the example's text it is about (a slice of it).
fn match_form<'t>(o: &Optype, f: &SyntaxForm, mods: &[&'t str], ops: &[&'t str], kinds: &OperandKinds) -> Result<(), (usize, String, Option<&'t str>)> {
    for (k, &m) in mods.iter().enumerate() {
        if mods[..k].contains(&m) {
            return Err((0, format!("modifier `.{m}` is written twice"), Some(m)));
        }
        let ok = f.modifiers.iter().any(|slot| slot.name == m || list_values(o, &slot.name).is_some_and(|v| v.contains(&m)));
        if !ok {
            return Err((0, format!("modifier `.{m}` is in none of this form's lists"), Some(m)));
        }
    }
    // A comma with nothing after it, whatever the form.
    if ops.last().is_some_and(|t| t.is_empty()) {
        return Err((usize::MAX, "empty operand after the last comma".to_string(), None));
    }
    let wanted: Vec<char> = f.operands.iter().map(|op| operand_kind(&op.name)).collect();
    if ops.len() != wanted.len() {
        return Err((1, format!("{} operands, but `{}` takes {}", ops.len(), f.mnemonic, wanted.len()), None));
    }
    for (k, ((&text, kind), op)) in ops.iter().zip(&wanted).zip(&f.operands).enumerate() {
        let err = |r: String, at: &'t str| Err((2 + k, r, Some(at)));
        // SASS writes decorated immediates in braces: `{-|0x8ef7|}`.
        let bare = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or(text);
        let core = bare.trim_start_matches(['-', '|', '!', '~']).trim_end_matches('|');
        // A register with two suffixes (`R4.F32.H0_H0`): an operand takes one.
        if let Some(first) = core.find('.').filter(|&d| kinds.register(&core[..d]).is_some()) {
            if let Some(second) = core[first + 1..].find('.') {
                return err(format!("`{text}` has two suffixes; an operand takes one"), &core[first + 1 + second..]);
            }
        }
        // A dot ends a register (`R3.H0_H1`) or a name; in a number it is
        // the decimal point.
        let (core, suffix) = match core.rfind('.') {
            Some(d) if !core[..d].ends_with(|c: char| c.is_ascii_digit()) || kinds.register(core[..d].trim_end_matches('|')).is_some() => {
                (&core[..d], Some(&core[d..]))
            }
            _ => (core, None),
        };
        let core = core.trim_end_matches('|');
        let actual = kinds.of(core);
        if actual != *kind {
            return err(format!("`{text}` where the form has `{}`", op.name), text);
        }
        if let Some(dotted) = suffix {
            let sfx = &dotted[1..];
            let allowed = op.suffixes.iter().filter_map(|s| list_values(o, &s.name)).flatten().any(|v| v == sfx);
            if !allowed {
                let lists: Vec<String> = op.suffixes.iter().map(|s| format!(".{}", s.name)).collect();
                return err(format!("`.{sfx}` is not a value of {}", if lists.is_empty() { "any suffix here".to_string() } else { lists.join(", ") }), dotted);
            }
        }
    }
    Ok(())
}
