//! Abstract syntax tree of one spec file, as written: every name and value
//! keeps its span; nothing is resolved. Produced by `parser.rs`, consumed by
//! `resolve.rs` (and `check.rs`, for value-list dots). Prose and code are kept verbatim.

use crate::expr::Expr;
use crate::source::Span;
use serde::Serialize;

/// A name or literal with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spanned<T> {
    /// The name or literal itself.
    pub value: T,
    /// Where it is written.
    pub span: Span,
}

/// A name as written, with its span.
pub type Ident = Spanned<String>;

/// One parsed spec file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct File {
    /// Its declarations in file order (one whose header does not parse is left out).
    pub decls: Vec<Decl>,
    /// Its last line has no line break and did not parse (reported, with a
    /// note): the file was most likely cut short, so what later files
    /// refer to may be lost with it.
    pub cut_short: bool,
}

/// Kind of a top-level declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum DeclKind {
    /// `__DefBitFieldType Name<width>`: a type of named values (`A;`, `B = 0x2;`).
    BitFieldType,
    /// `__DefOperandType Name<width> : Kind`: a register file, immediate, float or constant-memory type.
    OperandType,
    /// `__DefIsa Name`: our extension, the properties of the whole ISA (width, guard, control fields, literals).
    Isa,
    /// `__DefGroup Name : [Parent]`: a class whose fields and rules every class below it inherits.
    Group,
    /// `__DefOptype Name : [Group]`: one instruction (mnemonic), with its syntax and prose.
    Optype,
    /// `__DefOpcode Name : [Optype]`: one encoding of an optype.
    Opcode,
    /// `__DefSimulation Optype`: our extension, the simulation hook of an optype.
    Simulation,
    /// `__DefValueFormat Type`: our extension, what each value of a bit-field
    /// type denotes as data (`Float F16 = <5, 10>;`, `Bits S8 = 8;`).
    ValueFormat,
}

impl DeclKind {
    /// The keyword that starts the declaration (`__DefGroup`).
    pub fn keyword(self) -> &'static str {
        match self {
            DeclKind::BitFieldType => "__DefBitFieldType",
            DeclKind::OperandType => "__DefOperandType",
            DeclKind::Isa => "__DefIsa",
            DeclKind::Group => "__DefGroup",
            DeclKind::Optype => "__DefOptype",
            DeclKind::Opcode => "__DefOpcode",
            DeclKind::Simulation => "__DefSimulation",
            DeclKind::ValueFormat => "__DefValueFormat",
        }
    }
}

/// A `__Def...` declaration with its body.
#[derive(Clone, Debug, Serialize)]
pub struct Decl {
    /// Which `__Def...` it is.
    pub kind: DeclKind,
    /// The declared name (for `__DefSimulation` and `__DefValueFormat`, the optype or type it is about).
    pub name: Ident,
    /// `<N>` of type declarations.
    pub width: Option<Spanned<u64>>,
    /// `: [Parent]` of class declarations (`Some(None)` for `: []`).
    pub parent: Option<Option<Ident>>,
    /// `: Kind` of operand types.
    pub type_kind: Option<Ident>,
    /// The header line.
    pub span: Span,
    /// Values of a bit-field type.
    pub values: Vec<EnumValue>,
    /// Names of a bit-field type's value lines that did not parse (reported),
    /// so that their uses are not reported again.
    pub broken_values: Vec<String>,
    /// Body lines that did not parse (reported): a `__DefSimulation`'s
    /// hook line, an operand type's or the ISA's property.
    pub broken_lines: usize,
    /// Properties of an operand type, the ISA or a value format.
    pub properties: Vec<Property>,
    /// Hook lines of a `__DefSimulation`.
    pub hooks: Vec<SimulationCall>,
    /// Its sections in file order (only groups, optypes and opcodes have any).
    pub sections: Vec<Section>,
    /// Part of it was not read, and reported: a section under a header
    /// naming none (E014), text before its first section (E003), or an
    /// `__OperandInfo` directive that did not parse or was given twice.
    /// What it said is unknown, so its opcodes get no follow-on diagnostics.
    pub partly_unread: bool,
}

/// `S8;` or `F64 = 0x2;`
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    /// The value's name (it may start with a digit: `32`).
    pub name: Ident,
    /// `= 0x2`, when written; otherwise the value is numbered one past the previous one (0 for the first).
    pub encoding: Option<Spanned<u64>>,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// `Prefix = "R";`, `Constant RZ = 255;`
#[derive(Clone, Debug, Serialize)]
pub struct Property {
    /// The property's name (`Prefix`, `Constant`, `Width`, `Float`).
    pub key: Ident,
    /// The name between the key and `=` (`RZ` in `Constant RZ = 255;`), where one is written.
    pub name: Option<Ident>,
    /// The value after `=`.
    pub value: Spanned<PropertyValue>,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// The value of a [`Property`], after its `=`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PropertyValue {
    /// A number (`255`, `0x2`).
    Int(u64),
    /// A quoted string, without its quotes (`"R"`).
    Str(String),
    /// A name or dotted path (`Warp`, `Pred`, `pg`).
    Name(String),
    /// `<a, b>`: a bit range (`Bank = <16, 5>;`) or a float layout (`Float F16 = <5, 10>;`).
    Range {
        /// `a`: a start bit, or a float's exponent width.
        start: u64,
        /// `b`: a width in bits, or a float's mantissa width.
        width: u64,
    },
}

/// Kind of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum SectionKind {
    /// `__Encoding`: `field<start, width> ...` lines.
    Encoding,
    /// `__Syntax`: templates and value lists, in code fences.
    Syntax,
    /// `__Description`: prose for the manual.
    Description,
    /// `__OperandInfo`: directives (`InList<...>`, `Order<...>`, ...) among prose.
    OperandInfo,
    /// `__ModifierInfo`: prose on the modifiers.
    ModifierInfo,
    /// `__Semantics`: pseudo-code and prose, shown as written.
    Semantics,
    /// `__Examples`: assembly lines in code fences, assembled and round-tripped.
    Examples,
    /// `__Simulation`: the optype's simulation hook line.
    Simulation,
    /// `__Exception`: `EncodingError<...>` rules among prose.
    Exception,
}

impl SectionKind {
    /// Every kind, in the order sections are usually written.
    pub const ALL: [SectionKind; 9] = [
        SectionKind::Encoding,
        SectionKind::Syntax,
        SectionKind::Description,
        SectionKind::OperandInfo,
        SectionKind::ModifierInfo,
        SectionKind::Semantics,
        SectionKind::Examples,
        SectionKind::Simulation,
        SectionKind::Exception,
    ];

    /// The keyword that starts the section (`__Encoding`).
    pub fn keyword(self) -> &'static str {
        match self {
            SectionKind::Encoding => "__Encoding",
            SectionKind::Syntax => "__Syntax",
            SectionKind::Description => "__Description",
            SectionKind::OperandInfo => "__OperandInfo",
            SectionKind::ModifierInfo => "__ModifierInfo",
            SectionKind::Semantics => "__Semantics",
            SectionKind::Examples => "__Examples",
            SectionKind::Simulation => "__Simulation",
            SectionKind::Exception => "__Exception",
        }
    }

    /// The kind whose keyword (`__Encoding`) is `s`, if any.
    pub fn from_keyword(s: &str) -> Option<SectionKind> {
        SectionKind::ALL.into_iter().find(|k| k.keyword() == s)
    }
    /// The keyword without its `__` (`Encoding`).
    pub fn name(self) -> &'static str {
        &self.keyword()[2..]
    }
}

/// A section: its verbatim text plus whatever structure it has.
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    /// Which section it is (a misspelt header is read as the keyword it nearly names).
    pub kind: SectionKind,
    /// The `__Kind` header.
    pub header: Span,
    /// The body text, verbatim (from the line after the header to the next
    /// section or declaration), with trailing blank lines trimmed.
    pub text: Spanned<String>,
    /// `field` lines of `__Encoding`.
    pub fields: Vec<Field>,
    /// Directives of `__OperandInfo` (outside code fences).
    pub directives: Vec<Directive>,
    /// Rules of `__Exception` (outside code fences).
    pub exceptions: Vec<ExceptionRule>,
    /// Templates of `__Syntax` (inside code fences).
    pub templates: Vec<Template>,
    /// Value lists of `__Syntax` (inside code fences).
    pub value_lists: Vec<ValueList>,
    /// Lines of fenced code (`__Examples`, `__Semantics`), each with its span.
    pub code_lines: Vec<Spanned<String>>,
    /// Names of `__Encoding` lines that did not parse (reported): the field
    /// is taken to exist, so what names it is not reported again.
    pub broken_fields: Vec<String>,
    /// Template lines that did not parse (reported): the optype is not
    /// also reported as having no `__Syntax`.
    pub broken_templates: usize,
    /// `__OperandInfo` directives that did not parse or were given twice
    /// (reported): what the opcode reads and writes is then unknown.
    pub broken_directives: usize,
    /// `vd = HADD2(va, vb);`
    pub simulation: Option<SimulationCall>,
}

/// `field<start, width> Type name = default;` / `== constant;`
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    /// `start`: the field's least significant bit in the instruction word.
    pub start: Spanned<u64>,
    /// `width`: the number of bits.
    pub width: Spanned<u64>,
    /// The type's name.
    pub ty: Ident,
    /// `ra` or `ra.neg`.
    pub name: Ident,
    /// `= default` or `== constant`, when written.
    pub init: Option<FieldInit>,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// The initialiser of a [`Field`]: `= default` or `== constant`.
#[derive(Clone, Debug, Serialize)]
pub struct FieldInit {
    /// Written `==`: a constant that selects the opcode when decoding (else a default).
    pub constant: bool,
    /// The value as written (`PT`, `False`, `0x3`, `-1`, `32`).
    pub value: Ident,
}

/// An operand named in a directive: `rd`, `ra.neg`, `PR`, or `R[urb, ridx]`.
#[derive(Clone, Debug, Serialize)]
pub struct OperandRef {
    /// The operand's name; for an indexed reference, the register prefix before `[` (`R`).
    pub name: Ident,
    /// The paths inside `[...]` for indexed references.
    pub index: Vec<Ident>,
}

/// An `__OperandInfo` directive.
#[derive(Clone, Debug, Serialize)]
pub enum Directive {
    /// `InList<...>`: the operands the instruction reads.
    InList(Vec<OperandRef>, Span),
    /// `OutList<...>`: the operands the instruction writes.
    OutList(Vec<OperandRef>, Span),
    /// `Order<...>`: the operands in the order the templates' operands bind to them.
    Order(Vec<OperandRef>, Span),
    /// `Bitwidth<x> = expr`: the width in bits of operand `x`'s value.
    Bitwidth {
        /// `x`: the operand.
        operand: Ident,
        /// Its width in bits, which may depend on fields (`32 + (width == "64") * 32`).
        expr: Expr,
        /// The whole line, without surrounding blanks.
        span: Span,
    },
    /// `AsmFormat<x> = Hook(args)`: the assembler spells field `x` by a hook (see [`crate::ir::ASM_FORMAT_HOOKS`]).
    AsmFormat {
        /// `x`: the field spelled.
        operand: Ident,
        /// The hook's name (`CvtFImm`).
        function: Ident,
        /// The hook's arguments, in order (`x, by`).
        args: Vec<Ident>,
        /// The whole line, without surrounding blanks.
        span: Span,
    },
    /// `ModiOrder<...>`: the modifier fields in the order the mnemonic writes them.
    ModiOrder(Vec<Ident>, Span),
}

impl Directive {
    /// What a section may give once: `Order`, `InList`, ..., or
    /// `Bitwidth<rd>` and `AsmFormat<rd>` per operand.
    pub fn key(&self) -> String {
        match self {
            Directive::InList(..) => "InList".into(),
            Directive::OutList(..) => "OutList".into(),
            Directive::Order(..) => "Order".into(),
            Directive::ModiOrder(..) => "ModiOrder".into(),
            Directive::Bitwidth { operand, .. } => format!("Bitwidth<{}>", operand.value),
            Directive::AsmFormat { operand, .. } => format!("AsmFormat<{}>", operand.value),
        }
    }

    /// The directive's line, without surrounding blanks.
    pub fn span(&self) -> Span {
        match self {
            Directive::InList(_, s) | Directive::OutList(_, s) | Directive::Order(_, s) | Directive::ModiOrder(_, s) => *s,
            Directive::Bitwidth { span, .. } | Directive::AsmFormat { span, .. } => *span,
        }
    }
}

/// `EncodingError<Kind, "message"> = condition;`
#[derive(Clone, Debug, Serialize)]
pub struct ExceptionRule {
    /// The rule class (`EncodingError`, the only one accepted).
    pub class: Ident,
    /// The rule's kind, free text (`IllegalBitFieldCombination`).
    pub kind: Ident,
    /// The message, without its quotes (the span includes them).
    pub message: Spanned<String>,
    /// The condition under which the word is refused.
    pub condition: Expr,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// `.rnd = {.RN*, .RP, .RM, .RZ}`
#[derive(Clone, Debug, Serialize)]
pub struct ValueList {
    /// The list's name (`rnd`), without its dot.
    pub name: Ident,
    /// The list name was written without its leading dot.
    pub missing_dot: bool,
    /// The values, in order.
    pub items: Vec<ValueListItem>,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// One value of a [`ValueList`]: `.RN*`.
#[derive(Clone, Debug, Serialize)]
pub struct ValueListItem {
    /// The value's spelling (`RN`), without its dot or `*`.
    pub name: Ident,
    /// The value was written without its leading dot.
    pub missing_dot: bool,
    /// Marked `*`: the value an omitted modifier means.
    pub is_default: bool,
}

/// One `__Syntax` template line.
#[derive(Clone, Debug, Serialize)]
pub struct Template {
    /// The mnemonic (`HADD2`).
    pub mnemonic: Ident,
    /// The modifiers after the mnemonic, in order.
    pub modifiers: Vec<TemplateModifier>,
    /// The operands, in order.
    pub operands: Vec<TemplateOperand>,
    /// `$sched`, `$req`, ...
    pub controls: Vec<Ident>,
    /// The text of a trailing `//` comment, if any.
    pub comment: Option<String>,
    /// The template, without surrounding blanks and its trailing comment.
    pub span: Span,
}

/// `.cmp` (mandatory) or `{.FTZ}` (optional) after the mnemonic.
#[derive(Clone, Debug, Serialize)]
pub struct TemplateModifier {
    /// The modifier's name, without dot or braces (`cmp`, `FTZ`).
    pub name: Ident,
    /// Written in braces: the modifier may be left out.
    pub optional: bool,
}

/// Decoration before or after an operand: `-`, `|`, `!`, `~`, `.hsel2`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Decoration {
    /// `-x`: sets `x.neg`.
    Neg,
    /// `|x|`: sets `x.abs`.
    Abs,
    /// `!x`: sets `x.not`.
    Not,
    /// `~x`: sets `x.inv`.
    Invert,
    /// `x.name` (`.hsel2`): sets the sub-field `x.name`; holds the name without its dot.
    Suffix(String),
}

/// A [`Decoration`] as written in a template.
#[derive(Clone, Debug, Serialize)]
pub struct TemplateDecoration {
    /// Which decoration.
    pub kind: Decoration,
    /// Written in braces (`{-}`, `{.hsel2}`): it may be left out.
    pub optional: bool,
    /// The decoration as written, braces included.
    pub span: Span,
}

/// Shape of an operand in a template.
#[derive(Clone, Debug, Serialize)]
pub enum OperandShape {
    /// `Rd`, `SrcB`, `pu`, `UImm5Sca`, or a literal the ISA declares (`PR`,
    /// `Literal PR = Pred;`), which the resolver tells apart.
    Named,
    /// `R[URb{+SImm9}]`: a register indexed by another operand plus an optional offset.
    Indexed {
        /// The register prefix before `[` (`R`).
        base: Ident,
        /// The operand inside the brackets (`URb`).
        index: Ident,
        /// The operand after `+` (`SImm9`), if written.
        offset: Option<Ident>,
        /// The offset is written in braces (`{+SImm9}`): it may be left out.
        offset_optional: bool,
    },
}

/// One operand of a template, with its decorations.
#[derive(Clone, Debug, Serialize)]
pub struct TemplateOperand {
    /// The operand's name (`Ra`; the base `R` of an indexed operand).
    pub name: Ident,
    /// A plain name, or an indexed register.
    pub shape: OperandShape,
    /// Written inside `{, ...}`.
    pub optional: bool,
    /// Decorations before the name (`-`, `|`, `!`, `~`), in order.
    pub prefixes: Vec<TemplateDecoration>,
    /// Suffixes after the name (`.hsel2`), in order; the closing `|` of an absolute value is not kept.
    pub suffixes: Vec<TemplateDecoration>,
    /// The operand with its decorations.
    pub span: Span,
}

/// `vd = HADD2(va, vb);`, `vd, vu = iadd(va: I32, vb: I32, ext);`
#[derive(Clone, Debug, Serialize)]
pub struct SimulationCall {
    /// The operands written, left of `=` (`vd`, `vu`).
    pub results: Vec<Ident>,
    /// The kernel called (`iadd`).
    pub function: Ident,
    /// The arguments, in order.
    pub args: Vec<SimulationArg>,
    /// The whole line, without surrounding blanks.
    pub span: Span,
}

/// One argument of a hook: an operand or field name, and for operands the
/// value domain whose modifier methods apply its sub-fields (`va: F32`).
#[derive(Clone, Debug, Serialize)]
pub struct SimulationArg {
    /// The operand, slot (`va`) or field name.
    pub name: Ident,
    /// The value domain after `:` (`F32`), if written.
    pub domain: Option<Ident>,
}
