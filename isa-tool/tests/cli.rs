//! The `isa` binary as a user runs it: its words equal those of the
//! interpreted `isa-codegen asm --spec spec/` (run from the IR), its text
//! reads back, and bad input fails cleanly.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn isa(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_isa")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Every seed example that assembles, as one program.
fn program() -> String {
    isa_codegen_examples().join("\n") + "\n"
}

fn isa_codegen_examples() -> Vec<String> {
    // The examples the README lists as assembling are the lines `isa-codegen
    // check` accepts; the interpreted assembler decides which those are.
    let fe = isa_dsl::load(&[root().join("spec")]);
    let asm = isa_codegen::asm::Assembler::new(&fe.isa);
    fe.isa
        .optypes
        .iter()
        .flat_map(|o| o.examples.iter().map(|e| e.text.clone()))
        .filter(|l| matches!(asm.assemble_line(l), Ok(Some(_))))
        .collect()
}

#[test]
fn assembles_like_the_interpreted_path_and_round_trips() {
    let dir = std::env::temp_dir().join(format!("isa-tool-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("prog.s");
    let text = program();
    std::fs::write(&src, &text).unwrap();
    let (code, hex, err) = isa(&["asm", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(hex.lines().count(), 72);
    let fe = isa_dsl::load(&[root().join("spec")]);
    let (words, errors) = isa_codegen::asm::assemble_text(&fe.isa, &text);
    assert!(errors.is_empty());
    assert_eq!(hex, isa_runtime::text::words::hex_lines(&words));
    // Binary output, then disassembly of both forms.
    let bin = dir.join("prog.bin");
    assert_eq!(isa(&["asm", src.to_str().unwrap(), "-o", bin.to_str().unwrap()]).0, 0);
    assert_eq!(std::fs::read(&bin).unwrap(), isa_runtime::text::words::to_bytes(&words));
    let (code, from_bin, err) = isa(&["disasm", bin.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let hexfile = dir.join("prog.hex");
    std::fs::write(&hexfile, &hex).unwrap();
    assert_eq!(isa(&["disasm", hexfile.to_str().unwrap()]).1, from_bin);
    // The disassembly assembles to the same words.
    let again = dir.join("again.s");
    std::fs::write(&again, &from_bin).unwrap();
    assert_eq!(isa(&["asm", again.to_str().unwrap()]).1, hex);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_lines_are_reported_with_position_and_nothing_is_written() {
    let dir = std::env::temp_dir().join(format!("isa-tool-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("bad.s");
    std::fs::write(&src, "FADD R1, R2, R3\nFADD R1, R2, R999\nFMULL R1, R2, R3\n").unwrap();
    let out = dir.join("bad.bin");
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(!out.exists(), "nothing written on error");
    assert!(err.contains("bad.s:2:14"), "{err}");
    assert!(err.contains("R999"), "{err}");
    assert!(err.contains("bad.s:3:1") && err.contains("did you mean `FMUL`"), "{err}");
    // A file that is neither hex text nor whole 16-byte words.
    std::fs::write(&src, [1u8, 2, 3]).unwrap();
    let (code, _, err) = isa(&["disasm", src.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not a whole number of 16-byte words"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
