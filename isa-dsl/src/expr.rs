//! Expressions of `__Exception` rules and `Bitwidth` directives:
//! `(hfmt_v2=="BF16_V2") and (ftz=="FTZ" or sat=="SAT")`,
//! `32 + (width=="64")*32`. Owns their tree, their static types and their
//! evaluation against field values (the interpreted encoder and decoder and
//! the generated code all agree with [`Expr::eval`]).

use crate::source::Span;
use serde::{Deserialize, Serialize};

/// Binary operators, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinOp {
    /// `or` / `||`.
    Or,
    /// `and` / `&&`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `+` (wrapping).
    Add,
    /// `-` (wrapping).
    Sub,
    /// `*` (wrapping).
    Mul,
}

impl BinOp {
    /// The operator as [`Expr::to_text`] writes it (`or`, `==`).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
        }
    }

    /// How tightly it binds, as the grammar reads it: or < and < (== !=) < (+ -) < *.
    fn level(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul => 5,
        }
    }
}

/// An expression node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExprKind {
    /// A number (one too large for `i64` reads as `i64::MAX`).
    Int(i64),
    /// A string literal: the name of an enum value (`"BF16_V2"`).
    Str(String),
    /// `true` or `false`.
    Bool(bool),
    /// A field (`hfmt_v2`, `rb.vsel`).
    Field(String),
    /// `not x` / `!x`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr {
    /// What the node is.
    #[serde(flatten)]
    pub kind: ExprKind,
    /// Where it is written (`None` for one read back from serialised IR).
    #[serde(skip)]
    pub span: Option<Span>,
}

/// Static type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExprType {
    /// A truth value: `true`, `false`, a comparison, `and`, `or` or `not`.
    Bool,
    /// A number: an integer literal or arithmetic.
    Int,
    /// A field value or a string naming one.
    Value,
}

/// A runtime value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A number.
    Int(i64),
    /// A truth value (1 or 0 in arithmetic).
    Bool(bool),
    /// An enum value, by name.
    Name(&'a str),
}

impl Expr {
    /// A node of kind `kind`, written at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span: Some(span) }
    }

    /// Every field the expression reads, in order of appearance.
    pub fn fields(&self) -> Vec<(&str, Option<Span>)> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let ExprKind::Field(f) = &e.kind {
                out.push((f.as_str(), e.span));
            }
        });
        out
    }

    /// Every `field == "VALUE"` / `field != "VALUE"` comparison (field, value, value span).
    pub fn comparisons(&self) -> Vec<(&str, &str, Option<Span>)> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let ExprKind::Binary(BinOp::Eq | BinOp::Ne, a, b) = &e.kind {
                match (&a.kind, &b.kind) {
                    (ExprKind::Field(f), ExprKind::Str(s)) => out.push((f.as_str(), s.as_str(), b.span)),
                    (ExprKind::Str(s), ExprKind::Field(f)) => out.push((f.as_str(), s.as_str(), a.span)),
                    _ => {}
                }
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Not(e) => e.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            _ => {}
        }
    }

    /// Evaluates with `lookup` giving each field's value. Booleans used in
    /// arithmetic count as 0/1 (as in C); comparisons of a field with a string
    /// compare value names.
    pub fn eval<'a>(&'a self, lookup: &dyn Fn(&str) -> Option<Value<'a>>) -> Option<Value<'a>> {
        Some(match &self.kind {
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Str(s) => Value::Name(s),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Field(f) => lookup(f)?,
            ExprKind::Not(e) => Value::Bool(!truthy(&e.eval(lookup)?)),
            ExprKind::Binary(op, a, b) => {
                let x = a.eval(lookup)?;
                match op {
                    BinOp::Or => Value::Bool(truthy(&x) || truthy(&b.eval(lookup)?)),
                    BinOp::And => Value::Bool(truthy(&x) && truthy(&b.eval(lookup)?)),
                    BinOp::Eq => Value::Bool(x == b.eval(lookup)?),
                    BinOp::Ne => Value::Bool(x != b.eval(lookup)?),
                    BinOp::Add | BinOp::Sub | BinOp::Mul => {
                        let (x, y) = (as_int(&x)?, as_int(&b.eval(lookup)?)?);
                        Value::Int(match op {
                            BinOp::Add => x.wrapping_add(y),
                            BinOp::Sub => x.wrapping_sub(y),
                            _ => x.wrapping_mul(y),
                        })
                    }
                }
            }
        })
    }

    /// Renders the expression back to DSL text, parenthesised where the
    /// grammar's precedence needs it, and around an `and` inside an `or`
    /// (for the reader); chains of one operator are flat (`a or b or c`).
    pub fn to_text(&self) -> String {
        match &self.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Str(s) => format!("\"{s}\""),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Field(f) => f.clone(),
            ExprKind::Not(e) => format!("not {}", e.to_text_atom()),
            ExprKind::Binary(op, a, b) => {
                let side = |e: &Expr, right: bool| match &e.kind {
                    ExprKind::Binary(inner, ..) => {
                        let tighter = inner.level() > op.level();
                        let same_chain = inner == op && matches!(op, BinOp::Or | BinOp::And | BinOp::Add | BinOp::Mul);
                        // Left-assoc: `a - b - c` is `(a - b) - c`, so a same-level left side reads bare.
                        let left_same_level = !right && inner.level() == op.level() && !matches!(op, BinOp::Eq | BinOp::Ne);
                        let and_in_or = *inner == BinOp::And && *op == BinOp::Or;
                        if (tighter && !and_in_or) || same_chain || left_same_level { e.to_text() } else { format!("({})", e.to_text()) }
                    }
                    // The grammar reads `not a == b` as `not (a == b)`.
                    ExprKind::Not(_) => format!("({})", e.to_text()),
                    _ => e.to_text_atom(),
                };
                format!("{} {} {}", side(a, false), op.symbol(), side(b, true))
            }
        }
    }

    fn to_text_atom(&self) -> String {
        match &self.kind {
            ExprKind::Binary(..) => format!("({})", self.to_text()),
            _ => self.to_text(),
        }
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Name(_) => true,
    }
}

fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        Value::Name(n) => n.parse().ok(),
    }
}
