//! Literals in assembly text: integers (`0x1F`, `31`, `0b101`, `-0x10`) and
//! floats: decimals (`-0.25`, `1`, `3e-5`, `inf`), or raw bits `0f` + hex
//! digits (`0f3F800000`). Decimals are rounded to nearest-even (one that
//! would round to infinity or to zero is an error instead); formats
//! narrower than f32 go through f64 first, and a decimal whose f64 lands
//! exactly on a midpoint of the format is compared with it exactly, so
//! every decimal is rounded once. Printing gives the shortest decimal that
//! reads back to the same bits in the value's own format.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A float format: exponent and mantissa bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    /// Exponent width in bits.
    pub exponent: u32,
    /// Mantissa width in bits (without the implicit leading bit).
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
    if let [b'0', b'x' | b'X', h @ ..] = s.as_bytes() {
        hex(h)
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else if leading_zero(s) {
        // `077` is octal 63 in C and GNU as: not silently decimal 77.
        None
    } else {
        s.parse().ok()
    }
}

/// A register's number in a pair (`R[04:05]`): decimal digits, leading
/// zeros allowed as in a register's name (`R04`), else an integer as
/// [`int`] reads it (`0x4`).
pub fn register_number(s: &str) -> Option<u64> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        int(s)
    }
}

/// A decimal of two or more digits that starts with `0` (`077`): refused
/// wherever a number is read (octal to some readers, decimal to others).
pub fn leading_zero(s: &str) -> bool {
    let d = s.strip_prefix('+').unwrap_or(s).as_bytes();
    d.len() > 1 && d[0] == b'0' && d.iter().all(u8::is_ascii_digit)
}

/// Hex digits as a number, a digit at a time (`from_str_radix` would also
/// take a sign, which no hex literal has); `None` past 64 bits.
fn hex(h: &[u8]) -> Option<u64> {
    let mut v: u64 = 0;
    for &c in h {
        let d = (c as char).to_digit(16)?;
        if v >> 60 != 0 {
            return None;
        }
        v = v << 4 | d as u64;
    }
    (!h.is_empty()).then_some(v)
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

/// Why [`signed`] rejects `s`, worded for both assemblers: an integer
/// written correctly but past 64 bits is too large, anything else is not an
/// integer.
pub fn int_error_message(s: &str) -> String {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s).trim_start();
    let digits = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(hex) => !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()),
    };
    if digits && leading_zero(body) {
        let plain = body.trim_start_matches('0');
        let plain = if plain.is_empty() { "0" } else { plain };
        format!("`{s}` starts with 0: octal is not read here; write `{plain}` for the decimal, or `0x` for hex")
    } else if digits {
        format!("`{s}` is too large: integers are at most 64 bits")
    } else {
        format!("`{s}` is not an integer")
    }
}

/// Why a text is not a float of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatError {
    /// Not a float literal, or raw bits wider than the format.
    Syntax,
    /// A finite decimal beyond the format's range: it would round to
    /// infinity (`inf` is how infinity is written).
    Overflow,
    /// A nonzero decimal below half the smallest subnormal: it would round
    /// to zero.
    Underflow,
}

/// Parses a float literal into `f`'s bits. A decimal whose rounding would
/// lose it whole (to infinity or to zero) is an error, not that bit
/// pattern: an assembler that turns `70000` into an F16 infinity silently
/// loses what the user wrote.
pub fn parse_float(text: &str, f: FloatFormat) -> Result<u64, FloatError> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        // Every digit written (`0f7FC0000`, one short of a NaN, is no
        // float): the disassembler prints them all, and a short spelling
        // is far more likely a digit lost than a small number meant.
        let v = u64::from_str_radix(hex, 16).map_err(|_| FloatError::Syntax)?;
        return (hex.len() as u32 == f.width().div_ceil(4) && v >> f.width() == 0).then_some(v).ok_or(FloatError::Syntax);
    }
    // Letters compare without case (`INF`, `1E5`), with no lowered copy.
    let starts = |s: &str, p: &str| s.as_bytes().get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()));
    let unsigned = t.trim_start_matches(['-', '+']);
    let infinity = if t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("+inf") {
        Some(f64::INFINITY)
    } else if t.eq_ignore_ascii_case("-inf") {
        Some(f64::NEG_INFINITY)
    } else {
        let number = t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
        // Hex integers are integers, not floats.
        if !number || t.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"nan")) || starts(unsigned, "0x") {
            return Err(FloatError::Syntax);
        }
        None
    };
    let bits = if f == FloatFormat::F32 {
        // Rust parses straight to f32 with a single rounding.
        let y = match infinity {
            Some(x) => x as f32,
            None => t.parse::<f32>().map_err(|_| FloatError::Syntax)?,
        };
        y.to_bits() as u64
    } else {
        let x = match infinity {
            Some(x) => x,
            None => t.parse().map_err(|_| FloatError::Syntax)?,
        };
        settle_tie(t, x, round_f64(x, f), f)
    };
    let magnitude = bits & !(1u64 << (f.width() - 1));
    if magnitude == ((1u64 << f.exponent) - 1) << f.mantissa && !starts(unsigned, "inf") {
        return Err(FloatError::Overflow);
    }
    // Nonzero: a digit other than 0 before the exponent.
    if magnitude == 0 && unsigned.split(['e', 'E']).next().is_some_and(|m| m.bytes().any(|b| matches!(b, b'1'..=b'9'))) {
        return Err(FloatError::Underflow);
    }
    Ok(bits)
}

/// Undoes double rounding: `x` is the decimal `text` rounded to f64 and
/// `b` is `x` rounded to `f`. When `x` lies exactly halfway between two
/// values of `f` (`b` then took the even one) while the decimal does not
/// (`1.00244140625000000000001` is above the F16 midpoint
/// `1.00244140625`), the decimal's side of the midpoint decides, as one
/// rounding of the decimal would. Midpoints of formats narrower than f64
/// are exact in f64, so this is the only case two roundings differ.
fn settle_tie(text: &str, x: f64, b: u64, f: FloatFormat) -> u64 {
    let sign = b & 1u64 << (f.width() - 1);
    let mag = b ^ sign;
    let a = x.abs();
    let inf = ((1u64 << f.exponent) - 1) << f.mantissa;
    if !a.is_finite() || f.width() > 32 {
        return b;
    }
    // The value of a magnitude's bits, infinity's being where the next
    // binade would start (the top of the rounding range).
    let value = |m: u64| if m == inf { 2f64.powi(1 << (f.exponent - 1)) } else { to_f64(m, f) };
    let y = value(mag);
    if a == y {
        return b;
    }
    let other = if a > y { mag + 1 } else { mag - 1 };
    if (y + value(other)) / 2.0 != a {
        return b;
    }
    let (below, above) = if a > y { (mag, other) } else { (other, mag) };
    match cmp_decimal(text, a) {
        core::cmp::Ordering::Greater => sign | above,
        core::cmp::Ordering::Less => sign | below,
        core::cmp::Ordering::Equal => b,
    }
}

/// Compares the magnitude of the decimal literal `text` with `a` (finite,
/// not negative), exactly: `a`'s exact decimal expansion against the
/// literal's digits.
fn cmp_decimal(text: &str, a: f64) -> core::cmp::Ordering {
    let exact = format!("{a:.1100e}");
    let (d1, p1) = normalize_decimal(text.trim_start_matches(['-', '+']));
    let (d2, p2) = normalize_decimal(&exact);
    match (d1.is_empty(), d2.is_empty()) {
        (true, true) => return core::cmp::Ordering::Equal,
        (true, false) => return core::cmp::Ordering::Less,
        (false, true) => return core::cmp::Ordering::Greater,
        _ => {}
    }
    // Same number of digits before the point first, then digit by digit
    // (a digit string that runs on past the other's end is the larger).
    p1.cmp(&p2).then_with(|| d1.cmp(&d2))
}

/// A decimal literal (`12.5e-3`) as its significant digits (no leading or
/// trailing zeros; empty for zero) and the power of ten just above its first
/// digit (`0.DIGITS x 10^p`).
fn normalize_decimal(s: &str) -> (Vec<u8>, i64) {
    let s = s.to_ascii_lowercase();
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i64>().unwrap_or(0)),
        None => (s.clone(), 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((&mant, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).filter(u8::is_ascii_digit).collect();
    let mut point = int.len() as i64 + exp;
    let lead = digits.iter().take_while(|&&c| c == b'0').count();
    digits.drain(..lead);
    point -= lead as i64;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, point)
}

/// The assembler's message for `text`, which [`parse_float`] rejected
/// with `e` for format `f`.
pub fn float_error_message(text: &str, f: FloatFormat, e: FloatError) -> String {
    let w = f.width();
    match e {
        // A NaN has many encodings (sign, quiet bit, payload): which one is
        // meant is written as bits, and the disassembler prints NaNs so.
        // YAML spells it `.nan`.
        FloatError::Syntax if text.trim().trim_start_matches(['-', '+', '.']).eq_ignore_ascii_case("nan") => {
            let quiet = ((1u64 << f.exponent) - 1) << f.mantissa | 1 << (f.mantissa - 1);
            let digits = w.div_ceil(4) as usize;
            format!("`{text}` does not say which NaN: write its bits, such as `0f{quiet:0digits$X}` (the quiet NaN of a {w}-bit float)")
        }
        // Bits written as an integer: they are written `0f...`.
        FloatError::Syntax if text.trim().starts_with("0x") || text.trim().starts_with("0X") => {
            let digits = w.div_ceil(4) as usize;
            match u64::from_str_radix(&text.trim()[2..], 16).ok().filter(|&v| w >= 64 || v >> w == 0) {
                Some(v) => format!("`{text}` is not a {w}-bit float: its bits are written `0f{v:0digits$X}`, a value as a decimal such as `1.5`"),
                None => format!("`{text}` is not a {w}-bit float: bits are written `0f` and {digits} hex digits, a value as a decimal such as `1.5`"),
            }
        }
        // A sign on bits: the sign is their top bit.
        FloatError::Syntax if ["-0f", "-0F", "+0f", "+0F"].iter().any(|p| text.trim().starts_with(p)) => {
            let t = text.trim();
            let digits = w.div_ceil(4) as usize;
            let hex = &t[3..];
            match u64::from_str_radix(hex, 16).ok().filter(|_| hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit())).filter(|&v| w >= 64 || v >> w == 0) {
                Some(v) => {
                    let v = if t.starts_with('-') { v ^ 1 << (w - 1) } else { v };
                    format!("`{text}` is not a {w}-bit float: bits take no sign; write `0f{v:0digits$X}`")
                }
                None => format!("`{text}` is not a {w}-bit float: bits take no sign, and are written `0f` and {digits} hex digits"),
            }
        }
        // Bits behind another letter (`0h3C00`).
        FloatError::Syntax if is_other_radix(text.trim()) => {
            format!("`{text}` is not a {w}-bit float: bits are written `0f` and {} hex digits", w.div_ceil(4))
        }
        FloatError::Syntax if text.trim().trim_start_matches(['-', '+']).eq_ignore_ascii_case("infinity") => {
            format!("`{text}` is not a {w}-bit float: infinity is written `inf`")
        }
        // Bits with too few or too many digits.
        FloatError::Syntax if text.trim().starts_with("0f") || text.trim().starts_with("0F") => {
            let digits = w.div_ceil(4);
            let hex = &text.trim()[2..];
            if hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                format!("`{text}` is not a {w}-bit float: its bits are written `0f` and {digits} hex digits ({} here)", hex.len())
            } else {
                format!("`{text}` is not a {w}-bit float: its bits are written `0f` and {digits} hex digits")
            }
        }
        FloatError::Syntax => format!("`{text}` is not a {w}-bit float"),
        FloatError::Overflow => {
            let max = exact_text((((1u64 << f.exponent) - 1) << f.mantissa) - 1, f);
            format!("`{text}` is out of range of a {w}-bit float (the largest finite value is {max}; infinity is written `inf`)")
        }
        FloatError::Underflow => {
            format!("`{text}` rounds to zero in a {w}-bit float (the smallest nonzero value is {})", exact_text(1, f))
        }
    }
}

/// `0` and a letter other than the prefixes numbers take (`0x`, `0b`,
/// `0f`), then hex digits: `0h3C00`, bits meant.
fn is_other_radix(t: &str) -> bool {
    match t.as_bytes() {
        [b'0', l, rest @ ..] => l.is_ascii_alphabetic() && !b"xXbBfFeE".contains(l) && !rest.is_empty() && rest.iter().all(u8::is_ascii_hexdigit),
        _ => false,
    }
}

/// A value of `f` for a message: its exact value where the shortest text
/// that reads back would round it (F16's largest, 65504, reads back from
/// `65500`), as f64 prints it; binary32's shortest text otherwise.
fn exact_text(bits: u64, f: FloatFormat) -> String {
    if f == FloatFormat::F32 {
        return format_float(bits, f);
    }
    let x = to_f64(bits, f);
    if x.abs() >= 1e7 || x.abs() < 1e-4 { format!("{x:e}") } else { format!("{x}") }
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
    /// Appends a short ASCII text held as a disassembler's piece is: up to
    /// 15 bytes, and their count in byte 15.
    fn push_small(&mut self, text: &[u8; 16]) {
        let n = usize::from(text[15]).min(15);
        self.push_str(core::str::from_utf8(&text[..n]).unwrap_or(""));
    }
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

/// The bits of an index offset `v` (`R[UR2-0x10]`) in a `width`-bit
/// field: two's complement when `signed`. The offset is a value with its
/// own sign, so it must lie in the field's range (-256..255 for 9 signed
/// bits; a bit pattern like `+0x1FF` is not -1); else the message.
pub fn offset_bits(v: i128, width: u32, signed: bool, field: &str) -> Result<u64, String> {
    let (lo, hi) = if signed { (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1) } else { (0, (1i128 << width) - 1) };
    if (lo..=hi).contains(&v) {
        Ok((v as u64) & ((1u128 << width) - 1) as u64)
    } else {
        Err(format!("offset {v} is out of range for `{field}` ({lo}..{hi})"))
    }
}

/// Appends the text of `lanes` floats packed in `v` (lane 0 in the low
/// bits), the highest lane first, separated by `, `: an F16 pair `-1, 1`.
pub fn write_float_lanes<S: Sink>(out: &mut S, v: u64, lanes: u32, f: FloatFormat) {
    let lane_mask = if f.width() >= 64 { u64::MAX } else { (1u64 << f.width()) - 1 };
    for lane in (0..lanes.max(1)).rev() {
        if lane + 1 < lanes {
            out.push_str(", ");
        }
        let shift = f.width() * lane;
        write_float(out, if shift >= 64 { 0 } else { (v >> shift) & lane_mask }, f);
    }
}

/// Appends [`format_float`]'s text to `out`. Formats within binary32 take
/// the shortest digits from `ryu` and lay them out as Rust's `{}` (or `{:e}`
/// outside 1e-4..1e7) would, without allocating; wider ones use `{}`.
pub fn write_float<S: Sink>(out: &mut S, bits: u64, f: FloatFormat) {
    if f == FloatFormat::F32 {
        let y = f32::from_bits(bits as u32);
        if y.is_finite() && y != 0.0 && write_f32_as_ryu(out, y) {
            return;
        }
    } else if f.exponent <= 8 && f.mantissa <= 23 {
        let negative = bits >> (f.width() - 1) & 1 == 1;
        if let Some(text) = cached_text(bits & !(1u64 << (f.width() - 1)), f) {
            if negative {
                out.push_byte(b'-');
            }
            out.push_small(&text);
            return;
        }
        let y = to_f64(bits, f);
        if y.is_finite() && y != 0.0 {
            if negative {
                out.push_byte(b'-');
            }
            let ((digits, n), exp) = find_shortest_narrow(bits & !(1u64 << (f.width() - 1)), f);
            lay_out(out, &digits[..n], exp, y.abs() >= 1e7 || y.abs() < 1e-4);
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

/// The text of an F16 or BF16 magnitude (finite, not zero) as
/// [`write_float`] lays it out (`0.1`, `6.1e-5`, `65500`): at most 15 ASCII
/// bytes, and their count in byte 15. `None` for other formats, zero, an
/// infinity or a NaN. Finding the shortest digits takes a few formatted
/// tries, so each value's text is kept once found (a disassembler prints
/// the same constants again and again).
fn cached_text(magnitude: u64, f: FloatFormat) -> Option<[u8; 16]> {
    let cache = match f {
        FloatFormat::F16 => &F16_TEXT,
        FloatFormat::BF16 => &BF16_TEXT,
        _ => return None,
    };
    if magnitude == 0 || magnitude >> f.mantissa == (1 << f.exponent) - 1 {
        return None;
    }
    let slots = cache.get_or_init(|| (0..2 << 15).map(|_| AtomicU64::new(0)).collect());
    let (low, high) = (slots.get(2 * magnitude as usize)?, slots.get(2 * magnitude as usize + 1)?);
    // The low word is stored last (and is never 0: the text starts with a
    // digit), so once it is seen, the high word is there too.
    let l = low.load(Ordering::Acquire);
    if l != 0 {
        let mut text = [0u8; 16];
        text[..8].copy_from_slice(&l.to_le_bytes());
        text[8..].copy_from_slice(&high.load(Ordering::Relaxed).to_le_bytes());
        return Some(text);
    }
    let text = lay_out_small(magnitude, f)?;
    high.store(u64::from_le_bytes(text[8..].try_into().ok()?), Ordering::Relaxed);
    low.store(u64::from_le_bytes(text[..8].try_into().ok()?), Ordering::Release);
    Some(text)
}

/// Found texts of F16 and BF16 magnitudes, two words each (0: not yet).
static F16_TEXT: OnceLock<Box<[AtomicU64]>> = OnceLock::new();
static BF16_TEXT: OnceLock<Box<[AtomicU64]>> = OnceLock::new();

/// [`cached_text`]'s text, laid out afresh; `None` when it is longer than 15 bytes.
fn lay_out_small(magnitude: u64, f: FloatFormat) -> Option<[u8; 16]> {
    let y = to_f64(magnitude, f);
    let ((digits, n), exp) = find_shortest_narrow(magnitude, f);
    let mut buf = Buf::default();
    lay_out(&mut buf, &digits[..n], exp, !(1e-4..1e7).contains(&y));
    let len = buf.0.len();
    let mut text = [0u8; 16];
    text.get_mut(..len).filter(|_| len <= 15)?.copy_from_slice(&buf.0);
    text[15] = len as u8;
    Some(text)
}

/// A text too long for the buffer fills it, so that it reads as too long
/// for a piece rather than as a shorter, wrong text.
impl Sink for Buf {
    fn push_str(&mut self, s: &str) {
        if self.0.try_extend_from_slice(s.as_bytes()).is_err() {
            while self.0.try_push(b'?').is_ok() {}
        }
    }
    fn push_byte(&mut self, b: u8) {
        self.push_str(core::str::from_utf8(&[b]).unwrap_or("?"));
    }
}

/// The shortest digits of `magnitude` in `f`, a format narrower than
/// binary32 (finite, not zero), and the power of ten of the first. The
/// nearest decimal of 1, 2, ... digits is tried in turn (`0.1` for the F16
/// nearest 0.1, not the binary32 shortest `0.099975586`); nine digits
/// always identify a binary32 value, so they identify this one.
fn find_shortest_narrow(magnitude: u64, f: FloatFormat) -> (([u8; 24], usize), i32) {
    let x = to_f64(magnitude, f);
    let mut text = Buf::default();
    for p in 1..=9usize {
        text.0.clear();
        let _ = core::fmt::Write::write_fmt(&mut text, format_args!("{x:.*e}", p - 1));
        let Ok(s) = core::str::from_utf8(&text.0) else { continue };
        if parse_float(s, f) == Ok(magnitude) {
            let (_, digits, exp) = split_decimal(s);
            return (digits, exp);
        }
        // The nearest p digits can miss where the gap below a power of two
        // is half the gap above; the p-digit decimal on x's other side may not.
        let (_, (d, n), exp) = split_decimal(s);
        let mut k: u64 = d[..n].iter().fold(0, |k, c| k * 10 + u64::from(c - b'0'));
        k *= 10u64.pow((p - n) as u32);
        let nearest: f64 = s.parse().unwrap_or(x);
        let k = if nearest < x { k + 1 } else { k - 1 };
        let mut other = Buf::default();
        let _ = core::fmt::Write::write_fmt(&mut other, format_args!("{k}e{}", exp - (p as i32 - 1)));
        if let Ok(o) = core::str::from_utf8(&other.0) {
            if k > 0 && parse_float(o, f) == Ok(magnitude) {
                let (_, digits, exp) = split_decimal(o);
                return (digits, exp);
            }
        }
    }
    let mut buf = ryu::Buffer::new();
    let (_, digits, exp) = split_decimal(buf.format_finite(x as f32));
    (digits, exp)
}

/// A small text buffer on the stack, for [`find_shortest_narrow`]'s tries.
#[derive(Default)]
struct Buf(arrayvec::ArrayVec<u8, 40>);

impl core::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0.try_extend_from_slice(s.as_bytes()).map_err(|_| core::fmt::Error)
    }
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

    /// The cache gives back the text it was given: every third F16 and
    /// BF16 magnitude that is finite and not zero has one (at most 15
    /// bytes), the text the shortest digits lay out to, asked for twice.
    #[test]
    fn cached_texts_are_the_laid_out_texts() {
        for f in [FloatFormat::F16, FloatFormat::BF16] {
            let inf = ((1u64 << f.exponent) - 1) << f.mantissa;
            for magnitude in (1..inf).step_by(3) {
                let y = to_f64(magnitude, f);
                let ((d, n), exp) = find_shortest_narrow(magnitude, f);
                let mut want = String::new();
                lay_out(&mut want, &d[..n], exp, !(1e-4..1e7).contains(&y));
                for _ in 0..2 {
                    let text = cached_text(magnitude, f).expect("F16 and BF16 texts are cached");
                    assert_eq!(&text[..usize::from(text[15])], want.as_bytes(), "{f:?} {magnitude:#x}");
                }
            }
            assert_eq!(cached_text(0, f), None);
            assert_eq!(cached_text(inf, f), None);
            assert_eq!(cached_text(inf | 1, f), None);
        }
    }

    #[test]
    fn integer_errors_say_why() {
        for s in ["99999999999999999999999", "-0x1FFFFFFFFFFFFFFFFF", "0X10000000000000000"] {
            assert!(signed(s).is_none());
            assert!(int_error_message(s).contains("too large"), "{s}");
        }
        for s in ["12a", "0x", "-", "1.5", "0xG"] {
            assert!(int_error_message(s).ends_with("is not an integer"), "{s}");
        }
    }
    const F16: FloatFormat = FloatFormat { exponent: 5, mantissa: 10 };
    const BF16: FloatFormat = FloatFormat { exponent: 8, mantissa: 7 };
    const F32: FloatFormat = FloatFormat { exponent: 8, mantissa: 23 };

    proptest::proptest! {
        /// Hex literals read as `std` prints them, any case, leading zeros
        /// included; past 64 bits they do not read.
        #[test]
        fn hex_literals_read_back(v: u64, zeros in 0usize..20, upper: bool) {
            let digits = if upper { format!("{v:X}") } else { format!("{v:x}") };
            let text = format!("0x{}{digits}", "0".repeat(zeros));
            proptest::prop_assert_eq!(int(&text), Some(v));
            proptest::prop_assert_eq!(int(&format!("0x1{:016x}", v)), None);
        }
    }

    #[test]
    fn malformed_hex_is_not_an_integer() {
        for bad in ["0x", "0x+1", "0x-1", "0x1g", "0x 1", "0x1_0", "0xé"] {
            assert_eq!(int(bad), None, "{bad}");
        }
        assert_eq!(int("0XfF"), Some(255));
    }

    #[test]
    fn known_encodings() {
        // Independent facts about IEEE binary16 / bfloat16 / binary32.
        assert_eq!(parse_float("1", F16), Ok(0x3C00));
        assert_eq!(parse_float("-1", F16), Ok(0xBC00));
        assert_eq!(parse_float("65504", F16), Ok(0x7BFF));
        assert_eq!(parse_float("65519.99", F16), Ok(0x7BFF), "below the rounding boundary to infinity");
        assert_eq!(parse_float("5.960464477539063e-8", F16), Ok(0x0001), "smallest subnormal");
        assert_eq!(parse_float("2.99e-8", F16), Ok(0x0001), "just above half the smallest subnormal");
        assert_eq!(parse_float("1", BF16), Ok(0x3F80));
        assert_eq!(parse_float("-0.25", F32), Ok(0xBE80_0000));
        assert_eq!(parse_float("0f405A7EFA", F32), Ok(0x405A_7EFA));
        assert_eq!(parse_float("-0", F16), Ok(0x8000));
        assert_eq!(parse_float("0.000e7", F32), Ok(0));
        assert_eq!(parse_float("0x10", F32), Err(FloatError::Syntax));
        assert_eq!(parse_float("-inf", F16), Ok(0xFC00));
        assert_eq!(parse_float("0f7F800000", F32), Ok(0x7F80_0000), "raw bits may spell infinity");
        // Every digit, no more and no fewer: `0f7FC0000` lost one of a NaN's.
        for short in ["0f7FC0000", "0f3C0", "0f", "0f07F800000"] {
            assert_eq!(parse_float(short, F32), Err(FloatError::Syntax), "{short}");
        }
        assert_eq!(parse_float("0f3C0", F16), Err(FloatError::Syntax));
        assert_eq!(parse_float("0f3C00", F16), Ok(0x3C00));
        assert_eq!(float_error_message("0f7FC0000", F32, FloatError::Syntax), "`0f7FC0000` is not a 32-bit float: its bits are written `0f` and 8 hex digits (7 here)");
    }

    #[test]
    fn decimals_that_round_away_entirely_are_errors() {
        // 65520 is the binary16 rounding boundary: it rounds to infinity.
        assert_eq!(parse_float("65520", F16), Err(FloatError::Overflow));
        assert_eq!(parse_float("-70000", F16), Err(FloatError::Overflow));
        assert_eq!(parse_float("3.5e38", F32), Err(FloatError::Overflow));
        assert_eq!(parse_float("1e999999", F32), Err(FloatError::Overflow));
        assert_eq!(parse_float("1e39", BF16), Err(FloatError::Overflow));
        // Half the smallest binary16 subnormal (2^-25) ties to even: zero.
        assert_eq!(parse_float("2.98023223876953125e-8", F16), Err(FloatError::Underflow));
        assert_eq!(parse_float("1e-46", F32), Err(FloatError::Underflow));
        assert_eq!(parse_float("-1e-999999", F32), Err(FloatError::Underflow));
        assert_eq!(
            float_error_message("70000", F16, FloatError::Overflow),
            "`70000` is out of range of a 16-bit float (the largest finite value is 65504; infinity is written `inf`)"
        );
        assert_eq!(float_error_message("1e-46", F32, FloatError::Underflow), "`1e-46` rounds to zero in a 32-bit float (the smallest nonzero value is 1e-45)");
        // Bits written as a hex integer: the `0f` spelling of the same bits.
        assert_eq!(parse_float("0x3f800000", F32), Err(FloatError::Syntax));
        assert_eq!(
            float_error_message("0x3f800000", F32, FloatError::Syntax),
            "`0x3f800000` is not a 32-bit float: its bits are written `0f3F800000`, a value as a decimal such as `1.5`"
        );
        assert_eq!(float_error_message("0x3c00", F16, FloatError::Syntax), "`0x3c00` is not a 16-bit float: its bits are written `0f3C00`, a value as a decimal such as `1.5`");
        assert_eq!(
            float_error_message("0x1ffff", F16, FloatError::Syntax),
            "`0x1ffff` is not a 16-bit float: bits are written `0f` and 4 hex digits, a value as a decimal such as `1.5`"
        );
    }

    #[test]
    fn every_f16_and_bf16_prints_and_reads_back() {
        for f in [F16, BF16] {
            for bits in 0..=0xFFFFu64 {
                let t = format_float(bits, f);
                assert_eq!(parse_float(&t, f), Ok(bits), "{bits:#x} printed as {t}");
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
            assert_eq!(parse_float(&t, F32), Ok(x as u64), "{x:#x} printed as {t}");
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
            assert_eq!(parse_float(&ours, f), Ok(bits), "{ours}");
            assert_eq!(parse_float(&std, f), Ok(bits), "{std}");
        }
    }

    /// F16 and BF16 print the shortest decimal that reads back in their own
    /// format (not binary32's: F16 0.1 is `0.1`, not `0.099975586`), the
    /// digits MPFR finds (tools/gen_text_vectors.py; numpy agrees on F16).
    #[test]
    fn narrow_formats_print_their_own_shortest_digits() {
        let vectors = include_str!("../../tests/vectors/text.txt");
        let mut n = 0;
        for line in vectors.lines() {
            let [fmt, bits, digits, exp] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let f = if fmt == "f16" { F16 } else { BF16 };
            let bits = u64::from_str_radix(bits, 16).unwrap();
            let text = format_float(bits, f);
            let (_, (d, k), e) = split_decimal(&text);
            assert_eq!((std::str::from_utf8(&d[..k]).unwrap(), e), (digits, exp.parse().unwrap()), "{fmt} {bits:#x}: {text}");
            n += 1;
        }
        assert!(n > 5000, "{n}");
        assert_eq!(format_float(0x2E66, F16), "0.1");
        assert_eq!(format_float(0x3C01, F16), "1.001");
    }

    /// Decimals at, and a hair (30th digit) or a few units in the last
    /// place around, every kind of F16/BF16 rounding midpoint (subnormal,
    /// binade edges, the top of the range), both signs, read with one
    /// rounding as MPFR rounds them (`tools/gen_text_vectors.py --parse`):
    /// the f64 step and `settle_tie`'s repair against an oracle.
    #[test]
    fn narrow_decimals_round_once_as_mpfr_does() {
        let vectors = include_str!("../../tests/vectors/parse.txt");
        let (mut n, mut wrong, mut bad) = (0, 0, Vec::new());
        let mut kinds = std::collections::BTreeSet::new();
        for line in vectors.lines() {
            let [fmt, text, want] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let f = match fmt {
                "f16" => F16,
                "bf16" => BF16,
                other => panic!("unknown format {other:?}"),
            };
            let want = match want {
                "overflow" => Err(FloatError::Overflow),
                "underflow" => Err(FloatError::Underflow),
                hex => Ok(u64::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("{line}"))),
            };
            kinds.insert((fmt, format!("{:?}", want.map(|_| ()))));
            let got = parse_float(text, f);
            if got != want {
                wrong += 1;
                if bad.len() < 20 {
                    bad.push(format!("{line}: got {got:x?}"));
                }
            }
            n += 1;
        }
        assert!(n > 5000 && kinds.len() == 6, "{n} vectors, {kinds:?}");
        assert!(bad.is_empty(), "{wrong} of {n} differ (the first 20):\n{}", bad.join("\n"));
    }

    /// A decimal on one side of a midpoint of F16 rounds to that side, even
    /// where its f64 rounding lands on the midpoint itself (the review's cases).
    #[test]
    fn narrow_decimals_round_once() {
        // 1 + 5*2^-11 is the midpoint between 0x3C02 and 0x3C03.
        assert_eq!(parse_float("1.00244140625", F16), Ok(0x3C02), "an exact tie: to even");
        assert_eq!(parse_float("1.00244140625000000000001", F16), Ok(0x3C03));
        assert_eq!(parse_float("1.00244140624999999999999", F16), Ok(0x3C02));
        assert_eq!(parse_float("-1.00244140625000000000001", F16), Ok(0xBC03));
        // Just above half the smallest subnormal (2^-25): the subnormal.
        assert_eq!(parse_float("2.98023223876953125000001e-8", F16), Ok(0x0001));
        // Just below the boundary to infinity (65520): the largest finite.
        assert_eq!(parse_float("65519.999999999999999999", F16), Ok(0x7BFF));
        assert_eq!(parse_float("65520.000000000000000001", F16), Err(FloatError::Overflow));
    }

    #[test]
    fn text_matches_rust_formatting() {
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
