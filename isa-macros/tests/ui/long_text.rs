// Texts longer than a printer's piece and a modifier field wider than its
// tables: the generated printer spells them out the slow way. It must print
// what the interpreted disassembler prints, and read back to the same word.
isa_macros::isa! {
    include "../spec/base/*.txt",
    include "tests/ui/specs/long_text.txt",
    module long;
}

fn main() {
    let root = std::path::PathBuf::from(std::env::var("ISA_MACRO_ROOT").unwrap());
    let fe = isa_dsl::load(&[root.join("../spec/base"), root.join("tests/ui/specs/long_text.txt")]);
    assert!(!fe.has_errors(), "{:?}", fe.diagnostics);
    let asm = isa_codegen::asm::Assembler::new(&fe.isa);
    let (mask, bits) = (long::LONGOP_R::FIXED_MASK, long::LONGOP_R::FIXED_BITS);
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..100_000u32 {
        let mut w = ((next() as u128) << 64 | next() as u128) & !mask | bits;
        // Mostly valid modes (3 of 512 values are), all lanes and registers.
        let mode = [0u128, 1, 300, 7][k as usize % 4];
        w = w & !(0x1FF << 40) | mode << 40;
        let Ok(i) = long::Instruction::decode(w) else { continue };
        let text = long::text::disassemble(w).unwrap();
        assert_eq!(text, i.to_string());
        assert_eq!(text, asm.disassemble(w).unwrap(), "{w:#034x}");
        let back: long::Instruction = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
        assert_eq!(back, i, "`{text}`");
        for piece in ["AVeryLongModifierName", "AVeryLongLaneSelector", "LONGREGISTERZERO", "LONGREGISTERX200", "LONGREGISTERX7,", ".Other"] {
            if text.contains(piece) {
                seen.insert(piece);
            }
        }
    }
    assert_eq!(seen.len(), 6, "every slow path printed: {seen:?}");
}
