//! What the generated printers call: the line they append to and the
//! pieces of text they print (registers, immediates, floats, `c[..][..]`,
//! `.word`). `isa-codegen` turns each opcode's printing rules into one
//! straight-line function of the generated crate (see `isa_codegen::asm::lower`
//! for the rules: first form that can express the word, defaults omitted,
//! optional operands printed when off their defaults); the interpreted
//! disassembler of `isa-codegen` is the reference the tests compare it with.

use super::literal::{push_dec, write_float_lanes, FloatFormat, Sink};
use core::mem::MaybeUninit;

/// Bytes a [`Line`] holds before it spills them into its `String`.
const CAP: usize = 112;

/// The spare capacity a `String` needs for a line to be appended without
/// growing it (the line's buffer is appended whole, then cut back).
pub const LINE_BYTES: usize = CAP + 16;

/// A line being printed. Text goes into a small buffer on the stack, in
/// fixed 16-byte stores that advance by the text's length, so that choosing
/// among texts is a table lookup rather than a branch; the buffer spills
/// into the `String` when full, and at the end of the line. Every write
/// starts with room for 16 bytes at `pos` (`pos <= CAP`), and what lies
/// before `pos` has been written (the rest of the buffer may not have
/// been: it is never zeroed) and is whole `&str`s and ASCII, so spilled
/// text is UTF-8.
pub struct Line<'a> {
    out: &'a mut String,
    /// `out.len()` when the line began.
    start: usize,
    /// Bytes of the line already moved to `out` (`out.len() - start`),
    /// kept here so that marks need not read the `String`.
    spilled: usize,
    /// Bytes of `buf` that belong to the line.
    pos: usize,
    /// Whether every byte ever stored in `buf` is ASCII: pieces and digits
    /// are; a text or byte that is not clears it.
    ascii: bool,
    buf: [MaybeUninit<u8>; CAP + 16],
}

/// An ASCII text of at most 15 bytes, as a printer stores it: the bytes,
/// then the length in byte 15, or [`NO_PIECE`] for "no text" (the form
/// cannot print). Only this module's `const fn`s make pieces, so every byte
/// of one is ASCII, which [`Line`] relies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece([u8; 16]);

/// The piece that stands for "no text": printing it fails.
pub const NO_PIECE: Piece = {
    let mut p = [0u8; 16];
    p[15] = NONE;
    Piece(p)
};

/// The piece of no text at all.
pub const EMPTY_PIECE: Piece = Piece([0; 16]);

/// Byte 15 of [`NO_PIECE`]: ASCII, and length 0 under the length mask.
const NONE: u8 = 0x40;

/// The piece holding `s`; a compile-time error when `s` is longer than 15
/// bytes or not ASCII (the generator uses pieces only for texts that fit).
pub const fn piece(s: &str) -> Piece {
    let b = s.as_bytes();
    assert!(b.len() <= 15 && b.is_ascii(), "a piece holds at most 15 ASCII bytes");
    let mut p = [0u8; 16];
    let mut i = 0;
    while i < b.len() {
        p[i] = b[i];
        i += 1;
    }
    p[15] = b.len() as u8;
    Piece(p)
}

/// A table of pieces, [`NO_PIECE`] where `items` has `None`.
pub const fn pieces<const N: usize>(items: [Option<&str>; N]) -> [Piece; N] {
    let mut t = [NO_PIECE; N];
    let mut i = 0;
    while i < N {
        if let Some(s) = items[i] {
            t[i] = piece(s);
        }
        i += 1;
    }
    t
}

/// The names of registers 0..=255 of a class: its named registers (the
/// first name of a number wins), else `prefix` and the number, or the pair
/// `prefix[n:n+1]` when `pair`. A name longer than 15 bytes, or not ASCII,
/// is [`NO_PIECE`], for the printer to spell out the slow way.
pub const fn register_pieces(prefix: &str, named: &[(&str, u64)], pair: bool) -> [Piece; 256] {
    let mut t = [NO_PIECE; 256];
    let mut r = 0;
    while r < 256 {
        t[r] = register_piece(prefix, named, pair, r as u64);
        r += 1;
    }
    t
}

const fn register_piece(prefix: &str, named: &[(&str, u64)], pair: bool, r: u64) -> Piece {
    let mut k = 0;
    while k < named.len() {
        if named[k].1 == r {
            let name = named[k].0;
            return if name.len() <= 15 && name.is_ascii() { piece(name) } else { NO_PIECE };
        }
        k += 1;
    }
    let mut p = [0u8; 16];
    let mut n = append(&mut p, 0, prefix.as_bytes());
    if pair {
        n = append(&mut p, n, b"[");
        n = append_dec(&mut p, n, r);
        n = append(&mut p, n, b":");
        n = append_dec(&mut p, n, r + 1);
        n = append(&mut p, n, b"]");
    } else {
        n = append_dec(&mut p, n, r);
    }
    if n > 15 || !prefix.is_ascii() {
        return NO_PIECE;
    }
    p[15] = n as u8;
    Piece(p)
}

/// Appends `s` to a piece being built at `n`; the new length (past 15: too long).
const fn append(p: &mut [u8; 16], n: usize, s: &[u8]) -> usize {
    let mut i = 0;
    while i < s.len() {
        if n + i < 15 {
            p[n + i] = s[i];
        }
        i += 1;
    }
    n + s.len()
}

/// Appends the decimal digits of `v` (below 1000) to a piece being built.
const fn append_dec(p: &mut [u8; 16], n: usize, v: u64) -> usize {
    let d = [b'0' + (v / 100 % 10) as u8, b'0' + (v / 10 % 10) as u8, b'0' + (v % 10) as u8];
    let (d, _) = d.split_at(3);
    if v >= 100 {
        append(p, n, d)
    } else if v >= 10 {
        append(p, n, d.split_at(1).1)
    } else {
        append(p, n, d.split_at(2).1)
    }
}

impl Line<'_> {
    /// The length so far, to [`Line::reset`] to.
    #[inline(always)]
    pub fn mark(&self) -> usize {
        self.spilled + self.pos
    }

    /// Drops what was printed after `mark`.
    #[inline]
    pub fn reset(&mut self, mark: usize) {
        if mark >= self.spilled {
            self.pos = mark - self.spilled;
        } else {
            self.unspill(mark);
        }
    }

    /// Drops what was printed after `mark`, which lies in spilled text.
    #[cold]
    #[inline(never)]
    fn unspill(&mut self, mark: usize) {
        self.out.truncate(self.start + mark);
        self.spilled = mark;
        self.pos = 0;
    }

    /// Drops what was printed after `mark` unless `keep`, without a branch
    /// on `keep` (which follows the word's bits).
    #[inline(always)]
    pub fn keep_if(&mut self, keep: bool, mark: usize) {
        if mark < self.spilled {
            if !keep {
                self.unspill(mark);
            }
            return;
        }
        self.pos = core::hint::select_unpredictable(keep, self.pos, mark - self.spilled);
    }

    /// Moves the buffer's text to the `String` (the buffer is full).
    #[cold]
    #[inline(never)]
    fn spill(&mut self) {
        self.flush();
    }

    /// Moves the buffer's text to the `String`.
    #[inline(always)]
    fn flush(&mut self) {
        let len = self.out.len() + self.pos;
        if self.ascii {
            // SAFETY: the bytes are only made part of the `String` up to
            // `pos`, and those have all been written and are ASCII (`ascii`),
            // so the `String` stays UTF-8. The whole buffer is copied (a copy
            // of fixed size, no call) into capacity just reserved.
            let v = unsafe { self.out.as_mut_vec() };
            v.reserve(CAP + 16);
            if let Some(spare) = v.spare_capacity_mut().get_mut(..CAP + 16) {
                spare.copy_from_slice(&self.buf);
                // SAFETY: `len - v.len()` = `pos` bytes were initialized just
                // above and fit the capacity (`pos <= CAP + 16`).
                unsafe { v.set_len(len) };
            }
        } else {
            // The line's bytes are whole `&str`s, so this is UTF-8 too (but
            // not known to be without a check).
            let written = self.buf.get(..self.pos).unwrap_or_default();
            // SAFETY: the first `pos` bytes of the buffer have been written.
            let written = unsafe { &*(written as *const [MaybeUninit<u8>] as *const [u8]) };
            self.out.push_str(&String::from_utf8_lossy(written));
        }
        self.spilled += self.pos;
        self.pos = 0;
    }

    /// Room for one 16-byte store at `pos`: `pos`, at most `CAP` (spilling
    /// first if need be), which lets the compiler drop the bounds check of
    /// the store.
    #[inline(always)]
    fn room(&mut self) -> usize {
        if self.pos > CAP {
            self.spill();
            0
        } else {
            self.pos
        }
    }

    /// Appends a piece; `false` (and nothing appended) for [`NO_PIECE`].
    #[inline(always)]
    pub fn piece(&mut self, p: &Piece) -> bool {
        self.put(p.0, piece_len(p));
        piece_ok(p)
    }

    /// Stores 16 bytes at the end of the line and keeps the first `n` (at most 16).
    #[inline(always)]
    fn put(&mut self, bytes: [u8; 16], n: usize) {
        let at = self.room();
        self.buf[at..at + 16].copy_from_slice(&bytes.map(MaybeUninit::new));
        self.pos = at + n;
    }

    /// Appends `, ` when `comma`, else ` `, without a branch on `comma`.
    #[inline(always)]
    pub fn separator(&mut self, comma: bool) {
        self.piece(&SEPARATORS[comma as usize]);
    }

    /// Appends `b` when `on`, without a branch on `on`.
    #[inline(always)]
    pub fn byte_if(&mut self, b: u8, on: bool) {
        self.ascii &= b.is_ascii();
        let at = self.room();
        self.buf[at] = MaybeUninit::new(b);
        self.pos = at + on as usize;
    }

    /// Appends `text`, lower-case hex digits of `v`, then keeps them only
    /// when `shown`: ` &sched=0x1f`.
    #[inline(always)]
    pub fn control(&mut self, text: &str, v: u64, shown: bool) {
        let mark = self.mark();
        self.push_str(text);
        self.hex_digits(v, false);
        self.keep_if(shown, mark);
    }

    /// Appends the hex digits of `v`, no leading zeros (one digit for 0).
    #[inline(always)]
    fn hex_digits(&mut self, v: u64, upper: bool) {
        let (digits, n) = hex_digits(v, upper);
        self.put(digits, n);
    }
}

/// Whether a piece stands for text (is not [`NO_PIECE`]).
#[inline(always)]
pub fn piece_ok(p: &Piece) -> bool {
    p.0[15] & NONE == 0
}

/// The length of a piece's text.
#[inline(always)]
pub fn piece_len(p: &Piece) -> usize {
    (p.0[15] & 15) as usize
}

/// The hex digits of `v`, most significant first, and how many there are
/// (no leading zeros; one digit for 0), with no branch or loop.
#[inline(always)]
fn hex_digits(v: u64, upper: bool) -> ([u8; 16], usize) {
    let n = ((67 - v.leading_zeros()) / 4).max(1) as usize;
    ((hex16(v, upper) >> (8 * (16 - n))).to_le_bytes(), n)
}

/// All 16 hex digits of `v` as ASCII bytes of a little-endian `u128`, most
/// significant digit first.
#[inline(always)]
fn hex16(v: u64, upper: bool) -> u128 {
    // SAFETY: compiled only where SSE2 is enabled for the whole program.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return unsafe { hex16_sse2(v, upper) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return hex16_words(v, upper);
}

/// [`hex16`] with SSE2 (every x86-64 has it): the bytes of `v` unpacked to
/// one nibble per byte, then a compare and two adds.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn hex16_sse2(v: u64, upper: bool) -> u128 {
    use core::arch::x86_64::*;
    let x = _mm_cvtsi64_si128(v.swap_bytes() as i64);
    let low4 = _mm_set1_epi8(0x0F);
    let high = _mm_and_si128(_mm_srli_epi16::<4>(x), low4);
    let nibbles = _mm_unpacklo_epi8(high, _mm_and_si128(x, low4));
    let letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, _mm_set1_epi8(9)), _mm_set1_epi8(if upper { 7 } else { 39 }));
    let ascii = _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8(b'0' as i8)), letters);
    // SAFETY: `__m128i` and `u128` are both 16 bytes of plain data.
    u128::from_le(unsafe { core::mem::transmute::<__m128i, u128>(ascii) })
}

/// [`hex16`] with word arithmetic: nibbles spread to bytes, then turned to
/// ASCII (the portable version).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn hex16_words(v: u64, upper: bool) -> u128 {
    const LANES32: u128 = 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF;
    const LANES16: u128 = 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    const LANES8: u128 = 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    const LOW4: u128 = 0x000F_000F_000F_000F_000F_000F_000F_000F;
    const BYTES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    // Byte j of `x` (little-endian) holds byte 7 - j of `v`, in 16-bit lanes.
    let mut x = v.swap_bytes() as u128;
    x = (x | x << 32) & LANES32;
    x = (x | x << 16) & LANES16;
    x = (x | x << 8) & LANES8;
    // High nibble first within each lane: one nibble per byte, most significant first.
    x = (x >> 4 & LOW4) | (x & LOW4) << 8;
    let letters = (x + 0x76 * BYTES) >> 7 & BYTES;
    x + 0x30 * BYTES + letters * if upper { 7 } else { 39 }
}

impl Sink for Line<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.ascii &= s.is_ascii();
        let b = s.as_bytes();
        if self.pos + b.len() > CAP {
            self.spill();
            if b.len() > CAP {
                self.out.push_str(s);
                self.spilled += b.len();
                return;
            }
        }
        let at = self.pos;
        if let Some(dst) = self.buf.get_mut(at..at + b.len()) {
            // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and every
            // `u8` is an initialized `MaybeUninit<u8>`.
            dst.copy_from_slice(unsafe { &*(b as *const [u8] as *const [MaybeUninit<u8>]) });
        }
        self.pos = at + b.len();
    }
    #[inline(always)]
    fn push_byte(&mut self, b: u8) {
        self.byte_if(b, true);
    }
}

/// Runs `print` on word `w`, appending the line to `out`.
#[inline(always)]
pub fn write_with(print: impl Fn(u128, &mut Line), w: u128, out: &mut String) {
    let start = out.len();
    let mut line = Line { out, start, spilled: 0, pos: 0, ascii: true, buf: [MaybeUninit::uninit(); CAP + 16] };
    print(w, &mut line);
    line.flush();
}

/// `.word 0x` and the 32 hex digits of `w`: a word no form prints.
pub fn word(w: u128, out: &mut Line) {
    out.push_str(".word 0x");
    out.put(hex16((w >> 64) as u64, false).to_le_bytes(), 16);
    out.put(hex16(w as u64, false).to_le_bytes(), 16);
}

/// Decimal digits of `v`.
#[inline]
pub fn dec(out: &mut Line, v: u64) {
    push_dec(out, v);
}

/// A register of a class the model lacks: its number in hex.
#[inline]
pub fn raw_register(out: &mut Line, v: u64) {
    out.push_str("0x");
    out.hex_digits(v, false);
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

/// ` ` or `, `, as pieces indexed by "comma".
const SEPARATORS: [Piece; 2] = pieces([Some(" "), Some(", ")]);

/// `0x` or `-0x`, as pieces indexed by "is negative".
const SIGNED_HEX: [Piece; 2] = pieces([Some("0x"), Some("-0x")]);

/// `+0x` or `-0x`, as pieces indexed by "is negative".
const OFFSET_HEX: [Piece; 2] = pieces([Some("+0x"), Some("-0x")]);

/// An integer immediate: `0x1F`, `-0x10`.
#[inline]
pub fn int(out: &mut Line, s: i128) {
    out.piece(&SIGNED_HEX[(s < 0) as usize]);
    out.hex_digits(s.unsigned_abs() as u64, true);
}

/// An index offset: `+0x1F`, `-0x10`, nothing when zero.
#[inline]
pub fn offset(out: &mut Line, v: i128) {
    let mark = out.mark();
    out.piece(&OFFSET_HEX[(v < 0) as usize]);
    out.hex_digits(v.unsigned_abs() as u64, true);
    out.keep_if(v != 0, mark);
}

/// `c[0x3][0x18]`.
#[inline(always)]
pub fn const_mem(out: &mut Line, bank: u64, offset: u64) {
    out.push_str("c[0x");
    out.hex_digits(bank, false);
    out.push_str("][0x");
    out.hex_digits(offset, false);
    out.push_byte(b']');
}

/// Float lanes of a `width`-bit field holding `v`, in `fmt`, separated by `, `.
#[inline]
pub fn floats(out: &mut Line, v: u64, width: u8, fmt: FloatFormat, lanes: u32) {
    let lanes = if fmt.width() < width as u32 { width as u32 / fmt.width() } else { lanes.max(1) };
    write_float_lanes(out, v, lanes, fmt);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Prints with `print` into a fresh `String` that already holds `before`.
    fn line(before: &str, print: impl Fn(u128, &mut Line)) -> String {
        let mut s = before.to_string();
        write_with(print, 0, &mut s);
        s
    }

    proptest! {
        #[test]
        fn both_hex_versions_agree(v in any::<u64>(), upper in any::<bool>()) {
            prop_assert_eq!(hex16(v, upper), hex16_words(v, upper));
        }

        #[test]
        fn hex_digits_are_std_hex(v in any::<u64>(), shift in 0u32..64) {
            for v in [v, v >> shift] {
                let (d, n) = hex_digits(v, false);
                prop_assert_eq!(std::str::from_utf8(&d[..n]).unwrap(), format!("{v:x}"));
                let (d, n) = hex_digits(v, true);
                prop_assert_eq!(std::str::from_utf8(&d[..n]).unwrap(), format!("{v:X}"));
            }
        }

        #[test]
        fn immediates_read_as_std_formats(s in any::<i64>()) {
            let s = s as i128;
            let sign = if s < 0 { "-" } else { "" };
            prop_assert_eq!(line("", |_, out| int(out, s)), format!("{sign}0x{:X}", s.unsigned_abs()));
            let text = line("", |_, out| offset(out, s));
            let want = if s == 0 { String::new() } else { format!("{}0x{:X}", if s < 0 { '-' } else { '+' }, s.unsigned_abs()) };
            prop_assert_eq!(text, want);
        }

        /// Pieces, bytes, strings and dropped parts of any length make the
        /// same text as `String` pushes, across spills of the buffer.
        #[test]
        fn a_line_is_its_writes_in_order(ops in proptest::collection::vec((0u8..5, "[a-z.é]{0,40}", any::<bool>()), 0..40)) {
            let mut want = String::from("prefix ");
            for (kind, text, on) in &ops {
                let t: String = text.chars().filter(|c| c.is_ascii()).take(15).collect();
                match kind {
                    0 => want.push_str(&t),
                    1 => want.push_str(text),
                    2 => if *on { want.push('!') },
                    3 => want.push_str(&format!(" &x=0x{:x}", t.len()).repeat(*on as usize)),
                    _ => if *on { want.push_str(text) },
                }
            }
            let got = line("prefix ", |_, out| {
                for (kind, text, on) in &ops {
                    let t: String = text.chars().filter(|c| c.is_ascii()).take(15).collect();
                    match kind {
                        0 => { out.piece(&piece_of(&t)); }
                        1 => out.push_str(text),
                        2 => out.byte_if(b'!', *on),
                        3 => out.control(" &x=0x", t.len() as u64, *on),
                        _ => {
                            let mark = out.mark();
                            out.push_str(text);
                            out.keep_if(*on, mark);
                        }
                    }
                }
            });
            prop_assert_eq!(got, want);
        }
    }

    /// A piece built at run time (the tables build theirs at compile time).
    fn piece_of(s: &str) -> Piece {
        piece(s)
    }

    #[test]
    fn registers_are_named_numbered_or_paired() {
        let t = register_pieces("R", &[("RZ", 255)], false);
        let p = register_pieces("R", &[("RZ", 255)], true);
        let text = |p: &Piece| line("", |_, out| assert!(out.piece(p)));
        assert_eq!(text(&t[0]), "R0");
        assert_eq!(text(&t[42]), "R42");
        assert_eq!(text(&t[254]), "R254");
        assert_eq!(text(&t[255]), "RZ");
        assert_eq!(text(&p[4]), "R[4:5]");
        assert_eq!(text(&p[254]), "R[254:255]");
        assert_eq!(text(&p[255]), "RZ", "a name wins over a pair");
        // Too long for a piece: left to the printer's slow path.
        let long = register_pieces("LONGPREFIX", &[("AVERYLONGREGISTERNAME", 1)], true);
        assert_eq!(long[1], NO_PIECE);
        assert_eq!(long[200], NO_PIECE);
        assert_eq!(text(&long[2]), "LONGPREFIX[2:3]");
    }

    #[test]
    fn no_piece_prints_nothing_and_fails() {
        let s = line("x", |_, out| {
            assert!(!out.piece(&NO_PIECE));
            assert!(out.piece(&EMPTY_PIECE));
            assert!(out.piece(&piece(".FTZ")));
        });
        assert_eq!(s, "x.FTZ");
    }

    #[test]
    fn words_and_constant_memory() {
        assert_eq!(line("", |_, out| word(0x0123_4567_89ab_cdef_0000_0000_0000_00f1, out)), ".word 0x0123456789abcdef00000000000000f1");
        assert_eq!(line("", |_, out| const_mem(out, 0x3, 0x18)), "c[0x3][0x18]");
        assert_eq!(line("", |_, out| const_mem(out, 0, u64::MAX)), "c[0x0][0xffffffffffffffff]");
    }
}
