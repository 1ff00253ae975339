//! What `__DefIsa` names, checked against the fields the spec declares.

/// A control field declared with the wrong width is one mistake (E037),
/// not also "no field" at the `Control` that names it (review 41 found an
/// E012 with a wrong "did you mean").
#[test]
fn a_refused_field_is_still_declared_for_the_isa() {
    // The whole spec: the error needs a field near the name (`urb`).
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let files: Vec<(String, String)> = isa_dsl::collect_spec_files(&[spec], &mut Default::default())
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let text = if p.ends_with("isa.txt") { text.replacen("field<124, 4> WriteSB wsb = 0;", "field<124, 3> WriteSB wsb = 0;", 1) } else { text };
            (p.display().to_string(), text)
        })
        .collect();
    assert!(files.iter().any(|(_, t)| t.contains("field<124, 3> WriteSB wsb")), "the edit applies");
    let fe = isa_dsl::compile_texts(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
    let errors: Vec<String> = fe.diagnostics.items.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code.as_str(), d.message)).collect();
    assert_eq!(errors, ["E037: field `wsb` is 3 bits wide but type `WriteSB` is 4"]);
}
