//! Abstract syntax tree of one spec file, as written: every name and value
//! keeps its span; nothing is resolved. Produced by `parser.rs`, consumed by
//! `resolve.rs` (and `check.rs`, for value-list dots). Prose and code are kept verbatim.

use crate::expr::Expr;
use crate::source::Span;
use serde::Serialize;

/// A name or literal with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

pub type Ident = Spanned<String>;

/// One parsed spec file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct File {
    pub decls: Vec<Decl>,
}

/// Kind of a top-level declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum DeclKind {
    BitFieldType,
    OperandType,
    Isa,
    Group,
    Optype,
    Opcode,
    /// `__DefSimulation Optype`: our extension, the simulation hook of an optype.
    Simulation,
    /// `__DefValueFormat Type`: our extension, what each value of a bit-field
    /// type denotes as data (`Float F16 = <5, 10>;`, `Bits S8 = 8;`).
    ValueFormat,
}

impl DeclKind {
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
    pub kind: DeclKind,
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
    /// Properties of an operand type, the ISA or a value format.
    pub properties: Vec<Property>,
    /// Hook lines of a `__DefSimulation`.
    pub hooks: Vec<SimulationCall>,
    pub sections: Vec<Section>,
}

/// `S8;` or `F64 = 0x2;`
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    pub name: Ident,
    pub encoding: Option<Spanned<u64>>,
    pub span: Span,
}

/// `Prefix = "R";`, `Constant RZ = 255;`
#[derive(Clone, Debug, Serialize)]
pub struct Property {
    pub key: Ident,
    pub name: Option<Ident>,
    pub value: Spanned<PropertyValue>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PropertyValue {
    Int(u64),
    Str(String),
    Name(String),
    Range { start: u64, width: u64 },
}

/// Kind of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum SectionKind {
    Encoding,
    Syntax,
    Description,
    OperandInfo,
    ModifierInfo,
    Semantics,
    Examples,
    Simulation,
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
    pub kind: SectionKind,
    /// The `__Kind` header.
    pub header: Span,
    /// The body text, verbatim (from the line after the header to the next
    /// section or declaration), with trailing blank lines trimmed.
    pub text: Spanned<String>,
    pub fields: Vec<Field>,
    pub directives: Vec<Directive>,
    pub exceptions: Vec<ExceptionRule>,
    pub templates: Vec<Template>,
    pub value_lists: Vec<ValueList>,
    /// Lines of fenced code (`__Examples`, `__Semantics`), each with its span.
    pub code_lines: Vec<Spanned<String>>,
    /// Names of `__Encoding` lines that did not parse (reported): the field
    /// is taken to exist, so what names it is not reported again.
    pub broken_fields: Vec<String>,
    /// Template lines that did not parse (reported): the optype is not
    /// also reported as having no `__Syntax`.
    pub broken_templates: usize,
    /// `vd = HADD2(va, vb);`
    pub simulation: Option<SimulationCall>,
}

/// `field<start, width> Type name = default;` / `== constant;`
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub start: Spanned<u64>,
    pub width: Spanned<u64>,
    pub ty: Ident,
    /// `ra` or `ra.neg`.
    pub name: Ident,
    pub init: Option<FieldInit>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct FieldInit {
    pub constant: bool,
    /// The value as written (`PT`, `False`, `0x3`, `-1`, `32`).
    pub value: Ident,
}

/// An operand named in a directive: `rd`, `ra.neg`, `PR`, or `R[urb, ridx]`.
#[derive(Clone, Debug, Serialize)]
pub struct OperandRef {
    pub name: Ident,
    /// The paths inside `[...]` for indexed references.
    pub index: Vec<Ident>,
}

/// An `__OperandInfo` directive.
#[derive(Clone, Debug, Serialize)]
pub enum Directive {
    InList(Vec<OperandRef>, Span),
    OutList(Vec<OperandRef>, Span),
    Order(Vec<OperandRef>, Span),
    Bitwidth { operand: Ident, expr: Expr, span: Span },
    AsmFormat { operand: Ident, function: Ident, args: Vec<Ident>, span: Span },
    ModiOrder(Vec<Ident>, Span),
}

/// `EncodingError<Kind, "message"> = condition;`
#[derive(Clone, Debug, Serialize)]
pub struct ExceptionRule {
    pub class: Ident,
    pub kind: Ident,
    pub message: Spanned<String>,
    pub condition: Expr,
    pub span: Span,
}

/// `.rnd = {.RN*, .RP, .RM, .RZ}`
#[derive(Clone, Debug, Serialize)]
pub struct ValueList {
    pub name: Ident,
    /// The list name was written without its leading dot.
    pub missing_dot: bool,
    pub items: Vec<ValueListItem>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct ValueListItem {
    pub name: Ident,
    pub missing_dot: bool,
    pub is_default: bool,
}

/// One `__Syntax` template line.
#[derive(Clone, Debug, Serialize)]
pub struct Template {
    pub mnemonic: Ident,
    pub modifiers: Vec<TemplateModifier>,
    pub operands: Vec<TemplateOperand>,
    /// `$sched`, `$req`, ...
    pub controls: Vec<Ident>,
    pub comment: Option<String>,
    pub span: Span,
}

/// `.cmp` (mandatory) or `{.FTZ}` (optional) after the mnemonic.
#[derive(Clone, Debug, Serialize)]
pub struct TemplateModifier {
    pub name: Ident,
    pub optional: bool,
}

/// Decoration before or after an operand: `-`, `|`, `!`, `~`, `.hsel2`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Decoration {
    Neg,
    Abs,
    Not,
    Invert,
    Suffix(String),
}

#[derive(Clone, Debug, Serialize)]
pub struct TemplateDecoration {
    pub kind: Decoration,
    pub optional: bool,
    pub span: Span,
}

/// Shape of an operand in a template.
#[derive(Clone, Debug, Serialize)]
pub enum OperandShape {
    /// `Rd`, `SrcB`, `pu`, `UImm5Sca`, or a literal the ISA declares (`PR`,
    /// `Literal PR = Pred;`), which the resolver tells apart.
    Named,
    /// `R[URb{+SImm9}]`: a register indexed by another operand plus an optional offset.
    Indexed { base: Ident, index: Ident, offset: Option<Ident>, offset_optional: bool },
}

#[derive(Clone, Debug, Serialize)]
pub struct TemplateOperand {
    pub name: Ident,
    pub shape: OperandShape,
    /// Written inside `{, ...}`.
    pub optional: bool,
    pub prefixes: Vec<TemplateDecoration>,
    pub suffixes: Vec<TemplateDecoration>,
    pub span: Span,
}

/// `vd = HADD2(va, vb);`, `vd, vu = iadd(va: I32, vb: I32, ext);`
#[derive(Clone, Debug, Serialize)]
pub struct SimulationCall {
    pub results: Vec<Ident>,
    pub function: Ident,
    pub args: Vec<SimulationArg>,
    pub span: Span,
}

/// One argument of a hook: an operand or field name, and for operands the
/// value domain whose modifier methods apply its sub-fields (`va: F32`).
#[derive(Clone, Debug, Serialize)]
pub struct SimulationArg {
    pub name: Ident,
    pub domain: Option<Ident>,
}
