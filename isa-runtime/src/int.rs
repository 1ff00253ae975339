//! Integer kernels of the simulator: conversions between integer widths
//! (I2I, I2IP), on raw register bits. Where the spec's pseudo-code slips, the
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
