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
//! `tests/golden/spec_rules.txt` (`tools/spec_rules.py`, the same way) adds
//! each opcode's default word and the verdict of its `__Exception` rules on
//! random words, the rules rewritten into Python and evaluated there: the
//! generated and interpreted decoders must give the same verdicts, as both
//! lower the rules through the compiler's one `plan::lower`.
//!
//! After a spec change: `python3 tools/spec_fields.py spec/ > tests/golden/spec_fields.txt`
//! and `python3 tools/spec_rules.py spec/ > tests/golden/spec_rules.txt`.

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

/// `tests/golden/spec_rules.txt`, written by `tools/spec_rules.py` from the
/// spec text: each opcode's default word, and words with the message of the
/// `__Exception` rule each breaks (`None`: it breaks none).
/// After a spec change: `python3 tools/spec_rules.py spec/ > tests/golden/spec_rules.txt`.
#[allow(clippy::type_complexity)]
fn rules_oracle() -> (Vec<(String, u128, Option<String>)>, Vec<(String, u128, Option<String>)>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/spec_rules.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut defaults, mut words) = (Vec::new(), Vec::new());
    let hex = |s: &str| u128::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("word {s:?}"));
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if line.starts_with("enum ") {
            continue;
        }
        let mut parts = line.splitn(4, ' ');
        let (kind, op, w, verdict) = (parts.next(), parts.next(), parts.next(), parts.next());
        let verdict = match verdict {
            Some("ok") => None,
            Some(m) if m.len() > 1 && m.starts_with('"') && m.ends_with('"') => Some(m[1..m.len() - 1].to_string()),
            _ => panic!("bad verdict in {line:?}"),
        };
        match (kind, op, w) {
            (Some("default"), Some(op), Some(w)) => defaults.push((op.to_string(), hex(w), verdict)),
            (Some("word"), Some(op), Some(w)) => words.push((op.to_string(), hex(w), verdict)),
            _ => panic!("bad line {line:?}"),
        }
    }
    (defaults, words)
}

/// Every `__DefBitFieldType` value has the spec text's encoding in the IR
/// (what every modifier spelling and enum default becomes), and the IR has
/// no other values.
#[test]
fn every_enum_value_has_the_spec_text_s_encoding() {
    let isa = isa_tests::spec_isa();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/spec_rules.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut want: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("enum ")) {
        let [ty, name, n] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("bad line {line:?}") };
        want.entry(ty.to_string()).or_default().push((name.to_string(), n.parse().unwrap()));
    }
    assert!(want.len() >= 30 && want.values().map(Vec::len).sum::<usize>() > 150, "{} enums", want.len());
    for (ty, values) in &want {
        let t = isa.types.iter().find(|t| t.name == *ty).unwrap_or_else(|| panic!("{ty} is not in the IR"));
        let isa_dsl::ir::TypeKind::Enum { values: got } = &t.kind else { panic!("{ty} is not an enum in the IR") };
        let mut got: Vec<(String, u64)> = got.iter().map(|v| (v.name.clone(), v.encoding)).collect();
        let mut values = values.clone();
        got.sort();
        values.sort();
        assert_eq!(got, values, "{ty}");
    }
    let ir_enums = isa.types.iter().filter(|t| t.is_enum()).count();
    assert_eq!(ir_enums, want.len(), "the IR's enums are the spec text's");
}

/// Every opcode's default word (constants, defaults by number, enum value
/// or register constant such as `PT`; 0 for fields with neither) is the
/// spec text's: in the IR and in the generated crate.
#[test]
fn every_default_word_is_the_spec_text_s() {
    let isa = isa_tests::spec_isa();
    let (defaults, _) = rules_oracle();
    assert_eq!(defaults.len(), 184, "the seeds' opcodes");
    for (name, want, verdict) in &defaults {
        let op = isa.opcodes.iter().find(|o| o.name == *name).unwrap_or_else(|| panic!("{name} is not in the IR"));
        let ir = op.fields.iter().fold(0u128, |w, f| w | (f.default_value().unwrap_or(0) as u128 & ((1u128 << f.width) - 1)) << f.start);
        assert_eq!(ir, *want, "{name}: the IR's default word");
        // The generated `DEFAULT` of every opcode: that word, or where it
        // breaks a rule, the same but in fields without a default (set so
        // that it keeps the rules).
        let k = isa_generated::OPCODE_NAMES.iter().position(|n| n == name).unwrap_or_else(|| panic!("{name} is not generated"));
        let default = isa_generated::Instruction::DEFAULTS[k];
        if verdict.is_none() {
            assert_eq!(default.to_word(), *want, "{name}: the generated DEFAULT");
        } else {
            let given = op.fields.iter().filter(|f| f.default_value().is_some()).fold(0u128, |m, f| m | f.mask());
            assert_eq!(default.to_word() & given, *want & given, "{name}: the generated DEFAULT's defaults");
            assert!(isa_generated::Instruction::decode(default.to_word()).is_ok(), "{name}: the generated DEFAULT keeps the rules");
        }
        // The generated crate: the word decodes as the opcode (or breaks the
        // rule the spec text says it breaks).
        match (isa_generated::Instruction::decode(*want), verdict) {
            (Ok(i), None) => {
                assert_eq!(isa_generated::OPCODE_NAMES[i.index()], name.as_str());
                assert_eq!(i.to_word(), *want, "{name}");
            }
            (Err(e), Some(m)) => assert_eq!(e.to_string(), format!("{name}: {m}")),
            (got, _) => panic!("{name}: the spec text says {verdict:?}, the generated decoder {got:?}"),
        }
    }
    assert!(defaults.iter().filter(|d| d.2.is_some()).count() < 10, "most defaults break no rule");
    assert_eq!(isa_generated::FFMA_RRR::DEFAULT.to_word(), defaults.iter().find(|d| d.0 == "FFMA_RRR").unwrap().1);
}

/// Every `__Exception` rule gives the spec text's verdict, rewritten into
/// Python and evaluated there, on random words of every opcode with rules:
/// the generated and the interpreted decoder accept exactly the words that
/// break no rule, and name the first rule broken.
#[test]
fn every_exception_verdict_is_the_spec_text_s() {
    let isa = isa_tests::spec_isa();
    let codec = isa_codegen::interp::Codec::new(&isa);
    let (_, words) = rules_oracle();
    let (ok, broken) = (words.iter().filter(|w| w.2.is_none()).count(), words.iter().filter(|w| w.2.is_some()).count());
    assert!(ok > 500 && broken > 500, "both verdicts are well represented: {ok} ok, {broken} broken");
    let families: std::collections::BTreeSet<&str> = words.iter().filter_map(|w| w.2.as_deref()).collect();
    assert!(families.len() >= 8, "every family of the seeds' rules is broken at least once: {families:?}");
    let mut bad = Vec::new();
    for (name, w, verdict) in &words {
        let want = verdict.as_ref().map(|m| format!("{name}: {m}"));
        let generated = isa_generated::Instruction::decode(*w).map(|i| isa_generated::OPCODE_NAMES[i.index()].to_string()).map_err(|e| e.to_string());
        let interpreted = codec.decode(*w).map(|r| isa.opcodes[r.opcode].name.to_string()).map_err(|e| e.to_string());
        for (path, got) in [("generated", &generated), ("interpreted", &interpreted)] {
            let right = match (&want, got) {
                (None, Ok(op)) => op == name,
                (Some(m), Err(e)) => e == m,
                _ => false,
            };
            if !right {
                bad.push(format!("{name} {w:#034x}: spec text says {want:?}, {path} decoder {got:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} of {} verdicts differ:\n{}", bad.len(), 2 * words.len(), bad.join("\n"));
}

/// The words the assembler gives the seeds' good examples
/// (`golden/examples.txt`, blessed from our own output) read back, by
/// `tools/example_words.py`'s decoder of the spec text alone, as what each
/// line says: the opcode of its mnemonic, its modifiers, its registers with
/// their `!`/`-`/`|..|`/`~` and its guard (`golden/example_words.txt`). A
/// re-blessed `examples.txt` fails here until the script is run again:
/// `python3 tools/example_words.py spec/ tests/golden/examples.txt > tests/golden/example_words.txt`.
#[test]
fn the_examples_words_say_what_their_lines_say() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let examples = std::fs::read_to_string(root.join("examples.txt")).unwrap();
    let read_back = std::fs::read_to_string(root.join("example_words.txt")).unwrap();
    let verdicts: BTreeMap<&str, (&str, &str)> = read_back
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let [at, word, verdict] = l.splitn(3, ' ').collect::<Vec<_>>()[..] else { panic!("bad line {l:?}") };
            (at, (word, verdict))
        })
        .collect();
    let mut n = 0;
    for line in examples.lines().filter(|l| !l.starts_with('#')) {
        let [at, status, rest] = line.splitn(3, ' ').collect::<Vec<_>>()[..] else { panic!("bad line {line:?}") };
        if status != "ok" {
            continue;
        }
        let word = rest.split(' ').next().unwrap();
        let (their_word, verdict) = verdicts.get(at).unwrap_or_else(|| panic!("{at}: not read back; run tools/example_words.py"));
        assert_eq!(their_word, &word, "{at}: examples.txt changed; run tools/example_words.py");
        assert_eq!(*verdict, "consistent", "{at} {word}: {line}");
        n += 1;
    }
    assert_eq!(n, 74, "the good examples");
    assert_eq!(verdicts.len(), n, "example_words.txt reads back only the good examples");
}
