//! A downstream crate using `isa!`: the seed ISA compiled into this crate at
//! build time, with the same API as the checked-in `generated/` crate.
//! Editing any spec file rebuilds this crate (adding one too: `build.rs`).
//! It forbids missing docs and the lints the generated crate allows, as a
//! careful library may: an `allow` inside the expansion cannot override
//! `forbid` (E0453), so the expansion must document every item and carry
//! no `allow` of the compiler's own lints (they are not reported inside
//! another crate's macro anyway).
#![forbid(missing_docs, non_camel_case_types, non_snake_case, unused, dead_code, unreachable_patterns, unsafe_code, deprecated)]

isa_macros::isa! {
    // The whole spec, as `isa-codegen spec/` reads it (subfolders too:
    // the simulation hooks live in `spec/simulation/`).
    include "../../spec/**/*.txt";
    module gpu;
    // The seeds' known defects (`isa-codegen check spec/` lists all 88):
    // without this, `isa!` sums them up in one `deprecated` warning, which
    // the `forbid` above would make an error.
    allow "W001, W002, W003, W004, W005, W006, W008, W010, W014, W015, W017, W020, W025, W034, W035, W036";
}

// The built-in ISA's reference semantics for this crate's `gpu::sim::Kernels`:
// defines `Reference`, so `gpu::Instruction::execute(&i, &mut warp, &Reference)` runs.
isa_reference::reference_kernels!(gpu);

/// Assembles `program` and runs it on `warp` with the reference semantics.
pub fn run(program: &str, warp: &mut gpu::sim::Warp) -> Result<(), String> {
    let words = assemble(program).map_err(|e| e.join("\n"))?;
    for w in words {
        let i = gpu::Instruction::decode(w).map_err(|e| e.to_string())?;
        i.execute(warp, &Reference).map_err(|f| f.to_string())?;
    }
    Ok(())
}

/// Builds `IADD R{rd}, R{ra}, R{rb}` and returns its encoding.
pub fn iadd(rd: u64, ra: u64, rb: u64) -> Result<u128, String> {
    let reg = |i| gpu::Reg::new(i).map_err(|e| e.to_string());
    let i = gpu::IADD_RR::DEFAULT.with_rd(reg(rd)?).with_ra(reg(ra)?).with_rb(reg(rb)?);
    i.encode().map_err(|e| e.to_string())
}

/// Assembles a program: one word per instruction line, or every bad line as
/// `line:col: message`.
pub fn assemble(text: &str) -> Result<Vec<u128>, Vec<String>> {
    let (words, errors) = gpu::text::assemble(text);
    if errors.is_empty() {
        return Ok(words);
    }
    Err(errors.iter().map(ToString::to_string).collect())
}

/// Disassembles words, one line each (`.word` for words no syntax form covers).
pub fn disassemble(words: &[u128]) -> Result<String, gpu::DecodeError> {
    let mut out = String::new();
    for &w in words {
        gpu::Instruction::decode(w)?.write_text(&mut out);
        out.push('\n');
    }
    Ok(out)
}
