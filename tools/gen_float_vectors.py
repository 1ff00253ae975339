#!/usr/bin/env python3
"""Test vectors for the float kernels of isa-runtime, from an independent
oracle: GNU MPFR through gmpy2. Never from our own code.

For each op (add, mul, fma), format (f32, f16, bf16) and rounding mode
(RN, RZ, RM, RP) it draws operands (special values, subnormals, values close
together so that ties and cancellation happen, and random bit patterns) and
writes one line per vector:

    op fmt mode a b c result          (hex bits; c is 0 for add/mul)

NaN results are written as the spec's canonical NaN (f32 0x7FFFFFFF,
16-bit 0x7FFF), which is what the kernels return.

The committed sets (each regenerates byte for byte with gmpy2 2.3 /
MPFR 4.2 and ml_dtypes 0.6):

    tools/gen_float_vectors.py --count 400 --seed 1 > isa-runtime/tests/vectors/ieee.txt
    tools/gen_float_vectors.py --modifiers --count 200 --seed 5 > isa-runtime/tests/vectors/modifiers.txt
    tools/gen_float_vectors.py --scaled --count 500 --seed 1 > isa-runtime/tests/vectors/scaled.txt    # FMUL .scl
    tools/gen_float_vectors.py --narrow --count 300 --seed 1 > isa-runtime/tests/vectors/narrow.txt    # F2FP, ml_dtypes
    tools/gen_float_vectors.py --convert --count 300 --seed 4 > isa-runtime/tests/vectors/convert.txt
    tools/gen_float_vectors.py --minmax --count 3000 --seed 3 > isa-runtime/tests/vectors/minmax.txt

A large run:

    tools/gen_float_vectors.py --count 100000 --seed 2 > /tmp/big.txt
    FLOAT_VECTORS=/tmp/big.txt cargo test -p isa-runtime --release --test float_vectors

Not everything here is MPFR's or ml_dtypes': the .FTZ/.SAT/.RELU rules,
min/max and the comparisons, the integer conversions, TF32 and E8 below
2^-126 are this script's reading of the spec (exact rationals), written
apart from the kernels; docs/semantics.md lists the decisions.
"""
import argparse
import random
import sys

import gmpy2
from gmpy2 import mpfr

FORMATS = {"f32": (8, 23), "f16": (5, 10), "bf16": (8, 7)}
MODES = {"RN": gmpy2.RoundToNearest, "RZ": gmpy2.RoundToZero, "RM": gmpy2.RoundDown, "RP": gmpy2.RoundUp}
CANONICAL_NAN = {"f32": 0x7FFFFFFF, "f16": 0x7FFF, "bf16": 0x7FFF}


def width(fmt):
    e, m = FORMATS[fmt]
    return 1 + e + m


def to_mpfr(bits, fmt):
    """The exact value of a bit pattern."""
    e, m = FORMATS[fmt]
    sign = -1 if (bits >> (e + m)) & 1 else 1
    exp = (bits >> m) & ((1 << e) - 1)
    frac = bits & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    with gmpy2.context(precision=200, emin=-100000, emax=100000):
        if exp == (1 << e) - 1:
            return mpfr("nan") if frac else mpfr(sign) * mpfr("inf")
        if exp == 0:
            v = mpfr(frac) * mpfr(2) ** (1 - bias - m)
        else:
            v = mpfr((1 << m) | frac) * mpfr(2) ** (exp - bias - m)
        return v * sign if frac or exp else (mpfr("-0.0") if sign < 0 else mpfr("0.0"))


def from_mpfr(v, fmt):
    """Bits of a value already rounded to the format."""
    e, m = FORMATS[fmt]
    bias = (1 << (e - 1)) - 1
    if gmpy2.is_nan(v):
        return CANONICAL_NAN[fmt]
    sign = 1 if gmpy2.is_signed(v) else 0
    s = sign << (e + m)
    if gmpy2.is_infinite(v):
        return s | (((1 << e) - 1) << m)
    if v == 0:
        return s
    a = abs(v)
    mant, exp = a.as_integer_ratio()[0], 0
    num, den = a.as_integer_ratio()
    # a = num / den with den a power of two (or num a multiple of a power of two).
    k = den.bit_length() - 1
    mant, exp = num, -k  # a = mant * 2^exp
    top = mant.bit_length() - 1 + exp  # floor(log2 a)
    if top < 1 - bias:  # subnormal
        shift = exp - (1 - bias - m)
        q = mant << shift if shift >= 0 else mant >> -shift
        assert (q >> -shift << -shift if shift < 0 else q) is not None
        return s | q
    shift = exp - (top - m)
    q = mant << shift if shift >= 0 else mant >> -shift
    return s | ((top + bias) << m) | (q & ((1 << m) - 1))


def context(fmt, mode):
    e, m = FORMATS[fmt]
    bias = (1 << (e - 1)) - 1
    return gmpy2.context(precision=m + 1, emin=2 - bias - m, emax=bias + 1, subnormalize=True, round=MODES[mode])


def specials(fmt):
    e, m = FORMATS[fmt]
    w = width(fmt)
    sign = 1 << (w - 1)
    exp_all = ((1 << e) - 1) << m
    bias = (1 << (e - 1)) - 1
    one = bias << m
    vals = [0, 1, (1 << m) - 1, 1 << m, one, one | 1, one - 1, exp_all - 1, exp_all, exp_all | 1, exp_all | (1 << (m - 1)),
            (bias - 1) << m, (bias + 1) << m, one | (1 << (m - 1))]
    return vals + [v | sign for v in vals]


def draw(fmt, rng):
    e, m = FORMATS[fmt]
    w = width(fmt)
    kind = rng.random()
    if kind < 0.15:
        return rng.choice(specials(fmt))
    if kind < 0.30:  # subnormal
        return (rng.getrandbits(1) << (w - 1)) | rng.randrange(1, 1 << m)
    if kind < 0.80:  # normal, exponent near the middle so results stay finite
        bias = (1 << (e - 1)) - 1
        exp = max(1, min((1 << e) - 2, bias + rng.randint(-8, 8)))
        return (rng.getrandbits(1) << (w - 1)) | (exp << m) | rng.getrandbits(m)
    return rng.getrandbits(w)


def near(x, fmt, rng):
    """A value a few ulps from x, or -x plus a few ulps (cancellation)."""
    w = width(fmt)
    mag = x & ((1 << (w - 1)) - 1)
    delta = rng.randint(-3, 3)
    mag = max(0, min((1 << (w - 1)) - 1, mag + delta))
    sign = (x >> (w - 1)) ^ rng.getrandbits(1)
    return (sign << (w - 1)) | mag


def is_subnormal(bits, fmt):
    e, m = FORMATS[fmt]
    return (bits >> m) & ((1 << e) - 1) == 0 and bits & ((1 << m) - 1) != 0


def with_modifiers(op, fmt, mode, mods, a, b, c, scale=0):
    """The spec's pseudo-code (FADD/FMUL/FFMA/HFMA2 __Semantics), written from the
    spec text: flush subnormal inputs (FTZ); FMUL's .scl multiplies the
    flushed `a` by 2^scale, exactly; exact op rounded once (MPFR); SAT:
    NaN -> +0, clamp to [+0.0, 1.0] (-0 -> +0, our documented decision) or
    RELU: negative (incl. -inf) -> +0, -0 kept; canonical NaN; flush a
    subnormal result (FTZ)."""
    mods = set(mods.split(","))
    w = width(fmt)
    sign = 1 << (w - 1)
    flush = lambda x: x & sign if is_subnormal(x, fmt) else x
    if "ftz" in mods:
        a, b, c = flush(a), flush(b), flush(c)
    x, y, z = to_mpfr(a, fmt), to_mpfr(b, fmt), to_mpfr(c, fmt)
    if scale:
        with gmpy2.context(precision=200, emin=-100000, emax=100000):
            x = x * mpfr(2) ** scale
    with context(fmt, mode):
        r = gmpy2.add(x, y) if op == "add" else gmpy2.mul(x, y) if op == "mul" else gmpy2.fma(x, y, z)
    if "sat" in mods:
        if gmpy2.is_nan(r) or r <= 0:
            r = mpfr(0)
        elif r > 1:
            r = mpfr(1)
    elif "relu" in mods:
        if not gmpy2.is_nan(r) and r < 0:
            r = mpfr(0)
    bits = from_mpfr(r, fmt)
    if "ftz" in mods:
        bits = flush(bits)
    return bits


def f2ip_operand(rng):
    """An F32 operand for F2IP: special and random bits, or values in and
    around the 8-bit ranges, with ties (n + 0.5)."""
    import struct
    k = rng.random()
    if k < 0.3:
        return draw("f32", rng)
    if k < 0.6:
        v = rng.randint(-600, 600) / 2
    else:
        v = rng.uniform(-300.0, 300.0)
    return struct.unpack("<I", struct.pack("<f", v))[0]


def convert_vectors(args, rng, out):
    """Lines `f2f from to mode ftz a result` and `i2f itype to mode 0 a result`
    (a = the integer's bits), rounded by MPFR."""
    out.write(f"# f2f from to mode ftz a result | i2f itype to mode 0 a result (seed {args.seed})\n")
    out.write("# f2i src itype rnd ftz+ntz a result | frnd fmt fmt rnd ftz a result | f2ip itype rnd ntz+relu+h1 a b rc result\n")
    out.write("# i2i dtype a result | i2ip dtype relu ra rb rc result\n")
    for src in FORMATS:
        for dst in FORMATS:
            if src == dst:
                continue
            for mode in MODES:
                for _ in range(args.count):
                    a = draw(src, rng)
                    ftz = rng.getrandbits(1)
                    sign = 1 << (width(src) - 1)
                    x = a & sign if ftz and is_subnormal(a, src) else a
                    with context(dst, mode):
                        r = from_mpfr(+to_mpfr(x, src), dst) if not gmpy2.is_nan(to_mpfr(x, src)) else CANONICAL_NAN[dst]
                    if ftz and is_subnormal(r, dst):
                        r &= 1 << (width(dst) - 1)
                    out.write(f"f2f {src} {dst} {mode} {ftz} {a:x} {r:x}\n")
    for itype, bits, signed in [("S8", 8, True), ("U8", 8, False), ("S16", 16, True), ("U16", 16, False), ("S32", 32, True), ("U32", 32, False)]:
        for dst in FORMATS:
            for mode in MODES:
                for _ in range(args.count):
                    a = rng.getrandbits(bits)
                    v = a - (1 << bits) if signed and a >> (bits - 1) else a
                    with context(dst, mode):
                        r = from_mpfr(gmpy2.mpfr(v) if v == 0 else +mpfr(v), dst)
                    out.write(f"i2f {itype} {dst} {mode} 0 {a:x} {r:x}\n")
    # F2I, from the seed's F2I pseudo-code: NaN -> 0 with .NTZ else 0x80000000;
    # .FTZ: subnormal -> 0; round to an integer (Python's exact Fraction
    # rounding; round() is ties-to-even), saturate, sign/zero-extend to 32 bits.
    import fractions, math
    for src in FORMATS:
        for itype, bits, signed in [("S8", 8, True), ("U8", 8, False), ("S16", 16, True), ("U16", 16, False), ("S32", 32, True), ("U32", 32, False)]:
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            for rnd in ("ROUND", "CEIL", "FLOOR", "TRUNC"):
                for _ in range(args.count // 4):
                    a = draw(src, rng)
                    ftz, ntz = rng.getrandbits(1), rng.getrandbits(1)
                    x = to_mpfr(a, src)
                    if gmpy2.is_nan(x):
                        r = 0 if ntz else 0x80000000
                    else:
                        if ftz and is_subnormal(a, src):
                            x = mpfr(0)
                        if gmpy2.is_infinite(x):
                            v = hi if x > 0 else lo
                        else:
                            q = fractions.Fraction(*x.as_integer_ratio())
                            v = {"ROUND": round(q), "CEIL": math.ceil(q), "FLOOR": math.floor(q), "TRUNC": math.trunc(q)}[rnd]
                        v = max(lo, min(hi, v))
                        r = v & 0xFFFFFFFF
                    out.write(f"f2i {src} {itype} {rnd} {ftz}{ntz} {a:x} {r:x}\n")
    # FRND: round to an integral value, same format; NaN -> canonical; +-inf kept;
    # .FTZ: subnormal -> signed zero; a zero result keeps the input's sign.
    for src in FORMATS:
        sign = 1 << (width(src) - 1)
        for rnd in ("ROUND", "CEIL", "FLOOR", "TRUNC"):
            for _ in range(args.count):
                a = draw(src, rng)
                ftz = rng.getrandbits(1)
                x = a & sign if ftz and is_subnormal(a, src) else a
                v = to_mpfr(x, src)
                if gmpy2.is_nan(v):
                    r = CANONICAL_NAN[src]
                elif gmpy2.is_infinite(v) or v == 0:
                    r = x
                else:
                    q = fractions.Fraction(*v.as_integer_ratio())
                    n = {"ROUND": round(q), "CEIL": math.ceil(q), "FLOOR": math.floor(q), "TRUNC": math.trunc(q)}[rnd]
                    if n == 0:
                        r = x & sign
                    else:
                        with context(src, "RN"):
                            r = from_mpfr(+mpfr(n), src)
                out.write(f"frnd {src} {src} {rnd} {ftz} {a:x} {r:x}\n")

    # F2IP, from the seed's F2IP pseudo-code (002_cvt.txt): two F32 values to
    # 8-bit integers, Ra -> Rd[7:0] and SrcB -> Rd[15:8], Rd[31:16] = Rc's low
    # half (.H0) or high half (.H1). NaN -> 0 with .NTZ, else -128 (S8) or 128
    # (U8); otherwise round (.ROUND: to nearest, ties to even; .TRUNC) and
    # saturate to the type's range (+-inf included); .RELU then clamps an S8
    # result below at 0 (the pseudo-code applies it to S8 only).
    for itype, signed in (("S8", True), ("U8", False)):
        lo, hi = (-128, 127) if signed else (0, 255)
        for rnd in ("ROUND", "TRUNC"):
            for _ in range(args.count):
                a, b = f2ip_operand(rng), f2ip_operand(rng)
                rc = rng.getrandbits(32)
                ntz, relu, h1 = rng.getrandbits(1), rng.getrandbits(1), rng.getrandbits(1)

                def lane(bits):
                    x = to_mpfr(bits, "f32")
                    if gmpy2.is_nan(x):
                        v = 0 if ntz else (-128 if signed else 128)
                    elif gmpy2.is_infinite(x):
                        v = hi if x > 0 else lo
                    else:
                        # The pseudo-code's order: saturate first, then round.
                        q = fractions.Fraction(*x.as_integer_ratio())
                        v = lo if q < lo else hi if q > hi else (round(q) if rnd == "ROUND" else math.trunc(q))
                    if relu and signed:
                        v = max(v, 0)
                    return v & 0xFF

                r = lane(a) | lane(b) << 8 | ((rc >> 16) if h1 else (rc & 0xFFFF)) << 16
                out.write(f"f2ip {itype} {rnd} {ntz}{relu}{h1} {a:x} {b:x} {rc:x} {r:x}\n")

    # I2I (spec/004_ialu.txt): a signed 32-bit SrcB saturated to .dtype; the
    # 32-bit Rd holds the value (sign-extended for S8/S16).
    def s32(x):
        return x - (1 << 32) if x >> 31 else x

    def int_operand():
        k = rng.random()
        if k < 0.4:
            return rng.getrandbits(32)
        if k < 0.7:
            return rng.randint(-70000, 70000) & 0xFFFFFFFF
        return rng.randint(-300, 300) & 0xFFFFFFFF
    for dtype, bits, signed in (("S8", 8, True), ("U8", 8, False), ("S16", 16, True), ("U16", 16, False)):
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        for _ in range(args.count):
            a = int_operand()
            out.write(f"i2i {dtype} {a:x} {max(lo, min(hi, s32(a))) & 0xFFFFFFFF:x}\n")
    # I2IP: Ra and SrcB (signed 32-bit) saturated to .dsttype (both bounds:
    # the pseudo-code's second `ta = ...` overwrites the first, evidently a
    # slip), .SATRELU then clamps below at 0; Rd = Ra's bits above SrcB's, the
    # rest filled from Rc's low bits.
    for dtype, bits, signed in (("S2", 2, True), ("U2", 2, False), ("S4", 4, True), ("U4", 4, False),
                                ("S8", 8, True), ("U8", 8, False), ("S16", 16, True), ("U16", 16, False)):
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        for _ in range(args.count):
            ra, rb, rc, relu = int_operand(), int_operand(), rng.getrandbits(32), rng.getrandbits(1)
            ta, tb = max(lo, min(hi, s32(ra))), max(lo, min(hi, s32(rb)))
            if relu:
                ta, tb = max(ta, 0), max(tb, 0)
            msk = (1 << bits) - 1
            r = (ta & msk) << bits | (tb & msk)
            if bits < 16:
                rest = 32 - 2 * bits
                r |= (rc & ((1 << rest) - 1)) << (2 * bits)
            out.write(f"i2ip {dtype} {relu} {ra:x} {rb:x} {rc:x} {r:x}\n")

CMPS = ["EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU", "NAN", "NUM"]


def minmax_vectors(args, rng, out):
    """Lines `min|max fmt nan ftz a b result` and `cmp fmt CMP ftz a b 0|1`,
    from the spec's FMNMX/FSETP text, computed on exact values with Python
    floats (IEEE doubles hold every f32/f16/bf16 value exactly)."""
    out.write(f"# min/max: op fmt nan ftz a b result; cmp: cmp fmt CMP ftz a b result (seed {args.seed})\n")
    out.write("# fchk: fchk f32 0 0 a b pu\n")
    for fmt in FORMATS:
        w = width(fmt)
        sign = 1 << (w - 1)
        for _ in range(args.count):
            a = draw(fmt, rng)
            b = near(a, fmt, rng) if rng.random() < 0.4 else draw(fmt, rng)
            nan, ftz = rng.getrandbits(1), rng.getrandbits(1)
            fa, fb = (a & sign if is_subnormal(a, fmt) else a, b & sign if is_subnormal(b, fmt) else b) if ftz else (a, b)
            xa, xb = float(to_mpfr(fa, fmt)), float(to_mpfr(fb, fmt))
            isnan = [xa != xa, xb != xb]
            for op in ("min", "max"):
                if all(isnan) or (any(isnan) and nan):
                    r = CANONICAL_NAN[fmt]
                elif isnan[0]:
                    r = fb
                elif isnan[1]:
                    r = fa
                elif xa == xb:
                    # -0 orders below +0 (documented decision).
                    a_neg = bool(fa & sign)
                    r = fa if a_neg == (op == "min") else fb
                else:
                    r = fa if (xa < xb) == (op == "min") else fb
                out.write(f"{op} {fmt} {nan} {ftz} {a:x} {b:x} {r:x}\n")
            c = rng.choice(CMPS)
            un = any(isnan)
            base = {"EQ": xa == xb, "NE": xa != xb, "LT": xa < xb, "LE": xa <= xb, "GT": xa > xb, "GE": xa >= xb}
            if c == "NAN":
                r = un
            elif c == "NUM":
                r = not un
            elif c.endswith("U"):
                r = un or base[c[:-1]]
            else:
                r = (not un) and base[c]
            out.write(f"cmp {fmt} {c} {ftz} {a:x} {b:x} {int(r)}\n")
    # FCHK (spec/001_falu.txt): ea, eb = the biased exponent field (bits
    # 30..23 -- the spec's "31:24" counts the sign bit, a typo) minus 127;
    # pu = ea <= emin+N or ea >= emax+1 or eb <= emin or eb >= emax-2 or
    # ea-eb <= emin+1 or ea-eb >= emax, with emin = -126, emax = 127, N = 23.
    for _ in range(args.count):
        def operand():
            if rng.random() < 0.5:
                return draw("f32", rng)
            return rng.getrandbits(1) << 31 | rng.randrange(256) << 23 | rng.getrandbits(23)
        a, b = operand(), operand()
        ea, eb = ((a >> 23) & 0xFF) - 127, ((b >> 23) & 0xFF) - 127
        emin, emax, n = -126, 127, 23
        r = ea <= emin + n or ea >= emax + 1 or eb <= emin or eb >= emax - 2 or ea - eb <= emin + 1 or ea - eb >= emax
        out.write(f"fchk f32 0 0 {a:x} {b:x} {int(r)}\n")


# --- F2FP: the narrow formats, against ml_dtypes -------------------------------

# (source, destination) pairs the F2FP __Exception allows.
F2FP_PAIRS = [("E8", "BF16"), ("F32", "BF16"), ("F32", "E2M1"), ("F32", "E2M3"), ("F32", "E3M2"), ("F16", "E4M3"),
              ("F32", "E4M3"), ("F16", "E5M2"), ("F32", "E5M2"), ("BF16", "E8"), ("F32", "E8"), ("E2M1", "F16"),
              ("E2M3", "F16"), ("E3M2", "F16"), ("E4M3", "F16"), ("E5M2", "F16"), ("F32", "F16"), ("F32", "TF32")]


def narrow_types():
    import ml_dtypes
    import numpy as np
    return {"F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16, "E5M2": ml_dtypes.float8_e5m2,
            "E4M3": ml_dtypes.float8_e4m3fn, "E3M2": ml_dtypes.float6_e3m2fn, "E2M3": ml_dtypes.float6_e2m3fn,
            "E2M1": ml_dtypes.float4_e2m1fn, "E8": ml_dtypes.float8_e8m0fnu}


NARROW_BITS = {"F32": 32, "F16": 16, "BF16": 16, "TF32": 32, "E5M2": 8, "E4M3": 8, "E3M2": 6, "E2M3": 6, "E2M1": 4, "E8": 8}
# Largest finite codes and canonical NaNs (None: the format has no NaN).
NARROW_MAX = {"F16": 0x7BFF, "BF16": 0x7F7F, "TF32": 0x7F7FE000, "E5M2": 0x7B, "E4M3": 0x7E, "E3M2": 0x1F, "E2M3": 0x1F,
              "E2M1": 0x7, "E8": 0xFE}
NARROW_NAN = {"F16": 0x7FFF, "BF16": 0x7FFF, "TF32": 0x7FFFE000, "E5M2": 0x7F, "E4M3": 0x7F, "E3M2": None, "E2M3": None,
              "E2M1": None, "E8": 0xFF}


def narrow_value(bits, fmt, types):
    """The source value as a float64 (exact: every source format fits)."""
    import numpy as np
    if fmt == "F32":
        return float(np.array([bits], dtype=np.uint32).view(np.float32)[0])
    if fmt in ("F16", "BF16"):
        return float(np.array([bits], dtype=np.uint16).view(types[fmt])[0])
    return float(np.array([bits], dtype=np.uint8).view(types[fmt])[0])


def narrow_oracle(x, dst, satf, relu, types):
    """The destination code of F2FP: ml_dtypes' round to nearest even (TF32: on
    the binary32 bits), then the ISA's rules for NaN, .SATFINITE and .RELU
    (isa-runtime/src/narrow.rs, docs/semantics.md)."""
    import math
    import numpy as np
    nan = NARROW_NAN[dst]
    neg = math.copysign(1.0, x) < 0
    if math.isnan(x):
        return 0 if nan is None else nan
    if relu and neg and x != 0:
        x = 0.0
    if dst == "TF32":
        # Round to nearest even on the 13 low bits of the binary32 pattern:
        # TF32 is binary32 with 10 mantissa bits, the same exponent range.
        bits = int(np.array([x], dtype=np.float32).view(np.uint32)[0])
        sign, mag = bits & 0x80000000, bits & 0x7FFFFFFF
        if mag >= 0x7F800000:  # infinity (NaN is handled above)
            return sign | (NARROW_MAX["TF32"] if satf else 0x7F800000)
        low, hi = mag & 0x1FFF, mag & ~0x1FFF
        if low > 0x1000 or (low == 0x1000 and hi & 0x2000):
            hi += 0x2000
        if hi >= 0x7F800000 and satf:
            hi = NARROW_MAX["TF32"]
        return sign | hi
    if dst == "E8" and x > 0 and math.isfinite(x):
        # Nearest power of two, ties up (what ml_dtypes does for normal inputs;
        # for inputs below 2^-126 it rounds on the input's subnormal grid
        # instead, e.g. 1.03 * 2^-127 -> 2^-126, which we do not follow: see
        # docs/semantics.md). Cross-checked against ml_dtypes where they agree.
        m, e = math.frexp(x)
        p = e - 1 + (2 * m >= 1.5)
        code = 0 if p < -127 else (0xFF if p > 127 else p + 127)
        if code == 0xFF and satf:
            code = NARROW_MAX["E8"]
        if x >= 2.0 ** -126:
            with np.errstate(over="ignore", invalid="ignore"):
                ml = int(np.array([x], dtype=np.float64).astype(types["E8"]).view(np.uint8)[0])
            assert ml == code or (satf and ml == 0xFF), (x, ml, code)
        return code
    bits = NARROW_BITS[dst]
    view = np.uint16 if bits == 16 else np.uint8
    with np.errstate(over="ignore", invalid="ignore"):
        r = np.array([x], dtype=np.float64).astype(types[dst])
    code = int(r.view(view)[0])
    rv = float(r[0])
    sign = 0 if dst == "E8" else 1 << (bits - 1)
    if math.isnan(rv) or math.isinf(rv):
        if dst == "E8" and (x <= 0 or math.isnan(x)):
            return 0xFF  # no sign, no zero: NaN
        if satf:
            return NARROW_MAX[dst] | (sign if neg else 0)
        if math.isnan(rv):
            return nan
        return code
    return code


def narrow_inputs(src, dst, rng, count, types):
    """Source codes: every code of a narrow source; otherwise specials, ties
    between neighbouring destination values, and random values in range."""
    import numpy as np
    if NARROW_BITS[src] <= 8:
        return list(range(1 << NARROW_BITS[src])) * max(1, count // (1 << NARROW_BITS[src]))
    sb = NARROW_BITS[src]
    fmt = {"F32": "f32", "F16": "f16", "BF16": "bf16"}[src]
    out = []
    dst_codes = 1 << NARROW_BITS[dst] if dst != "TF32" else None
    for _ in range(count):
        kind = rng.random()
        if kind < 0.15:
            out.append(rng.choice(specials(fmt)))
        elif kind < 0.65 and dst_codes:
            c = rng.randrange(dst_codes - 1)
            dview = np.uint16 if NARROW_BITS[dst] == 16 else np.uint8
            a = float(np.array([c], dtype=dview).view(types[dst])[0])
            b = float(np.array([c + 1], dtype=dview).view(types[dst])[0])
            if not (np.isfinite(a) and np.isfinite(b)):
                out.append(draw(fmt, rng))
                continue
            mid = (a + b) / 2 if rng.random() < 0.7 else a + (b - a) * rng.random()
            mid = -mid if rng.random() < 0.3 else mid
            v = np.array([mid], dtype=np.float64).astype(types[src]).view(np.uint32 if sb == 32 else np.uint16)[0]
            v = int(v) + rng.choice([0, 0, 0, 1, -1])
            out.append(v & ((1 << sb) - 1))
        else:
            out.append(draw(fmt, rng))
    return out


def narrow_vectors(args, rng, out):
    import ml_dtypes
    types = narrow_types()
    out.write(f"# f2fp src dst mods input result (hex); generated by tools/gen_float_vectors.py --narrow with ml_dtypes "
              f"{ml_dtypes.__version__}, gmpy2 {gmpy2.version()}, seed {args.seed}, {args.count} per pair/modifiers\n")
    for src, dst in F2FP_PAIRS:
        for mods in ("-", "satfinite", "relu"):
            for bits in narrow_inputs(src, dst, rng, args.count, types):
                x = narrow_value(bits, src, types)
                r = narrow_oracle(x, dst, mods == "satfinite", mods == "relu", types)
                out.write(f"f2fp {src} {dst} {mods} {bits:x} {r:x}\n")


def scaled_vectors(args, rng, out):
    """FMUL's .scl: Ra * 2^k * SrcB, rounded once (k in -3..3, from .D8 to
    .M8), with and without .FTZ and .SAT (`-`: neither)."""
    out.write(f"# mulscl fmt mode k mods a b result (hex; k decimal); generated by tools/gen_float_vectors.py --scaled with gmpy2 "
              f"{gmpy2.version()} / MPFR {gmpy2.mpfr_version()}, seed {args.seed}, {args.count} per mode\n")
    fmt = "f32"
    for mode in MODES:
        for _ in range(args.count):
            k = rng.choice([-3, -2, -1, 1, 2, 3])
            mods = rng.choice(["-", "-", "ftz", "sat", "ftz,sat"])
            a, b = draw(fmt, rng), draw(fmt, rng)
            r = with_modifiers("mul", fmt, mode, mods, a, b, 0, scale=k)
            out.write(f"mulscl {fmt} {mode} {k} {mods} {a:x} {b:x} {r:x}\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=500, help="vectors per op/format/mode")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--convert", action="store_true",
                   help="conversion vectors instead: F2F between f32/f16/bf16 and I2F from 8/16/32-bit integers")
    p.add_argument("--minmax", action="store_true",
                   help="min/max and comparison vectors instead (FMNMX/FSETP rules from the spec text)")
    p.add_argument("--modifiers", action="store_true",
                   help="also apply the ISA's .FTZ/.SAT/.RELU rules (a 'mods' column is added)")
    p.add_argument("--ops", default="add,mul,fma", help="comma-separated ops (default: all)")
    p.add_argument("--formats", default="f32,f16,bf16", help="comma-separated formats (default: all)")
    p.add_argument("--scaled", action="store_true", help="FMUL .scl vectors instead: a * 2^k * b in binary32")
    p.add_argument("--narrow", action="store_true",
                   help="F2FP vectors instead: F32/F16/BF16 to and from TF32/FP8/FP6/FP4/E8 (ml_dtypes)")
    args = p.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    if args.narrow:
        return narrow_vectors(args, rng, out)
    if args.scaled:
        return scaled_vectors(args, rng, out)
    if args.minmax:
        return minmax_vectors(args, rng, out)
    if args.convert:
        return convert_vectors(args, rng, out)
    cols = "op fmt mode mods a b c result" if args.modifiers else "op fmt mode a b c result"
    out.write(f"# {cols} (hex bits); generated by tools/gen_float_vectors.py with gmpy2 "
              f"{gmpy2.version()} / MPFR {gmpy2.mpfr_version()}, seed {args.seed}, {args.count} per op/format/mode\n")
    for fmt in [f for f in FORMATS if f in args.formats.split(",")]:
        for op in [o for o in ("add", "mul", "fma") if o in args.ops.split(",")]:
            for mode in MODES:
                for _ in range(args.count):
                    a = draw(fmt, rng)
                    b = near(a, fmt, rng) if rng.random() < 0.3 else draw(fmt, rng)
                    c = draw(fmt, rng) if op == "fma" else 0
                    if op == "fma" and rng.random() < 0.3:
                        # c close to -(a*b): cancellation and ties.
                        with gmpy2.context(precision=200, emin=-100000, emax=100000):
                            prod = to_mpfr(a, fmt) * to_mpfr(b, fmt)
                        with context(fmt, mode):
                            approx = -(+prod)
                        c = near(from_mpfr(approx, fmt), fmt, rng)
                    x, y, z = to_mpfr(a, fmt), to_mpfr(b, fmt), to_mpfr(c, fmt)
                    with context(fmt, mode):
                        if op == "add":
                            r = gmpy2.add(x, y)
                        elif op == "mul":
                            r = gmpy2.mul(x, y)
                        else:
                            r = gmpy2.fma(x, y, z)
                        r = gmpy2.subnormalize(r) if hasattr(gmpy2, "subnormalize") else r
                    if not args.modifiers:
                        out.write(f"{op} {fmt} {mode} {a:x} {b:x} {c:x} {from_mpfr(r, fmt):x}\n")
                        continue
                    mods = rng.choice(["ftz", "sat", "relu", "ftz,sat", "ftz,relu"])
                    out.write(f"{op} {fmt} {mode} {mods} {a:x} {b:x} {c:x} {with_modifiers(op, fmt, mode, mods, a, b, c):x}\n")


if __name__ == "__main__":
    main()
