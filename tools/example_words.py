#!/usr/bin/env python3
"""Reads the words the assembler gave the seeds' good examples
(`tests/golden/examples.txt`) back with a decoder of its own, from the spec
text alone (the field layouts and enum tables of `spec_fields.py`), and
checks that each word says what its line says:

- the word's opcode (found by its `==` constants) belongs to the line's
  mnemonic (the optype's name, dots and underscores aside);
- every dotted part of the mnemonic after the optype's name is the value
  name of some enum field of the word;
- every register the line names (`R7`, `UR2`, `P0`, `RZ`, `PT`, `R[0:1]`)
  is the value of a field of that file's type, each field used once, and a
  `!`, `-`, `~` or `|..|` written on it is the `.not`, `.neg`/`.inv` or
  `.abs` sub-field of that field set to `True` (unwritten: `False`);
- the guard `@P0`/`@!P0` is `pg`/`pg.not`, and with no guard `pg` is `PT`;
- every number is the value of a field that is not a register: an integer
  (two's complement when negative), a float's binary32 bits, or one lane's
  binary16/bfloat16 bits in a half of a 32-bit field; `c[B][O]` a
  constant-memory field holding B and O; `R[URn+0xK]` an index field K;
- and the other way: every field the line does not say (no modifier,
  operand or decoration of it) holds its default (0 when it has none).

It writes one line per good example, `FILE:LINE WORD` then `consistent` or
the disagreements; the test `tests/tests/spec_fields.rs` holds every line to
`consistent` and every word to the one in `examples.txt`, so a re-blessed
`examples.txt` needs this script run again (and its check passed).

    python3 tools/example_words.py spec/ tests/golden/examples.txt > tests/golden/example_words.txt
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_fields  # noqa: E402
import spec_rules  # noqa: E402
import struct  # noqa: E402

REG = re.compile(r'^(UR|UP|R|P)(\d+|Z|T)$')
PAIR = re.compile(r'^R\[(\d+):(\d+)\]$')
INDEXED = re.compile(r'^R\[(UR\d+|URZ)(?:[+-]0x[0-9A-Fa-f]+)?\]$')
FILE_OF = {'R': 'Reg', 'UR': 'UReg', 'P': 'Pred', 'UP': 'UPred'}
NAMED = {('R', 'Z'): 255, ('UR', 'Z'): 63, ('P', 'T'): 7, ('UP', 'T'): 7}


def layouts(root):
    parents, fields, order, enums = spec_fields.read(root)
    out = {}
    for op in order:
        layout = {}
        for cls in spec_fields.chain(op, parents):
            for fname, start, width, ty, eq, value in fields.get(cls, []):
                layout[fname] = (start, width, ty, eq, value)
        out[op] = layout
    return out, enums, parents


def decode(word, ops, enums):
    """The opcode whose constants the word holds, and its fields' values."""
    for op, layout in ops.items():
        ok = True
        for fname, (start, width, ty, eq, value) in layout.items():
            if eq == '==':
                want = spec_fields.constant(ty, value, enums)
                if want is None or (word >> start) & ((1 << width) - 1) != want:
                    ok = False
                    break
        if ok:
            return op, {f: (((word >> s) & ((1 << w) - 1)), ty) for f, (s, w, ty, eq, v) in layout.items()}
    return None, {}


def name_of(ty, n, enums):
    return next((k for k, v in enums.get(ty, {}).items() if k != '_next' and v == n), None)


def operands(text):
    """The line's operands, split at top-level commas."""
    out, depth, cur = [], 0, ''
    for c in text:
        if c == '[':
            depth += 1
        elif c == ']':
            depth -= 1
        if c == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def f16_bits(v):
    try:
        return struct.unpack('<H', struct.pack('<e', v))[0]
    except OverflowError:
        return None


def bf16_bits(v):
    b = struct.unpack('<I', struct.pack('<f', v))[0]
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def number_fits(text, neg, raw, width):
    """Whether the number `text` (negated when `neg`) is what a field of
    `width` bits holding `raw` says."""
    mask = (1 << width) - 1
    t = text.lower()
    if t.startswith('0f'):
        return raw == int(t[2:], 16)
    if t.startswith('0x'):
        v = int(t, 16)
        return raw == ((-v if neg else v) & mask)
    v = float(t)
    v = -v if neg else v
    if v == int(v) and raw == (int(v) & mask):
        return True
    f32 = struct.unpack('<I', struct.pack('<f', v))[0]
    if width == 32 and raw == f32:
        return True
    halves = (raw & 0xFFFF, raw >> 16) if width == 32 else ()
    return f16_bits(v) in halves or bf16_bits(v) in halves


def check(line_text, word, ops, enums, parents, constants, guard_field):
    problems = []
    op, fields = decode(word, ops, enums)
    if op is None:
        return ['the word has no opcode\'s constants']
    layout = ops[op]
    registers = set(FILE_OF.values())
    accounted = {f for f, (s, w, ty, eq, v) in layout.items() if eq == '=='}
    text = line_text.split('//')[0].strip().rstrip(';').strip()
    guard = None
    if text.startswith('@'):
        guard, text = text.split(None, 1)
    mnemonic, _, rest = text.partition(' ')
    # The optype: the class in the chain directly above the opcode.
    optype = next(p for p in parents[op])
    norm = lambda s: s.replace('.', '').replace('_', '').upper()
    if not norm(mnemonic).startswith(norm(optype)):
        problems.append(f'opcode {op} (optype {optype}) for mnemonic {mnemonic}')
    # Dotted parts beyond the optype's name.
    parts = mnemonic.split('.')
    taken = ''
    while parts and norm(taken + parts[0]) and norm(optype).startswith(norm(taken + parts[0])):
        taken += parts.pop(0)
    def said(p, what):
        holding = [f for f, (n, ty) in fields.items() if ty in enums and name_of(ty, n, enums) == p]
        if not holding:
            problems.append(f'{what}: no enum field of the word holds {p}')
        accounted.update(holding)

    for p in parts:
        said(p, f'.{p}')
    # Registers, each to a field of its file's type.
    used = set()

    def sub(f, s):
        got = fields.get(f'{f}.{s}')
        return None if got is None else name_of(got[1], got[0], enums)

    def take(prefix, number, decos, what):
        ty = FILE_OF[prefix]
        # `~` is the `.inv` sub-field, or `.neg` where the operand has none
        # (the seeds' `CvtINegX`: with `.X` the negation is written `~`).
        if decos.pop('inv', False):
            decos['inv?'] = True
        cands = [f for f, (n, t) in fields.items() if t == ty and n == number and f not in used]
        # Prefer the field whose decorations agree.
        def resolved(f):
            d = dict(decos)
            if d.pop('inv?', False):
                d['inv' if f'{f}.inv' in fields else 'neg'] = True
            return d

        def agrees(f):
            return all(sub(f, s) in (None, 'True' if on else 'False') for s, on in resolved(f).items())
        cands.sort(key=lambda f: (not agrees(f), f))
        if not cands:
            problems.append(f'{what}: no {ty} field holds {number}')
            return
        f = cands[0]
        used.add(f)
        accounted.add(f)
        accounted.update(g for g in fields if g.startswith(f + '.'))
        for s, on in resolved(f).items():
            v = sub(f, s)
            if v is not None and v != ('True' if on else 'False'):
                problems.append(f'{what}: {f}.{s} is {v}')

    if guard:
        neg = guard.startswith('@!')
        m = REG.match(guard.lstrip('@!'))
        number = NAMED.get((m.group(1), m.group(2))) if not m.group(2).isdigit() else int(m.group(2))
        if fields.get(guard_field, (None,))[0] != number:
            problems.append(f'{guard}: {guard_field} is not {number}')
        accounted.add(guard_field)
        if f'{guard_field}.not' in fields:
            accounted.add(f'{guard_field}.not')
            if name_of(fields[f'{guard_field}.not'][1], fields[f'{guard_field}.not'][0], enums) != ('True' if neg else 'False'):
                problems.append(f'{guard}: {guard_field}.not is wrong')
    # The guard is written before the mnemonic, never as an operand.
    if guard_field in fields:
        used.add(guard_field)
    numbers = [f for f, (s, w, ty, eq, v) in layout.items() if eq != '==' and ty not in enums and ty not in registers]
    for o in (operands(rest) if rest else []):
        core = o
        decos = {}
        if core.startswith('!'):
            decos['not'] = True
            core = core[1:]
        if core.startswith('-'):
            decos['neg'] = True
            core = core[1:]
        if core.startswith('~'):
            decos['inv'] = True
            core = core[1:]
        if core.startswith('|') and core.endswith('|'):
            decos['abs'] = True
            core = core[1:-1]
        if not core.startswith(('R[', 'c[')) and not re.match(r'^-?[0-9]', core):
            core, *suffixes = core.split('.')
            for x in suffixes:
                said(x, f'{o}: .{x}')
        m = REG.match(core)
        p = PAIR.match(core)
        if m:
            prefix, num = m.group(1), m.group(2)
            number = int(num) if num.isdigit() else NAMED.get((prefix, num))
            if number is None:
                continue
            full = {k: decos.get(k, False) for k in ('neg', 'abs', 'inv') if k in decos or k != 'inv'}
            if prefix in ('P', 'UP'):
                full = {'not': decos.get('not', False)}
            take(prefix, number, full, o)
        elif p:
            lo, hi = int(p.group(1)), int(p.group(2))
            if hi != lo + 1:
                problems.append(f'{o}: not a pair')
            take('R', lo, {k: decos.get(k, False) for k in ('neg', 'abs')} , o)
        elif INDEXED.match(core):
            inner = core[2:-1]
            ur, sign, off = re.match(r'^(URZ|UR\d+)(?:([+-])(0x[0-9A-Fa-f]+))?$', inner).groups()
            take('UR', 63 if ur == 'URZ' else int(ur[2:]), {}, o)
            k = int(off, 16) * (-1 if sign == '-' else 1) if off else 0
            hit = [f for f in numbers if f not in accounted and fields[f][0] == k & ((1 << layout[f][1]) - 1)]
            if not hit:
                problems.append(f'{o}: no field holds the offset {k}')
            accounted.update(hit[:1])
        elif core.startswith('c['):
            bank, offset = (int(x, 16) for x in re.match(r'^c\[(0x[0-9A-Fa-f]+)\]\[(0x[0-9A-Fa-f]+)\]$', core).groups())
            hit = [f for f in numbers if fields[f][1] == 'CMem' and f not in accounted and fields[f][0] == bank << 17 | offset]
            if not hit:
                problems.append(f'{o}: no constant-memory field holds bank {bank}, offset {offset:#x}')
            accounted.update(hit[:1])
            for s_, on in (('neg', decos.get('neg', False)), ('abs', decos.get('abs', False))):
                for f in hit[:1]:
                    v = name_of(fields[f'{f}.{s_}'][1], fields[f'{f}.{s_}'][0], enums) if f'{f}.{s_}' in fields else None
                    if v is not None and v != ('True' if on else 'False'):
                        problems.append(f'{o}: {f}.{s_} is {v}')
                    accounted.add(f'{f}.{s_}')
        elif re.match(r'^(0[xXfF][0-9A-Fa-f]+|[0-9.]+([eE][-+]?[0-9]+)?|inf)$', core):
            neg = decos.get('neg', False)
            # A lane of a float pair shares its field with the other lane.
            hit = [f for f in numbers if number_fits(core, neg, fields[f][0], layout[f][1])]
            hit.sort(key=lambda f: f in accounted)
            if not hit:
                problems.append(f'{o}: no field holds it')
            accounted.update(hit[:1])
            for f in hit[:1]:
                for s_ in ('neg', 'abs'):
                    if f'{f}.{s_}' in fields:
                        accounted.add(f'{f}.{s_}')
    # The other way: what the line does not say is at its default.
    for f, (start, width, ty, eq, value) in layout.items():
        if f in accounted:
            continue
        n = fields[f][0]
        if eq == '=':
            want = spec_fields.constant(ty, value, enums)
            want = constants.get(ty, {}).get(value) if want is None else want
        else:
            want = 0
        if want is not None and n != want:
            shown = name_of(ty, n, enums) or n
            problems.append(f'{f} is {shown}, which the line does not say (its default: {value if eq == "=" else 0})')
    return problems


def main(root, examples):
    ops, enums, parents = layouts(root)
    _, constants = spec_rules.read_extra(root)
    # `Guard = pg;` in `__DefIsa`: the field `@P0` writes.
    guard_field = next((l.split('=')[1].strip(' ;') for kind, _, sec, l in spec_fields.statements(root) if kind == 'Isa' and sec != 'Def' and l.startswith('Guard ')), 'pg')
    if not ops:
        sys.exit(f'no opcodes in {root}: give the spec directory')
    print('# Generated by tools/example_words.py: the good examples\' words read back from the spec text alone.')
    with open(examples, encoding='utf-8') as fh:
        for line in fh:
            parts = line.rstrip('\n').split(' ', 3)
            if len(parts) < 4 or parts[1] != 'ok':
                continue
            where, _, word, text = parts
            problems = check(text, int(word, 16), ops, enums, parents, constants, guard_field)
            print(f'{where} {word} ' + ('consistent' if not problems else '; '.join(problems)))


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'spec', sys.argv[2] if len(sys.argv) > 2 else 'tests/golden/examples.txt')
