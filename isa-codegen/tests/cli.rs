//! The `isa-codegen` binary as a user runs it: exit codes, where output goes,
//! determinism of `ir`.

use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_isa-codegen"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    // The tests expect the default limit on shown diagnostics.
    c.env_remove(isa_runtime::report::SHOWN_VAR);
    c
}

#[test]
fn check_spec_exits_0_with_warnings() {
    let out = bin().args(["check", "spec/", "--color", "never"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("44 optypes, 184 opcodes"), "{stdout}");
    assert!(String::from_utf8(out.stderr).unwrap().contains("warning[W002]"));
}

#[test]
fn deny_warnings_fails() {
    let out = bin().args(["check", "spec/", "--deny-warnings"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn allowed_warnings_are_neither_shown_nor_denied() {
    // The seed spec's warnings are of these codes; a new one of another code fails.
    let all = "W001,W002,W003,W004,W005,W006,W008,W010,W014,W015,W020,W025,W034,W035,W036,W017";
    let out = bin().args(["check", "spec/", "--deny-warnings", "--allow", all]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("0 errors, 0 warnings (88 warnings allowed)"));
    assert!(out.stderr.is_empty());
    // One code less: its warnings are shown, and deny them.
    let out = bin().args(["check", "spec/", "--deny-warnings", "--allow", &all[..all.len() - 5]]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("warning[W017]"), "{err}");
    assert!(err.ends_with("error: warnings are denied (`--deny-warnings`): fix them, or `--allow` their codes\n"), "it says why it fails: {err}");
    // Errors cannot be allowed, nor codes that do not exist.
    for bad in ["E030", "W099", "X1"] {
        assert_eq!(bin().args(["check", "spec/", "--allow", bad]).output().unwrap().status.code(), Some(2), "{bad}");
    }
}

/// The main job and `ir` take `--allow` as `check` does: the warnings of
/// those codes are not shown, and the summary counts them apart.
#[test]
fn the_main_job_and_ir_allow_warnings_as_check_does() {
    let dir = temp_dir("allow");
    let out = bin().args(["spec/", "--allow", "W010,W014", "-o"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("[W010]") && !err.contains("[W014]") && err.contains("warning[W002]"), "{err}");
    assert!(err.ends_with(&format!("wrote 236 files to {} (0 errors, 48 warnings (40 warnings allowed))\n", dir.display())), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let ir = bin().args(["ir", "spec/", "--format", "json", "--allow", "W010", "--allow", "W014"]).output().unwrap();
    assert_eq!(ir.status.code(), Some(0));
    let err = String::from_utf8(ir.stderr).unwrap();
    assert_eq!(err.matches("\nwarning[").count() + err.starts_with("warning[") as usize, 48, "{err}");
    assert!(!err.contains("[W010]") && !err.contains("[W014]"));
    // As for `check`: errors cannot be allowed; and `--allow` before a subcommand is the main job's.
    assert_eq!(bin().args(["ir", "spec/", "--allow", "E030"]).output().unwrap().status.code(), Some(2));
    let misplaced = bin().args(["--allow", "W010", "check", "spec/"]).output().unwrap();
    assert_eq!(misplaced.status.code(), Some(2));
    let err = String::from_utf8_lossy(&misplaced.stderr);
    assert!(err.contains("belongs to the main job") && err.contains("`check` takes its own after its name: `isa-codegen check ... --allow <ALLOW>`"), "{err}");
}

#[test]
fn errors_exit_1_with_location() {
    let out = bin().args(["check", "spec/base", "tests/specs/fail/e030_field_overlap.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error[E030]"), "{err}");
    assert!(err.contains("tests/specs/fail/e030_field_overlap.txt:17:5"), "{err}");
}

#[test]
fn missing_path_is_an_error() {
    let out = bin().args(["check", "no/such/dir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("error[E001]"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(bin().args(["check"]).output().unwrap().status.code(), Some(2));
    assert_eq!(bin().args(["frobnicate"]).output().unwrap().status.code(), Some(2));
    // The main job's arguments before a subcommand are refused, not dropped.
    for args in [&["spec/", "-o", "/nonexistent/x", "check", "spec/"][..], &["--check", "check", "spec/"], &["--crate-name", "foo", "ir", "spec/"]] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("belongs to the main job"), "{args:?}");
    }
    assert_eq!(bin().args(["ir", "spec/", "--format", "xml"]).output().unwrap().status.code(), Some(2));
    // Names that would break Cargo.toml or the generated Rust.
    for bad in ["a\"b", "", "1st", "has space", "x]\n[y"] {
        let out = bin().args(["spec/", "-o", "/nonexistent/never-written", "--crate-name", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--crate-name {bad:?}");
    }
    let out = bin().args(["spec/", "-o", "/nonexistent/never-written", "--runtime-path", "a\nb"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_spec_without_its_isa_says_so_first() {
    // The extension without `spec/base/`, where the ISA is declared.
    let out = bin().args(["check", "tests/specs/pass/minimal_extension.txt", "--color", "never"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error[E038]: the spec declares no `__DefIsa`\n"), "{err}");
    assert!(err.contains("is the file declaring it among those given?"), "{err}");
    // With it, no E038 (the same file compiles: `new_extension_compiles_against_base_alone`).
    let out = bin().args(["check", "spec/base/", "tests/specs/pass/minimal_extension.txt"]).output().unwrap();
    assert!(!String::from_utf8(out.stderr).unwrap().contains("E038"));
}

#[test]
fn new_extension_compiles_against_base_alone() {
    let out = bin()
        .args(["check", "spec/base/", "tests/specs/pass/minimal_extension.txt", "--deny-warnings"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn ir_is_byte_identical_across_runs() {
    for format in ["yaml", "json"] {
        let a = bin().args(["ir", "spec/", "--format", format]).output().unwrap();
        let b = bin().args(["ir", "spec/", "--format", format]).output().unwrap();
        assert_eq!(a.status.code(), Some(0));
        assert!(a.stdout.len() > 100_000);
        assert_eq!(a.stdout, b.stdout, "{format} output differs between runs");
    }
    let json = bin().args(["ir", "spec/", "--format", "json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["opcodes"].as_array().unwrap().len(), 184);
    assert_eq!(v["optypes"].as_array().unwrap().len(), 44);
}

/// The same files give the same IR and the same generated files, in
/// whatever order the command line names them.
#[test]
fn output_does_not_follow_the_order_of_the_paths() {
    // One file reached by two spellings (`..`, a link to the spec): the one
    // that sorts first names it, whichever comes first here.
    let link_dir = temp_dir("order-link");
    let link = link_dir.join("spec");
    #[cfg(unix)]
    std::os::unix::fs::symlink(std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")).unwrap(), &link).unwrap();
    let link = link.to_str().unwrap();
    let orders: Vec<Vec<&str>> = vec![
        vec!["spec/"],
        vec!["spec/004_ialu.txt", "spec/legacy", "spec/base", "spec/000_halu.txt", "spec/simulation", "spec/002_cvt.txt", "spec/formats", "spec/001_falu.txt"],
        vec!["spec/simulation/hooks.txt", "spec/001_falu.txt", "spec/", "spec/base/isa.txt"],
        vec!["spec/base/../000_halu.txt", "spec/"],
        vec!["spec/", "spec/base/../000_halu.txt"],
        vec![link, "spec/"],
        vec!["spec/", link],
    ];
    let ir = |paths: &[&str]| bin().arg("ir").args(paths).args(["--format", "json"]).output().unwrap();
    let first = ir(&orders[0]);
    assert_eq!(first.status.code(), Some(0));
    for paths in &orders[1..] {
        let other = ir(paths);
        assert_eq!(other.status.code(), Some(0), "{paths:?}");
        assert!(first.stdout == other.stdout, "{paths:?}: the IR differs from that of `spec/`");
        assert_eq!(other.stderr, first.stderr, "{paths:?}: the diagnostics differ");
    }
    let out = temp_dir("order");
    let status = bin().args(&orders[1]).arg("-o").arg(&out).status().unwrap();
    assert_eq!(status.code(), Some(0));
    let check = bin().args(["spec/", "--check", "-o"]).arg(&out).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stderr));
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&link_dir);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("isa-codegen-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn checked_in_generated_crate_is_fresh() {
    let out = bin().args(["spec/", "-o", "generated/", "--check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "generated/ is stale:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// `--check` answers as diff(1) does: 0 up to date, 1 stale, 2 when the
/// spec itself has errors (nothing can be compared).
#[test]
fn check_mode_tells_a_broken_spec_from_a_stale_output() {
    let dir = temp_dir("check-broken-spec");
    std::fs::write(dir.join("bad.txt"), "__DefGroup G : [NOPE]
").unwrap();
    let out = bin().args([dir.join("bad.txt").to_str().unwrap(), "-o", dir.join("out").to_str().unwrap(), "--check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("out").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_spelling_of_the_spec_path_does_not_change_the_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap();
    let absolute = root.join("spec").display().to_string();
    for spec in ["./spec", "spec", "./spec/.", absolute.as_str()] {
        let out = bin().current_dir(&root).args([spec, "-o", "generated/", "--check"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "`{spec}` gives other output:\n{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn an_empty_spec_directory_or_a_fifo_is_an_error_not_a_success_or_a_hang() {
    let dir = temp_dir("empty-spec");
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin().args(["check", dir.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no spec files"), "{}", String::from_utf8_lossy(&out.stderr));
    #[cfg(unix)]
    {
        let fifo = dir.join("pipe.txt");
        let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            let out = bin().args(["check", dir.to_str().unwrap()]).output().unwrap();
            assert_eq!(out.status.code(), Some(1));
            assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    // Files that are all skipped as not the DSL are no spec either.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "just notes\n").unwrap();
    let out = bin().args(["check", notes.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no file of the spec is in the DSL"), "{}", String::from_utf8_lossy(&out.stderr));
    // An empty file and a comments-only one are alike: empty DSL files,
    // and a spec of only those declares nothing.
    for (name, text) in [("empty.txt", ""), ("comments.txt", "// nothing yet\n\n  // still nothing\n")] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let out = bin().args(["check", "--color", "never", file.to_str().unwrap()]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains("error[E001]: the spec declares nothing") && !err.contains("W013"), "{name}: {err}");
        // Beside a real spec, such a file adds nothing and costs nothing.
        let out = bin().args(["check", "--color", "never", "spec/", file.to_str().unwrap()]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {err}");
        assert!(!err.contains("W013") && String::from_utf8_lossy(&out.stdout).starts_with("12 files"), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_then_check_detects_staleness() {
    let dir = temp_dir("stale");
    let out = dir.join("gen");
    let o = out.to_str().unwrap();
    assert_eq!(bin().args(["spec/", "-o", o]).output().unwrap().status.code(), Some(0));
    assert_eq!(bin().args(["spec/", "-o", o, "--check"]).output().unwrap().status.code(), Some(0));
    // Output is byte-identical across runs.
    let before = std::fs::read(out.join("src/opcodes.rs")).unwrap();
    assert_eq!(bin().args(["spec/", "-o", o]).output().unwrap().status.code(), Some(0));
    assert_eq!(before, std::fs::read(out.join("src/opcodes.rs")).unwrap());
    // A hand edit, a missing file and a file an earlier run wrote that
    // this one would not (listed in the manifest) are all stale.
    std::fs::write(out.join("src/lib.rs"), "// edited\n").unwrap();
    std::fs::write(out.join("src/extra.rs"), "\n").unwrap();
    let manifest = out.join(isa_codegen::output::MANIFEST);
    let listed = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{listed}src/extra.rs\n")).unwrap();
    std::fs::remove_file(out.join("src/types.rs")).unwrap();
    let r = bin().args(["spec/", "-o", o, "--check"]).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(err.contains("lib.rs is stale") && err.contains("types.rs is missing") && err.contains("extra.rs is not generated"), "{err}");
    // Regenerating removes it: it was the generator's.
    assert_eq!(bin().args(["spec/", "-o", o]).output().unwrap().status.code(), Some(0));
    assert!(!out.join("src/extra.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regenerating never deletes what the generator did not write: notes, a
/// copy of the spec, a build directory are moved into the new output (a
/// review found `isa-codegen out/spec -o out` deleting the spec it read).
#[test]
fn regeneration_keeps_files_the_generator_did_not_write() {
    let dir = temp_dir("kept");
    let out = dir.join("gen");
    let o = out.to_str().unwrap();
    assert_eq!(bin().args(["spec/", "-o", o]).output().unwrap().status.code(), Some(0));
    std::fs::write(out.join("NOTES.md"), "mine").unwrap();
    std::fs::create_dir_all(out.join("target/debug")).unwrap();
    std::fs::write(out.join("target/debug/f"), "cache").unwrap();
    std::fs::create_dir_all(out.join("docs/mine")).unwrap();
    std::fs::write(out.join("docs/mine/a.md"), "notes").unwrap();
    copy_dir(std::path::Path::new("../spec"), &out.join("spec"));
    // Foreign files are not staleness.
    assert_eq!(bin().args(["spec/", "-o", o, "--check"]).output().unwrap().status.code(), Some(0));
    // Generating from the copy inside the output keeps the copy.
    let r = bin().args([out.join("spec").to_str().unwrap(), "-o", o]).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(err.contains("kept 4 entries the generator did not write: NOTES.md, docs/mine, spec, target"), "{err}");
    assert_eq!(std::fs::read_to_string(out.join("NOTES.md")).unwrap(), "mine");
    assert_eq!(std::fs::read_to_string(out.join("target/debug/f")).unwrap(), "cache");
    assert_eq!(std::fs::read_to_string(out.join("docs/mine/a.md")).unwrap(), "notes");
    assert_eq!(std::fs::read(out.join("spec/base/isa.txt")).unwrap(), std::fs::read("../spec/base/isa.txt").unwrap());
    // Nothing is left beside the output.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn failed_run_leaves_output_untouched() {
    let dir = temp_dir("untouched");
    let out = dir.join("gen");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "previous output").unwrap();
    let r = bin()
        .args(["spec/base", "tests/specs/fail/e030_field_overlap.txt", "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8(r.stderr).unwrap().contains("left untouched"));
    assert_eq!(std::fs::read_to_string(out.join("keep.txt")).unwrap(), "previous output");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    // No temporary directories are left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary directory an interrupted run left beside the output is
/// named (it may hold the user's files), never deleted.
#[test]
fn an_interrupted_run_s_temporary_directory_is_named_not_deleted() {
    let dir = temp_dir("interrupted");
    let out = dir.join("gen");
    let stale = dir.join(".gen.tmp-4000000");
    std::fs::create_dir_all(stale.join("src")).unwrap();
    std::fs::write(stale.join("src/lib.rs"), "half written").unwrap();
    let r = bin().args(["spec/", "-o", out.to_str().unwrap()]).output().unwrap();
    assert_eq!(r.status.code(), Some(0));
    let stderr = String::from_utf8(r.stderr).unwrap();
    assert!(stderr.contains(&format!("warning: {} is left by an earlier run", stale.display())), "{stderr}");
    assert_eq!(std::fs::read_to_string(stale.join("src/lib.rs")).unwrap(), "half written");
    // The directory of the run itself is never named.
    assert_eq!(stderr.matches(".gen.tmp-").count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dead_run_s_temporary_directory_gives_the_user_s_files_back() {
    // A run killed after the exchange, before moving the user's files back:
    // its directory is the old output, manifest and all, with `NOTES.md`
    // and `target/` in it.
    let dir = temp_dir("recover");
    let out = dir.join("gen");
    assert_eq!(bin().args(["spec/", "-o", out.to_str().unwrap()]).status().unwrap().code(), Some(0));
    let stale = dir.join(".gen.tmp-4000001");
    copy_dir(&out, &stale);
    std::fs::write(stale.join("NOTES.md"), "mine").unwrap();
    std::fs::create_dir_all(stale.join("target/debug")).unwrap();
    std::fs::write(stale.join("target/debug/x"), "built").unwrap();
    // And one killed after writing everything, before the exchange: generated files only.
    let done = dir.join(".gen.tmp-4000002");
    copy_dir(&out, &done);
    let r = bin().args(["spec/", "-o", out.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(out.join("NOTES.md")).unwrap(), "mine");
    assert_eq!(std::fs::read_to_string(out.join("target/debug/x")).unwrap(), "built");
    assert!(!stale.exists() && !done.exists(), "{stderr}");
    assert!(stderr.contains(&format!("recovered entries from {}", stale.display())) && stderr.contains("NOTES.md, target"), "{stderr}");
    assert!(stderr.contains(&format!("removed {}", done.display())), "{stderr}");
    // The next run keeps them as the user's.
    let r = bin().args(["spec/", "-o", out.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8(r.stderr).unwrap().contains("kept 2 entries the generator did not write: NOTES.md, target"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_manual_shows_the_default_an_omitted_modifier_encodes() {
    // The list's `*` marks `.U32`, the field defaults to `S32`: a line that
    // leaves `.itype` out encodes S32, so that is the default shown (W005 says the rest).
    let dir = temp_dir("default-shown");
    let spec = "__DefBitFieldType XInt<1>\n    S32;\n    U32;\n\n__DefGroup XALU : [ALL]\n  __Encoding\n    field<12, 3> Pred pg = PT;\n    field<15, 1> PModi pg.not = False;\n    field<16, 8> Reg rd;\n    field<24, 8> Reg ra;\n    field<40, 1> XInt itype = S32;\n\n__DefOptype CVT : [XALU]\n  __Encoding\n    field<0, 8> Optype optype == MOV;\n  __Syntax\n```asm\nCVT{.itype} Rd, Ra      $sched $req ;\n\n.itype = {.S32, .U32*}\n```\n\n__DefOpcode CVT_R : [CVT]\n  __Encoding\n    field<8, 4> SType stype == R;\n  __OperandInfo\n    InList<ra>;\n    OutList<rd>;\n    Order<rd, ra>;\n";
    std::fs::write(dir.join("cvt.txt"), spec).unwrap();
    let out = dir.join("gen");
    let r = bin().args(["spec/base/"]).arg(dir.join("cvt.txt")).arg("-o").arg(&out).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let md = std::fs::read_to_string(out.join("docs/md/insn/CVT.md")).unwrap();
    assert!(md.contains("| `.S32` (omitted, the field keeps its default `.S32`; the spec's list marks `.U32` (W005)) |"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_of_two_extensions_over_a_shared_base() {
    let out = bin()
        .args(["diff", "tests/diff/old.txt", "tests/diff/new.txt", "--include", "spec/base/"])
        .output()
        .unwrap();
    // Exit codes as diff(1): 1 they differ, 0 the same, 2 trouble.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("MOV_R: field `ra` moved from [31:24] to [39:32]"), "{text}");
    let same = bin().args(["diff", "spec/", "spec/"]).output().unwrap();
    assert_eq!((same.status.code(), String::from_utf8(same.stdout).unwrap().as_str()), (Some(0), "no differences between spec/ and spec/\n"));
    let broken = bin().args(["diff", "spec/", "tests/diff/missing.txt"]).output().unwrap();
    let err = String::from_utf8_lossy(&broken.stderr);
    assert_eq!(broken.status.code(), Some(2), "{err}");
    assert!(err.contains("error: NEW (tests/diff/missing.txt) does not compile: 1 error"), "{err}");
    // A broken OLD that also has a warning: its errors only, and the side named.
    let broken = bin().args(["diff", "tests/specs/fail/e030_field_overlap.txt", "tests/diff/new.txt", "--include", "spec/base/"]).output().unwrap();
    let err = String::from_utf8_lossy(&broken.stderr);
    assert_eq!(broken.status.code(), Some(2), "{err}");
    assert!(err.contains("error: OLD (tests/specs/fail/e030_field_overlap.txt) does not compile: 2 errors"), "{err}");
    assert!(err.contains("error[E030]") && !err.contains("warning["), "{err}");
    assert!(broken.stdout.is_empty(), "no differences listed");
}

#[test]
fn diff_over_a_base_of_its_own_per_side() {
    // The same extension file over two bases: NEW's base swaps FPRound's RM and RZ.
    let dir = temp_dir("diff-bases");
    let new_base = dir.join("base");
    std::fs::create_dir_all(&new_base).unwrap();
    for f in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base")).unwrap() {
        let f = f.unwrap().path();
        let text = std::fs::read_to_string(&f).unwrap();
        let text = if f.ends_with("enums.txt") { text.replacen("    RM;\n    RZ;\n", "    RZ;\n    RM;\n", 1) } else { text };
        std::fs::write(new_base.join(f.file_name().unwrap()), text).unwrap();
    }
    let out = bin()
        .args(["diff", "tests/diff/old.txt", "tests/diff/old.txt", "--old-include", "spec/base/", "--new-include"])
        .arg(&new_base)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("value `RM` 0x2 -> 0x3") && text.contains("value `RZ` 0x3 -> 0x2"), "{text}");
    assert!(!text.contains("MOV"), "only the base differs: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn asm_and_disasm_round_trip_and_point_at_bad_input() {
    let dir = temp_dir("asm");
    let src = dir.join("prog.s");
    std::fs::write(&src, "FFMA R1, R2, R3, R4 ;\n@!P1 FADD.FTZ R5, -R6, 0.5 ;\n").unwrap();
    let out = bin().args(["asm", "--spec", "spec/"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let hex = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hex.lines().count(), 2);
    assert!(hex.starts_with("00000000000000040000000302017912\n"), "{hex}");
    let hex_file = dir.join("prog.hex");
    std::fs::write(&hex_file, &hex).unwrap();
    let bin_file = dir.join("prog.bin");
    assert_eq!(bin().args(["asm", "--spec", "spec/"]).arg(&src).arg("-o").arg(&bin_file).status().unwrap().code(), Some(0));
    assert_eq!(std::fs::read(&bin_file).unwrap().len(), 32);
    // `-o` onto a spec file it reads is refused, and the file kept.
    let spec = dir.join("spec");
    copy_dir(std::path::Path::new("../spec"), &spec);
    let seed = spec.join("000_halu.txt");
    let before = std::fs::read(&seed).unwrap();
    let out = bin().args(["asm", "--spec"]).arg(&spec).arg(&src).arg("-o").arg(&seed).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the spec file") && err.contains("would destroy the spec"), "{err}");
    assert_eq!(std::fs::read(&seed).unwrap(), before);
    // `-o -`: the same bytes on standard output (as `-` is standard input).
    let out = bin().args(["asm", "--spec", "spec/"]).arg(&src).args(["-o", "-"]).output().unwrap();
    assert_eq!((out.status.code(), out.stdout), (Some(0), std::fs::read(&bin_file).unwrap()));
    for words in [&hex_file, &bin_file] {
        let out = bin().args(["disasm", "--spec", "spec/"]).arg(words).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), std::fs::read_to_string(&src).unwrap());
    }
    // A byte-order mark starts neither a line of assembly nor a hex word.
    std::fs::write(&src, "\u{feff}FFMA R1, R2, R3, R4 ;\n").unwrap();
    let out = bin().args(["asm", "--spec", "spec/"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&hex_file, format!("\u{feff}{}\nzz\n", hex.lines().next().unwrap())).unwrap();
    let out = bin().args(["disasm", "--spec", "spec/", "--color", "never"]).arg(&hex_file).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("prog.hex:2:1") && err.contains("`zz` is not a hex word"), "{err}");
    // Bad hex lines: E042 at the offending character of each, and the words
    // around them are still disassembled, in order.
    let first = hex.lines().next().unwrap();
    std::fs::write(&hex_file, format!("{first}\n  0x12z4\nqq\n{first}\n")).unwrap();
    let out = bin().args(["disasm", "--spec", "spec/", "--color", "never"]).arg(&hex_file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("FFMA") && lines[3] == lines[0] && lines[1] == "// not a word" && lines[2] == lines[1], "{stdout}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error[E042]") && err.contains("prog.hex:2:7") && err.contains("`0x12z4` is not a hex word"), "{err}");
    assert!(err.contains("prog.hex:3:1") && err.contains("`qq` is not a hex word"), "{err}");
    assert!(err.ends_with("\n2 errors, 0 warnings\n"), "{err}");
    // The caret alone under a bad line: the file as a whole is hex words.
    assert!(!err.contains("neither hex words nor"), "{err}");
    // A word that does not decode: E041 at its line.
    std::fs::write(&hex_file, format!("{}\nffffffffffffffffffffffffffffffff\n", hex.lines().next().unwrap())).unwrap();
    let out = bin().args(["disasm", "--spec", "spec/", "--color", "never"]).arg(&hex_file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "FFMA R1, R2, R3, R4 ;\n.word 0xffffffffffffffffffffffffffffffff ; // does not decode: unknown opcode\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error[E041]") && err.contains("prog.hex:2:1"), "{err}");
    // No word is lost: the text assembles back to the same words.
    let back = dir.join("back.s");
    std::fs::write(&back, &text).unwrap();
    let out = bin().args(["asm", "--spec", "spec/"]).arg(&back).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{}\nffffffffffffffffffffffffffffffff\n", hex.lines().next().unwrap()));
    // A word with a bit no field covers (bit 100 of FADD R0, R1, R2): kept
    // as `.word`, its text a comment, with W019; exit 0.
    std::fs::write(&hex_file, "00000010000000000000000201007510\n").unwrap();
    let out = bin().args(["disasm", "--spec", "spec/", "--color", "never"]).arg(&hex_file).output().unwrap();
    let (text, err) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(text, ".word 0x00000010000000000000000201007510 ; // FADD R0, R1, R2 with bits 0x10000000000000000000000000 no field covers\n");
    assert!(err.contains("warning[W019]") && err.contains("prog.hex:1:1") && err.ends_with("0 errors, 1 warning\n"), "{err}");
    std::fs::write(&back, &text).unwrap();
    let out = bin().args(["asm", "--spec", "spec/"]).arg(&back).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "00000010000000000000000201007510\n");
    // A LEA_RRR word with `lohi` = LO, which no form writes (W026); exit 0.
    std::fs::write(&hex_file, "00001c3c000000ff0000000201007936\n").unwrap();
    let out = bin().args(["disasm", "--spec", "spec/", "--color", "never"]).arg(&hex_file).output().unwrap();
    let (text, err) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(text, ".word 0x00001c3c000000ff0000000201007936 ; // LEA_RRR: no syntax form writes this word\n");
    assert!(err.contains("warning[W026]") && err.contains("prog.hex:1:1") && err.ends_with("0 errors, 1 warning\n"), "{err}");
    // Binary words that do not decode: by index and byte range.
    std::fs::write(&bin_file, [0xFFu8; 16]).unwrap();
    let out = bin().args(["disasm", "--spec", "spec/"]).arg(&bin_file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("word 0 (bytes 0..16), 0xffffffffffffffffffffffffffffffff does not decode"), "{err}");
    // Errors without a place count against the limit on how many show.
    std::fs::write(&bin_file, [0xFFu8; 16 * 150]).unwrap();
    let out = bin().args(["disasm", "--spec", "spec/"]).arg(&bin_file).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("error[E041]").count(), 100, "{err}");
    assert!(err.contains("word 99 (bytes") && err.contains("note: 50 more errors not shown"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--spec SPEC... FILE`, as the usage line writes it: several specs after
/// one `--spec` (the last value is the file), the same as `--spec` repeated
/// and as the spec directory; and a clear usage error when nothing is left
/// for the file.
#[test]
fn spec_takes_several_values_and_the_file_comes_last() {
    let dir = temp_dir("specs");
    let src = dir.join("prog.s");
    std::fs::write(&src, "FFMA R1, R2, R3, R4 ;\nHADD2 R1, R2, R3 ;\nIADD R1, R2, R3 ;\n").unwrap();
    let parts = ["spec/base/", "spec/formats/", "spec/legacy/", "spec/simulation/", "spec/000_halu.txt", "spec/001_falu.txt", "spec/002_cvt.txt", "spec/004_ialu.txt"];
    let whole = bin().args(["asm", "--spec", "spec/"]).arg(&src).output().unwrap();
    assert_eq!(whole.status.code(), Some(0), "{}", String::from_utf8_lossy(&whole.stderr));
    assert_eq!(String::from_utf8_lossy(&whole.stdout).lines().count(), 3);
    let listed = bin().arg("asm").arg("--spec").args(parts).arg(&src).output().unwrap();
    assert_eq!(listed.status.code(), Some(0), "{}", String::from_utf8_lossy(&listed.stderr));
    assert_eq!(listed.stdout, whole.stdout);
    let repeated = bin().arg("asm").args(parts.iter().flat_map(|p| ["--spec", p])).arg(&src).output().unwrap();
    assert_eq!(repeated.stdout, whole.stdout);
    // The file first, then the specs.
    let file_first = bin().arg("asm").arg(&src).arg("--spec").args(parts).output().unwrap();
    assert_eq!(file_first.stdout, whole.stdout);
    let hex = dir.join("prog.hex");
    std::fs::write(&hex, &whole.stdout).unwrap();
    let dis = bin().arg("disasm").arg("--spec").args(parts).arg(&hex).output().unwrap();
    assert_eq!(dis.status.code(), Some(0), "{}", String::from_utf8_lossy(&dis.stderr));
    assert_eq!(String::from_utf8(dis.stdout).unwrap(), std::fs::read_to_string(&src).unwrap());
    for command in ["asm", "disasm"] {
        let out = bin().args([command, "--spec", "spec/"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(&format!("`isa-codegen {command}` needs a spec and a file")), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_that_is_not_ours_is_never_replaced() {
    let dir = temp_dir("foreign");
    // A file.
    let file = dir.join("notes.txt");
    std::fs::write(&file, "mine").unwrap();
    let r = bin().args(["spec/", "-o"]).arg(&file).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(err.contains("exists and is not a directory; nothing was written"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    // A directory the generator did not write.
    let theirs = dir.join("src");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("main.rs"), "fn main() {}").unwrap();
    let r = bin().args(["spec/", "-o"]).arg(&theirs).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(err.contains("it is a directory of other files (no `Cargo.toml`"), "{err}");
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 1);
    // A link: the exchange would replace the link, so the directory is named instead.
    #[cfg(unix)]
    {
        let link = dir.join("link");
        std::os::unix::fs::symlink(&theirs, &link).unwrap();
        let r = bin().args(["spec/", "-o"]).arg(&link).output().unwrap();
        let err = String::from_utf8(r.stderr).unwrap();
        assert!(r.status.code() == Some(1) && err.contains("is a symbolic link (to `") && err.contains("name the directory itself"), "{err}");
        std::fs::remove_file(&link).unwrap();
    }
    // `.`: named from outside, not the system's "busy".
    let r = bin().args(["spec/", "-o", "."]).output().unwrap();
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(r.status.code() == Some(1) && err.contains("name the output directory from outside it"), "{err}");
    // `--check` onto a file: the error, and no advice to run what would refuse.
    let r = bin().args(["spec/", "--check", "-o"]).arg(&file).output().unwrap();
    let err = String::from_utf8(r.stderr).unwrap();
    // It is trouble, not "stale" (2, as diff(1)).
    assert!(r.status.code() == Some(2) && err.contains("exists and is not a directory") && !err.contains("is stale: run"), "{err}");
    // So is a directory the main job would refuse to replace.
    let r = bin().args(["spec/", "--check", "-o"]).arg(&theirs).output().unwrap();
    let err = String::from_utf8(r.stderr).unwrap();
    assert!(r.status.code() == Some(2) && err.contains("so it is not replaced") && !err.contains("is stale: run"), "{err}");
    assert_eq!(std::fs::read_to_string(theirs.join("main.rs")).unwrap(), "fn main() {}");
    // Nothing else appeared beside them (no temporary or moved-aside copies).
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    // An empty directory, then the generator's own output, are replaced.
    let gen = dir.join("gen");
    std::fs::create_dir_all(&gen).unwrap();
    for _ in 0..2 {
        let r = bin().args(["spec/", "-o"]).arg(&gen).output().unwrap();
        assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
        assert!(std::fs::read_to_string(gen.join("Cargo.toml")).unwrap().starts_with("# @generated by isa-codegen"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A spec file reached twice is read once: given twice, inside a directory
/// also given, or through a symbolic link back up the tree (which used to
/// read every file 16 times, to the nesting limit, and report each type as
/// defined twice).
#[cfg(unix)]
#[test]
fn a_file_reached_twice_is_read_once() {
    let dir = temp_dir("twice");
    for f in ["isa.txt", "operands.txt", "enums.txt"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base").join(f), dir.join(f)).unwrap();
    }
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("sub/back")).unwrap();
    let out = bin().arg("check").arg(&dir).arg(dir.join("isa.txt")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("3 files:") && stdout.contains("0 errors"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the CLI offers and no other test ran: `diff --format yaml`,
/// `disasm --format hex`, standard input as `-`, a generated crate under
/// another name and runtime path, and `--color`.
#[test]
fn the_remaining_options_do_what_help_says() {
    // diff as YAML: one record per encoding change.
    let out = bin()
        .args(["diff", "tests/diff/old.txt", "tests/diff/new.txt", "--include", "spec/base/", "--format", "yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let yaml: serde_yaml::Value = serde_yaml::from_slice(&out.stdout).expect("YAML");
    let text = serde_yaml::to_string(&yaml).unwrap();
    assert!(text.contains("opcode: MOV_R") && text.contains("field: ra") && text.contains("change: moved"), "{text}");

    // Hex words forced, from standard input; a binary file forced as hex
    // is an error at its first non-hex byte.
    let dir = temp_dir("options");
    let run_stdin = |args: &[&str], input: &[u8]| {
        use std::io::Write;
        let mut child = bin()
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let o = child.wait_with_output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (code, hex, err) = run_stdin(&["asm", "--spec", "spec/", "-"], b"MOV R1, R2 ;\n");
    assert_eq!(code, Some(0), "{err}");
    // Worked out from the spec: MOV optype 0x41, stype R (0), pg = PT (7),
    // rd = 1 at bits 16..23, rb = 2 at bits 32..39.
    assert_eq!(hex, "00000000000000000000000200017041\n");
    let (code, text, err) = run_stdin(&["disasm", "--spec", "spec/", "--format", "hex", "-"], hex.as_bytes());
    assert_eq!((code, text.as_str()), (Some(0), "MOV R1, R2 ;\n"), "{err}");
    let (code, _, err) = run_stdin(&["disasm", "--spec", "spec/", "--format", "hex", "-"], &[0x41, 0x70, 0x01, 0x00, 0xFF]);
    assert_eq!(code, Some(1));
    assert!(err.contains("error[E042]"), "{err}");

    // Another crate name and runtime path: the Cargo.toml says so, and
    // `--check` with the same options finds it up to date.
    let out = dir.join("named");
    let o = out.to_str().unwrap();
    let opts = ["--crate-name", "my-isa", "--runtime-path", "../rt"];
    let r = bin().args(["spec/", "-o", o]).args(opts).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let toml = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(toml.contains("name = \"my-isa\"") && toml.contains("path = \"../rt\""), "{toml}");
    assert_eq!(bin().args(["spec/", "-o", o, "--check"]).args(opts).output().unwrap().status.code(), Some(0));
    assert_eq!(bin().args(["spec/", "-o", o, "--check"]).output().unwrap().status.code(), Some(1), "the default name differs");

    // Colour only when asked (standard error is not a terminal here).
    let broken = bin().args(["check", "tests/diff/missing.txt"]).output().unwrap();
    assert!(!broken.stderr.contains(&0x1b), "no escapes by default");
    let always = bin().args(["check", "--color", "always", "tests/diff/missing.txt"]).output().unwrap();
    assert!(always.stderr.contains(&0x1b), "{}", String::from_utf8_lossy(&always.stderr));
    // `--color` is global: it may also come before the subcommand.
    let before = bin().args(["--color", "always", "check", "tests/diff/missing.txt"]).output().unwrap();
    assert_eq!(before.stderr, always.stderr);
    let never = bin().args(["--color=never", "check", "tests/diff/missing.txt"]).output().unwrap();
    assert!(!never.stderr.contains(&0x1b) && !never.stderr.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An example line with a huge operand text: its W014 quotes it shortened,
/// so `check` writes kilobytes, not the line's megabyte.
#[test]
fn a_huge_example_line_is_quoted_short() {
    let dir = temp_dir("huge-example");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let copy = Command::new("cp").arg("-r").arg(&root).arg(dir.join("spec")).status().unwrap();
    assert!(copy.success());
    let ialu = dir.join("spec/004_ialu.txt");
    let text = std::fs::read_to_string(&ialu).unwrap();
    let long = format!("IADD R0, R1, R2{} garbage ;", " ".repeat(1 << 20));
    std::fs::write(&ialu, text.replacen("IADD R0, R1,        R2 ; // R0 = R1 + R2", &long, 1)).unwrap();
    let out = bin().args(["check", "--color", "never"]).arg(dir.join("spec")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let w014: Vec<&str> = err.lines().filter(|l| l.starts_with("warning[W014]") && l.contains("garbage")).collect();
    assert_eq!(w014.len(), 1, "{}", &err[..err.len().min(4000)]);
    assert!(w014[0].len() < 200, "{}", &w014[0][..w014[0].len().min(300)]);
    assert!(out.stderr.len() < 64 * 1024, "{} bytes of diagnostics", out.stderr.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An editor's lock file (Emacs' `.#x.txt`, a dangling link) and other
/// hidden entries in a spec directory are not the spec's: skipped. A
/// broken link given by name says so.
#[cfg(unix)]
#[test]
fn hidden_entries_are_skipped_and_broken_links_named() {
    let dir = temp_dir("hidden");
    let spec = dir.join("spec");
    std::fs::create_dir_all(&spec).unwrap();
    for f in ["enums.txt", "formats.txt", "isa.txt", "operands.txt"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base").join(f), spec.join(f)).unwrap();
    }
    std::os::unix::fs::symlink("user@host.12345:1700000000", spec.join(".#isa.txt")).unwrap();
    std::fs::write(spec.join("._isa.txt"), b"\x00\x05\x16\x07 AppleDouble").unwrap();
    std::fs::create_dir_all(spec.join(".git")).unwrap();
    std::fs::write(spec.join(".git/notes.txt"), "not a spec").unwrap();
    let r = bin().arg("check").arg(&spec).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(0), "{err}");
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("4 files:"), "{err}");
    let r = bin().arg("check").arg(spec.join(".#isa.txt")).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains(".#isa.txt: a broken symbolic link (what it names does not exist)"), "{err}");
    std::os::unix::fs::symlink("loop.txt", dir.join("loop.txt")).unwrap();
    let r = bin().arg("check").arg(dir.join("loop.txt")).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("loop.txt: a symbolic link in a loop"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Generated files name spec files below the spec's root, not the current
/// directory: `--check` from a subdirectory, or with an absolute path,
/// finds the checked-in crate up to date, and the IR dump is the same.
#[test]
fn the_output_does_not_depend_on_the_current_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sub = root.join("isa-dsl");
    let r = bin().current_dir(&sub).args(["../spec", "-o", "../generated", "--check"]).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let abs = std::fs::canonicalize(&root).unwrap();
    let r = bin().current_dir(std::env::temp_dir()).arg(abs.join("spec")).arg("-o").arg(abs.join("generated")).arg("--check").output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let here = bin().args(["ir", "spec/"]).output().unwrap();
    let there = bin().current_dir(&sub).args(["ir", "../spec"]).output().unwrap();
    assert!(here.status.success() && here.stdout == there.stdout, "the IR dump differs");
    // Diagnostics still name files from where the command runs.
    let err = String::from_utf8(there.stderr).unwrap();
    assert!(err.contains("--> ../spec/000_halu.txt:"), "{err}");
}

/// Help that cannot be written is a failure, as any output's (clap's own
/// exit ignores the write error).
#[cfg(target_os = "linux")]
#[test]
fn help_to_a_full_disk_fails() {
    for args in [&["--help"][..], &["--version"], &["check", "--help"]] {
        let r = bin().args(args).stdout(std::fs::File::create("/dev/full").unwrap()).output().unwrap();
        assert_eq!(r.status.code(), Some(1), "{args:?}");
        assert!(String::from_utf8_lossy(&r.stderr).contains("cannot write the output: No space left on device"), "{args:?}");
    }
    let r = bin().arg("--bogus").output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    // A usage error stays 2 when even its message cannot be written.
    let r = bin().arg("--bogus").stderr(std::fs::File::create("/dev/full").unwrap()).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
}

/// The user's own files are not spec files: `disasm` of binary words
/// (valid UTF-8 when every byte is below 0x80) and `asm` of a program with
/// a control character got W039 "control character in a spec file"
/// (review 49, F01), which `isa` does not give.
#[test]
fn inputs_are_not_linted_as_spec_files() {
    let dir = temp_dir("inputs-not-specs");
    let (bin_file, ctl) = (dir.join("two.bin"), dir.join("ctl.s"));
    std::fs::write(dir.join("two.s"), "FADD R0, R1, R2\nIMAD R0, R1, R2, R3\n").unwrap();
    std::fs::write(&ctl, "FADD R0, R1, R2 \u{1}\n").unwrap();
    let r = bin().args(["asm", "--spec", "spec/", "-o"]).arg(&bin_file).arg(dir.join("two.s")).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(std::str::from_utf8(&std::fs::read(&bin_file).unwrap()).is_ok(), "the words should be valid UTF-8 for this test");
    let r = bin().args(["disasm", "--color", "never", "--spec", "spec/"]).arg(&bin_file).output().unwrap();
    assert_eq!((r.status.code(), String::from_utf8_lossy(&r.stderr).as_ref()), (Some(0), ""));
    assert_eq!(String::from_utf8_lossy(&r.stdout), "FADD R0, R1, R2 ;\nIMAD R0, R1, R2, R3 ;\n");
    let r = bin().args(["asm", "--color", "never", "--spec", "spec/"]).arg(&ctl).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1));
    assert!(err.contains("error[E040]") && !err.contains("W039") && err.contains("1 error, 0 warnings"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One file of the spec checked alone: each name it uses that a file
/// beside it declares is said to be there (it was 13 undefined types, an
/// undefined parent, no `__DefIsa` and 24 optypes without hooks, with
/// `Optype` guessed as `I8Type`, and not a word on where they are).
#[test]
fn a_file_checked_alone_is_told_where_its_names_are() {
    let out = bin().args(["check", "--color", "never", "spec/004_ialu.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    for note in [
        "`__DefIsa GPU` is declared in spec/base/isa.txt:14, a file not among those given (give `spec` for the whole spec)",
        "`ALL` is declared in spec/base/isa.txt:32, a file not among those given",
        "`Optype` is declared in spec/base/enums.txt:7, a file not among those given",
        "`Reg` is declared in spec/base/operands.txt:15, a file not among those given",
        "`IADD` is declared in spec/simulation/hooks.txt:",
    ] {
        assert!(err.contains(note), "no `{note}` in:\n{err}");
    }
    assert!(!err.contains("did you mean `I8Type`"), "{err}");
    // Every error and warning about a name is told where it is, each its own.
    let about_names: Vec<&str> = err.split("\n\n").filter(|d| ["error[E020]", "error[E021]", "error[E038]", "warning[W018]"].iter().any(|c| d.trim_start().starts_with(c))).collect();
    assert!(about_names.len() > 30, "{}", about_names.len());
    for d in about_names {
        assert_eq!(d.matches("a file not among those given").count(), 1, "{d}");
    }
    // The whole spec: nothing to say. A test spec among others, each with
    // its own `__DefIsa`: no spec beside it to point into.
    let out = bin().args(["check", "--color", "never", "spec/"]).output().unwrap();
    assert!(!String::from_utf8(out.stderr).unwrap().contains("not among those given"));
    let out = bin().args(["check", "--color", "never", "tests/specs/fail/e020_undefined_type.txt"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error[E020]") && !err.contains("not among those given"), "{err}");
}
