//! `isa-sim`: the reference simulator of the built-in ISA. The generated
//! crate's `execute` functions move operands between a warp and a `Kernels`
//! implementation; this crate provides that implementation ([`kernels`]),
//! reads and writes warp state as YAML ([`state`]), and runs programs
//! ([`run`]). `isa run` is a thin command over [`run_program`].

#![warn(missing_docs)]

pub mod kernels;
pub mod state;

pub use kernels::Reference;
use isa_generated::Instruction;
use isa_runtime::sim::Warp;

/// A program that could not be assembled, state that could not be read, or
/// an instruction that faulted: the message and, where there is one, the
/// byte range in the program or state text it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// Which input it is about.
    pub kind: ErrorKind,
    /// Byte offset and length in the text `kind` names.
    pub span: Option<(usize, usize)>,
    /// What went wrong.
    pub message: String,
}

/// Which input a [`RunError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A line of the program does not assemble.
    Assembly,
    /// An instruction of the program faults when it runs.
    Fault,
    /// The state text is malformed or names what the machine lacks.
    State,
    /// A warning, not an error: a `.word` of the program has bits no field
    /// of its opcode covers, which the run ignores (see [`stray_words`]).
    StrayBits,
}

/// An assembled program: each instruction with the byte range (offset,
/// length) of its line.
pub type Program = Vec<(Instruction, (usize, usize))>;

/// Assembles `program` as `isa asm` does (the same line ends, labels and
/// error spans: [`isa_runtime::text::asm::assemble_lines`]). Every bad line
/// is reported.
pub fn assemble(program: &str) -> Result<Program, Vec<RunError>> {
    let (out, errors) = isa_runtime::text::asm::assemble_lines(program, |line| {
        // `line` is a slice of `program`: its offset is where it starts.
        let offset = line.as_ptr() as usize - program.as_ptr() as usize;
        Ok(Instruction::parse_line(line)?.map(|i| (i, (offset, line.len()))))
    });
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.into_iter().map(|e| RunError { kind: ErrorKind::Assembly, span: Some((e.offset, e.len)), message: e.message }).collect())
    }
}

/// The `.word` lines of `program` whose word has bits that no field of its
/// opcode covers: the instruction runs without them (as it decodes), so
/// each is a warning at the word, as `isa disasm` gives it (W019).
pub fn stray_words(program: &str) -> Vec<RunError> {
    let mut out = Vec::new();
    for (offset, body) in isa_runtime::text::lex::lines(program) {
        let Ok(l) = isa_runtime::text::lex::lex(body) else { continue };
        let (Some(m), [t]) = (l.mnemonic, &l.operands[..]) else { continue };
        if m.text != ".word" {
            continue;
        }
        let Ok(w) = isa_runtime::text::asm::raw_word_value(t) else { continue };
        if let Err(isa_generated::DecodeError::UncoveredBits { opcode, bits }) = Instruction::decode_strict(w) {
            let message = format!("{w:#034x} has bits {bits:#x} no field of {opcode} covers: the run ignores them");
            out.push(RunError { kind: ErrorKind::StrayBits, span: Some((offset + t.col, t.text.len())), message });
        }
    }
    out
}

/// Executes instructions in order on `warp` (the ISA has no branches).
pub fn run(warp: &mut Warp, program: &[(Instruction, (usize, usize))]) -> Result<(), RunError> {
    for (i, span) in program {
        i.execute(warp, &Reference).map_err(|f| RunError { kind: ErrorKind::Fault, span: Some(*span), message: f.to_string() })?;
    }
    Ok(())
}

/// Assembles `program`, loads `state` (YAML, see [`state`]), runs, and
/// returns the final state as YAML. Errors: every bad line of the program,
/// then every error of the state (both are checked whatever the other
/// holds), or the fault that stopped the run.
pub fn run_program(program: &str, state: &str) -> Result<String, Vec<RunError>> {
    let code = assemble(program);
    let mut warp = isa_generated::sim::new_warp();
    let loaded = state::load_all(&mut warp, state);
    let code = match (code, loaded) {
        (Ok(code), Ok(())) => code,
        (code, loaded) => {
            let mut errors = code.err().unwrap_or_default();
            errors.extend(loaded.err().unwrap_or_default());
            return Err(errors);
        }
    };
    run(&mut warp, &code).map_err(|e| vec![e])?;
    Ok(state::dump(&warp))
}
