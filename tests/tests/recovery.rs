//! Error recovery on the whole spec: one realistic mistake in `spec/` (from
//! review 46's mutation study) costs one error, not a cascade of follow-on
//! diagnostics about every use of what the broken line declared. Each case
//! edits one line of an in-memory copy and compares the diagnostics with
//! those of the spec as it is.

use isa_dsl::{Code, Diagnostic};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

/// The spec's files, `spec/...` names and texts, in path order.
fn spec() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    files(&root.join("spec"), &mut paths);
    paths.sort();
    paths.iter().map(|p| (p.strip_prefix(&root).unwrap().display().to_string(), std::fs::read_to_string(p).unwrap())).collect()
}

/// `isa-codegen check` of the files: every diagnostic, and the file each is in.
fn check(files: &[(String, String)]) -> Vec<(Diagnostic, String)> {
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for (name, text) in files {
        isa_dsl::add_source(&mut sources, name, text.as_bytes(), &mut diags);
    }
    let fe = isa_codegen::check_frontend(isa_dsl::compile(sources, diags)).fe;
    let file = |d: &Diagnostic| d.span.map(|s| fe.sources.get(s.file).name.clone()).unwrap_or_default();
    fe.diagnostics.items.iter().map(|d| (d.clone(), file(d))).collect()
}

/// The spec with the `nth` (from 1) occurrence of `old` in `file` made `new`.
fn mutated(file: &str, old: &str, new: &str, nth: usize) -> Vec<(String, String)> {
    let mut files = spec();
    let (_, text) = files.iter_mut().find(|(n, _)| n == file).unwrap_or_else(|| panic!("no {file}"));
    let at = text.match_indices(old).nth(nth - 1).unwrap_or_else(|| panic!("{old:?} is not in {file} {nth} times")).0;
    text.replace_range(at..at + old.len(), new);
    files
}

/// The errors of `got`, and its warnings that the spec as it is does not
/// have (a spec with errors shows fewer: its examples are not checked).
fn new_diagnostics(got: &[(Diagnostic, String)]) -> (Vec<&Diagnostic>, Vec<&Diagnostic>) {
    let clean = check(&spec());
    assert!(clean.iter().all(|(d, _)| !d.is_error()), "the spec has errors");
    let known = |d: &Diagnostic| clean.iter().any(|(c, _)| c.code == d.code && c.message == d.message);
    let errors = got.iter().map(|(d, _)| d).filter(|d| d.is_error()).collect();
    let warnings = got.iter().map(|(d, _)| d).filter(|d| !d.is_error() && !known(d)).collect();
    (errors, warnings)
}

fn codes(ds: &[&Diagnostic]) -> Vec<&'static str> {
    ds.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn a_guard_typo_is_one_error_read_as_the_field_it_nearly_names() {
    let got = check(&mutated("spec/base/isa.txt", "Guard = pg;", "Guard = pgg;", 1));
    let (errors, warnings) = new_diagnostics(&got);
    assert_eq!(codes(&errors), ["E012"], "{errors:#?}");
    assert!(errors[0].notes.iter().any(|n| n.contains("did you mean `pg`? (read as that)")), "{:?}", errors[0].notes);
    // 195 follow-on warnings before (W004, W007, W015 on every use of `pg`).
    assert!(warnings.is_empty(), "{warnings:#?}");
}

#[test]
fn a_malformed_field_line_is_one_error_not_one_per_use_of_the_field() {
    // A full-width `；`, a missing `>`, the keyword misspelt, a full-width
    // digit in the name: IADD's `rd`.
    for new in ["field<16,  8> Reg rd；", "field<16,  8 Reg rd;", "feild<16,  8> Reg rd;", "field<16,  8> Reg rd２;"] {
        let got = check(&mutated("spec/004_ialu.txt", "field<16,  8> Reg rd;", new, 1));
        let (errors, warnings) = new_diagnostics(&got);
        // Before: 12 W007 (`rd` named by InList, Order, Bitwidth) and an E050 in hooks.txt.
        assert_eq!(codes(&errors), ["E006"], "{new}: {errors:#?}");
        assert!(warnings.is_empty(), "{new}: {warnings:#?}");
    }
}

#[test]
fn a_malformed_value_line_is_one_error_not_a_wrong_suggestion_per_use() {
    for new in ["NoX = 0x0\n", "NoX = 0xG;\n"] {
        let got = check(&mutated("spec/004_ialu.txt", "NoX = 0x0;\n", new, 1));
        let (errors, warnings) = new_diagnostics(&got);
        // Before: six E034 "`NoX` is not a value of `IExt`: did you mean `X`?".
        assert_eq!(codes(&errors), ["E005"], "{new:?}: {errors:#?}");
        assert!(warnings.is_empty(), "{new:?}: {warnings:#?}");
    }
}

#[test]
fn a_width_too_small_is_summed_up_where_it_is_given() {
    let got = check(&mutated("spec/base/isa.txt", "Width = 128;", "Width = 64;", 1));
    let e031: Vec<&(Diagnostic, String)> = got.iter().filter(|(d, _)| d.code == Code::FieldOutOfRange).collect();
    // Before: 463 of them, one per field past bit 63, none at `Width`.
    assert_eq!(e031.len(), 4, "{e031:#?}");
    let (sum, file) = e031.iter().find(|(d, _)| d.message.contains("fields end past bit 63")).expect("a summary");
    assert_eq!(file, "spec/base/isa.txt");
    assert!(sum.message.starts_with("463 fields end past bit 63"), "{}", sum.message);
    assert_eq!(sum.notes, ["the furthest ends at bit 127"]);
}

#[test]
fn an_order_typo_is_named_by_the_error_it_causes() {
    let got = check(&mutated("spec/004_ialu.txt", "Order<pg, rd, pu, ra, rb, pp>;", "Order<pg, rd, pu, ra, rbb, pp>;", 1));
    let (errors, _) = new_diagnostics(&got);
    assert_eq!(codes(&errors), ["E028"], "{errors:#?}");
    let why = errors[0].all_notes().collect::<Vec<_>>().join("\n");
    // Before: "does it list the fields in the template's order?"
    assert!(why.contains("names `rbb`, which is no field of `IADD_RR` (did you mean `rb`?)"), "{why}");
}

#[test]
fn one_file_checked_alone_reports_each_missing_type_once() {
    let files: Vec<(String, String)> = spec().into_iter().filter(|(n, _)| n == "spec/004_ialu.txt").collect();
    let got = check(&files);
    let e020: Vec<&Diagnostic> = got.iter().map(|(d, _)| d).filter(|d| d.code == Code::UndefinedType).collect();
    let mut names: Vec<&str> = e020.iter().map(|d| d.message.as_str()).collect();
    names.dedup();
    // Before: 390, one per field, for the types `spec/base/` declares.
    assert_eq!(names.len(), e020.len(), "one per type: {names:#?}");
    assert!(e020.len() < 20, "{}", e020.len());
    let reg = e020.iter().find(|d| d.message == "undefined type `Reg`").expect("Reg");
    assert!(reg.notes.iter().any(|n| n.ends_with("more uses of it not reported")), "{:?}", reg.notes);
}

#[test]
fn a_spec_without_its_isa_declaration_is_not_reported_at_every_order() {
    let mut files = spec();
    let (_, text) = files.iter_mut().find(|(n, _)| n == "spec/base/isa.txt").unwrap();
    text.clear();
    let got = check(&files);
    let codes: Vec<&str> = got.iter().map(|(d, _)| d.code.as_str()).collect();
    assert!(codes.contains(&"E038"), "{codes:?}");
    // Before: 180 W007 "`Order` names `pg`", the guard the missing `__DefIsa` declares.
    assert!(!codes.contains(&"W007"), "{codes:?}");
}

#[test]
fn a_file_cut_short_is_said_once() {
    let mut files = spec();
    let (_, text) = files.iter_mut().find(|(n, _)| n == "spec/004_ialu.txt").unwrap();
    let at = text.find("__DefOpcode IMUL_RU").unwrap();
    let cut = at + text[at..].find("SType st").unwrap() + "SType st".len();
    text.truncate(cut);
    let got = check(&files);
    let (errors, _) = new_diagnostics(&got);
    // Before: 18 more E050s, one per `__DefSimulation` of an optype the cut lost.
    assert_eq!(codes(&errors), ["E006"], "{errors:#?}");
    assert!(errors[0].notes.iter().any(|n| n.contains("is it cut short?")), "{:?}", errors[0].notes);
}
