//! `isa-codegen diff OLD NEW`: what changed between two specs, in either
//! notation. Types are compared by name (an enum value by value and by the
//! data format it names: a changed encoding changes every word that spells
//! it); instructions by name (an SPA 5.3 one beside DSL ones as `HMUL2 (SPA
//! 5.3)`, which meets the same name on the other side in either notation),
//! and within one, modifiers as groups of values (matched by name, else by
//! the values they share, so SPA 5.3's `.iswz` meets the DSL's `.hsel2`),
//! what each modifier spelling sets per opcode, operand forms by their kind
//! signature (`R,R,C`, optional operands written or not), syntax templates
//! by their text, encodings field by field, `__OperandInfo` directives and
//! `__Exception` rules where both sides have them, examples and the
//! simulation hook by their text, and prose section by section.

use isa_dsl::ir::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The difference between two specs.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct IsaDiff {
    /// `__DefIsa` settings and types added, removed or changed (`isa:
    /// control fields $sched $req -> $sched`, `type FPRound: value RZ 0x3 -> 0x2`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// Instructions (optypes) only in OLD, by name.
    pub only_old: Vec<String>,
    /// Instructions (optypes) only in NEW, by name.
    pub only_new: Vec<String>,
    /// The syntax templates of the instructions only in OLD (`FSUB: FSUB{.FTZ} Rd, Ra, SrcB ...`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_old_syntax: Vec<String>,
    /// The syntax templates of the instructions only in NEW (`FSUB: FSUB{.FTZ} Rd, Ra, SrcB ...`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_new_syntax: Vec<String>,
    /// Instructions only in OLD and only in NEW whose opcodes have the same
    /// constant bits: one instruction renamed (`old -> new`); how they
    /// differ otherwise is in `changed`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<String>,
    /// Instructions on both sides (or renamed) that differ.
    pub changed: Vec<InsnDiff>,
}

/// How one instruction differs.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct InsnDiff {
    /// The instruction's name (OLD's when it was renamed).
    pub name: String,
    /// The notation OLD writes it in (`DSL`, `SPA 5.3`).
    pub old_notation: String,
    /// The notation NEW writes it in.
    pub new_notation: String,
    /// Modifier groups that differ, paired by name, else by shared values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<ModifierDiff>,
    /// Operand forms (`RR`, `RU`, `RC` ... from the operands' kinds) only in OLD.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forms_only_old: Vec<String>,
    /// Operand forms only in NEW.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forms_only_new: Vec<String>,
    /// Syntax templates whose text is only on one side.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax: Vec<LineChange>,
    /// Opcodes and fields whose encoding changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub encodings: Vec<EncodingChange>,
    /// What modifier spellings set, where that differs (a value list mapped
    /// by position and reordered, a value dropped from a type), with the
    /// opcodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spellings: Vec<LineChange>,
    /// `__OperandInfo` directives only on one side (`Bitwidth<rd> = 64`,
    /// `AsmFormat<vb> = CvtFImm(vb, hfmt_v2)`), with the opcodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operand_info: Vec<LineChange>,
    /// `__Exception` rules only on one side, with the opcodes that have
    /// them and where the first one's is written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<LineChange>,
    /// Example lines only on one side, with where each is written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<LineChange>,
    /// Lists with the same lines in another order: `syntax templates` (the
    /// assembler tries forms in that order) or `examples` (the manual
    /// lists them so).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reordered: Vec<String>,
    /// The simulation hook, when it changed: old and new text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<(String, String)>,
    /// Prose sections that changed, each with its first changed line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prose_changed: Vec<String>,
}

/// Which side of the comparison a line is on.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Only in OLD (`-`).
    Old,
    /// Only in NEW (`+`).
    New,
}

/// A line on one side only (a template, rule, example...); its `Display`
/// is the line `to_text` prints: `- text (in A_R, A_I; spec/x.txt:40)`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LineChange {
    /// The side that has it.
    pub side: Side,
    /// The line, as that side writes it.
    pub text: String,
    /// The opcodes that have it (for lines per opcode).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opcodes: Vec<String>,
    /// Where it is written (`file:line`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl LineChange {
    /// `- text` / `+ text` (as [`line_diff`] gives them) as a change.
    fn parse(line: &str) -> LineChange {
        let side = if line.starts_with('+') { Side::New } else { Side::Old };
        LineChange { side, text: line.get(2..).unwrap_or_default().to_string(), opcodes: Vec::new(), at: None }
    }
}

impl std::fmt::Display for LineChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", if self.side == Side::Old { '-' } else { '+' }, self.text)?;
        match (self.opcodes.is_empty(), &self.at) {
            (false, Some(at)) => write!(f, " (in {}; {at})", self.opcodes.join(", ")),
            (false, None) => write!(f, " (in {})", self.opcodes.join(", ")),
            (true, Some(at)) => write!(f, " ({at})"),
            (true, None) => Ok(()),
        }
    }
}

/// One change to an instruction's encodings; its `Display` is the line
/// `to_text` prints (`MOV_R: field `ra` moved from [31:24] to [39:32]`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EncodingChange {
    /// The opcode (OLD's name when it was renamed).
    pub opcode: String,
    /// The field the change is to, if it is to one field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What changed; `old` and `new` say from what to what.
    pub change: EncodingChangeKind,
    /// The old side: bits (`[31:24]`), a type name, a value as the spec
    /// writes it (`= PT`, `== FCHK (0x17)`), or the opcode's new name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The new side, written as `old` is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// Where the change is written (`file:line`): the field's line on the
    /// side that has it (NEW's when both do), else the opcode's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// What kind of change an [`EncodingChange`] is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EncodingChangeKind {
    /// The opcode is only in OLD.
    OnlyOld,
    /// The opcode is only in NEW.
    OnlyNew,
    /// The opcode has another name in NEW (`new`), with the same constant bits.
    Renamed,
    /// The field is only in OLD (`old`: its bits).
    Removed,
    /// The field is only in NEW (`new`: its bits).
    Added,
    /// The field has another name in NEW (`new`), at the same bits (`old`),
    /// of the same type and value.
    FieldRenamed,
    /// The field has the same width at other bits.
    Moved,
    /// The field's width changed.
    Resized,
    /// The field's type changed.
    Type,
    /// The field's default or constant changed.
    Value,
}

impl EncodingChange {
    fn new(opcode: &str, field: Option<&str>, change: EncodingChangeKind, old: Option<String>, new: Option<String>) -> Self {
        EncodingChange { opcode: opcode.to_string(), field: field.map(str::to_string), change, old, new, at: None }
    }

    /// The change, written at `loc` of `isa`.
    fn at(mut self, isa: &Isa, loc: &Loc) -> Self {
        self.at = file_line(isa, loc);
        self
    }
}

impl std::fmt::Display for EncodingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use EncodingChangeKind::*;
        let (op, field) = (&self.opcode, self.field.as_deref().unwrap_or(""));
        let (old, new) = (self.old.as_deref().unwrap_or(""), self.new.as_deref().unwrap_or(""));
        match self.change {
            OnlyOld => write!(f, "opcode {op} only in OLD"),
            OnlyNew => write!(f, "opcode {op} only in NEW"),
            Renamed => write!(f, "opcode {op} renamed {new} (same constant bits)"),
            Removed => write!(f, "{op}: field `{field}` removed (was {old})"),
            Added => write!(f, "{op}: field `{field}` added at {new}"),
            FieldRenamed => write!(f, "{op}: field `{field}` renamed `{new}` (same bits {old})"),
            Moved => write!(f, "{op}: field `{field}` moved from {old} to {new}"),
            Resized => write!(f, "{op}: field `{field}` resized from {old} to {new}"),
            Type | Value => write!(f, "{op}: field `{field}` {}{old} -> {new}", if self.change == Type { "type " } else { "" }),
        }?;
        match &self.at {
            Some(at) => write!(f, " ({at})"),
            None => Ok(()),
        }
    }
}

/// An encoding change to a field as one edit: what it is and where it is
/// written (`None` without a field or a place).
type Edit<'a> = (&'a Option<String>, EncodingChangeKind, &'a Option<String>, &'a Option<String>, &'a Option<String>);

fn edit(e: &EncodingChange) -> Option<Edit<'_>> {
    e.at.as_ref()?;
    e.field.as_ref()?;
    Some((&e.field, e.change, &e.old, &e.new, &e.at))
}

/// `file:line` of `loc` in `isa`.
fn file_line(isa: &Isa, loc: &Loc) -> Option<String> {
    isa.files.get(loc.file as usize).map(|file| format!("{file}:{}", loc.line))
}

/// A modifier group present on one or both sides.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ModifierDiff {
    /// The group's name in OLD; `None` when only NEW has it.
    pub old: Option<String>,
    /// The group's name in NEW; `None` when only OLD has it.
    pub new: Option<String>,
    /// Spellings only OLD accepts (`.FTZ`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_old: Vec<String>,
    /// Spellings only NEW accepts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_new: Vec<String>,
    /// The default value, old and new, when both sides have one and they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_changed: Option<(String, String)>,
}

impl InsnDiff {
    /// Whether the two versions of the instruction are alike (only its names differ).
    fn is_empty(&self) -> bool {
        *self == InsnDiff { name: self.name.clone(), old_notation: self.old_notation.clone(), new_notation: self.new_notation.clone(), ..Default::default() }
    }
}

impl IsaDiff {
    /// Whether the two specs describe the same instructions alike.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty() && self.only_old.is_empty() && self.only_new.is_empty() && self.renamed.is_empty() && self.changed.is_empty()
    }
}

/// The instructions a spec describes, each with the name a diff shows it
/// by: a DSL optype by its name; an SPA 5.3 one by its name when the spec
/// has no DSL instructions, else by name and notation (`HMUL2 (SPA 5.3)`).
fn instructions(isa: &Isa) -> Vec<(String, &Optype)> {
    if isa.optypes.is_empty() {
        return isa.legacy.iter().map(|o| (o.name.clone(), o)).collect();
    }
    isa.optypes.iter().map(|o| (o.name.clone(), o)).chain(isa.legacy.iter().map(|o| (format!("{} ({})", o.name, notation(o)), o))).collect()
}

fn notation(o: &Optype) -> String {
    o.notation.clone().unwrap_or_else(|| "DSL".into())
}

/// Compares two specs.
pub fn diff(old: &Isa, new: &Isa) -> IsaDiff {
    let a: BTreeMap<String, &Optype> = instructions(old).into_iter().collect();
    let b: BTreeMap<String, &Optype> = instructions(new).into_iter().collect();
    // Types where both sides declare some (SPA 5.3 declares none).
    let types = if old.types.is_empty() || new.types.is_empty() { Vec::new() } else { isa_diff(old, new).into_iter().chain(type_diff(old, new)).collect() };
    let mut out = IsaDiff { types, ..Default::default() };
    // Pairs: the same name in the same notation, then the same name across
    // notations (an SPA spec meets its DSL successor). Shown by the name
    // that says the notation, if either does.
    let mut unpaired: Vec<&String> = b.keys().collect();
    let mut pairs: Vec<(&String, &String)> = Vec::new();
    for same_notation in [true, false] {
        for x in a.keys() {
            if pairs.iter().any(|(p, _)| *p == x) {
                continue;
            }
            let ox = a[x];
            if let Some(k) = unpaired.iter().position(|y| b[y.as_str()].name == ox.name && (!same_notation || b[y.as_str()].notation == ox.notation)) {
                pairs.push((x, unpaired.remove(k)));
            }
        }
    }
    for (x, y) in &pairs {
        let mut d = insn_diff(old, a[x.as_str()], new, b[y.as_str()]);
        d.name = if y.len() > x.len() { y.to_string() } else { x.to_string() };
        if !d.is_empty() {
            out.changed.push(d);
        }
    }
    out.changed.sort_by(|p, q| p.name.cmp(&q.name));
    out.only_old = a.keys().filter(|x| !pairs.iter().any(|(p, _)| p == x)).cloned().collect();
    out.only_new = unpaired.into_iter().cloned().collect();
    // Renames: the same opcodes' constant bits under another name.
    let constants = |isa: &Isa, o: &Optype| {
        let mut v: Vec<(u128, u128)> = o.opcodes.iter().map(|&k| (isa.opcodes[k].fixed_mask, isa.opcodes[k].fixed_bits)).collect();
        v.sort();
        v
    };
    for x in out.only_old.clone() {
        let cx = constants(old, a[x.as_str()]);
        let same = out.only_new.iter().find(|y| !cx.is_empty() && constants(new, b[y.as_str()]) == cx).cloned();
        if let Some(y) = same {
            out.only_old.retain(|n| *n != x);
            out.only_new.retain(|n| *n != y);
            let mut d = insn_diff(old, a[x.as_str()], new, b[y.as_str()]);
            d.name = format!("{x} -> {y}");
            if !d.is_empty() {
                out.changed.push(d);
            }
            out.renamed.push(format!("{x} -> {y}"));
        }
    }
    let templates = |name: &str, o: &Optype| o.syntax.iter().map(|f| format!("{name}: {}", f.text.split_whitespace().collect::<Vec<_>>().join(" "))).collect::<Vec<_>>();
    out.only_old_syntax = out.only_old.iter().flat_map(|x| templates(x, a[x.as_str()])).collect();
    out.only_new_syntax = out.only_new.iter().flat_map(|y| templates(y, b[y.as_str()])).collect();
    out
}

/// The `__DefIsa` settings that differ: the width, the guard and the
/// control fields every instruction takes (`isa: control fields $sched
/// $req $wsb -> $sched $req`).
fn isa_diff(old: &Isa, new: &Isa) -> Vec<String> {
    // As a set: a field declared `Control` or first met as `$req` in a template is the same control.
    let controls = |isa: &Isa| isa.control_fields.iter().map(|c| format!("${c}")).collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>().join(" ");
    let guard = |isa: &Isa| isa.guard.clone().unwrap_or_else(|| "none".into());
    [("width", old.width.to_string(), new.width.to_string()), ("guard", guard(old), guard(new)), ("control fields", controls(old), controls(new))]
        .into_iter()
        .filter(|(_, a, b)| a != b)
        .map(|(what, a, b)| format!("isa: {what} {a} -> {b}"))
        .collect()
}

/// What a type is, as `(aspect, text)` pairs, so two versions compare
/// aspect by aspect: an enum's values each, a register file's prefix...
fn describe(t: &Type) -> Vec<(String, String)> {
    let mut out = vec![("width".to_string(), t.width.to_string())];
    match &t.kind {
        TypeKind::Enum { values } => out.extend(values.iter().map(|v| {
            // What the value denotes as data (`__DefValueFormat`), which the
            // `AsmFormat` hooks read: a changed format changes words too.
            let format = match v.format {
                Some(ValueFormat { float: Some(l), .. }) => format!(" (Float <{}, {}>)", l.exponent, l.mantissa),
                Some(ValueFormat { bits, float: None }) => format!(" (Bits {bits})"),
                None => String::new(),
            };
            (format!("value `{}`", v.name), format!("{:#x}{format}", v.encoding))
        })),
        TypeKind::Register { prefix, predicate, constants, warp } => {
            out.push(("kind".into(), if *predicate { "Predicate" } else { "Register" }.into()));
            out.push(("prefix".into(), format!("\"{prefix}\"")));
            out.push(("scope".into(), if *warp { "Warp" } else { "Lane" }.into()));
            out.extend(constants.iter().map(|c| (format!("constant `{}`", c.name), c.index.to_string())));
        }
        TypeKind::Int { signed } => out.push(("kind".into(), if *signed { "SignedInt" } else { "UnsignedInt" }.into())),
        TypeKind::Float { exponent, mantissa, lanes } => {
            out.push(("kind".into(), "Float".into()));
            out.push(("layout".into(), format!("{lanes} x 1+{exponent}+{mantissa}")));
        }
        TypeKind::ConstMem { bank, offset } => {
            out.push(("kind".into(), "ConstMem".into()));
            out.push(("bank".into(), format!("<{}, {}>", bank.start, bank.width)));
            out.push(("offset".into(), format!("<{}, {}>", offset.start, offset.width)));
        }
    }
    out
}

/// Types added, removed or changed, aspect by aspect.
fn type_diff(old: &Isa, new: &Isa) -> Vec<String> {
    let a: BTreeMap<&str, &Type> = old.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let b: BTreeMap<&str, &Type> = new.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut out = Vec::new();
    for (name, x) in &a {
        let Some(y) = b.get(name) else {
            out.push(format!("type `{name}` only in OLD"));
            continue;
        };
        let (dx, dy) = (describe(x), describe(y));
        for (k, v) in &dx {
            match dy.iter().find(|(l, _)| l == k) {
                None => out.push(format!("type `{name}`: {k} only in OLD ({v})")),
                Some((_, w)) if w != v => out.push(format!("type `{name}`: {k} {v} -> {w}")),
                Some(_) => {}
            }
        }
        for (k, w) in dy.iter().filter(|(k, _)| !dx.iter().any(|(l, _)| l == k)) {
            out.push(format!("type `{name}`: {k} only in NEW ({w})"));
        }
    }
    out.extend(b.keys().filter(|k| !a.contains_key(*k)).map(|k| format!("type `{k}` only in NEW")));
    out
}

/// Lines of `a` not in `b` and of `b` not in `a` (as multisets), as `- line` and `+ line`.
fn line_diff(a: &[String], b: &[String]) -> Vec<String> {
    line_diff_by(a, b, |s| s.to_string())
}

/// [`line_diff`] with lines compared by `key` (and shown as written).
fn line_diff_by(a: &[String], b: &[String], key: impl Fn(&str) -> String) -> Vec<String> {
    let mut rest: Vec<(&String, String)> = b.iter().map(|y| (y, key(y))).collect();
    let mut out = Vec::new();
    for x in a {
        let kx = key(x);
        match rest.iter().position(|(_, ky)| *ky == kx) {
            Some(k) => {
                rest.remove(k);
            }
            None => out.push(format!("- {x}")),
        }
    }
    out.extend(rest.into_iter().map(|(y, _)| format!("+ {y}")));
    out
}

/// A template with only the spaces that separate two words (`IABS Rd,{-}SrcB
/// $sched $req;`), so that templates differing in spacing alone compare equal.
fn template_key(t: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '#');
    let mut out = String::with_capacity(t.len());
    let mut space = false;
    for c in t.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && word(c) && out.chars().last().is_some_and(word) {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

/// `__Exception` rules of an opcode as text: `"message" = condition`.
fn rules(op: &Opcode) -> Vec<String> {
    op.exceptions.iter().map(|e| format!("{}<{}, \"{}\"> = {}", e.class, e.kind, e.message, e.condition.to_text())).collect()
}

/// `__OperandInfo` directives of an opcode as text, one per line.
fn operand_info(op: &Opcode) -> Vec<String> {
    let refs = |v: &[OperandRef]| v.iter().map(|r| if r.index.is_empty() { r.name.clone() } else { format!("{}[{}]", r.name, r.index.join(", ")) }).collect::<Vec<_>>().join(", ");
    let info = &op.operands;
    let mut out = vec![format!("InList<{}>", refs(&info.inputs)), format!("OutList<{}>", refs(&info.outputs)), format!("Order<{}>", refs(&info.order))];
    if !info.modi_order.is_empty() {
        out.push(format!("ModiOrder<{}>", refs(&info.modi_order)));
    }
    out.extend(info.bitwidths.iter().map(|b| format!("Bitwidth<{}> = {}", b.operand, b.expr.to_text())));
    out.extend(info.asm_formats.iter().map(|h| format!("AsmFormat<{}> = {}({})", h.operand, h.function, h.args.join(", "))));
    out
}

/// What each modifier spelling sets in an opcode: `(spelling, field)` -> value.
fn spelling_values(op: &Opcode) -> BTreeMap<(String, String), u64> {
    let mut out = BTreeMap::new();
    for b in &op.forms {
        for m in &b.modifiers {
            match m {
                ModifierBinding::Value { field, spelling, value, .. } => {
                    out.entry((spelling.clone(), field.clone())).or_insert(*value);
                }
                ModifierBinding::Choice { field, values, .. } => {
                    for v in values {
                        out.entry((v.spelling.clone(), field.clone())).or_insert(v.value);
                    }
                }
                ModifierBinding::Mnemonic { .. } | ModifierBinding::Unbound { .. } => {}
            }
        }
    }
    out
}

/// What each modifier spelling of an opcode sets, one line each
/// (`` `.WRAP` sets `cwmod` = W (0x1) ``), the value as the field's type names it.
fn spellings(isa: &Isa, op: &Opcode) -> Vec<String> {
    spelling_values(op)
        .into_iter()
        .map(|((spelling, field), v)| {
            let shown = op.field(&field).map_or_else(|| format!("{v:#x}"), |f| format!("{} ({v:#x})", isa.types[f.ty].value_text(v)));
            format!("`.{spelling}` sets `{field}` = {shown}")
        })
        .collect()
}

/// Where two texts differ: the first changed line, both sides shortened
/// around their first differing character; or the first line added or
/// removed; and how many more lines changed.
#[cfg(test)]
fn first_change(a: &str, b: &str) -> String {
    first_change_at(a, b).0
}

/// [`first_change`], and where that line is: in `b` (`true`; in `a` for a
/// line removed) and its index there, from 0.
fn first_change_at(a: &str, b: &str) -> (String, bool, usize) {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let k = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    let j = la[k..].iter().rev().zip(lb[k..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (old, new) = (&la[k..la.len() - j], &lb[k..lb.len() - j]);
    let quoted = |s: String| if s.is_empty() { "nothing".to_string() } else { format!("`{s}`") };
    let more = |n: usize, what: &str| if n > 1 { format!(" (and {} more {what})", n - 1) } else { String::new() };
    // Lines only added or removed: the first that is not blank, and how many such.
    fn first_text<'s>(lines: &[&'s str]) -> (usize, &'s str) {
        lines.iter().position(|l| !l.trim().is_empty()).map_or((0, ""), |i| (i, lines[i]))
    }
    let texts = |lines: &[&str]| lines.iter().filter(|l| !l.trim().is_empty()).count();
    match (old.first(), new.first()) {
        (None, Some(_)) => {
            let (i, y) = first_text(new);
            (format!("line {} added: {}{}", k + i + 1, quoted(around(y, 0)), more(texts(new), "lines added")), true, k + i)
        }
        (Some(_), None) => {
            let (i, x) = first_text(old);
            (format!("line {} removed: {}{}", k + i + 1, quoted(around(x, 0)), more(texts(old), "lines removed")), false, k + i)
        }
        (Some(x), Some(y)) => {
            let (x, y) = (x.trim(), y.trim());
            let at = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
            let lines = old.len().max(new.len());
            (format!("line {}: {} -> {}{}", k + 1, quoted(around(x, at)), quoted(around(y, at)), more(lines, "lines changed")), true, k)
        }
        (None, None) => ("no line changed".to_string(), true, k),
    }
}

/// A line shortened to 60 characters that show character `at` (the first
/// that differs), with `...` where it is cut.
fn around(line: &str, at: usize) -> String {
    let chars: Vec<char> = line.trim().chars().collect();
    let start = if at > 40 { (at - 20).min(chars.len()) } else { 0 };
    let shown: String = chars[start..].iter().take(60).collect();
    let (before, after) = (if start > 0 { "..." } else { "" }, if chars.len() - start > 60 { "..." } else { "" });
    format!("{before}{shown}{after}")
}

#[derive(Clone, Debug)]
struct Group {
    name: String,
    values: BTreeSet<String>,
    default: Option<String>,
}

/// Modifier groups of an instruction: value lists used by its forms (as
/// modifiers or operand suffixes) and flag modifiers (`{.FTZ}`).
fn groups(o: &Optype) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let mut add = |g: Group| {
        if !out.iter().any(|x| x.name == g.name) {
            out.push(g);
        }
    };
    for f in &o.syntax {
        let names = f.modifiers.iter().map(|m| (m.name.clone(), m.optional)).chain(
            f.operands.iter().flat_map(|op| op.suffixes.iter().filter(|s| s.kind == DecorationKind::Suffix).map(|s| (s.name.clone(), true))),
        );
        for (name, optional) in names {
            match o.value_lists.iter().find(|l| l.name == name) {
                Some(l) => add(Group {
                    name: format!(".{name}"),
                    values: l.items.iter().filter(|i| !i.spelling.is_empty()).map(|i| i.spelling.clone()).collect(),
                    default: l.items.iter().find(|i| i.is_default).map(|i| i.spelling.clone()),
                }),
                None if name.chars().any(|c| c.is_ascii_lowercase()) => {}
                None => add(Group {
                    name: if optional { format!("{{.{name}}}") } else { format!(".{name}") },
                    values: [name].into_iter().collect(),
                    default: None,
                }),
            }
        }
    }
    out
}

/// Operand kind signatures of the instruction's forms (`R,R,C`), one for
/// each choice of optional operands written or left out (a form `R, R{, P}`
/// writes `R,R` and `R,R,P`); runs of immediates count once (SPA writes one
/// per lane).
fn forms(isa: &Isa, o: &Optype) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut insert = |kinds: Vec<(char, bool)>| {
        let optional: Vec<usize> = kinds.iter().enumerate().filter(|(_, k)| k.1).map(|(i, _)| i).collect();
        // Past a few optional operands, only all written and all left out.
        let choices: Vec<u64> = if optional.len() <= 6 { (0..1u64 << optional.len()).collect() } else { vec![0, u64::MAX] };
        for keep in choices {
            let mut v: Vec<char> = Vec::new();
            for (i, (k, opt)) in kinds.iter().enumerate() {
                let left_out = *opt && keep >> optional.iter().position(|&j| j == i).unwrap_or(0) & 1 == 0;
                // A run of immediates counts once.
                let run = *k == 'I' && v.last() == Some(&'I');
                if !(left_out || run) {
                    v.push(*k);
                }
            }
            out.insert(v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","));
        }
    };
    if o.notation.is_some() {
        for f in &o.syntax {
            // SPA's braces group an operand's parts (`{{-}{|}#Imm{|}}`); they do not make it optional.
            insert(f.operands.iter().map(|op| (isa_dsl::spa::operand_kind(&op.name), false)).collect());
        }
        return out;
    }
    for &oc in &o.opcodes {
        let op = &isa.opcodes[oc];
        for b in &op.forms {
            let syntax = &o.syntax[b.form];
            let kinds = b
                .operands
                .iter()
                .zip(&syntax.operands)
                .map(|(ob, sop)| (match ob.field.as_deref().and_then(|f| op.field(f)) {
                    None if !ob.index_fields.is_empty() => 'X',
                    None => 'L',
                    Some(f) => match &isa.types[f.ty].kind {
                        TypeKind::Register { predicate: true, .. } => 'P',
                        TypeKind::Register { warp: true, .. } => 'U',
                        TypeKind::Register { .. } => 'R',
                        TypeKind::ConstMem { .. } => 'C',
                        _ => 'I',
                    },
                }, sop.optional))
                .collect();
            insert(kinds);
        }
    }
    out
}

fn insn_diff(old_isa: &Isa, old: &Optype, new_isa: &Isa, new: &Optype) -> InsnDiff {
    let mut d = InsnDiff { name: old.name.clone(), old_notation: notation(old), new_notation: notation(new), ..Default::default() };
    // Modifiers: match by name, then by shared values (most first).
    let (ga, gb) = (groups(old), groups(new));
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    let mut used_b = vec![false; gb.len()];
    let mut used_a = vec![false; ga.len()];
    for (i, g) in ga.iter().enumerate() {
        if let Some(j) = gb.iter().position(|h| h.name == g.name) {
            pairs.push((Some(i), Some(j)));
            used_a[i] = true;
            used_b[j] = true;
        }
    }
    loop {
        let mut best: Option<(usize, usize, usize)> = None;
        for (i, g) in ga.iter().enumerate().filter(|(i, _)| !used_a[*i]) {
            for (j, h) in gb.iter().enumerate().filter(|(j, _)| !used_b[*j]) {
                let shared = g.values.intersection(&h.values).count();
                if shared > 0 && best.is_none_or(|b| shared > b.2) {
                    best = Some((i, j, shared));
                }
            }
        }
        let Some((i, j, _)) = best else { break };
        pairs.push((Some(i), Some(j)));
        used_a[i] = true;
        used_b[j] = true;
    }
    pairs.extend((0..ga.len()).filter(|i| !used_a[*i]).map(|i| (Some(i), None)));
    pairs.extend((0..gb.len()).filter(|j| !used_b[*j]).map(|j| (None, Some(j))));
    for (i, j) in pairs {
        let (a, b) = (i.map(|i| &ga[i]), j.map(|j| &gb[j]));
        let empty = BTreeSet::new();
        let (va, vb) = (a.map_or(&empty, |g| &g.values), b.map_or(&empty, |g| &g.values));
        let m = ModifierDiff {
            old: a.map(|g| g.name.clone()),
            new: b.map(|g| g.name.clone()),
            only_old: va.difference(vb).map(|v| format!(".{v}")).collect(),
            only_new: vb.difference(va).map(|v| format!(".{v}")).collect(),
            default_changed: match (a.and_then(|g| g.default.clone()), b.and_then(|g| g.default.clone())) {
                (Some(x), Some(y)) if x != y => Some((x, y)),
                _ => None,
            },
        };
        if !m.only_old.is_empty() || !m.only_new.is_empty() || m.default_changed.is_some() || a.is_none() || b.is_none() {
            d.modifiers.push(m);
        }
    }
    let (fa, fb) = (forms(old_isa, old), forms(new_isa, new));
    d.forms_only_old = fa.difference(&fb).cloned().collect();
    d.forms_only_new = fb.difference(&fa).cloned().collect();
    if old.notation == new.notation {
        // Templates compare without the spaces that mean nothing (`Rd,{-}SrcB`
        // is `Rd, {-}SrcB`), and show as the side that has them writes them.
        let text = |o: &Optype| o.syntax.iter().map(|f| f.text.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>();
        let (ta, tb) = (text(old), text(new));
        let shown: BTreeMap<(char, String), &String> = ta.iter().map(|t| (('-', template_key(t)), t)).chain(tb.iter().map(|t| (('+', template_key(t)), t))).collect();
        let keys = |ts: &[String]| ts.iter().map(|t| template_key(t)).collect::<Vec<_>>();
        if keys(&ta) != keys(&tb) && line_diff(&keys(&ta), &keys(&tb)).is_empty() {
            d.reordered.push("syntax templates".into());
        }
        d.syntax = line_diff(&keys(&ta), &keys(&tb))
            .into_iter()
            .map(|l| {
                let (side, key) = l.split_at(1);
                let key = key.trim_start().to_string();
                LineChange::parse(&shown.get(&(side.chars().next().unwrap_or('-'), key)).map_or(l.clone(), |t| format!("{side} {t}")))
            })
            .collect();
    }
    // Examples differing in spacing alone are the same example (as templates are).
    let examples = |o: &Optype| o.examples.iter().map(|e| e.text.trim().to_string()).collect::<Vec<_>>();
    d.examples = line_diff_by(&examples(old), &examples(new), template_key).iter().map(|l| LineChange::parse(l)).collect();
    let example_keys = |o: &Optype| examples(o).iter().map(|e| template_key(e)).collect::<Vec<_>>();
    if d.examples.is_empty() && example_keys(old) != example_keys(new) {
        d.reordered.push("examples".into());
    }
    // Each with its file:line, on the side that has it.
    for line in &mut d.examples {
        let (isa, o) = if line.side == Side::Old { (old_isa, old) } else { (new_isa, new) };
        line.at = o.examples.iter().find(|e| e.text.trim() == line.text).and_then(|e| file_line(isa, &e.loc));
    }
    let hook = |o: &Optype| o.hook.as_ref().or(o.simulation.as_ref()).map(|h| h.text()).unwrap_or_default();
    if hook(old) != hook(new) {
        d.simulation = Some((hook(old), hook(new)));
    }
    // An OLD opcode's counterpart in NEW: the same name, else (renamed) an
    // opcode only in NEW with the same constant bits.
    let counterpart = |x: &Opcode| -> Option<(&Opcode, bool)> {
        let mut ys = new.opcodes.iter().map(|&k| &new_isa.opcodes[k]);
        if let Some(y) = ys.clone().find(|y| y.name == x.name) {
            return Some((y, false));
        }
        let twin = ys.find(|y| (y.fixed_mask, y.fixed_bits) == (x.fixed_mask, x.fixed_bits) && !old.opcodes.iter().any(|&k| old_isa.opcodes[k].name == y.name));
        twin.map(|y| (y, true))
    };
    // Per opcode both sides have, as lines; a change shared by opcodes is said once.
    let per_opcode = |lines: &dyn Fn(&Isa, &Opcode) -> Vec<String>| {
        let mut changes: Vec<(String, Vec<String>)> = Vec::new();
        for &oc in &old.opcodes {
            let x = &old_isa.opcodes[oc];
            let Some((y, _)) = counterpart(x) else { continue };
            for change in line_diff(&lines(old_isa, x), &lines(new_isa, y)) {
                match changes.iter_mut().find(|(c, _)| *c == change) {
                    Some((_, ops)) => ops.push(x.name.clone()),
                    None => changes.push((change, vec![x.name.clone()])),
                }
            }
        }
        changes.into_iter().map(|(c, opcodes)| LineChange { opcodes, ..LineChange::parse(&c) }).collect::<Vec<_>>()
    };
    d.rules = per_opcode(&|_, op| rules(op));
    // Each with the file:line of its first opcode's rule, on the side that
    // has it: `(in MOV_R; spec/x.txt:40)`.
    for line in &mut d.rules {
        let (isa, o) = if line.side == Side::Old { (old_isa, old) } else { (new_isa, new) };
        let op = o.opcodes.iter().map(|&k| &isa.opcodes[k]).find(|op| line.opcodes.first() == Some(&op.name));
        line.at = op.and_then(|op| op.exceptions.iter().zip(rules(op)).find(|(_, text)| *text == line.text)).and_then(|(e, _)| file_line(isa, &e.loc));
    }
    d.operand_info = per_opcode(&|_, op| operand_info(op));
    // What spellings set; one a modifier group already names as added or
    // removed is not said again.
    let mentioned: BTreeSet<&str> = d.modifiers.iter().flat_map(|m| m.only_old.iter().chain(&m.only_new)).map(String::as_str).collect();
    d.spellings = per_opcode(&spellings).into_iter().filter(|l| !l.text.split('`').nth(1).is_some_and(|s| mentioned.contains(s))).collect();
    // Encodings, where both sides have them.
    for &oc in &old.opcodes {
        let x = &old_isa.opcodes[oc];
        // A renamed opcode's fields are compared as a kept opcode's are.
        let y = match counterpart(x) {
            Some((y, false)) => y,
            Some((y, true)) => {
                d.encodings.push(EncodingChange::new(&x.name, None, EncodingChangeKind::Renamed, None, Some(y.name.clone())).at(new_isa, &y.loc));
                y
            }
            None => {
                if !new.opcodes.is_empty() {
                    d.encodings.push(EncodingChange::new(&x.name, None, EncodingChangeKind::OnlyOld, None, None).at(old_isa, &x.loc));
                }
                continue;
            }
        };
        // A field only in OLD and one only in NEW at the same bits, of the
        // same type and value: the field renamed.
        let twin = |f: &Field| y.fields.iter().find(|g| x.field(&g.name).is_none() && (g.start, g.width, &g.ty_name, g.value) == (f.start, f.width, &f.ty_name, f.value));
        for f in &x.fields {
            match y.field(&f.name) {
                None => match twin(f) {
                    Some(g) => d.encodings.push(EncodingChange::new(&x.name, Some(&f.name), EncodingChangeKind::FieldRenamed, Some(bits(f)), Some(g.name.to_string())).at(new_isa, &g.loc)),
                    None => d.encodings.push(EncodingChange::new(&x.name, Some(&f.name), EncodingChangeKind::Removed, Some(bits(f)), None).at(old_isa, &f.loc)),
                },
                Some(g) => {
                    if (g.start, g.width) != (f.start, f.width) {
                        let what = if g.width != f.width { EncodingChangeKind::Resized } else { EncodingChangeKind::Moved };
                        d.encodings.push(EncodingChange::new(&x.name, Some(&f.name), what, Some(bits(f)), Some(bits(g))).at(new_isa, &g.loc));
                    }
                    if g.ty_name != f.ty_name {
                        d.encodings.push(EncodingChange::new(&x.name, Some(&f.name), EncodingChangeKind::Type, Some(f.ty_name.to_string()), Some(g.ty_name.to_string())).at(new_isa, &g.loc));
                    }
                    if g.value != f.value && g.ty_name == f.ty_name {
                        let (mut was, mut is) = (value_text(old_isa, f), value_text(new_isa, g));
                        // The same name for another encoding (or the reverse),
                        // or a constant (opcode bits): say the numbers.
                        if was == is || f.is_constant() || g.is_constant() {
                            // Unless the text is the number already (`= 0x0`).
                            let number = |text: String, v: u64| if text.ends_with(&format!("{v:#x}")) { text } else { format!("{text} ({v:#x})") };
                            was = number(was, f.default_value().unwrap_or_default());
                            is = number(is, g.default_value().unwrap_or_default());
                        }
                        d.encodings.push(EncodingChange::new(&x.name, Some(&f.name), EncodingChangeKind::Value, Some(was), Some(is)).at(new_isa, &g.loc));
                    }
                }
            }
        }
        let renamed_to = |g: &Field| x.fields.iter().any(|f| y.field(&f.name).is_none() && twin(f).is_some_and(|t| t.name == g.name));
        for g in y.fields.iter().filter(|g| x.field(&g.name).is_none() && !renamed_to(g)) {
            d.encodings.push(EncodingChange::new(&x.name, Some(&g.name), EncodingChangeKind::Added, None, Some(bits(g))).at(new_isa, &g.loc));
        }
    }
    for &oc in &new.opcodes {
        let y = &new_isa.opcodes[oc];
        let renamed = old.opcodes.iter().map(|&k| &old_isa.opcodes[k]).any(|x| {
            (x.fixed_mask, x.fixed_bits) == (y.fixed_mask, y.fixed_bits) && !new.opcodes.iter().any(|&k| new_isa.opcodes[k].name == x.name)
        });
        if !old.opcodes.is_empty() && !renamed && !old.opcodes.iter().any(|&k| old_isa.opcodes[k].name == y.name) {
            d.encodings.push(EncodingChange::new(&y.name, None, EncodingChangeKind::OnlyNew, None, None).at(new_isa, &y.loc));
        }
    }
    // A spelling that sets a renamed field is the same spelling: said once, by the rename.
    let renames: BTreeSet<(String, String)> =
        d.encodings.iter().filter(|e| e.change == EncodingChangeKind::FieldRenamed).filter_map(|e| Some((e.field.clone()?, e.new.clone()?))).collect();
    if !renames.is_empty() {
        let renamed = |line: &str| renames.iter().fold(line.to_string(), |l, (f, g)| l.replace(&format!("`{f}`"), &format!("`{g}`")));
        // The whole line (opcodes included) is what must match: an OLD line
        // with the renames applied, a NEW one as it stands, both as `- ...`.
        let key = |l: &LineChange| match l.side {
            Side::Old => renamed(&l.to_string()),
            Side::New => LineChange { side: Side::Old, ..l.clone() }.to_string(),
        };
        let added: BTreeSet<String> = d.spellings.iter().filter(|l| l.side == Side::New).map(key).collect();
        let same: BTreeSet<String> = d.spellings.iter().filter(|l| l.side == Side::Old).map(key).filter(|k| added.contains(k)).collect();
        d.spellings.retain(|l| !same.contains(&key(l)));
    }
    // Prose, with the file and line of the first change (a section's text
    // starts at its `loc`; the blank lines `trim` drops are counted back).
    let text = |p: &Option<Prose>| p.as_ref().map(|p| p.text.trim().to_string()).unwrap_or_default();
    let place = |isa: &Isa, p: &Option<Prose>, line: usize| {
        let p = p.as_ref()?;
        let blank = p.text[..p.text.len() - p.text.trim_start().len()].matches('\n').count();
        let file = isa.files.get(p.loc.file as usize)?;
        Some(format!(" ({file}:{})", p.loc.line as usize + blank + line))
    };
    for (name, x, y) in [
        ("description", &old.docs.description, &new.docs.description),
        ("operand info", &old.docs.operand_info, &new.docs.operand_info),
        ("modifier info", &old.docs.modifier_info, &new.docs.modifier_info),
        ("semantics", &old.docs.semantics, &new.docs.semantics),
        ("exception notes", &old.docs.exception, &new.docs.exception),
    ] {
        if text(x) != text(y) {
            let (change, in_new, line) = first_change_at(&text(x), &text(y));
            // The SPA notation gathers its prose from many places: no line to give.
            let at = match (in_new, &new.notation, &old.notation) {
                (true, None, _) => place(new_isa, y, line),
                (false, _, None) => place(old_isa, x, line),
                _ => None,
            };
            d.prose_changed.push(format!("{name}, {change}{}", at.unwrap_or_default()));
        }
    }
    d
}

/// A field's default or constant as the spec writes it: `== FADD`,
/// `= PT`, `= 0x3`, `no default`.
fn value_text(isa: &Isa, f: &Field) -> String {
    let shown = |v: u64| isa.types.get(f.ty).map_or_else(|| format!("{v:#x}"), |t| t.value_text(v));
    match f.value {
        FieldValue::Free => "no default".into(),
        FieldValue::Default(v) => format!("= {}", shown(v)),
        FieldValue::Constant(v) => format!("== {}", shown(v)),
    }
}

fn bits(f: &Field) -> String {
    format!("[{}:{}]", f.start + f.width - 1, f.start)
}

/// What the letters of an operand form stand for, after the forms.
const FORM_KEY: &str = " (R register, U uniform register, P predicate, I immediate, C constant memory, X indexed, L literal or unbound)";

/// The diff as text for people.
pub fn to_text(d: &IsaDiff, old_name: &str, new_name: &str) -> String {
    if d.is_empty() {
        return format!("no differences between {old_name} and {new_name}\n");
    }
    let mut s = format!("--- {old_name}\n+++ {new_name}\n");
    for t in &d.types {
        s.push_str(&format!("{t}\n"));
    }
    if !d.only_old.is_empty() {
        s.push_str(&format!("instructions only in OLD: {}\n", d.only_old.join(", ")));
        for t in &d.only_old_syntax {
            s.push_str(&format!("    - {t}\n"));
        }
    }
    if !d.only_new.is_empty() {
        s.push_str(&format!("instructions only in NEW: {}\n", d.only_new.join(", ")));
        for t in &d.only_new_syntax {
            s.push_str(&format!("    + {t}\n"));
        }
    }
    for r in &d.renamed {
        s.push_str(&format!("instruction renamed: {r} (its opcodes have the same constant bits)\n"));
    }
    // One edit (one file:line) that several instructions inherit, a group's
    // field moved: said once, before them, not under each.
    let mut edits: Vec<(Edit, &EncodingChange, Vec<&str>, usize)> = Vec::new();
    for c in &d.changed {
        for e in &c.encodings {
            let Some(key) = edit(e) else { continue };
            match edits.iter_mut().find(|x| x.0 == key) {
                Some(x) => {
                    if x.2.last() != Some(&c.name.as_str()) {
                        x.2.push(&c.name);
                    }
                    x.3 += 1;
                }
                None => edits.push((key, e, vec![&c.name], 1)),
            }
        }
    }
    edits.retain(|x| x.2.len() >= 2);
    let mut said: Vec<&Vec<&str>> = Vec::new();
    for (_, _, names, _) in &edits {
        if said.contains(&names) {
            continue;
        }
        said.push(names);
        s.push_str(&format!("\n~ {} instructions: {}\n", names.len(), names.join(", ")));
        for (_, e, _, opcodes) in edits.iter().filter(|x| &x.2 == names) {
            let shared = EncodingChange { opcode: format!("{opcodes} opcodes"), ..(*e).clone() };
            s.push_str(&format!("    encoding: {shared}\n"));
        }
    }
    let hoisted = |e: &EncodingChange| edit(e).is_some_and(|k| edits.iter().any(|x| x.0 == k));
    let mut form_key = FORM_KEY;
    for c in &d.changed {
        let notation =
            if c.old_notation != c.new_notation { format!(" ({} -> {})", c.old_notation, c.new_notation) } else { String::new() };
        // The instruction's lines; none left (its changes said above): no section.
        let head = format!("\n~ {}{notation}\n", c.name);
        let start = s.len();
        for m in &c.modifiers {
            let head = match (&m.old, &m.new) {
                (Some(a), Some(b)) if a == b => format!("modifier {a}"),
                (Some(a), Some(b)) => format!("modifier {a} ~ {b}"),
                (Some(a), None) => format!("modifier {a} only in OLD"),
                (None, Some(b)) => format!("modifier {b} only in NEW"),
                (None, None) => continue,
            };
            let mut parts = Vec::new();
            if !m.only_old.is_empty() {
                parts.push(format!("only in OLD {}", m.only_old.join(" ")));
            }
            if !m.only_new.is_empty() {
                parts.push(format!("only in NEW {}", m.only_new.join(" ")));
            }
            if let Some((a, b)) = &m.default_changed {
                parts.push(format!("default .{a} -> .{b}"));
            }
            s.push_str(&format!("    {head}{}{}\n", if parts.is_empty() { "" } else { ": " }, parts.join("; ")));
        }
        // The letters are explained once, at their first use.
        if !c.forms_only_old.is_empty() {
            s.push_str(&format!("    operand forms only in OLD: {}{}\n", c.forms_only_old.join("  "), std::mem::take(&mut form_key)));
        }
        if !c.forms_only_new.is_empty() {
            s.push_str(&format!("    operand forms only in NEW: {}{}\n", c.forms_only_new.join("  "), std::mem::take(&mut form_key)));
        }
        for t in &c.syntax {
            s.push_str(&format!("    syntax {t}\n"));
        }
        // One line for a change its opcodes share (a group's field moved).
        let mut shared: Vec<EncodingChange> = Vec::new();
        for e in c.encodings.iter().filter(|e| !hoisted(e)) {
            match shared.iter_mut().find(|x| (&x.field, x.change, &x.old, &x.new) == (&e.field, e.change, &e.old, &e.new) && e.field.is_some()) {
                Some(x) => x.opcode = format!("{}, {}", x.opcode, e.opcode),
                None => shared.push(e.clone()),
            }
        }
        for e in &shared {
            s.push_str(&format!("    encoding: {e}\n"));
        }
        for m in &c.spellings {
            s.push_str(&format!("    modifier {m}\n"));
        }
        for o in &c.operand_info {
            s.push_str(&format!("    operand info {o}\n"));
        }
        for r in &c.rules {
            s.push_str(&format!("    rule {r}\n"));
        }
        for e in &c.examples {
            s.push_str(&format!("    example {e}\n"));
        }
        for r in &c.reordered {
            s.push_str(&format!("    {r}: the same, in another order\n"));
        }
        if let Some((a, b)) = &c.simulation {
            let quoted = |s: &str| if s.is_empty() { "none".to_string() } else { format!("`{s}`") };
            s.push_str(&format!("    simulation: {} -> {}\n", quoted(a), quoted(b)));
        }
        for p in &c.prose_changed {
            s.push_str(&format!("    prose changed: {p}\n"));
        }
        if s.len() > start || c.encodings.is_empty() {
            s.insert_str(start, &head);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::first_change;

    #[test]
    fn a_change_past_the_cut_is_shown_around_where_it_is() {
        let a = format!("{}全部置0。", "很长的一行文字".repeat(12));
        let b = format!("{}全部置1。", "很长的一行文字".repeat(12));
        let d = first_change(&a, &b);
        assert!(d.starts_with("line 1: `...") && d.contains("全部置0。` -> `...") && d.ends_with("全部置1。`"), "{d}");
    }

    #[test]
    fn lines_added_or_removed_are_named_with_their_text() {
        let a = "one\n\ntwo\n\nthree";
        assert_eq!(first_change(a, "one\n\nthree"), "line 3 removed: `two`");
        assert_eq!(first_change(a, "one\n\nnew\n\ntwo\n\nthree"), "line 3 added: `new`");
        assert_eq!(first_change(a, "one\n\nnew\nnewer\n\ntwo\n\nthree"), "line 3 added: `new` (and 1 more lines added)");
        assert_eq!(first_change(a, "one\n\n2\n\n3"), "line 3: `two` -> `2` (and 2 more lines changed)");
        assert_eq!(first_change("short", "shorter"), "line 1: `short` -> `shorter`");
    }

    #[test]
    fn an_edit_many_instructions_inherit_is_said_once_before_them() {
        use super::{to_text, EncodingChange, EncodingChangeKind, InsnDiff, IsaDiff};
        let change = |op: &str, at: &str| EncodingChange {
            opcode: op.into(),
            field: Some("pg".into()),
            change: EncodingChangeKind::Value,
            old: Some("= PT".into()),
            new: Some("= P0".into()),
            at: Some(at.into()),
        };
        let insn = |name: &str, encodings: Vec<EncodingChange>| InsnDiff { name: name.into(), encodings, ..Default::default() };
        let d = IsaDiff {
            changed: vec![
                insn("A", vec![change("A_R", "g.txt:3"), change("A_I", "g.txt:3")]),
                insn("B", vec![change("B_R", "g.txt:3"), EncodingChange { field: Some("rd".into()), ..change("B_R", "b.txt:9") }]),
                // The same change written elsewhere is another edit.
                insn("C", vec![change("C_R", "c.txt:5")]),
            ],
            ..Default::default()
        };
        let text = to_text(&d, "old", "new");
        let expected = "--- old\n+++ new\n\n~ 2 instructions: A, B\n    encoding: 3 opcodes: field `pg` = PT -> = P0 (g.txt:3)\n\n~ B\n    encoding: B_R: field `rd` = PT -> = P0 (b.txt:9)\n\n~ C\n    encoding: C_R: field `pg` = PT -> = P0 (c.txt:5)\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn the_letters_of_operand_forms_are_explained_once() {
        use super::{to_text, InsnDiff, IsaDiff};
        let insn = |name: &str| InsnDiff { name: name.into(), forms_only_old: vec!["RI".into()], forms_only_new: vec!["RR".into()], ..Default::default() };
        let d = IsaDiff { changed: vec![insn("A"), insn("B")], ..Default::default() };
        let text = to_text(&d, "old", "new");
        assert_eq!(text.matches("R register, U uniform register").count(), 1, "{text}");
        assert!(text.contains("operand forms only in OLD: RI (R register"), "{text}");
    }
}
