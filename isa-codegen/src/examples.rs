//! Checking the spec's `__Examples` with the assembler: each example line must
//! assemble, and its disassembly must assemble back to the same bits. Lines
//! that do not are reported as W014 at the exact column the assembler stopped.

use crate::asm::{Assembled, Assembler};
use isa_dsl::{Code, Diagnostic, Span};

/// Counts over all examples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExampleStats {
    /// Example lines with an instruction.
    pub total: usize,
    /// Those that assemble and round-trip.
    pub round_trip: usize,
    /// Those reported as defective.
    pub defective: usize,
}

/// One checked example.
#[derive(Clone, Debug)]
pub struct CheckedExample {
    /// Index in [`isa_dsl::ir::Isa::optypes`] of the optype whose `__Examples` hold the line.
    pub optype: usize,
    /// The line as the spec writes it (trimmed).
    pub text: String,
    /// Where the line is in the spec.
    pub loc: isa_dsl::ir::Loc,
    /// The word and its canonical disassembly, or why it failed.
    pub result: Result<(u128, String), String>,
}

/// Assembles every example of the ISA.
pub fn check_examples(asm: &Assembler) -> (Vec<CheckedExample>, Vec<Diagnostic>, ExampleStats) {
    let isa = asm.codec().isa();
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut stats = ExampleStats::default();
    for (ot, o) in isa.optypes.iter().enumerate() {
        for ex in &o.examples {
            let first = asm.assemble_line(&ex.text);
            let result = match &first {
                Ok(None) => continue,
                // A `.word` that does not decode is no instruction.
                Ok(Some(Assembled { raw: Err(e), .. })) => Err((e.col, e.message.clone())),
                Ok(Some(Assembled { raw: Ok(raw), word })) => {
                    let word = *word;
                    let text = asm.render(raw);
                    match asm.assemble_line(&text) {
                        Ok(Some(b)) if b.word == word => Ok((word, text)),
                        Ok(_) => Err((0, format!("disassembles to `{text}`, which does not assemble to the same bits"))),
                        Err(e) => Err((0, format!("disassembles to `{text}`, which does not assemble: {}", e.message))),
                    }
                }
                Err(e) => Err((e.col, e.message.clone())),
            };
            // `；` typed by an input method: said, as the spec's own errors say it.
            let result = result.map_err(|(col, m)| match isa_runtime::spelling::full_width_hint(&ex.text) {
                Some(hint) => (col, format!("{m} ({hint})")),
                None => (col, m),
            });
            stats.total += 1;
            // An example of another instruction (copied with its text).
            if let (Ok(Some(Assembled { raw: Ok(raw), .. })), Some(span)) = (&first, ex.loc.span) {
                let theirs = isa.opcodes[raw.opcode].optype;
                if theirs != ot {
                    let lead = ex.text.len() - ex.text.trim_start().len();
                    let name = ex.text.trim_start().split([' ', '\t', '.']).next().unwrap_or_default();
                    let at = span.start as usize + lead;
                    diags.push(
                        Diagnostic::new(Code::ForeignExample, Span::new(span.file, at, at + name.len()), format!("example of `{}` among the examples of `{}`", isa.optypes[theirs].name, o.name))
                            .with_label(format!("assembles as `{}`", isa.opcodes[raw.opcode].name)),
                    );
                }
            }
            let result = match result {
                Ok(r) => {
                    stats.round_trip += 1;
                    Ok(r)
                }
                Err((col, message)) => {
                    stats.defective += 1;
                    // A message quotes what the line wrote, which may be a megabyte.
                    let message = isa_runtime::text::asm::shorten_quotes(&message);
                    if let Some(span) = ex.loc.span {
                        let at = span.start as usize + col.min(ex.text.len());
                        let end = at + ex.text[col.min(ex.text.len())..].chars().next().map_or(0, char::len_utf8);
                        diags.push(
                            Diagnostic::new(Code::BadExample, Span::new(span.file, at, end), format!("example does not assemble: {message}"))
                                .with_label(message.clone()),
                        );
                    }
                    Err(message)
                }
            };
            out.push(CheckedExample { optype: ot, text: ex.text.trim().to_string(), loc: ex.loc, result });
        }
    }
    (out, diags, stats)
}
