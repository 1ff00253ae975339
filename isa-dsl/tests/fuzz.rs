//! Fuzzing the front end with proptest: whatever the input (random bytes,
//! random DSL tokens, mutated seed files, pathological nesting, huge files),
//! `compile` returns diagnostics and rendering them works; nothing panics.
//! `PROPTEST_CASES=20000 cargo test -p isa-dsl --release --test fuzz` for a long run.

use proptest::prelude::*;

fn seed_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut s = String::new();
        for f in ["base/isa.txt", "base/operands.txt", "base/enums.txt", "000_halu.txt", "004_ialu.txt"] {
            s.push_str(&std::fs::read_to_string(root.join(f)).unwrap());
        }
        s
    })
}

fn run(name: &str, bytes: &[u8]) -> isa_dsl::Frontend {
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    isa_dsl::add_source(&mut sources, name, bytes, &mut diags);
    let fe = isa_dsl::compile(sources, diags);
    let _ = fe.render_diagnostics();
    let _ = fe.diagnostics.summary();
    fe
}

/// The seed files with random damage: lines removed, duplicated, swapped,
/// truncated, or with bytes and brackets inserted.
fn mutated_seeds() -> impl Strategy<Value = Vec<u8>> {
    let n = seed_text().lines().count();
    proptest::collection::vec((0..n, 0usize..6, any::<u8>(), 0usize..200), 1..60).prop_map(|edits| {
        let mut out: Vec<Vec<u8>> = seed_text().lines().map(|l| l.as_bytes().to_vec()).collect();
        for (i, kind, byte, at) in edits {
            if out.is_empty() {
                break;
            }
            let i = i % out.len();
            match kind {
                0 => {
                    out.remove(i);
                }
                1 => {
                    let l = out[i].clone();
                    out.insert(i, l);
                }
                2 => {
                    let at = at.min(out[i].len());
                    out[i].insert(at, byte);
                }
                3 => {
                    let len = out[i].len();
                    if len > 0 {
                        out[i].truncate(at % len);
                    }
                }
                4 => {
                    let j = (i + at) % out.len();
                    out.swap(i, j);
                }
                _ => {
                    let at = at.min(out[i].len());
                    let ins: Vec<u8> = b"{(<[\"`".iter().copied().take((byte % 6) as usize + 1).collect();
                    out[i].splice(at..at, ins);
                }
            }
        }
        out.join(&b'\n')
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        run("random.txt", &bytes);
    }

    /// Random text (any characters, controls included) after a declaration,
    /// so the file is read as DSL and reaches the parser: random bytes are
    /// rarely UTF-8, and a file without a `__Def` line is skipped unread.
    #[test]
    fn random_text_in_a_declaration_never_panics(chars in proptest::collection::vec(any::<char>(), 0..600)) {
        let text = format!("__DefGroup G : [ALL]\n  __Encoding\n{}", chars.into_iter().collect::<String>());
        let fe = run("text.txt", text.as_bytes());
        prop_assert!(
            !fe.diagnostics.items.iter().any(|d| d.code == isa_dsl::Code::LegacySkipped),
            "the file was skipped, not parsed"
        );
    }

    #[test]
    fn random_dsl_tokens_never_panic(words in proptest::collection::vec(
        prop_oneof![
            Just("__DefGroup "), Just("__DefOptype "), Just("__DefOpcode "), Just("__DefBitFieldType "),
            Just("__DefOperandType "), Just("__DefIsa "), Just("__Encoding"), Just("__Syntax"), Just("__OperandInfo"),
            Just("__Exception"), Just("__Examples"), Just("__Simulation"), Just("field<"), Just(">"), Just(","),
            Just("="), Just("=="), Just(";"), Just("\n"), Just("```"), Just("{"), Just("}"), Just("["), Just("]"),
            Just("("), Just(")"), Just("."), Just("ALL"), Just("X"), Just("Reg"), Just("rd"), Just("12"),
            Just("0x1"), Just("InList<"), Just("Order<"), Just("Bitwidth<"), Just("EncodingError<"), Just("\""),
            Just(" "), Just("//"), Just(":"), Just("$sched"), Just("-"), Just("|"), Just("!"), Just("中文"),
            Just("\r"), Just("\t"), Just("[ALL]"), Just(": Register"), Just("Prefix = \"R\";"),
        ], 0..300)) {
        run("tokens.txt", words.concat().as_bytes());
    }

    #[test]
    fn random_spa_text_never_panics(words in proptest::collection::vec(
        prop_oneof![
            Just("{@{!}Pg}\n"), Just("HMUL2{.ofmt}{.fmz}\n"), Just("Rd, {-}{|}Ra{|}{.iswz},"), Just(" c[#B][#A]"),
            Just("{&req_6}\n"), Just("{?sched}\n"), Just(";\n"), Just(".fmz: { < NULL >*, .FTZ }\n"), Just("{{-}{|}#Imm{|}}, "),
            Just("HMUL2 R1, R2, R3;\n"), Just("{"), Just("}"), Just("["), Just("]"), Just("."), Just(","), Just("\n"), Just("中文"),
        ], 0..200)) {
        run("spa.txt", format!("SPA 5.3:\n{}", words.concat()).as_bytes());
    }

    #[test]
    fn mutated_seeds_never_panic(bytes in mutated_seeds()) {
        run("mutated.txt", &bytes);
    }
}

#[test]
fn deep_nesting_is_reported_not_overflowed() {
    let mut s = String::from("__DefGroup G : [ALL]\n  __Exception\n    EncodingError<K, \"m\"> = ");
    s.push_str(&"(".repeat(100_000));
    s.push('x');
    s.push_str(&")".repeat(100_000));
    s.push_str(";\n    EncodingError<K, \"m\"> = ");
    s.push_str(&"!".repeat(100_000));
    s.push_str("x;\n    EncodingError<K, \"m\"> = ");
    s.push_str(&"not (".repeat(20_000));
    s.push('x');
    s.push_str(&")".repeat(20_000));
    s.push_str(";\n  __OperandInfo\n    Bitwidth<x> = ");
    s.push_str(&"(".repeat(50_000));
    s.push_str("\n  __Syntax\n```\nA");
    s.push_str(&"{".repeat(50_000));
    s.push_str("\n```\n");
    let fe = isa_dsl::compile_texts([("deep.txt", s.as_str())]);
    let deep = fe.diagnostics.items.iter().filter(|d| d.code == isa_dsl::Code::TooDeep).count();
    assert_eq!(deep, 5, "{}", fe.render_diagnostics());
}

#[test]
fn huge_input_is_handled() {
    // About 6 MB: the seeds many times over (duplicate definitions galore).
    let big = seed_text().repeat(40);
    let fe = isa_dsl::compile_texts([("big.txt", big.as_str())]);
    assert!(fe.has_errors());
    assert!(fe.diagnostics.items.iter().any(|d| d.code == isa_dsl::Code::DuplicateDefinition));
}

#[test]
fn binary_garbage_is_reported() {
    let bytes: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    isa_dsl::add_source(&mut sources, "garbage.bin", &bytes, &mut diags);
    let fe = isa_dsl::compile(sources, diags);
    assert!(fe.diagnostics.items.iter().any(|d| d.code == isa_dsl::Code::InvalidUtf8));
    let _ = fe.render_diagnostics();
}
