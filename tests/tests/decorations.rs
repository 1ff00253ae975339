//! No decoration is dropped silently. For random valid instructions, each
//! operand of the canonical text that has no prefix is given one (`-`, `~`,
//! `!`, `|..|`), and each that has no suffix one (`.H1`, `.B3`, ...), and
//! the line assembled again. A
//! decoration is a field's value, so the line must either be rejected, or
//! give another word whose canonical text is the line as written (the
//! decoration landed where it was written; an optional operand it put at
//! its default is omitted there). The same word as without it
//! means the assembler read the decoration and threw it away, as it did
//! with `~` on LEA.HI.X's `SrcB` (review 38). The expectation is a property
//! of the language, not a recorded output: no path's answer is trusted.

use isa_codegen::asm::Assembler;
use isa_codegen::interp::Codec;
use isa_generated::Instruction;
use isa_tests::{random_valid, Rng};

/// The guard, mnemonic, operands and controls of a canonical line
/// (`@P0 FADD.FTZ R1, -R2, |R3| &req=0x1`): the operands as split at `, `,
/// so an F16 pair's lanes are two.
fn split(text: &str) -> (&str, Vec<&str>, &str) {
    let (head, controls) = match text.find(" &") {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    // The guard and the mnemonic end at the second space when there is a guard.
    let skip = if head.starts_with('@') { head.find(' ').map_or(head.len(), |i| i + 1) } else { 0 };
    match head[skip..].find(' ') {
        Some(i) => (&head[..skip + i], head[skip + i + 1..].split(", ").collect(), controls),
        None => (head, Vec::new(), controls),
    }
}

/// Whether `-` on this operand writes the value it already has: a zero
/// integer (`-0x0` is `0x0`).
fn negates_to_itself(op: &str) -> bool {
    matches!(op, "0x0" | "0" | "-0x0")
}

/// The decorations tried on an operand that has none of the same kind.
fn mutations(op: &str) -> Vec<String> {
    let mut out = Vec::new();
    let decorated = op.starts_with(['-', '~', '!', '|']);
    if !decorated {
        if !negates_to_itself(op) {
            out.push(format!("-{op}"));
        }
        out.push(format!("~{op}"));
        out.push(format!("!{op}"));
        out.push(format!("|{op}|"));
    }
    // A suffix on an operand that has none (a suffix ends in a letter or
    // digit after a dot past the core: `R2.H1`, not `c[0x0][0x10]`).
    let core = op.trim_start_matches(['-', '~', '!', '|']).trim_end_matches('|');
    if !core.contains('.') && !core.ends_with(']') {
        for sfx in [".H0_H0", ".H1_H1", ".H1", ".B3", ".B1"] {
            let at = op.len() - (op.len() - op.trim_end_matches('|').len());
            out.push(format!("{}{sfx}{}", &op[..at], &op[at..]));
        }
    }
    out
}

#[test]
fn every_decoration_written_is_encoded_or_refused() {
    let isa = isa_tests::spec_isa();
    let codec = Codec::new(&isa);
    let asm = Assembler::new(&isa);
    let mut rng = Rng(38);
    let (mut tried, mut accepted, mut lines) = (0usize, 0usize, 0usize);
    let mut dropped = Vec::new();
    for _ in 0..12_000 {
        let (_, word) = random_valid(&codec, &mut rng);
        let text = Instruction::decode(word).expect("a valid word decodes").to_string();
        if text.starts_with(".word") {
            continue;
        }
        lines += 1;
        let (head, ops, controls) = split(&text);
        for k in 0..ops.len() {
            for m in mutations(ops[k]) {
                let mut written = ops.clone();
                written[k] = &m;
                let line = format!("{head} {}{controls}", written.join(", "));
                tried += 1;
                let generated = isa_runtime::text::assemble_line(&isa_generated::text::MODEL, &line).ok().flatten().map(|a| a.word);
                // The interpreted path on a sample (it is slower), which must agree.
                if tried % 16 == 0 {
                    let interp = asm.assemble_line(&line).ok().flatten().map(|a| a.word);
                    assert_eq!(interp, generated, "`{line}`: the two paths differ");
                }
                let Some(w) = generated else { continue };
                accepted += 1;
                if w == word {
                    dropped.push(format!("`{line}` gives the word of `{text}`"));
                    continue;
                }
                let back = Instruction::decode(w).map(|i| i.to_string()).unwrap_or_else(|e| format!("does not decode: {e}"));
                // An optional operand the decoration put at its default
                // (`!PT` where `pp` defaults to `!PT`) is omitted.
                let omitted = written.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, o)| *o).collect::<Vec<_>>().join(", ");
                let at_default = back == format!("{head} {omitted}{controls}");
                if back != line && !at_default {
                    dropped.push(format!("`{line}` gives {w:#034x}, which reads `{back}`"));
                }
            }
        }
    }
    assert!(dropped.is_empty(), "{} decorations lost or moved, e.g.:\n{}", dropped.len(), dropped.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
    // The property was exercised: most lines have operands, and some
    // decorations are legal (`-R2` on FADD, `!P1`, `.H1` on HADD2).
    assert!(lines > 10_000, "{lines} lines");
    assert!(tried > 120_000 && accepted > 3_000, "{tried} tried, {accepted} accepted");
}

#[test]
fn a_canonical_line_splits_into_its_parts() {
    assert_eq!(split("@!P1 FADD.FTZ R1, -R2, |R3| &req=0x1 &wsb=0x2"), ("@!P1 FADD.FTZ", vec!["R1", "-R2", "|R3|"], " &req=0x1 &wsb=0x2"));
    assert_eq!(split("HADD2 R1, R2.H1_H1, -1, 1"), ("HADD2", vec!["R1", "R2.H1_H1", "-1", "1"], ""));
    assert_eq!(split("NOP &sched=0x1"), ("NOP", vec![], " &sched=0x1"));
    assert_eq!(mutations("|R3|"), ["|R3.H0_H0|", "|R3.H1_H1|", "|R3.H1|", "|R3.B3|", "|R3.B1|"]);
    assert_eq!(mutations("0x0"), ["~0x0", "!0x0", "|0x0|", "0x0.H0_H0", "0x0.H1_H1", "0x0.H1", "0x0.B3", "0x0.B1"]);
}
