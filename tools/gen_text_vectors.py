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
"""
import sys

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


if __name__ == "__main__":
    main()
