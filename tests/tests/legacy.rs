//! The SPA 5.3 front end and `isa-codegen diff`:
//! * the SPA file's IR equals `tests/golden/spa53.ir.yaml`;
//! * `diff spec/legacy/ spec/` equals `tests/golden/diff_legacy_spec.txt`;
//! * a spec diffed against itself has no differences;
//! * two versions of a small spec differ by a default (shown as the spec
//!   writes it), a moved field and changed prose.
//!
//! `BLESS=1` rewrites the golden files.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn golden(name: &str, actual: &str) {
    let path = root().join("tests/golden").join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(want == actual, "{name} differs (BLESS=1 to accept):\n{actual}");
}

fn load(p: &str) -> isa_dsl::Frontend {
    std::env::set_current_dir(root()).unwrap();
    let fe = isa_dsl::load(&[PathBuf::from(p)]);
    assert!(!fe.has_errors(), "{}", fe.render_diagnostics());
    fe
}

#[test]
fn spa_file_parses_into_the_ir() {
    let fe = load("spec/legacy/");
    let isa = &fe.isa;
    assert!(isa.optypes.is_empty());
    let names: Vec<&str> = isa.legacy.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["HMUL2", "HMUL2_32I"]);
    assert_eq!(isa.legacy[0].syntax.len(), 3);
    assert!(isa.legacy.iter().all(|o| o.opcodes.is_empty()), "SPA 5.3 has no encodings");
    let fmz = isa.legacy[0].value_lists.iter().find(|l| l.name == "fmz").unwrap();
    assert!(fmz.items[0].is_default && fmz.items[0].spelling.is_empty(), "< NULL >* is the default");
    // No format warnings; the one bad example is reported precisely.
    let codes: Vec<&str> = fe.diagnostics.items.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["W014"], "{}", fe.render_diagnostics());
    assert!(fe.diagnostics.items[0].message.contains("`.H0_H1` is not a value of .iswz"));
    golden("spa53.ir.yaml", &isa_codegen::dump::dump(isa, isa_codegen::dump::Format::Yaml).unwrap());
}

#[test]
fn diff_legacy_against_dsl() {
    let old = load("spec/legacy/");
    let new = load("spec/");
    let d = isa_codegen::diff::diff(&old.isa, &new.isa);
    assert_eq!(d.only_old, ["HMUL2_32I"]);
    let hmul2 = d.changed.iter().find(|c| c.name == "HMUL2").unwrap();
    let only_old: Vec<&String> = hmul2.modifiers.iter().flat_map(|m| &m.only_old).collect();
    let only_new: Vec<&String> = hmul2.modifiers.iter().flat_map(|m| &m.only_new).collect();
    for v in [".FMZ", ".MRG_H0", ".MRG_H1", ".F32"] {
        assert!(only_old.iter().any(|x| *x == v), "{v} only in SPA 5.3");
    }
    assert!(only_new.iter().any(|x| *x == ".BF16_V2"));
    let iswz = hmul2.modifiers.iter().find(|m| m.old.as_deref() == Some(".iswz")).unwrap();
    assert_eq!((iswz.new.as_deref(), iswz.only_old.as_slice()), (Some(".hsel2"), &[".F32".to_string()][..]));
    golden("diff_legacy_spec.txt", &isa_codegen::diff::to_text(&d, "spec/legacy/", "spec/"));
    let yaml = serde_yaml::to_string(&d).unwrap();
    assert!(yaml.contains("HMUL2_32I"));
}

#[test]
fn a_spec_has_no_differences_with_itself() {
    let a = load("spec/");
    let b = load("spec/");
    let d = isa_codegen::diff::diff(&a.isa, &b.isa);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(isa_codegen::diff::to_text(&d, "a", "b"), "no differences between a and b\n");
}

#[test]
fn diff_shows_a_moved_field() {
    let base = || isa_dsl::collect_spec_files(&[PathBuf::from("spec/base")], &mut Default::default());
    std::env::set_current_dir(root()).unwrap();
    let mut old_paths = base();
    old_paths.push("tests/diff/old.txt".into());
    let mut new_paths = base();
    new_paths.push("tests/diff/new.txt".into());
    let (a, b) = (isa_dsl::load(&old_paths), isa_dsl::load(&new_paths));
    let d = isa_codegen::diff::diff(&a.isa, &b.isa);
    golden("diff_moved_field.txt", &isa_codegen::diff::to_text(&d, "tests/diff/old.txt", "tests/diff/new.txt"));
    // Each edit between the two files, and nothing else.
    assert_eq!(d.types, ["type `XMode`: value `B` 0x1 -> 0x2", "type `XMode`: value `C` 0x2 -> 0x1"]);
    let mov = &d.changed[0];
    assert_eq!(mov.encodings.iter().map(ToString::to_string).collect::<Vec<_>>(), ["MOV_R: field `pg` = PT -> = P0", "MOV_R: field `ra` moved from [31:24] to [39:32]"]);
    assert_eq!(mov.rules.len(), 2);
    assert!(mov.rules[0].starts_with("- ") && mov.rules[0].contains("\"C is reserved.\"> = mode == \"C\""), "{:?}", mov.rules);
    assert!(mov.rules[1].starts_with("+ ") && mov.rules[1].contains("\"B is reserved.\"> = mode == \"B\""), "{:?}", mov.rules);
    assert_eq!(mov.examples, ["- MOV.B R1, R2 ;", "+ MOV.B R1, R3 ;"]);
    assert_eq!(mov.simulation, Some(("vd = mov(va: I32);".to_string(), "vd = mov(va: U32);".to_string())));
    assert_eq!(mov.prose_changed, ["description, line 1: `Copies Ra to Rd.` -> `Copies Ra into Rd.`"]);
    assert!(mov.syntax.is_empty() && mov.modifiers.is_empty());
    // `--format yaml`: an encoding change is data (opcode, field, kind, both sides), not a sentence.
    let yaml: serde_yaml::Value = serde_yaml::from_str(&serde_yaml::to_string(&d).unwrap()).unwrap();
    let moved = &yaml["changed"][0]["encodings"][1];
    assert_eq!((moved["opcode"].as_str(), moved["field"].as_str(), moved["change"].as_str()), (Some("MOV_R"), Some("ra"), Some("moved")));
    assert_eq!((moved["old"].as_str(), moved["new"].as_str()), (Some("[31:24]"), Some("[39:32]")));
    assert_eq!(yaml["changed"][0]["encodings"][0]["change"].as_str(), Some("value"));
}

/// An opcode renamed, its constant bits kept, is a rename, not a removal
/// and an addition; an added instruction shows its syntax.
#[test]
fn diff_tells_a_rename_and_shows_what_is_added() {
    std::env::set_current_dir(root()).unwrap();
    let dir = std::env::temp_dir().join(format!("isa-diff-rename-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = std::fs::read_to_string("tests/diff/old.txt").unwrap();
    let renamed = old.replace("__DefOpcode MOV_R :", "__DefOpcode MOV_RR :");
    let added = format!("{old}\n__DefOptype SEL : [XALU]\n  __Encoding\n    field<0, 8> Optype optype == SEL;\n  __Syntax\n```asm\nSEL Rd, Ra      $sched $req ;\n```\n\n__DefOpcode SEL_R : [SEL]\n  __Encoding\n    field<8, 4> SType stype == R;\n  __OperandInfo\n    Order<pg, rd, ra>;\n");
    let load = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let mut paths = isa_dsl::collect_spec_files(&[PathBuf::from("spec/base")], &mut Default::default());
        paths.push(p);
        let fe = isa_dsl::load(&paths);
        assert!(!fe.has_errors(), "{name}");
        fe
    };
    let (a, b, c) = (load("old.txt", &old), load("renamed.txt", &renamed), load("added.txt", &added));
    let d = isa_codegen::diff::diff(&a.isa, &b.isa);
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].encodings.iter().map(ToString::to_string).collect::<Vec<_>>(), ["opcode MOV_R renamed MOV_RR (same constant bits)"]);
    let d = isa_codegen::diff::diff(&a.isa, &c.isa);
    assert_eq!(d.only_new, ["SEL"]);
    assert_eq!(d.only_new_syntax, ["SEL: SEL Rd, Ra $sched $req ;"]);
    std::fs::remove_dir_all(&dir).ok();
}


/// An SPA example's operands are told apart by the spec's register types:
/// `P1` is a predicate (a `Pu` operand takes it), `R1` is not; nothing
/// about `R` or `P` is known in the front end.
#[test]
fn spa_examples_read_operands_by_the_spec_s_register_types() {
    let base: Vec<(String, String)> = ["isa", "operands", "enums", "formats"]
        .iter()
        .map(|f| {
            let path = root().join(format!("spec/base/{f}.txt"));
            (path.display().to_string(), std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    let spa = "SPA 5.3:\n{@{!}Pg}\nPSETX\nPu, Ra\n{?sched}\n;\nSets a predicate.\nPSETX P1, R2;\nPSETX R1, R2;\nPSETX PT, URZ;\n";
    let files = base.iter().map(|(n, t)| (n.as_str(), t.as_str())).chain([("psetx.txt", spa)]);
    let fe = isa_dsl::compile_texts(files);
    let bad: Vec<String> = fe.diagnostics.items.iter().filter(|d| d.code == isa_dsl::Code::BadExample).map(|d| d.message.clone()).collect();
    assert_eq!(bad, ["example does not match the SPA forms: `R1` where the form has `Pu`"], "{}", fe.render_diagnostics());
}
