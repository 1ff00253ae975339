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
    // 2^pow exactly, built from its bits when it is a normal f64.
    let scale = if (-1022..=1023).contains(&pow) { f64::from_bits(((pow + 1023) as u64) << 52) } else { 2f64.powi(pow as i32) };
    sign * mant as f64 * scale
}

/// Canonical text of a float: the shortest decimal that reads back to the same
/// bits, or raw `0f` bits for NaNs (to keep the payload).
pub fn format_float(bits: u64, f: FloatFormat) -> String {
    let mut s = String::with_capacity(16);
    write_float(&mut s, bits, f);
    s
}

/// Where printed text goes: a `String`, or the line a generated printer is
/// writing (`disasm::Line`).
pub trait Sink {
    /// Appends text.
    fn push_str(&mut self, s: &str);
    /// Appends one ASCII byte.
    fn push_byte(&mut self, b: u8);
}

impl Sink for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    #[inline]
    fn push_byte(&mut self, b: u8) {
        self.push(b as char)
    }
}

/// Appends [`format_float`]'s text to `out`. Formats within binary32 take
/// the shortest digits from `ryu` and lay them out as Rust's `{}` (or `{:e}`
/// outside 1e-4..1e7) would, without allocating; wider ones use `{}`.
pub fn write_float<S: Sink>(out: &mut S, bits: u64, f: FloatFormat) {
    if f.exponent <= 8 && f.mantissa <= 23 {
        let y = if (f.exponent, f.mantissa) == (8, 23) { f32::from_bits(bits as u32) } else { to_f64(bits, f) as f32 };
        if y.is_finite() && y != 0.0 && write_f32_as_ryu(out, y) {
            return;
        }
    }
    let x = to_f64(bits, f);
    if x.is_nan() {
        out.push_str("0f");
        let digits = (f.width() as usize).div_ceil(4);
        for i in (0..digits).rev() {
            out.push_byte(b"0123456789ABCDEF"[(bits >> (4 * i) & 15) as usize]);
        }
        return;
    }
    if x.is_infinite() {
        out.push_str(if x < 0.0 { "-inf" } else { "inf" });
        return;
    }
    if f.exponent <= 8 && f.mantissa <= 23 {
        // Every such format is a subset of f32, so the shortest f32 digits
        // identify the value.
        let y = x as f32;
        if y == 0.0 {
            out.push_str(if y.is_sign_negative() { "-0" } else { "0" });
            return;
        }
        let mut buf = ryu::Buffer::new();
        let (neg, digits, exp) = split_decimal(buf.format_finite(y));
        if neg {
            out.push_byte(b'-');
        }
        lay_out(out, &digits.0[..digits.1], exp, y.abs() >= 1e7 || y.abs() < 1e-4);
        return;
    }
    let text = if x != 0.0 && (x.abs() >= 1e7 || x.abs() < 1e-4) { format!("{x:e}") } else { format!("{x}") };
    out.push_str(&text);
}

/// Appends `y` (finite, not zero) as [`write_float`] does, when `ryu`'s own
/// layout of its digits already is that text (or is once a trailing `.0` is
/// cut): `false` (nothing appended) otherwise. This spares re-laying the
/// digits out for most values.
#[inline]
fn write_f32_as_ryu<S: Sink>(out: &mut S, y: f32) -> bool {
    let mut buf = ryu::Buffer::new();
    let s = buf.format_finite(y);
    let scientific = y.abs() >= 1e7 || y.abs() < 1e-4;
    if scientific {
        // `ryu` writes `1.5e-7` and `1e30` as `{:e}` does, but lays some
        // values of this range out plainly.
        if !s.as_bytes().contains(&b'e') {
            return false;
        }
        out.push_str(s);
    } else {
        // In this range `ryu` lays digits out plainly, as `{}` does, but
        // keeps a `.0` on whole numbers.
        out.push_str(s.strip_suffix(".0").unwrap_or(s));
    }
    true
}

/// A decimal as `ryu` prints it (`-1.25e-7`, `1e30`, `0.001`, `123.0`): its
/// sign, significant digits (no leading or trailing zeros) and the power of
/// ten of the first digit.
fn split_decimal(s: &str) -> (bool, ([u8; 24], usize), i32) {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mant, e) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (s, 0),
    };
    let mut digits = [0u8; 24];
    let mut n = 0;
    let mut point = None;
    let mut first: Option<i32> = None;
    for (i, c) in mant.bytes().enumerate() {
        if c == b'.' {
            point = Some(i as i32);
            continue;
        }
        let pos = i as i32 - point.map_or(0, |_| 1);
        if c != b'0' || first.is_some() {
            first.get_or_insert(pos);
            if n < digits.len() {
                digits[n] = c;
                n += 1;
            }
        }
    }
    while n > 1 && digits[n - 1] == b'0' {
        n -= 1;
    }
    let int_len = point.unwrap_or(mant.len() as i32);
    (neg, (digits, n), int_len - 1 - first.unwrap_or(0) + e)
}

/// Appends the decimal digits of `v`.
#[inline]
pub(crate) fn push_dec<S: Sink>(out: &mut S, v: u64) {
    if v < 10 {
        out.push_byte(b'0' + v as u8);
    } else if v < 100 {
        out.push_byte(b'0' + (v / 10) as u8);
        out.push_byte(b'0' + (v % 10) as u8);
    } else if v < 1000 {
        out.push_byte(b'0' + (v / 100) as u8);
        out.push_byte(b'0' + (v / 10 % 10) as u8);
        out.push_byte(b'0' + (v % 10) as u8);
    } else {
        push_dec_long(out, v);
    }
}

fn push_dec_long<S: Sink>(out: &mut S, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v != 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    push_all(out, &buf[i..]);
}

/// Appends ASCII bytes.
fn push_all<S: Sink>(out: &mut S, b: &[u8]) {
    b.iter().for_each(|&c| out.push_byte(c));
}

/// Writes digits `d` (first digit at 10^`exp`) as `d.ddde<exp>` or as a plain
/// decimal, the way Rust's `{:e}` and `{}` print floats.
fn lay_out<S: Sink>(out: &mut S, d: &[u8], exp: i32, scientific: bool) {
    if scientific {
        push_all(out, &d[..1]);
        if d.len() > 1 {
            out.push_byte(b'.');
            push_all(out, &d[1..]);
        }
        out.push_byte(b'e');
        if exp < 0 {
            out.push_byte(b'-');
        }
        push_dec(out, exp.unsigned_abs() as u64);
    } else if exp < 0 {
        out.push_str("0.");
        (0..-exp - 1).for_each(|_| out.push_byte(b'0'));
        push_all(out, d);
    } else if (exp as usize) + 1 >= d.len() {
        push_all(out, d);
        (0..exp as usize + 1 - d.len()).for_each(|_| out.push_byte(b'0'));
    } else {
        let k = exp as usize + 1;
        push_all(out, &d[..k]);
        out.push_byte(b'.');
        push_all(out, &d[k..]);
    }
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

    /// What `format_float` printed before it used `ryu`: Rust's own float
    /// formatting, an independent implementation of the same text.
    fn std_text(bits: u64, f: FloatFormat) -> String {
        let y = to_f64(bits, f) as f32;
        if y != 0.0 && (y.abs() >= 1e7 || y.abs() < 1e-4) { format!("{y:e}") } else { format!("{y}") }
    }

    /// Our text is Rust's, except where the exact value lies halfway between
    /// two shortest decimals: Rust rounds that last digit up, `ryu` to even.
    /// Both texts then have the same length and read back to the same bits.
    fn same_or_tie(bits: u64, f: FloatFormat) {
        let (ours, std) = (format_float(bits, f), std_text(bits, f));
        if ours != std {
            let diff = ours.bytes().zip(std.bytes()).filter(|(a, b)| a != b).count();
            assert!(ours.len() == std.len() && diff == 1, "{f:?} {bits:#x}: {ours} vs {std}");
            assert_eq!(parse_float(&ours, f), Some(bits), "{ours}");
            assert_eq!(parse_float(&std, f), Some(bits), "{std}");
        }
    }

    #[test]
    fn text_matches_rust_formatting() {
        for f in [F16, BF16] {
            for bits in 0..=0xFFFFu64 {
                if to_f64(bits, f).is_finite() {
                    same_or_tie(bits, f);
                }
            }
        }
        let mut x = 7u32;
        let mut samples: Vec<u32> = (0..300_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            })
            .collect();
        // Around the switches to scientific notation, powers of ten and the ends.
        for v in [1e7f32, 1e-4, 1.0, 0.1, 1e38, 1e-38, f32::MAX, f32::MIN_POSITIVE, 1e-45] {
            let b = v.to_bits();
            samples.extend((b.saturating_sub(50)..b.saturating_add(50)).chain([b | 1 << 31]));
        }
        for b in samples {
            if f32::from_bits(b).is_finite() {
                same_or_tie(b as u64, F32);
            }
        }
    }
}
