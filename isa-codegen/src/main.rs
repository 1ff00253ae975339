//! The `isa-codegen` command line: argument parsing and exit codes only; the
//! work is done by the `isa_codegen` / `isa_dsl` libraries.
//!
//! Exit codes: 0 success (warnings allowed), 1 spec errors (or warnings with
//! `--deny-warnings`), 2 usage errors.

use clap::{Parser, Subcommand, ValueEnum};
use isa_codegen::dump::{dump, Format};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "isa-codegen", version, about = "Compiler for the ISA description DSL")]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        #[arg(required = true)]
        spec: Vec<PathBuf>,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Print the resolved IR.
    Ir {
        #[arg(required = true)]
        spec: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = IrFormat::Yaml)]
        format: IrFormat,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum IrFormat {
    Yaml,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal(),
    };
    match cli.command {
        Command::Check { spec, deny_warnings } => {
            let fe = isa_codegen::load(&spec);
            eprint!("{}", fe.diagnostics.render(&fe.sources, color));
            let isa = &fe.isa;
            let _ = writeln!(
                std::io::stdout().lock(),
                "{} file{}: {} groups, {} optypes, {} opcodes, {} types; {}",
                fe.sources.len(),
                if fe.sources.len() == 1 { "" } else { "s" },
                isa.groups.len(),
                isa.optypes.len(),
                isa.opcodes.len(),
                isa.types.len(),
                fe.diagnostics.summary()
            );
            let fail = fe.has_errors() || (deny_warnings && !fe.diagnostics.is_empty());
            if fail { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
        Command::Ir { spec, format } => {
            let fe = isa_codegen::load(&spec);
            eprint!("{}", fe.diagnostics.render(&fe.sources, color));
            if fe.has_errors() {
                eprintln!("{}", fe.diagnostics.summary());
                return ExitCode::from(1);
            }
            let format = match format {
                IrFormat::Yaml => Format::Yaml,
                IrFormat::Json => Format::Json,
            };
            match dump(&fe.isa, format) {
                Ok(s) => {
                    // A closed pipe (`| head`) is not an error worth a panic.
                    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), s.as_bytes());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: cannot serialise the IR: {e}");
                    ExitCode::from(1)
                }
            }
        }
    }
}
