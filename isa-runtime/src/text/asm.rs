//! The assembler over a [`Model`]: one line of text to an opcode and word.
//!
//! For every form spelled by the line's mnemonic (each opcode of the
//! instruction has one per template), place the dotted modifiers in the
//! form's modifier slots (any order when unambiguous, position decides
//! otherwise) and the operand texts in its operands (the operand kinds
//! written select the opcode: `R1` -> register, `c[..][..]` -> constant
//! memory, `0x10` -> immediate), trying optional operands present and
//! absent; then check the word against the spec's rules. When nothing
//! matches, the failure that got furthest into the line is reported.

use super::lex::{self, Core, Line, List, OperandText, Tok, MAX_CONTROLS, MAX_OPERANDS};
use super::literal::{float_error_message, int, int_error_message, parse_float, signed, FloatFormat};
use super::model::*;

/// Why a line does not assemble: a byte column in the line and a reason.
/// It prints as `column {col + 1}: ...`, a byte count; [`TextError`] (a
/// line of a whole text) counts characters from 1 instead, as editors do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// Byte offset in the line, from 0.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl AsmError {
    /// An error at byte column `col` of the line.
    pub fn at(col: usize, message: impl Into<String>) -> AsmError {
        AsmError { col, message: message.into() }
    }
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.col + 1, self.message)
    }
}

impl std::error::Error for AsmError {}

/// An assembled line: the word, and the opcode it decodes as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    /// The opcode's index; `Err` only for a `.word` whose value does not
    /// decode, with why and where. Such a word is data, kept as written (it
    /// is how the disassembler prints a word it cannot decode), but it is no
    /// instruction: what needs one reports the error.
    pub opcode: Result<usize, AsmError>,
    /// The instruction word.
    pub word: u128,
}

/// A failed attempt, ranked by how far into the line it got (column), then stage.
struct Attempt {
    score: (usize, u32),
    error: AsmError,
    /// A modifier no slot of form `(opcode, form)` takes: `error.message`
    /// holds the modifier, and the message, which lists every modifier the
    /// mnemonic takes, is written only for the attempt shown
    /// ([`Attempt::into_error`]); a mnemonic with many forms would
    /// otherwise pay for a list per form.
    not_allowed: Option<(usize, usize)>,
}

impl Attempt {
    /// The error to show.
    fn into_error(self, m: &Model, parts: &[&str]) -> AsmError {
        match self.not_allowed {
            Some((oc, fi)) => AsmError::at(self.error.col, not_allowed_in_form(m, oc, fi, &self.error.message, parts)),
            None => self.error,
        }
    }
}

/// The message for `part`, which no slot of form `fi` of opcode `oc` takes:
/// [`clashing_modifier`] when other forms take it but not with the other
/// `parts` written, else [`not_allowed_modifier`] with what the mnemonic
/// takes in any form (this one among them: `IADD.X` is a form of `IADD`).
fn not_allowed_in_form(m: &Model, oc: usize, fi: usize, part: &str, parts: &[&str]) -> String {
    let form = &m.opcodes[oc].forms[fi];
    let all = find_mnemonic(m, form.mnemonic).map_or(&[][..], |k| m.mnemonics[k].forms);
    let forms = || all.iter().map(|&(oc, fi)| &m.opcodes[oc as usize].forms[fi as usize]);
    let takes = |f: &Form, s: &str| f.modifiers.iter().any(|x| slot_accepts(x, s));
    if let Some(message) = clashing_modifier(part, parts, form.mnemonic, |a, b| forms().any(|f| takes(f, a) && takes(f, b))) {
        return message;
    }
    let upper = part.to_ascii_uppercase();
    let case = upper != part && forms().flat_map(|f| f.modifiers).any(|s| slot_accepts(s, &upper));
    not_allowed_modifier(part, form.mnemonic, &mnemonic_spellings(form.spellings, forms().map(|f| f.spellings)), case)
}

fn keep(best: &mut Option<Attempt>, a: Attempt) {
    if best.as_ref().is_none_or(|b| a.score > b.score) {
        *best = Some(a);
    }
}

/// An error message, formatted only when it can be shown: candidates are
/// first tried quietly, and only a line that fails is tried again `loud`.
macro_rules! msg {
    ($loud:expr, $($t:tt)*) => {
        if $loud { format!($($t)*) } else { String::new() }
    };
}

/// The message for modifier `now` when the one slot it fits already holds
/// `before` (both paths word it the same).
pub fn repeated_modifier(now: &str, before: &str) -> String {
    if now == before {
        format!("modifier `.{now}` is given twice")
    } else {
        format!("modifier `.{now}` conflicts with `.{before}`: only one of them can be given")
    }
}

/// The error for an unknown mnemonic after a guard that runs into it
/// (`@P0MOV`): the guard's text split where a guard `is_guard` accepts ends
/// and a mnemonic `is_mnemonic` knows begins (the longest such guard).
pub fn glued_guard(guard: &Tok, is_guard: impl Fn(&str) -> bool, is_mnemonic: impl Fn(&str) -> bool) -> Option<AsmError> {
    let t = guard.text;
    (1..t.len()).rev().filter(|&i| t.is_char_boundary(i)).find_map(|i| {
        let (g, rest) = t.split_at(i);
        let base = rest.split('.').next().unwrap_or(rest);
        (is_guard(g) && is_mnemonic(base)).then(|| AsmError::at(guard.col + i, format!("a space is missing between the guard `{g}` and `{base}`")))
    })
}

/// A hint for a line no form of its mnemonic takes: the spelling with the
/// fixed parts (`.X`, `.WIDE`: mnemonic parts and mandatory one-value
/// modifiers) a form requires and the line lacks, when the
/// line with them inserted after the mnemonic `assembles` (`IADD R0, P0, ..`
/// -> "did you mean `IADD.X`?"). `forms` lists each form's modifier slots
/// in template order: a fixed part's text, `None` for any other slot.
pub fn fixed_parts_hint<'a>(line: &str, lexed: &Line, forms: impl Iterator<Item = Vec<Option<&'a str>>>, assembles: impl Fn(&str) -> bool) -> Option<String> {
    let mn = lexed.mnemonic?;
    let at = mn.col + mn.text.len();
    let mut tried: Vec<String> = Vec::new();
    for slots in forms {
        let parts: Vec<&str> = slots.iter().flatten().copied().collect();
        let missing: String = parts.iter().filter(|p| !lexed.parts.iter().any(|t| t.text == **p)).map(|p| format!(".{p}")).collect();
        if missing.is_empty() || tried.contains(&missing) {
            continue;
        }
        let fixed = format!("{}{missing}{}", &line[..at], &line[at..]);
        if assembles(&fixed) {
            let end = lexed.parts.iter().last().map_or(at, |t| t.col + t.text.len());
            let rewrite = |ordered: &str| assembles(&format!("{}{ordered}{}", &line[..mn.col], &line[end..]));
            // Shown in the template's order where that reads too: each slot
            // in turn, a fixed part as itself and any other taking the next
            // part written (`ISETP.compop.boolop{.itype}.X`: `ISETP.LE.AND.X`) ...
            let mut others = lexed.parts.iter().filter(|t| !parts.contains(&t.text)).map(|t| t.text).peekable();
            let mut ordered = mn.text.to_string();
            for slot in &slots {
                if let Some(p) = slot.or_else(|| others.next()) {
                    ordered.push('.');
                    ordered.push_str(p);
                }
            }
            ordered.extend(others.flat_map(|p| [".", p]));
            if rewrite(&ordered) {
                return Some(format!("; did you mean `{ordered}`?"));
            }
            // ... else the form's fixed parts, then the other parts written.
            let others: String = lexed.parts.iter().filter(|t| !parts.contains(&t.text)).map(|t| format!(".{}", t.text)).collect();
            let ordered = format!("{}{}{others}", mn.text, parts.iter().map(|p| format!(".{p}")).collect::<String>());
            if rewrite(&ordered) {
                return Some(format!("; did you mean `{ordered}`?"));
            }
            let written: String = lexed.parts.iter().map(|t| format!(".{}", t.text)).collect();
            return Some(format!("; did you mean `{}{missing}{written}`?", mn.text));
        }
        tried.push(missing);
    }
    None
}

/// The message for a line whose mnemonic every form spells with parts it
/// lacks (`IDP` for `IDP.2A` and `IDP.4A`): the spellings, rather than the
/// one form's complaint that got furthest. `forms` lists each form's
/// mnemonic parts.
pub fn mnemonic_needs_part<'a>(base: &str, lexed: &Line, forms: impl Iterator<Item = Vec<&'a str>>) -> Option<String> {
    let mut spellings: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for parts in forms {
        if parts.iter().all(|p| lexed.parts.iter().any(|t| t.text == *p)) {
            return None;
        }
        let s: String = std::iter::once(base).chain(parts).collect::<Vec<_>>().join(".");
        if seen.insert(s.clone()) {
            spellings.push(s);
        }
    }
    let n = spellings.len();
    let mut list = spellings.iter().take(MAX_LISTED).map(|s| format!("`{s}`")).collect::<Vec<_>>();
    if n > MAX_LISTED {
        list.push(format!("{} more", n - MAX_LISTED));
    }
    let (last, rest) = list.split_last()?;
    let either = if rest.is_empty() { last.clone() } else { format!("{} or {last}", rest.join(", ")) };
    Some(format!("`{base}` is not written alone: it is {either}"))
}

/// Assembles one line. `Ok(None)` for blank, comment-only and label-only lines.
///
/// Lines as the disassembler prints them take the fast path
/// ([`super::asm_fast`]); every other line, and every line that fails,
/// [`general_line`].
pub fn assemble_line(m: &Model, line: &str) -> Result<Option<Assembled>, AsmError> {
    if let Some(a) = super::asm_fast::assemble(m, line) {
        return Ok(Some(a));
    }
    assemble(m, line, true)
}

/// What an operand text is, for [`uncombined`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextIs {
    /// A register of a class (`R4`, `PT`).
    Register,
    /// A name of no register class, or a pair: its own message says more
    /// (`r1`: did you mean `R1`?).
    OtherName,
    /// A number, a constant-memory reference, an indexed register.
    Value,
}

/// One operand of a form, for [`uncombined`].
pub struct OperandFit<'a> {
    /// As the template writes it (`SrcB`).
    pub name: &'a str,
    /// A line may leave it out.
    pub optional: bool,
    /// What it is (`a register `Rn``); empty for one without a field.
    pub describe: String,
    /// Per operand text of the line, whether it can be this operand by kind.
    pub fits: Vec<bool>,
}

/// One form's operands for [`uncombined`]; `None`: a form with an operand
/// that may take several texts (a float's lanes), which this cannot judge.
pub type FormFit<'a> = Option<Vec<OperandFit<'a>>>;

/// One way a form's operands line up with a line's texts: per position,
/// the operand's name, whether the text there fits it, and what it is.
type Alignment<'a> = Vec<(&'a str, bool, &'a str)>;

/// The ways form `f`'s operands can line up with `n` texts: each optional
/// operand present or not (at most 4 of them).
fn alignments<'a>(f: &'a [OperandFit<'a>], n: usize) -> Option<Vec<Alignment<'a>>> {
    let optional: Vec<usize> = (0..f.len()).filter(|&k| f[k].optional).collect();
    if optional.len() > 4 {
        return None;
    }
    let mut out = Vec::new();
    for mask in 0u32..1 << optional.len() {
        let kept = f.iter().enumerate().filter(|(k, o)| !o.optional || optional.iter().position(|x| x == k).is_some_and(|b| mask & 1 << b != 0));
        let ops: Vec<&OperandFit> = kept.map(|(_, o)| o).collect();
        if ops.len() == n {
            out.push(ops.iter().enumerate().map(|(p, o)| (o.name, o.fits.get(p).copied().unwrap_or(false), o.describe.as_str())).collect());
        }
    }
    Some(out)
}

/// The error for a line no form of `mnemonic` takes by the kinds of its
/// operand texts, when the forms say more than the best attempt did (both
/// paths word it the same; `None` otherwise). `texts` are the operand texts
/// with their columns, kinds ([`kind_of`], or a register's class: `a
/// predicate `Pn``) and what each is.
/// - A text whose kind no form takes at its position (`I2F R0, 0x1`): what
///   the forms take there, at that text.
/// - Every text fits its position in some form, but no form takes them all
///   (`FFMA R0, R1, 0f3F800000, c[0x0][0x10]`: an immediate `SrcB` and a
///   constant-memory `SrcC` each have a form, together none): the first
///   two texts no form takes together, at the later one.
pub fn uncombined(mnemonic: &str, texts: &[(&str, usize, &str, TextIs)], forms: &[FormFit], current: &AsmError) -> Option<AsmError> {
    // Only a better word for the text the error is at: another text's
    // kind is a guess when the line meant a form it does not spell.
    combination(mnemonic, texts, forms, current).filter(|e| e.col == current.col)
}

fn combination(mnemonic: &str, texts: &[(&str, usize, &str, TextIs)], forms: &[FormFit], current: &AsmError) -> Option<AsmError> {
    // How each form lines up with the texts (optional operands in or out):
    // one way at most, or which operand a text was meant for is a guess
    // (`LEA.HI.X Rd{, pu}, Ra, .., UImm5Sca{, {!}pp}` with six texts).
    let mut same: Vec<Alignment> = Vec::new();
    for f in forms {
        let ways = alignments(f.as_ref()?, texts.len())?;
        if ways.len() > 1 {
            return None;
        }
        same.extend(ways);
    }
    // A form that takes every kind failed for another reason: that is the error.
    if same.is_empty() || same.iter().any(|f| f.iter().all(|o| o.1)) {
        return None;
    }
    let taker = |p: usize| same.iter().find(|f| f[p].1).map(|f| f[p].0);
    if let Some(p) = (0..texts.len()).find(|&p| taker(p).is_none()) {
        let (t, col, kind, is) = texts[p];
        // An operand with no description (the literal `PR`, `R[URb+SImm9]`) has its own message.
        if is == TextIs::OtherName || same.iter().any(|f| f[p].2.is_empty()) {
            return None;
        }
        let mut names: Vec<&str> = Vec::new();
        let mut takes: Vec<&str> = Vec::new();
        for f in &same {
            if !names.contains(&f[p].0) {
                names.push(f[p].0);
            }
            if !takes.contains(&f[p].2) {
                takes.push(f[p].2);
            }
        }
        let (last, rest) = takes.split_last()?;
        let either = if rest.is_empty() { last.to_string() } else { format!("{} or {last}", rest.join(", ")) };
        let name = if names.len() == 1 { format!("`{}`", names[0]) } else { "this operand".to_string() };
        // A register is of its class; anything else cannot be what it looks like.
        let register = is == TextIs::Register;
        // A register's own message that names this operand says as much.
        if register && names.len() == 1 && current.message.contains(&format!("operand `{}`", names[0])) {
            return None;
        }
        let is = if register { "is" } else { "cannot be" };
        return Some(AsmError::at(col, format!("`{t}` {is} {kind}: no form of `{mnemonic}` takes one as {name}, which is {either}")));
    }
    for j in 1..texts.len() {
        for i in 0..j {
            if !same.iter().any(|f| f[i].1 && f[j].1) {
                let ((ti, _, ki, _), (tj, cj, kj, _)) = (texts[i], texts[j]);
                return Some(AsmError::at(
                    cj,
                    format!("no form of `{mnemonic}` takes {ki} as `{}` (`{ti}`) together with {kj} as `{}` (`{tj}`)", taker(i)?, taker(j)?),
                ));
            }
        }
    }
    None
}

/// [`assemble_line`] without the fast path: what the fast path is tested against.
pub fn general_line(m: &Model, line: &str) -> Result<Option<Assembled>, AsmError> {
    assemble(m, line, true)
}

/// Whether a line assembles (the quiet pass alone: no message is written).
fn assembles(m: &Model, line: &str) -> bool {
    matches!(assemble(m, line, false), Ok(Some(_)))
}

/// [`assemble_line`]. `explain`: word the error of a line that fails
/// (a second, loud pass over the forms, and a [`fixed_parts_hint`]);
/// without it the forms are tried quietly only, and an error has no message.
fn assemble(m: &Model, line: &str, explain: bool) -> Result<Option<Assembled>, AsmError> {
    let mut lexed = Line::default();
    lex::lex_into(line, &mut lexed).map_err(|(c, msg)| AsmError::at(c, msg))?;
    let lexed = &lexed;
    let Some(mn) = lexed.mnemonic else { return Ok(None) };
    if mn.text == ".word" {
        return raw_word(m, lexed).map(Some);
    }
    let Some(k) = find_mnemonic(m, mn.text) else {
        if let Some(e) = lexed.guard.and_then(|(_, g)| glued_guard(&g, |t| is_guard(m, t), |t| find_mnemonic(m, t).is_some())) {
            return Err(e);
        }
        return Err(AsmError::at(mn.col, unknown_mnemonic(mn.text, m.mnemonics.iter().map(|x| x.name), m.without_syntax.iter().copied(), m.spelled)));
    };
    // Each operand text is read once, whatever the number of candidates.
    let mut pre: List<Pre, MAX_OPERANDS> = List::default();
    for t in lexed.operands.iter() {
        pre.push(Pre::new(m, t.text));
    }
    let guard = lexed.guard.map_or_else(RegName::default, |(_, t)| RegName::new(m, t.text));
    // Each control's index in the model, or `None` when there is no such control.
    let mut controls: [Option<u16>; MAX_CONTROLS] = [None; MAX_CONTROLS];
    for (c, (name, _)) in controls.iter_mut().zip(lexed.controls.iter()) {
        *c = m.controls.iter().position(|n| same(n, name.text)).map(|i| i as u16);
    }
    let passes: &[bool] = if explain { &[false, true] } else { &[false] };
    for &loud in passes {
        let mut best: Option<Attempt> = None;
        for &(oc, fi) in m.mnemonics[k].forms {
            let (oc, fi) = (oc as usize, fi as usize);
            // Quiet, skip the forms whose operands cannot take these texts;
            // loud, every form's failure competes for the message.
            if !loud && !may_fit(m, m.opcodes[oc].forms[fi].operands, &pre) {
                continue;
            }
            match try_form(m, lexed, guard, &pre, &controls, oc, fi, loud) {
                Ok((word, placed)) => match (m.check)(oc, word) {
                    Ok(()) => {
                        // The loud pass differs from the quiet one only by
                        // `may_fit`, which must never skip a form that fits.
                        debug_assert!(!loud, "may_fit skipped a form that assembles `{line}`");
                        return Ok(Some(Assembled { opcode: Ok(oc), word }));
                    }
                    Err(e) => {
                        let col = rule_col(m, lexed, &placed, oc, fi, e.bits);
                        keep(&mut best, Attempt { score: (usize::MAX, 9), error: AsmError::at(col, e.message), not_allowed: None })
                    }
                },
                Err(a) => keep(&mut best, a),
            }
        }
        if loud {
            let parts: Vec<&str> = lexed.parts.iter().map(|p| p.text).collect();
            let mut e = best.map(|b| b.into_error(m, &parts)).unwrap_or_else(|| AsmError::at(mn.col, "no form of this instruction matches"));
            // An error at an operand text: perhaps only the combination of kinds fails.
            if lexed.operands.iter().any(|t| t.col == e.col) {
                let kinds: Vec<(String, TextIs)> = pre
                    .iter()
                    .filter_map(|p| {
                        let core = &p.text.as_ref()?.core;
                        // A register of a class: a prefix and a number, or a named one (`PR` is neither).
                        let class = p.name.class.filter(|_| p.name.number.is_some() || p.name.named).and_then(|c| m.registers.get(c as usize));
                        let kind = match (core, class) {
                            (Core::Name(_), Some(c)) => describe_class(c.prefix, c.predicate),
                            _ => kind_of(core).to_string(),
                        };
                        let is = match (core, class) {
                            (Core::Name(_), Some(_)) => TextIs::Register,
                            (Core::Name(_) | Core::Pair { .. }, _) => TextIs::OtherName,
                            _ => TextIs::Value,
                        };
                        Some((kind, is))
                    })
                    .collect();
                let texts: Vec<(&str, usize, &str, TextIs)> = lexed.operands.iter().zip(&kinds).map(|(t, k)| (t.text, t.col, k.0.as_str(), k.1)).collect();
                // The forms whose fixed parts the line writes (`LEA.HI.X`'s are not a plain `LEA`'s).
                let written = |form: &Form| {
                    form.modifiers.iter().all(|x| match x.kind {
                        ModifierKind::Mnemonic(t) | ModifierKind::Value { spelling: t, optional: false, .. } => lexed.parts.iter().any(|p| p.text == t),
                        _ => true,
                    })
                };
                let forms: Vec<FormFit> = m.mnemonics[k]
                    .forms
                    .iter()
                    .filter(|&&(oc, fi)| written(&m.opcodes[oc as usize].forms[fi as usize]))
                    .map(|&(oc, fi)| {
                        let ops = m.opcodes[oc as usize].forms[fi as usize].operands;
                        let one_text = |o: &Operand| !matches!(o.kind, OperandKind::Float { bits, format, lanes, select } if select.is_some() || lanes > 1 || format.width() < bits.width as u32);
                        ops.iter().all(one_text).then(|| {
                            ops.iter().map(|o| OperandFit { name: o.name, optional: o.optional, describe: o.describe.to_string(), fits: pre.iter().map(|p| text_fits(m, o, p)).collect() }).collect()
                        })
                    })
                    .collect();
                if let Some(u) = uncombined(mn.text, &texts, &forms, &e).filter(|_| texts.len() == lexed.operands.len()) {
                    e = u;
                }
            }
            let spelled = m.mnemonics[k].forms.iter().map(|&(oc, fi)| {
                let form = &m.opcodes[oc as usize].forms[fi as usize];
                form.modifiers.iter().filter_map(|x| if let ModifierKind::Mnemonic(t) = x.kind { Some(t) } else { None }).collect()
            });
            if let Some(message) = mnemonic_needs_part(mn.text, lexed, spelled) {
                e = AsmError::at(mn.col, message);
            }
            let forms = m.mnemonics[k].forms.iter().map(|&(oc, fi)| {
                let form = &m.opcodes[oc as usize].forms[fi as usize];
                form.modifiers.iter().map(|x| match x.kind {
                    ModifierKind::Mnemonic(t) | ModifierKind::Value { spelling: t, optional: false, .. } => Some(t),
                    _ => None,
                }).collect()
            });
            e.message += &fixed_parts_hint(line, lexed, forms, |l| assembles(m, l)).unwrap_or_default();
            return Err(e);
        }
    }
    Err(AsmError::at(mn.col, "no form of this instruction matches"))
}

/// The message for a mnemonic no syntax form spells: an optype the spec
/// gives no `__Syntax`, an optype's name where its spelling goes
/// (`IDP4A`, written `IDP.4A`; `spelled` lists such optypes, once per
/// spelling), or else the nearest known spelling (both paths word it the
/// same).
pub fn unknown_mnemonic<'a>(text: &str, known: impl Iterator<Item = &'a str>, without_syntax: impl Iterator<Item = &'a str>, spelled: &[(&'a str, &'a str)]) -> String {
    if without_syntax.into_iter().any(|o| o == text) {
        return format!("`{text}` cannot be assembled: the spec gives optype `{text}` no `__Syntax`");
    }
    // The lexer takes the first `@..` as the guard; another is where the mnemonic should be.
    if text.starts_with('@') {
        return format!("`{text}` is a second guard: a line has one guard, before its mnemonic");
    }
    let written: Vec<String> = spelled.iter().filter(|(name, _)| *name == text).map(|(_, w)| format!("`{w}`")).collect();
    if !written.is_empty() {
        return format!("`{text}` is the name of an instruction, not its spelling: it is written {}", written.join(" or "));
    }
    // The nearest of the mnemonics and the names of optypes spelled otherwise (`IMAD_WIDE`: `IMAD.WIDE`).
    let near = crate::spelling::nearest(text, known.chain(spelled.iter().map(|(name, _)| *name)));
    let near = near.map(|n| spelled.iter().find(|(name, _)| *name == n).map_or(n, |(_, written)| *written));
    let hint = near.map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
    format!("unknown mnemonic `{text}`{hint}")
}

/// The message for modifier `part`, which no slot of the form tried takes,
/// when other forms of `mnemonic` take it but none together with another
/// part written (`IMAD.LO.X`: `.X` is only in `IMAD.HI.X`, which has no
/// `.LO`); `None` when each part goes with `part` in some form.
/// `takes_both(a, b)`: some form of the mnemonic takes spellings `a` and
/// `b` together. Both paths word it the same.
pub fn clashing_modifier(part: &str, written: &[&str], mnemonic: &str, takes_both: impl Fn(&str, &str) -> bool) -> Option<String> {
    if !takes_both(part, part) {
        return None;
    }
    let mut clashes: Vec<&str> = written.iter().copied().filter(|&p| p != part && !takes_both(part, p)).collect();
    clashes.dedup();
    let with = clashes.iter().map(|c| format!("`.{c}`")).collect::<Vec<_>>();
    match with.as_slice() {
        [] => None,
        [one] => Some(format!("modifier `.{part}` cannot be combined with {one}: no form of `{mnemonic}` takes both")),
        [init @ .., last] => Some(format!("modifier `.{part}` cannot be combined with {} or {last}: no form of `{mnemonic}` takes `.{part}` with any of them", init.join(", "))),
    }
}

/// The message for modifier `part` in a slot `text` the spec gives no field
/// (only its value list's `default`, if any, may be written).
pub fn unencodable_modifier(part: &str, text: &str, default: Option<&str>) -> String {
    let only = default.map(|d| format!(" (only its default `.{d}` may be written)")).unwrap_or_default();
    format!("modifier `.{part}` cannot be encoded: the spec gives `.{text}` no field{only}")
}

/// The message for a modifier no slot of a form takes; `case`: its upper
/// case spelling would be taken (`.ftz`). Both paths word it the same.
pub fn not_allowed_modifier(part: &str, mnemonic: &str, spellings: &str, case: bool) -> String {
    // A typo of one it takes (`.FTZZ`, `.LEE`): the nearest spelling.
    let near = || crate::spelling::nearest(part, spellings.split_whitespace().filter_map(|s| s.strip_prefix('.')));
    let hint = match (case, near()) {
        (true, _) => format!("; did you mean `.{}`?", part.to_ascii_uppercase()),
        (false, Some(n)) => format!("; did you mean `.{n}`?"),
        (false, None) => String::new(),
    };
    format!("modifier `.{part}` is not allowed here; `{mnemonic}` takes {spellings}{hint}")
}

/// The modifiers a mnemonic takes, for [`not_allowed_modifier`]: `own`,
/// the list of the form tried (as [`Form::spellings`] words it: `.F32 .F16`,
/// or `no modifiers`), then, sorted, the spellings only its other forms
/// take (`MOV` takes `.32`, and `.64` in another form). Both paths word it
/// the same.
pub fn mnemonic_spellings<'a>(own: &str, others: impl IntoIterator<Item = &'a str>) -> String {
    fn items(list: &str) -> impl Iterator<Item = String> + '_ {
        let list = if list == "no modifiers" { "" } else { list };
        list.split(" .").filter(|s| !s.is_empty()).map(|s| if s.starts_with('.') { s.to_string() } else { format!(".{s}") })
    }
    let mut out: Vec<String> = items(own).collect();
    let own: std::collections::HashSet<&str> = out.iter().map(String::as_str).collect();
    let mut extra: Vec<String> = others.into_iter().flat_map(items).filter(|s| !own.contains(s.as_str())).collect();
    drop(own);
    extra.sort();
    extra.dedup();
    out.extend(extra);
    if out.len() > MAX_LISTED_MODIFIERS {
        let more = out.len() - MAX_LISTED_MODIFIERS;
        out.truncate(MAX_LISTED_MODIFIERS);
        out.push(format!("and {more} more"));
    }
    if out.is_empty() { "no modifiers".into() } else { out.join(" ") }
}

/// At most this many spellings are listed in [`mnemonic_needs_part`]'s
/// message, then how many more there are.
const MAX_LISTED: usize = 12;

/// At most this many modifiers are listed in [`mnemonic_spellings`], then
/// how many more there are (a mnemonic of a thousand forms, say).
const MAX_LISTED_MODIFIERS: usize = 40;

/// The message for a text left over once a form's operands are placed:
/// more texts than operands, or as many, but an optional operand skipped
/// because the text in its place is of another kind (`IMAD R0, R2, ..`
/// where `pu` would be). Both paths word it the same.
pub fn too_many_operands(mnemonic: &str, max: usize, given: usize) -> String {
    if given > max {
        format!("too many operands: `{mnemonic}` takes at most {max}")
    } else {
        format!("this text is left over: `{mnemonic}` takes at most {max} operands, but one that is optional was skipped, as the text in its place is of another kind")
    }
}

/// How messages name a register class: "a register `URn`", "a predicate `Pn`".
pub fn describe_class(prefix: &str, predicate: bool) -> String {
    format!("a {} `{prefix}n`", if predicate { "predicate" } else { "register" })
}

/// The message for a name written where operand `operand` ([`Operand::describe`]
/// says what it takes) wants a register it does not name: `other` describes
/// the class the name belongs to when it is another one (`P0` for `Ra`);
/// `max` is the highest number when the name is of the right class but
/// numbered past it (`R300`); `upper`: the name in upper case would do
/// (`r1`). Both paths word it the same.
pub fn not_a_register(name: &str, operand: &str, describe: &str, other: Option<&str>, max: Option<u64>, upper: bool) -> String {
    match (other, max) {
        (Some(other), _) => format!("`{name}` is {other}, but operand `{operand}` is {describe}"),
        (None, Some(max)) => format!("`{name}` is out of range: operand `{operand}` is {describe} with n at most {max}"),
        (None, None) if upper => format!("`{name}` is not {describe} (operand `{operand}`); did you mean `{}`?", name.to_ascii_uppercase()),
        (None, None) => format!("`{name}` is not {describe} (operand `{operand}`)"),
    }
}

/// The message for a register pair `text` (of class `written_prefix`)
/// where operand `operand` wants a pair of class `prefix`: another class,
/// or registers that are not consecutive.
pub fn bad_pair(text: &str, written_prefix: &str, operand: &str, describe: &str, prefix: &str) -> String {
    if written_prefix != prefix {
        format!("`{text}` is a pair of `{written_prefix}` registers, but operand `{operand}` is {describe}")
    } else {
        format!("`{text}` is not a pair: a pair is two consecutive registers `{prefix}[n:n+1]`")
    }
}

/// The index of a base mnemonic in the model.
#[inline]
fn find_mnemonic(m: &Model, text: &str) -> Option<usize> {
    let k = key(text);
    m.mnemonics.binary_search_by(|x| x.key.cmp(&k).then_with(|| name_order(x.name, text))).ok()
}

/// Whether `text` names a register some opcode's guard can hold.
fn is_guard(m: &Model, text: &str) -> bool {
    m.opcodes.iter().filter_map(|o| o.guard).any(|g| register(m, g.class, g.reg.bits, text).is_some())
}

/// `a.cmp(b)` for names whose [`key`]s are equal: when both fit in a key,
/// one is the other padded with NULs, so the shorter is first (no compare).
fn name_order(a: &str, b: &str) -> std::cmp::Ordering {
    if a.len().max(b.len()) <= 16 {
        a.len().cmp(&b.len())
    } else {
        a.cmp(b)
    }
}

/// Whether a form's operands can take the operand texts, judged by kind
/// (and register class) alone: `false` only when placing them must fail.
/// Mirrors [`place`]: each operand takes the next text or, if optional,
/// none. A float operand may take several texts (its lanes), so what
/// follows one is left to [`place`].
fn may_fit(m: &Model, ops: &[Operand], pre: &[Pre]) -> bool {
    // Mandatory operands in a loop; an optional one branches both ways.
    let mut x = 0;
    for (k, o) in ops.iter().enumerate() {
        let fits = pre.get(x).is_some_and(|p| text_fits(m, o, p));
        if matches!(o.kind, OperandKind::Float { .. }) && (fits || x == pre.len()) {
            return true;
        }
        if o.optional {
            return (fits && may_fit(m, &ops[k + 1..], &pre[x + 1..])) || may_fit(m, &ops[k + 1..], &pre[x..]);
        }
        if !fits {
            return false;
        }
        x += 1;
    }
    x == pre.len()
}

/// Whether operand `o` can take text `p`, by kind and register class:
/// `false` only when [`operand`] must reject it.
#[inline(always)]
fn text_fits(m: &Model, o: &Operand, p: &Pre) -> bool {
    let Some(t) = &p.text else { return false };
    match (&t.core, &o.kind) {
        (Core::Name(n), OperandKind::Register { class, .. }) => {
            p.name.class == Some(*class) || (p.name.named && m.registers.get(*class as usize).is_some_and(|c| c.constants.iter().any(|(c, _)| same(c, n))))
        }
        // A pair of this file's registers (`R[4:5]` is no predicate).
        (Core::Pair { prefix, .. }, OperandKind::Register { class, .. }) => m.registers.get(*class as usize).is_some_and(|rc| rc.prefix == *prefix),
        (Core::Number(_), OperandKind::Int { .. } | OperandKind::Float { .. }) => true,
        (Core::CMem { .. }, OperandKind::ConstMem { .. }) => true,
        (Core::Indexed { .. }, OperandKind::Indexed { .. }) => true,
        (Core::Name(n), OperandKind::Literal) => same(n, o.name),
        _ => false,
    }
}

/// `.word 0x...`: a raw word, any value; one that does not decode has the
/// reason as its opcode's error.
fn raw_word(m: &Model, l: &Line) -> Result<Assembled, AsmError> {
    raw_word_extras(l)?;
    let Some(t) = l.operands.first().filter(|_| l.operands.len() == 1) else {
        return Err(AsmError::at(0, "`.word` takes one 128-bit number"));
    };
    let word = raw_word_value(t)?;
    let opcode = (m.decode)(word).map_err(|e| AsmError::at(t.col, format!("`.word` does not decode: {e}")));
    Ok(Assembled { opcode, word })
}

/// The number of a `.word` line: `0x` (or `0X`) and 1 to 32 hex digits, as the
/// disassemblers' hex words (no sign, no 33rd digit, even a leading zero).
pub fn raw_word_value(t: &Tok) -> Result<u128, AsmError> {
    let hex = t.text.strip_prefix("0x").or_else(|| t.text.strip_prefix("0X")).unwrap_or("");
    if !(1..=32).contains(&hex.len()) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(AsmError::at(t.col, format!("`{}` is not a word: expected `0x` and 1 to 32 hex digits", t.text)));
    }
    u128::from_str_radix(hex, 16).map_err(|_| AsmError::at(t.col, "expected `0x` and 1 to 32 hex digits"))
}

/// A `.word` line's error when it has a guard or controls: the word holds
/// its own (they would be silently dropped).
pub fn raw_word_extras(l: &Line) -> Result<(), AsmError> {
    if let Some((_, g)) = l.guard {
        return Err(AsmError::at(g.col.saturating_sub(1), "`.word` takes no guard: the word holds its own"));
    }
    if let Some((name, _)) = l.controls.first() {
        return Err(AsmError::at(name.col.saturating_sub(1), "`.word` takes no controls: the word holds its own"));
    }
    Ok(())
}

/// An operand text, read once per line whatever the number of candidate
/// forms: its decorated form (`None` when it is not an operand), and what
/// its name spells as a register.
#[derive(Clone, Copy, Default)]
pub(super) struct Pre<'a> {
    pub(super) text: Option<OperandText<'a>>,
    pub(super) name: RegName,
}

impl<'a> Pre<'a> {
    fn new(m: &Model, text: &'a str) -> Pre<'a> {
        let text = lex::operand(text).ok();
        let name = match &text {
            Some(OperandText { core: Core::Name(n), .. }) => RegName::new(m, n),
            _ => RegName::default(),
        };
        Pre { text, name }
    }

    /// The decorated form of `tok` (which this was made from), or why it is
    /// not an operand.
    #[inline]
    fn read(&self, tok: Tok<'a>) -> Result<&OperandText<'a>, AsmError> {
        self.text.as_ref().ok_or_else(|| AsmError::at(tok.col, lex::operand(tok.text).err().unwrap_or_default()))
    }
}

/// A name split as `<prefix><number>`: the class of its longest register
/// prefix (so `UR1` is not `R`-something), and the number after it when
/// that is all digits; and whether some class names a register so (`RZ`).
#[derive(Clone, Copy, Default)]
pub(super) struct RegName {
    pub(super) class: Option<u16>,
    pub(super) number: Option<u64>,
    pub(super) named: bool,
}

impl RegName {
    pub(super) fn new(m: &Model, text: &str) -> RegName {
        let named = m.registers.iter().any(|c| c.constants.iter().any(|(n, _)| same(n, text)));
        let Some(&(p, class)) = m.prefixes.iter().find(|(p, _)| text.get(..p.len()).is_some_and(|t| same(t, p))) else {
            return RegName { named, ..RegName::default() };
        };
        let digits = &text.as_bytes()[p.len()..];
        // Digits past 64 bits saturate: the register is out of range, not
        // no register (as the interpreted assembler says).
        let number = if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            None
        } else {
            Some(digits.iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add((d - b'0') as u64)))
        };
        RegName { class: Some(class), number, named }
    }

    /// The register `text` (which this was made from) names in class
    /// `class`, fitting `bits`: a named one (`RZ`, `PT`) or a number.
    pub(super) fn register(self, m: &Model, class: u16, bits: Bits, text: &str) -> Option<u64> {
        let c = m.registers.get(class as usize)?;
        if self.named {
            if let Some(&(_, v)) = c.constants.iter().find(|(n, _)| same(n, text)) {
                return Some(v);
            }
        }
        if self.class != Some(class) {
            return None;
        }
        self.number.filter(|&n| n <= bits.max())
    }

    /// Why `text` (which this was made from) is not a register of operand
    /// `sop` (class `class`, fitting `bits`): [`not_a_register`].
    #[cold]
    fn why_not(self, m: &Model, class: u16, bits: Bits, text: &str, sop: &Operand) -> String {
        let named = |c: &RegClass| c.constants.iter().any(|(n, _)| same(n, text));
        // The class the name belongs to: a named register, else its prefix and a number.
        let of = m.registers.iter().position(named).map(|c| c as u16).or(self.class.filter(|_| self.number.is_some()));
        let other = of.filter(|&c| c != class).and_then(|c| m.registers.get(c as usize)).map(|c| describe_class(c.prefix, c.predicate));
        let max = (of == Some(class) && self.number.is_some()).then(|| bits.max());
        let upper = text.to_ascii_uppercase();
        let case = upper != text && register(m, class, bits, &upper).is_some();
        not_a_register(text, sop.name, sop.describe, other.as_deref(), max, case)
    }
}

/// A register by name (`R7`, `RZ`, `PT`) in class `class`, fitting `bits`.
pub(super) fn register(m: &Model, class: u16, bits: Bits, text: &str) -> Option<u64> {
    RegName::new(m, text).register(m, class, bits, text)
}

/// An integer literal for a field: signed ones accept -2^(w-1)..2^w-1
/// (unsigned spellings of the same bits), unsigned ones 0..2^w-1.
/// What `int_value` accepts for a field of `width` bits, as messages say
/// it: `0 to 31`; `-256 to 255, or its bits 0x0 to 0x1ff` when signed.
pub fn int_range(width: u32, signed: bool) -> String {
    let max = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let show = |v: u64| if v > 0xffff { format!("{v:#x}") } else { v.to_string() };
    if signed && width > 0 {
        let half = 1u64 << (width - 1);
        format!("-{} to {}, or its bits 0x0 to {max:#x}", show(half), show(half - 1))
    } else {
        format!("0 to {}", show(max))
    }
}

/// The message for a control's value `text` that is not a value of its
/// `width`-bit field `name`: why it is no integer (`07`, `1.0`), else that
/// it does not fit. Both paths word it the same.
pub fn control_value_message(text: &str, width: u32, name: &str) -> String {
    if signed(text).is_none() {
        return int_error_message(text);
    }
    format!("`{text}` does not fit the {width}-bit field `{name}` ({})", int_range(width, false))
}

pub(super) fn int_value(bits: Bits, signed: bool, v: i128) -> Option<u64> {
    let max = bits.max() as i128;
    let lo = if signed { -(1i128 << (bits.width - 1)) } else { 0 };
    (lo..=max).contains(&v).then_some((v as u64) & max as u64)
}

fn slot_accepts(slot: &Modifier, part: &str) -> bool {
    match &slot.kind {
        ModifierKind::Mnemonic(text) => same(text, part),
        ModifierKind::Value { spelling, .. } => same(spelling, part),
        ModifierKind::Choice { values, .. } => values.iter().any(|(s, _)| same(s, part)),
        ModifierKind::Unbound { text, accepts, .. } => same(text, part) || accepts.iter().any(|a| same(a, part)),
        ModifierKind::Broken => false,
    }
}

/// Tries form `fi` of opcode `oc` on line `l`, whose guard's register name
/// is `guard` and operand texts `pre`.
#[allow(clippy::too_many_arguments)]
/// Where [`try_form`] put the line's texts: per modifier slot of the form
/// the column of the part that fills it, per operand the column of the
/// text it took ([`NOWHERE`] for none).
struct Placed {
    slots: [usize; MAX_SLOTS],
    operands: [usize; MAX_OPERANDS],
}

/// The most modifier slots a form may have (a form with more fails).
pub(super) const MAX_SLOTS: usize = 32;
const NOWHERE: usize = usize::MAX;

/// The column to report a broken `__Exception` rule at: the last text of
/// the line (guard, modifier, operand or control) that sets a field the
/// rule reads (`bits`), so `HADD2.BF16_V2.FTZ` points at `.FTZ`; the
/// mnemonic when no text does (the rule reads only defaults).
#[cold]
fn rule_col(m: &Model, l: &Line, placed: &Placed, oc: usize, fi: usize, bits: u128) -> usize {
    let op = &m.opcodes[oc];
    let form = &op.forms[fi];
    let mut col = None;
    let mut consider = |mask: u128, at: usize| {
        if mask & bits != 0 && at != NOWHERE {
            col = col.max(Some(at));
        }
    };
    if let (Some((_, tok)), Some(g)) = (&l.guard, op.guard) {
        consider(g.reg.bits.mask() | g.not.map_or(0, |f| f.bits.mask()), tok.col);
    }
    for (slot, &at) in form.modifiers.iter().zip(&placed.slots) {
        if let ModifierKind::Value { field, .. } | ModifierKind::Choice { field, .. } = slot.kind {
            consider(field.bits.mask(), at);
        }
    }
    for (sop, &at) in form.operands.iter().zip(&placed.operands) {
        consider(operand_bits(sop), at);
    }
    for (name, _) in l.controls.iter() {
        if let Some(c) = op.controls.iter().find(|c| same(m.controls[c.index as usize], name.text)) {
            consider(c.field.bits.mask(), name.col);
        }
    }
    col.unwrap_or_else(|| l.mnemonic.map_or(0, |t| t.col))
}

/// The bits an operand's text sets: its field, index and offset, and the
/// fields of its prefixes and suffix.
fn operand_bits(sop: &Operand) -> u128 {
    let own = match sop.kind {
        OperandKind::Register { bits, .. } | OperandKind::Int { bits, .. } | OperandKind::Float { bits, .. } | OperandKind::ConstMem { bits, .. } => bits.mask(),
        OperandKind::Indexed { index, offset, .. } => index.map_or(0, |(b, _)| b.mask()) | offset.map_or(0, |(b, _, _)| b.mask()),
        OperandKind::Literal | OperandKind::Enum | OperandKind::Unbound | OperandKind::Broken(_) => 0,
    };
    sop.decorations.iter().fold(own, |acc, d| match d.target {
        Target::Field { field, .. } => acc | field.bits.mask(),
        _ => acc,
    })
}

#[allow(clippy::too_many_arguments)]
fn try_form(m: &Model, l: &Line, guard: RegName, pre: &[Pre], controls: &[Option<u16>], oc: usize, fi: usize, loud: bool) -> Result<(u128, Placed), Attempt> {
    let op = &m.opcodes[oc];
    let form = &op.forms[fi];
    // Failures after the operands were placed rank as reaching the end of the line.
    let fail = |stage: u32, col: usize, msg: String| {
        let reach = if stage >= 7 { usize::MAX - 1 } else { col };
        Attempt { score: (reach, stage), error: AsmError::at(col, msg), not_allowed: None }
    };
    let mn_col = l.mnemonic.map_or(0, |t| t.col);
    let mut w = op.base;

    // Guard.
    if let Some((neg, tok)) = &l.guard {
        if m.guard.is_none() {
            return Err(fail(1, tok.col, msg!(loud, "this ISA has no guard predicate")));
        }
        let g = op.guard.ok_or_else(|| fail(1, tok.col, msg!(loud, "`{}` has no guard field", op.name)))?;
        let v = guard.register(m, g.class, g.reg.bits, tok.text).ok_or_else(|| fail(1, tok.col, msg!(loud, "`{}` is not a predicate", tok.text)))?;
        w = g.reg.bits.set(w, v);
        match g.not {
            Some(f) => w = f.bits.set(w, if *neg { f.on } else { f.off }),
            None if *neg => return Err(fail(1, tok.col, msg!(loud, "the guard cannot be negated"))),
            None => {}
        }
    }

    // Modifiers: each dotted part into a slot that accepts it.
    let slots = form.modifiers;
    let mut filled: [Option<&Tok>; MAX_SLOTS] = [None; MAX_SLOTS];
    if slots.len() > filled.len() {
        return Err(fail(2, mn_col, msg!(loud, "too many modifier slots")));
    }
    let mut last = 0usize;
    for part in l.parts.iter() {
        let accepts = |s: usize, filled: &[Option<&Tok>]| filled[s].is_none() && slot_accepts(&slots[s], part.text);
        let pick = (last..slots.len()).find(|&s| accepts(s, &filled)).or_else(|| (0..slots.len()).find(|&s| accepts(s, &filled)));
        let Some(s) = pick else {
            // A slot it fits is taken: the same modifier again, or another value of it.
            let fits = |s: &usize| slot_accepts(&slots[*s], part.text);
            let same = (0..slots.len()).filter(fits).find_map(|s| filled[s].filter(|t| t.text == part.text));
            let taken = same.or_else(|| (0..slots.len()).filter(fits).find_map(|s| filled[s]));
            let msg = match taken {
                Some(prev) if loud => repeated_modifier(part.text, prev.text),
                Some(_) => String::new(),
                // Worded only if shown (`Attempt::into_error`).
                None if loud => return Err(Attempt { not_allowed: Some((oc, fi)), ..fail(2, part.col, part.text.to_string()) }),
                None => String::new(),
            };
            return Err(fail(2, part.col, msg));
        };
        filled[s] = Some(part);
        last = s + 1;
    }
    for (s, slot) in slots.iter().enumerate() {
        let Some(part) = filled[s] else {
            if !slot.optional && !matches!(slot.kind, ModifierKind::Unbound { .. }) {
                let what = match &slot.kind {
                    ModifierKind::Mnemonic(text) => msg!(loud, "`.{text}`"),
                    ModifierKind::Choice { values, .. } => {
                        let mut s = String::from("one of");
                        for (v, _) in values.iter() {
                            s.push_str(" .");
                            s.push_str(v);
                        }
                        s
                    }
                    ModifierKind::Value { spelling, .. } => msg!(loud, "`.{spelling}`"),
                    ModifierKind::Unbound { text, .. } => msg!(loud, "`.{text}`"),
                    ModifierKind::Broken => return Err(fail(3, mn_col, msg!(loud, "modifier `.{}` has no field (spec defect)", slot.name))),
                };
                // Every written part found its slot: this reaches the end of
                // the dotted parts, past a form that rejects one; the caret
                // goes there, where the modifier is missing.
                let reach = l.parts.last().map_or(mn_col, |p| p.col + p.text.len());
                let at = if l.parts.is_empty() { l.mnemonic.map_or(mn_col, |m| m.col + m.text.len()) } else { reach };
                return Err(Attempt { score: (reach, 3), error: AsmError::at(at, msg!(loud, "missing modifier `.{}`: expected {what}", slot.name)), not_allowed: None });
            }
            continue;
        };
        match &slot.kind {
            ModifierKind::Mnemonic(_) | ModifierKind::Broken => {}
            ModifierKind::Value { field, value, .. } => w = field.bits.set(w, *value),
            ModifierKind::Choice { field, values, .. } => {
                if let Some(&(_, v)) = values.iter().find(|(s, _)| same(s, part.text)) {
                    w = field.bits.set(w, v);
                }
            }
            // The default is what the word means without a field.
            ModifierKind::Unbound { default: Some(d), .. } if same(d, part.text) => {}
            ModifierKind::Unbound { text, default, .. } => {
                return Err(fail(4, part.col, msg!(loud, "{}", unencodable_modifier(part.text, text, *default))));
            }
        }
    }

    // Operands.
    let texts: &[Tok] = &l.operands;
    let mut best_err: Option<Attempt> = None;
    let mut placed = Placed { slots: [NOWHERE; MAX_SLOTS], operands: [NOWHERE; MAX_OPERANDS] };
    for (at, part) in placed.slots.iter_mut().zip(&filled) {
        *at = part.map_or(NOWHERE, |p| p.col);
    }
    // Where the operands begin: after the mnemonic and its dotted parts.
    let start = l.parts.last().or(l.mnemonic.as_ref()).map_or(0, |t| t.col + t.text.len());
    match place(m, form, texts, pre, start, 0, 0, w, &mut placed.operands, &mut best_err, loud) {
        Some(placed) => w = placed,
        None => {
            return Err(best_err.unwrap_or_else(|| {
                let need = form.operands.iter().filter(|o| !o.optional).count();
                let col = texts.last().map_or(mn_col, |t| t.col);
                fail(5, col, msg!(loud, "`{}` takes {} to {} operands, {} given", form.mnemonic, need, form.operands.len(), texts.len()))
            }));
        }
    }

    // Controls: `&name=value`.
    for (&(name, value), index) in l.controls.iter().zip(controls) {
        let Some(index) = *index else {
            return Err(fail(7, name.col, msg!(loud, "unknown control `&{}`; controls are {}", name.text, m.controls.join(", "))));
        };
        let c = op.controls.iter().find(|c| c.index == index).ok_or_else(|| fail(7, name.col, msg!(loud, "no field `{}`", name.text)))?;
        let bits = c.field.bits;
        let v = int(value.text).filter(|v| *v <= bits.max());
        let v = v.ok_or_else(|| fail(7, value.col, msg!(loud, "{}", control_value_message(value.text, bits.width as u32, c.name))))?;
        w = bits.set(w, v);
    }

    // A required field this form cannot set.
    if let Some(f) = form.unsettable {
        return Err(fail(8, mn_col, msg!(loud, "this form cannot set field `{f}`, which has no default (spec defect)")));
    }
    Ok((w, placed))
}

/// Places operand texts `texts[x..]` into form operands `k..`, trying
/// optional operands both present and absent. Records the deepest failure,
/// and in `cols` the column of the text each operand took.
#[allow(clippy::too_many_arguments)]
fn place(m: &Model, form: &Form, texts: &[Tok], pre: &[Pre], start: usize, k: usize, x: usize, w: u128, cols: &mut [usize; MAX_OPERANDS], best: &mut Option<Attempt>, loud: bool) -> Option<u128> {
    if k == form.operands.len() {
        if x == texts.len() {
            return Some(w);
        }
        // (Only the loud pass records failures: the quiet one gives up
        // the line to it if no form fits.)
        if loud {
            let msg = too_many_operands(form.mnemonic, form.operands.len(), texts.len());
            keep(best, Attempt { score: (texts[x].col, 5), error: AsmError::at(texts[x].col, msg), not_allowed: None });
        }
        return None;
    }
    let sop = &form.operands[k];
    // Try present first, then absent (if optional).
    if x < texts.len() {
        match operand(m, sop, texts, pre, x, w, loud) {
            Ok((used, w2)) => {
                cols[k] = texts[x].col;
                if let Some(done) = place(m, form, texts, pre, start, k + 1, x + used, w2, cols, best, loud) {
                    return Some(done);
                }
            }
            // A text of the wrong kind ranks below a right kind with a bad
            // value (`0x1FFFFFFFFF` to a register form and to a 32-bit
            // immediate form: the value is out of range).
            Err(e) if loud => keep(best, Attempt { score: (e.col, kind_rank(m, sop, &pre[x])), error: e, not_allowed: None }),
            Err(_) => {}
        }
    }
    if sop.optional {
        cols[k] = NOWHERE;
        return place(m, form, texts, pre, start, k + 1, x, w, cols, best, loud);
    }
    if x >= texts.len() && loud {
        // After the last text, or where the operands begin when there is none.
        let col = texts.last().map_or(start, |t| t.col + t.text.len());
        // An indexed operand is named by its shape (`R[..]`), not its base alone.
        let name = if matches!(sop.kind, OperandKind::Indexed { .. }) { format!("{}[..]", sop.name) } else { sop.name.to_string() };
        keep(best, Attempt { score: (col, 5), error: AsmError::at(col, format!("missing operand `{name}`")), not_allowed: None });
    }
    None
}

/// The stage an operand's failure ranks at: 6, or 5 when the text is of a
/// kind the operand never takes (see [`place`]).
#[cold]
#[inline(never)]
fn kind_rank(m: &Model, sop: &Operand, p: &Pre) -> u32 {
    if text_fits(m, sop, p) {
        6
    } else {
        5
    }
}

/// What an operand text is, for messages (`an immediate`).
pub fn kind_of(c: &Core) -> &'static str {
    match c {
        Core::Name(_) => "a register",
        Core::Pair { .. } => "a register pair",
        Core::CMem { .. } => "a constant-memory reference",
        Core::Indexed { .. } => "an indexed register",
        Core::Number(_) => "an immediate",
    }
}

/// Applies one operand (which may span several texts, e.g. two float lanes)
/// to the word. Returns how many texts it used and the new word.
#[allow(clippy::too_many_arguments)]
fn operand(m: &Model, sop: &Operand, texts: &[Tok], pre: &[Pre], x: usize, mut w: u128, loud: bool) -> Result<(usize, u128), AsmError> {
    let tok = texts[x];
    let t = pre[x].read(tok)?;
    let err = |msg: String| AsmError::at(tok.col, msg);
    let mut used = 1;
    let mut literal_sign = false;
    match &sop.kind {
        OperandKind::Literal => {
            if t.core != Core::Name(sop.name) || t.neg || t.abs || t.not || t.inv || t.suffix.is_some() {
                return Err(err(msg!(loud, "expected `{}`", sop.name)));
            }
            return Ok((1, w));
        }
        OperandKind::Indexed { base, index, offset } => {
            let Core::Indexed { base: b2, index: idx, offset: off } = t.core else {
                return Err(err(msg!(loud, "expected `{base}[...]`")));
            };
            if b2 != *base {
                return Err(err(msg!(loud, "expected `{base}[...]`")));
            }
            if let Some(which) = t.prefix_text() {
                return Err(err(msg!(loud, "`{which}` is not allowed on operand `{}` here", sop.name)));
            }
            if t.suffix.is_some() {
                return Err(err(msg!(loud, "operand `{}` takes no suffix", sop.name)));
            }
            let (ib, ic) = index.ok_or_else(|| err(msg!(loud, "no index field")))?;
            let v = register(m, ic, ib, idx).ok_or_else(|| err(msg!(loud, "`{idx}` is not a valid index register")))?;
            w = ib.set(w, v);
            match offset {
                Some((ob, signed, fname)) => {
                    let v = super::literal::offset_bits(off, ob.width as u32, *signed, fname).map_err(|m| err(msg!(loud, "{m}")))?;
                    w = ob.set(w, v);
                }
                None if off != 0 => return Err(err(msg!(loud, "this operand takes no offset"))),
                None => {}
            }
            return Ok((1, w));
        }
        OperandKind::Unbound => return Err(err(msg!(loud, "operand `{}` has no field to encode it (spec defect)", sop.name))),
        OperandKind::Broken(fname) => return Err(err(msg!(loud, "no field `{fname}`"))),
        OperandKind::Register { bits, class, pair } => {
            let v = match t.core {
                Core::Name(n) => match pre[x].name.register(m, *class, *bits, n) {
                    Some(v) => v,
                    None if !loud => return Err(err(String::new())),
                    None => return Err(err(pre[x].name.why_not(m, *class, *bits, n, sop))),
                },
                Core::Pair { prefix: p, lo, hi } => {
                    let rc = &m.registers[*class as usize];
                    if p != rc.prefix || Some(hi) != lo.checked_add(1) {
                        return Err(err(msg!(loud, "{}", bad_pair(&format!("{p}[{lo}:{hi}]"), p, sop.name, sop.describe, rc.prefix))));
                    }
                    if pair.map(|e| e.eval(w)) != Some(64) {
                        return Err(err(msg!(loud, "`{}` is not a 64-bit operand here", sop.name)));
                    }
                    // The pair's registers by name (also when quiet: it decides).
                    register(m, *class, *bits, &format!("{p}{hi}")).ok_or_else(|| err(msg!(loud, "`{p}{hi}` does not exist")))?;
                    register(m, *class, *bits, &format!("{p}{lo}")).ok_or_else(|| err(msg!(loud, "`{p}{lo}` does not exist")))?
                }
                ref c => return Err(mismatch(tok, c, sop, loud)),
            };
            w = bits.set(w, v);
        }
        OperandKind::Int { bits, signed: is_signed } => {
            let Core::Number(s) = t.core else { return Err(mismatch(tok, &t.core, sop, loud)) };
            let v = signed(s).ok_or_else(|| err(if loud { int_error_message(s) } else { String::new() }))?;
            let v = if t.neg { -v } else { v };
            literal_sign = t.neg;
            let v = int_value(*bits, *is_signed, v).ok_or_else(|| err(msg!(loud, "{s} does not fit the {}-bit field `{}` ({}: {})", bits.width, sop.field, sop.type_name, int_range(bits.width as u32, *is_signed))))?;
            w = bits.set(w, v);
        }
        OperandKind::Float { bits, format, lanes, select } => {
            if !matches!(t.core, Core::Number(_)) {
                return Err(mismatch(tok, &t.core, sop, loud));
            }
            let (fmt, lanes) = float_shape(*bits, *format, *lanes, *select, w);
            let mut v = 0u64;
            for lane in 0..lanes {
                let tk = texts.get(x + lane as usize).ok_or_else(|| err(msg!(loud, "`{}` takes {lanes} values", sop.name)))?;
                let lt = pre[x + lane as usize].read(*tk)?;
                let Core::Number(s) = lt.core else { return Err(AsmError::at(tk.col, msg!(loud, "expected a number"))) };
                // The first value's decorations are the operand's, checked below.
                if let Some(e) = lt.lane_decoration_error().filter(|_| lane > 0) {
                    return Err(AsmError::at(tk.col, msg!(loud, "{e}")));
                }
                let b = parse_float(s, fmt).map_err(|e| AsmError::at(tk.col, msg!(loud, "{}", float_error_message(tk.text, fmt, e))))?;
                v |= lane_bits(b, lt.neg, fmt, lane, lanes);
            }
            used = lanes as usize;
            literal_sign = t.neg;
            w = bits.set(w, v);
        }
        OperandKind::ConstMem { bits, bank, offset } => {
            let Core::CMem { bank: b, offset: o } = t.core else { return Err(mismatch(tok, &t.core, sop, loud)) };
            if b > bank.max() || o > offset.max() {
                return Err(err(msg!(loud, "`c[{b:#x}][{o:#x}]` is out of range (bank < {}, offset < {:#x})", 1u64 << bank.width, 1u64 << offset.width)));
            }
            w = bits.set(w, b << bank.start | o << offset.start);
        }
        OperandKind::Enum => return Err(mismatch(tok, &t.core, sop, loud)),
    }
    let w = decorate(sop, t, literal_sign, w).map_err(|b| {
        // An error about the suffix points at it.
        let col = match (&b, t.suffix) {
            (Bad::SuffixUnbound(_) | Bad::SuffixNotAllowed(..) | Bad::NoSuffix, Some(sfx)) => suffix_col(&tok, sfx),
            _ => tok.col,
        };
        AsmError::at(col, if loud { b.message(sop) } else { String::new() })
    })?;
    Ok((used, w))
}

/// Where suffix `.sfx` of operand text `tok` starts: the column an error
/// about the suffix points at (`.H1_H2` in `-R7.H1_H2`), on both paths.
pub fn suffix_col(tok: &Tok, sfx: &str) -> usize {
    tok.col + tok.text.rfind(&format!(".{sfx}")).unwrap_or(0)
}

/// The message for suffix `.sfx` on operand `operand`, which takes the
/// spellings `takes` here (under the word's other fields: `.H0 .H1` of a
/// 16-bit source), on both paths.
pub fn suffix_not_allowed<'s>(sfx: &str, operand: &str, takes: impl Iterator<Item = &'s str>) -> String {
    let takes: Vec<String> = takes.filter(|s| !s.is_empty()).map(|s| format!(".{s}")).collect();
    if takes.is_empty() {
        format!("`.{sfx}` is not allowed here: operand `{operand}` takes no suffix here")
    } else {
        format!("`.{sfx}` is not allowed here: operand `{operand}` takes {} here", takes.join(" "))
    }
}

/// The message for prefix `which` (`|..|`) written on a number where operand
/// `operand` takes none in this form.
pub fn value_prefix_message(which: &str, operand: &str) -> String {
    format!("`{which}` cannot be written on an immediate: operand `{operand}` takes a value here, which carries its own sign")
}

/// A float operand's format in word `w` (another field may choose it: a
/// `CvtFImm` hook) and how many lanes it has.
pub(super) fn float_shape(bits: Bits, format: FloatFormat, lanes: u32, select: Option<(Bits, &[(u64, FloatFormat)])>, w: u128) -> (FloatFormat, u32) {
    let fmt = select.and_then(|(by, table)| table.iter().find(|(v, _)| *v == by.get(w)).map(|&(_, f)| f)).unwrap_or(format);
    let lanes = if fmt.width() < bits.width as u32 { bits.width as u32 / fmt.width() } else { lanes.max(1) };
    (fmt, lanes)
}

/// Lane `lane` of `lanes` (written highest first: `H1, H0`) in a float
/// operand's value: the float's bits `b`, negated when `neg`.
#[inline]
pub(super) fn lane_bits(b: u64, neg: bool, fmt: FloatFormat, lane: u32, lanes: u32) -> u64 {
    let b = if neg { b ^ 1 << (fmt.width() - 1) } else { b };
    b << (fmt.width() * (lanes - 1 - lane))
}

/// Why an operand's decorations do not fit its template ([`decorate`]).
pub(super) enum Bad<'a> {
    SuffixUnbound(&'a str),
    /// A suffix the operand does not take, and the spellings it does take here.
    SuffixNotAllowed(&'a str, &'static [(&'static str, u64)]),
    NeedsSuffix(&'static str),
    PrefixUnbound(&'static str),
    /// A prefix on a number where the form takes none (an immediate carries
    /// its own sign, and has no `|..|`).
    PrefixOnValue(&'static str),
    NotAllowed { which: &'static str, hint: &'static str },
    WriteTilde,
    NoSuffix,
}

impl Bad<'_> {
    /// The message, for operand `sop`.
    #[cold]
    fn message(&self, sop: &Operand) -> String {
        match self {
            Bad::SuffixUnbound(sfx) => format!("suffix `.{sfx}` has no field to encode it (spec defect)"),
            Bad::SuffixNotAllowed(sfx, takes) => suffix_not_allowed(sfx, sop.name, takes.iter().map(|(s, _)| *s)),
            Bad::NeedsSuffix(d) => format!("`{}` needs a `.{d}` suffix", sop.name),
            Bad::PrefixUnbound(d) => format!("the `{d}` prefix has no field to encode it here (spec defect)"),
            Bad::PrefixOnValue(d) => value_prefix_message(d, sop.name),
            Bad::NotAllowed { which, hint } => format!("`{which}` is not allowed on operand `{}` here{hint}", sop.name),
            Bad::WriteTilde => format!("with `.X` the prefix of `{}` is `~`, not `-`", sop.name),
            Bad::NoSuffix => format!("operand `{}` takes no suffix", sop.name),
        }
    }
}

/// A prefix written where the form has no field for it: on a number, one
/// an immediate never takes; else a spec defect.
#[cold]
fn unbound_prefix<'a>(t: &OperandText<'a>, d: &Decoration) -> Bad<'a> {
    if matches!(t.core, Core::Number(_)) { Bad::PrefixOnValue(d.kind.written()) } else { Bad::PrefixUnbound(d.name) }
}

/// A prefix the template does not write on the operand, with a hint.
/// `inv_spells_neg`: the operand's `{-}` is spelled `~` under some
/// `.X` (a `CvtINegX` hook), so a `~` here wants that `.X`.
#[cold]
fn not_allowed<'a>(t: &OperandText<'a>, literal_sign: bool, inv_spells_neg: bool) -> Bad<'a> {
    let which = if t.neg && !literal_sign { "-" } else if t.abs { "|..|" } else if t.not { "!" } else { "~" };
    if matches!(t.core, Core::Number(_)) && which != "-" {
        return Bad::PrefixOnValue(which);
    }
    let hint = if t.inv && inv_spells_neg { " (`~` is written only with `.X`)" } else { "" };
    Bad::NotAllowed { which, hint }
}

/// Sets the fields of operand `sop`'s decorations (prefixes and suffixes)
/// from text `t` in word `w`, and checks that `t` writes none the template
/// lacks. `literal_sign`: `t`'s `-` was taken as the sign of its number.
#[inline]
pub(super) fn decorate<'a>(sop: &Operand, t: &OperandText<'a>, literal_sign: bool, mut w: u128) -> Result<u128, Bad<'a>> {
    // Decorations.
    let mut seen_suffix = false;
    for d in sop.decorations {
        let on = match d.kind {
            DecorationKind::Neg => t.neg && !literal_sign,
            DecorationKind::Abs => t.abs,
            DecorationKind::Not => t.not,
            DecorationKind::Invert => t.inv,
            DecorationKind::Suffix => {
                seen_suffix = true;
                if let Some(sfx) = t.suffix {
                    let Target::Field { field: f, .. } = d.target else {
                        return Err(Bad::SuffixUnbound(sfx));
                    };
                    let map = d.suffix.as_ref().and_then(|s| s.map(w));
                    let v = map.and_then(|m| m.value(sfx)).ok_or_else(|| Bad::SuffixNotAllowed(sfx, map.map_or(&[][..], |m| m.parse)))?;
                    w = f.bits.set(w, v);
                } else if !d.optional {
                    return Err(Bad::NeedsSuffix(d.name));
                }
                continue;
            }
        };
        // `~` spells `.neg` when a CvtINegX hook says so.
        let on = on || (d.kind == DecorationKind::Neg && t.inv && d.neg_hook);
        // A written operand sets its flags either way: `P0` clears a `.not`
        // whose default is set (`pp` defaults to `!PT` in some opcodes).
        match d.target {
            Target::Field { field, on: enc_on, off } => w = field.bits.set(w, if on { enc_on } else { off }),
            Target::None | Target::Missing if on => return Err(unbound_prefix(t, d)),
            Target::None | Target::Missing => {}
        }
    }
    // Decorations written but not in the template.
    let has = |k: DecorationKind| sop.prefixes & (1 << k as u8) != 0;
    // `~` spells the template's `{-}`, so only where the template has one
    // (LEA's `SrcB` has a hook for a `.neg` field, but no `{-}`).
    let inv_spells_neg = has(DecorationKind::Neg) && sop.neg_is_inv.is_some();
    let spelled_inv = inv_spells_neg && sop.neg_is_inv.is_some_and(|e| e.eval(w) != 0);
    let inv_ok = has(DecorationKind::Invert) || (t.inv && spelled_inv);
    if (t.neg && !literal_sign && !has(DecorationKind::Neg)) || (t.abs && !has(DecorationKind::Abs)) || (t.not && !has(DecorationKind::Not)) || (t.inv && !inv_ok) {
        return Err(not_allowed(t, literal_sign, inv_spells_neg));
    }
    if t.neg && !literal_sign && spelled_inv {
        return Err(Bad::WriteTilde);
    }
    if t.suffix.is_some() && !seen_suffix {
        return Err(Bad::NoSuffix);
    }
    Ok(w)
}

fn mismatch(tok: Tok, core: &Core, sop: &Operand, loud: bool) -> AsmError {
    AsmError::at(tok.col, msg!(loud, "`{}` cannot be {} (operand `{}` is {})", tok.text, kind_of(core), sop.name, sop.describe))
}

/// A bad line of a whole text ([`assemble_text`]), placed in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub col: usize,
    /// Where in the text (bytes), and the byte length of the character
    /// there: a diagnostic's span.
    pub offset: usize,
    /// Byte length of the character at `offset` (0 at the end of the line).
    pub len: usize,
    /// What is wrong with the line.
    pub message: String,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for TextError {}

/// Assembles a whole text: the words with their opcodes, and every bad
/// line's error.
pub fn assemble_text(m: &Model, text: &str) -> (Vec<Assembled>, Vec<TextError>) {
    assemble_lines(text, |line| assemble_line(m, line))
}

/// [`assemble_text`], handing each error to `error` as it is found (in
/// line order) rather than keeping them all: what a command does that
/// shows only some of them (a file of a million bad lines).
pub fn assemble_text_with(m: &Model, text: &str, error: impl FnMut(TextError)) -> Vec<Assembled> {
    assemble_lines_with(text, |line| assemble_line(m, line), error)
}

/// `message` with each `quoted` text of more than 40 characters cut to its
/// first and last 16 around `…`: messages echo what the line wrote, and a
/// line can be a megabyte.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    for (k, piece) in message.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        let n = piece.chars().count();
        if k % 2 == 1 && n > 40 {
            out.extend(piece.chars().take(16));
            out.push('…');
            out.extend(piece.chars().skip(n - 16));
        } else {
            out.push_str(piece);
        }
    }
    out
}

/// The whole-text pass both assemblers share: splits `text` into lines
/// ([`super::lex::lines`]), assembles each with `line`, and places each
/// error in the text ([`TextError`]). Every bad line is reported, and so
/// is a label defined twice.
pub fn assemble_lines<T>(text: &str, line: impl FnMut(&str) -> Result<Option<T>, AsmError>) -> (Vec<T>, Vec<TextError>) {
    let mut errors = Vec::new();
    let out = assemble_lines_with(text, line, |e| errors.push(e));
    (out, errors)
}

/// [`assemble_lines`], handing each error to `report` as it is found, in
/// line order (a line's own error before that of its label).
pub fn assemble_lines_with<T>(text: &str, mut line: impl FnMut(&str) -> Result<Option<T>, AsmError>, mut report: impl FnMut(TextError)) -> Vec<T> {
    let mut out = Vec::new();
    // Each label and the line (1-based) that defines it.
    let mut labels: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (n, (offset, body)) in super::lex::lines(text).enumerate() {
        let mut error = |e: AsmError| {
            let col = e.col.min(body.len());
            let len = body[col..].chars().next().map_or(0, char::len_utf8);
            let chars = body.get(..col).map_or(col, |s| s.chars().count());
            let mut message = shorten_quotes(&e.message);
            if let Some(hint) = crate::spelling::full_width_hint(body) {
                message = format!("{message} ({hint})");
            }
            report(TextError { line: n + 1, col: chars + 1, offset: offset + col, len, message });
        };
        match line(body) {
            Ok(Some(a)) => out.push(a),
            Ok(None) => {}
            Err(e) => error(e),
        }
        if let Some(l) = super::lex::label(body) {
            if let Some(first) = labels.insert(l.text, n + 1) {
                labels.insert(l.text, first);
                error(AsmError::at(l.col, format!("label `{}` is already defined on line {first}", l.text)));
            }
        }
    }
    out
}
