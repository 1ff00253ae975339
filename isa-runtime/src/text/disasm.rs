//! What the generated printers call: the line they append to and the
//! pieces of text they print (registers, immediates, floats, `c[..][..]`,
//! `.word`). `isa-codegen` turns each opcode's printing rules into one
//! straight-line function of the generated crate (see `isa_codegen::asm::lower`
//! for the rules: first form that can express the word, defaults omitted,
//! optional operands printed when off their defaults); the interpreted
//! disassembler of `isa-codegen` is the reference the tests compare it with.

use super::literal::{push_dec, write_float, FloatFormat, Sink};

/// A line being printed: the `String` it is appended to, and where it starts.
pub struct Line<'a> {
    out: &'a mut String,
    start: usize,
}

impl Line<'_> {
    /// The length so far, to [`Line::reset`] to.
    #[inline(always)]
    pub fn mark(&self) -> usize {
        self.out.len() - self.start
    }

    /// Drops what was printed after `mark`.
    #[inline(always)]
    pub fn reset(&mut self, mark: usize) {
        self.out.truncate(self.start + mark);
    }
}

impl Sink for Line<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.out.push_str(s);
    }
    #[inline(always)]
    fn push_byte(&mut self, b: u8) {
        self.out.push(b as char);
    }
}

/// Runs `print` on word `w`, appending the line to `out`.
#[inline(always)]
pub fn write_with(print: impl Fn(u128, &mut Line), w: u128, out: &mut String) {
    // Most lines fit, so pushes seldom grow the string.
    out.reserve(64);
    let start = out.len();
    print(w, &mut Line { out, start });
}

/// `.word 0x` and the 32 hex digits of `w`: a word no form prints.
pub fn word(w: u128, out: &mut Line) {
    out.push_str(".word 0x");
    push_hex64(out, (w >> 64) as u64, 16, false);
    push_hex64(out, w as u64, 16, false);
}

const DIGITS_LOWER: &[u8; 16] = b"0123456789abcdef";
const DIGITS_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Hex digits of `v`, at least `min` (at most 16) of them.
#[inline]
fn push_hex64<S: Sink>(out: &mut S, v: u64, min: usize, upper: bool) {
    let digits = if upper { DIGITS_UPPER } else { DIGITS_LOWER };
    let n = (((64 - v.leading_zeros()) as usize).div_ceil(4)).clamp(min.max(1), 16);
    for i in (0..n).rev() {
        out.push_byte(digits[(v >> (4 * i) & 15) as usize]);
    }
}

/// Decimal digits of `v`.
#[inline]
pub fn dec(out: &mut Line, v: u64) {
    push_dec(out, v);
}

/// Hex digits of `v` (lower case).
#[inline]
pub fn hex(out: &mut Line, v: u64) {
    push_hex64(out, v, 1, false);
}

/// A register of a class the model lacks: its number in hex.
#[inline]
pub fn raw_register(out: &mut Line, v: u64) {
    out.push_str("0x");
    push_hex64(out, v, 1, false);
}

/// A field's value, sign-extended from `width` bits when `signed`.
#[inline(always)]
pub fn sign_extend(v: u64, width: u8, signed: bool) -> i128 {
    if signed && width < 64 && v >> (width - 1) & 1 == 1 {
        v as i128 - (1i128 << width)
    } else {
        v as i128
    }
}

/// An integer immediate: `0x1F`, `-0x10`.
#[inline]
pub fn int(out: &mut Line, s: i128) {
    out.push_str(if s < 0 { "-0x" } else { "0x" });
    push_hex64(out, s.unsigned_abs() as u64, 1, true);
}

/// An index offset: `+0x1F`, `-0x10`, nothing when zero.
#[inline]
pub fn offset(out: &mut Line, v: i128) {
    if v != 0 {
        out.push_str(if v < 0 { "-0x" } else { "+0x" });
        push_hex64(out, v.unsigned_abs() as u64, 1, true);
    }
}

/// `c[0x3][0x18]`.
#[inline]
pub fn const_mem(out: &mut Line, bank: u64, offset: u64) {
    out.push_str("c[0x");
    push_hex64(out, bank, 1, false);
    out.push_str("][0x");
    push_hex64(out, offset, 1, false);
    out.push_byte(b']');
}

/// Float lanes of a `width`-bit field holding `v`, in `fmt`, separated by `, `.
#[inline]
pub fn floats(out: &mut Line, v: u64, width: u8, fmt: FloatFormat, lanes: u32) {
    let lanes = if fmt.width() < width as u32 { width as u32 / fmt.width() } else { lanes.max(1) };
    let lane_mask = if fmt.width() >= 64 { u64::MAX } else { (1u64 << fmt.width()) - 1 };
    for lane in 0..lanes {
        if lane > 0 {
            out.push_str(", ");
        }
        let b = (v >> (fmt.width() * (lanes - 1 - lane))) & lane_mask;
        write_float(out, b, fmt);
    }
}
