//! Integer kernels of the simulator: conversions between integer widths
//! (I2I, I2IP), the three-input logic op (LOP3), byte permutes (PRMT), the
//! add with carry (IADD.X), funnel shifts (SHF), address arithmetic (LEA),
//! multiplies (IMUL, IMAD, IMAD.WIDE), dot products (IDP.2A/4A), IABS,
//! IMNMX, integer compares (ISETP, ISET, with `.X`), PLOP3 and the
//! predicate/register moves (P2R, R2P), on raw register bits. Where the spec's pseudo-code slips, the
//! evident intent is implemented and recorded in `docs/semantics.md`.

/// I2I: a signed 32-bit value saturated to a `bits`-wide integer (`signed`
/// or not); the register holds the value, sign-extended for signed types.
pub fn i2i(v: u32, bits: u32, signed: bool) -> u32 {
    saturate(v as i32 as i64, bits, signed) as i32 as u32
}

/// `v` clamped to the range of a `bits`-wide integer.
fn saturate(v: i64, bits: u32, signed: bool) -> i64 {
    let (lo, hi) = if signed { (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) } else { (0, (1i64 << bits) - 1) };
    v.clamp(lo, hi)
}

/// I2IP: `ra` and `srcb` (signed 32-bit) saturated to a `bits`-wide integer
/// (`.SATRELU`: and clamped below at 0), packed `ra` above `srcb` in the low
/// `2 * bits` bits, the bits above filled from `rc`'s low bits. The seed's
/// pseudo-code clamps `ta` twice, the second line overwriting the first, and
/// uses `size` before setting it; this is the evident intent (both bounds).
pub fn i2ip(ra: u32, srcb: u32, rc: u32, bits: u32, signed: bool, relu: bool) -> u32 {
    let lane = |v: u32| {
        let t = saturate(v as i32 as i64, bits, signed);
        let t = if relu { t.max(0) } else { t };
        (t as u64 & ((1u64 << bits) - 1)) as u32
    };
    let packed = lane(ra) << bits | lane(srcb);
    if bits < 16 {
        let rest = 32 - 2 * bits;
        packed | (rc & ((1u32 << rest) - 1)) << (2 * bits)
    } else {
        packed
    }
}

/// LOP3: the bitwise function of three inputs whose truth table is `lut`:
/// bit i of the result is `lut[(a[i] << 2) | (b[i] << 1) | c[i]]` (LOP3
/// `__Semantics`), so `lop3(0xF0, 0xCC, 0xAA, lut) == lut`.
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut r = 0;
    for k in 0..8 {
        if lut >> k & 1 == 1 {
            let pick = |x: u32, bit: u32| if k >> bit & 1 == 1 { x } else { !x };
            r |= pick(a, 2) & pick(b, 1) & pick(c, 0);
        }
    }
    r
}

/// LOP3's predicate output: `(Rd != 0) & pp` with `.PAND`, `| pp` with `.POR`.
pub fn lop3_predicate(rd: u32, pp: bool, pand: bool) -> bool {
    if pand {
        rd != 0 && pp
    } else {
        rd != 0 || pp
    }
}

/// IADD.X: `a + b + carry_in` modulo 2^32, and the carry out. The spec's
/// pseudo-code writes `pu = t > 4294967296`, which misses a sum of exactly
/// 2^32; the carry is `t >= 2^32` (the evident intent, recorded).
pub fn iadd_x(a: u32, b: u32, carry_in: bool) -> (u32, bool) {
    let t = a as u64 + b as u64 + carry_in as u64;
    (t as u32, t >> 32 != 0)
}

/// The byte-selection modes of PRMT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prmt {
    /// `.IDX`: each nibble of `srcc` selects one byte (the default).
    Idx,
    /// `.F4E`: forward 4 extract.
    F4e,
    /// `.B4E`: backward 4 extract.
    B4e,
    /// `.RC8`: replicate one byte.
    Rc8,
    /// `.ECL`: edge clamp left.
    Ecl,
    /// `.ECR`: edge clamp right.
    Ecr,
    /// `.RC16`: replicate one 16-bit half.
    Rc16,
}

/// The spec's PRMT tables: for each mode and selector, the source byte of
/// Rd.b3, Rd.b2, Rd.b1, Rd.b0. The spec heads the columns "Rd.b0 .. Rd.b3",
/// but its rows are the PTX tables, most significant byte first: read that
/// way, `.F4E` with selector 0 is the identity, as "forward extract" says
/// (recorded as a decision).
const PRMT_TABLES: [[[u8; 4]; 4]; 6] = [
    [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]], // F4E
    [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]], // B4E
    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], // RC8
    [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]], // ECL
    [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]], // ECR
    [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]], // RC16
];

/// PRMT: four bytes picked from the eight of `{srcb, ra}` (b0 = Ra's low
/// byte, b7 = SrcB's high byte) as `srcc` and the mode say. `.IDX`: nibble i
/// of `srcc` picks Rd's byte i by its low 3 bits, and its high bit replicates
/// that byte's sign instead.
pub fn prmt(ra: u32, srcb: u32, srcc: u32, mode: Prmt) -> u32 {
    let t = (srcb as u64) << 32 | ra as u64;
    let byte = |k: u32| (t >> (8 * (k & 7))) as u8;
    let table = match mode {
        Prmt::Idx => {
            return (0..4).fold(0u32, |rd, i| {
                let ctl = srcc >> (4 * i) & 0xF;
                let b = byte(ctl);
                let out = if ctl & 8 != 0 { if b & 0x80 != 0 { 0xFF } else { 0 } } else { b };
                rd | (out as u32) << (8 * i)
            });
        }
        Prmt::F4e => 0,
        Prmt::B4e => 1,
        Prmt::Rc8 => 2,
        Prmt::Ecl => 3,
        Prmt::Ecr => 4,
        Prmt::Rc16 => 5,
    };
    let row = PRMT_TABLES[table][(srcc & 3) as usize];
    // row[0] is Rd.b3's source, row[3] Rd.b0's.
    (0..4).fold(0u32, |rd, i| rd | (byte(row[3 - i] as u32) as u32) << (8 * i))
}

/// SHF's modifiers: direction, which half of the 64-bit result to keep,
/// clamping or wrapping the shift count, and the type (64-bit types allow
/// counts up to 64, signed ones shift right arithmetically).
#[derive(Clone, Copy, Debug)]
pub struct Shf {
    /// Shift left (else right).
    pub left: bool,
    /// Keep the high 32 bits of the shifted value (`.HI`), else the low ones.
    pub high: bool,
    /// The count wraps modulo n (`.WRAP`), else it is clamped to n.
    pub wrap: bool,
    /// A signed type (S32, S64): right shifts are arithmetic.
    pub signed: bool,
    /// A 64-bit type (S64, U64): n = 64, else 32.
    pub wide: bool,
}

/// SHF: shifts the 64-bit `{srcc, ra}` by `srcb` and returns its low or high
/// 32 bits. The count is `min(srcb, n)` with `.CLAMP` and `srcb mod n` with
/// `.WRAP`, n = 64 for 64-bit types and 32 otherwise (the spec's line
/// `n = (.cwmod == .CLAMP) ? min(n_ub, ) : min(b, n_ub) : mod(b, n_ub);` is
/// garbled; this is its evident intent). Right shifts of signed types copy
/// bit 63 in.
pub fn shf(ra: u32, srcb: u32, srcc: u32, m: Shf) -> u32 {
    let t = (srcc as u64) << 32 | ra as u64;
    let ub = if m.wide { 64 } else { 32 };
    let n = if m.wrap { srcb % ub } else { srcb.min(ub) };
    let r = if m.left {
        t.checked_shl(n).unwrap_or(0)
    } else if m.signed {
        ((t as i64) >> n.min(63)) as u64
    } else {
        t.checked_shr(n).unwrap_or(0)
    };
    if m.high { (r >> 32) as u32 } else { r as u32 }
}

/// LEA (`.LO`): `(ra << shift) + srcb` modulo 2^32 and its carry out. The
/// spec writes `addr = t & 0xFFFFFFFF + SrcB` (by C precedence a mask of
/// `0xFFFFFFFF + SrcB`) and `pu = addr > 2^32`; the evident intent is
/// `(t & 0xFFFFFFFF) + SrcB` and a carry of `addr >= 2^32`.
pub fn lea_lo(ra: u32, srcb: u32, shift: u32) -> (u32, bool) {
    iadd_x(((ra as u64) << (shift & 31)) as u32, srcb, false)
}

/// LEA.HI.X: the high word of `{hi, ra} << shift` plus `srcb` and the carry
/// in, with its carry out. `hi` is Rc (`.HI.X`) or Ra's sign extension
/// (`.HI.X.SX32`, see [`sign_word`]). Paired with [`lea_lo`] it computes a
/// 64-bit `base + (index << shift)`.
pub fn lea_hi(ra: u32, hi: u32, srcb: u32, shift: u32, carry_in: bool) -> (u32, bool) {
    let t = (hi as u64) << 32 | ra as u64;
    let top = (t >> (32 - (shift & 31))) as u32;
    iadd_x(top, srcb, carry_in)
}

/// The high word of a sign-extended 32-bit value (what `.SX32` puts above Ra).
pub fn sign_word(v: u32) -> u32 {
    ((v as i32) >> 31) as u32
}

/// The 64-bit product of two 32-bit registers, as signed or unsigned
/// integers, in two's complement.
pub fn mul_wide(a: u32, b: u32, signed: bool) -> u64 {
    if signed {
        (a as i32 as i64).wrapping_mul(b as i32 as i64) as u64
    } else {
        a as u64 * b as u64
    }
}

/// IMUL: the low or high word of the product.
pub fn imul(a: u32, b: u32, signed: bool, high: bool) -> u32 {
    let t = mul_wide(a, b, signed);
    if high { (t >> 32) as u32 } else { t as u32 }
}

/// IMAD (`.LO`): `(a * b)[31:0] + c` modulo 2^32 and the carry out (`>= 2^32`;
/// the spec writes `>`, the same slip as IADD.X).
pub fn imad_lo(a: u32, b: u32, c: u32, signed: bool) -> (u32, bool) {
    iadd_x(mul_wide(a, b, signed) as u32, c, false)
}

/// IMAD.HI.X: `(a * b)[63:32] + c + carry_in` modulo 2^32 and the carry out.
pub fn imad_hi_x(a: u32, b: u32, c: u32, signed: bool, carry_in: bool) -> (u32, bool) {
    iadd_x((mul_wide(a, b, signed) >> 32) as u32, c, carry_in)
}

/// IMAD.WIDE(.X): the 64-bit product plus the 64-bit `c` (and the carry in)
/// modulo 2^64, and the carry out of that unsigned 64-bit addition.
pub fn imad_wide(a: u32, b: u32, c: u64, signed: bool, carry_in: bool) -> (u64, bool) {
    let t = mul_wide(a, b, signed) as u128 + c as u128 + carry_in as u128;
    (t as u64, t >> 64 != 0)
}

/// IDP's lane formats: `a`'s lane width (16 for IDP.2A, 8 for IDP.4A) and
/// signedness, `b`'s signedness, and which byte pair of `b` IDP.2A uses.
#[derive(Clone, Copy, Debug)]
pub struct Idp {
    /// Width of `a`'s lanes: 16 (IDP.2A) or 8 (IDP.4A).
    pub a_bits: u32,
    /// `a`'s lanes are signed.
    pub a_signed: bool,
    /// `b`'s bytes are signed.
    pub b_signed: bool,
    /// IDP.2A `.HI`: use `b`'s bytes 2-3 (else 0-1).
    pub b_high: bool,
}

/// IDP.2A / IDP.4A: `c + carry_in` plus the dot product of packed lanes:
/// `a`'s 16-bit (`a_bits` = 16, IDP.2A) or 8-bit lanes with `b`'s bytes (for
/// IDP.2A bytes 0-1 with `.LO`, 2-3 with `.HI`), each lane sign- or
/// zero-extended. Returns the sum modulo 2^32 and `pu`. The spec's
/// `pu = ceil(d / 4294967296) > 0` is true for every positive `d`; the
/// evident intent is a carry out, `d >= 2^32` (recorded).
pub fn idp(a: u32, b: u32, c: u32, carry_in: bool, m: Idp) -> (u32, bool) {
    let Idp { a_bits, a_signed, b_signed, b_high } = m;
    let lane = |x: u32, bits: u32, k: u32, signed: bool| -> i64 {
        let v = (x >> (bits * k)) as u64 & ((1u64 << bits) - 1);
        if signed && v >> (bits - 1) & 1 == 1 { v as i64 - (1i64 << bits) } else { v as i64 }
    };
    let n = 32 / a_bits;
    let first = if n == 2 && b_high { 2 } else { 0 };
    let d = (0..n).fold(c as i64 + carry_in as i64, |d, k| d + lane(a, a_bits, k, a_signed) * lane(b, 8, first + k, b_signed));
    (d as u32, d >= 1i64 << 32)
}

/// IABS: the absolute value of a signed 32-bit integer (wrapping: the
/// absolute value of -2^31 is -2^31).
pub fn iabs(v: u32) -> u32 {
    (v as i32).wrapping_abs() as u32
}

/// IMNMX: `min(a, b)` when `pp`, else `max(a, b)`, signed or unsigned.
pub fn imnmx(a: u32, b: u32, signed: bool, pp: bool) -> u32 {
    let less = if signed { (a as i32) < (b as i32) } else { a < b };
    let min = if less { a } else { b };
    let max = if less { b } else { a };
    if pp { min } else { max }
}

/// The integer comparisons of ISETP/ISET (`.compop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ICmp {
    /// `.EQ`: equal.
    Eq,
    /// `.NE`: not equal.
    Ne,
    /// `.LT`: less than.
    Lt,
    /// `.LE`: less than or equal.
    Le,
    /// `.GT`: greater than.
    Gt,
    /// `.GE`: greater than or equal.
    Ge,
}

/// `a compop b`, as signed or unsigned 32-bit integers. With `.X`
/// (`extended = Some(pq)`), equal words defer to `pq`, the comparison of the
/// lower words: chained, ISETP/ISET compare wide integers word by word.
pub fn icmp(a: u32, b: u32, cmp: ICmp, signed: bool, extended: Option<bool>) -> bool {
    if let (Some(pq), true) = (extended, a == b) {
        return pq;
    }
    let ord = if signed { (a as i32).cmp(&(b as i32)) } else { a.cmp(&b) };
    use std::cmp::Ordering::*;
    match cmp {
        ICmp::Eq => ord == Equal,
        ICmp::Ne => ord != Equal,
        ICmp::Lt => ord == Less,
        ICmp::Le => ord != Greater,
        ICmp::Gt => ord == Greater,
        ICmp::Ge => ord != Less,
    }
}

/// ISET's result register: all ones (`.BM`) or 1.0f (`.BF`) when true, else 0.
pub fn iset_value(t: bool, float: bool) -> u32 {
    match (t, float) {
        (false, _) => 0,
        (true, false) => 0xFFFF_FFFF,
        (true, true) => 0x3F80_0000,
    }
}

/// PLOP3: the truth table `lut` applied to three predicates.
pub fn plop3(a: bool, b: bool, c: bool, lut: u8) -> bool {
    lut >> ((a as u8) << 2 | (b as u8) << 1 | c as u8) & 1 == 1
}

/// P2R: `ra` with byte `byte` replaced by the predicates `pr` (bit i = Pi)
/// where `mask` is set and `ra`'s byte elsewhere. The spec assigns only
/// `Rd`'s selected byte; the other bytes come from Ra (recorded).
pub fn p2r(pr: u8, ra: u32, mask: u8, byte: u32) -> u32 {
    let shift = 8 * (byte & 3);
    let old = (ra >> shift) as u8;
    let new = (mask & pr) | (!mask & old);
    (ra & !(0xFF << shift)) | (new as u32) << shift
}

/// R2P: the predicates after copying byte `byte` of `ra` into those `mask`
/// selects; the others keep their values (the spec packs the predicates
/// into `pr` and then overwrites it; this is the evident intent, recorded).
pub fn r2p(pr: u8, ra: u32, mask: u8, byte: u32) -> u8 {
    let v = (ra >> (8 * (byte & 3))) as u8;
    (mask & v) | (!mask & pr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(x: &mut u64) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x as u32
    }

    #[test]
    fn lop3_matches_the_spec_examples_and_the_per_bit_rule() {
        let mut x = 0x1234_5678u64;
        // The LUT of F is F(0xF0, 0xCC, 0xAA).
        for lut in 0..=255u8 {
            assert_eq!(lop3(0xF0, 0xCC, 0xAA, lut) & 0xFF, lut as u32);
        }
        for _ in 0..10_000 {
            let (a, b, c) = (xorshift(&mut x), xorshift(&mut x), xorshift(&mut x));
            // The spec's worked examples.
            assert_eq!(lop3(a, b, c, 0x80), a & b & c);
            assert_eq!(lop3(a, b, c, 0xFE), a | b | c);
            assert_eq!(lop3(a, b, c, 0x40), a & b & !c);
            assert_eq!(lop3(a, b, c, 0x1A), (a & b | c) ^ a);
            // d[i] = UImm8Lut[(a[i] << 2) | (b[i] << 1) | c[i]], bit by bit.
            let lut = xorshift(&mut x) as u8;
            let want = (0..32).fold(0u32, |d, i| {
                let idx = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1);
                d | ((lut as u32 >> idx) & 1) << i
            });
            assert_eq!(lop3(a, b, c, lut), want);
        }
    }

    #[test]
    fn iadd_x_chains_into_wide_additions() {
        // Two IADD.X steps add 64-bit numbers; the carry of exactly 2^32 counts.
        assert_eq!(iadd_x(0xFFFF_FFFF, 0, true), (0, true));
        assert_eq!(iadd_x(0xFFFF_FFFF, 1, false), (0, true));
        let mut x = 99u64;
        for _ in 0..100_000 {
            let (p, q) = ((xorshift(&mut x) as u64) << 32 | xorshift(&mut x) as u64, (xorshift(&mut x) as u64) << 32 | xorshift(&mut x) as u64);
            let (lo, c) = iadd_x(p as u32, q as u32, false);
            let (hi, c2) = iadd_x((p >> 32) as u32, (q >> 32) as u32, c);
            assert_eq!((hi as u64) << 32 | lo as u64, p.wrapping_add(q));
            assert_eq!(c2, p.checked_add(q).is_none());
        }
    }

    #[test]
    fn prmt_modes_follow_their_definitions() {
        // PTX's prmt modes as formulas (independent of the tables): Rd byte i
        // takes source byte f(i, sel).
        let mut x = 7u64;
        for _ in 0..20_000 {
            let (a, b, c) = (xorshift(&mut x), xorshift(&mut x), xorshift(&mut x));
            let t = (b as u64) << 32 | a as u64;
            let by = |k: u32| (t >> (8 * (k % 8))) & 0xFF;
            let s = c & 3;
            let build = |f: &dyn Fn(u32) -> u32| (0..4).fold(0u64, |r, i| r | by(f(i)) << (8 * i)) as u32;
            assert_eq!(prmt(a, b, c, Prmt::F4e), build(&|i| s + i), "f4e");
            assert_eq!(prmt(a, b, c, Prmt::B4e), build(&|i| (8 + s - i) % 8), "b4e");
            assert_eq!(prmt(a, b, c, Prmt::Rc8), build(&|_| s), "rc8");
            assert_eq!(prmt(a, b, c, Prmt::Ecl), build(&|i| i.max(s)), "ecl");
            assert_eq!(prmt(a, b, c, Prmt::Ecr), build(&|i| i.min(s)), "ecr");
            assert_eq!(prmt(a, b, c, Prmt::Rc16), build(&|i| (i & 1) + 2 * (s & 1)), "rc16");
        }
        // .IDX: 0x3210 is the identity, 0x7654 picks SrcB, 0x8 replicates b0's sign.
        assert_eq!(prmt(0x8844_2211, 0xDDCC_BBAA, 0x3210, Prmt::Idx), 0x8844_2211);
        assert_eq!(prmt(0x8844_2211, 0xDDCC_BBAA, 0x7654, Prmt::Idx), 0xDDCC_BBAA);
        assert_eq!(prmt(0x8844_2281, 0, 0x0008, Prmt::Idx), 0x8181_81FF);
        assert_eq!(prmt(0x8844_2211, 0, 0xB000, Prmt::Idx), 0x1111_1111 & 0x00FF_FFFF | 0xFF00_0000);
    }

    #[test]
    fn shf_is_a_funnel_shift() {
        let mut x = 3u64;
        for _ in 0..50_000 {
            let (a, c) = (xorshift(&mut x), xorshift(&mut x));
            let b = xorshift(&mut x) % 80;
            let t = (c as i128) << 32 | a as i128; // the 64-bit value, as unsigned
            for bits in 0..32u32 {
                let m = Shf { left: bits & 1 != 0, high: bits & 2 != 0, wrap: bits & 4 != 0, signed: bits & 8 != 0, wide: bits & 16 != 0 };
                let ub = if m.wide { 64 } else { 32 };
                let n = if m.wrap { b % ub } else { b.min(ub) } as i128;
                let v: i128 = if m.left {
                    (t << n) & 0xFFFF_FFFF_FFFF_FFFF
                } else if m.signed {
                    let s = if t >> 63 & 1 == 1 { t - (1i128 << 64) } else { t };
                    (s >> n) & 0xFFFF_FFFF_FFFF_FFFF
                } else {
                    t >> n
                };
                let want = if m.high { (v >> 32) as u32 } else { v as u32 };
                assert_eq!(shf(a, b, c, m), want, "{m:?} a={a:#x} b={b} c={c:#x}");
            }
        }
    }

    #[test]
    fn lea_pairs_compute_64_bit_addresses() {
        // LEA lo + LEA.HI.X hi: base + (index << s), index = {Rc, Ra} or
        // Ra sign-extended (.SX32), base = {SrcB_hi, SrcB_lo}, modulo 2^64.
        let mut x = 5u64;
        for _ in 0..100_000 {
            let (ra, rc, lo, hi) = (xorshift(&mut x), xorshift(&mut x), xorshift(&mut x), xorshift(&mut x));
            let s = xorshift(&mut x) % 32;
            let base = (hi as u64) << 32 | lo as u64;
            for sx in [false, true] {
                let top = if sx { sign_word(ra) } else { rc };
                let index = (top as u64) << 32 | ra as u64;
                let (rd_lo, carry) = lea_lo(ra, lo, s);
                let (rd_hi, _) = lea_hi(ra, top, hi, s, carry);
                assert_eq!((rd_hi as u64) << 32 | rd_lo as u64, base.wrapping_add(index << s), "s={s} sx={sx}");
            }
            // The low half's carry: exactly when the 32-bit sum wraps.
            let (_, c) = lea_lo(ra, lo, s);
            assert_eq!(c, ((ra as u64) << s & 0xFFFF_FFFF) + lo as u64 >= 1 << 32);
        }
    }

    #[test]
    fn multiplies_match_wide_integer_arithmetic() {
        let mut x = 11u64;
        for _ in 0..100_000 {
            let (a, b, c, c2) = (xorshift(&mut x), xorshift(&mut x), xorshift(&mut x), xorshift(&mut x));
            for signed in [false, true] {
                let ext = |v: u32| if signed { v as i32 as i128 } else { v as i128 };
                let p = ext(a) * ext(b); // exact
                let p64 = (p as u128 & u64::MAX as u128) as u64; // two's complement bits
                assert_eq!(imul(a, b, signed, false), p64 as u32);
                assert_eq!(imul(a, b, signed, true), (p64 >> 32) as u32);
                // IMAD lo + IMAD.HI.X: the 64-bit product plus a 64-bit addend {c2, c}.
                let (lo, k) = imad_lo(a, b, c, signed);
                let (hi, _) = imad_hi_x(a, b, c2, signed, k);
                assert_eq!((hi as u64) << 32 | lo as u64, p64.wrapping_add((c2 as u64) << 32 | c as u64));
                let wide_c = (c2 as u64) << 32 | c as u64;
                let (w, carry) = imad_wide(a, b, wide_c, signed, true);
                assert_eq!(w, p64.wrapping_add(wide_c).wrapping_add(1));
                assert_eq!(carry, p64 as u128 + wide_c as u128 + 1 >= 1 << 64);
            }
        }
    }

    #[test]
    fn dot_products_match_lane_by_lane_sums() {
        let mut x = 13u64;
        for _ in 0..50_000 {
            let (a, b, c) = (xorshift(&mut x), xorshift(&mut x), xorshift(&mut x));
            let pp = x & 1 == 1;
            for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                let b8 = |k: u32| { let v = (b >> (8 * k)) & 0xFF; if sb { v as u8 as i8 as i64 } else { v as i64 } };
                let a8 = |k: u32| { let v = (a >> (8 * k)) & 0xFF; if sa { v as u8 as i8 as i64 } else { v as i64 } };
                let a16 = |k: u32| { let v = (a >> (16 * k)) & 0xFFFF; if sa { v as u16 as i16 as i64 } else { v as i64 } };
                let d4 = c as i64 + pp as i64 + (0..4).map(|k| a8(k) * b8(k)).sum::<i64>();
                assert_eq!(idp(a, b, c, pp, Idp { a_bits: 8, a_signed: sa, b_signed: sb, b_high: false }), (d4 as u32, d4 >= 1 << 32));
                for high in [false, true] {
                    let f = if high { 2 } else { 0 };
                    let d2 = c as i64 + pp as i64 + a16(0) * b8(f) + a16(1) * b8(f + 1);
                    assert_eq!(idp(a, b, c, pp, Idp { a_bits: 16, a_signed: sa, b_signed: sb, b_high: high }), (d2 as u32, d2 >= 1 << 32));
                }
            }
        }
    }

    #[test]
    fn compares_chain_into_wide_comparisons() {
        // ISETP then ISETP.X on the high words compares 64-bit integers.
        let mut x = 17u64;
        let cmps = [ICmp::Eq, ICmp::Ne, ICmp::Lt, ICmp::Le, ICmp::Gt, ICmp::Ge];
        for _ in 0..50_000 {
            let (mut p, mut q) = ((xorshift(&mut x) as u64) << 32 | xorshift(&mut x) as u64, (xorshift(&mut x) as u64) << 32 | xorshift(&mut x) as u64);
            if x.is_multiple_of(3) {
                q = (p & !0xFFFF_FFFF) | (q & 0xFFFF_FFFF); // equal high words
            }
            if x.is_multiple_of(7) {
                p = q;
            }
            for signed in [false, true] {
                for &c in &cmps {
                    let low = icmp(p as u32, q as u32, c, false, None);
                    let got = icmp((p >> 32) as u32, (q >> 32) as u32, c, signed, Some(low));
                    let ord = if signed { (p as i64).cmp(&(q as i64)) } else { p.cmp(&q) };
                    let want = match c {
                        ICmp::Eq => ord.is_eq(),
                        ICmp::Ne => ord.is_ne(),
                        ICmp::Lt => ord.is_lt(),
                        ICmp::Le => ord.is_le(),
                        ICmp::Gt => ord.is_gt(),
                        ICmp::Ge => ord.is_ge(),
                    };
                    assert_eq!(got, want, "{c:?} signed={signed} {p:#x} {q:#x}");
                }
            }
        }
    }

    #[test]
    fn small_integer_ops() {
        assert_eq!(iabs(-5i32 as u32), 5);
        assert_eq!(iabs(0x8000_0000), 0x8000_0000);
        assert_eq!(imnmx(-1i32 as u32, 1, true, true), -1i32 as u32);
        assert_eq!(imnmx(-1i32 as u32, 1, false, true), 1);
        assert_eq!(imnmx(-1i32 as u32, 1, true, false), 1);
        assert_eq!(iset_value(true, true), 0x3F80_0000);
        assert_eq!(iset_value(true, false), u32::MAX);
        assert_eq!(iset_value(false, true), 0);
        // PLOP3 agrees with LOP3 bit by bit.
        for lut in 0..=255u8 {
            for k in 0..8u32 {
                let (a, b, c) = (k & 4 != 0, k & 2 != 0, k & 1 != 0);
                assert_eq!(plop3(a, b, c, lut), lop3(a as u32, b as u32, c as u32, lut) & 1 == 1);
            }
        }
        // P2R/R2P: masked bits move, the rest stay.
        assert_eq!(p2r(0b1010_0101, 0x1122_3344, 0x0F, 1), 0x1122_3544);
        assert_eq!(r2p(0b1111_0000, 0x0000_5A00, 0x0F, 1), 0b1111_1010);
        assert_eq!(r2p(p2r(0xC3, 0, 0xFF, 2) as u8, p2r(0xC3, 0, 0xFF, 2), 0xFF, 2), 0xC3);
    }

    #[test]
    fn lop3_predicate_combines_with_pp() {
        assert!(lop3_predicate(1, true, true) && !lop3_predicate(1, false, true) && !lop3_predicate(0, true, true));
        assert!(lop3_predicate(0, true, false) && lop3_predicate(5, false, false) && !lop3_predicate(0, false, false));
    }
}
