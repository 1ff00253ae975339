//! Data-driven spec tests: every `tests/specs/{pass,fail}/*.txt` is checked
//! (`isa-codegen check`) together with `spec/base/` (as a new instruction file would be), and its
//! rendered diagnostics are compared with the `.stderr` file beside it.
//! `pass/` files must have no errors, `fail/` files at least one.
//! Run with `BLESS=1` to rewrite the golden files after a deliberate change.

use std::path::Path;

fn base_files() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names
        .into_iter()
        .map(|p| (format!("spec/base/{}", p.file_name().unwrap().to_string_lossy()), std::fs::read(&p).unwrap()))
        .collect()
}

fn check_spec(path: &Path) -> datatest_stable::Result<()> {
    let bytes = std::fs::read(path)?;
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for (name, text) in base_files() {
        isa_dsl::add_source(&mut sources, &name, &text, &mut diags);
    }
    let rel = path.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_or(path);
    isa_dsl::add_source(&mut sources, &rel.display().to_string(), &bytes, &mut diags);
    // The full `isa-codegen check`: front end, examples (W014), links (W010).
    let fe = isa_codegen::check_frontend(isa_dsl::compile(sources, diags)).fe;
    // The default limit, whatever `ISA_MAX_DIAGNOSTICS` says here.
    let mut out = fe.render_diagnostics();
    out.push_str(&fe.diagnostics.summary());
    out.push('\n');

    let is_fail = rel.components().any(|c| c.as_os_str() == "fail");
    if is_fail && !fe.has_errors() {
        return Err(format!("{}: expected errors, got none:\n{out}", rel.display()).into());
    }
    if !is_fail && fe.has_errors() {
        return Err(format!("{}: expected no errors:\n{out}", rel.display()).into());
    }
    let golden = path.with_extension("stderr");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, &out)?;
        return Ok(());
    }
    let want = std::fs::read_to_string(&golden)
        .map_err(|e| format!("{}: {e} (run with BLESS=1 to create it)", golden.display()))?;
    if want != out {
        return Err(format!("{}: diagnostics differ from {}\n--- expected\n{want}\n--- actual\n{out}", rel.display(), golden.display()).into());
    }
    Ok(())
}

datatest_stable::harness! {
    { test = check_spec, root = "specs", pattern = r"\.txt$" },
}
