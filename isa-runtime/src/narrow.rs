//! The narrow float formats of F2FP and conversions to and from them: TF32,
//! F16, BF16, FP8 (E5M2, E4M3), FP6 (E3M2, E2M3), FP4 (E2M1) and the
//! exponent-only E8 (UE8M0). Each element is rounded once, to nearest with
//! ties to even (F2FP has no rounding modifier); E8 rounds to the nearer power
//! of two, ties up. Decisions the spec leaves open (`docs/semantics.md`),
//! checked against `ml_dtypes` by `tests/float_vectors.rs`:
//!
//! * NaN: formats with a NaN give their canonical NaN (every exponent and
//!   mantissa bit set, sign clear: E5M2 `0x7F`, E4M3 `0x7F`, F16 `0x7FFF`,
//!   TF32 `0x7FFFE000`, E8 `0xFF`); FP6 and FP4 have none and give +0.
//! * Overflow: IEEE-like formats (F16, BF16, TF32, E5M2) give infinity, E4M3
//!   and E8 give NaN, FP6/FP4 saturate; with `.SATFINITE` every format
//!   saturates to its largest finite value (infinite inputs included).
//! * `.RELU`: a negative input (-Inf included) gives +0; -0 stays -0 (as in
//!   HFMA2); NaN stays NaN.
//! * E8 has no sign and no zero: negative values, zeros and NaN give NaN,
//!   values below 2^-127 give 2^-127. It rounds to the nearer power of two
//!   (ties up) for every input; `ml_dtypes` agrees for inputs from 2^-126 up
//!   but rounds smaller ones on the input's subnormal grid.

use crate::float::{self, Format, Value};

/// An F2FP element format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// IEEE binary32.
    F32,
    /// TF32: 8 exponent and 10 mantissa bits, in the high 19 bits of a 32-bit word.
    TF32,
    /// IEEE binary16.
    F16,
    /// bfloat16: 8 exponent and 7 mantissa bits.
    BF16,
    /// FP8 with 5 exponent and 2 mantissa bits, with infinities and NaNs.
    E5M2,
    /// FP8 with 4 exponent and 3 mantissa bits: no infinity, only the all-ones code is NaN.
    E4M3,
    /// FP6 with 3 exponent and 2 mantissa bits: no infinity, no NaN.
    E3M2,
    /// FP6 with 2 exponent and 3 mantissa bits: no infinity, no NaN.
    E2M3,
    /// FP4 with 2 exponent bits and 1 mantissa bit: no infinity, no NaN.
    E2M1,
    /// UE8M0: an unsigned power of two (8 exponent bits); `0xFF` is NaN.
    E8,
}

/// What a format does at its top exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Top {
    /// Infinity and NaN (IEEE 754).
    Ieee,
    /// Only the all-ones code is NaN (E4M3).
    NanOnly,
    /// Ordinary numbers (FP6, FP4): no infinity, no NaN.
    Finite,
}

impl Narrow {
    /// Exponent and mantissa bits (E8: 8 and 0, unsigned).
    fn bits(self) -> (u32, u32) {
        match self {
            Narrow::F32 => (8, 23),
            Narrow::TF32 => (8, 10),
            Narrow::F16 => (5, 10),
            Narrow::BF16 => (8, 7),
            Narrow::E5M2 => (5, 2),
            Narrow::E4M3 => (4, 3),
            Narrow::E3M2 => (3, 2),
            Narrow::E2M3 => (2, 3),
            Narrow::E2M1 => (2, 1),
            Narrow::E8 => (8, 0),
        }
    }
    fn top(self) -> Top {
        match self {
            Narrow::E4M3 => Top::NanOnly,
            Narrow::E3M2 | Narrow::E2M3 | Narrow::E2M1 => Top::Finite,
            _ => Top::Ieee,
        }
    }
    /// Width of one element as stored (TF32 in 32 bits, every E format in 8).
    pub fn slot_bits(self) -> u32 {
        match self {
            Narrow::F32 | Narrow::TF32 => 32,
            Narrow::F16 | Narrow::BF16 => 16,
            _ => 8,
        }
    }
    /// Largest finite code (sign clear).
    fn max_code(self) -> u32 {
        let (e, m) = self.bits();
        match self.top() {
            Top::Ieee if self == Narrow::E8 => 0xFE,
            Top::Ieee => ((1 << e) - 2) << m | ((1 << m) - 1),
            Top::NanOnly => ((1 << (e + m)) - 1) - 1,
            Top::Finite => (1 << (e + m)) - 1,
        }
    }
    /// The canonical NaN, if the format has one.
    fn nan(self) -> Option<u32> {
        let (e, m) = self.bits();
        match self.top() {
            Top::Finite => None,
            _ => Some((1 << (e + m)) - 1),
        }
    }
    /// Code of the sign bit (none for E8).
    fn sign(self) -> u32 {
        let (e, m) = self.bits();
        if self == Narrow::E8 {
            0
        } else {
            1 << (e + m)
        }
    }
}

/// Decodes an element into an exact value.
pub fn decode(code: u32, f: Narrow) -> Value {
    let (e, m) = f.bits();
    if f == Narrow::E8 {
        return match code & 0xFF {
            0xFF => Value::Nan,
            c => Value::Finite { neg: false, mant: 1, exp: c as i32 - 127 },
        };
    }
    let code = if f == Narrow::TF32 { code >> 13 } else { code };
    let neg = code & f.sign() != 0;
    let bexp = (code >> m) & ((1 << e) - 1);
    let man = (code & ((1 << m) - 1)) as u64;
    let bias = (1i32 << (e - 1)) - 1;
    if bexp == (1 << e) - 1 {
        match f.top() {
            Top::Ieee if man == 0 => return Value::Inf { neg },
            Top::Ieee => return Value::Nan,
            Top::NanOnly if man == (1 << m) - 1 => return Value::Nan,
            _ => {}
        }
    }
    if bexp == 0 && man == 0 {
        return Value::Zero { neg };
    }
    if bexp == 0 {
        Value::Finite { neg, mant: man, exp: 1 - bias - m as i32 }
    } else {
        Value::Finite { neg, mant: man | 1 << m, exp: bexp as i32 - bias - m as i32 }
    }
}

/// `mant * 2^exp` rounded to nearest-even into `f`: the code (sign clear)
/// and whether it overflowed the largest finite value.
fn round(mant: u128, exp: i32, f: Narrow) -> (u32, bool) {
    let (e, m) = f.bits();
    let bias = (1i32 << (e - 1)) - 1;
    let emin = 1 - bias;
    let nb = 128 - mant.leading_zeros() as i32;
    let top = exp + nb - 1;
    let q = top.max(emin) - m as i32;
    let shift = q - exp;
    let mut n = if shift <= 0 {
        if -shift >= 100 {
            return (u32::MAX, true);
        }
        mant << -shift
    } else if shift >= 128 {
        0
    } else {
        let kept = mant >> shift;
        let rem = mant & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        kept + (rem > half || (rem == half && kept & 1 == 1)) as u128
    };
    let mut q = q;
    if n >> (m + 1) != 0 {
        n >>= 1;
        q += 1;
    }
    if n >> 64 != 0 {
        return (u32::MAX, true);
    }
    let n = n as u64;
    let code = if n >> m == 0 {
        n
    } else {
        let bexp = q + m as i32 + bias;
        if bexp >= 1 << (e + 1) {
            return (u32::MAX, true);
        }
        (bexp as u64) << m | (n & ((1 << m) - 1))
    };
    let code = code.min(u32::MAX as u64) as u32;
    (code, code > f.max_code())
}

/// E8: the nearer power of two of `mant * 2^exp`, ties up.
fn round_e8(mant: u128, exp: i32) -> (u32, bool) {
    let nb = 128 - mant.leading_zeros() as i32;
    let top = exp + nb - 1;
    // v >= 1.5 * 2^top rounds up: the two bits below the leading one.
    let up = nb >= 2 && (mant >> (nb - 2)) & 1 == 1;
    let p = top + up as i32;
    if p < -127 {
        (0, false)
    } else if p > 127 {
        (0xFF, true)
    } else {
        ((p + 127) as u32, false)
    }
}

/// Converts an exact value to format `f` (the element's code, in its slot).
pub fn encode(v: Value, f: Narrow, satfinite: bool, relu: bool) -> u32 {
    let max = f.max_code();
    let nan = f.nan();
    let code = match v {
        Value::Nan => nan.unwrap_or(0),
        _ if f == Narrow::E8 => match v {
            Value::Finite { neg: false, mant, exp } => match round_e8(mant as u128, exp) {
                (_, true) if satfinite => max,
                (c, _) => c,
            },
            Value::Inf { neg: false } if satfinite => max,
            _ => 0xFF,
        },
        Value::Inf { neg } => {
            let sign = if neg { f.sign() } else { 0 };
            if relu && neg {
                0
            } else if satfinite || f.top() == Top::Finite {
                sign | max
            } else if f.top() == Top::Ieee {
                sign | nan.map_or(max, |n| n & !((1 << f.bits().1) - 1))
            } else {
                // E4M3 has no infinity: the canonical NaN (sign clear).
                nan.unwrap_or(max)
            }
        }
        Value::Zero { neg } => {
            if neg {
                f.sign()
            } else {
                0
            }
        }
        Value::Finite { neg, mant, exp } => {
            if relu && neg {
                return 0;
            }
            let sign = if neg { f.sign() } else { 0 };
            let (c, over) = round(mant as u128, exp, f);
            if !over {
                sign | c
            } else if satfinite || f.top() == Top::Finite {
                sign | max
            } else if f.top() == Top::Ieee {
                // Infinity: the all-ones exponent, mantissa zero.
                sign | (nan.unwrap_or(max) & !((1 << f.bits().1) - 1))
            } else {
                nan.unwrap_or(max)
            }
        }
    };
    if f == Narrow::TF32 {
        code << 13
    } else {
        code
    }
}

/// Converts one element from `from` to `to`.
pub fn convert(code: u32, from: Narrow, to: Narrow, satfinite: bool, relu: bool) -> u32 {
    let v = match from {
        Narrow::F32 => float::unpack(code as u64, float::F32),
        Narrow::F16 => float::unpack(code as u64 & 0xFFFF, float::F16),
        Narrow::BF16 => float::unpack(code as u64 & 0xFFFF, float::BF16),
        _ => decode(code, from),
    };
    encode(v, to, satfinite, relu)
}

/// The binary32 format of a [`Narrow`] that is IEEE-like, for callers that
/// want [`float`]'s kernels.
pub fn ieee(f: Narrow) -> Option<Format> {
    match f {
        Narrow::F32 => Some(float::F32),
        Narrow::F16 => Some(float::F16),
        Narrow::BF16 => Some(float::BF16),
        _ => None,
    }
}

/// F2FP (our semantics; the seed gives none, `docs/semantics.md`):
///
/// * narrowing (the destination is narrower than the source): `SrcB`'s element
///   `vsel` and `Ra`'s element 0 are converted; a 32-bit result (TF32) is
///   `SrcB`'s; 16-bit results are packed `Ra` high, `SrcB` low; 8-bit ones
///   `SrcB` in byte 0, `Ra` in byte 1 and `Rc`'s half `rc_high` (H1 or H0) in
///   bits 31..16;
/// * widening (E formats to F16, E8 to BF16): element `vsel` of `SrcB` to the
///   low half of `Rd`, element `vsel` of `Ra` to the high half.
#[allow(clippy::too_many_arguments)]
pub fn f2fp(ra: u32, srcb: u32, vsel: u32, rc: u32, rc_high: bool, from: Narrow, to: Narrow, satfinite: bool, relu: bool) -> u32 {
    let sb = from.slot_bits();
    let element = |x: u32, sel: u32| -> u32 {
        if sb == 32 {
            x
        } else {
            (x >> ((sel * sb) % 32)) & ((1 << sb) - 1)
        }
    };
    let cvt = |x: u32| convert(x, from, to, satfinite, relu);
    let b = cvt(element(srcb, vsel));
    let a = |sel| cvt(element(ra, sel));
    if to.slot_bits() > from.slot_bits() {
        return a(vsel) << 16 | b;
    }
    match to.slot_bits() {
        32 => b,
        16 => a(0) << 16 | b,
        _ => {
            let half = if rc_high { rc >> 16 } else { rc & 0xFFFF };
            half << 16 | a(0) << 8 | b
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32c(x: f32, to: Narrow) -> u32 {
        convert(x.to_bits(), Narrow::F32, to, false, false)
    }

    #[test]
    fn known_codes() {
        assert_eq!(f32c(3.0, Narrow::E5M2), 0x42);
        assert_eq!(f32c(1e9, Narrow::E5M2), 0x7C);
        assert_eq!(f32c(61439.0, Narrow::E5M2), 0x7B);
        assert_eq!(f32c(61440.0, Narrow::E5M2), 0x7C);
        assert_eq!(f32c(464.0, Narrow::E4M3), 0x7E);
        assert_eq!(f32c(480.0, Narrow::E4M3), 0x7F);
        assert_eq!(f32c(2f32.powi(-10), Narrow::E4M3), 0);
        assert_eq!(f32c(1e9, Narrow::E3M2), 0x1F);
        assert_eq!(f32c(0.75, Narrow::E2M1), 0x2);
        assert_eq!(f32c(3.0, Narrow::E8), 0x81);
        assert_eq!(f32c(0.0, Narrow::E8), 0xFF);
        assert_eq!(f32c(2f32.powi(-129), Narrow::E8), 0);
        assert_eq!(f32c(1.0, Narrow::TF32), 0x3F80_0000);
        assert_eq!(convert(f32::INFINITY.to_bits(), Narrow::F32, Narrow::E4M3, true, false), 0x7E);
        assert_eq!(convert((-2.0f32).to_bits(), Narrow::F32, Narrow::E4M3, false, true), 0);
        assert_eq!(convert(0x7C, Narrow::E5M2, Narrow::F16, false, false), 0x7C00);
        assert_eq!(convert(0x7F, Narrow::E4M3, Narrow::F16, false, false), 0x7FFF);
        assert_eq!(convert(0x00, Narrow::E8, Narrow::BF16, false, false), 0x0040);
    }

    #[test]
    fn packing() {
        let one = 1.0f32.to_bits();
        let two = 2.0f32.to_bits();
        assert_eq!(f2fp(two, one, 0, 0xABCD_1234, true, Narrow::F32, Narrow::E4M3, false, false), 0xABCD_4038);
        assert_eq!(f2fp(two, one, 0, 0, false, Narrow::F32, Narrow::F16, false, false), 0x4000_3C00);
        assert_eq!(f2fp(0x3800, 0x3800, 1, 0, false, Narrow::E4M3, Narrow::F16, false, false), 0x3C00_3C00);
    }
}
