//! `isa`: the built-in ISA's assembler and disassembler as a command. It
//! links the checked-in generated crate (its `FromStr`/`Display` fast path)
//! and reads no spec files.
//!
//! * `isa asm FILE.s [-o FILE.bin]`: one 32-digit hex word per instruction
//!   (most significant digit first), or 16-byte little-endian words;
//! * `isa disasm FILE`: hex text or binary words back to assembly.
//!
//! Bad input gets `file:line:col`, the line and a caret, exit status 1, and
//! nothing written.

use clap::{Parser, Subcommand};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::{ColorChoice, StandardStream}};
use isa_generated::Instruction;
use isa_runtime::text::words;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "isa", version, about = "Assembler and disassembler of the built-in ISA")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble a file: print each instruction's word as 32 hex digits, or write binary words with -o.
    Asm {
        file: PathBuf,
        /// Write 16-byte little-endian words here instead of printing hex.
        #[arg(short = 'o')]
        out: Option<PathBuf>,
    },
    /// Disassemble a file of hex words (one per line) or 16-byte little-endian words.
    Disasm { file: PathBuf },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Asm { file, out } => asm(&file, out.as_deref()),
        Command::Disasm { file } => disasm(&file),
    }
}

fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).map_err(|e| eprintln!("error: cannot read {}: {e}", path.display())).ok()
}

fn asm(file: &Path, out: Option<&Path>) -> ExitCode {
    let Some(bytes) = read(file) else { return ExitCode::from(1) };
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("error: {} is not UTF-8 text", file.display());
        return ExitCode::from(1);
    };
    let (words, errors) = isa_generated::text::assemble(&text);
    if !errors.is_empty() {
        let source = SimpleFile::new(file.display().to_string(), &text);
        let color = if std::io::stderr().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
        let writer = StandardStream::stderr(color);
        let config = term::Config::default();
        for (offset, len, message) in &errors {
            let d = Diagnostic::error().with_message(message).with_labels(vec![Label::primary((), *offset..offset + len)]);
            let _ = term::emit(&mut writer.lock(), &config, &source, &d);
        }
        eprintln!("{} error(s); nothing written", errors.len());
        return ExitCode::from(1);
    }
    match out {
        Some(path) => match words::write_atomically(path, &words::to_bytes(&words)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                ExitCode::from(1)
            }
        },
        None => {
            let _ = std::io::stdout().lock().write_all(words::hex_lines(&words).as_bytes());
            ExitCode::SUCCESS
        }
    }
}

fn disasm(file: &Path) -> ExitCode {
    let Some(bytes) = read(file) else { return ExitCode::from(1) };
    let ws = match words::read_words(&bytes) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::from(1);
        }
    };
    let mut out = String::with_capacity(ws.len() * 48);
    let mut failed = 0;
    for (k, &w) in ws.iter().enumerate() {
        match Instruction::decode(w) {
            Ok(i) => {
                i.write_text(&mut out);
                out.push_str(" ;\n");
            }
            Err(e) => {
                failed += 1;
                eprintln!("error: {}: word {k} ({w:#034x}) does not decode: {e}", file.display());
                out.push_str(&format!("// {w:#034x}: {e}\n"));
            }
        }
    }
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
