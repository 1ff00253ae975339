//! The seed spec files: kept byte-for-byte (checked against the published
//! SHA-256 sums), and `check spec/` must find exactly the defects recorded in
//! `tests/golden/spec.check.stderr` (including each defective example, W014),
//! with no errors, 44 optypes and 184 opcodes.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() { files_under(&p, out) } else { out.push(p) }
    }
}

#[test]
fn seeds_are_byte_identical() {
    let sums = std::fs::read_to_string(root().join("spec/SEEDS.sha256")).unwrap();
    let mut files = Vec::new();
    files_under(&root().join("spec"), &mut files);
    let have: Vec<String> =
        files.iter().map(|f| format!("{:x}", Sha256::digest(std::fs::read(f).unwrap()))).collect();
    let mut n = 0;
    for line in sums.lines().filter(|l| !l.trim().is_empty()) {
        let (sum, name) = line.split_once(char::is_whitespace).unwrap();
        assert!(have.iter().any(|h| h == sum), "no byte-identical copy of seed {} in spec/", name.trim());
        n += 1;
    }
    assert_eq!(n, 5, "SEEDS.sha256 lists the five seeds");
    // The digests as the user shipped them (`shared/seeds/SHA256SUMS`), here
    // too: a seed edited together with SEEDS.sha256 still fails.
    const SHIPPED: [&str; 5] = [
        "a2b83047b24b37eec367e22bc89404a0e699eb0608926f936fd93c349b2eca9d",
        "1431868163c58a0e5494e23f82b05379e19475348d12925564c230dd473ca768",
        "a34ce51aa456c63712dbe4fe93d7bf5bec0cb5fc81e31244440c6e2705be3c14",
        "243056b53954e96ab21ec8cd3d29277a4d41c9f70cf1a4d890eee32a64a670e2",
        "fea1e8d86a2365bdafe03d3438266560863bdc9b196d002942d092e04f3ec427",
    ];
    for sum in SHIPPED {
        assert!(have.iter().any(|h| h == sum), "no byte-identical copy in spec/ of the shipped seed {sum}");
    }
    // The copy of the sums matches the one shipped with the seeds, when present.
    let shared = root().join("../shared/seeds/SHA256SUMS");
    if let Ok(orig) = std::fs::read_to_string(shared) {
        assert_eq!(orig, sums, "spec/SEEDS.sha256 differs from shared/seeds/SHA256SUMS");
    }
}

#[test]
fn spec_checks_with_warnings_only() {
    std::env::set_current_dir(root()).unwrap();
    // `isa-codegen check`: the front end plus the example pass (W014).
    let checked = isa_codegen::check(&[PathBuf::from("spec")]);
    let (fe, examples) = (&checked.fe, checked.example_stats);
    assert_eq!((examples.total, examples.round_trip, examples.defective), (94, 74, 20));
    // The default limit, whatever `ISA_MAX_DIAGNOSTICS` says here.
    let mut out = fe.render_diagnostics();
    out.push_str(&fe.diagnostics.summary());
    out.push('\n');
    assert!(!fe.has_errors(), "{out}");
    assert_eq!(fe.isa.optypes.len(), 44);
    assert_eq!(fe.isa.opcodes.len(), 184);
    let golden = root().join("tests/golden/spec.check.stderr");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, &out).unwrap();
    }
    let want = std::fs::read_to_string(&golden).unwrap();
    assert_eq!(want, out, "diagnostics for spec/ changed (BLESS=1 to accept)");
}

/// The spec with `base/isa.txt` edited by `edit`: its rendered diagnostics.
fn check_with_isa_edit(edit: impl Fn(&str) -> String) -> String {
    let spec = root().join("spec");
    let mut diags = isa_dsl::Diagnostics::default();
    let files = isa_dsl::collect_spec_files(std::slice::from_ref(&spec), &mut diags);
    let mut sources = isa_dsl::SourceMap::new();
    for f in &files {
        let name = f.strip_prefix(&spec).unwrap().display().to_string();
        let bytes = std::fs::read(f).unwrap();
        let bytes = if name == "base/isa.txt" { edit(std::str::from_utf8(&bytes).unwrap()).into_bytes() } else { bytes };
        isa_dsl::add_source(&mut sources, &name, &bytes, &mut diags);
    }
    isa_dsl::compile(sources, diags).render_diagnostics()
}

/// What the ISA declaration names is checked against the rest of the spec:
/// a misspelt guard or control field, literal type or guard domain is an
/// error at the name, with the spelling meant (these used to pass `check`).
#[test]
fn the_isa_declaration_names_what_exists() {
    let out = check_with_isa_edit(|t| {
        let t = t.replace("Guard = pg;", "Guard = pgg;").replace("Control = sched;", "Control = schd;");
        t.replace("GuardDomain = Pred;", "GuardDomain = Prd;").replace("Literal PR = Pred;", "Literal PR = Prd;")
    });
    for (code, message, hint) in [
        ("E012", "`Guard` names `pgg`, which is no field of any group, optype or opcode", "did you mean `pg`?"),
        ("E012", "`Control` names `schd`, which is no field of any group, optype or opcode", "did you mean `sched`?"),
        ("E012", "`GuardDomain` names `Prd`, a domain no simulation hook uses", "did you mean `Pred`?"),
        ("E020", "undefined type `Prd`", "did you mean `Pred`?"),
    ] {
        let at = out.find(&format!("error[{code}]: {message}\n")).unwrap_or_else(|| panic!("{message}:\n{out}"));
        let next = out[at..].find("\n\n").map_or(out.len(), |e| at + e);
        assert!(out[at..next].contains("base/isa.txt:") && out[at..next].contains(hint), "{}", &out[at..next]);
    }
    // A literal of a type that is no register file.
    let out = check_with_isa_edit(|t| t.replace("Literal PR = Pred;", "Literal PR = SType;"));
    assert!(out.contains("error[E012]: literal type `SType` is not a register file"), "{out}");
}
