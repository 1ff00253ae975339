//! The compiler knows no ISA by name: everything comes from `spec/`. These
//! tests rename values of the seed spec consistently (in every file, as a
//! spec author would) and check that the assembler gives the same bits, and
//! that the bits are the ones the spec's own meaning gives (bfloat16 lanes by
//! hand, the byte selector's number), not whatever the code happened to do.

use isa_codegen::asm::Assembler;
use std::path::Path;

/// Every file of `spec/` as (name, text), with `renames` applied to whole words.
fn renamed_spec(renames: &[(&str, &str)]) -> isa_dsl::ir::Isa {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for path in isa_dsl::collect_spec_files(&[root], &mut diags) {
        let mut text = std::fs::read_to_string(&path).unwrap();
        for (from, to) in renames {
            text = replace_word(&text, from, to);
        }
        isa_dsl::add_source(&mut sources, &path.display().to_string(), text.as_bytes(), &mut diags);
    }
    let fe = isa_dsl::compile(sources, diags);
    assert!(!fe.has_errors(), "{}", fe.render_diagnostics());
    fe.isa
}

/// `text` with each occurrence of the identifier `from` (not inside a longer one) replaced.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back().or_else(|| out.chars().next_back());
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        out.push_str(if before.is_some_and(is_ident) || after.is_some_and(is_ident) { from } else { to });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

fn word(asm: &Assembler, line: &str) -> u128 {
    match asm.assemble_line(line) {
        Ok(Some(a)) => a.word,
        other => panic!("`{line}`: {other:?}"),
    }
}

/// Field `name` of word `w`, read at the bits the decoded opcode gives it.
fn field(isa: &isa_dsl::ir::Isa, w: u128, name: &str) -> u64 {
    let raw = isa_codegen::interp::Codec::new(isa).decode(w).expect("decodes");
    let f = isa.opcodes[raw.opcode].field(name).expect("the opcode has that field");
    ((w >> f.start) as u64) & ((1u64 << f.width) - 1)
}

#[test]
fn renaming_a_float_format_value_keeps_its_immediates() {
    let plain = renamed_spec(&[]);
    let renamed = renamed_spec(&[("BF16_V2", "BFLOAT_X2"), ("F16_V2", "HALF_X2")]);
    let (a, b) = (Assembler::new(&plain), Assembler::new(&renamed));
    let bf16 = word(&a, "HADD2.BF16_V2 R0, R1, 1.5, -2");
    assert_eq!(bf16, word(&b, "HADD2.BFLOAT_X2 R0, R1, 1.5, -2"));
    // bfloat16 by hand: 1.5 = 0 01111111 1000000, -2 = 1 10000000 0000000;
    // the high lane (H1) is written first.
    assert_eq!(field(&plain, bf16, "vb"), 0x3FC0_C000);
    let f16 = word(&a, "HADD2 R0, R1, 1.5, -2");
    assert_eq!(f16, word(&b, "HADD2 R0, R1, 1.5, -2"));
    // binary16: 1.5 = 0 01111 1000000000, -2 = 1 10000 0000000000.
    assert_eq!(field(&plain, f16, "vb"), 0x3E00_C000);
}

#[test]
fn renaming_an_integer_type_value_keeps_its_selectors() {
    let plain = renamed_spec(&[]);
    let renamed = renamed_spec(&[("S8", "SBYTE"), ("S16", "SHALF")]);
    let (a, b) = (Assembler::new(&plain), Assembler::new(&renamed));
    let byte2 = word(&a, "I2F.F32.S8.RN R0, R1.B2");
    assert_eq!(byte2, word(&b, "I2F.F32.SBYTE.RN R0, R1.B2"));
    assert_eq!(field(&plain, byte2, "rb.vsel"), 2, "B2 selects byte 2");
    let half1 = word(&a, "I2F.F32.S16.RN R0, R1.H1");
    assert_eq!(half1, word(&b, "I2F.F32.SHALF.RN R0, R1.H1"));
    assert_eq!(field(&plain, half1, "rb.vsel"), 1, "H1 selects half 1");
    // The width decides the spelling, on both specs.
    for (asm, ty) in [(&a, "S16"), (&b, "SHALF")] {
        let line = format!("I2F.F32.{ty}.RN R0, R1.B2");
        assert!(asm.assemble_line(&line).is_err(), "`{line}` must be rejected: a 16-bit source has no byte 2");
    }
}
