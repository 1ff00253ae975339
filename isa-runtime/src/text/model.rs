//! The text model: everything the assembler and disassembler need to know
//! about an ISA's syntax, lowered to plain static data (bit ranges, spellings,
//! encodings). `isa-codegen` computes it from the spec's `__Syntax` templates
//! and their bindings and emits it into the generated crate as a `static`;
//! [`super::asm`] interprets it (printing is generated code per opcode, so
//! what only printing needs is not here). Nothing here names an instruction
//! of any particular ISA.

use super::literal::FloatFormat;

/// A bit range of the instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    /// Offset of the range's lowest bit (bit 0 = LSB).
    pub start: u8,
    /// Number of bits.
    pub width: u8,
}

impl Bits {
    /// The largest value the range holds.
    #[inline]
    pub const fn max(self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }

    /// Reads the range from a word.
    #[inline]
    pub const fn get(self, word: u128) -> u64 {
        (word >> self.start) as u64 & self.max()
    }

    /// The range's bits in a word.
    #[inline]
    pub const fn mask(self) -> u128 {
        (self.max() as u128) << self.start
    }

    /// Writes `v` (masked to the range) into a word.
    #[inline]
    pub const fn set(self, word: u128, v: u64) -> u128 {
        // Flip the bits where the range differs from `v`: one 128-bit shift
        // each way instead of a mask and a value shifted into place.
        let flip = ((word >> self.start) as u64 ^ v) & self.max();
        word ^ ((flip as u128) << self.start)
    }
}

/// An expression over the word (a lowered `Bitwidth<>` or hook condition).
#[derive(Clone, Copy, Debug)]
pub enum Expr {
    /// A number.
    Const(i64),
    /// The value of a field's bits.
    Field(Bits),
    /// 1 when the operand is 0, else 0.
    Not(&'static Expr),
    /// 1 when either operand is non-zero, else 0.
    Or(&'static Expr, &'static Expr),
    /// 1 when both operands are non-zero, else 0.
    And(&'static Expr, &'static Expr),
    /// 1 when the operands are equal, else 0.
    Eq(&'static Expr, &'static Expr),
    /// 1 when the operands differ, else 0.
    Ne(&'static Expr, &'static Expr),
    /// Wrapping sum.
    Add(&'static Expr, &'static Expr),
    /// Wrapping difference.
    Sub(&'static Expr, &'static Expr),
    /// Wrapping product.
    Mul(&'static Expr, &'static Expr),
}

impl Expr {
    /// Evaluates on a word (booleans are 0/1, arithmetic wraps).
    pub fn eval(&self, w: u128) -> i64 {
        match *self {
            Expr::Const(c) => c,
            Expr::Field(b) => b.get(w) as i64,
            Expr::Not(a) => (a.eval(w) == 0) as i64,
            Expr::Or(a, b) => (a.eval(w) != 0 || b.eval(w) != 0) as i64,
            Expr::And(a, b) => (a.eval(w) != 0 && b.eval(w) != 0) as i64,
            Expr::Eq(a, b) => (a.eval(w) == b.eval(w)) as i64,
            Expr::Ne(a, b) => (a.eval(w) != b.eval(w)) as i64,
            Expr::Add(a, b) => a.eval(w).wrapping_add(b.eval(w)),
            Expr::Sub(a, b) => a.eval(w).wrapping_sub(b.eval(w)),
            Expr::Mul(a, b) => a.eval(w).wrapping_mul(b.eval(w)),
        }
    }
}

/// The syntax of a whole ISA.
#[derive(Debug)]
pub struct Model {
    /// Base mnemonics, sorted by name, with the (opcode, form) pairs that spell them.
    pub mnemonics: &'static [Mnemonic],
    /// Per opcode (in the generated crate's opcode order).
    pub opcodes: &'static [Opcode],
    /// Register classes; operands refer to them by index.
    pub registers: &'static [RegClass],
    /// Register prefixes, longest first, with their class (`UR` before `R`).
    pub prefixes: &'static [(&'static str, u16)],
    /// Names of the control fields (`&name=value`).
    pub controls: &'static [&'static str],
    /// The guard predicate's field name, if the ISA has one.
    pub guard: Option<&'static str>,
    /// Optypes the spec gives no `__Syntax` (so no text form), for messages.
    pub without_syntax: &'static [&'static str],
    /// Optypes whose mnemonic is spelled otherwise than their name, once
    /// per spelling (`IDP4A`, written `IDP.4A`): what a line using the
    /// name is told.
    pub spelled: &'static [(&'static str, &'static str)],
    /// Decodes a word to its opcode index, validating it (`.word` lines).
    pub decode: fn(u128) -> Result<usize, String>,
    /// Checks an assembled word of an opcode against the spec's rules.
    pub check: fn(usize, u128) -> Result<(), Refusal>,
    /// The assembler's fast-path tables, built from the rest on first use
    /// (a model is written with `OnceLock::new()` here).
    pub fast: std::sync::OnceLock<super::asm_fast::Tables>,
}

/// Why [`Model::check`] refuses a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The message to report.
    pub message: String,
    /// The bits of the fields the broken rule reads (0 when the refusal
    /// is not a rule's): the assembler points at the text that set them.
    pub bits: u128,
}

/// A text's first 16 bytes, big-endian and zero-padded: keys order as their
/// texts do, and texts of at most 16 bytes without NUL have distinct keys.
/// Comparing keys first spares most string comparisons.
pub const fn key(s: &str) -> u128 {
    let b = s.as_bytes();
    let mut k = 0u128;
    let mut i = 0;
    while i < 16 {
        let byte = if i < b.len() { b[i] } else { 0 };
        k = k << 8 | byte as u128;
        i += 1;
    }
    k
}

/// A base mnemonic and what can spell it.
#[derive(Debug)]
pub struct Mnemonic {
    /// The mnemonic's text (`IMAD`).
    pub name: &'static str,
    /// [`key`] of `name`.
    pub key: u128,
    /// (opcode, form index in the opcode), in the order they are tried.
    pub forms: &'static [(u16, u16)],
}

/// A register class (`R`, `UR`, `P`).
#[derive(Debug)]
pub struct RegClass {
    /// What its register names start with (`R`).
    pub prefix: &'static str,
    /// Named registers (`RZ` = 255).
    pub constants: &'static [(&'static str, u64)],
    /// Predicates read "a predicate `Pn`" in messages.
    pub predicate: bool,
}

/// A one-bit-ish flag field: its encodings when on and off.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// Where the field is.
    pub bits: Bits,
    /// Its encoding when the flag is written.
    pub on: u64,
    /// Its encoding when it is not.
    pub off: u64,
}

/// A field with its default (none when the spec gives no default).
#[derive(Clone, Copy, Debug)]
pub struct FieldRef {
    /// Where the field is.
    pub bits: Bits,
    /// Its default value, encoded.
    pub default: Option<u64>,
}

/// One opcode.
#[derive(Debug)]
pub struct Opcode {
    /// The opcode's name.
    pub name: &'static str,
    /// The word with constants and defaults (what assembly starts from).
    pub base: u128,
    /// The guard predicate (`@P0`): its register field and class, its `.not` flag.
    pub guard: Option<Guard>,
    /// Control fields this opcode has, in [`Model::controls`] order.
    pub controls: &'static [Control],
    /// Its syntax forms, one per template of its optype.
    pub forms: &'static [Form],
}

/// The guard predicate of an opcode.
#[derive(Clone, Copy, Debug)]
pub struct Guard {
    /// The predicate register's field.
    pub reg: FieldRef,
    /// The register's class, an index into [`Model::registers`].
    pub class: u16,
    /// The `.not` flag (`@!P0`), if the opcode has one.
    pub not: Option<Flag>,
}

/// A control field (`&req=0x3`).
#[derive(Clone, Copy, Debug)]
pub struct Control {
    /// The field's name, written `&name=value`.
    pub name: &'static str,
    /// Its index in [`Model::controls`].
    pub index: u16,
    /// Where the field is, and its default.
    pub field: FieldRef,
}

/// One syntax form of an opcode.
#[derive(Debug)]
pub struct Form {
    /// Base mnemonic.
    pub mnemonic: &'static str,
    /// A field without default this form cannot set: assembling it is a spec defect.
    pub unsettable: Option<&'static str>,
    /// Its modifier slots, in template order.
    pub modifiers: &'static [Modifier],
    /// Its operands, in template order.
    pub operands: &'static [Operand],
    /// Every modifier spelling this form takes, for messages (`.F32 .F16`).
    pub spellings: &'static str,
}

/// A modifier slot of a form.
#[derive(Debug)]
pub struct Modifier {
    /// The template's name for it (`rnd`).
    pub name: &'static str,
    /// Written in braces: it may be left out.
    pub optional: bool,
    /// What the slot sets.
    pub kind: ModifierKind,
}

/// What a modifier slot holds.
#[derive(Debug)]
pub enum ModifierKind {
    /// A fixed part of the mnemonic (`.WIDE`).
    Mnemonic(&'static str),
    /// A flag-like modifier that sets one value (`.FTZ`); `optional` as the
    /// binding has it (printing omits it at the field's default).
    Value {
        /// The field it sets.
        field: FieldRef,
        /// The modifier's spelling (`FTZ`), without its dot.
        spelling: &'static str,
        /// The encoding it sets.
        value: u64,
        /// Written in braces in the template.
        optional: bool,
    },
    /// One of several spellings, each an encoding of the field.
    Choice {
        /// The field it sets.
        field: FieldRef,
        /// Each spelling (without its dot) and its encoding, in order.
        values: &'static [(&'static str, u64)],
        /// Written in braces in the template.
        optional: bool,
    },
    /// A modifier the spec gives no field (assembling it is an error).
    /// Its value list's default (`.RN*`) may be written: it changes nothing.
    Unbound {
        /// The modifier's name (`rnd`).
        text: &'static str,
        /// The spellings of its value list: the slot takes them, to report all but `default` as unencodable.
        accepts: &'static [&'static str],
        /// The value list's default, the one spelling that assembles.
        default: Option<&'static str>,
    },
    /// A slot whose field the opcode lacks: the form never matches.
    Broken,
}

/// An operand of a form.
#[derive(Debug)]
pub struct Operand {
    /// The template's name for it (`Ra`, `SrcB`).
    pub name: &'static str,
    /// Written inside `{, ...}`: it may be left out.
    pub optional: bool,
    /// What its value is and where it goes.
    pub kind: OperandKind,
    /// Prefix decorations, then suffixes, in template order.
    pub decorations: &'static [Decoration],
    /// Prefix kinds the template writes (a bit per [`DecorationKind`]).
    pub prefixes: u8,
    /// The field the operand's value is bound to, for messages.
    pub field: &'static str,
    /// `.neg` written `~` when this holds (a `CvtINegX` hook).
    pub neg_is_inv: Option<&'static Expr>,
    /// Description of the operand's type for messages (`a register `Rn``).
    pub describe: &'static str,
    /// The type's name for messages (`SImm32`).
    pub type_name: &'static str,
}

/// The value part of an operand.
#[derive(Debug)]
pub enum OperandKind {
    /// A literal word (`PR`).
    Literal,
    /// `base[index+offset]`.
    Indexed {
        /// The register prefix before `[` (`R`).
        base: &'static str,
        /// The index register's field and class, if bound.
        index: Option<(Bits, u16)>,
        /// The offset's field, whether it is signed, and its name, if bound.
        offset: Option<(Bits, bool, &'static str)>,
    },
    /// A register; a pair `R[n:n+1]` when `pair` evaluates to 64.
    Register {
        /// Where the register number is.
        bits: Bits,
        /// Its class, an index into [`Model::registers`].
        class: u16,
        /// The operand's `Bitwidth`, if it has one.
        pair: Option<&'static Expr>,
    },
    /// An integer immediate.
    Int {
        /// Where the value is.
        bits: Bits,
        /// Two's complement (else unsigned).
        signed: bool,
    },
    /// Float lanes; the format may be chosen by another field (`CvtFImm`).
    Float {
        /// Where the value is.
        bits: Bits,
        /// The operand type's float format, used when `select` gives none.
        format: FloatFormat,
        /// The operand type's number of lanes.
        lanes: u32,
        /// The deciding field and, per value of it, a format (`CvtFImm`).
        select: Option<(Bits, &'static [(u64, FloatFormat)])>,
    },
    /// `c[bank][offset]`, both parts inside the field.
    ConstMem {
        /// Where the whole reference is.
        bits: Bits,
        /// The bank's bits, relative to `bits`.
        bank: Bits,
        /// The byte offset's bits, relative to `bits`.
        offset: Bits,
    },
    /// An enum-typed operand: no text form.
    Enum,
    /// The spec binds no field to this operand (a spec defect).
    Unbound,
    /// The bound field (named) is not in the opcode.
    Broken(&'static str),
}

/// Kinds of operand decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum DecorationKind {
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// `!x`
    Not,
    /// `~x`
    Invert,
    /// `x.H1`
    Suffix,
}

impl DecorationKind {
    /// How a line writes it: `-`, `|..|`, `!`, `~`, `.sel`.
    pub fn written(self) -> &'static str {
        match self {
            DecorationKind::Neg => "-",
            DecorationKind::Abs => "|..|",
            DecorationKind::Not => "!",
            DecorationKind::Invert => "~",
            DecorationKind::Suffix => ".sel",
        }
    }
}

/// A decoration of an operand and the field it sets.
#[derive(Debug)]
pub struct Decoration {
    /// Which decoration.
    pub kind: DecorationKind,
    /// The template's name (`neg`, `hsel2`).
    pub name: &'static str,
    /// Written in braces: it may be left out.
    pub optional: bool,
    /// Where it is encoded.
    pub target: Target,
    /// A `CvtINegX` hook is on this field (`~` may spell it).
    pub neg_hook: bool,
    /// How it is spelled, for a suffix.
    pub suffix: Option<Suffix>,
}

/// Where a decoration is encoded.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The template binds it to nothing.
    None,
    /// It names a field the opcode lacks.
    Missing,
    /// A field; `on`/`off` are its encodings as a flag.
    Field {
        /// The field it sets.
        field: FieldRef,
        /// The encoding when the decoration is written.
        on: u64,
        /// The encoding when it is not.
        off: u64,
    },
}

/// Spellings of a suffix: text to encoding.
#[derive(Debug)]
pub struct SuffixMap {
    /// Each spelling (without its dot) and its encoding.
    pub parse: &'static [(&'static str, u64)],
}

/// How a suffix is spelled.
#[derive(Debug)]
pub enum Suffix {
    /// The same spellings whatever the other fields hold.
    Fixed(SuffixMap),
    /// Spellings chosen by another field (`CvtVSel`/`CvtVPSel`), per value of it.
    Selected {
        /// The deciding field.
        by: Bits,
        /// Per value of `by`, the spellings.
        table: &'static [(u64, SuffixMap)],
    },
}

impl SuffixMap {
    /// The encoding of a spelling.
    pub fn value(&self, text: &str) -> Option<u64> {
        self.parse.iter().find(|(s, _)| same(s, text)).map(|&(_, v)| v)
    }
}

impl Suffix {
    /// The spellings in force for a word.
    pub fn map(&self, w: u128) -> Option<&SuffixMap> {
        match self {
            Suffix::Fixed(m) => Some(m),
            Suffix::Selected { by, table } => {
                let v = by.get(w);
                table.iter().find(|(x, _)| *x == v).map(|(_, m)| m)
            }
        }
    }
}

/// `a == b` a byte at a time, inline: the assembler compares short names
/// (registers, modifiers, suffixes, controls) many times a line, and a
/// slice compare is a call to `memcmp`, which costs more than these bytes.
#[inline(always)]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::Bits;

    proptest::proptest! {
        /// `set` against writing the range one bit at a time.
        #[test]
        fn set_writes_only_its_range(word: u128, v: u64, start in 0u8..128, width in 1u8..=64) {
            let width = width.min(128 - start);
            let b = Bits { start, width };
            let mut expected = word;
            for i in 0..width as u32 {
                let at = start as u32 + i;
                expected = (expected & !(1u128 << at)) | (((v >> i) & 1) as u128) << at;
            }
            proptest::prop_assert_eq!(b.set(word, v), expected);
            proptest::prop_assert_eq!(b.get(b.set(word, v)), if width == 64 { v } else { v & ((1 << width) - 1) });
        }
    }
}
