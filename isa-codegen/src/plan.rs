//! Encoding plan: what both the interpreted codec (`interp.rs`) and the
//! generated Rust (`gen_rust.rs`) need, computed once from the IR so the two
//! cannot drift apart:
//! * the decode dispatch: a key made of instruction bits every opcode fixes
//!   (for this ISA the 8-bit optype and 4-bit stype), a table from key to
//!   opcode, and candidate lists when several opcodes share a key;
//! * each opcode's exception rules lowered to raw field bits ([`RawExpr`]);
//! * each opcode's rejections (field values outside their type, broken
//!   `__Exception` rules) as `(mask, value)` cubes ([`reject_cubes`],
//!   [`opcode_rejections`]), and the check tables the generated decoder
//!   tests them with, a table per window of the bits they read
//!   ([`check_tables`], [`CheckTables`]).

use isa_dsl::expr::{BinOp, Expr, ExprKind};
use isa_dsl::ir::{Field, Isa, Opcode, TypeKind};

/// Largest dispatch key, in bits (a 64 Ki-entry table).
pub const MAX_KEY_BITS: u32 = 16;

/// A run of contiguous instruction bits that forms part of the dispatch key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRun {
    /// First instruction bit of the run.
    pub start: u32,
    /// Number of bits in the run.
    pub width: u32,
    /// Position of the run inside the key.
    pub shift: u32,
}

/// What a dispatch-table slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// No opcode has this key: the word does not decode.
    Empty,
    /// Exactly one opcode (its index) has this key; its constant bits are still checked.
    One(usize),
    /// Index into [`DecodePlan::candidates`].
    Many(usize),
}

/// The decode dispatch of an ISA.
#[derive(Clone, Debug)]
pub struct DecodePlan {
    /// The bit runs that make up the key, gathered from the word.
    pub key_runs: Vec<KeyRun>,
    /// The key's width: the table has `1 << key_bits` slots.
    pub key_bits: u32,
    /// One slot per key value.
    pub table: Vec<Slot>,
    /// Opcode lists for keys several opcodes share, most specific first.
    pub candidates: Vec<Vec<usize>>,
}

impl DecodePlan {
    /// Builds the plan. The key uses the lowest [`MAX_KEY_BITS`] bits that
    /// every opcode fixes; with none, every word goes to one candidate list.
    pub fn new(isa: &Isa) -> DecodePlan {
        let common = isa.opcodes.iter().fold(if isa.opcodes.is_empty() { 0 } else { u128::MAX }, |m, o| m & o.fixed_mask);
        let mut key_mask = 0u128;
        let mut n = 0;
        for b in 0..128 {
            if n < MAX_KEY_BITS && common >> b & 1 == 1 {
                key_mask |= 1u128 << b;
                n += 1;
            }
        }
        let mut key_runs = Vec::new();
        let mut b = 0u32;
        let mut shift = 0u32;
        while b < 128 {
            if key_mask >> b & 1 == 1 {
                let start = b;
                while b < 128 && key_mask >> b & 1 == 1 {
                    b += 1;
                }
                key_runs.push(KeyRun { start, width: b - start, shift });
                shift += b - start;
            } else {
                b += 1;
            }
        }
        let mut plan = DecodePlan { key_runs, key_bits: n, table: vec![Slot::Empty; 1usize << n], candidates: Vec::new() };
        let mut lists: Vec<Vec<usize>> = vec![Vec::new(); 1usize << n];
        for (i, op) in isa.opcodes.iter().enumerate() {
            lists[plan.key(op.fixed_bits)].push(i);
        }
        for (k, mut list) in lists.into_iter().enumerate() {
            plan.table[k] = match list.len() {
                0 => Slot::Empty,
                1 => Slot::One(list[0]),
                _ => {
                    // Most fixed bits first, so a more specific opcode wins.
                    list.sort_by_key(|&i| (std::cmp::Reverse(isa.opcodes[i].fixed_mask.count_ones()), i));
                    plan.candidates.push(list);
                    Slot::Many(plan.candidates.len() - 1)
                }
            };
        }
        plan
    }

    /// The key's bits in the word (bits every opcode fixes).
    pub fn key_mask(&self) -> u128 {
        self.key_runs.iter().fold(0u128, |m, r| m | (mask64(r.width) as u128) << r.start)
    }

    /// The dispatch key of a word.
    pub fn key(&self, word: u128) -> usize {
        self.key_runs
            .iter()
            .fold(0usize, |k, r| k | ((((word >> r.start) as u64) & mask64(r.width)) as usize) << r.shift)
    }

    /// Opcodes a word may be, in the order to try them.
    pub fn candidates_for(&self, word: u128) -> &[usize] {
        match &self.table[self.key(word)] {
            Slot::Empty => &[],
            Slot::One(i) => std::slice::from_ref(i),
            Slot::Many(c) => &self.candidates[*c],
        }
    }
}

/// Mask of the low `width` bits (width <= 64).
pub fn mask64(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// An expression over raw field bits: what an `__Exception` condition or a
/// `Bitwidth` means once value names are replaced by their encodings.
/// Every node evaluates to an `i64`; conditions are non-zero for true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawExpr {
    /// A number (value names already replaced by their encodings).
    Const(i64),
    /// A field's raw bits.
    Field {
        /// The field's least significant bit in the word.
        start: u32,
        /// Its width in bits.
        width: u32,
    },
    /// Logical not: 1 when the operand is 0, else 0.
    Not(Box<RawExpr>),
    /// A binary operation, evaluated as in the spec's C-like pseudo-code.
    Binary(BinOp, Box<RawExpr>, Box<RawExpr>),
}

impl RawExpr {
    /// Whether the value depends on the word.
    pub fn reads_fields(&self) -> bool {
        match self {
            RawExpr::Const(_) => false,
            RawExpr::Field { .. } => true,
            RawExpr::Not(e) => e.reads_fields(),
            RawExpr::Binary(_, a, b) => a.reads_fields() || b.reads_fields(),
        }
    }

    /// The bits of every field the expression reads.
    pub fn field_bits(&self) -> u128 {
        match self {
            RawExpr::Const(_) => 0,
            RawExpr::Field { start, width } => (mask64(*width) as u128) << start,
            RawExpr::Not(e) => e.field_bits(),
            RawExpr::Binary(_, a, b) => a.field_bits() | b.field_bits(),
        }
    }

    /// Evaluates on an instruction word.
    pub fn eval(&self, word: u128) -> i64 {
        match self {
            RawExpr::Const(c) => *c,
            RawExpr::Field { start, width } => (((word >> start) as u64) & mask64(*width)) as i64,
            RawExpr::Not(e) => (e.eval(word) == 0) as i64,
            RawExpr::Binary(op, a, b) => {
                let x = a.eval(word);
                match op {
                    BinOp::Or => (x != 0 || b.eval(word) != 0) as i64,
                    BinOp::And => (x != 0 && b.eval(word) != 0) as i64,
                    BinOp::Eq => (x == b.eval(word)) as i64,
                    BinOp::Ne => (x != b.eval(word)) as i64,
                    BinOp::Add => x.wrapping_add(b.eval(word)),
                    BinOp::Sub => x.wrapping_sub(b.eval(word)),
                    BinOp::Mul => x.wrapping_mul(b.eval(word)),
                }
            }
        }
    }
}

/// Lowers an expression for `op`: fields become bit ranges, strings the
/// encoding of the value they name in the field they are compared with.
/// `None` when the expression names something the opcode lacks (the front
/// end has reported it).
pub fn lower(isa: &Isa, op: &Opcode, e: &Expr) -> Option<RawExpr> {
    Some(match &e.kind {
        ExprKind::Int(i) => RawExpr::Const(*i),
        ExprKind::Bool(b) => RawExpr::Const(*b as i64),
        ExprKind::Str(_) => return None,
        ExprKind::Field(f) => {
            let f = op.field(f)?;
            RawExpr::Field { start: f.start, width: f.width }
        }
        ExprKind::Not(x) => RawExpr::Not(Box::new(lower(isa, op, x)?)),
        ExprKind::Binary(bop, a, b) => {
            let side = |x: &Expr, other: &Expr| -> Option<RawExpr> {
                match (&x.kind, &other.kind) {
                    (ExprKind::Str(s), ExprKind::Field(f)) => {
                        let field = op.field(f)?;
                        Some(RawExpr::Const(literal(isa, field, s)? as i64))
                    }
                    _ => lower(isa, op, x),
                }
            };
            RawExpr::Binary(*bop, Box::new(side(a, b)?), Box::new(side(b, a)?))
        }
    })
}

/// The encoding of a value written as text (`"BF16_V2"`, `"RZ"`, `"64"`) in a field's type.
/// The encoding of `text` (a value name or number as the spec writes it)
/// in the field's type; `None` when the type has no such value.
pub fn literal(isa: &Isa, field: &Field, text: &str) -> Option<u64> {
    isa_dsl::resolve::encode_literal(&isa.types[field.ty], text)
}

/// An exception rule ready to evaluate.
#[derive(Clone, Debug)]
pub struct RawException {
    /// The rule's kind as the spec names it (`IllegalBitFieldCombination`).
    pub kind: String,
    /// The rule's message, shown when it fires.
    pub message: String,
    /// The condition under which the word is illegal (non-zero: it fires).
    pub condition: RawExpr,
    /// The bits of the fields the rule reads ([`RawExpr::field_bits`]).
    pub bits: u128,
}

/// The exception rules of an opcode that lower cleanly (the others were
/// reported by the front end as errors, so a checked IR has none).
pub fn exceptions(isa: &Isa, op: &Opcode) -> Vec<RawException> {
    op.exceptions
        .iter()
        .filter_map(|e| {
            let condition = lower(isa, op, &e.condition)?;
            Some(RawException { kind: e.kind.clone(), message: e.message.clone(), bits: condition.field_bits(), condition })
        })
        .collect()
}

/// Which encodings a field accepts: `None` = every value of its width.
pub fn valid_values(isa: &Isa, f: &Field) -> Option<Vec<u64>> {
    match &isa.types[f.ty].kind {
        TypeKind::Enum { values } => Some(values.iter().map(|v| v.encoding).collect()),
        _ => None,
    }
}

/// A set of instruction words: those with `word & mask == value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cube {
    /// The bits the set constrains.
    pub mask: u128,
    /// Their required values (zero outside `mask`).
    pub value: u128,
}

impl Cube {
    /// Every word.
    pub const ALL: Cube = Cube { mask: 0, value: 0 };

    /// Whether `word` is in the set.
    pub fn contains(self, word: u128) -> bool {
        word & self.mask == self.value
    }

    /// Words in both sets, if any.
    fn meet(self, other: Cube) -> Option<Cube> {
        ((self.value ^ other.value) & self.mask & other.mask == 0)
            .then_some(Cube { mask: self.mask | other.mask, value: self.value | other.value })
    }

    /// Whether every word of `other` is in `self`.
    fn covers(self, other: Cube) -> bool {
        self.mask & other.mask == self.mask && other.value & self.mask == self.value
    }
}

/// Most cubes one opcode's rejections may take; beyond, [`reject_cubes`]
/// gives up and the opcode's own checks run instead.
pub const MAX_CUBES: usize = 64;

/// Words an opcode rejects although its constant bits match, as a union of
/// cubes: a field holding a value outside its type, or an `__Exception` rule
/// that holds. This is what the generated decoder's validation table holds,
/// so a word is checked with a few mask compares whatever its opcode.
/// `None` when a rule is not a comparison of fields with constants (or needs
/// more than [`MAX_CUBES`] cubes).
pub fn reject_cubes(isa: &Isa, op: &Opcode) -> Option<Vec<Cube>> {
    let mut out = Vec::new();
    for f in op.fields.iter().filter(|f| !f.is_constant()) {
        out.extend(invalid_values(isa, f)?);
    }
    for e in exceptions(isa, op) {
        out.extend(truth(&e.condition, true)?);
    }
    let out = simplify(out);
    (out.len() <= MAX_CUBES).then_some(out)
}

/// Widest window of the check tables, in bits (a 1 Ki-entry table).
pub const MAX_CHECK_WINDOW: u32 = 10;

/// Most distinct cubes the check tables tell apart: the bits of an entry.
pub const MAX_CHECK_CUBES: usize = 32;

/// How the generated code checks a word against its opcode's rules without
/// branching on the opcode, once the dispatch key has matched: every opcode's
/// rejected cubes ([`opcode_rejections`]) numbered once for the whole ISA,
/// and per window of the bits they read, a table from the window's value to
/// the set of cubes whose bits there match. A word is in cube `c` when bit `c`
/// is set in the AND of its windows' entries, so it is rejected when that AND
/// meets its opcode's row. Cube 0 is [`Cube::ALL`]: a row holding it rejects
/// every word (opcodes left to their own checks, and no opcode at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckTables {
    /// The distinct cubes; bit `c` of an entry or a row is `cubes[c]`.
    pub cubes: Vec<Cube>,
    /// The lookup tables, each over a few bits of the word.
    pub windows: Vec<CheckWindow>,
    /// Per opcode in spec order, the set of cubes it rejects; `None` when
    /// its rules are not cubes or there are too many cubes in all: its own
    /// checks decide.
    pub rows: Vec<Option<u64>>,
}

/// One table of [`CheckTables`]: bits `start..start + width` of the word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckWindow {
    /// The window's least significant bit in the word.
    pub start: u32,
    /// Its width in bits: `entries` has `1 << width` entries.
    pub width: u32,
    /// Indexed by the window's value: the cubes whose bits in the window
    /// match it (a cube reading none of them matches every value).
    pub entries: Vec<u64>,
}

impl CheckTables {
    /// The row that rejects every word.
    pub const REJECT_ALL: u64 = 1;

    /// Whether a word whose key bits matched the opcode of `row` is rejected,
    /// computed as the generated code does.
    pub fn rejects(&self, row: u64, word: u128) -> bool {
        let hits = self.windows.iter().fold(u64::MAX, |acc, w| acc & w.entries[((word >> w.start) as u64 & mask64(w.width)) as usize]);
        hits & row != 0
    }
}

/// Builds the [`CheckTables`] of `isa` for words whose bits `implied` are
/// known to match (the dispatch key). Opcodes are admitted fewest cubes
/// first (then in spec order), so that the ones left to their own checks,
/// when the cubes would pass [`MAX_CHECK_CUBES`], are the fewest words'.
pub fn check_tables(isa: &Isa, implied: u128) -> CheckTables {
    let rejections: Vec<Option<Vec<Cube>>> = isa.opcodes.iter().map(|op| opcode_rejections(isa, op, implied)).collect();
    let mut order: Vec<usize> = (0..rejections.len()).filter(|&i| rejections[i].is_some()).collect();
    order.sort_by_key(|&i| rejections[i].as_ref().map_or(0, Vec::len));
    let mut cubes = vec![Cube::ALL];
    let mut rows = vec![None; rejections.len()];
    for i in order {
        let reject = rejections[i].as_deref().unwrap_or_default();
        let fresh = reject.iter().filter(|c| !cubes.contains(c)).count();
        if cubes.len() + fresh > MAX_CHECK_CUBES {
            continue;
        }
        rows[i] = Some(reject.iter().fold(0u64, |row, c| {
            let k = cubes.iter().position(|x| x == c).unwrap_or_else(|| {
                cubes.push(*c);
                cubes.len() - 1
            });
            row | 1 << k
        }));
    }
    // Windows over the bits read, from the lowest: each starts at a bit read
    // and ends at the last bit read within `MAX_CHECK_WINDOW`.
    let read = cubes.iter().fold(0u128, |m, c| m | c.mask);
    let mut windows = Vec::new();
    let mut from = 0;
    while from < 128 && read >> from != 0 {
        let start = from + (read >> from).trailing_zeros();
        let span = (read >> start) & mask64(MAX_CHECK_WINDOW.min(128 - start)) as u128;
        let width = 128 - span.leading_zeros();
        let bits = (mask64(width) as u128) << start;
        let entries = (0..1u128 << width)
            .map(|v| {
                let word = v << start;
                cubes.iter().enumerate().fold(0u64, |e, (k, c)| e | ((word & c.mask & bits == c.value & bits) as u64) << k)
            })
            .collect();
        windows.push(CheckWindow { start, width, entries });
        from = start + width;
    }
    CheckTables { cubes, windows, rows }
}

/// Everything that decides whether a word is `op` once its bits `implied`
/// are known to match (the dispatch key): its other constant bits differing
/// and its rejections ([`reject_cubes`]), as rejected cubes. `None` when its
/// rules are not cubes.
pub fn opcode_rejections(isa: &Isa, op: &Opcode, implied: u128) -> Option<Vec<Cube>> {
    let mut reject = reject_cubes(isa, op)?;
    let constant = op.fixed_mask & !implied;
    reject.extend((0..128).filter(|b| constant >> b & 1 == 1).map(|b| Cube { mask: 1 << b, value: !op.fixed_bits & 1 << b }));
    Some(simplify(reject))
}

/// The raw values of a field that are not values of its type (what the
/// generated `from_raw` refuses), as cubes over the word.
fn invalid_values(isa: &Isa, f: &Field) -> Option<Vec<Cube>> {
    let t = &isa.types[f.ty];
    let field_mask = (mask64(f.width) as u128) << f.start;
    match &t.kind {
        TypeKind::Enum { values } => {
            // Wider enums are not enumerated (the merge below is quadratic).
            if f.width > 8 {
                return None;
            }
            let valid: Vec<u64> = values.iter().map(|v| v.encoding).collect();
            let bad = (0..1u64 << f.width).filter(|v| !valid.contains(v));
            Some(merge_values(bad.map(|v| Cube { mask: field_mask, value: (v as u128) << f.start }).collect()))
        }
        // Other types take every value up to their width.
        _ => Some((t.width..f.width).map(|b| Cube { mask: 1u128 << (f.start + b), value: 1u128 << (f.start + b) }).collect()),
    }
}

/// Merges cubes differing in one masked bit (the first step of
/// Quine–McCluskey), until none do.
fn merge_values(mut cubes: Vec<Cube>) -> Vec<Cube> {
    loop {
        let mut merged = Vec::new();
        let mut used = vec![false; cubes.len()];
        for i in 0..cubes.len() {
            for j in i + 1..cubes.len() {
                let (a, b) = (cubes[i], cubes[j]);
                let diff = a.value ^ b.value;
                if a.mask == b.mask && diff.count_ones() == 1 {
                    merged.push(Cube { mask: a.mask & !diff, value: a.value & !diff });
                    used[i] = true;
                    used[j] = true;
                }
            }
        }
        if merged.is_empty() {
            return simplify(cubes);
        }
        merged.extend(cubes.iter().zip(&used).filter(|(_, u)| !**u).map(|(c, _)| *c));
        cubes = simplify(merged);
    }
}

/// Sorted, without duplicates and without cubes another one covers.
fn simplify(mut cubes: Vec<Cube>) -> Vec<Cube> {
    cubes.sort();
    cubes.dedup();
    let keep: Vec<bool> =
        (0..cubes.len()).map(|i| !cubes.iter().enumerate().any(|(j, c)| j != i && c.covers(cubes[i]))).collect();
    cubes.into_iter().zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).collect()
}

/// Widest fields [`truth`] compares with each other, value by value.
const MAX_COMPARED_WIDTH: u32 = 4;

/// Words where `field == c` (`eq`) or `field != c` (not `eq`).
fn compare(start: u32, width: u32, c: i64, eq: bool) -> Vec<Cube> {
    let fits = c >= 0 && (c as u64) <= mask64(width);
    match (eq, fits) {
        (true, true) => vec![Cube { mask: (mask64(width) as u128) << start, value: (c as u128) << start }],
        (true, false) => vec![],
        (false, false) => vec![Cube::ALL],
        // Some bit differs from the constant's.
        (false, true) => (0..width)
            .map(|b| Cube { mask: 1u128 << (start + b), value: (((c as u64 >> b) & 1) ^ 1) as u128 * (1u128 << (start + b)) })
            .collect(),
    }
}

/// Words where the truth of `e` (non-zero) is `want`, as cubes; `None` when
/// `e` is not a boolean combination of field/constant comparisons.
fn truth(e: &RawExpr, want: bool) -> Option<Vec<Cube>> {
    let is_bool = |e: &RawExpr| {
        matches!(e, RawExpr::Not(_) | RawExpr::Binary(BinOp::Or | BinOp::And | BinOp::Eq | BinOp::Ne, _, _))
    };
    let both = |a: Vec<Cube>, b: Vec<Cube>| -> Option<Vec<Cube>> {
        let out: Vec<Cube> = a.iter().flat_map(|x| b.iter().filter_map(|y| x.meet(*y))).collect();
        let out = simplify(out);
        (out.len() <= MAX_CUBES).then_some(out)
    };
    let either = |mut a: Vec<Cube>, b: Vec<Cube>| -> Option<Vec<Cube>> {
        a.extend(b);
        let out = simplify(a);
        (out.len() <= MAX_CUBES).then_some(out)
    };
    match e {
        RawExpr::Const(c) => Some(if (*c != 0) == want { vec![Cube::ALL] } else { vec![] }),
        RawExpr::Field { start, width } => Some(compare(*start, *width, 0, !want)),
        RawExpr::Not(x) => truth(x, !want),
        RawExpr::Binary(BinOp::Or, a, b) if want => either(truth(a, true)?, truth(b, true)?),
        RawExpr::Binary(BinOp::Or, a, b) => both(truth(a, false)?, truth(b, false)?),
        RawExpr::Binary(BinOp::And, a, b) if want => both(truth(a, true)?, truth(b, true)?),
        RawExpr::Binary(BinOp::And, a, b) => either(truth(a, false)?, truth(b, false)?),
        RawExpr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
            // `want` for an equality: the comparison holding or not.
            let eq_holds = want == (*op == BinOp::Eq);
            match (&**a, &**b) {
                (RawExpr::Field { start, width }, RawExpr::Const(c)) | (RawExpr::Const(c), RawExpr::Field { start, width }) => {
                    Some(compare(*start, *width, *c, eq_holds))
                }
                (RawExpr::Const(x), RawExpr::Const(y)) => Some(if (x == y) == eq_holds { vec![Cube::ALL] } else { vec![] }),
                // Two narrow fields (`dsttype == srctype`): one cube per
                // value they can share (or per value of one the other lacks).
                (RawExpr::Field { start: s1, width: w1 }, RawExpr::Field { start: s2, width: w2 })
                    if (*w1).max(*w2) <= MAX_COMPARED_WIDTH =>
                {
                    let values = 0..1i64 << (*w1).max(*w2);
                    let mut out = Vec::new();
                    for v in values {
                        out = either(out, both(compare(*s1, *w1, v, true), compare(*s2, *w2, v, eq_holds))?)?;
                    }
                    Some(out)
                }
                (x, RawExpr::Const(c)) | (RawExpr::Const(c), x) if is_bool(x) => match *c {
                    // A boolean is 0 or 1: `x == 1` is `x`, `x == 0` is `!x`.
                    0 | 1 => truth(x, (*c == 1) == eq_holds),
                    _ => Some(if eq_holds { vec![] } else { vec![Cube::ALL] }),
                },
                _ => None,
            }
        }
        RawExpr::Binary(..) => None,
    }
}
