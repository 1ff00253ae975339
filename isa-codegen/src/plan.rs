//! Encoding plan: what both the interpreted codec (`interp.rs`) and the
//! generated Rust (`gen_rust.rs`) need, computed once from the IR so the two
//! cannot drift apart:
//! * the decode dispatch: a key made of instruction bits every opcode fixes
//!   (for this ISA the 8-bit optype and 4-bit stype), a table from key to
//!   opcode, and candidate lists when several opcodes share a key;
//! * each opcode's exception rules lowered to raw field bits ([`RawExpr`]).

use isa_dsl::expr::{BinOp, Expr, ExprKind};
use isa_dsl::ir::{Field, Isa, Opcode, TypeKind};

/// Largest dispatch key, in bits (a 64 Ki-entry table).
pub const MAX_KEY_BITS: u32 = 16;

/// A run of contiguous instruction bits that forms part of the dispatch key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRun {
    /// First instruction bit of the run.
    pub start: u32,
    pub width: u32,
    /// Position of the run inside the key.
    pub shift: u32,
}

/// What a dispatch-table slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    Empty,
    One(usize),
    /// Index into [`DecodePlan::candidates`].
    Many(usize),
}

/// The decode dispatch of an ISA.
#[derive(Clone, Debug)]
pub struct DecodePlan {
    pub key_runs: Vec<KeyRun>,
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
    Const(i64),
    /// A field's raw bits.
    Field { start: u32, width: u32 },
    Not(Box<RawExpr>),
    Binary(BinOp, Box<RawExpr>, Box<RawExpr>),
}

impl RawExpr {
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
pub fn literal(isa: &Isa, field: &Field, text: &str) -> Option<u64> {
    isa_dsl::resolve::encode_literal(&isa.types[field.ty], text)
}

/// An exception rule ready to evaluate.
#[derive(Clone, Debug)]
pub struct RawException {
    pub kind: String,
    pub message: String,
    pub condition: RawExpr,
}

/// The exception rules of an opcode that lower cleanly (the others were
/// reported by the front end as errors, so a checked IR has none).
pub fn exceptions(isa: &Isa, op: &Opcode) -> Vec<RawException> {
    op.exceptions
        .iter()
        .filter_map(|e| {
            Some(RawException { kind: e.kind.clone(), message: e.message.clone(), condition: lower(isa, op, &e.condition)? })
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
