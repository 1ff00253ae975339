#!/usr/bin/env python3
"""Shortest decimal texts of F16 and BF16 values, from independent oracles,
for the assembler's float printing (a unit test in isa-runtime/src/text/literal.rs reads isa-runtime/tests/vectors/text.txt).

For a sample of finite positive values of each format it finds the fewest
significant digits p such that the value printed with p digits (correctly
rounded, by GNU MPFR through gmpy2) reads back, rounded once to the format
by MPFR, to the same bits; it writes one line per value:

    fmt bits digits exp        (bits in hex; value = 0.DIGITS... as d.ddd x 10^exp)

For F16 it also checks the result against numpy's own shortest float16
text (Dragon4), a second, unrelated implementation.

    tools/gen_text_vectors.py > isa-runtime/tests/vectors/text.txt

With `--parse` it writes decimals near the formats' rounding midpoints, for
the assembler's float reading (parsed to f64, then rounded to the format:
two roundings, which the parser must repair to one), with the result of
one rounding by MPFR:

    fmt decimal result         (result: the bits in hex, `overflow` or `underflow`)

The decimals: each midpoint between two neighbouring values, exactly (a
tie, to even), then a hair above and below it (at the 30th significant
digit, where f64 cannot tell them from the midpoint), and random decimals
of 17 to 25 digits within three units in the last place.

    tools/gen_text_vectors.py --parse > isa-runtime/tests/vectors/parse.txt
"""
import random
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

import gmpy2
from gmpy2 import mpfr
import numpy as np

# (exponent bits, mantissa bits) and MPFR's exponent range for each format:
# values are 0.1xxx * 2^e with emin <= e <= emax (subnormals via subnormalize).
FORMATS = {"f16": (5, 10), "bf16": (8, 7)}


def value(bits, e, m):
    exp = (bits >> m) & ((1 << e) - 1)
    frac = bits & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    if exp == 0:
        return mpfr(frac) * mpfr(2) ** (1 - bias - m)
    return mpfr(frac | 1 << m) * mpfr(2) ** (exp - bias - m)


def context(e, m):
    bias = (1 << (e - 1)) - 1
    return gmpy2.context(precision=m + 1, emin=2 - bias - m, emax=bias + 1, subnormalize=True,
                         round=gmpy2.RoundToNearest)


def shortest(v, e, m):
    """Fewest digits first; among the p-digit decimals just below and just
    above v that read back, the nearer (a tie: the even last digit)."""
    with gmpy2.context(precision=200):
        for p in range(1, 12):
            found = []
            for rounding in "DU":
                text = format(v, ".%d%se" % (p - 1, rounding))
                with context(e, m):
                    back = mpfr(text)
                if back == v:
                    found.append((abs(mpfr(text) - v), int(text.split("e")[0][-1]) % 2, text))
            if found:
                text = min(found)[2]
                mant, exp = text.split("e")
                return mant.replace(".", "").rstrip("0") or "0", int(exp)
    raise ValueError(v)


def main():
    out = sys.stdout
    for name, (e, m) in FORMATS.items():
        top = ((1 << e) - 1) << m  # infinity
        picks = set(range(1, top, 11)) | set(range(1, 64)) | set(range(top - 64, top))
        picks |= {b for k in range(1, (1 << e) - 1) for b in (k << m, (k << m) - 1, (k << m) + 1) if 0 < b < top}
        for bits in sorted(picks):
            with gmpy2.context(precision=200):
                v = value(bits, e, m)
            digits, exp = shortest(v, e, m)
            if name == "f16":
                mant, nexp = np.format_float_scientific(np.uint16(bits).view(np.float16), unique=True).split("e")
                assert (mant.replace(".", "").rstrip("0"), int(nexp)) == (digits, exp), (bits, mant, nexp, digits, exp)
            out.write(f"{name} {bits:04x} {digits} {exp}\n")


def exact(bits, e, m):
    """The value of positive `bits` as a Fraction."""
    exp = (bits >> m) & ((1 << e) - 1)
    frac = bits & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    if exp == 0:
        return Fraction(frac) * Fraction(2) ** (1 - bias - m)
    return Fraction(frac | 1 << m) * Fraction(2) ** (exp - bias - m)


def decimal(q):
    """A Fraction with a power-of-two denominator as its exact decimal text."""
    getcontext().prec = 400
    d = Decimal(q.numerator) / Decimal(q.denominator)
    assert Fraction(d) == q, q
    return format(d, "f") if -30 < d.adjusted() < 30 else format(d, "e")


def rounded(text, e, m):
    """`text` rounded once to the format by MPFR: bits, `overflow` or `underflow`."""
    with context(e, m):
        v = mpfr(text)
    if gmpy2.is_infinite(v):
        return "overflow"
    if v == 0:
        return "underflow"
    neg = v < 0
    target = Fraction(*abs(v).as_integer_ratio())
    top = ((1 << e) - 1) << m
    lo, hi = 1, top - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if exact(mid, e, m) < target:
            lo = mid + 1
        else:
            hi = mid
    assert exact(lo, e, m) == target, (text, v)
    return "%04x" % (lo | (neg << (e + m)))


def parse_vectors():
    rng = random.Random(2026)
    out = sys.stdout
    for name, (e, m) in FORMATS.items():
        top = ((1 << e) - 1) << m
        picks = set(rng.sample(range(1, top - 1), 250)) | set(range(0, 8)) | {top - 2, top - 1}
        picks |= {(k << m) - 1 for k in range(1, (1 << e))}
        for bits in sorted(picks):
            lo = exact(bits, e, m)
            # Above the largest finite value, the next one is where infinity's binade starts.
            hi = exact(bits + 1, e, m) if bits + 1 < top else Fraction(2) ** (1 << (e - 1))
            mid = (lo + hi) / 2
            ulp = hi - lo
            texts = [decimal(mid)]
            getcontext().prec = 400
            dm = Decimal(mid.numerator) / Decimal(mid.denominator)
            hair = Decimal(10) ** (dm.adjusted() - 30)
            texts += [format(dm + hair, "e"), format(dm - hair, "e")]
            for _ in range(2):
                q = mid + ulp * Fraction(rng.randint(-3000, 3000), 1000)
                if q > 0:
                    digits = rng.randint(17, 25)
                    texts.append(format(Decimal(q.numerator) / Decimal(q.denominator), ".%de" % (digits - 1)))
            for t in texts:
                for sign in ("", "-"):
                    out.write(f"{name} {sign}{t} {rounded(sign + t, e, m)}\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--parse"]:
        parse_vectors()
    else:
        main()
