//! IEEE-754 arithmetic on raw bits, for any binary format up to 32 bits
//! (F32, F16, BF16): add, mul and fused multiply-add, correctly rounded in
//! the four rounding modes, computed with integers only, so the host's
//! floating-point rounding mode never matters and nothing is rounded twice.
//!
//! Results are exact values rounded once: operands are unpacked to
//! `mantissa * 2^exponent`, combined exactly in 128-bit integers (a far-away
//! addend is folded into a sticky bit, which is exact for rounding purposes),
//! then [`round_pack`] rounds to the format. NaN results are the ISA's
//! canonical NaN (all exponent and mantissa bits set, sign clear: F32
//! `0x7FFFFFFF`, 16-bit `0x7FFF`).

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent width in bits.
    pub exponent: u32,
    /// Mantissa width in bits (without the implicit leading bit).
    pub mantissa: u32,
}

/// IEEE binary32.
pub const F32: Format = Format { exponent: 8, mantissa: 23 };
/// IEEE binary16.
pub const F16: Format = Format { exponent: 5, mantissa: 10 };
/// bfloat16: binary32's exponent range with a 7-bit mantissa.
pub const BF16: Format = Format { exponent: 8, mantissa: 7 };

impl Format {
    /// Width in bits: sign, exponent and mantissa.
    pub const fn width(self) -> u32 {
        1 + self.exponent + self.mantissa
    }
    const fn bias(self) -> i32 {
        (1 << (self.exponent - 1)) - 1
    }
    const fn sign_bit(self) -> u64 {
        1 << (self.exponent + self.mantissa)
    }
    const fn exp_all(self) -> u64 {
        ((1 << self.exponent) - 1) << self.mantissa
    }
    /// The ISA's canonical NaN: every exponent and mantissa bit set.
    pub const fn canonical_nan(self) -> u64 {
        self.sign_bit() - 1
    }
    /// Largest finite magnitude.
    pub const fn max_finite(self) -> u64 {
        self.exp_all() - 1
    }
}

/// Rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    RN,
    /// Toward zero.
    RZ,
    /// Toward negative infinity.
    RM,
    /// Toward positive infinity.
    RP,
}

/// A decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A NaN (sign and payload are not kept).
    Nan,
    /// An infinity.
    Inf {
        /// Negative infinity.
        neg: bool,
    },
    /// A zero.
    Zero {
        /// Negative zero.
        neg: bool,
    },
    /// `mant * 2^exp`, `mant > 0`.
    Finite {
        /// The value is negative.
        neg: bool,
        /// The significand as an integer (the implicit leading bit included).
        mant: u64,
        /// The power of two `mant` is scaled by.
        exp: i32,
    },
}

/// Decodes bits of `f`.
pub fn unpack(bits: u64, f: Format) -> Value {
    let neg = bits & f.sign_bit() != 0;
    let exp = ((bits >> f.mantissa) & ((1 << f.exponent) - 1)) as i32;
    let frac = bits & ((1 << f.mantissa) - 1);
    let max_exp = (1 << f.exponent) - 1;
    if exp == max_exp {
        return if frac == 0 { Value::Inf { neg } } else { Value::Nan };
    }
    if exp == 0 {
        if frac == 0 {
            return Value::Zero { neg };
        }
        return Value::Finite { neg, mant: frac, exp: 1 - f.bias() - f.mantissa as i32 };
    }
    Value::Finite { neg, mant: frac | 1 << f.mantissa, exp: exp - f.bias() - f.mantissa as i32 }
}

/// Whether bits are a subnormal number.
pub fn is_subnormal(bits: u64, f: Format) -> bool {
    bits & f.exp_all() == 0 && bits & ((1 << f.mantissa) - 1) != 0
}

/// Whether bits are a NaN.
pub fn is_nan(bits: u64, f: Format) -> bool {
    matches!(unpack(bits, f), Value::Nan)
}

fn inf(neg: bool, f: Format) -> u64 {
    if neg { f.sign_bit() | f.exp_all() } else { f.exp_all() }
}

fn zero(neg: bool, f: Format) -> u64 {
    if neg { f.sign_bit() } else { 0 }
}

/// Rounds `(mant + δ) * 2^exp` to `f`, where `δ` is in (0, 1) when `sticky`
/// (some non-zero bits below `mant`'s last bit were dropped) and 0 otherwise.
pub fn round_pack(neg: bool, mant: u128, exp: i32, sticky: bool, f: Format, mode: Round) -> u64 {
    if mant == 0 && !sticky {
        return zero(neg, f);
    }
    let m = f.mantissa as i32;
    let min_quantum = 1 - f.bias() - m;
    let top = if mant == 0 { exp - 1 } else { exp + 127 - mant.leading_zeros() as i32 };
    let mut q = (top - m).max(min_quantum);
    let (mut kept, rem_nonzero, half) = if q <= exp {
        // Exact at this quantum; only the sticky part is below it.
        ((mant << (exp - q) as u32) as u64, false, Half::Below)
    } else {
        let s = (q - exp) as u32;
        if s >= 128 {
            (0, mant != 0, Half::Below)
        } else {
            let kept = (mant >> s) as u64;
            let rem = mant & ((1u128 << s) - 1);
            let halfway = 1u128 << (s - 1);
            let h = if rem > halfway || (rem == halfway && sticky) {
                Half::Above
            } else if rem == halfway {
                Half::Exactly
            } else {
                Half::Below
            };
            (kept, rem != 0, h)
        }
    };
    let inexact = rem_nonzero || sticky;
    let up = match mode {
        Round::RN => half == Half::Above || (half == Half::Exactly && kept & 1 == 1),
        Round::RZ => false,
        Round::RP => inexact && !neg,
        Round::RM => inexact && neg,
    };
    if up {
        kept += 1;
        if kept == 1 << (m + 1) {
            kept >>= 1;
            q += 1;
        }
    }
    let sign = if neg { f.sign_bit() } else { 0 };
    if kept == 0 {
        return sign;
    }
    if kept < 1 << m {
        return sign | kept; // subnormal
    }
    let biased = q + m + f.bias();
    if biased >= (1 << f.exponent) - 1 {
        // Overflow: infinity, or the largest finite toward zero.
        let to_inf = match mode {
            Round::RN => true,
            Round::RZ => false,
            Round::RP => !neg,
            Round::RM => neg,
        };
        return if to_inf { inf(neg, f) } else { sign | f.max_finite() };
    }
    sign | (biased as u64) << m | (kept & ((1 << m) - 1))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Below,
    Exactly,
    Above,
}

/// Bits an aligned operand may be shifted left before the other one only
/// counts as a sticky bit (48-bit products + 76 < 128).
const ALIGN: i32 = 76;

/// `x + y` exactly (up to a sticky bit), both finite non-zero:
/// returns (negative, magnitude, exponent, sticky).
fn exact_sum(x: (bool, u128, i32), y: (bool, u128, i32)) -> (bool, u128, i32, bool) {
    let (big, small) = if x.2 >= y.2 { (x, y) } else { (y, x) };
    let diff = big.2 - small.2;
    let (bm, sm, exp, sticky) = if diff <= ALIGN {
        (big.1 << diff as u32, small.1, small.2, false)
    } else {
        // `small` is far below `big`'s last bit: keep ALIGN guard bits under
        // `big` and fold `small` into a sticky unit at the bottom.
        (big.1 << ALIGN as u32, 1u128, big.2 - ALIGN, true)
    };
    if big.0 == small.0 {
        (big.0, bm + sm, exp, sticky)
    } else if bm >= sm {
        (big.0, bm - sm, exp, sticky)
    } else {
        (small.0, sm - bm, exp, sticky)
    }
}

/// `a + b`.
pub fn add(a: u64, b: u64, f: Format, mode: Round) -> u64 {
    match (unpack(a, f), unpack(b, f)) {
        (Value::Nan, _) | (_, Value::Nan) => f.canonical_nan(),
        (Value::Inf { neg: x }, Value::Inf { neg: y }) => {
            if x == y { inf(x, f) } else { f.canonical_nan() }
        }
        (Value::Inf { neg }, _) | (_, Value::Inf { neg }) => inf(neg, f),
        (Value::Zero { neg: x }, Value::Zero { neg: y }) => zero(exact_zero_sign(x, y, mode), f),
        (Value::Zero { .. }, Value::Finite { .. }) => b,
        (Value::Finite { .. }, Value::Zero { .. }) => a,
        (Value::Finite { neg: x, mant: mx, exp: ex }, Value::Finite { neg: y, mant: my, exp: ey }) => {
            let (neg, mant, exp, sticky) = exact_sum((x, mx as u128, ex), (y, my as u128, ey));
            if mant == 0 && !sticky {
                return zero(mode == Round::RM, f);
            }
            round_pack(neg, mant, exp, sticky, f, mode)
        }
    }
}

/// Sign of an exact zero sum of zeros with signs `x` and `y`.
fn exact_zero_sign(x: bool, y: bool, mode: Round) -> bool {
    if x == y { x } else { mode == Round::RM }
}

/// `a * b`.
pub fn mul(a: u64, b: u64, f: Format, mode: Round) -> u64 {
    mul_scaled(a, b, 0, f, mode)
}

/// `a * 2^scale * b` with a single rounding (FMUL's `.scl` scales `Ra`
/// exactly, before the multiply).
pub fn mul_scaled(a: u64, b: u64, scale: i32, f: Format, mode: Round) -> u64 {
    match (unpack(a, f), unpack(b, f)) {
        (Value::Nan, _) | (_, Value::Nan) => f.canonical_nan(),
        (Value::Inf { .. }, Value::Zero { .. }) | (Value::Zero { .. }, Value::Inf { .. }) => f.canonical_nan(),
        (Value::Inf { neg: x }, Value::Inf { neg: y } | Value::Finite { neg: y, .. })
        | (Value::Finite { neg: x, .. }, Value::Inf { neg: y }) => inf(x != y, f),
        (Value::Zero { neg: x }, Value::Zero { neg: y } | Value::Finite { neg: y, .. })
        | (Value::Finite { neg: x, .. }, Value::Zero { neg: y }) => zero(x != y, f),
        (Value::Finite { neg: x, mant: mx, exp: ex }, Value::Finite { neg: y, mant: my, exp: ey }) => {
            round_pack(x != y, mx as u128 * my as u128, ex + ey + scale, false, f, mode)
        }
    }
}

/// binary32 `a * b + c` with a single rounding and the canonical NaN: FFMA
/// without `.FTZ`/`.SAT`, in every rounding mode, whatever the host's
/// rounding mode (always round-to-nearest in Rust) and without a libm call.
///
/// The product of two binary32 values is exact in binary64; `s = p + c` is
/// rounded once and its error `e` recovered exactly (TwoSum), so the exact
/// result is `v = s + e` with `|e| <= ulp(s)/2`. `f`, the binary32 nearest to
/// `s`, is the answer or a neighbour: directed modes step by the sign of
/// `v - f`; round-to-nearest only differs from `f` when `s` is exactly halfway
/// between two binary32 values and `e` pushes `v` past it. Infinite and NaN
/// inputs give an infinite or NaN result, which binary64 computes exactly.
#[inline]
pub fn fma_f32(a: u32, b: u32, c: u32, mode: Round) -> u32 {
    if mode == Round::RN {
        if let Some(r) = hardware_fma(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)) {
            return r.to_bits();
        }
    }
    fma_f32_soft(a, b, c, mode)
}

/// [`fma_f32`] without the CPU's fused multiply-add, in every mode (tested
/// on its own: on CPUs with FMA, round-to-nearest never reaches it).
///
/// Branch-free: every case (infinite or NaN inputs, an exact zero, overflow,
/// the ordinary step to a neighbour) is computed and the right one selected,
/// so a loop over lanes vectorizes and random data does not mispredict.
#[inline(always)]
pub fn fma_f32_soft(a: u32, b: u32, c: u32, mode: Round) -> u32 {
    const EXP: u32 = 0x7F80_0000;
    let p = f32::from_bits(a) as f64 * f32::from_bits(b) as f64;
    let cf = f32::from_bits(c) as f64;
    let s = p + cf;
    // TwoSum: s + e == p + cf exactly (for finite inputs).
    let bb = s - p;
    let e = (p - (s - bb)) + (cf - bb);
    let f = s as f32;
    let fb = f.to_bits();
    // v - f has the sign of s - f unless that is zero (then e's): a non-zero
    // s - f is a multiple of ulp(s) and outweighs |e| <= ulp(s)/2.
    let d = s - f as f64;
    let above = (d > 0.0) | ((d == 0.0) & (e > 0.0));
    let inexact = (d != 0.0) | (e != 0.0);
    let v_neg = (s < 0.0) | ((s == 0.0) & (e < 0.0));
    // +1 moves f's magnitude away from zero, -1 toward it; a zero f carries
    // v's sign, so the same rule covers underflow.
    let negative = (fb >> 31) as i32;
    let away_if_above = 1 - 2 * negative;
    let step = match mode {
        Round::RZ => -((((above as i32) == negative) & inexact) as i32),
        Round::RP => (above & inexact) as i32 * away_if_above,
        Round::RM => (!above & inexact) as i32 * -away_if_above,
        Round::RN => {
            // Halfway: s - f is half the gap to the neighbour on s's side,
            // and e pushes past it.
            let toward = if (d > 0.0) == (negative == 0) { 1 } else { -1 };
            let g = fb.wrapping_add(toward as u32);
            let half = (d != 0.0) & (e != 0.0) & ((e > 0.0) == (d > 0.0)) & (2.0 * d == f32::from_bits(g) as f64 - f as f64);
            half as i32 * toward
        }
    };
    let ordinary = fb.wrapping_add(step as u32);
    // Infinite or NaN inputs: binary64 computes the infinite or NaN result exactly.
    let special = (a & EXP == EXP) | (b & EXP == EXP) | (c & EXP == EXP);
    let special_result = if f.is_nan() { 0x7FFF_FFFF } else { fb };
    // An exact zero: IEEE's sign (the same sign if both addends are zeros of
    // that sign, else +0, -0 when rounding down).
    let zero = (s == 0.0) & (e == 0.0);
    let same_zero = (p == 0.0) & (cf == 0.0) & (p.is_sign_negative() == cf.is_sign_negative());
    let zero_neg = if same_zero { p.is_sign_negative() } else { mode == Round::RM };
    let zero_result = (zero_neg as u32) << 31;
    // Overflow: f is infinite. `s` at the threshold (max + ulp/2) is a tie that
    // rounds to infinity; an `e` back toward zero makes it max.
    let overflow = fb & 0x7FFF_FFFF == EXP;
    let max = 0x7F7F_FFFF | (fb & 0x8000_0000);
    let to_max = match mode {
        Round::RZ => true,
        Round::RP => v_neg,
        Round::RM => !v_neg,
        Round::RN => (s.abs() == 3.402_823_567_797_336_6e38) & (e != 0.0) & ((e < 0.0) != v_neg),
    };
    let overflow_result = if to_max { max } else { fb };
    if special {
        special_result
    } else if zero {
        zero_result
    } else if overflow {
        overflow_result
    } else {
        ordinary
    }
}

/// [`fma_f32`] on 32 lanes at once (a warp's FFMA): with the CPU's fused
/// multiply-add, round-to-nearest runs as vector instructions; the directed
/// modes run [`fma_f32_soft`], vectorized where the CPU has AVX2.
pub fn fma_f32_lanes(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], mode: Round) -> [u32; 32] {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "fma,avx2")]
        unsafe fn fused(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) -> [u32; 32] {
            std::array::from_fn(|l| {
                let r = f32::from_bits(a[l]).mul_add(f32::from_bits(b[l]), f32::from_bits(c[l]));
                if r.is_nan() {
                    0x7FFF_FFFF
                } else {
                    r.to_bits()
                }
            })
        }
        #[target_feature(enable = "avx2")]
        unsafe fn soft(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], mode: Round) -> [u32; 32] {
            #[inline(always)]
            fn each(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], mode: Round) -> [u32; 32] {
                let mut out = [0u32; 32];
                for l in 0..32 {
                    out[l] = fma_f32_soft(a[l], b[l], c[l], mode);
                }
                out
            }
            // One loop per mode, so each is branch-free.
            match mode {
                Round::RZ => each(a, b, c, Round::RZ),
                Round::RP => each(a, b, c, Round::RP),
                Round::RM => each(a, b, c, Round::RM),
                Round::RN => each(a, b, c, Round::RN),
            }
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            if mode == Round::RN && std::arch::is_x86_feature_detected!("fma") {
                // SAFETY: the CPU supports FMA and AVX2, checked just above.
                return unsafe { fused(a, b, c) };
            }
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { soft(a, b, c, mode) };
        }
    }
    std::array::from_fn(|l| fma_f32(a[l], b[l], c[l], mode))
}

/// `Some(x * y + z)` from the CPU's fused multiply-add, correctly rounded to
/// nearest, when the CPU has one (checked once); NaN is canonical.
#[inline]
fn hardware_fma(x: f32, y: f32, z: f32) -> Option<f32> {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "fma")]
        unsafe fn fused(x: f32, y: f32, z: f32) -> f32 {
            x.mul_add(y, z)
        }
        if std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports FMA, checked just above.
            let r = unsafe { fused(x, y, z) };
            return Some(if r.is_nan() { f32::from_bits(0x7FFF_FFFF) } else { r });
        }
    }
    let _ = (x, y, z);
    None
}


/// `a * b + c` with a single rounding.
pub fn fma(a: u64, b: u64, c: u64, f: Format, mode: Round) -> u64 {
    let (va, vb, vc) = (unpack(a, f), unpack(b, f), unpack(c, f));
    if matches!(va, Value::Nan) || matches!(vb, Value::Nan) || matches!(vc, Value::Nan) {
        return f.canonical_nan();
    }
    let sign = |v: Value| match v {
        Value::Inf { neg } | Value::Zero { neg } | Value::Finite { neg, .. } => neg,
        Value::Nan => false,
    };
    let pneg = sign(va) != sign(vb);
    let pinf = matches!(va, Value::Inf { .. }) || matches!(vb, Value::Inf { .. });
    let pzero = matches!(va, Value::Zero { .. }) || matches!(vb, Value::Zero { .. });
    if pinf && pzero {
        return f.canonical_nan();
    }
    if pinf {
        return match vc {
            Value::Inf { neg } if neg != pneg => f.canonical_nan(),
            _ => inf(pneg, f),
        };
    }
    if let Value::Inf { neg } = vc {
        return inf(neg, f);
    }
    if pzero {
        return match vc {
            Value::Zero { neg } => zero(exact_zero_sign(pneg, neg, mode), f),
            _ => c,
        };
    }
    let (Value::Finite { mant: ma, exp: ea, .. }, Value::Finite { mant: mb, exp: eb, .. }) = (va, vb) else {
        return f.canonical_nan();
    };
    let product = (pneg, ma as u128 * mb as u128, ea + eb);
    match vc {
        Value::Zero { .. } => round_pack(pneg, product.1, product.2, false, f, mode),
        Value::Finite { neg, mant, exp } => {
            let (neg, m, e, sticky) = exact_sum(product, (neg, mant as u128, exp));
            if m == 0 && !sticky {
                return zero(mode == Round::RM, f);
            }
            round_pack(neg, m, e, sticky, f, mode)
        }
        _ => f.canonical_nan(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_predicates_follow_the_truth_tables() {
        // pu = t lop pp, pv = !t lop pp, for every t, pp and lop.
        let table = [
            (Lop::And, [(false, false), (false, true), (false, false), (true, false)]),
            (Lop::Or, [(false, true), (true, true), (true, false), (true, true)]),
            (Lop::Xor, [(false, true), (true, false), (true, false), (false, true)]),
        ];
        for (lop, rows) in table {
            for (k, want) in rows.iter().enumerate() {
                let (t, pp) = (k & 2 != 0, k & 1 != 0);
                assert_eq!(set_predicates(t, pp, lop), *want, "{lop:?} t={t} pp={pp}");
            }
        }
    }

    #[test]
    fn known_results() {
        // 1 + 2^-24 in f32: a tie, even in RN; up only in RP.
        let (one, tiny) = (0x3F80_0000, 0x3380_0000);
        assert_eq!(add(one, tiny, F32, Round::RN), one);
        assert_eq!(add(one, tiny, F32, Round::RP), one + 1);
        assert_eq!(add(one, tiny, F32, Round::RM), one);
        // x - x is -0 only toward negative infinity.
        assert_eq!(add(one, one | F32.sign_bit(), F32, Round::RM), F32.sign_bit());
        assert_eq!(add(one, one | F32.sign_bit(), F32, Round::RN), 0);
        // Overflow: max * 2 is +inf in RN, max in RZ.
        assert_eq!(mul(F32.max_finite(), 0x4000_0000, F32, Round::RN), 0x7F80_0000);
        assert_eq!(mul(F32.max_finite(), 0x4000_0000, F32, Round::RZ), F32.max_finite());
        // Canonical NaN.
        assert_eq!(add(0x7F80_0000, 0xFF80_0000, F32, Round::RN), 0x7FFF_FFFF);
        assert_eq!(mul(0x7C00, 0, F16, Round::RN), 0x7FFF);
        // 2 * 3 + 1 = 7 in bf16.
        assert_eq!(fma(0x4000, 0x4040, 0x3F80, BF16, Round::RN), 0x40E0);
    }
}

/// The float modifiers of the ISA's arithmetic (`.FTZ`, `.SAT`, `.RELU`).
///
/// Order, from the seeds' pseudo-code (FADD/FFMA/HFMA2 `__Semantics`): flush
/// subnormal inputs to signed zero (FTZ); compute and round once; SAT (NaN ->
/// +0, then clamp to [+0, 1]) or RELU (negative -> +0); canonical NaN; flush a
/// subnormal result to signed zero (FTZ, so tininess is detected after
/// rounding). Decisions where the spec is ambiguous (`docs/semantics.md`):
/// SAT maps -0 to +0 (the prose gives the range as [+0.0, 1.0]); RELU keeps -0
/// (its pseudo-code `d < +0.0 ? +0.0 : d` leaves -0 unchanged).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// `.FTZ`: flush subnormal inputs, and a subnormal result, to zero of the same sign.
    pub ftz: bool,
    /// `.SAT`: clamp the result to [+0, 1], NaN to +0.
    pub sat: bool,
    /// `.RELU`: a negative result becomes +0 (not applied with `sat`).
    pub relu: bool,
}

/// A subnormal flushed to zero of the same sign (`.FTZ`); other values unchanged.
pub fn flush(bits: u64, f: Format) -> u64 {
    if is_subnormal(bits, f) { bits & f.sign_bit() } else { bits }
}

fn one(f: Format) -> u64 {
    (f.bias() as u64) << f.mantissa
}

/// Applies the modifiers to a rounded result (after the op).
fn finish(r: u64, f: Format, m: Modifiers) -> u64 {
    let mut r = r;
    if m.sat {
        r = match unpack(r, f) {
            Value::Nan | Value::Zero { .. } => 0,
            Value::Inf { neg: true } | Value::Finite { neg: true, .. } => 0,
            _ if r > one(f) => one(f),
            _ => r,
        };
    } else if m.relu {
        r = match unpack(r, f) {
            Value::Inf { neg: true } | Value::Finite { neg: true, .. } => 0,
            _ => r,
        };
    }
    if m.ftz { flush(r, f) } else { r }
}

/// `a + b` with the ISA's modifiers.
pub fn add_mod(a: u64, b: u64, f: Format, mode: Round, m: Modifiers) -> u64 {
    let (a, b) = if m.ftz { (flush(a, f), flush(b, f)) } else { (a, b) };
    finish(add(a, b, f, mode), f, m)
}

/// `a * b` with the ISA's modifiers.
pub fn mul_mod(a: u64, b: u64, f: Format, mode: Round, m: Modifiers) -> u64 {
    mul_mod_scaled(a, b, 0, f, mode, m)
}

/// FMUL: `a * 2^scale * b` with the ISA's modifiers (inputs flushed before scaling).
pub fn mul_mod_scaled(a: u64, b: u64, scale: i32, f: Format, mode: Round, m: Modifiers) -> u64 {
    let (a, b) = if m.ftz { (flush(a, f), flush(b, f)) } else { (a, b) };
    finish(mul_scaled(a, b, scale, f, mode), f, m)
}

/// `a * b + c` with the ISA's modifiers.
pub fn fma_mod(a: u64, b: u64, c: u64, f: Format, mode: Round, m: Modifiers) -> u64 {
    let (a, b, c) = if m.ftz { (flush(a, f), flush(b, f), flush(c, f)) } else { (a, b, c) };
    finish(fma(a, b, c, f, mode), f, m)
}

/// The exact value of non-NaN bits (every format here fits in an f64).
fn exact(bits: u64, f: Format) -> f64 {
    match unpack(bits, f) {
        Value::Nan => f64::NAN,
        Value::Inf { neg } => if neg { f64::NEG_INFINITY } else { f64::INFINITY },
        Value::Zero { neg } => if neg { -0.0 } else { 0.0 },
        Value::Finite { neg, mant, exp } => {
            let v = mant as f64 * 2f64.powi(exp);
            if neg { -v } else { v }
        }
    }
}

/// FMNMX/HMNMX2: `min(a, b)` if `take_min`, else `max(a, b)`.
///
/// With `nan` (`.NAN`), any NaN input gives the canonical NaN; without it, one
/// NaN input gives the other input and two give the canonical NaN
/// (`spec/001_falu.txt:42-46`). `.FTZ` flushes subnormal inputs, in both
/// cases (the prose says inputs are flushed; the pseudo-code only does it when
/// no input is NaN). -0 orders below +0 (the spec gives no rule).
pub fn min_max(a: u64, b: u64, f: Format, take_min: bool, nan: bool, ftz: bool) -> u64 {
    let (a, b) = if ftz { (flush(a, f), flush(b, f)) } else { (a, b) };
    match (is_nan(a, f), is_nan(b, f)) {
        (true, true) => return f.canonical_nan(),
        (true, false) | (false, true) if nan => return f.canonical_nan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let (x, y) = (exact(a, f), exact(b, f));
    let a_first = if x == y {
        // Equal values: only zeros of opposite signs differ; -0 < +0.
        let a_neg = a & f.sign_bit() != 0;
        a_neg == take_min
    } else {
        (x < y) == take_min
    };
    if a_first { a } else { b }
}

/// Float comparisons of FSETP/FSET/HSETP2/HSET2 (`.cmp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// Ordered equal: false when an input is NaN.
    EQ,
    /// Ordered not equal: false when an input is NaN.
    NE,
    /// Ordered less than.
    LT,
    /// Ordered less than or equal.
    LE,
    /// Ordered greater than.
    GT,
    /// Ordered greater than or equal.
    GE,
    /// Unordered or equal: true when an input is NaN.
    EQU,
    /// Unordered or not equal: true when an input is NaN.
    NEU,
    /// Unordered or less than.
    LTU,
    /// Unordered or less than or equal.
    LEU,
    /// Unordered or greater than.
    GTU,
    /// Unordered or greater than or equal.
    GEU,
    /// At least one input is NaN.
    NAN,
    /// Neither input is NaN.
    NUM,
}

impl Cmp {
    /// All comparisons, in the order of the spec's `.cmp` table.
    pub const ALL: [Cmp; 14] = [
        Cmp::EQ, Cmp::NE, Cmp::LT, Cmp::LE, Cmp::GT, Cmp::GE, Cmp::EQU, Cmp::NEU, Cmp::LTU, Cmp::LEU, Cmp::GTU, Cmp::GEU,
        Cmp::NAN, Cmp::NUM,
    ];
}

/// `a cmp b`: ordered comparisons are false and unordered ones true when an
/// input is NaN (`spec/001_falu.txt`, `.cmp` table); -0 equals +0; `.FTZ`
/// flushes subnormal inputs first.
pub fn compare(a: u64, b: u64, f: Format, cmp: Cmp, ftz: bool) -> bool {
    let (a, b) = if ftz { (flush(a, f), flush(b, f)) } else { (a, b) };
    let unordered = is_nan(a, f) || is_nan(b, f);
    let (x, y) = (exact(a, f), exact(b, f));
    match cmp {
        Cmp::NAN => unordered,
        Cmp::NUM => !unordered,
        Cmp::EQ => !unordered && x == y,
        Cmp::NE => !unordered && x != y,
        Cmp::LT => !unordered && x < y,
        Cmp::LE => !unordered && x <= y,
        Cmp::GT => !unordered && x > y,
        Cmp::GE => !unordered && x >= y,
        Cmp::EQU => unordered || x == y,
        Cmp::NEU => unordered || x != y,
        Cmp::LTU => unordered || x < y,
        Cmp::LEU => unordered || x <= y,
        Cmp::GTU => unordered || x > y,
        Cmp::GEU => unordered || x >= y,
    }
}

/// F2F: converts `bits` of format `from` to format `to`, rounded once in
/// `mode`; `.FTZ` flushes a subnormal input and a subnormal result. NaN gives
/// the target's canonical NaN; infinities and zeros keep their sign.
pub fn convert(bits: u64, from: Format, to: Format, mode: Round, ftz: bool) -> u64 {
    let bits = if ftz { flush(bits, from) } else { bits };
    let r = match unpack(bits, from) {
        Value::Nan => to.canonical_nan(),
        Value::Inf { neg } => inf(neg, to),
        Value::Zero { neg } => zero(neg, to),
        Value::Finite { neg, mant, exp } => round_pack(neg, mant as u128, exp, false, to, mode),
    };
    if ftz { flush(r, to) } else { r }
}

/// I2F: converts an integer (already sign- or zero-extended by the caller
/// from its 8/16/32-bit source) to format `to`, rounded once in `mode`.
pub fn from_int(v: i64, to: Format, mode: Round) -> u64 {
    if v == 0 {
        return 0;
    }
    round_pack(v < 0, v.unsigned_abs() as u128, 0, false, to, mode)
}

/// Integer rounding of F2I/FRND (`.rnd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRound {
    /// To nearest, ties to even.
    Round,
    /// Toward positive infinity.
    Ceil,
    /// Toward negative infinity.
    Floor,
    /// Toward zero.
    Trunc,
}

/// Rounds `mant * 2^exp` (non-negative) to an integer; `None` if it exceeds u128.
fn round_to_integer(neg: bool, mant: u64, exp: i32, r: IntRound) -> Option<u128> {
    if exp >= 0 {
        return if exp >= 64 { None } else { Some((mant as u128) << exp) };
    }
    let s = (-exp) as u32;
    let (kept, rem, half) = if s >= 64 {
        (0u128, mant as u128, if s == 64 { 1u128 << 63 } else { u128::MAX })
    } else {
        ((mant >> s) as u128, (mant & ((1u64 << s) - 1)) as u128, 1u128 << (s - 1))
    };
    let up = match r {
        IntRound::Trunc => false,
        IntRound::Round => rem > half || (rem == half && s <= 64 && kept & 1 == 1),
        IntRound::Ceil => rem != 0 && !neg,
        IntRound::Floor => rem != 0 && neg,
    };
    Some(kept + up as u128)
}

/// F2I: float bits to an integer of `bits` bits (`signed` or not), saturated,
/// then sign- or zero-extended to the 32-bit register. NaN gives 0 with `ntz`,
/// else 0x80000000 (the seed's F2I pseudo-code); `ftz` turns a subnormal input
/// into 0 before rounding.
pub fn to_int(x: u64, f: Format, r: IntRound, bits: u32, signed: bool, ftz: bool, ntz: bool) -> u32 {
    let (min, max): (i128, i128) = if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    let x = if ftz { flush(x, f) } else { x };
    let v: i128 = match unpack(x, f) {
        Value::Nan => return if ntz { 0 } else { 0x8000_0000 },
        Value::Inf { neg } => if neg { min } else { max },
        Value::Zero { .. } => 0,
        Value::Finite { neg, mant, exp } => match round_to_integer(neg, mant, exp, r) {
            None => if neg { min } else { max },
            Some(m) => {
                let m = m.min(1u128 << 100) as i128;
                if neg { -m } else { m }
            }
        },
    };
    v.clamp(min, max) as i64 as u32
}

/// `.lop` of the set-predicate instructions: how the comparison result
/// combines with the predicate operand `pp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lop {
    /// `.AND`: `a && b`.
    And,
    /// `.OR`: `a || b`.
    Or,
    /// `.XOR`: `a != b`.
    Xor,
}

impl Lop {
    /// `a lop b`.
    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            Lop::And => a && b,
            Lop::Or => a || b,
            Lop::Xor => a != b,
        }
    }
}

/// The two predicates FSETP (and HSETP2, ISETP) write from the comparison `t`
/// and `pp`: `pu = t lop pp`, `pv = !t lop pp` (FSETP `__Semantics`).
pub fn set_predicates(t: bool, pp: bool, lop: Lop) -> (bool, bool) {
    (lop.apply(t, pp), lop.apply(!t, pp))
}

/// FCHK: whether `a / b` needs the slow path of a software division (FCHK
/// `__Semantics`). The exponents are the F32 exponent field (bits 30..23;
/// the spec's "31:24" is a typo) minus 127; a `-`/`|..|` on an operand
/// changes only its sign, so it does not matter here.
pub fn fchk(a: u32, b: u32) -> bool {
    let exp = |x: u32| ((x >> 23) & 0xFF) as i32 - 127;
    let (ea, eb) = (exp(a), exp(b));
    let (emin, emax, n) = (-126, 127, 23);
    ea <= emin + n || ea > emax || eb <= emin || eb >= emax - 2 || ea - eb <= emin + 1 || ea - eb >= emax
}

/// F2IP's modifiers: the integer type, rounding (`.ROUND` or `.TRUNC`),
/// `.NTZ`, `.RELU`, and which half of Rc fills the result's high half.
#[derive(Clone, Copy, Debug)]
pub struct F2ip {
    /// The integer type is S8 (else U8).
    pub signed: bool,
    /// How the value is rounded to an integer (`.rnd`).
    pub round: IntRound,
    /// `.NTZ`: a NaN input gives 0.
    pub ntz: bool,
    /// `.RELU`: a negative S8 result becomes 0.
    pub relu: bool,
    /// Bits 31..16 of the result come from Rc's high half (else its low half).
    pub rc_high: bool,
}

/// F2IP: two F32 values to 8-bit integers packed into 16 bits (`a` in bits
/// 7..0, `b` in 15..8), bits 31..16 from Rc's low or high half (the seed's
/// F2IP pseudo-code). Out-of-range values and infinities saturate; NaN gives
/// 0 with `.NTZ`, else -128 (S8) or 128 (U8); `.RELU` then raises a negative
/// S8 result to 0 (the pseudo-code applies it to S8 only, the spec forbids it
/// with U8).
pub fn f2ip(a: u32, b: u32, rc: u32, m: F2ip) -> u32 {
    let lane = |x: u32| -> u32 {
        let v = if is_nan(x as u64, F32) {
            if m.ntz {
                0
            } else if m.signed {
                -128
            } else {
                128
            }
        } else {
            to_int(x as u64, F32, m.round, 8, m.signed, false, false) as i32
        };
        let v = if m.relu && m.signed { v.max(0) } else { v };
        v as u32 & 0xFF
    };
    let high = if m.rc_high { rc >> 16 } else { rc & 0xFFFF };
    lane(a) | lane(b) << 8 | high << 16
}

/// FRND: rounds to an integral value in the same format. NaN gives the
/// canonical NaN, infinities pass through, `.FTZ` flushes a subnormal input to
/// signed zero, and a zero result keeps the input's sign (IEEE roundToIntegral).
pub fn round_integral(x: u64, f: Format, r: IntRound, ftz: bool) -> u64 {
    let x = if ftz { flush(x, f) } else { x };
    match unpack(x, f) {
        Value::Nan => f.canonical_nan(),
        Value::Inf { .. } | Value::Zero { .. } => x,
        Value::Finite { neg, mant, exp } => {
            if exp >= 0 {
                return x; // already an integer
            }
            match round_to_integer(neg, mant, exp, r) {
                Some(0) | None => zero(neg, f),
                Some(m) => round_pack(neg, m, 0, false, f, Round::RN),
            }
        }
    }
}
