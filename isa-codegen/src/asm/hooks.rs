//! `AsmFormat<x> = Hook(x, by)` conversions between a field and its text: the
//! hooks the language defines ([`isa_dsl::ir::ASM_FORMAT_HOOKS`] lists and
//! checks them), implemented here. What a hook reads from `by`'s value (a
//! float layout, an element width) is declared in the spec with
//! `__DefValueFormat`; nothing here knows a value by its name. Float
//! literals themselves are `isa_runtime::text::literal`.
//!
//! | hook | meaning |
//! |---|---|
//! | `CvtINegX(x.neg, by)` | the `.neg` prefix is written `~` (bitwise not) when `by` is `X`, `-` otherwise |
//! | `CvtFImm(x, by)` | the immediate's lanes are floats of the layout `by`'s value declares (`Float V = <e, m>;`), the type's own when it declares none |
//! | `CvtVSel(x.vsel, by)` | a sub-word selector: `.B0`..`.B3` when `by`'s value is 8 bits wide (`Bits V = 8;`), `.H0`/`.H1` when 16, nothing otherwise; selector k is encoded as k |
//! | `CvtVPSel(x.vsel, by)` | the same for packed float sources |

use isa_dsl::ir::{Field, Isa};
pub use isa_runtime::text::literal::FloatFormat;

/// The float format that value `v` of field `by` declares (`Float V = <e, m>;`).
pub fn value_float(isa: &Isa, by: &Field, v: u64) -> Option<FloatFormat> {
    let l = isa.types[by.ty].value_format(v)?.float?;
    Some(FloatFormat { exponent: l.exponent, mantissa: l.mantissa })
}

/// The element width that value `v` of field `by` declares (`Bits V = n;`, or its float's).
pub fn value_bits(isa: &Isa, by: &Field, v: u64) -> Option<u32> {
    Some(isa.types[by.ty].value_format(v)?.bits)
}

/// Spellings of a sub-word selector for a source of `bits` bits, by encoding.
pub fn vsel_spellings(bits: u32) -> &'static [&'static str] {
    match bits {
        8 => &["B0", "B1", "B2", "B3"],
        16 => &["H0", "H1"],
        _ => &[],
    }
}
