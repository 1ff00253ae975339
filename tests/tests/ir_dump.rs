//! The IR dump (`isa-codegen ir --format yaml|json`) is a faithful image of
//! the IR: read back through the IR's own `Deserialize`, it dumps the same
//! text and generates the same crate, file for file. The YAML has the JSON's
//! structure (no tags), so any YAML loader reads it; serde reads it back
//! through `serde_json::Value`.

use isa_codegen::dump::{dump, Format};
use isa_dsl::ir::Isa;

fn seed_isa() -> Isa {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    assert!(!fe.has_errors(), "{}", fe.diagnostics.summary());
    assert_eq!(fe.isa.opcodes.len(), 184);
    assert!(!fe.isa.legacy.is_empty(), "the SPA 5.3 file is part of the dump");
    fe.isa
}

fn assert_same_crate(a: &Isa, b: &Isa) {
    let options = isa_codegen::Options::default();
    let (fa, fb) = (isa_codegen::gen_rust::generate_crate(a, &options), isa_codegen::gen_rust::generate_crate(b, &options));
    assert_eq!(fa.len(), fb.len());
    for ((pa, ta), (pb, tb)) in fa.iter().zip(&fb) {
        assert_eq!(pa, pb);
        assert!(ta == tb, "{pa} differs when generated from the read-back IR");
    }
}

#[test]
fn the_yaml_dump_reads_back_as_the_same_ir() {
    let isa = seed_isa();
    let text = dump(&isa, Format::Yaml).unwrap();
    let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
    let back: Isa = serde_json::from_value(value).unwrap();
    assert!(dump(&back, Format::Yaml).unwrap() == text, "YAML dump of the read-back IR differs");
    // No YAML tags: a plain loader (Python's `yaml.safe_load`) reads it too.
    assert!(!text.lines().any(|l| l.trim_start().split(": ").nth(1).is_some_and(|v| v.starts_with('!'))), "the YAML has tags");
    assert_same_crate(&isa, &back);
}

#[test]
fn the_json_dump_reads_back_as_the_same_ir() {
    let isa = seed_isa();
    let text = dump(&isa, Format::Json).unwrap();
    let back: Isa = serde_json::from_str(&text).unwrap();
    assert!(dump(&back, Format::Json).unwrap() == text, "JSON dump of the read-back IR differs");
    // And across formats: what JSON kept is what YAML keeps, in the same structure.
    assert!(dump(&back, Format::Yaml).unwrap() == dump(&isa, Format::Yaml).unwrap());
    let yaml: serde_json::Value = serde_yaml::from_str(&dump(&isa, Format::Yaml).unwrap()).unwrap();
    assert!(yaml == serde_json::from_str::<serde_json::Value>(&text).unwrap(), "the YAML and the JSON read as different data");
    assert_same_crate(&isa, &back);
}


/// The same for every spec of `tests/specs/pass/` over `spec/base/` (and
/// `spec/base/` alone): IR shapes the seeds lack (SPA-only files, unbound
/// modifiers, odd layouts) read back as they were dumped.
#[test]
fn every_passing_spec_s_dump_reads_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = root.join("../spec/base");
    let mut specs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("specs/pass")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "txt")).collect();
    specs.sort();
    assert!(specs.len() >= 40, "{} passing specs", specs.len());
    let mut inputs: Vec<Vec<std::path::PathBuf>> = vec![vec![base.clone()]];
    inputs.extend(specs.into_iter().map(|s| vec![base.clone(), s]));
    for paths in inputs {
        let fe = isa_dsl::load(&paths);
        assert!(!fe.has_errors(), "{paths:?}: {}", fe.diagnostics.summary());
        for format in [Format::Json, Format::Yaml] {
            let text = dump(&fe.isa, format).unwrap();
            let value: serde_json::Value = match format {
                Format::Json => serde_json::from_str(&text).unwrap(),
                Format::Yaml => serde_yaml::from_str(&text).unwrap(),
            };
            let back: Isa = serde_json::from_value(value).unwrap_or_else(|e| panic!("{paths:?}: {e}"));
            assert!(dump(&back, format).unwrap() == text, "{paths:?}: the dump of the read-back IR differs");
        }
    }
}
