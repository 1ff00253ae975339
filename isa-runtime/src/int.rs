//! Integer kernels of the simulator: conversions between integer widths
//! (I2I, I2IP), the three-input logic op (LOP3), byte permutes (PRMT) and
//! the add with carry (IADD.X), on raw register bits. Where the spec's pseudo-code slips, the
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
    Idx,
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
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
    fn lop3_predicate_combines_with_pp() {
        assert!(lop3_predicate(1, true, true) && !lop3_predicate(1, false, true) && !lop3_predicate(0, true, true));
        assert!(lop3_predicate(0, true, false) && lop3_predicate(5, false, false) && !lop3_predicate(0, false, false));
    }
}
