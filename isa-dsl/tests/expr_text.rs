//! `Expr::to_text` (what the manual prints for an exception rule) reads back
//! through the real grammar as the same rule: random expressions over three
//! integer fields, booleans, and comparisons of enum fields (one of them a
//! dotted sub-field, `f1.sel`) with quoted value names, as the seeds' rules
//! write them (`rb.vsel=="S0"`), are printed, compiled as `__Exception`
//! rules of a small spec, and the rule the front end reads evaluates as the
//! original on every field assignment.

use isa_dsl::expr::{BinOp, Expr, ExprKind, Value};
use proptest::prelude::*;

const OPS: [BinOp; 7] = [BinOp::Or, BinOp::And, BinOp::Eq, BinOp::Ne, BinOp::Add, BinOp::Sub, BinOp::Mul];

/// The enum fields and their type's values.
const ENUMS: [&str; 2] = ["g", "f1.sel"];
const NAMES: [&str; 4] = ["A", "B", "C", "D"];

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: None }
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        4 => (0i64..4).prop_map(|i| e(ExprKind::Int(i))),
        4 => (0usize..3).prop_map(|k| e(ExprKind::Field(format!("f{k}")))),
        1 => any::<bool>().prop_map(|b| e(ExprKind::Bool(b))),
        // `g == "B"`, `f1.sel != "D"`: an enum field against a value's name.
        3 => (0usize..2, any::<bool>(), 0usize..4).prop_map(|(f, eq, v)| e(ExprKind::Binary(
            if eq { BinOp::Eq } else { BinOp::Ne },
            Box::new(e(ExprKind::Field(ENUMS[f].to_string()))),
            Box::new(e(ExprKind::Str(NAMES[v].to_string()))),
        ))),
    ];
    leaf.prop_recursive(5, 40, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| Expr { kind: ExprKind::Not(Box::new(e)), span: None }),
            (0usize..OPS.len(), inner.clone(), inner).prop_map(|(k, a, b)| Expr { kind: ExprKind::Binary(OPS[k], Box::new(a), Box::new(b)), span: None }),
        ]
    })
}

/// `v`: f0, f1, f2, then the enum fields' values (indices into `NAMES`).
fn eval(e: &Expr, v: [i64; 5]) -> Option<i64> {
    let lookup = |name: &str| match ENUMS.iter().position(|f| *f == name) {
        Some(k) => Some(Value::Name(NAMES[v[3 + k] as usize])),
        None => name.strip_prefix('f').and_then(|k| k.parse::<usize>().ok()).map(|k| Value::Int(v[k])),
    };
    match e.eval(&lookup)? {
        Value::Int(i) => Some(i),
        Value::Bool(b) => Some(b as i64),
        Value::Name(_) => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn printed_rules_read_back_as_the_same_rules(rules in proptest::collection::vec(expr(), 1..8)) {
        let mut spec = String::from("__DefBitFieldType TSel<2>\n    A;\n    B;\n    C;\n    D;\n\n__DefGroup XALU : [ALL]\n  __Encoding\n    field<16, 2> UImm8 f0;\n    field<24, 2> UImm8 f1;\n    field<32, 2> UImm8 f2;\n    field<40, 2> TSel g;\n    field<44, 2> TSel f1.sel;\n\n__DefOptype MOV : [XALU]\n  __Encoding\n    field<0, 8> Optype optype == MOV;\n  __Exception\n");
        for (k, r) in rules.iter().enumerate() {
            spec.push_str(&format!("    EncodingError<IllegalBitFieldCombination, \"r{k}\"> = {};\n", r.to_text()));
        }
        spec.push_str("\n__DefOpcode MOV_R : [MOV]\n  __Encoding\n    field<8, 4> SType stype == R;\n  __OperandInfo\n    Order<f0>;\n");
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base");
        let mut files: Vec<(String, String)> = std::fs::read_dir(&base).unwrap().map(|e| e.unwrap().path()).map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap())).collect();
        files.push(("rules.txt".into(), spec.clone()));
        let fe = isa_dsl::compile_texts(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        let op = fe.isa.opcodes.iter().find(|o| o.name == "MOV_R").unwrap_or_else(|| panic!("{spec}\n{:?}", fe.diagnostics));
        for (k, r) in rules.iter().enumerate() {
            let back = &op.exceptions.iter().find(|e| e.message == format!("r{k}")).unwrap_or_else(|| panic!("rule r{k} not read: {}\n{:?}", r.to_text(), fe.diagnostics)).condition;
            for v in (0..1024).map(|x| [x & 3, x >> 2 & 3, x >> 4 & 3, x >> 6 & 3, x >> 8 & 3]) {
                prop_assert_eq!(eval(back, v), eval(r, v), "`{}` read back as `{}` at {:?}", r.to_text(), back.to_text(), v);
            }
        }
    }
}
