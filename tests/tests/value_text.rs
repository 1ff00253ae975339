//! `Type::value_text` writes a value "as the spec writes it", and
//! `encode_literal` reads what the spec writes: for every type of the seed
//! ISA, every value the text of which is printed must read back as itself
//! (enum encodings and register numbers exhaustively, numbers at their
//! edges and at random).

use isa_dsl::ir::{Isa, Type, TypeKind};
use isa_dsl::resolve::{encode_literal, max_value};
use proptest::prelude::*;

fn seed_isa() -> Isa {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    assert!(!fe.has_errors(), "{}", fe.diagnostics.summary());
    fe.isa
}

fn round_trip(t: &Type, v: u64) -> Result<(), String> {
    let text = t.value_text(v);
    match encode_literal(t, &text) {
        Some(back) if back == v => Ok(()),
        other => Err(format!("type {} ({:?}): {v:#x} prints as `{text}`, which reads back as {other:?}", t.name, t.kind)),
    }
}

#[test]
fn every_enum_value_and_register_reads_back() {
    let isa = seed_isa();
    let mut checked = 0;
    for t in &isa.types {
        match &t.kind {
            TypeKind::Enum { values } => {
                for v in values {
                    round_trip(t, v.encoding).unwrap();
                    checked += 1;
                }
            }
            TypeKind::Register { .. } => {
                for v in 0..=max_value(t.width) {
                    round_trip(t, v).unwrap();
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn numbers_at_their_edges_read_back() {
    let isa = seed_isa();
    let numbers: Vec<&Type> = isa.types.iter().filter(|t| matches!(t.kind, TypeKind::Int { .. } | TypeKind::Float { .. } | TypeKind::ConstMem { .. })).collect();
    assert!(numbers.iter().any(|t| matches!(t.kind, TypeKind::Int { signed: true })), "the seeds have a signed immediate");
    for t in numbers {
        let max = max_value(t.width);
        for v in [0, 1, max >> 1, (max >> 1) + 1, max - 1, max] {
            round_trip(t, v).unwrap();
        }
    }
}

proptest! {
    #[test]
    fn any_number_reads_back(pick in any::<prop::sample::Index>(), raw in any::<u64>()) {
        let isa = seed_isa_once();
        let numbers: Vec<&Type> = isa.types.iter().filter(|t| matches!(t.kind, TypeKind::Int { .. } | TypeKind::Float { .. } | TypeKind::ConstMem { .. })).collect();
        let t = numbers[pick.index(numbers.len())];
        round_trip(t, raw & max_value(t.width)).map_err(TestCaseError::fail)?;
    }
}

fn seed_isa_once() -> &'static Isa {
    static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
    ISA.get_or_init(seed_isa)
}
