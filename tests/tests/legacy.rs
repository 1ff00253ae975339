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

/// The SPA 5.3 spec against its DSL successor (`spec/` less its SPA file):
/// instructions meet by name across the notations.
#[test]
fn diff_legacy_against_dsl() {
    let old = load("spec/legacy/");
    let dsl: Vec<PathBuf> = isa_dsl::collect_spec_files(&[PathBuf::from("spec/")], &mut Default::default()).into_iter().filter(|p| !p.starts_with("spec/legacy")).collect();
    let new = isa_dsl::load(&dsl);
    assert!(!new.has_errors() && new.isa.legacy.is_empty(), "{}", new.render_diagnostics());
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
    golden("diff_legacy_spec.txt", &isa_codegen::diff::to_text(&d, "spec/legacy/", "spec/ (DSL files)"));
    let yaml = serde_yaml::to_string(&d).unwrap();
    assert!(yaml.contains("HMUL2_32I"));
    // Against the whole `spec/`, which has the SPA file too: the same name
    // in the same notation pairs first, so OLD's SPA instructions meet NEW's
    // (no difference), and the DSL HMUL2 is new.
    let whole = load("spec/");
    let d = isa_codegen::diff::diff(&old.isa, &whole.isa);
    assert!(d.only_old.is_empty() && d.changed.is_empty(), "{:?} {:?}", d.only_old, d.changed);
    assert!(d.only_new.iter().any(|n| n == "HMUL2") && !d.only_new.iter().any(|n| n.contains("SPA")), "{:?}", d.only_new);
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
    assert_eq!(mov.encodings.iter().map(ToString::to_string).collect::<Vec<_>>(), ["MOV_R: field `pg` = PT -> = P0 (tests/diff/new.txt:9)", "MOV_R: field `ra` moved from [31:24] to [39:32] (tests/diff/new.txt:12)"]);
    let lines = |v: &[isa_codegen::diff::LineChange]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
    let rules = lines(&mov.rules);
    assert_eq!(rules.len(), 2);
    assert!(rules[0].starts_with("- ") && rules[0].contains("\"C is reserved.\"> = mode == \"C\""), "{rules:?}");
    assert!(rules[1].starts_with("+ ") && rules[1].contains("\"B is reserved.\"> = mode == \"B\""), "{rules:?}");
    assert_eq!(lines(&mov.examples), ["- MOV.B R1, R2 ; (tests/diff/old.txt:27)", "+ MOV.B R1, R3 ; (tests/diff/new.txt:27)"]);
    assert!(rules[0].ends_with("(in MOV_R; tests/diff/old.txt:40)") && rules[1].ends_with("(in MOV_R; tests/diff/new.txt:40)"), "{rules:?}");
    assert_eq!(mov.simulation, Some(("vd = mov(va: I32);".to_string(), "vd = mov(va: U32);".to_string())));
    assert_eq!(mov.prose_changed, ["description, line 1: `Copies Ra to Rd.` -> `Copies Ra into Rd.` (tests/diff/new.txt:23)"]);
    assert!(mov.syntax.is_empty() && mov.modifiers.is_empty());
    // `--format yaml`: an encoding change is data (opcode, field, kind, both sides), not a sentence.
    let yaml: serde_yaml::Value = serde_yaml::from_str(&serde_yaml::to_string(&d).unwrap()).unwrap();
    let moved = &yaml["changed"][0]["encodings"][1];
    assert_eq!((moved["opcode"].as_str(), moved["field"].as_str(), moved["change"].as_str()), (Some("MOV_R"), Some("ra"), Some("moved")));
    assert_eq!((moved["old"].as_str(), moved["new"].as_str()), (Some("[31:24]"), Some("[39:32]")));
    assert_eq!(moved["at"].as_str(), Some("tests/diff/new.txt:12"));
    assert_eq!(yaml["changed"][0]["encodings"][0]["change"].as_str(), Some("value"));
    // So is a rule or an example: its side, text, opcodes and place, apart.
    let rule = &yaml["changed"][0]["rules"][1];
    assert_eq!((rule["side"].as_str(), rule["at"].as_str()), (Some("new"), Some("tests/diff/new.txt:40")));
    assert_eq!(rule["text"].as_str(), Some("EncodingError<IllegalBitFieldValue, \"B is reserved.\"> = mode == \"B\""));
    assert_eq!(rule["opcodes"][0].as_str(), Some("MOV_R"));
    let example = &yaml["changed"][0]["examples"][0];
    assert_eq!((example["side"].as_str(), example["text"].as_str(), example["at"].as_str()), (Some("old"), Some("MOV.B R1, R2 ;"), Some("tests/diff/old.txt:27")));
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
    // The field `mode` renamed `kind` (same bits, type and default), its uses with it.
    let field_renamed = old.replace("XMode mode = A;", "XMode kind = A;").replace("MOV.mode Rd", "MOV.kind Rd").replace("mode == \"C\"", "kind == \"C\"");
    let (a, b, c) = (load("old.txt", &old), load("renamed.txt", &renamed), load("added.txt", &added));
    let d = isa_codegen::diff::diff(&a.isa, &load("field_renamed.txt", &field_renamed).isa);
    let text = isa_codegen::diff::to_text(&d, "old", "new");
    // With the file:line of the field on the side that has it.
    let at = |file: &str, line: u32| format!("{}:{line}", dir.join(file).display());
    assert!(text.contains(&format!("    encoding: MOV_R: field `mode` renamed `kind` (same bits [41:40]) ({})\n", at("field_renamed.txt", 13))), "{text}");
    assert!(!text.contains("field `mode` removed") && !text.contains("sets `"), "the rename is said once:\n{text}");
    let d = isa_codegen::diff::diff(&a.isa, &b.isa);
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].encodings.iter().map(ToString::to_string).collect::<Vec<_>>(), [format!("opcode MOV_R renamed MOV_RR (same constant bits) ({})", at("renamed.txt", 32))]);
    // Renamed and a field moved: both said (the move used to be lost).
    let moved = renamed.replace("field<24, 8> Reg ra;", "field<32, 8> Reg ra;");
    let d = isa_codegen::diff::diff(&a.isa, &load("renamed_moved.txt", &moved).isa);
    assert_eq!(
        d.changed[0].encodings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            format!("opcode MOV_R renamed MOV_RR (same constant bits) ({})", at("renamed_moved.txt", 32)),
            format!("MOV_R: field `ra` moved from [31:24] to [39:32] ({})", at("renamed_moved.txt", 12)),
        ]
    );
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
    // A modifier twice, a register with two suffixes, a comma with nothing
    // after it: each was accepted (review 42). The caret is at the text at fault.
    let spa = "SPA 5.3:\n{@{!}Pg}\nPSETX{.SAT}\nPu, Ra{.sel}\n{?sched}\n;\n.sel: { .H0*, .H1 }\nSets a predicate.\nPSETX.SAT.SAT P1, R2;\nPSETX P1, R2.H0.H1;\nPSETX P1, R2, ;\nPSETX P1, R2.H1;\n";
    let files = base.iter().map(|(n, t)| (n.as_str(), t.as_str())).chain([("psetx.txt", spa)]);
    let fe = isa_dsl::compile_texts(files);
    let bad: Vec<(String, String)> = fe
        .diagnostics
        .items
        .iter()
        .filter(|d| d.code == isa_dsl::Code::BadExample)
        .map(|d| (d.message.clone(), d.span.map_or(String::new(), |s| spa[s.start as usize..s.end as usize].to_string())))
        .collect();
    let expect = [
        ("example does not match the SPA forms: modifier `.SAT` is written twice", "SAT"),
        ("example does not match the SPA forms: `R2.H0.H1` has two suffixes; an operand takes one", ".H1"),
        ("example does not match the SPA forms: empty operand after the last comma", "PSETX P1, R2, ;"),
    ];
    assert_eq!(bad, expect.map(|(m, t)| (m.to_string(), t.to_string())), "{}", fe.render_diagnostics());
}

/// Edits that change what lines assemble to, or what the simulator reads,
/// are reported, each where it is (review 38 found all five reported as
/// "no differences"): the SPA 5.3 file beside DSL files, a value list
/// mapped by position and reordered, an `AsmFormat` hook, a
/// `__DefValueFormat`, and a `Bitwidth`; and a type's value dropped is
/// named at the instructions that spelled it.
#[test]
fn diff_reports_edits_that_change_words_or_semantics() {
    let spec = root().join("spec");
    let mut paths = isa_dsl::collect_spec_files(&[spec], &mut Default::default());
    paths.sort();
    let texts: Vec<(String, String)> = paths.iter().map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap())).collect();
    // The spec with `edit` applied to the file whose name ends in `file` (`None`: that file dropped).
    let edited = |file: &str, edit: &dyn Fn(&str) -> Option<String>| {
        let files: Vec<(String, String)> =
            texts.iter().filter_map(|(n, t)| if n.ends_with(file) { edit(t).map(|t| (n.clone(), t)) } else { Some((n.clone(), t.clone())) }).collect();
        let fe = isa_dsl::compile_texts(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        assert!(!fe.has_errors(), "{file}: {}", fe.render_diagnostics());
        fe.isa
    };
    let old = edited("", &|t| Some(t.to_string()));
    let replace = |from: &'static str, to: &'static str| move |t: &str| {
        assert!(t.contains(from), "{from}");
        Some(t.replacen(from, to, 1))
    };
    let report = |new: &isa_dsl::ir::Isa| isa_codegen::diff::to_text(&isa_codegen::diff::diff(&old, new), "old", "new");
    /// A file (by the end of its name), its edit, and lines the report must have.
    type Case<'a> = (&'a str, Box<dyn Fn(&str) -> Option<String>>, &'a [&'a str]);
    let cases: Vec<Case> = vec![
        ("003_hmul2_spa53.txt", Box::new(|_| None), &["instructions only in OLD: HMUL2 (SPA 5.3), HMUL2_32I (SPA 5.3)"]),
        (
            "004_ialu.txt",
            Box::new(replace(".cwmod = {.CLAMP*, .WRAP}", ".cwmod = {.WRAP, .CLAMP*}")),
            &[
                "~ SHF",
                "    modifier - `.CLAMP` sets `cwmod` = C (0x0) (in SHF_RRR,",
                "    modifier + `.CLAMP` sets `cwmod` = W (0x1) (in SHF_RRR,",
                "    modifier - `.WRAP` sets `cwmod` = W (0x1) (in SHF_RRR,",
                "    modifier + `.WRAP` sets `cwmod` = C (0x0) (in SHF_RRR,",
            ],
        ),
        ("000_halu.txt", Box::new(replace("    AsmFormat<vb> = CvtFImm(vb, hfmt_v2);\n", "")), &["~ HADD2", "    operand info - AsmFormat<vb> = CvtFImm(vb, hfmt_v2) (in HADD2_RI)"]),
        // A value dropped from a type that FSETP spells with no value list of its own.
        (
            "enums.txt",
            Box::new(replace("__DefBitFieldType LOPOp<2>\n    AND;\n    OR;\n    XOR;\n", "__DefBitFieldType LOPOp<2>\n    AND;\n    OR;\n")),
            &["type `LOPOp`: value `XOR` only in OLD (0x2)", "~ FSETP", "    modifier - `.XOR` sets `lop` = XOR (0x2) (in FSETP_RR,"],
        ),
        // The guard prefix dropped from `__DefIsa`.
        ("isa.txt", Box::new(replace("    Guard = pg;\n", "")), &["isa: guard pg -> none"]),
        ("seeds.txt", Box::new(replace("    Float BF16 = <8, 7>;", "    Float BF16 = <6, 9>;")), &["type `F2FPSrcType`: value `BF16` 0x2 (Float <8, 7>) -> 0x2 (Float <6, 9>)"]),
        // A default made a constant: a number written once, not `0x0 (0x0)`;
        // one line for every instruction, said before them.
        ("isa.txt", Box::new(replace("WriteSB wsb = 0;", "WriteSB wsb == 0xF;")), &["~ 44 instructions: F2F, F2FP, F2I,", "    encoding: 184 opcodes: field `wsb` = 0x0 -> == 0xf ("]),
        // The same lines in another order: what assembles first, or the manual, changes.
        (
            "000_halu.txt",
            Box::new(|t: &str| {
                // The two lines that start so, swapped whole.
                let mut lines: Vec<&str> = t.split('\n').collect();
                let at = |p: &str| lines.iter().position(|l| l.starts_with(p)).unwrap();
                let (a, b) = (at("HADD2        R0, R1.H0_H0,    R2 ;"), at("HADD2.SAT    R3,       R6,   -R7 ;"));
                lines.swap(a, b);
                Some(lines.join("\n"))
            }),
            &["~ HADD2", "    examples: the same, in another order"],
        ),
        (
            "004_ialu.txt",
            Box::new(|t: &str| {
                let (a, b) = ("LEA{.LO}      Rd{, pu}, {-}Ra, SrcB,     UImm5Sca               $sched $req ; // 32bit模式\n", "LEA.HI.X      Rd{, pu}, {-}Ra, SrcB, Rc, UImm5Sca{, {!}pp}      $sched $req ; // 扩展位宽模式\n");
                assert!(t.contains(&format!("{a}{b}")));
                Some(t.replacen(&format!("{a}{b}"), &format!("{b}{a}"), 1))
            }),
            &["~ LEA", "    syntax templates: the same, in another order"],
        ),
        (
            "004_ialu.txt",
            Box::new(replace("    Bitwidth<rd> = 32 + (width==\"64\")*32;", "    Bitwidth<rd> = 32;")),
            &["    operand info - Bitwidth<rd> = 32 + (width == \"64\") * 32 (in MOV_R)", "    operand info + Bitwidth<rd> = 32 (in MOV_R)"],
        ),
    ];
    for (file, edit, want) in &cases {
        let text = report(&edited(file, edit.as_ref()));
        for line in *want {
            assert!(text.lines().any(|l| l.starts_with(line)), "{file}: no line `{line}` in\n{text}");
        }
    }
    // The same spec, no differences (the SPA file included); nor when a
    // template's spacing alone changes.
    assert_eq!(report(&edited("", &|t| Some(t.to_string()))), "no differences between old and new\n");
    let spaced = edited("004_ialu.txt", &replace("IABS Rd, {-}SrcB      $sched $req ;", "IABS  Rd,{-}SrcB $sched  $req;"));
    assert_eq!(report(&spaced), "no differences between old and new\n");
    // Nor when an example's spacing alone changes (it assembles to the same words).
    let spaced = edited("004_ialu.txt", &replace("IADD R0, R1,        R2 ; // R0 = R1 + R2", "IADD R0, R1, R2; //  R0 = R1 + R2"));
    assert_eq!(report(&spaced), "no differences between old and new\n");
}

/// The SPA file reads the same with any line endings (`\n`, `\r\n`, a lone
/// `\r`), as DSL files do: the same IR, the same one warning.
#[test]
fn spa_file_reads_the_same_with_any_line_endings() {
    let text = std::fs::read_to_string(root().join("spec/legacy/003_hmul2_spa53.txt")).unwrap().replace("\r\n", "\n");
    let ir = |text: &str| {
        let fe = isa_dsl::compile_texts([("spa.txt", text)]);
        // Each diagnostic's headline and place (`--> spa.txt:111:1`).
        let rendered = fe.render_diagnostics();
        let codes: Vec<String> = rendered.lines().filter(|l| l.contains("-->") || l.starts_with("warning") || l.starts_with("error")).map(str::to_string).collect();
        (isa_codegen::dump::dump(&fe.isa, isa_codegen::dump::Format::Json).unwrap(), codes)
    };
    let lf = ir(&text);
    assert_eq!(lf.1.len(), 2, "one warning and its place: {:?}", lf.1);
    assert!(lf.0.contains("HMUL2_32I"));
    for ending in ["\r\n", "\r"] {
        let (json, codes) = ir(&text.replace('\n', ending));
        assert_eq!(codes, lf.1, "{ending:?}");
        assert!(json == lf.0, "the IR differs with {ending:?} line endings");
    }
}
