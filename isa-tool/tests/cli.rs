//! The `isa` binary as a user runs it: its words equal those of the
//! interpreted `isa-codegen asm --spec spec/` (run from the IR), its text
//! reads back, and bad input fails cleanly.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `isa` binary, with the default limit on shown diagnostics.
fn isa_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_isa"));
    c.env_remove("ISA_MAX_DIAGNOSTICS");
    c
}

fn isa(args: &[&str]) -> (i32, String, String) {
    let out = isa_command().args(args).output().expect("runs");
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
    assert_eq!(hex.lines().count(), 74);
    let fe = isa_dsl::load(&[root().join("spec")]);
    let (words, errors) = isa_codegen::asm::assemble_text(&fe.isa, &text);
    assert!(errors.is_empty());
    assert_eq!(hex, isa_runtime::text::words::hex_lines(&words));
    // Binary output, then disassembly of both forms.
    let bin = dir.join("prog.bin");
    assert_eq!(isa(&["asm", src.to_str().unwrap(), "-o", bin.to_str().unwrap()]).0, 0);
    assert_eq!(std::fs::read(&bin).unwrap(), isa_runtime::text::words::to_bytes(&words));
    // `-o -`: the same bytes on standard output (as `-` is standard input).
    let out = isa_command().args(["asm", src.to_str().unwrap(), "-o", "-"]).output().unwrap();
    assert_eq!((out.status.code(), out.stdout), (Some(0), isa_runtime::text::words::to_bytes(&words)));
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
    std::fs::write(&src, "L:\nFADD R1, R2, R3\nFADD R1, R2, R999\nFMULL R1, R2, R3\nL: SETGPR\n").unwrap();
    let out = dir.join("bad.bin");
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(!out.exists(), "nothing written on error");
    assert!(err.contains("bad.s:3:14"), "{err}");
    assert!(err.contains("R999"), "{err}");
    assert!(err.contains("bad.s:4:1") && err.contains("did you mean `FMUL`"), "{err}");
    // Two errors on line 5, in the order of their places: the label's (5:1),
    // then the line's own, after the mnemonic (5:10).
    let label = err.find("bad.s:5:1\n").unwrap_or(usize::MAX);
    let own = err.find("bad.s:5:10\n").unwrap_or(0);
    assert!(label < own && err.contains("missing operand `R[..]`"), "{err}");
    // The same layout, codes and summary as `isa-codegen asm`: the front
    // end's diagnostics for the interpreted assembler's errors.
    let text = std::fs::read_to_string(&src).unwrap();
    let fe = isa_dsl::load(&[root().join("spec")]);
    let (_, errors) = isa_codegen::asm::assemble_text(&fe.isa, &text);
    let mut sources = isa_dsl::SourceMap::new();
    let mut diags = isa_dsl::Diagnostics::default();
    isa_dsl::add_input(&mut sources, &src.display().to_string(), text.as_bytes(), &mut diags);
    for e in errors {
        let span = isa_dsl::Span::new(isa_dsl::FileId(0), e.offset, e.offset + e.len);
        diags.push(isa_dsl::Diagnostic::new(isa_dsl::Code::AsmError, span, e.message));
    }
    diags.sort_by_place();
    assert_eq!(err, format!("{}{}; nothing written\n", diags.render(&sources, false), diags.summary()));
    // Control sequences and bidi overrides in the input are not echoed to the terminal.
    std::fs::write(&src, "FOO\u{1b}[31m R0\nMOV R1, R\u{202E}2\n").unwrap();
    let (code, _, err) = isa(&["asm", src.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{202E}') && err.contains("FOO?[31m"), "{err:?}");
    // A byte-order mark is not text (editors on Windows write one), nor CRLF.
    std::fs::write(&src, "\u{feff}FADD R1, R2, R3\r\n").unwrap();
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let hex = dir.join("bom.hex");
    std::fs::write(&hex, format!("\u{feff}{stdout}")).unwrap();
    let (code, text, err) = isa(&["disasm", hex.to_str().unwrap()]);
    assert_eq!((code, text.as_str()), (0, "FADD R1, R2, R3 ;\n"), "{err}");
    // Not UTF-8: the place of the first bad byte.
    std::fs::write(&src, b"FADD R1, R2, R3\nFADD R1, R2, R\xE9\n").unwrap();
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(!out.exists());
    assert!(err.contains("error[E002]: file is not valid UTF-8") && err.contains("bad.s:2:15"), "{err}");
    // Worded as the front end words it for `isa-codegen asm`: label and notes.
    assert!(err.contains("^ invalid byte sequence here\n") && err.contains("= files must be UTF-8; this one's bad bytes are read as replacement characters (U+FFFD)"), "{err}");
    // Chinese saved as GBK: the `iconv` line.
    std::fs::write(&src, b"FADD R1, R2, R3 // \xB8\xA1\xB5\xE3\n").unwrap();
    let (_, _, err) = isa(&["asm", src.to_str().unwrap()]);
    assert!(err.contains("iconv -f GB18030 -t UTF-8"), "{err}");
    // The rest of the file is still read (with replacement characters), so
    // its other errors are reported in the same run; a bad byte in a mere
    // comment still fails the file.
    std::fs::write(&src, b"FADD R1, R2, R\xE9\nFADD R1, R2\nFADD R1, R2, R3 // caf\xE9\n").unwrap();
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(!out.exists());
    assert!(err.contains("error[E002]: file is not valid UTF-8") && err.contains("bad.s:1:15"), "{err}");
    // Among the file's other errors, in place order (as `isa-codegen asm` sorts them).
    let places: Vec<(u32, u32)> = err
        .lines()
        .filter_map(|l| l.trim().strip_prefix("--> ")?.rsplit_once(".s:"))
        .filter_map(|(_, lc)| lc.split_once(':').and_then(|(l, c)| Some((l.parse().ok()?, c.parse().ok()?))))
        .collect();
    assert!(places.len() >= 3 && places.windows(2).all(|w| w[0] <= w[1]), "{places:?}\n{err}");
    assert!(err.contains("bad.s:2:"), "the line after the bad byte is assembled too: {err}");
    assert!(err.ends_with("3 errors, 0 warnings; nothing written\n"), "{err}");
    std::fs::write(&src, b"FADD R1, R2, R3 // caf\xE9\n").unwrap();
    let (code, stdout, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(!out.exists());
    assert!(err.contains("bad.s:1:23") && err.ends_with("1 error, 0 warnings; nothing written\n"), "{err}");
    // A file that is neither hex text nor whole 16-byte words.
    std::fs::write(&src, [1u8, 2, 3]).unwrap();
    let (code, _, err) = isa(&["disasm", src.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("the file's 3 bytes are not a whole 16-byte word"), "{err}");
    // Whole words and a partial one: the words are disassembled, the tail
    // is an error after them.
    let mut bytes = 0x0201007510u128.to_le_bytes().to_vec();
    bytes.extend_from_slice(&[1, 2, 3]);
    std::fs::write(&src, &bytes).unwrap();
    let (code, stdout, err) = isa(&["disasm", src.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (1, "FADD R0, R1, R2 ;\n// not a word\n"), "{err}");
    assert!(err.contains("the last 3 bytes (bytes 16..19) are not a whole 16-byte word"), "{err}");
    // Hex text with a bad line: its place, even though the file's 32 bytes
    // would make two binary words.
    let hex = dir.join("words.hex");
    // Reading goes on: every bad line is reported at its offending character.
    std::fs::write(&hex, "00000000000000040000000302017912\n  0x12z4 // x\nqq\n").unwrap();
    let (code, stdout, err) = isa(&["disasm", hex.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (1, "FFMA R1, R2, R3, R4 ;\n// not a word\n// not a word\n"));
    assert!(err.contains("words.hex:2:7") && err.contains("`0x12z4` is not a hex word"), "{err}");
    assert!(err.contains("words.hex:3:1") && err.contains("`qq` is not a hex word"), "{err}");
    assert!(err.ends_with("\n2 errors, 0 warnings\n"), "{err}");
    // A word that does not decode: its line, the word named once; the
    // other words are still printed.
    std::fs::write(&hex, "00000000000000040000000302017912\nffffffffffffffffffffffffffffffff\n").unwrap();
    let (code, stdout, err) = isa(&["disasm", hex.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "FFMA R1, R2, R3, R4 ;\n.word 0xffffffffffffffffffffffffffffffff ; // does not decode: unknown opcode\n");
    assert!(err.contains("words.hex:2:1") && err.contains("0xffffffffffffffffffffffffffffffff does not decode: unknown opcode"), "{err}");
    assert_eq!(err.matches("0xffff").count(), 1, "{err}");
    // No word is lost: the text assembles back to the same words.
    let text = dir.join("back.s");
    std::fs::write(&text, &stdout).unwrap();
    let (code, words, asm_err) = isa(&["asm", text.to_str().unwrap()]);
    assert_eq!((code, words.as_str(), asm_err.as_str()), (0, "00000000000000040000000302017912\nffffffffffffffffffffffffffffffff\n", ""));
    // A word with a bit no field covers (bit 100 of FADD R0, R1, R2): kept
    // as `.word`, its text a comment, with a warning; exit 0.
    std::fs::write(&hex, "00000010000000000000000201007510\n").unwrap();
    let (code, stdout, err) = isa(&["disasm", hex.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, ".word 0x00000010000000000000000201007510 ; // FADD R0, R1, R2 with bits 0x10000000000000000000000000 no field covers\n");
    assert!(err.contains("warning[W019]") && err.contains("words.hex:1:1") && err.ends_with("0 errors, 1 warning\n"), "{err}");
    std::fs::write(&text, &stdout).unwrap();
    let (code, words, _) = isa(&["asm", text.to_str().unwrap()]);
    assert_eq!((code, words.as_str()), (0, "00000010000000000000000201007510\n"));
    // A LEA_RRR word with `lohi` = LO: its form cannot set `rc` (W004), so
    // no form writes it: `.word` with the reason, W026, exit 0.
    std::fs::write(&hex, "00001c3c000000ff0000000201007936\n").unwrap();
    let (code, stdout, err) = isa(&["disasm", hex.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, ".word 0x00001c3c000000ff0000000201007936 ; // LEA_RRR: no syntax form writes this word\n");
    assert!(err.contains("warning[W026]") && err.contains("words.hex:1:1") && err.ends_with("0 errors, 1 warning\n"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_prints_the_final_state_and_rejects_bad_input() {
    let dir = std::env::temp_dir().join(format!("isa-run-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("axpy.s");
    let state = dir.join("state.yaml");
    std::fs::write(&prog, "// R0 = R1 * R2 + R0, then add 1 where P0 holds\nFFMA R0, R1, R2, R0 ;\n@P0 FADD R3, R0, 1 ;\n").unwrap();
    std::fs::write(&state, "active: 0x3\nregs:\n  R0: 1.0\n  R1: 2.0\n  R2: 0.5\n  P0: [true, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]\n").unwrap();
    let (code, out, err) = isa(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // 2 * 0.5 + 1 = 2.0 (0x40000000) on the two active lanes; lane 0 adds 1: 3.0 (0x40400000).
    assert!(out.starts_with("active: 0x00000003\n"), "{out}");
    let r0 = out.lines().find(|l| l.trim_start().starts_with("R0:")).unwrap();
    assert!(r0.contains("[0x40000000, 0x40000000, 0x3f800000"), "{r0}");
    let r3 = out.lines().find(|l| l.trim_start().starts_with("R3:")).unwrap();
    assert!(r3.contains("[0x40400000, 0x00000000, 0x00000000"), "{r3}");

    // The printed state reads back as the same state: a program that
    // changes nothing prints it unchanged.
    std::fs::write(&state, &out).unwrap();
    let nop = dir.join("nop.s");
    std::fs::write(&nop, "// nothing\n").unwrap();
    let (code, same, err) = isa(&["run", nop.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!((code, same.as_str()), (0, out.as_str()), "{err}");
    // And the program runs on it: R0 = 2 * 0.5 + 2 = 3.0 (0x40400000) on the
    // active lanes; lane 0 (P0) adds 1: R3 = 4.0 (0x40800000).
    let (code, again, _) = isa(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!(code, 0);
    let r0 = again.lines().find(|l| l.trim_start().starts_with("R0:")).unwrap();
    assert!(r0.contains("[0x40400000, 0x40400000, 0x3f800000"), "{r0}");
    let r3 = again.lines().find(|l| l.trim_start().starts_with("R3:")).unwrap();
    assert!(r3.contains("[0x40800000, 0x00000000, 0x00000000"), "{r3}");

    std::fs::write(&state, "regs:\n  R0: 1\n  Q7: 2\n").unwrap();
    let (code, out, err) = isa(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("error[E053]: `Q7` is not a register") && err.contains("state.yaml:3:3"), "{err}");
    assert!(err.ends_with("1 error, 0 warnings; the program was not run\n"), "{err}");

    // A `.word` with bits no field covers runs without them, and says so (W019, as `isa disasm`).
    let (code, out, err) = isa_stdin_env(&["run", "-"], b"L: .word 0x00004000000000000000000500017241\n", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("R1: 0x00000005"), "{out}");
    assert!(err.contains("warning[W019]: 0x00004000000000000000000500017241 has bits 0x4000000000000000000000000000 no field of MOV_I covers") && err.contains("<stdin>:1:10"), "{err}");
    assert!(err.ends_with("0 errors, 1 warning\n"), "{err}");
    // Standard input is read once: not for both the program and the state.
    let (code, out, err) = isa_stdin_env(&["run", "-", "--state", "-"], b"MOV R0, 0x5 ;\n", &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("cannot both be `-`"), "{err}");

    std::fs::write(&state, [0xFFu8, 0xFE, 0x00, 0x12]).unwrap();
    let (code, _, err) = isa(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("error[E002]: file is not valid UTF-8") && err.contains("state.yaml:1:1"), "{err}");

    std::fs::write(&prog, "FFMA R0, R1, R2, R0 ;\nFADD R3, R0, Q1 ;\n").unwrap();
    let (code, _, err) = isa(&["run", prog.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("error[E040]") && err.contains("axpy.s:2:"), "{err}");

    // An instruction that faults: its line, and nothing on standard output.
    std::fs::write(&prog, "MOV R0, R1 ;\nGETGPR R1, R[UR1+0xff] ;\n").unwrap();
    std::fs::write(&state, "regs: {UR1: 200}\n").unwrap();
    let (code, out, err) = isa(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("error[E052]: GETGPR") && err.contains("register index 455") && err.contains("axpy.s:2:1"), "{err}");
    assert!(err.ends_with("1 error, 0 warnings; the run stopped at the fault\n"), "{err}");

    // `run` reads a program as `asm` does: lines ending at a lone CR, a
    // label defined twice, the place of an error after a byte-order mark.
    std::fs::write(&prog, "MOV R0, 0x5\rIADD R1, R0, R0\r").unwrap();
    let (code, out, err) = isa(&["run", prog.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("R1: 0x0000000a"), "{out}");
    for text in ["a: MOV R1, 0x5\na: MOV R2, 0x6\n", "\u{feff}MOV R1, 0x5\nMOV R0\n"] {
        std::fs::write(&prog, text).unwrap();
        let (code, _, run_err) = isa(&["run", prog.to_str().unwrap()]);
        let (asm_code, _, asm_err) = isa(&["asm", prog.to_str().unwrap()]);
        assert_eq!((code, asm_code), (1, 1), "{run_err}");
        // The same report; only the last words differ (nothing run, nothing written).
        assert_eq!(run_err.strip_suffix("the program was not run\n"), asm_err.strip_suffix("nothing written\n"));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `isa` with `input` on standard input.
fn isa_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    isa_stdin_env(args, input, &[])
}

/// [`isa_stdin`] with environment variables set.
fn isa_stdin_env(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> (i32, String, String) {
    use std::io::Write;
    let mut child = isa_command()
        .args(args)
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // A command that refuses its arguments may exit before reading its input.
    match child.stdin.take().expect("piped").write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("writes"),
    }
    let out = child.wait_with_output().expect("waits");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Standard input as `-`, the words format told rather than guessed, an
/// output that would overwrite the source refused, and a replaced output
/// file keeping its permissions.
#[test]
fn stdin_formats_and_outputs_behave_as_a_user_expects() {
    let dir = std::env::temp_dir().join(format!("isa-tool-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `-` reads standard input, for both commands.
    let (code, hex, err) = isa_stdin(&["asm", "-"], b"MOV R1, R2\n");
    assert_eq!((code, hex.as_str()), (0, "00000000000000000000000200017041\n"), "{err}");
    let (code, text, err) = isa_stdin(&["disasm", "-"], hex.as_bytes());
    assert_eq!((code, text.as_str()), (0, "MOV R1, R2 ;\n"), "{err}");
    // The same 16 bytes, as hex text or as one binary word.
    let digits = dir.join("digits");
    std::fs::write(&digits, "0000000200017041").unwrap();
    let (code, text, _) = isa(&["disasm", digits.to_str().unwrap()]);
    assert_eq!((code, text.as_str()), (0, "MOV R1, R2 ;\n"));
    let (code, _, err) = isa(&["disasm", "--format", "binary", digits.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("0x31343037313030303230303030303030 does not decode"), "{err}");
    // A stray byte in a hex file is reported, not read as binary.
    let stray = dir.join("stray.hex");
    std::fs::write(&stray, b"00000000000000000000000200017041\n\xff000000000000000000000000000000\n").unwrap();
    let (code, _, err) = isa(&["disasm", stray.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("byte 0xff at line 2, column 1 is not text in a hex words file"), "{err}");
    // `-o` onto the source is refused, and the source is kept.
    let src = dir.join("p.s");
    std::fs::write(&src, "MOV R1, R2\n").unwrap();
    let (code, _, err) = isa(&["asm", src.to_str().unwrap(), "-o", src.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the input file"), "{err}");
    assert_eq!(std::fs::read_to_string(&src).unwrap(), "MOV R1, R2\n");
    // Also when standard input is the file (`isa asm - -o p.s < p.s`).
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_isa"))
        .args(["asm", "-", "-o", src.to_str().unwrap()])
        .stdin(std::fs::File::open(&src).unwrap())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("is the input file"));
    assert_eq!(std::fs::read_to_string(&src).unwrap(), "MOV R1, R2\n");
    // A replaced output keeps its permissions.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let out = dir.join("p.bin");
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o751)).unwrap();
        let (code, _, err) = isa(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o751);
        assert_eq!(std::fs::read(&out).unwrap().len(), 16);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flood_of_errors_shows_the_first_hundred_and_counts_the_rest() {
    let bad: String = (0..150).map(|i| format!("FOO R{i}\n")).collect();
    let (code, _, err) = isa_stdin(&["asm", "-"], bad.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(err.matches("error[E040]").count(), 100, "{err}");
    assert!(err.contains("<stdin>:100:1") && !err.contains("<stdin>:101:1"), "{err}");
    assert!(err.ends_with("note: 50 more errors not shown; ISA_MAX_DIAGNOSTICS=0 shows all\n\n150 errors, 0 warnings; nothing written\n"), "{err}");
    // The variable lifts or moves the limit.
    for (limit, shown) in [("0", 150), ("7", 7)] {
        let (_, _, err) = isa_stdin_env(&["asm", "-"], bad.as_bytes(), &[("ISA_MAX_DIAGNOSTICS", limit)]);
        assert_eq!(err.matches("error[E040]").count(), shown, "ISA_MAX_DIAGNOSTICS={limit}");
    }
    // A value that is not a number: the default holds, and the note says why.
    let (_, _, err) = isa_stdin_env(&["asm", "-"], bad.as_bytes(), &[("ISA_MAX_DIAGNOSTICS", "abc")]);
    assert_eq!(err.matches("error[E040]").count(), 100, "{err}");
    assert!(err.contains("ISA_MAX_DIAGNOSTICS=0 shows all (`ISA_MAX_DIAGNOSTICS=abc` is not a number: the default, 100, holds)"), "{err}");
    // A number past the machine's: too large, not "not a number".
    let (_, _, err) = isa_stdin_env(&["asm", "-"], bad.as_bytes(), &[("ISA_MAX_DIAGNOSTICS", "99999999999999999999999")]);
    assert!(err.contains("(`ISA_MAX_DIAGNOSTICS=99999999999999999999999` is too large: the default, 100, holds)"), "{err}");
}

/// A binary file's words have no line: their diagnostics come in word
/// order (`word 2` before `word 10`, which a sort by message text swapped),
/// as `isa-codegen disasm` gives them.
#[test]
fn binary_words_are_reported_in_file_order() {
    let bytes: Vec<u8> = (0..12).flat_map(|_| u128::MAX.to_le_bytes()).collect();
    let (code, out, err) = isa_stdin(&["disasm", "--format", "binary", "-"], &bytes);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 12, "{out}");
    let order: Vec<usize> = err
        .lines()
        .filter_map(|l| l.split("word ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(order, (0..12).collect::<Vec<_>>(), "{err}");
}

/// A character the terminal would not show (a zero-width space pasted
/// with a mnemonic, a byte-order mark inside the file, a NUL) is shown as
/// `?`s, and a note names each one and its column, so the user can find
/// and delete it.
#[test]
fn invisible_characters_are_named_where_they_are() {
    let text = "MOV R1, R2 ;\nMOV\u{200B} R1, R2 ;\n\u{FEFF}MOV R1, R2 ;\nMOV R1, R2\0 ;\n";
    let (code, out, err) = isa_stdin(&["asm", "-"], text.as_bytes());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("each byte as `?`")).collect();
    assert_eq!(
        notes,
        [
            "  = line 2 holds characters that do not show, each byte as `?`: U+200B ZERO WIDTH SPACE at column 4",
            "  = line 3 holds characters that do not show, each byte as `?`: U+FEFF BYTE ORDER MARK at column 1",
            "  = line 4 holds characters that do not show, each byte as `?`: U+0000 NULL at column 11",
        ],
        "{err}"
    );
    // Nothing invisible, no note.
    let (code, _, err) = isa_stdin(&["asm", "-"], b"FOO R1 ;\n");
    assert_eq!(code, 1);
    assert!(!err.contains("each byte as `?`"), "{err}");
}

/// A full-width character typed by an input method (`；`, `，`) is named in
/// the error of its line, whatever the error is.
#[test]
fn full_width_punctuation_is_named() {
    let (code, out, err) = isa_stdin(&["asm", "-"], "MOV R1, R2；\nMOV R1，R2;\nMOV R1, R2;\n".as_bytes());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("(the line holds `；` (U+FF1B), the full-width form of `;`)\n  --> <stdin>:1:"), "{err}");
    assert!(err.contains("(the line holds `，` (U+FF0C), the full-width form of `,`)\n  --> <stdin>:2:"), "{err}");
    assert!(err.contains("2 errors"), "{err}");
}

/// Help that cannot be written is a failure, as any output's.
#[cfg(target_os = "linux")]
#[test]
fn help_to_a_full_disk_fails() {
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_isa")).arg("--help").stdout(std::fs::File::create("/dev/full").unwrap()).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("cannot write the output"));
}

/// `isa asm -o x.bin` writes a temporary file beside `x.bin` and renames
/// it; a run killed before the rename left it behind. The next run removes
/// those of runs that are gone and untouched for ten minutes, and leaves a
/// live run's, or a fresh one (a run in another PID namespace), alone.
#[cfg(target_os = "linux")]
#[test]
fn temporary_files_of_killed_runs_are_removed() {
    let dir = std::env::temp_dir().join(format!("isa-dead-temps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.s"), "IADD R1, R2, R3 ;\n").unwrap();
    // A process that has exited: its PID names no process now.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = dir.join(format!(".x.bin.tmp-{}", gone.id()));
    let fresh = dir.join(format!(".x.bin.tmp-{}-1", gone.id()));
    let live = dir.join(format!(".x.bin.tmp-{}", std::process::id()));
    let other = dir.join(format!(".y.bin.tmp-{}", gone.id()));
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for f in [&dead, &fresh, &live, &other] {
        std::fs::write(f, b"half a word").unwrap();
        if f != &fresh {
            std::fs::File::options().write(true).open(f).unwrap().set_modified(an_hour_ago).unwrap();
        }
    }
    let (code, _, err) = isa(&["asm", "-o", dir.join("x.bin").to_str().unwrap(), dir.join("a.s").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(dir.join("x.bin")).unwrap().len(), 16);
    assert!(!dead.exists(), "the dead run's temporary file is left");
    assert!(fresh.exists() && live.exists() && other.exists(), "a fresh or live run's file, or another output's, was removed");
    std::fs::remove_dir_all(&dir).unwrap();
}
