//! `AsmFormat<x> = Hook(x, arg)` conversions between a field and its text,
//! named in the spec and implemented here, plus float literals.
//!
//! | hook | meaning |
//! |---|---|
//! | `CvtINegX(x.neg, ext)` | the `.neg` prefix is written `~` (bitwise not) when `ext` is `X`, `-` otherwise |
//! | `CvtFImm(x, fmt)` | the immediate's lanes are floats of the format `fmt` names (`F32`, `F16*`, `BF16*`), not the type's own |
//! | `CvtVSel(x.vsel, type)` | a sub-word selector: `.B0`..`.B3` when `type` is 8 bits wide, `.H0`/`.H1` when 16, nothing when 32; encoded as `S0`..`S3` |
//! | `CvtVPSel(x.vsel, type)` | the same for packed float sources (`E4M3` = 8 bits, `F16` = 16 bits) |
//!
//! Float literals: decimals (`-0.25`, `1`, `3e-5`, `inf`), or raw bits
//! `0f` + hex digits (`0f3F800000`). Decimals are rounded to nearest-even;
//! formats narrower than f32 go through f64 first (double rounding can only
//! happen for decimal inputs within 2^-53 of a tie, which no printed literal is).

/// A float format: exponent and mantissa bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    pub exponent: u32,
    pub mantissa: u32,
}

impl FloatFormat {
    pub fn width(self) -> u32 {
        1 + self.exponent + self.mantissa
    }
}

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

/// Parses a float literal into `f`'s bits.
pub fn parse_float(text: &str, f: FloatFormat) -> Option<u64> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        let v = u64::from_str_radix(hex, 16).ok()?;
        return (hex.len() as u32 * 4 <= f.width().next_multiple_of(4) && v >> f.width() == 0).then_some(v);
    }
    let lower = t.to_ascii_lowercase();
    let x: f64 = match lower.as_str() {
        "inf" | "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ => {
            if !t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') || lower.contains("nan") {
                return None;
            }
            // Hex integers are integers, not floats.
            if lower.trim_start_matches(['-', '+']).starts_with("0x") {
                return None;
            }
            t.parse().ok()?
        }
    };
    if f == (FloatFormat { exponent: 8, mantissa: 23 }) {
        // Rust parses straight to f32 with a single rounding.
        let y: f32 = t.parse().unwrap_or(x as f32);
        return Some(y.to_bits() as u64);
    }
    Some(round_f64(x, f))
}

/// Rounds an f64 to `f`'s bits (nearest, ties to even; overflow to infinity).
pub fn round_f64(x: f64, f: FloatFormat) -> u64 {
    let (e, m) = (f.exponent as i64, f.mantissa as i64);
    let sign = (x.is_sign_negative() as u64) << (e + m);
    let exp_all = ((1u64 << e) - 1) << m;
    if x.is_nan() {
        return sign | exp_all | 1u64 << (m - 1);
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | exp_all;
    }
    if a == 0.0 {
        return sign;
    }
    let bits = a.to_bits();
    let (fe, fm) = (((bits >> 52) & 0x7ff) as i64, bits & ((1u64 << 52) - 1));
    let (mant, exp) = if fe == 0 { (fm, -1074) } else { (fm | 1 << 52, fe - 1075) };
    let bias = (1i64 << (e - 1)) - 1;
    let top = exp + 63 - mant.leading_zeros() as i64;
    let min_exp = 1 - bias;
    let mut q = if top < min_exp { min_exp - m } else { top - m };
    let shift = q - exp;
    let mut n: u64 = if shift <= 0 {
        mant << (-shift).min(63)
    } else if shift >= 64 {
        0
    } else {
        let kept = mant >> shift;
        let rem = mant & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && kept & 1 == 1) { kept + 1 } else { kept }
    };
    if n >= 1u64 << (m + 1) {
        n >>= 1;
        q += 1;
    }
    if n < 1u64 << m {
        return sign | n; // subnormal (or zero after rounding)
    }
    let biased = q + m + bias;
    if biased >= (1i64 << e) - 1 {
        return sign | exp_all;
    }
    sign | (biased as u64) << m | (n - (1u64 << m))
}

/// The exact value of `f`'s bits as an f64.
pub fn to_f64(bits: u64, f: FloatFormat) -> f64 {
    let (e, m) = (f.exponent, f.mantissa);
    let sign = if bits >> (e + m) & 1 == 1 { -1.0 } else { 1.0 };
    let exp = (bits >> m) & ((1u64 << e) - 1);
    let frac = bits & ((1u64 << m) - 1);
    let bias = (1i64 << (e - 1)) - 1;
    if exp == (1u64 << e) - 1 {
        return if frac == 0 { sign * f64::INFINITY } else { f64::NAN };
    }
    let (mant, pow) = if exp == 0 { (frac, 1 - bias - m as i64) } else { (frac | 1 << m, exp as i64 - bias - m as i64) };
    sign * mant as f64 * 2f64.powi(pow as i32)
}

/// Canonical text of a float: the shortest decimal that reads back to the same
/// bits, or raw `0f` bits for NaNs (to keep the payload).
pub fn format_float(bits: u64, f: FloatFormat) -> String {
    let x = to_f64(bits, f);
    if x.is_nan() {
        let digits = (f.width() as usize).div_ceil(4);
        return format!("0f{bits:0digits$X}");
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    // Every format here is a subset of f32 (e <= 8, m <= 23), so the shortest
    // f32 rendering identifies the value; for wider formats use f64.
    let text = if f.exponent <= 8 && f.mantissa <= 23 {
        let y = x as f32;
        if y != 0.0 && (y.abs() >= 1e7 || y.abs() < 1e-4) { format!("{y:e}") } else { format!("{y}") }
    } else if x != 0.0 && (x.abs() >= 1e7 || x.abs() < 1e-4) {
        format!("{x:e}")
    } else {
        format!("{x}")
    };
    debug_assert_eq!(parse_float(&text, f), Some(bits));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    const F16: FloatFormat = FloatFormat { exponent: 5, mantissa: 10 };
    const BF16: FloatFormat = FloatFormat { exponent: 8, mantissa: 7 };
    const F32: FloatFormat = FloatFormat { exponent: 8, mantissa: 23 };

    #[test]
    fn known_encodings() {
        // Independent facts about IEEE binary16 / bfloat16 / binary32.
        assert_eq!(parse_float("1", F16), Some(0x3C00));
        assert_eq!(parse_float("-1", F16), Some(0xBC00));
        assert_eq!(parse_float("65504", F16), Some(0x7BFF));
        assert_eq!(parse_float("65520", F16), Some(0x7C00), "rounds up to infinity");
        assert_eq!(parse_float("5.960464477539063e-8", F16), Some(0x0001), "smallest subnormal");
        assert_eq!(parse_float("1", BF16), Some(0x3F80));
        assert_eq!(parse_float("-0.25", F32), Some(0xBE80_0000));
        assert_eq!(parse_float("0f405A7EFA", F32), Some(0x405A_7EFA));
        assert_eq!(parse_float("-0", F16), Some(0x8000));
        assert_eq!(parse_float("0x10", F32), None);
    }

    #[test]
    fn every_f16_and_bf16_prints_and_reads_back() {
        for f in [F16, BF16] {
            for bits in 0..=0xFFFFu64 {
                let t = format_float(bits, f);
                assert_eq!(parse_float(&t, f), Some(bits), "{bits:#x} printed as {t}");
            }
        }
    }

    #[test]
    fn f32_samples_print_and_read_back() {
        let mut x = 1u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let t = format_float(x as u64, F32);
            assert_eq!(parse_float(&t, F32), Some(x as u64), "{x:#x} printed as {t}");
        }
    }
}
