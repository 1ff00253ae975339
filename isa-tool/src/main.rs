//! `isa`: the built-in ISA's assembler and disassembler as a command. It
//! links the checked-in generated crate (its `FromStr`/`Display` fast path)
//! and reads no spec files.
//!
//! * `isa asm FILE.s [-o FILE.bin]`: one 32-digit hex word per instruction
//!   (most significant digit first), or 16-byte little-endian words;
//! * `isa disasm FILE`: hex text or binary words back to assembly;
//! * `isa run PROG.s [--state STATE.yaml]`: assemble, execute on one warp
//!   (the reference simulator, `isa-sim`), print the final state as YAML.
//!
//! Bad input gets `file:line:col`, the line and a caret, exit status 1, and
//! nothing written (`run`: the program is not run; a fault stops it).

use clap::{Parser, Subcommand};
use isa_runtime::report::{codes, FileReport};
use isa_runtime::files;
use isa_runtime::text::{listing, words};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `eprintln!` that does not panic when standard error is closed or full
/// (a diagnostic that cannot be shown must not turn into a crash; the exit
/// code still says what happened).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

#[derive(Parser)]
#[command(name = "isa", version, about = "Assembler, disassembler and simulator of the built-in ISA")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour in diagnostics: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never.
    #[arg(long, global = true, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
}

/// Whether diagnostics are coloured (the `--color` choice), set once in `main`.
static COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

#[derive(Subcommand)]
enum Command {
    /// Assemble a file: print each instruction's word as 32 hex digits, or write binary words with -o.
    Asm {
        /// Assembly file (`-`: standard input).
        file: PathBuf,
        /// Write 16-byte little-endian words here instead of printing hex
        /// (`-`: to standard output).
        #[arg(short = 'o')]
        out: Option<PathBuf>,
    },
    /// Disassemble a file of hex words (one per line) or 16-byte little-endian words.
    Disasm {
        /// Words file (`-`: standard input).
        file: PathBuf,
        /// How the file is written: hex words (one per line), binary
        /// (16-byte little-endian words), or auto: hex when it reads as text.
        #[arg(long, default_value = "auto", value_parser = words::WordsFormat::NAMES)]
        format: String,
    },
    /// Assemble and run a program on one warp; print the final state as YAML.
    #[command(after_long_help = isa_sim::state::FORMAT)]
    Run {
        program: PathBuf,
        /// Initial state (YAML: `active`, `regs`, `cmem`; `--help` shows the format); default: all zero, all lanes active.
        #[arg(long)]
        state: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    // clap's own `exit` ignores a failed write: `--help > /dev/full` would succeed.
    let cli = Cli::try_parse().unwrap_or_else(|e| std::process::exit(files::printed_exit_code(e.print(), e.exit_code())));
    let auto = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
    let _ = COLOR.set(match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => auto,
    });
    match cli.command {
        Command::Asm { file, out } => asm(&file, out.as_deref()),
        Command::Disasm { file, format } => disasm(&file, format.parse().unwrap_or_default()),
        Command::Run { program, state } => run(&program, state.as_deref()),
    }
}

/// Where a file stops being UTF-8 (its first bad byte) and E002's notes for it.
type BadUtf8 = (usize, Vec<String>);

/// Reads a text file, and whether it is UTF-8. One that is not is reported
/// at its first bad byte, and the rest is read with replacement characters,
/// so that its other errors are reported too (as `isa-codegen asm` does);
/// the caller fails the command either way.
/// The second value is the offset of the first bad byte, which
/// [`Report::invalid_utf8`] reports among the file's other errors.
fn read_text(path: &Path) -> Option<(String, Option<BadUtf8>)> {
    match String::from_utf8(read(path)?) {
        // A byte-order mark (editors on Windows write one) is not text.
        Ok(text) => Some((
            match text.strip_prefix('\u{feff}') {
                Some(body) => body.to_string(),
                None => text,
            },
            None,
        )),
        // The text up to the bad byte is the file's own, so the place is exact.
        Err(e) => Some((String::from_utf8_lossy(e.as_bytes()).into_owned(), Some((e.utf8_error().valid_up_to(), isa_runtime::report::invalid_utf8_notes(e.as_bytes()))))),
    }
}

fn run(program: &Path, state: Option<&Path>) -> ExitCode {
    // Standard input can be read once: the state would read as empty.
    if program.as_os_str() == "-" && state.is_some_and(|s| s.as_os_str() == "-") {
        say!("error: the program and the state cannot both be `-` (standard input)");
        return ExitCode::from(2);
    }
    let Some((code, code_bad)) = read_text(program) else { return ExitCode::from(1) };
    let (state_text, state_bad) = match state {
        Some(p) => match read_text(p) {
            Some(t) => t,
            None => return ExitCode::from(1),
        },
        None => (String::new(), None),
    };
    let bad_files = usize::from(code_bad.is_some()) + usize::from(state_bad.is_some());
    // `.word`s whose bits the run ignores: warnings, whatever the run gives.
    let stray = isa_sim::stray_words(&code);
    let warn = |report: &mut Report, e: &isa_sim::RunError| report.warning(codes::STRAY_BITS, e.span, &e.message, codes::STRAY_BITS.1);
    match isa_sim::run_program(&code, &state_text) {
        Ok(yaml) if bad_files == 0 => {
            if !stray.is_empty() {
                let mut report = Report::new(program, &code);
                for e in &stray {
                    warn(&mut report, e);
                }
                drop(report);
                say!("{}", isa_runtime::report::summary(0, stray.len()));
            }
            if let Err(e) = files::to_stdout(&yaml) { say!("error: cannot write the output: {e}"); return ExitCode::from(1); }
            ExitCode::SUCCESS
        }
        result => {
            let errors = result.err().unwrap_or_default();
            {
                let mut program_errors = Report::new(program, &code);
                let mut state_errors = Report::new(state.unwrap_or(program), &state_text);
                program_errors.invalid_utf8(code_bad);
                state_errors.invalid_utf8(state_bad);
                for e in &errors {
                    match e.kind {
                        isa_sim::ErrorKind::Assembly => program_errors.error(Some(codes::ASM_ERROR), e.span, &e.message, ""),
                        isa_sim::ErrorKind::Fault => program_errors.error(Some(codes::SIM_FAULT), e.span, &e.message, "this instruction faults"),
                        isa_sim::ErrorKind::State => state_errors.error(Some(codes::SIM_STATE), e.span, &e.message, ""),
                        isa_sim::ErrorKind::StrayBits => warn(&mut program_errors, e),
                    }
                }
                for e in &stray {
                    warn(&mut program_errors, e);
                }
                // Printed when dropped: the program's errors first.
                drop(program_errors);
                drop(state_errors);
            }
            let faulted = errors.iter().any(|e| matches!(e.kind, isa_sim::ErrorKind::Fault));
            let what = if faulted { "the run stopped at the fault" } else { "the program was not run" };
            say!("{}; {what}", isa_runtime::report::summary(errors.len() + bad_files, stray.len()));
            ExitCode::from(1)
        }
    }
}

fn read(path: &Path) -> Option<Vec<u8>> {
    files::read_input(path).map_err(|e| say!("error: cannot read {}: {e}", files::input_name(path))).ok()
}

fn asm(file: &Path, out: Option<&Path>) -> ExitCode {
    if let Some(o) = out.filter(|o| files::is_same_file(file, o)) {
        say!("error: -o {} is the input file: writing words there would destroy the source", o.display());
        return ExitCode::from(2);
    }
    let Some((text, bad)) = read_text(file) else { return ExitCode::from(1) };
    let mut report = Report::new(file, &text);
    let bad_file = usize::from(bad.is_some());
    report.invalid_utf8(bad);
    // Each error goes to the report as it is found (which keeps only
    // those it can show): the same pass as `isa_generated::text::assemble`.
    let mut errors = 0;
    let assembled = isa_runtime::text::asm::assemble_text_with(&isa_generated::text::MODEL, &text, |e| {
        errors += 1;
        // The caret alone: the message already says what is wrong there.
        report.error(Some(codes::ASM_ERROR), Some((e.offset, e.len)), &e.message, "");
    });
    drop(report);
    if errors + bad_file > 0 {
        say!("{}; nothing written", isa_runtime::report::summary(errors + bad_file, 0));
        return ExitCode::from(1);
    }
    let words: Vec<u128> = assembled.iter().map(|a| a.word).collect();
    match out {
        Some(path) => match files::write_output(path, &words::to_bytes(&words)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                say!("error: cannot write {}: {e}", isa_runtime::files::output_name(path));
                ExitCode::from(1)
            }
        },
        None => {
            if let Err(e) = files::to_stdout(&words::hex_lines(&words)) { say!("error: cannot write the output: {e}"); return ExitCode::from(1); }
            ExitCode::SUCCESS
        }
    }
}

/// Errors and warnings about one file ([`FileReport`]), printed to standard error when
/// dropped (after the last one is added).
struct Report<'t>(FileReport<'t>);

impl<'t> Report<'t> {
    fn new(file: &Path, text: &'t str) -> Report<'t> {
        Report(FileReport::new(&files::input_name(file), text))
    }

    /// An error with its code and title, at `span` (byte offset and length)
    /// when it has one; `label` goes under the caret.
    fn error(&mut self, code: Option<(&str, &str)>, span: Option<(usize, usize)>, message: &str, label: &str) {
        self.0.error(code.map(|c| c.0), span, message, label);
    }

    /// E002 at byte `at`, the first that is not UTF-8, if any.
    fn invalid_utf8(&mut self, bad: Option<BadUtf8>) {
        if let Some((at, notes)) = bad {
            let label = isa_runtime::report::INVALID_UTF8_LABEL;
            self.error(Some(codes::INVALID_UTF8), Some((at, char::REPLACEMENT_CHARACTER.len_utf8())), "file is not valid UTF-8", label);
            for n in notes {
                self.0.note(&n);
            }
        }
    }

    /// A warning, placed as [`Self::error`] places an error.
    fn warning(&mut self, code: (&str, &str), span: Option<(usize, usize)>, message: &str, label: &str) {
        self.0.warning(Some(code.0), span, message, label);
    }
}

impl Drop for Report<'_> {
    fn drop(&mut self) {
        if self.0.errors() + self.0.warnings() > 0 {
            let text = self.0.render(COLOR.get().copied().unwrap_or(false));
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
    }
}

fn disasm(file: &Path, format: words::WordsFormat) -> ExitCode {
    let Some(bytes) = read(file) else { return ExitCode::from(1) };
    // Errors point into the file when it is hex text.
    let text = std::str::from_utf8(&bytes).unwrap_or_default();
    let mut report = Report::new(file, text);
    let ws = match words::read_words_as(&bytes, format) {
        Ok(w) => w,
        Err(e) => {
            report.error(Some(codes::WORDS_FILE), e.span, &e.message, codes::WORDS_FILE.1);
            drop(report);
            say!("{}", isa_runtime::report::summary(1, 0));
            return ExitCode::from(1);
        }
    };
    // The listing streams out as it is made; the diagnostics follow it,
    // even when the listing could not all be written.
    // Each finding goes to the report as it is made (which keeps only
    // those it can show): a file of random bytes has one per word.
    let (mut failed, mut stray) = (0, 0);
    let written = listing::write_listing(&ws, &Generated, &mut std::io::stdout().lock(), |f| {
        let label = if f.titled { f.code.1 } else { "" };
        if f.error {
            failed += 1;
            report.error(Some(f.code), f.span, &f.message, label);
        } else {
            stray += 1;
            report.warning(f.code, f.span, &f.message, label);
        }
    });
    drop(report);
    if failed + stray > 0 {
        say!("{}", isa_runtime::report::summary(failed, stray));
    }
    if let Err(e) = written {
        say!("error: cannot write the output: {e}");
        return ExitCode::from(1);
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The built-in ISA's disassembler, for [`listing::write_listing`].
struct Generated;

impl listing::Printer for Generated {
    fn print(&self, w: u128, out: &mut String) -> Result<(), String> {
        isa_generated::text::disassemble_into(w, out).map_err(|e| match e {
            // The listing names the word once.
            isa_generated::DecodeError::UnknownOpcode { .. } => "unknown opcode".to_string(),
            e => e.to_string(),
        })
    }
    fn opcode(&self, w: u128) -> Option<String> {
        isa_generated::Decoded::new(w).ok().map(|d| d.name().to_string())
    }
    fn stray_bits(&self, w: u128) -> Option<(String, u128)> {
        match isa_generated::Instruction::decode_strict(w) {
            Err(isa_generated::DecodeError::UncoveredBits { opcode, bits }) => Some((opcode.to_string(), bits)),
            _ => None,
        }
    }
}
