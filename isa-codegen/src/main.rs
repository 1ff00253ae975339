//! The `isa-codegen` command line: argument parsing and exit codes only; the
//! work is done by the `isa_codegen` / `isa_dsl` libraries.
//!
//! Exit codes: 0 success (warnings allowed), 1 spec errors (or warnings with
//! `--deny-warnings`), 2 usage errors. `diff` follows diff(1): 0 the specs
//! are the same, 1 they differ, 2 either has errors (or usage errors).

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use isa_codegen::dump::{dump, Format};
use std::io::IsTerminal;
use std::path::PathBuf;
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

/// `eprint!` that does not panic, as [`say!`].
macro_rules! say_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($t)*);
    }};
}


/// mimalloc instead of the system allocator: the front end allocates many
/// small nodes from two threads, and glibc's malloc made a third of its time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "isa-codegen",
    version,
    about = "Compiler for the ISA description DSL",
    subcommand_negates_reqs = true,
    override_usage = "isa-codegen [OPTIONS] --out <OUT> <SPEC>...\n       isa-codegen [--color <COLOR>] <COMMAND> ...",
    after_help = "Main job: `isa-codegen spec/ -o generated/` writes the generated crate (all or nothing)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Spec files or directories (searched recursively for *.txt), read in path order whatever their order here.
    #[arg(required = true)]
    spec: Vec<PathBuf>,
    /// Output directory of the generated crate.
    #[arg(short = 'o', long = "out", required = true)]
    out: Option<PathBuf>,
    /// Do not write: exit 1 if the output directory differs from what would be generated (2 if the spec has errors or the comparison cannot be made, as diff(1))
    #[arg(long)]
    check: bool,
    /// Package name of the generated crate.
    #[arg(long, default_value = "isa-generated", value_parser = isa_codegen::crate_name)]
    crate_name: String,
    /// Path of the `isa-runtime` crate relative to the output directory.
    #[arg(long, default_value = "../isa-runtime", value_parser = isa_codegen::runtime_path)]
    runtime_path: String,
    /// Do not show warnings of these codes (`--allow W010,W014` or repeated).
    #[arg(long, value_delimiter = ',', value_parser = warning_code)]
    allow: Vec<isa_dsl::Code>,
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, resolve and check spec files (files or directories, searched recursively for *.txt).
    Check {
        /// Spec files or directories (searched recursively for *.txt), read in path order whatever their order here.
        #[arg(required = true)]
        spec: Vec<PathBuf>,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// Neither show nor count warnings of these codes (`--allow W010,W014`
        /// or repeated): `--deny-warnings` then fails on the others only.
        #[arg(long, value_delimiter = ',', value_parser = warning_code)]
        allow: Vec<isa_dsl::Code>,
    },
    /// Assemble a file: print each instruction's word (32 hex digits, most
    /// significant first), or write 16-byte little-endian words with -o.
    #[command(override_usage = "isa-codegen asm --spec <SPEC>... <FILE> [-o <OUT>]")]
    Asm {
        /// Spec files or directories: one or more after one `--spec`, or
        /// `--spec` repeated. The last value is the file when the file is
        /// not given elsewhere (`--spec a.txt b/ prog.s`).
        #[arg(long, required = true, num_args = 1..)]
        spec: Vec<PathBuf>,
        /// Assembly source (`-`: standard input).
        file: Option<PathBuf>,
        /// Write binary words here instead of printing hex (`-`: to
        /// standard output).
        #[arg(short = 'o')]
        out: Option<PathBuf>,
    },
    /// Disassemble a file of 16-byte little-endian words, or of hex words one per line.
    #[command(override_usage = "isa-codegen disasm --spec <SPEC>... <FILE> [--format <FORMAT>]")]
    Disasm {
        /// Spec files or directories: one or more after one `--spec`, or
        /// `--spec` repeated. The last value is the file when the file is
        /// not given elsewhere (`--spec a.txt b/ prog.bin`).
        #[arg(long, required = true, num_args = 1..)]
        spec: Vec<PathBuf>,
        /// Words file (`-`: standard input).
        file: Option<PathBuf>,
        /// How the file is written: hex words (one per line), binary
        /// (16-byte little-endian words), or auto: hex when it reads as text.
        #[arg(long, default_value = "auto", value_parser = isa_runtime::text::words::WordsFormat::NAMES)]
        format: String,
    },
    /// Compare two specs (files or directories): types, instructions,
    /// modifiers, operand forms, syntax templates, encodings, `__Exception`
    /// rules, examples, simulation hooks and prose. Exit 0 when they are the
    /// same, 1 when they differ, 2 on errors (as diff(1)).
    Diff {
        /// The old spec: a file or a directory (searched recursively for *.txt).
        old: PathBuf,
        /// The new spec, the same way.
        new: PathBuf,
        /// Text for people; YAML for scripts.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// Spec files or directories read on both sides (e.g. `spec/base/` for two extension files); repeatable.
        #[arg(long)]
        include: Vec<PathBuf>,
        /// Spec files or directories read on the OLD side only (its own base); repeatable.
        #[arg(long, value_name = "PATH")]
        old_include: Vec<PathBuf>,
        /// Spec files or directories read on the NEW side only; repeatable.
        #[arg(long, value_name = "PATH")]
        new_include: Vec<PathBuf>,
    },
    /// Print the resolved IR (exit 1 when the spec has errors or the output
    /// cannot be written).
    Ir {
        /// Spec files or directories (searched recursively for *.txt), read in path order whatever their order here.
        #[arg(required = true)]
        spec: Vec<PathBuf>,
        /// YAML or JSON, with the same structure.
        #[arg(long, value_enum, default_value_t = IrFormat::Yaml)]
        format: IrFormat,
        /// Do not show warnings of these codes (`--allow W010,W014` or repeated).
        #[arg(long, value_delimiter = ',', value_parser = warning_code)]
        allow: Vec<isa_dsl::Code>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffFormat {
    Text,
    Yaml,
}

#[derive(Clone, Copy, ValueEnum)]
enum IrFormat {
    Yaml,
    Json,
}

/// The diagnostics to show: all but the warnings of the codes in `allow`
/// (`--allow`), and how many were left out.
fn without_allowed(all: &isa_dsl::Diagnostics, allow: &[isa_dsl::Code]) -> (isa_dsl::Diagnostics, usize) {
    let mut shown = all.clone();
    shown.items.retain(|d| d.is_error() || !allow.contains(&d.code));
    let allowed = all.len() - shown.len();
    (shown, allowed)
}

/// `0 errors, 70 warnings (7 warnings allowed)`.
fn summary(shown: &isa_dsl::Diagnostics, allowed: usize) -> String {
    let allowed = match allowed {
        0 => String::new(),
        1 => " (1 warning allowed)".into(),
        k => format!(" ({k} warnings allowed)"),
    };
    shown.summary() + &allowed
}

/// A warning's code, for `--allow` (errors cannot be allowed).
fn warning_code(s: &str) -> Result<isa_dsl::Code, String> {
    isa_dsl::Code::allowed_warning(s)
}

/// Parses the command line. `--color` may come before a subcommand
/// (`isa-codegen --color always check spec/`); the main job's own
/// arguments may not, rather than being silently dropped.
fn parse_cli() -> Cli {
    let mut command = Cli::command();
    // clap's own `exit` ignores a failed write: `--help > /dev/full` would succeed.
    let exit = |e: clap::Error| -> ! { std::process::exit(isa_runtime::files::printed_exit_code(e.print(), e.exit_code())) };
    let matches = command.try_get_matches_from_mut(std::env::args_os()).unwrap_or_else(|e| exit(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit(e.format(&mut command)));
    if let Some(sub) = matches.subcommand_name() {
        let main_job = ["spec", "out", "check", "crate_name", "runtime_path", "allow"];
        if let Some(id) = main_job.iter().find(|id| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine)) {
            let arg = command.get_arguments().find(|a| a.get_id() == *id).map_or_else(|| id.to_string(), |a| a.to_string());
            // The subcommand may have an option of its own by that name (`--allow`).
            let own = command.find_subcommand(sub).is_some_and(|c| c.get_arguments().any(|a| a.get_id() == *id));
            let hint = if own { format!("; `{sub}` takes its own after its name: `isa-codegen {sub} ... {arg}`") } else { String::new() };
            exit(command.error(clap::error::ErrorKind::ArgumentConflict, format!("`{arg}` before `{sub}` belongs to the main job (`isa-codegen SPEC... -o OUT`){hint}")));
        }
    }
    cli
}

fn main() -> ExitCode {
    let cli = parse_cli();
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        // As most tools: https://no-color.org, and terminals that cannot.
        Color::Auto => {
            std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    };
    let Some(command) = cli.command else {
        let out = cli.out.unwrap_or_else(|| PathBuf::from("generated"));
        let options = isa_codegen::Options { crate_name: cli.crate_name.clone(), runtime_path: cli.runtime_path.clone() };
        return generate(&cli.spec, &out, cli.check, &options, &cli.allow, color);
    };
    match command {
        Command::Check { spec, deny_warnings, allow } => {
            let checked = isa_codegen::check(&spec);
            let (fe, examples) = (&checked.fe, checked.example_stats);
            let (shown, allowed) = without_allowed(&fe.diagnostics, &allow);
            say_raw!("{}", shown.render(&fe.sources, color));
            let isa = &fe.isa;
            let n = |count: usize, what: &str| format!("{count} {what}{}", if count == 1 { "" } else { "s" });
            let mut summary = format!(
                "{}: {}, {}, {}, {}; {}\n",
                n(fe.sources.len(), "file"),
                n(isa.groups.len(), "group"),
                n(isa.optypes.len(), "optype"),
                n(isa.opcodes.len(), "opcode"),
                n(isa.types.len(), "type"),
                summary(&shown, allowed)
            );
            if examples.total > 0 {
                summary += &format!(
                    "examples: {}, {}, {} defective (W014)\n",
                    n(examples.total, "line"),
                    match examples.round_trip { 1 => "1 assembles and round-trips".to_string(), k => format!("{k} assemble and round-trip") },
                    examples.defective,
                );
            }
            if let Err(e) = isa_runtime::files::to_stdout(&summary) {
                say!("error: cannot write the output: {e}");
                return ExitCode::from(1);
            }
            let denied = deny_warnings && !fe.has_errors() && !shown.is_empty();
            if denied {
                say!("error: warnings are denied (`--deny-warnings`): fix them, or `--allow` their codes");
            }
            if fe.has_errors() || denied { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
        Command::Diff { old, new, format, include, old_include, new_include } => {
            let side = |own: &[PathBuf], p: &PathBuf| include.iter().chain(own).cloned().chain(std::iter::once(p.clone())).collect::<Vec<_>>();
            // Exit codes as diff(1): 1 says "they differ", so errors are 2.
            let (a, b) = (load_side(&side(&old_include, &old), "OLD", &old, color), load_side(&side(&new_include, &new), "NEW", &new, color));
            let (Some(a), Some(b)) = (a, b) else {
                return ExitCode::from(2);
            };
            let d = isa_codegen::diff::diff(&a.isa, &b.isa);
            let text = match format {
                DiffFormat::Text => isa_codegen::diff::to_text(&d, &old.display().to_string(), &new.display().to_string()),
                DiffFormat::Yaml => match serde_yaml::to_string(&d) {
                    Ok(y) => y,
                    Err(e) => {
                        say!("error: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            if let Err(e) = isa_runtime::files::to_stdout(&text) { say!("error: cannot write the output: {e}"); return ExitCode::from(2); }
            if d.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Command::Asm { spec, file, out } => match spec_and_file(spec, file, "asm") {
            Some((spec, file)) => asm(&spec, &file, out.as_deref(), color),
            None => ExitCode::from(2),
        },
        Command::Disasm { spec, file, format } => match spec_and_file(spec, file, "disasm") {
            Some((spec, file)) => disasm(&spec, &file, format.parse().unwrap_or_default(), color),
            None => ExitCode::from(2),
        },
        Command::Ir { spec, format, allow } => {
            // The diagnostics `check` gives, so the two never disagree.
            let fe = isa_codegen::check(&spec).fe;
            let (shown, allowed) = without_allowed(&fe.diagnostics, &allow);
            say_raw!("{}", shown.render(&fe.sources, color));
            if fe.has_errors() {
                say!("{}", summary(&shown, allowed));
                return ExitCode::from(1);
            }
            let format = match format {
                IrFormat::Yaml => Format::Yaml,
                IrFormat::Json => Format::Json,
            };
            // Files named below the spec's project: the same dump from any directory.
            match dump(&fe.isa_with_spec_names(), format) {
                Ok(s) => {
                    // A closed pipe (`| head`) is not an error worth a panic.
                    if let Err(e) = isa_runtime::files::to_stdout(&s) { say!("error: cannot write the output: {e}"); return ExitCode::from(1); }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    say!("error: cannot serialise the IR: {e}");
                    ExitCode::from(1)
                }
            }
        }
    }
}

/// The main job: generate (or `--check`) the output directory.
fn generate(spec: &[PathBuf], out: &std::path::Path, check: bool, options: &isa_codegen::Options, allow: &[isa_dsl::Code], color: bool) -> ExitCode {
    let checked = isa_codegen::check(spec);
    let fe = &checked.fe;
    let (shown, allowed) = without_allowed(&fe.diagnostics, allow);
    say_raw!("{}", shown.render(&fe.sources, color));
    // The counts `check` gives (allowed warnings apart).
    if fe.has_errors() {
        let untouched = if out.exists() { format!("; {} left untouched", out.display()) } else { String::new() };
        say!("error: the spec has errors ({}){untouched}", summary(&shown, allowed));
        return ExitCode::from(if check { 2 } else { 1 });
    }
    let files = match isa_codegen::generate(&checked, options) {
        Ok(f) => f,
        Err(e) => {
            let untouched = if out.exists() { format!("; {} left untouched", out.display()) } else { String::new() };
            say!("error: {e}{untouched}");
            // `--check` answers as diff(1): 1 is "stale", 2 is trouble.
            return ExitCode::from(if check { 2 } else { 1 });
        }
    };
    if check {
        let checked = isa_codegen::output::check(out, &files);
        if checked.stale.is_empty() && checked.trouble.is_empty() {
            say!("{} is up to date ({} files)", out.display(), files.len());
            return ExitCode::SUCCESS;
        }
        for p in checked.trouble.iter().chain(&checked.stale) {
            say!("error: {p}");
        }
        // Trouble is not "stale" (diff(1) answers 2), and the main job's
        // advice would not help.
        if !checked.trouble.is_empty() {
            return ExitCode::from(2);
        }
        say!("{} is stale: run `isa-codegen {} -o {}`", out.display(), spec.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "), out.display());
        return ExitCode::from(1);
    }
    match isa_codegen::output::write_atomically(out, &files) {
        Ok(isa_codegen::output::Written { stranded: Some(what), .. }) => {
            say!("error: {what}");
            ExitCode::from(1)
        }
        Ok(written) => {
            say!("wrote {} files to {} ({})", files.len(), out.display(), summary(&shown, allowed));
            if !written.kept.is_empty() {
                let n = written.kept.len();
                say!("kept {n} entr{} the generator did not write: {}", if n == 1 { "y" } else { "ies" }, some_names(&written.kept));
            }
            if let Some((dir, e)) = written.leftover {
                say!("warning: the previous output could not be removed ({e}): {} may be deleted", dir.display());
            }
            for (dir, moved) in &written.recovered {
                if moved.is_empty() {
                    say!("removed {}, left by a run that was interrupted (it held only generated files)", dir.display());
                } else {
                    say!("recovered {} from {}, left by a run that was interrupted before moving them back: {}", if moved.len() == 1 { "an entry" } else { "entries" }, dir.display(), some_names(moved));
                }
            }
            for dir in &written.others {
                say!("warning: {} is left by an earlier run that was interrupted or could not finish: delete it once nothing in it is needed", dir.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let untouched = if out.exists() { format!("; {} left untouched", out.display()) } else { String::new() };
            say!("error: cannot write {}: {e}{untouched}", out.display());
            ExitCode::from(1)
        }
    }
}

/// The first ten of `paths`, then how many more: a message stays short.
fn some_names(paths: &[PathBuf]) -> String {
    let mut s = paths.iter().take(10).map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    if paths.len() > 10 {
        s += &format!(" and {} more", paths.len() - 10);
    }
    s
}

/// Reads an input file, reporting failure.
fn read_input(file: &std::path::Path) -> Option<Vec<u8>> {
    isa_runtime::files::read_input(file).map_err(|e| say!("error: cannot read {}: {e}", isa_runtime::files::input_name(file))).ok()
}

/// The specs and the input file of `asm`/`disasm`: `--spec` takes every
/// value up to the next option (`--spec a.txt b/ prog.s`, as the usage
/// line writes it), so when no file was given apart, the last of them is
/// the file. `None` (a usage error, printed) when nothing is left for one
/// side.
fn spec_and_file(mut spec: Vec<PathBuf>, file: Option<PathBuf>, command: &str) -> Option<(Vec<PathBuf>, PathBuf)> {
    let file = match file {
        Some(f) => f,
        None if spec.len() >= 2 => spec.pop()?,
        None => {
            say!("error: `isa-codegen {command}` needs a spec and a file: `isa-codegen {command} --spec <SPEC>... <FILE>`");
            return None;
        }
    };
    Some((spec, file))
}

/// One side of `diff`: the spec, or `None` after its errors (only its
/// errors: its warnings are no news here) and which side they are in.
fn load_side(spec: &[PathBuf], side: &str, path: &std::path::Path, color: bool) -> Option<isa_codegen::Frontend> {
    let fe = isa_codegen::load(spec);
    if !fe.has_errors() {
        return Some(fe);
    }
    let mut errors = fe.diagnostics.clone();
    errors.items.retain(|d| d.is_error());
    say_raw!("{}", errors.render(&fe.sources, color));
    say!("error: {side} ({}) does not compile: {}", path.display(), errors.summary().split(',').next().unwrap_or_default());
    None
}

/// Loads a spec for asm/disasm; prints its errors.
fn load_clean(spec: &[PathBuf], color: bool) -> Option<isa_codegen::Frontend> {
    let fe = isa_codegen::load(spec);
    if fe.has_errors() {
        say_raw!("{}", fe.diagnostics.render(&fe.sources, color));
        say!("{}", fe.diagnostics.summary());
        return None;
    }
    Some(fe)
}

fn asm(spec: &[PathBuf], file: &std::path::Path, out: Option<&std::path::Path>, color: bool) -> ExitCode {
    if let Some(o) = out.filter(|o| isa_runtime::files::is_same_file(file, o)) {
        say!("error: -o {} is the input file: writing words there would destroy the source", o.display());
        return ExitCode::from(2);
    }
    // Nor a spec file: the words would replace the ISA they came from.
    let spec_file = out.and_then(|o| isa_dsl::collect_spec_files(spec, &mut isa_dsl::Diagnostics::default()).into_iter().find(|s| isa_runtime::files::is_same_file(s, o)));
    if let (Some(o), Some(s)) = (out, spec_file) {
        say!("error: -o {} is the spec file {}: writing words there would destroy the spec", o.display(), s.display());
        return ExitCode::from(2);
    }
    let Some(fe) = load_clean(spec, color) else { return ExitCode::from(1) };
    let Some(bytes) = read_input(file) else { return ExitCode::from(1) };
    let mut sources = isa_dsl::SourceMap::new();
    let mut diags = isa_dsl::Diagnostics::default();
    isa_dsl::add_input(&mut sources, &isa_runtime::files::input_name(file), &bytes, &mut diags);
    let id = isa_dsl::FileId(0);
    let text = sources.get(id).text.clone();
    // Each error is kept only while it can be shown (a million bad lines
    // are counted, not held).
    let words = isa_codegen::asm::assemble_text_with(&fe.isa, &text, |e| {
        diags.push_shown(
            // The caret alone: the message already says what is wrong there.
            isa_dsl::Diagnostic::new(isa_dsl::Code::AsmError, isa_dsl::Span::new(id, e.offset, e.offset + e.len), e.message),
        );
    });
    if diags.has_errors() {
        diags.sort_by_place();
        say_raw!("{}", diags.render(&sources, color));
        say!("{}; nothing written", diags.summary());
        return ExitCode::from(1);
    }
    match out {
        Some(path) => {
            let bin = isa_runtime::text::words::to_bytes(&words);
            match isa_runtime::files::write_output(path, &bin) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    say!("error: cannot write {}: {e}", isa_runtime::files::output_name(path));
                    ExitCode::from(1)
                }
            }
        }
        None => {
            if let Err(e) = isa_runtime::files::to_stdout(&isa_runtime::text::words::hex_lines(&words)) { say!("error: cannot write the output: {e}"); return ExitCode::from(1); }
            ExitCode::SUCCESS
        }
    }
}

fn disasm(spec: &[PathBuf], file: &std::path::Path, format: isa_runtime::text::words::WordsFormat, color: bool) -> ExitCode {
    let Some(fe) = load_clean(spec, color) else { return ExitCode::from(1) };
    let Some(bytes) = read_input(file) else { return ExitCode::from(1) };
    // Without its byte-order mark, as the source map keeps text files.
    let bytes = bytes.strip_prefix(isa_dsl::source::BOM).unwrap_or(&bytes);
    let name = isa_runtime::files::input_name(file);
    // Errors point into the file when it is hex text.
    let mut sources = isa_dsl::SourceMap::new();
    let mut diags = isa_dsl::Diagnostics::default();
    let is_text = std::str::from_utf8(bytes).is_ok();
    if is_text {
        isa_dsl::add_input(&mut sources, &name, bytes, &mut diags);
    }
    // A diagnostic; `titled`: the code's title goes under the caret (a file-wide error);
    // else the caret alone, as the message says what is wrong there.
    let mut report = |code: (&str, &str), span: Option<(usize, usize)>, message: String, titled: bool| {
        // The runtime's codes are the front end's (a test in `isa-dsl` holds them equal).
        let code = isa_dsl::Code::ALL.iter().copied().find(|c| c.as_str() == code.0).expect("a code of isa-dsl's table");
        match span.filter(|_| is_text) {
            Some((at, len)) => diags.push_shown(isa_dsl::Diagnostic::new(code, isa_dsl::Span::new(isa_dsl::FileId(0), at, at + len), message).with_label(if titled { code.title() } else { "" })),
            // Rendered with the rest, so the limit on how many show holds.
            None => diags.push_shown(isa_dsl::Diagnostic::new(code, None, format!("{name}: {message}"))),
        }
    };
    let words = match isa_runtime::text::words::read_words_as(bytes, format) {
        Ok(w) => w,
        Err(e) => {
            report(isa_runtime::report::codes::WORDS_FILE, e.span, e.message, true);
            say_raw!("{}", diags.render(&sources, color));
            say!("{}", diags.summary());
            return ExitCode::from(1);
        }
    };
    let printer = Interpreted { asm: isa_codegen::asm::Assembler::new(&fe.isa), codec: isa_codegen::interp::Codec::new(&fe.isa), isa: &fe.isa };
    // The listing streams out as it is made; the diagnostics follow it
    // (as `isa disasm` prints them), even when it could not all be written.
    // Each finding is kept only while it can be shown (a file of random
    // bytes has one per word).
    let written = isa_runtime::text::listing::write_listing(&words, &printer, &mut std::io::stdout().lock(), |f| report(f.code, f.span, f.message, f.titled));
    if !diags.is_empty() {
        say_raw!("{}", diags.render(&sources, color));
        say!("{}", diags.summary());
    }
    if let Err(e) = written {
        say!("error: cannot write the output: {e}");
        return ExitCode::from(1);
    }
    if diags.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// A spec's interpreted disassembler, for [`isa_runtime::text::listing::write_listing`].
struct Interpreted<'a> {
    asm: isa_codegen::asm::Assembler<'a>,
    codec: isa_codegen::interp::Codec<'a>,
    isa: &'a isa_dsl::ir::Isa,
}

impl isa_runtime::text::listing::Printer for Interpreted<'_> {
    fn print(&self, w: u128, out: &mut String) -> Result<(), String> {
        self.asm.disassemble(w).map(|t| out.push_str(&t)).map_err(|e| e.to_string())
    }
    fn opcode(&self, w: u128) -> Option<String> {
        self.codec.decode(w).ok().map(|r| self.isa.opcodes[r.opcode].name.clone())
    }
    fn stray_bits(&self, w: u128) -> Option<(String, u128)> {
        match self.codec.decode_strict(w) {
            Err(isa_codegen::interp::DecodeError::UncoveredBits { opcode, bits }) => Some((opcode, bits)),
            _ => None,
        }
    }
}
