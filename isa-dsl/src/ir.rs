//! The resolved, checked IR: what every later pass (encoders, decoders,
//! assembler, docs, simulator) reads. Inheritance is flattened (each opcode
//! carries its full field layout), every default and constant is typed and
//! encoded, every syntax template element is linked to the field(s) it sets.
//! Serialisable with serde; all collections are `Vec`s in declaration order, so
//! output is byte-identical across runs.

use crate::expr::Expr;
use crate::source::Span;
use serde::{Deserialize, Serialize};

/// The whole instruction set.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Isa {
    /// Name from `__DefIsa`.
    pub name: String,
    /// Instruction width in bits: the ISA's `Width = N;` (1 to 128; 128 when not written).
    pub width: u32,
    /// Field written as the `@P0` guard prefix, if the ISA has one.
    pub guard: Option<String>,
    /// The spec declares no `__DefIsa` though it has opcodes (E038): its
    /// guard and controls are unknown, so their uses are not reported.
    #[serde(skip)]
    pub no_isa: bool,
    /// Spec files, in the order they were read.
    pub files: Vec<String>,
    /// Field types, in declaration order (indexed by [`TypeId`]).
    pub types: Vec<Type>,
    /// Groups, in declaration order.
    pub groups: Vec<Group>,
    /// Optypes of the DSL files, in declaration order (indexed by [`OptypeId`]).
    pub optypes: Vec<Optype>,
    /// Opcodes, in declaration order (indexed by [`OpcodeId`]).
    pub opcodes: Vec<Opcode>,
    /// Instructions described in an older notation (SPA 5.3): syntax, prose
    /// and examples only, no encodings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legacy: Vec<Optype>,
    /// Scheduling/control fields: declared with `Control = field;` in `__DefIsa`
    /// or written as `$name` in a template. Every instruction accepts them.
    pub control_fields: Vec<String>,
    /// Value domain whose modifier methods apply the guard's sub-fields
    /// (`GuardDomain = Pred;`): `pg.not` becomes `pred_not(p, pg.not)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_domain: Option<String>,
    /// Literal operands that stand for a whole register file as a bit mask
    /// (`Literal PR = Pred;`: bit i of `PR` is `Pi`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_literals: Vec<FileLiteral>,
}

/// `Literal PR = Pred;` in `__DefIsa`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileLiteral {
    /// The literal as templates write it (`PR`).
    pub name: String,
    /// The register type (a predicate or register file).
    #[serde(rename = "type")]
    pub ty_name: String,
}

/// Where something was written: file index, 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loc {
    /// Index of the file in [`Isa::files`] (its [`FileId`](crate::FileId)).
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// The span it was computed from (not serialised: `None` when read back).
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A name shared by many IR nodes (an opcode's inherited fields share their
/// group's): cloning it is a reference-count increment, not an allocation.
pub type Name = std::sync::Arc<str>;

/// Index into [`Isa::types`].
pub type TypeId = usize;
/// Index into [`Isa::optypes`].
pub type OptypeId = usize;
/// Index into [`Isa::opcodes`].
pub type OpcodeId = usize;

/// A field type: a bit-field enum or an operand kind.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Type {
    /// The declared name.
    pub name: String,
    /// Width in bits (1 to 64); fields of the type have this width.
    pub width: u32,
    /// What its bits mean.
    pub kind: TypeKind,
    /// Where the type's name is declared.
    pub loc: Loc,
}

/// What a type's bits mean.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeKind {
    /// `__DefBitFieldType`: named values.
    Enum {
        /// The values, in declaration order.
        values: Vec<EnumValue>,
    },
    /// A register file (`predicate`: a predicate file, whose constants read
    /// true; `warp`: one copy per warp (`Scope = Warp;`) instead of per lane).
    Register {
        /// What register names start with (`R` in `R3`).
        prefix: String,
        /// Declared `: Predicate`: a predicate file.
        predicate: bool,
        /// Named registers (`Constant RZ = 255;`), which read 0 (true for predicates) and ignore writes.
        constants: Vec<NamedIndex>,
        /// Declared `Scope = Warp;`: one copy per warp.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        warp: bool,
    },
    /// An integer immediate.
    Int {
        /// Declared `: SignedInt` (two's complement) rather than `: UnsignedInt`.
        signed: bool,
    },
    /// `lanes` IEEE-style floats of `1 + exponent + mantissa` bits each, lane 0 lowest.
    Float {
        /// Exponent width of each lane in bits (`Exponent = 8;`).
        exponent: u32,
        /// Mantissa width of each lane in bits (`Mantissa = 23;`).
        mantissa: u32,
        /// Number of lanes (`Lanes = 1;`).
        lanes: u32,
    },
    /// `c[bank][offset]`: bit ranges within the field.
    ConstMem {
        /// `Bank = <start, width>;`: where the bank number is.
        bank: BitRange,
        /// `Offset = <start, width>;`: where the byte offset is.
        offset: BitRange,
    },
}

/// A value of an enum type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnumValue {
    /// The value's name (`F32`, `RZ`).
    pub name: String,
    /// The value's encoding in the field.
    pub encoding: u64,
    /// What the value denotes as data, from a `__DefValueFormat` of its type
    /// (read by the `AsmFormat` hooks, see [`ASM_FORMAT_HOOKS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
}

/// `__DefValueFormat`: the data a bit-field value names (`S8`: 8-bit
/// integers; `BF16_V2`: 16-bit floats with 8 exponent and 7 mantissa bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueFormat {
    /// Width of one element in bits (`Bits V = n;`, or 1 + exponent + mantissa of a float).
    pub bits: u32,
    /// `Float V = <exponent, mantissa>;`: an IEEE-style float layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float: Option<FloatLayout>,
}

/// Exponent and mantissa widths of an IEEE-style binary float (1 sign bit besides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloatLayout {
    /// Exponent width in bits.
    pub exponent: u32,
    /// Mantissa width in bits (without the implicit leading bit).
    pub mantissa: u32,
}

/// A named register index (`RZ = 255`, `PT = 7`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedIndex {
    /// The register's name (`RZ`).
    pub name: String,
    /// The register's number.
    pub index: u64,
}

/// `<start, width>` within a field or instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BitRange {
    /// Offset of the lowest bit.
    pub start: u32,
    /// Number of bits.
    pub width: u32,
}

impl Type {
    /// The value named `name`, for enums.
    pub fn enum_value(&self, name: &str) -> Option<&EnumValue> {
        match &self.kind {
            TypeKind::Enum { values } => values.iter().find(|v| v.name == name),
            _ => None,
        }
    }
    /// Name of the enum value encoded as `enc`.
    pub fn enum_name(&self, enc: u64) -> Option<&str> {
        match &self.kind {
            TypeKind::Enum { values } => values.iter().find(|v| v.encoding == enc).map(|v| v.name.as_str()),
            _ => None,
        }
    }
    /// Whether the type is a `__DefBitFieldType`.
    pub fn is_enum(&self) -> bool {
        matches!(self.kind, TypeKind::Enum { .. })
    }
    /// The declared data format of the enum value encoded as `enc`.
    pub fn value_format(&self, enc: u64) -> Option<ValueFormat> {
        match &self.kind {
            TypeKind::Enum { values } => values.iter().find(|v| v.encoding == enc)?.format,
            _ => None,
        }
    }
    /// An encoded value as the spec writes it: the enum value's name, a
    /// register (`R3`, `RZ`), or hex for immediates, with a sign when the
    /// type is signed and the top bit set (`-0x1`). `encode_literal` reads
    /// it back.
    pub fn value_text(&self, v: u64) -> String {
        match &self.kind {
            TypeKind::Enum { .. } => self.enum_name(v).unwrap_or("?").to_string(),
            TypeKind::Register { prefix, constants, .. } => {
                constants.iter().find(|c| c.index == v).map(|c| c.name.clone()).unwrap_or(format!("{prefix}{v}"))
            }
            TypeKind::Int { signed: true } if (1..=64).contains(&self.width) && v >> (self.width - 1) & 1 == 1 => {
                // Two's complement of the width: the magnitude is 2^width - v.
                let magnitude = (1u128 << self.width) - u128::from(v);
                format!("-{magnitude:#x}")
            }
            _ => format!("{v:#x}"),
        }
    }
}

/// A `__DefGroup`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Group {
    /// The group's name.
    pub name: String,
    /// Its parent group; `None` for a root (or a parent that did not resolve, reported).
    pub parent: Option<String>,
    /// Where the group's name is declared.
    pub loc: Loc,
}

/// A `__DefOptype`: one instruction (mnemonic) with its syntax, docs and opcodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Optype {
    /// The optype's name (`FFMA`).
    pub name: String,
    /// Group chain from the root down to the direct parent.
    pub groups: Vec<String>,
    /// Where the optype's name is declared.
    pub loc: Loc,
    /// Its syntax templates in order (for a legacy optype, its forms).
    pub syntax: Vec<SyntaxForm>,
    /// Template lines that did not parse (reported as E009).
    #[serde(skip)]
    pub broken_templates: usize,
    /// Its `__DefSimulation` hook line did not parse (reported as E013):
    /// the missing hook is no second mistake.
    #[serde(skip)]
    pub broken_hook: bool,
    /// Its `__Syntax` value lists, in order.
    pub value_lists: Vec<ValueList>,
    /// Its prose sections.
    pub docs: Docs,
    /// The non-blank lines of its `__Examples` code fences.
    pub examples: Vec<Example>,
    /// The `__Simulation` hook the optype itself writes (`vd = HADD2(va, vb);`).
    pub simulation: Option<SimulationHook>,
    /// The hook a `__DefSimulation` declaration gives it; it takes precedence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<SimulationHook>,
    /// Its opcodes' ids, in declaration order.
    pub opcodes: Vec<OpcodeId>,
    /// The notation it was written in when not the DSL (`SPA 5.3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
}

/// Verbatim prose sections (Markdown), with where they start.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Docs {
    /// `__Description`.
    pub description: Option<Prose>,
    /// `__OperandInfo`, directives included.
    pub operand_info: Option<Prose>,
    /// `__ModifierInfo`.
    pub modifier_info: Option<Prose>,
    /// `__Semantics`.
    pub semantics: Option<Prose>,
    /// `__Exception`, rules included.
    pub exception: Option<Prose>,
}

/// A block of Markdown.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Prose {
    /// The text, verbatim (several sections of one kind are joined by a line break).
    pub text: String,
    /// Where the (first) text starts.
    pub loc: Loc,
}

/// One line of an `__Examples` code block.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Example {
    /// The line as written.
    pub text: String,
    /// Where the line is.
    pub loc: Loc,
}

impl Optype {
    /// The hook the simulator calls: `__DefSimulation`'s, else the optype's own.
    pub fn effective_hook(&self) -> Option<&SimulationHook> {
        self.hook.as_ref().or(self.simulation.as_ref())
    }
}

/// `vd, vu = kernel(va: Domain, vb, field);`
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SimulationHook {
    /// The operands the hook writes, left of `=` (`vd`, `vu`).
    pub results: Vec<String>,
    /// Where each of `results` is written.
    #[serde(skip)]
    pub result_spans: Vec<Span>,
    /// The kernel called (`fmaf`).
    pub function: String,
    /// The arguments, in order.
    pub args: Vec<HookArg>,
    /// Where the kernel's name is written.
    pub loc: Loc,
}

impl SimulationHook {
    /// The hook as written: `vd = fmaf(va: F32, vb: F32, vc: F32, rnd);`.
    pub fn text(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match &a.domain {
                Some(d) => format!("{}: {d}", a.name),
                None => a.name.clone(),
            })
            .collect();
        format!("{} = {}({});", self.results.join(", "), self.function, args.join(", "))
    }
}

/// An argument of a hook: an operand (by name or slot `vX`) or a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookArg {
    /// The operand, slot (`va`) or field name, possibly with a sub-field (`vb.neg`).
    pub name: String,
    /// Where the argument is written.
    #[serde(skip)]
    pub span: Option<Span>,
    /// The value domain after `:` (`F32`), whose methods apply the operand's sub-fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
}

/// A `.name = {.A*, .B}` list from `__Syntax`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ValueList {
    /// The list's name (`rnd`), without its dot.
    pub name: String,
    /// Its values, in order.
    pub items: Vec<ValueListItem>,
    /// Names that mark reserved encodings, which no line can write (SPA
    /// 5.3's undotted `INVALID`), in order; not values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<String>,
    /// Where the list is written.
    pub loc: Loc,
}

/// One value of a [`ValueList`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ValueListItem {
    /// The spelling users write (without the dot).
    pub spelling: String,
    /// Marked `*`: the value an omitted modifier means.
    pub is_default: bool,
    /// Where the item is written (diagnostics about one value point at it).
    #[serde(skip)]
    pub span: Option<Span>,
}

/// One `__Syntax` template line, as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxForm {
    /// The template as written, without its trailing comment.
    pub text: String,
    /// The mnemonic alone (`IMAD`), without modifiers.
    pub mnemonic: String,
    /// Modifiers after the mnemonic, in order.
    pub modifiers: Vec<SyntaxModifier>,
    /// Operands, in order (the guard is not one).
    pub operands: Vec<SyntaxOperand>,
    /// Control fields written `$name`, without the `$`.
    pub controls: Vec<String>,
    /// Where each of `controls` is written.
    #[serde(skip)]
    pub control_locs: Vec<Loc>,
    /// The text of a trailing `//` comment, if any.
    pub comment: Option<String>,
    /// Where the template is written.
    pub loc: Loc,
}

/// A modifier after the mnemonic: `.cmp` (mandatory) or `{.FTZ}` (optional).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxModifier {
    /// The modifier's name, without dot or braces.
    pub name: String,
    /// Written in braces: it may be left out.
    pub optional: bool,
    /// Where the name is written.
    pub loc: Loc,
}

/// Operand decorations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecorationKind {
    /// `-x`: sets `x.neg`.
    Neg,
    /// `|x|`: sets `x.abs`.
    Abs,
    /// `!x`: sets `x.not`.
    Not,
    /// `~x`: sets `x.inv`.
    Invert,
    /// `x.sel`: sets `x.sel` to a value.
    Suffix,
}

impl DecorationKind {
    /// Sub-field name a decoration sets (`neg`, `abs`, `not`, `inv`).
    pub fn sub_field(self) -> Option<&'static str> {
        match self {
            DecorationKind::Neg => Some("neg"),
            DecorationKind::Abs => Some("abs"),
            DecorationKind::Not => Some("not"),
            DecorationKind::Invert => Some("inv"),
            DecorationKind::Suffix => None,
        }
    }
}

/// A decoration of a [`SyntaxOperand`]: a prefix (`-`, `|`, `!`, `~`) or a suffix (`.hsel2`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Decoration {
    /// Which decoration.
    pub kind: DecorationKind,
    /// For suffixes, the name after the dot (`hsel2`).
    pub name: String,
    /// Written in braces (`{-}`, `{.hsel2}`): it may be left out.
    pub optional: bool,
    /// Where the decoration is written.
    pub loc: Loc,
}

/// Shape of a [`SyntaxOperand`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum OperandShape {
    /// A plain name (`Rd`, `SrcB`, `pu`).
    Named,
    /// Fixed text such as `PR`.
    Literal,
    /// `R[URb{+SImm9}]`.
    Indexed {
        /// The register prefix before `[` (`R`).
        base: String,
        /// The operand inside the brackets (`URb`).
        index: String,
        /// The operand after `+` (`SImm9`), if written.
        offset: Option<String>,
        /// The offset is written in braces (`{+SImm9}`): it may be left out.
        offset_optional: bool,
    },
}

/// One operand of a [`SyntaxForm`], with its decorations.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxOperand {
    /// The operand's name (`Ra`; the register prefix of an indexed operand).
    pub name: String,
    /// A name, fixed text or an indexed register.
    #[serde(flatten)]
    pub shape: OperandShape,
    /// Written inside `{, ...}`: it may be left out.
    pub optional: bool,
    /// Decorations before the name, in order.
    pub prefixes: Vec<Decoration>,
    /// Suffixes after the name, in order.
    pub suffixes: Vec<Decoration>,
    /// Where the operand is written, decorations included.
    pub loc: Loc,
}

/// A `__DefOpcode`: one encoding (operand form) of an optype.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Opcode {
    /// The opcode's name.
    pub name: String,
    /// Its optype's id.
    pub optype: OptypeId,
    /// Where the opcode's name is declared.
    pub loc: Loc,
    /// Full layout after inheritance, sorted by start bit.
    pub fields: Vec<Field>,
    /// Bits fixed by `==` constants, and their values (hex strings in output).
    #[serde(with = "hex_u128")]
    pub fixed_mask: u128,
    /// The values of the bits in [`Opcode::fixed_mask`] (zero elsewhere).
    #[serde(with = "hex_u128")]
    pub fixed_bits: u128,
    /// The `__OperandInfo` directives of the whole chain (a later one replaces an earlier one of its kind).
    pub operands: OperandInfo,
    /// Exception rules from the whole chain (group, optype, opcode).
    pub exceptions: Vec<Exception>,
    /// How each syntax form of the optype maps onto this opcode's fields.
    pub forms: Vec<FormBinding>,
    /// How the simulator executes it (from the optype's hook), if it can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<Exec>,
    /// Fields of the chain that were written but did not resolve (an
    /// undefined type, an overlap, a line that did not parse: already
    /// reported). Checks that would report them again as unknown stay
    /// silent about these names, and whole-opcode checks skip an opcode
    /// that is not [`Opcode::is_whole`].
    #[serde(skip)]
    pub broken: Vec<String>,
    /// Its chain of parents stops short of a root: a parent is undefined,
    /// of the wrong kind or in a cycle (reported). What it would have
    /// inherited is unknown, so it is not whole and every name counts as
    /// [`Opcode::is_broken`]: no follow-on diagnostics.
    #[serde(skip)]
    pub cut_off: bool,
}

/// An opcode's simulation: read the arguments, call `function`, write the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exec {
    /// Kernel name.
    pub function: String,
    /// Called once per warp with per-lane arguments as arrays and the mask of
    /// executing lanes (a per-warp result computed from per-lane operands);
    /// otherwise called once per executing lane.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warp: bool,
    /// The operands the kernel's results are written to, in the hook's order.
    pub results: Vec<ExecOperand>,
    /// The kernel's arguments, in the hook's order.
    pub args: Vec<ExecArg>,
}

impl Exec {
    /// Every operand the plan reads (arguments) or writes (results).
    pub fn operands(&self) -> impl Iterator<Item = &ExecOperand> {
        self.args
            .iter()
            .filter_map(|a| match a {
                ExecArg::Operand(o) => Some(o),
                ExecArg::Field { .. } => None,
            })
            .chain(&self.results)
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "arg", rename_all = "snake_case")]
pub enum ExecArg {
    /// An operand's value, modifiers applied.
    Operand(ExecOperand),
    /// A field's value, as its generated type (`ty`). `fixed` is the value
    /// passed when the opcode fixes the field (`== F32`), or lacks a field that
    /// other forms of the optype have (`vb.neg` of an immediate form: their default).
    Field {
        /// The field's name (`ftz`; `rb.neg` for a hook's `vb.neg`).
        field: String,
        /// The name of its type.
        ty: String,
        /// The value passed whatever the word holds, if any (see above).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fixed: Option<u64>,
    },
}

/// An operand as the simulator reads or writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecOperand {
    /// As the directives name it (`rb`, `PR`, `R[urb, ridx]`).
    pub name: String,
    /// Where the value is read or written.
    pub source: OperandSource,
    /// Bits per value: 32 or 64 (a register pair, two constant words).
    pub width: ExecWidth,
    /// Sub-fields applied in order, each by `<domain>_<sub>` (`f32_neg`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<ExecModifier>,
    /// A 32-bit value the kernel takes as `u64`, because another opcode
    /// passes a 64-bit value in the same place (zero- or sign-extended as read).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub widened: bool,
}

/// Where an operand's value lives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum OperandSource {
    /// Register `field` of the file of type `ty`.
    Register {
        /// The field holding the register number.
        field: String,
        /// The register file's type name.
        ty: String,
    },
    /// A register of file `ty` chosen at run time: `base` (a register field) plus `offset` (a signed field).
    Indexed {
        /// The indexed register file's type name.
        ty: String,
        /// The field naming the register whose value is the index.
        base: String,
        /// The type name of `base`'s register file.
        base_ty: String,
        /// The field holding the offset, if the operand has one.
        offset: Option<String>,
    },
    /// An immediate field (sign-extended when its type is signed).
    Immediate {
        /// The immediate's field.
        field: String,
        /// Its type is signed.
        signed: bool,
    },
    /// A constant-memory reference.
    ConstMem {
        /// The field holding the bank and offset.
        field: String,
    },
    /// A whole register file as a bit mask (`PR`).
    File {
        /// The register file's type name.
        ty: String,
    },
}

/// Width of an operand's value. Serialised as `{kind, bits}` (`{kind:
/// fixed, bits: 32}`): YAML's `!fixed 32` would not read back inside the
/// tagged [`ExecArg`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "bits", rename_all = "snake_case")]
pub enum ExecWidth {
    /// A predicate: one bit.
    Bool,
    /// Always this many bits (32 or 64).
    Fixed(u32),
    /// `Bitwidth<x> = expr` depending on fields: 32 or 64 at run time.
    Dynamic(Expr),
}

/// One sub-field applied to an operand value by the kernel method `method`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecModifier {
    /// The sub-field (`rb.neg`).
    pub field: String,
    /// The kernel method that applies it (`f32_neg`).
    pub method: String,
}

impl Opcode {
    /// Whether every field written for the opcode resolved (none is
    /// [`Opcode::broken`]): its operands, decode key and hook can be checked.
    pub fn is_whole(&self) -> bool {
        self.broken.is_empty() && !self.cut_off
    }

    /// Whether a syntax form of the opcode has a mandatory operand bound to
    /// no field (reported as E028): no line can use that form.
    pub fn has_unusable_form(&self, isa: &Isa) -> bool {
        self.forms.iter().any(|b| {
            let form = &isa.optypes[self.optype].syntax[b.form];
            b.operands.iter().zip(&form.operands).any(|(o, s)| matches!(s.shape, OperandShape::Named) && !s.optional && o.field.is_none())
        })
    }

    /// Whether `name`, an entry of `Order`, is a field that no operand of
    /// the opcode's bound forms takes (W007): a modifier listed with the
    /// operands, not an operand. `false` while the forms are not bound,
    /// or when one is unusable (E028 says what its `Order` left).
    pub fn order_entry_untaken(&self, isa: &Isa, name: &str) -> bool {
        if self.forms.is_empty() || self.field(name).is_none() || self.has_unusable_form(isa) {
            return false;
        }
        !self.forms.iter().flat_map(|b| &b.operands).any(|o| o.field.as_deref() == Some(name) || o.index_fields.iter().any(|i| i == name))
    }

    /// Whether `name` is a field that was written but did not resolve (see [`Opcode::broken`]).
    pub fn is_broken(&self, name: &str) -> bool {
        self.cut_off || self.broken.iter().any(|b| b == name)
    }
    /// The field named `name` (`rd`, `ra.neg`).
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| &*f.name == name)
    }
    /// Bits covered by some field.
    pub fn covered_mask(&self) -> u128 {
        self.fields.iter().fold(0u128, |m, f| m | f.mask())
    }
}

/// A field of an opcode's layout.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Field {
    /// `rd`, `ra.neg`.
    pub name: Name,
    /// Bit offset of the field's least significant bit in the instruction word (bit 0 = LSB).
    pub start: u32,
    /// Width in bits (the type's width).
    pub width: u32,
    /// The type's name as written (serialised as `type`); its index is [`Field::ty`].
    #[serde(rename = "type")]
    pub ty_name: Name,
    /// Index of the type in [`Isa::types`] (serialised as `type_id`, so
    /// that a dump reads back without resolving names).
    #[serde(rename = "type_id")]
    pub ty: TypeId,
    /// Its default or constant, encoded.
    pub value: FieldValue,
    /// The group, optype or opcode that declared it.
    pub declared_in: Name,
    /// Where the `field` line is written.
    pub loc: Loc,
}

impl Field {
    /// Mask of the field's bits in the instruction word.
    pub fn mask(&self) -> u128 {
        if self.width == 0 {
            0
        } else if self.width >= 128 {
            u128::MAX
        } else {
            ((1u128 << self.width) - 1) << self.start
        }
    }
    /// The operand this field belongs to (`ra` for `ra.neg`).
    pub fn base(&self) -> &str {
        self.name.split('.').next().unwrap_or(&self.name)
    }
    /// The encoded default or constant, if the field has one.
    pub fn default_value(&self) -> Option<u64> {
        match self.value {
            FieldValue::Default(v) | FieldValue::Constant(v) => Some(v),
            FieldValue::Free => None,
        }
    }
    /// Whether the field is an `==` constant of this opcode.
    pub fn is_constant(&self) -> bool {
        matches!(self.value, FieldValue::Constant(_))
    }
}

/// A field's initialiser, as its encoded bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldValue {
    /// No default: the user must give it.
    Free,
    /// `= X`.
    Default(u64),
    /// `== X`: fixed for this opcode (selects it when decoding).
    Constant(u64),
}

/// `__OperandInfo` directives.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct OperandInfo {
    /// `InList`: the operands the instruction reads.
    pub inputs: Vec<OperandRef>,
    /// `OutList`: the operands the instruction writes.
    pub outputs: Vec<OperandRef>,
    /// `Order`: the operands in the order the templates' operands bind to them.
    pub order: Vec<OperandRef>,
    /// `Bitwidth`: at most one per operand.
    pub bitwidths: Vec<Bitwidth>,
    /// `AsmFormat`: at most one per field.
    pub asm_formats: Vec<AsmFormat>,
    /// `ModiOrder`: the modifier fields in the order the mnemonic writes them.
    pub modi_order: Vec<OperandRef>,
    /// Where `Order<...>` is written, if it is (an empty `Order<>` too).
    #[serde(skip)]
    pub order_span: Option<Span>,
    /// Where `InList<...>` is written, if it is.
    #[serde(skip)]
    pub inputs_span: Option<Span>,
    /// Where `OutList<...>` is written, if it is.
    #[serde(skip)]
    pub outputs_span: Option<Span>,
}

/// An operand named in a directive; `index` is non-empty for `R[urb, ridx]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperandRef {
    /// The operand's name; for an indexed reference, the register prefix before `[` (`R`).
    pub name: String,
    /// The names inside `[...]` (`urb`, `ridx`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub index: Vec<String>,
    /// Where the name is written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// `Bitwidth<x> = expr`: the width in bits of an operand's value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bitwidth {
    /// `x`: the operand.
    pub operand: String,
    /// The width, which may depend on fields.
    pub expr: Expr,
    /// The value when it does not depend on fields.
    pub constant: Option<i64>,
    /// Where the operand is written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// `AsmFormat<x> = Hook(args)`: a named conversion between the field and its text.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AsmFormat {
    /// `x`: the field spelled.
    pub operand: String,
    /// The hook's name (`CvtFImm`).
    pub function: String,
    /// The hook's arguments, in order (`x, by`).
    pub args: Vec<String>,
    /// Spans of the operand and of each argument.
    #[serde(skip)]
    pub spans: Vec<Span>,
    /// Span of the hook's name.
    #[serde(skip)]
    pub function_span: Option<Span>,
}

/// An `AsmFormat` conversion the language defines; the assembler implements
/// each under this name. Every hook is written `Hook(x, by)`: `x` is the
/// field it spells, `by` the field whose value decides how.
#[derive(Clone, Copy, Debug)]
pub struct AsmHook {
    /// The name `AsmFormat` writes (`CvtFImm`).
    pub name: &'static str,
    /// What the values of `by`'s type must declare (`__DefValueFormat`).
    pub needs: HookNeeds,
    /// One line on what the hook does.
    pub summary: &'static str,
}

/// What an [`AsmHook`] reads from the values of its deciding field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookNeeds {
    /// A value of this name, which the hook tests for (`CvtINegX`: `X`,
    /// part of the hook's definition, as its name says).
    Value(&'static str),
    /// The value's float layout, where it has one (`Float V = <e, m>;`).
    Float,
    /// The value's element width (`Bits V = n;`, or a float's).
    Bits,
}

/// The `AsmFormat` hooks of the language.
pub const ASM_FORMAT_HOOKS: &[AsmHook] = &[
    AsmHook {
        name: "CvtINegX",
        needs: HookNeeds::Value("X"),
        summary: "the `.neg` prefix is written `~` (bitwise not) when `by` is `X`, `-` otherwise",
    },
    AsmHook {
        name: "CvtFImm",
        needs: HookNeeds::Float,
        summary: "the immediate's lanes are floats of the layout `by`'s value declares (the operand type's own when it declares none)",
    },
    AsmHook {
        name: "CvtVSel",
        needs: HookNeeds::Bits,
        summary: "a sub-word selector: `.B0`..`.B3` when `by`'s value is 8 bits wide, `.H0`/`.H1` when 16, nothing otherwise; encoded as 0..3",
    },
    AsmHook {
        name: "CvtVPSel",
        needs: HookNeeds::Bits,
        summary: "the same as `CvtVSel`, for packed float sources",
    },
];

/// The hook named `name`.
pub fn asm_hook(name: &str) -> Option<&'static AsmHook> {
    ASM_FORMAT_HOOKS.iter().find(|h| h.name == name)
}

/// An `__Exception` rule: the instruction is invalid when `condition` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Exception {
    /// The rule class (`EncodingError`).
    pub class: String,
    /// The rule's kind, free text (`IllegalBitFieldCombination`).
    pub kind: String,
    /// The message a refused word is reported with.
    pub message: String,
    /// The condition under which the word is invalid.
    pub condition: Expr,
    /// Where the rule is written.
    pub loc: Loc,
    /// Where the message is written, quotes included.
    #[serde(skip)]
    pub message_span: Option<Span>,
}

/// How one syntax form of the optype sets this opcode's fields.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FormBinding {
    /// Index into the optype's `syntax`.
    pub form: usize,
    /// Full mnemonic including fixed parts (`IMAD.WIDE`, `IDP.2A`).
    pub mnemonic: String,
    /// One entry per modifier of the form.
    pub modifiers: Vec<ModifierBinding>,
    /// One entry per operand of the form.
    pub operands: Vec<OperandBinding>,
    /// Fields this form fixes (`.HI` in `IMAD.HI.X` fixes `lohi = HI`).
    pub fixed: Vec<FieldSetting>,
    /// Control fields (`$sched`).
    pub controls: Vec<String>,
}

/// A field set to a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldSetting {
    /// The field's name.
    pub field: String,
    /// The encoded value.
    pub value: u64,
}

/// What a template modifier sets.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "binding", rename_all = "snake_case")]
pub enum ModifierBinding {
    /// Part of the mnemonic (`.WIDE`).
    Mnemonic {
        /// The modifier's name (`WIDE`), without its dot.
        text: String,
    },
    /// `.HI` (mandatory) or `{.FTZ}` (optional flag: fixed = field default).
    Value {
        /// The enum field it sets.
        field: String,
        /// The modifier's name (`HI`), a value of the field's type.
        spelling: String,
        /// The value's encoding.
        value: u64,
        /// Written in braces: it may be left out.
        optional: bool,
    },
    /// `.rnd` / `{.rnd}`: one of several spellings.
    Choice {
        /// The enum field it sets.
        field: String,
        /// Written in braces: it may be left out.
        optional: bool,
        /// The spellings accepted, in order.
        values: Vec<ChoiceValue>,
    },
    /// Nothing encodes it (reported as W002).
    Unbound {
        /// The modifier's name, without its dot.
        text: String,
    },
}

/// One spelling a `Choice` modifier accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceValue {
    /// The spelling written after the dot (`RN`).
    pub spelling: String,
    /// The encoded value.
    pub value: u64,
    /// The value an omitted modifier encodes.
    pub is_default: bool,
}

/// What a template operand sets.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct OperandBinding {
    /// The operand's main field (`rb`, `urb`, `vb`), if any.
    pub field: Option<String>,
    /// For `R[URb+SImm9]`: the index and offset fields.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub index_fields: Vec<String>,
    /// One entry per prefix then suffix of the operand: the field it sets, if any.
    pub decorations: Vec<Option<String>>,
}

/// Serialises a `u128` as a `0x...` string: YAML and JSON readers disagree on
/// 128-bit integers, strings are portable.
mod hex_u128 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:#034x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let s = String::deserialize(d)?;
        u128::from_str_radix(s.trim_start_matches("0x"), 16).map_err(serde::de::Error::custom)
    }
}
