//! `isa-reference`: the reference semantics of the built-in ISA (the seeds),
//! as the hand-written implementation of its generated `Kernels` trait. Each
//! method maps the generated field types (the spec's enums) onto the float
//! and integer kernels of `isa-runtime` and nothing else: the arithmetic
//! lives there, tested against MPFR. Decisions where the spec is silent or
//! wrong are recorded in `docs/semantics.md`.
//!
//! The trait is generated into each crate that embeds the ISA (`generated/`,
//! or an `isa!` expansion), so the implementation is a macro, which Rust's
//! orphan rule wants expanded in a crate that owns the trait or the type:
//! [`reference_kernels!`] defines a `Reference` type (or a name given with
//! `as`) where it is called and implements the generated module's `Kernels`
//! for it:
//!
//! ```text
//! isa_macros::isa! { include "spec/**/*.txt"; module gpu; }
//! isa_reference::reference_kernels!(gpu);
//! // gpu::Instruction::execute(&i, &mut warp, &Reference)
//! ```
//!
//! The ISA must be the built-in one (the same hooks, fields and types);
//! this crate depends on `isa-runtime` only, not on `generated/`.

#[doc(hidden)]
pub use isa_runtime as __runtime;

/// Defines `pub struct Reference` here and implements for it the `Kernels`
/// trait of the built-in ISA's generated module `$isa` (`isa_generated`, or
/// the module an `isa!` expansion made, such as `gpu` or `crate::gpu`).
/// `reference_kernels!(gpu as Semantics)` names the type `Semantics`
/// instead (two expansions in one module, or a name of the caller's own).
#[macro_export]
macro_rules! reference_kernels {
    ($($isa:ident)::+) => {
        $crate::reference_kernels!($($isa)::+ as Reference);
    };
    ($($isa:ident)::+ as $name:ident) => {
        /// The reference semantics of the built-in ISA (`isa-reference`): the
        /// `Kernels` its `execute` functions call.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;

        const _: () = {
            use $($isa)::+::sim::Kernels;
            use $($isa)::+::*;
            use $crate::__runtime::float::{self, Cmp, Format, IntRound, Lop, Modifiers, Round, BF16, F16, F32};
            use $crate::__runtime::int::{self, ICmp, Idp, Prmt, Shf};
            use $crate::__runtime::narrow::{self, Narrow};
            use $crate::__runtime::sim::LANES;

            fn round(r: FPRound) -> Round {
                match r {
                    FPRound::RN => Round::RN,
                    FPRound::RP => Round::RP,
                    FPRound::RM => Round::RM,
                    FPRound::RZ => Round::RZ,
                }
            }

            fn int_round(r: F2IRnd) -> IntRound {
                match r {
                    F2IRnd::ROUND => IntRound::Round,
                    F2IRnd::CEIL => IntRound::Ceil,
                    F2IRnd::FLOOR => IntRound::Floor,
                    F2IRnd::TRUNC => IntRound::Trunc,
                }
            }

            fn h2_format(f: HFmtV2) -> Format {
                match f {
                    HFmtV2::F16_V2 => F16,
                    HFmtV2::BF16_V2 => BF16,
                }
            }

            fn ftype(f: FTypesNoF64) -> Format {
                match f {
                    FTypesNoF64::F32 => F32,
                    FTypesNoF64::F16 => F16,
                    FTypesNoF64::BF16 => BF16,
                }
            }

            fn cmp(c: FCMPOp) -> Cmp {
                // By name, as every other mapping here: a spec that renumbers
                // `.cmp` must not compare by the old numbers.
                match c {
                    FCMPOp::EQ => Cmp::EQ,
                    FCMPOp::NE => Cmp::NE,
                    FCMPOp::LT => Cmp::LT,
                    FCMPOp::LE => Cmp::LE,
                    FCMPOp::GT => Cmp::GT,
                    FCMPOp::GE => Cmp::GE,
                    FCMPOp::EQU => Cmp::EQU,
                    FCMPOp::NEU => Cmp::NEU,
                    FCMPOp::LTU => Cmp::LTU,
                    FCMPOp::LEU => Cmp::LEU,
                    FCMPOp::GTU => Cmp::GTU,
                    FCMPOp::GEU => Cmp::GEU,
                    FCMPOp::NAN => Cmp::NAN,
                    FCMPOp::NUM => Cmp::NUM,
                }
            }

            fn lop(l: LOPOp) -> Lop {
                match l {
                    LOPOp::AND => Lop::And,
                    LOPOp::OR => Lop::Or,
                    LOPOp::XOR => Lop::Xor,
                }
            }

            fn bool_op(b: BoolOp) -> Lop {
                match b {
                    BoolOp::AND => Lop::And,
                    BoolOp::OR => Lop::Or,
                    BoolOp::XOR => Lop::Xor,
                }
            }

            fn icmp_op(c: CompOp) -> ICmp {
                match c {
                    CompOp::EQ => ICmp::Eq,
                    CompOp::NE => ICmp::Ne,
                    CompOp::LT => ICmp::Lt,
                    CompOp::LE => ICmp::Le,
                    CompOp::GT => ICmp::Gt,
                    CompOp::GE => ICmp::Ge,
                }
            }

            /// Width and signedness of an integer type.
            fn itype_bits(t: FullITypesNoI64) -> (u32, bool) {
                match t {
                    FullITypesNoI64::S8 => (8, true),
                    FullITypesNoI64::U8 => (8, false),
                    FullITypesNoI64::S16 => (16, true),
                    FullITypesNoI64::U16 => (16, false),
                    FullITypesNoI64::S32 => (32, true),
                    FullITypesNoI64::U32 => (32, false),
                }
            }

            /// Applies `f` to both 16-bit lanes (lane 0 in bits 15..0).
            fn lanes2(a: u32, b: u32, f: impl Fn(u64, u64) -> u64) -> u32 {
                let lo = f((a & 0xFFFF) as u64, (b & 0xFFFF) as u64) as u32 & 0xFFFF;
                let hi = f((a >> 16) as u64, (b >> 16) as u64) as u32 & 0xFFFF;
                hi << 16 | lo
            }

            /// The half `hsel` picks of a 16-bit source, or the whole word for 32 bits.
            fn pick_half(v: u32, bits: u32, hsel: HSel) -> u64 {
                match (bits, hsel) {
                    (32, _) => v as u64,
                    (_, HSel::H0) => (v & 0xFFFF) as u64,
                    (_, HSel::H1) => (v >> 16) as u64,
                }
            }

            /// `-x`, `|x|` on the sign bit of a value of format `f`.
            fn sign_mods(x: u64, f: Format, neg: SignModi, abs: SignModi) -> u64 {
                let s = 1u64 << (f.width() - 1);
                let x = if abs == SignModi::True { x & !s } else { x };
                if neg == SignModi::True {
                    x ^ s
                } else {
                    x
                }
            }

            /// `-x` (two's complement), or `~x` under `.X` (IADD, IMAD, LEA: with `.X`
            /// the prefix is `~`, see the assembler's CvtINegX).
            fn int_neg(x: u32, neg: SignModi, ext: IExt) -> u32 {
                addend(x, neg, ext) as u32
            }

            /// An adder input as the adder sees it (33 bits): `-x` is `~x + 1`, so `-0`
            /// is 2^32 and carries out. That carry is what lets `-c` in the low word and
            /// `~c` with the carry in the high word subtract a 64-bit value (the spec's
            /// `IMAD R0, P0, R2, R3, -R4` / `IMAD.HI.X R1, R2, R3, ~R5, P0`, also when R4
            /// is 0). Under `.X` the prefix is `~` and the carry in supplies the `+ 1`.
            fn addend(x: u32, neg: SignModi, ext: IExt) -> u64 {
                match (neg, ext) {
                    (SignModi::False, _) => x as u64,
                    (SignModi::True, IExt::X) => !x as u64,
                    (SignModi::True, IExt::NoX) => !x as u64 + 1,
                }
            }

            /// `a + b + carry_in` over adder inputs ([`addend`]): the low word and whether
            /// the sum carries out of it.
            fn add33(a: u64, b: u64, carry_in: bool) -> (u32, bool) {
                let t = a + b + carry_in as u64;
                (t as u32, t >> 32 != 0)
            }

            /// `-x` on every float lane whose sign bit is in `signs`, when `m` is set.
            fn flip_signs(v: u32, m: SignModi, signs: u32) -> u32 {
                if m == SignModi::True {
                    v ^ signs
                } else {
                    v
                }
            }

            /// `|x|` on every float lane whose sign bit is in `signs`, when `m` is set.
            fn clear_signs(v: u32, m: SignModi, signs: u32) -> u32 {
                if m == SignModi::True {
                    v & !signs
                } else {
                    v
                }
            }

            impl Kernels for $name {
                // --- operand modifiers -------------------------------------------------

                fn f32_neg(&self, v: u32, m: SignModi) -> u32 {
                    flip_signs(v, m, 0x8000_0000)
                }
                fn f32_abs(&self, v: u32, m: SignModi) -> u32 {
                    clear_signs(v, m, 0x8000_0000)
                }
                fn h2_neg(&self, v: u32, m: SignModi) -> u32 {
                    flip_signs(v, m, 0x8000_8000)
                }
                fn h2_abs(&self, v: u32, m: SignModi) -> u32 {
                    clear_signs(v, m, 0x8000_8000)
                }
                fn h2_hsel2(&self, v: u32, m: HSel2) -> u32 {
                    match m {
                        HSel2::H1_H0 => v,
                        HSel2::H0_H0 => v << 16 | (v & 0xFFFF),
                        HSel2::H1_H1 => (v & 0xFFFF_0000) | v >> 16,
                    }
                }
                fn i32_neg(&self, v: u32, m: SignModi) -> u32 {
                    if m == SignModi::True {
                        v.wrapping_neg()
                    } else {
                        v
                    }
                }
                fn pred_not(&self, v: bool, m: PModi) -> bool {
                    v != (m == PModi::True)
                }

                // --- 16-bit pairs ------------------------------------------------------

                fn HADD2(&self, a: u32, b: u32, fmt: HFmtV2, ftz: FPFtz, sat: FPSat) -> u32 {
                    // The seed gives `.rnd` no field (W002): the result is rounded to nearest.
                    let (f, m) = (h2_format(fmt), Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: false });
                    lanes2(a, b, |x, y| float::add_mod(x, y, f, Round::RN, m))
                }
                fn HMUL2(&self, a: u32, b: u32, fmt: HFmtV2, ftz: FPFtz, sat: FPSat) -> u32 {
                    let (f, m) = (h2_format(fmt), Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: false });
                    lanes2(a, b, |x, y| float::mul_mod(x, y, f, Round::RN, m))
                }
                fn HFMA2(&self, a: u32, b: u32, c: u32, fmt: HFmtV2, ftz: FPFtz, relu: RELU, sat: FPSat) -> u32 {
                    let f = h2_format(fmt);
                    let m = Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: relu == RELU::RELU };
                    let lane = |k: u32| {
                        let x = |v: u32| ((v >> (16 * k)) & 0xFFFF) as u64;
                        float::fma_mod(x(a), x(b), x(c), f, Round::RN, m) as u32 & 0xFFFF
                    };
                    lane(1) << 16 | lane(0)
                }
                fn hmnmx2(&self, a: u32, b: u32, pp: bool, fmt: HFmtV2, ftz: FPFtz, nan: NAN) -> u32 {
                    let f = h2_format(fmt);
                    lanes2(a, b, |x, y| float::min_max(x, y, f, pp, nan == NAN::NAN, ftz == FPFtz::FTZ))
                }
                fn hsetp2(&self, a: u32, b: u32, pp: bool, fmt: HFmtV2, ftz: FPFtz, c: FCMPOp, l: LOPOp) -> (bool, bool) {
                    let f = h2_format(fmt);
                    let t = |k: u32| float::compare(((a >> (16 * k)) & 0xFFFF) as u64, ((b >> (16 * k)) & 0xFFFF) as u64, f, cmp(c), ftz == FPFtz::FTZ);
                    (lop(l).apply(t(0), pp), lop(l).apply(t(1), pp))
                }
                fn hset2(&self, a: u32, b: u32, pp: bool, fmt: HFmtV2, ftz: FPFtz, c: FCMPOp, l: LOPOp, bval: BVal) -> u32 {
                    let f = h2_format(fmt);
                    let one = if fmt == HFmtV2::F16_V2 { 0x3C00 } else { 0x3F80 };
                    lanes2(a, b, |x, y| {
                        let t = lop(l).apply(float::compare(x, y, f, cmp(c), ftz == FPFtz::FTZ), pp);
                        match (t, bval) {
                            (false, _) => 0,
                            (true, BVal::BM) => 0xFFFF,
                            (true, BVal::BF) => one,
                        }
                    })
                }

                // --- binary32 ------------------------------------------------------------

                fn fadd(&self, a: u32, b: u32, ftz: FPFtz, sat: FPSat, rnd: FPRound) -> u32 {
                    let m = Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: false };
                    float::add_mod(a as u64, b as u64, F32, round(rnd), m) as u32
                }
                fn fmul(&self, a: u32, b: u32, ftz: FPFtz, sat: FPSat, rnd: FPRound, scl: FMULScale) -> u32 {
                    let m = Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: false };
                    let scale = match scl {
                        FMULScale::NoScale => 0,
                        FMULScale::D2 => -1,
                        FMULScale::D4 => -2,
                        FMULScale::D8 => -3,
                        FMULScale::M2 => 1,
                        FMULScale::M4 => 2,
                        FMULScale::M8 => 3,
                    };
                    float::mul_mod_scaled(a as u64, b as u64, scale, F32, round(rnd), m) as u32
                }
                #[inline]
                fn fmaf(&self, a: u32, b: u32, c: u32, ftz: FPFtz, sat: FPSat, rnd: FPRound) -> u32 {
                    if ftz == FPFtz::NoFTZ && sat == FPSat::NoSAT {
                        return float::fma_f32(a, b, c, round(rnd));
                    }
                    let m = Modifiers { ftz: ftz == FPFtz::FTZ, sat: sat == FPSat::SAT, relu: false };
                    float::fma_mod(a as u64, b as u64, c as u64, F32, round(rnd), m) as u32
                }
                fn fmaf_lanes(&self, _mask: u32, a: &[u32; LANES], b: &[u32; LANES], c: &[u32; LANES], ftz: FPFtz, sat: FPSat, rnd: FPRound) -> [u32; LANES] {
                    if ftz == FPFtz::NoFTZ && sat == FPSat::NoSAT {
                        return float::fma_f32_lanes(a, b, c, round(rnd));
                    }
                    std::array::from_fn(|l| self.fmaf(a[l], b[l], c[l], ftz, sat, rnd))
                }
                fn fmnmx(&self, a: u32, b: u32, pp: bool, ftz: FPFtz, nan: NAN) -> u32 {
                    float::min_max(a as u64, b as u64, F32, pp, nan == NAN::NAN, ftz == FPFtz::FTZ) as u32
                }
                fn fsetp(&self, a: u32, b: u32, pp: bool, ftz: FPFtz, c: FCMPOp, l: LOPOp) -> (bool, bool) {
                    let t = float::compare(a as u64, b as u64, F32, cmp(c), ftz == FPFtz::FTZ);
                    float::set_predicates(t, pp, lop(l))
                }
                fn fset(&self, a: u32, b: u32, pp: bool, ftz: FPFtz, c: FCMPOp, l: LOPOp, bval: BVal) -> u32 {
                    let t = lop(l).apply(float::compare(a as u64, b as u64, F32, cmp(c), ftz == FPFtz::FTZ), pp);
                    int::iset_value(t, bval == BVal::BF)
                }
                fn fsel(&self, a: u32, b: u32, pp: bool, ftz: FPFtz) -> u32 {
                    let v = if pp { a } else { b };
                    if ftz == FPFtz::FTZ {
                        float::flush(v as u64, F32) as u32
                    } else {
                        v
                    }
                }
                fn fchk(&self, a: u32, b: u32) -> bool {
                    float::fchk(a, b)
                }

                // --- conversions -----------------------------------------------------------

                fn i2f(&self, b: u32, vsel: VSel, itype: FullITypesNoI64, ft: FTypesNoF64, rnd: FPRound) -> u32 {
                    let (bits, signed) = itype_bits(itype);
                    let sel = if bits == 32 { 0 } else { vsel as u32 * bits };
                    let raw = (b >> sel) as u64 & ((1u64 << bits) - 1);
                    let v = if signed { isa_runtime::sim::sign_extend(raw, bits) } else { raw as i64 };
                    float::from_int(v, ftype(ft), round(rnd)) as u32
                }
                fn f2f(&self, b: u32, neg: SignModi, abs: SignModi, hsel: HSel, src: FTypesNoF64, dst: FTypesNoF64, ftz: FPFtz, rnd: FPRound) -> u32 {
                    let (from, to) = (ftype(src), ftype(dst));
                    let x = sign_mods(pick_half(b, from.width(), hsel), from, neg, abs);
                    float::convert(x, from, to, round(rnd), ftz == FPFtz::FTZ) as u32
                }
                fn f2i(&self, b: u32, neg: SignModi, abs: SignModi, hsel: HSel, ft: FTypesNoF64, it: FullITypesNoI64, ftz: FPFtz, ntz: F2INTZ, rnd: F2IRnd) -> u32 {
                    let f = ftype(ft);
                    let x = sign_mods(pick_half(b, f.width(), hsel), f, neg, abs);
                    let (bits, signed) = itype_bits(it);
                    float::to_int(x, f, int_round(rnd), bits, signed, ftz == FPFtz::FTZ, ntz == F2INTZ::NTZ)
                }
                fn frnd(&self, b: u32, neg: SignModi, abs: SignModi, hsel: HSel, ft: F32F16, ftz: FPFtz, rnd: F2IRnd) -> u32 {
                    let f = if ft == F32F16::F32 { F32 } else { F16 };
                    let x = sign_mods(pick_half(b, f.width(), hsel), f, neg, abs);
                    float::round_integral(x, f, int_round(rnd), ftz == FPFtz::FTZ) as u32
                }
                fn f2fp(&self, a: u32, b: u32, vsel: VSel, c: u32, hsel: HSel, src: F2FPSrcType, dst: F2FPDstType, satf: SATFINITE, relu: RELU) -> u32 {
                    let from = match src {
                        F2FPSrcType::F32 => Narrow::F32,
                        F2FPSrcType::F16 => Narrow::F16,
                        F2FPSrcType::BF16 => Narrow::BF16,
                        F2FPSrcType::E5M2 => Narrow::E5M2,
                        F2FPSrcType::E4M3 => Narrow::E4M3,
                        F2FPSrcType::E8 => Narrow::E8,
                        F2FPSrcType::E3M2 => Narrow::E3M2,
                        F2FPSrcType::E2M3 => Narrow::E2M3,
                        F2FPSrcType::E2M1 => Narrow::E2M1,
                    };
                    let to = match dst {
                        F2FPDstType::TF32 => Narrow::TF32,
                        F2FPDstType::F16 => Narrow::F16,
                        F2FPDstType::BF16 => Narrow::BF16,
                        F2FPDstType::E5M2 => Narrow::E5M2,
                        F2FPDstType::E4M3 => Narrow::E4M3,
                        F2FPDstType::E8 => Narrow::E8,
                        F2FPDstType::E3M2 => Narrow::E3M2,
                        F2FPDstType::E2M3 => Narrow::E2M3,
                        F2FPDstType::E2M1 => Narrow::E2M1,
                    };
                    narrow::f2fp(a, b, vsel as u32, c, hsel == HSel::H1, from, to, satf == SATFINITE::SATFINITE, relu == RELU::RELU)
                }
                fn f2ip(&self, a: u32, b: u32, c: u32, hsel: HSel, _ft: FTypes, it: I8Types, ntz: F2INTZ, rnd: F2IRnd, relu: RELU) -> u32 {
                    let m = float::F2ip {
                        signed: it == I8Types::S8,
                        round: int_round(rnd),
                        ntz: ntz == F2INTZ::NTZ,
                        relu: relu == RELU::RELU,
                        rc_high: hsel == HSel::H1,
                    };
                    float::f2ip(a, b, c, m)
                }

                // --- integers --------------------------------------------------------------

                fn iadd(&self, a: u32, a_neg: SignModi, b: u32, b_neg: SignModi, pp: bool, ext: IExt) -> (u32, bool) {
                    add33(addend(a, a_neg, ext), addend(b, b_neg, ext), ext == IExt::X && pp)
                }
                fn imad(&self, a: u32, b: u32, c: u32, c_neg: SignModi, pp: bool, lohi: LOHI, ext: IExt, it: IType) -> (u32, bool) {
                    let p = int::mul_wide(a, b, it == IType::S32);
                    let part = if lohi == LOHI::HI { (p >> 32) as u32 } else { p as u32 };
                    add33(part as u64, addend(c, c_neg, ext), ext == IExt::X && pp)
                }
                fn imad_wide(&self, a: u32, b: u32, c: u64, c_neg: SignModi, pp: bool, ext: IExt, it: IType) -> (u64, bool) {
                    // As [`addend`], on 64 bits: `-c` is `~c` plus a carry in, so `-0` carries out.
                    let (c, carry_in) = match (c_neg, ext) {
                        (SignModi::False, _) => (c, ext == IExt::X && pp),
                        (SignModi::True, IExt::X) => (!c, pp),
                        (SignModi::True, IExt::NoX) => (!c, true),
                    };
                    int::imad_wide(a, b, c, it == IType::S32, carry_in)
                }
                // `d = SrcC + pp;` (IDP's `__Semantics`).
                fn idp2a(&self, a: u32, b: u32, c: u32, pp: bool, lohi: LOHI, af: I16Type, bf: I8Type) -> (u32, bool) {
                    let m = Idp { a_bits: 16, a_signed: af == I16Type::S16, b_signed: bf == I8Type::S8, b_high: lohi == LOHI::HI };
                    int::idp(a, b, c, pp, m)
                }
                fn idp4a(&self, a: u32, b: u32, c: u32, pp: bool, af: I8Type, bf: I8Type) -> (u32, bool) {
                    let m = Idp { a_bits: 8, a_signed: af == I8Type::S8, b_signed: bf == I8Type::S8, b_high: false };
                    int::idp(a, b, c, pp, m)
                }
                fn imul(&self, a: u32, b: u32, lohi: LOHI, it: IType) -> u32 {
                    int::imul(a, b, it == IType::S32, lohi == LOHI::HI)
                }
                fn lea(&self, a: u32, a_neg: SignModi, b: u32, b_neg: SignModi, c: u32, shift: u32, pp: bool, lohi: LOHI, ext: IExt, sx32: LEASX32) -> (u32, bool) {
                    let (a, b, cin) = (int_neg(a, a_neg, ext), int_neg(b, b_neg, ext), ext == IExt::X && pp);
                    match lohi {
                        LOHI::LO => {
                            let (r, carry) = int::lea_lo(a, b, shift);
                            if cin {
                                let (r2, c2) = int::iadd_x(r, 0, true);
                                (r2, carry || c2)
                            } else {
                                (r, carry)
                            }
                        }
                        LOHI::HI => {
                            // `~Ra` inverts the 64-bit {Rc, Ra} under `.HI.X`, and Ra
                            // before its sign extension under `.SX32` (LEA's `__OperandInfo`).
                            let hi = match (sx32, a_neg) {
                                (LEASX32::SX32, _) => int::sign_word(a),
                                (_, SignModi::True) => !c,
                                (_, SignModi::False) => c,
                            };
                            int::lea_hi(a, hi, b, shift, cin)
                        }
                    }
                }
                fn iabs(&self, b: u32) -> u32 {
                    int::iabs(b)
                }
                fn imnmx(&self, a: u32, b: u32, pp: bool, it: IType) -> u32 {
                    int::imnmx(a, b, it == IType::S32, pp)
                }
                fn p2r(&self, pr: u32, a: u32, mask: u32, bsel: BSel) -> u32 {
                    int::p2r(pr as u8, a, mask as u8, bsel as u32)
                }
                fn r2p(&self, pr: u32, a: u32, bsel: BSel, mask: u32) -> u32 {
                    int::r2p(pr as u8, a, mask as u8, bsel as u32) as u32
                }
                fn isetp(&self, a: u32, b: u32, pp: bool, pq: bool, c: CompOp, op: BoolOp, it: IType, ext: IExt) -> (bool, bool) {
                    let t = int::icmp(a, b, icmp_op(c), it == IType::S32, (ext == IExt::X).then_some(pq));
                    float::set_predicates(t, pp, bool_op(op))
                }
                fn iset(&self, a: u32, b: u32, pp: bool, pq: bool, c: CompOp, op: BoolOp, it: IType, ext: IExt, bmbf: BMBF) -> u32 {
                    let t = int::icmp(a, b, icmp_op(c), it == IType::S32, (ext == IExt::X).then_some(pq));
                    int::iset_value(bool_op(op).apply(t, pp), bmbf == BMBF::BF)
                }
                fn sel(&self, a: u32, b: u32, pp: bool) -> u32 {
                    if pp {
                        a
                    } else {
                        b
                    }
                }
                fn lop3(&self, a: u32, b: u32, c: u32, lut: u32, pp: bool, ex: EXBool) -> (u32, bool) {
                    let d = int::lop3(a, b, c, lut as u8);
                    (d, int::lop3_predicate(d, pp, ex == EXBool::PAND))
                }
                fn plop3(&self, a: bool, b: bool, c: bool, lut: u32) -> bool {
                    int::plop3(a, b, c, lut as u8)
                }
                fn shf(&self, a: u32, b: u32, c: u32, dir: SHFDir, lohi: LOHI, cw: CWMode, it: SHFDType) -> u32 {
                    let m = Shf {
                        left: dir == SHFDir::L,
                        high: lohi == LOHI::HI,
                        wrap: cw == CWMode::W,
                        signed: matches!(it, SHFDType::S64 | SHFDType::S32),
                        wide: matches!(it, SHFDType::S64 | SHFDType::U64),
                    };
                    int::shf(a, b, c, m)
                }
                fn mov(&self, b: u64, width: MOVW) -> u64 {
                    match width {
                        MOVW::V32 => b & 0xFFFF_FFFF,
                        MOVW::V64 => b,
                    }
                }
                fn prmt(&self, a: u32, b: u32, c: u32, mode: PRMTMode) -> u32 {
                    let m = match mode {
                        PRMTMode::IDX => Prmt::Idx,
                        PRMTMode::F4E => Prmt::F4e,
                        PRMTMode::B4E => Prmt::B4e,
                        PRMTMode::RC8 => Prmt::Rc8,
                        PRMTMode::ECL => Prmt::Ecl,
                        PRMTMode::ECR => Prmt::Ecr,
                        PRMTMode::RC16 => Prmt::Rc16,
                    };
                    int::prmt(a, b, c, m)
                }
                fn i2i(&self, b: u32, t: I2IDType) -> u32 {
                    let (bits, signed) = match t {
                        I2IDType::S8 => (8, true),
                        I2IDType::U8 => (8, false),
                        I2IDType::S16 => (16, true),
                        I2IDType::U16 => (16, false),
                    };
                    int::i2i(b, bits, signed)
                }
                fn i2ip(&self, a: u32, b: u32, c: u32, t: I2IPDType, sr: SATRelu) -> u32 {
                    let (bits, signed) = match t {
                        I2IPDType::S2 => (2, true),
                        I2IPDType::U2 => (2, false),
                        I2IPDType::S4 => (4, true),
                        I2IPDType::U4 => (4, false),
                        I2IPDType::S8 => (8, true),
                        I2IPDType::U8 => (8, false),
                        I2IPDType::S16 => (16, true),
                        I2IPDType::U16 => (16, false),
                    };
                    int::i2ip(a, b, c, bits, signed, sr == SATRelu::SATRELU)
                }
                fn r2ur(&self, mask: u32, b: &[u32; LANES]) -> Option<u32> {
                    // The lowest lane that is active and whose guard holds (R2UR __OperandInfo).
                    (mask != 0).then(|| b[mask.trailing_zeros() as usize])
                }
                fn gpr_move(&self, a: u32) -> u32 {
                    a
                }
            }
        };
    };
}
