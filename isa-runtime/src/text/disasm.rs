//! What the generated printers call: the line they append to and the
//! pieces of text they print (registers, immediates, floats, `c[..][..]`,
//! `.word`). `isa-codegen` turns each opcode's printing rules into one
//! straight-line function of the generated crate (see `isa_codegen::asm::lower`
//! for the rules: first form that can express the word, defaults omitted,
//! optional operands printed when off their defaults); the interpreted
//! disassembler of `isa-codegen` is the reference the tests compare it with.

use super::literal::{push_dec, write_float_lanes, FloatFormat, Sink};

/// What a line's `String` grows by beyond what a checked write needs, so
/// that a long line (floats, long names) grows it once or twice, not on
/// every write.
pub const LINE_BYTES: usize = 256;

/// How far each method of [`Line`] that stores without a check (see
/// [`Line`]) can move a line's end, by name. The generator adds these (and
/// [`UNCHECKED_FNS`]) up over every call in a printer to get the printer's
/// `spare` (`print`), so a helper added or changed must keep its entry
/// true (the tests in this module hold each one to it). A public helper not
/// listed stores only with a check, or not at all.
pub const UNCHECKED_METHODS: &[(&str, usize)] = &[("piece", 15), ("byte_if", 1), ("separator", 2), ("control", 16)];

/// [`UNCHECKED_METHODS`] for the functions of this module that print.
pub const UNCHECKED_FNS: &[(&str, usize)] = &[("int", 19), ("offset", 19), ("const_mem", 32), ("raw_register", 16), ("word", 32)];

/// A line being printed, straight into the spare capacity of the `String`
/// it is appended to, which becomes part of the `String` only when the line
/// is done (so the bytes are written once, and never read back).
///
/// Text goes in as fixed 16-byte stores at `pos` that advance it by the
/// text's length, so that choosing among texts is a table lookup rather
/// than a branch. A store needs `pos <= limit` (then its 16 bytes lie in
/// the capacity); `Line::at` makes sure of it with a branch that the
/// generated printers never take, thanks to `spare`: the most that all the
/// unchecked stores of the printer together can advance the line (the
/// generator's sum of [`UNCHECKED_METHODS`] and [`UNCHECKED_FNS`] over its
/// calls). The line starts with `limit >= spare`, and every checked write
/// (text of any length, [`Sink`]) leaves `limit >= pos + spare`, growing
/// the `String` when it must. From the last checked write on, `pos` grows
/// by at most `spare` (a reset only lowers it), so it stays at or before
/// `limit`. A `spare` too small (a caller's mistake) makes the line panic
/// rather than store out of the capacity. What lies before `pos` has been written
/// and is whole `&str`s (ASCII while `ascii` holds); what lies beyond it
/// may never have been written.
pub struct Line<'a> {
    out: &'a mut String,
    /// `out.len()`, where the line begins; the `String`'s length stays
    /// there until the line is done.
    start: usize,
    /// `out`'s buffer at `start`.
    base: *mut u8,
    /// Bytes of the line written.
    pos: usize,
    /// The largest `pos` with 16 bytes of capacity after it.
    limit: usize,
    /// The most the printer's unchecked stores advance the line, all together.
    spare: usize,
    /// Whether every byte ever stored is ASCII: pieces and digits are; a
    /// text or byte that is not clears it.
    ascii: bool,
}

/// An ASCII text of at most 15 bytes, as a printer stores it: the bytes,
/// then the length in byte 15 (so that the length is the byte as it is,
/// with no mask), or [`NO_PIECE`] for "no text" (the form cannot print).
/// Only this module's `const fn`s make pieces, so a piece's text is ASCII,
/// which [`Line`] relies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece([u8; 16]);

/// The piece that stands for "no text": printing it fails, and moves the
/// line by nothing (its length is 0).
pub const NO_PIECE: Piece = {
    let mut p = [0u8; 16];
    p[14] = NONE;
    Piece(p)
};

/// The piece of no text at all.
pub const EMPTY_PIECE: Piece = Piece([0; 16]);

/// Byte 14 of [`NO_PIECE`]: not ASCII, so no piece of text has it there
/// (a 15-byte text ends at byte 14). It is stored past the line's end, so
/// it never becomes part of the line.
const NONE: u8 = 0x80;

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

/// A line's `base` and `limit` in `out` when it starts at `start`.
#[inline(always)]
fn locate(out: &mut String, start: usize) -> (*mut u8, usize) {
    // SAFETY: only the pointer is taken; the bytes are written through it
    // within the capacity (`limit`), never beyond.
    let v = unsafe { out.as_mut_vec() };
    (v.as_mut_ptr().wrapping_add(start), v.capacity() - start - 16)
}

/// Grows `out` for a line at `start` with `pos` bytes written, so that
/// `limit >= pos + extra`, and takes the line's bytes along; the line's new
/// `base` and `limit`.
#[cold]
#[inline(never)]
fn grow(out: &mut String, start: usize, pos: usize, extra: usize) -> (*mut u8, usize) {
    // SAFETY: the first `pos` bytes after `start` have been written (`pos
    // <= limit`), and they are whole `&str`s (UTF-8); `Vec::reserve` keeps
    // only the bytes within the length, so they are part of it while it
    // reallocates, then the length goes back to `start` (which leaves the
    // bytes where they are).
    let v = unsafe { out.as_mut_vec() };
    unsafe { v.set_len(start + pos) };
    v.reserve(extra + 16 + LINE_BYTES);
    v.truncate(start);
    locate(out, start)
}

impl<'a> Line<'a> {
    /// A line to be appended to `out` by a printer whose unchecked stores
    /// advance it by at most `spare` bytes in all (see [`Line`]); it is
    /// part of `out` once [`Line::finish`]ed (dropped unfinished, it is not).
    #[inline(always)]
    pub fn new(out: &'a mut String, spare: usize) -> Self {
        let start = out.len();
        out.reserve(spare + 16);
        let (base, limit) = locate(out, start);
        Line { out, start, base, pos: 0, limit, spare, ascii: true }
    }

    /// Runs `f` on a copy of the line, then takes the copy's state back.
    /// Every call a printer does not inline goes through this, so that the
    /// printer's own line never has its address taken: the compiler then
    /// knows the text stores cannot touch the line's fields, and keeps
    /// them in registers.
    #[inline(always)]
    pub fn detached<R>(&mut self, f: impl FnOnce(&mut Line<'_>) -> R) -> R {
        let mut copy = Line { out: &mut *self.out, start: self.start, base: self.base, pos: self.pos, limit: self.limit, spare: self.spare, ascii: self.ascii };
        let r = f(&mut copy);
        let (base, pos, limit, ascii) = (copy.base, copy.pos, copy.limit, copy.ascii);
        (self.base, self.pos, self.limit, self.ascii) = (base, pos, limit, ascii);
        r
    }

    /// Makes room for `n` bytes written with a check at `pos`, keeping
    /// `limit >= pos + n + spare` (see [`Line`]).
    #[inline(always)]
    fn ensure(&mut self, n: usize) {
        if self.pos + n + self.spare > self.limit {
            (self.base, self.limit) = grow(self.out, self.start, self.pos, n + self.spare);
        }
    }

    /// Makes the line part of the `String`.
    #[inline(always)]
    pub fn finish(self) {
        if self.pos > self.limit {
            spare_exceeded();
        }
        let end = self.start + self.pos;
        if self.ascii {
            // SAFETY: the `pos` bytes after `start` are written, within the
            // capacity (`pos <= limit`), and ASCII, so the `String` stays
            // UTF-8.
            unsafe { self.out.as_mut_vec().set_len(end) };
        } else {
            self.finish_unicode(end);
        }
    }

    /// [`Line::finish`] for a line with text that is not ASCII: whole
    /// `&str`s, so UTF-8, but checked rather than trusted.
    #[cold]
    #[inline(never)]
    fn finish_unicode(self, end: usize) {
        // SAFETY: the `pos` bytes after `start` have been written.
        let written = unsafe { core::slice::from_raw_parts(self.base, self.pos) };
        match core::str::from_utf8(written) {
            // SAFETY: they are UTF-8, and within the capacity.
            Ok(_) => unsafe { self.out.as_mut_vec().set_len(end) },
            Err(_) => {
                let text = String::from_utf8_lossy(written).into_owned();
                self.out.push_str(&text);
            }
        }
    }

    /// The length so far, to [`Line::reset`] to.
    #[inline(always)]
    pub fn mark(&self) -> usize {
        self.pos
    }

    /// Drops what was printed after `mark`.
    #[inline(always)]
    pub fn reset(&mut self, mark: usize) {
        self.pos = mark.min(self.pos);
    }

    /// Drops what was printed after `mark` unless `keep`, without a branch
    /// on `keep` (which follows the word's bits).
    #[inline(always)]
    pub fn keep_if(&mut self, keep: bool, mark: usize) {
        self.pos = core::hint::select_unpredictable(keep, self.pos, mark.min(self.pos));
    }

    /// Where the next 16-byte store goes: `pos`, at or before `limit`.
    /// That holds whenever the printer's `spare` is true (see [`Line`]);
    /// should it not (a caller's mistake, never the input's), the line
    /// panics rather than store outside the `String`, so no `spare` makes
    /// a store unsound. The test is a compare and a branch never taken to
    /// one shared place, which costs less than the clamp it replaced.
    #[inline(always)]
    fn at(&self) -> usize {
        if self.pos > self.limit {
            spare_exceeded();
        }
        self.pos
    }

    /// Appends a piece; `false` (and nothing appended) for [`NO_PIECE`].
    #[inline(always)]
    pub fn piece(&mut self, p: &Piece) -> bool {
        // SAFETY: `at() <= limit` (see [`Line::at`]), so the 16 bytes lie
        // within the capacity. (A copy from the piece in memory, not `put` of its bytes by
        // value: that way it is one 16-byte load and store.)
        let at = self.at();
        unsafe { core::ptr::copy_nonoverlapping(p.0.as_ptr(), self.base.add(at), 16) };
        self.pos += piece_len(p);
        piece_ok(p)
    }

    /// Stores 16 bytes at the end of the line and keeps the first `n` (at most 16).
    #[inline(always)]
    fn put(&mut self, bytes: [u8; 16], n: usize) {
        // SAFETY: `at() <= limit`, so the 16 bytes lie within the capacity.
        let at = self.at();
        unsafe { core::ptr::write_unaligned(self.base.add(at) as *mut u128, u128::from_ne_bytes(bytes)) };
        self.pos += n;
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
        // SAFETY: `at() <= limit`, within the capacity.
        let at = self.at();
        unsafe { self.base.add(at).write(b) };
        self.pos += on as usize;
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

/// What a line does when its printer stores more than its `spare` allows
/// (see [`Line::at`]): a bug in the printer, not in its input.
#[cold]
#[inline(never)]
fn spare_exceeded() -> ! {
    panic!("a printer stored past the room its spare allows: its spare is counted short")
}

/// Whether a piece stands for text (is not [`NO_PIECE`]).
#[inline(always)]
pub fn piece_ok(p: &Piece) -> bool {
    p.0[14] != NONE
}

/// The length of a piece's text.
#[inline(always)]
pub fn piece_len(p: &Piece) -> usize {
    p.0[15] as usize
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

/// Prints a line with `body` and appends it to `out`. `spare` should be at
/// least the sum, over every call in `body` of a helper listed in
/// [`UNCHECKED_METHODS`] or [`UNCHECKED_FNS`], of its entry (the generator
/// computes it for each printer): then no store checks more than a never
/// taken branch (see [`Line`]). With a smaller one the line panics before
/// it would store past its room (a bug in the printer, never in the word).
#[inline(always)]
pub fn print(out: &mut String, spare: usize, body: impl FnOnce(&mut Line)) {
    let mut line = Line::new(out, spare);
    body(&mut line);
    line.finish()
}

impl Sink for Line<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.ascii &= s.is_ascii();
        let b = s.as_bytes();
        self.ensure(b.len());
        // SAFETY: `pos + len <= limit`, within the capacity; `s` is not
        // part of the `String` (it is borrowed while the line is not).
        unsafe { core::ptr::copy_nonoverlapping(b.as_ptr(), self.base.add(self.pos), b.len()) };
        self.pos += b.len();
    }
    #[inline(always)]
    fn push_byte(&mut self, b: u8) {
        self.ensure(1);
        self.byte_if(b, true);
    }
    /// One 16-byte store, checked once (a float's cached text).
    #[inline(always)]
    fn push_small(&mut self, text: &[u8; 16]) {
        let n = usize::from(text[15]).min(15);
        self.ascii &= text[..n].is_ascii();
        self.ensure(16);
        self.put(*text, n);
    }
}

/// `.word 0x` and the 32 hex digits of `w`: a word no form prints.
#[inline(always)]
pub fn word(w: u128, out: &mut Line) {
    out.detached(|out| word_detached(w, out));
}

#[inline(never)]
fn word_detached(w: u128, out: &mut Line) {
    out.push_str(".word 0x");
    out.put(hex16((w >> 64) as u64, false).to_le_bytes(), 16);
    out.put(hex16(w as u64, false).to_le_bytes(), 16);
}

/// Decimal digits of `v`.
#[inline(always)]
pub fn dec(out: &mut Line, v: u64) {
    out.detached(|out| push_dec(out, v));
}

/// A register of a class the model lacks: its number in hex.
#[inline(always)]
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
#[inline(always)]
pub fn int(out: &mut Line, s: i128) {
    out.piece(&SIGNED_HEX[(s < 0) as usize]);
    out.hex_digits(s.unsigned_abs() as u64, true);
}

/// An index offset: `+0x1F`, `-0x10`, nothing when zero.
#[inline(always)]
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
#[inline(always)]
pub fn floats(out: &mut Line, v: u64, width: u8, fmt: FloatFormat, lanes: u32) {
    let lanes = if fmt.width() < width as u32 { width as u32 / fmt.width() } else { lanes.max(1) };
    out.detached(|out| write_float_lanes(out, v, lanes, fmt));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Prints with `print`, whose unchecked stores advance the line by at
    /// most `spare` in all, into a `String` that holds `before` and has no
    /// capacity to spare (so that any store past the bound is caught by the
    /// debug checks rather than landing in slack).
    fn line_with(before: &str, spare: usize, print: impl Fn(u128, &mut Line)) -> String {
        let mut s = String::with_capacity(before.len());
        s.push_str(before);
        super::print(&mut s, spare, |line| print(0, line));
        s
    }

    /// [`line_with`] for a few unchecked stores.
    fn line(before: &str, print: impl Fn(u128, &mut Line)) -> String {
        line_with(before, 64, print)
    }

    /// How far `print` moves a line's end (from an empty line).
    fn advance(print: impl Fn(&mut Line)) -> usize {
        let mut s = String::new();
        let mut n = 0;
        super::print(&mut s, 1024, |line| {
            print(line);
            n = line.mark();
        });
        n
    }

    /// Each helper in `UNCHECKED_METHODS` and `UNCHECKED_FNS` moves the line by at most its
    /// entry, at the extremes of its arguments (the longest texts), with
    /// the line's own checked writes included: an upper bound on its
    /// unchecked stores, which is what the generator's sums rely on.
    #[test]
    fn unchecked_advances_are_upper_bounds() {
        let listed = UNCHECKED_METHODS.iter().chain(UNCHECKED_FNS);
        let bound = |name: &str| listed.clone().find(|(n, _)| *n == name).map(|&(_, a)| a).unwrap_or_else(|| panic!("{name} is listed"));
        let longest = |name: &str, max: usize| {
            assert!(max <= bound(name), "{name}: moves {max}, listed as {}", bound(name));
        };
        longest("piece", (0..=15).map(|n| advance(|l| { l.piece(&piece_of(&"x".repeat(n))); })).max().unwrap());
        longest("byte_if", advance(|l| l.byte_if(b'!', true)));
        longest("separator", advance(|l| l.separator(true)).max(advance(|l| l.separator(false))));
        longest("control", advance(|l| l.control("", u64::MAX, true)));
        longest("int", advance(|l| int(l, -(u64::MAX as i128))).max(advance(|l| int(l, u64::MAX as i128))));
        longest("offset", advance(|l| offset(l, -(u64::MAX as i128))).max(advance(|l| offset(l, u64::MAX as i128))));
        longest("const_mem", advance(|l| const_mem(l, u64::MAX, u64::MAX)) - "c[0x][0x]".len());
        longest("raw_register", advance(|l| raw_register(l, u64::MAX)) - "0x".len());
        longest("word", advance(|l| word(u128::MAX, l)) - ".word 0x".len());
        // And the list names only helpers this test measures.
        for (name, _) in listed {
            assert!(["piece", "byte_if", "separator", "control", "int", "offset", "const_mem", "raw_register", "word"].contains(name), "{name} is not measured here");
        }
    }

    /// A printer's stores up to its spare land in a `String` with no
    /// capacity beyond, however full it already is (the capacity grows at
    /// the start and at each checked write, never in between).
    #[test]
    fn stores_up_to_the_spare_stay_in_the_capacity() {
        for before in ["", "x", &"y".repeat(300)] {
            for n in 0..40 {
                let text = line_with(before, 15 * n + 32 * 2, |_, out| {
                    for _ in 0..n {
                        out.piece(&piece_of("fifteen-bytes!!"));
                    }
                    word(u128::MAX, out);
                    out.push_str(&"long text ".repeat(n));
                    word(0, out);
                });
                let want = format!("{before}{}.word 0x{:032x}{}.word 0x{:032x}", "fifteen-bytes!!".repeat(n), u128::MAX, "long text ".repeat(n), 0);
                assert_eq!(text, want);
            }
        }
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
        /// same text as `String` pushes, across growths of the `String`.
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
            let spare: usize = ops.iter().map(|(kind, _, _)| [15, 0, 1, 16, 0][*kind as usize]).sum();
            let got = line_with("prefix ", spare, |_, out| {
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

    /// A spare too small is a caller's mistake: the line panics at the
    /// first store past its room, before the store, and the `String` is
    /// left as it was (a valid `String`, the line not appended).
    #[test]
    fn a_spare_too_small_panics_before_storing_out_of_room() {
        for before in ["", "x", &"y".repeat(300)] {
            let mut s = String::with_capacity(before.len());
            s.push_str(before);
            let stored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::print(&mut s, 0, |out| {
                    for _ in 0..200 {
                        out.piece(&piece_of("fifteen-bytes!!"));
                        out.byte_if(b'!', true);
                        int(out, -(u64::MAX as i128));
                    }
                })
            }));
            assert!(stored.is_err());
            assert_eq!(s, before);
        }
    }

    #[test]
    fn a_line_not_finished_is_not_appended() {
        let mut s = String::from("kept");
        {
            let mut line = Line::new(&mut s, 16);
            line.push_str(" dropped");
            line.piece(&piece("dropped too"));
        }
        assert_eq!(s, "kept");
    }

    #[test]
    fn no_piece_prints_nothing_and_fails() {
        let s = line("x", |_, out| {
            assert!(!out.piece(&NO_PIECE));
            assert!(out.piece(&EMPTY_PIECE));
            assert!(out.piece(&piece(".FTZ")));
            // A text as long as a piece holds is a text, not "no text".
            assert!(out.piece(&piece("fifteen-bytes!!")));
        });
        assert_eq!(s, "x.FTZ fifteen-bytes!!".replace(' ', ""));
    }

    #[test]
    fn words_and_constant_memory() {
        assert_eq!(line("", |_, out| word(0x0123_4567_89ab_cdef_0000_0000_0000_00f1, out)), ".word 0x0123456789abcdef00000000000000f1");
        assert_eq!(line("", |_, out| const_mem(out, 0x3, 0x18)), "c[0x3][0x18]");
        assert_eq!(line("", |_, out| const_mem(out, 0, u64::MAX)), "c[0x0][0xffffffffffffffff]");
    }
}
