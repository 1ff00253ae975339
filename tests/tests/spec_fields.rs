//! Where the bits go, checked against an oracle that shares no code with the
//! compiler: `tests/golden/spec_fields.txt` is written by
//! `tools/spec_fields.py`, which reads the `field<start, width>` lines and
//! the inheritance chains straight from the spec text. Every other codec
//! test compares two paths built from the same IR (generated against
//! interpreted) or round-trips; this one says the IR itself puts each field
//! of each of the 184 opcodes where the spec does, with the constants'
//! values. Through the IR it covers the generated crate: `codec.rs` holds
//! generated and interpreted bit-identical.
//!
//! After a spec change: `python3 tools/spec_fields.py spec/ > tests/golden/spec_fields.txt`.

use std::collections::BTreeMap;

/// Per opcode, its fields as `(name, start, width, constant)`.
type Layouts = BTreeMap<String, Vec<(String, u32, u32, Option<u128>)>>;

fn oracle() -> Layouts {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/spec_fields.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Layouts::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let constant = match parts[4..] {
            [] => None,
            ["=", v] => Some(v.parse().unwrap_or_else(|_| panic!("constant in {line:?}"))),
            _ => panic!("bad line {line:?}"),
        };
        out.entry(parts[0].to_string()).or_default().push((parts[1].to_string(), parts[2].parse().unwrap(), parts[3].parse().unwrap(), constant));
    }
    out
}

#[test]
fn every_field_is_where_the_spec_text_puts_it() {
    let isa = isa_tests::spec_isa();
    let want = oracle();
    let mut got = Layouts::new();
    for op in &isa.opcodes {
        let fields = op
            .fields
            .iter()
            .map(|f| {
                let constant = (op.fixed_mask & f.mask() == f.mask() && f.width > 0).then(|| (op.fixed_bits & f.mask()) >> f.start);
                (f.name.to_string(), f.start, f.width, constant)
            })
            .collect();
        got.insert(op.name.to_string(), fields);
    }
    assert_eq!(got.len(), 184, "the seeds' opcodes");
    let names = |m: &Layouts| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want), "the same opcodes");
    let mut bad = Vec::new();
    for (name, fields) in &want {
        if got[name] != *fields {
            bad.push(format!("{name}:\n  spec text: {fields:?}\n  IR:        {:?}", got[name]));
        }
    }
    assert!(bad.is_empty(), "{} opcode(s) differ:\n{}", bad.len(), bad.join("\n"));
    // The constants are all the fixed bits: nothing else is fixed.
    for op in &isa.opcodes {
        let mask = want[op.name.as_str()].iter().filter(|f| f.3.is_some()).fold(0u128, |m, f| m | ((1u128 << f.2) - 1) << f.1);
        assert_eq!(op.fixed_mask, mask, "{}: fixed bits", op.name);
    }
}
