//! Literals in assembly text: integers (`0x1F`, `31`, `0b101`, `-0x10`) and
//! floats: decimals (`-0.25`, `1`, `3e-5`, `inf`), or raw bits `0f` + hex
//! digits (`0f3F800000`). Decimals are rounded to nearest-even; formats
//! narrower than f32 go through f64 first (double rounding can only happen
//! for decimal inputs within 2^-53 of a tie, which no printed literal is).
//! Printing gives the shortest decimal that reads back to the same bits.

/// A float format: exponent and mantissa bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    pub exponent: u32,
    pub mantissa: u32,
}

impl FloatFormat {
    /// IEEE binary32.
    pub const F32: FloatFormat = FloatFormat { exponent: 8, mantissa: 23 };
    /// IEEE binary16.
    pub const F16: FloatFormat = FloatFormat { exponent: 5, mantissa: 10 };
    /// bfloat16.
    pub const BF16: FloatFormat = FloatFormat { exponent: 8, mantissa: 7 };

    /// Total bits: sign, exponent and mantissa.
    pub const fn width(self) -> u32 {
        1 + self.exponent + self.mantissa
    }
}


/// `0x1F`, `31`, `0b101`: a non-negative integer.
pub fn int(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// A signed integer literal (`-0x114514`, `+3`, `7`).
pub fn signed(s: &str) -> Option<i128> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = int(body)? as i128;
    Some(if neg { -v } else { v })
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
