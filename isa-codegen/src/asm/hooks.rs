//! `AsmFormat<x> = Hook(x, arg)` conversions between a field and its text,
//! named in the spec and implemented here (float literals themselves are
//! `isa_runtime::text::literal`).
//!
//! | hook | meaning |
//! |---|---|
//! | `CvtINegX(x.neg, ext)` | the `.neg` prefix is written `~` (bitwise not) when `ext` is `X`, `-` otherwise |
//! | `CvtFImm(x, fmt)` | the immediate's lanes are floats of the format `fmt` names (`F32`, `F16*`, `BF16*`), not the type's own |
//! | `CvtVSel(x.vsel, type)` | a sub-word selector: `.B0`..`.B3` when `type` is 8 bits wide, `.H0`/`.H1` when 16, nothing when 32; encoded as `S0`..`S3` |
//! | `CvtVPSel(x.vsel, type)` | the same for packed float sources (`E4M3` = 8 bits, `F16` = 16 bits) |

pub use isa_runtime::text::literal::FloatFormat;

/// The format a value name denotes (`F32`, `TF32` -> binary32; `F16`, `F16_V2`
/// -> binary16; `BF16`, `BF16_V2` -> bfloat16); `None` for others.
pub fn format_named(name: &str) -> Option<FloatFormat> {
    let base = name.split('_').next().unwrap_or(name);
    Some(match base {
        "F32" | "TF32" => FloatFormat { exponent: 8, mantissa: 23 },
        "F16" => FloatFormat { exponent: 5, mantissa: 10 },
        "BF16" => FloatFormat { exponent: 8, mantissa: 7 },
        _ => return None,
    })
}

/// Bit width a type value's name states (`S8` -> 8, `U16` -> 16, `E4M3` -> 8).
pub fn value_bits(name: &str) -> Option<u32> {
    if let Some(f) = format_named(name) {
        return Some(f.width());
    }
    if name.starts_with('E') && name.contains('M') {
        // E4M3, E5M2, E3M2, E2M3, E2M1: 1 + e + m bits, stored in 8.
        return Some(8);
    }
    let digits: String = name.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Spellings of a sub-word selector for a source of `bits` bits, by encoding.
pub fn vsel_spellings(bits: u32) -> &'static [&'static str] {
    match bits {
        8 => &["B0", "B1", "B2", "B3"],
        16 => &["H0", "H1"],
        _ => &[],
    }
}

