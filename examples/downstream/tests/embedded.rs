//! The ISA embedded with `isa!` behaves exactly like the generated crate.

use isa_downstream_example::{assemble, disassemble, gpu, iadd};

#[test]
fn encodes_and_decodes() {
    let w = iadd(1, 2, 3).unwrap();
    match gpu::Instruction::decode(w).unwrap() {
        gpu::Instruction::IADD_RR(i) => {
            assert_eq!((i.rd().index(), i.ra().index(), i.rb().index()), (1, 2, 3));
            assert_eq!(i.pg(), gpu::Pred::PT);
        }
        other => panic!("decoded as {}", other.name()),
    }
    assert_eq!(gpu::Instruction::decode(w).unwrap().to_le_bytes().unwrap(), w.to_le_bytes());
    assert!(iadd(256, 0, 0).is_err(), "R256 does not exist");
}

#[test]
fn agrees_with_the_generated_crate_on_random_words() {
    let mut x = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Keys (low 12 bits) that select some opcode, to aim half the words at real opcodes.
    let keys: Vec<u128> = (0..4096u128)
        .filter(|&k| !matches!(isa_generated::Instruction::decode(k), Err(isa_generated::DecodeError::UnknownOpcode { .. })))
        .collect();
    // 184 opcodes, less F2IP's four, which also fix `ftype` outside the key.
    assert_eq!(keys.len(), 180);
    let mut decoded = 0;
    for k in 0..200_000 {
        let mut w = (next() as u128) << 64 | next() as u128;
        if k % 2 == 0 {
            w = (w & !0xFFF) | keys[(next() % keys.len() as u64) as usize];
        }
        let a = gpu::Instruction::decode(w);
        let b = isa_generated::Instruction::decode(w);
        assert_eq!(a.is_ok(), b.is_ok(), "{w:#x}");
        if let (Ok(a), Ok(b)) = (a, b) {
            decoded += 1;
            assert_eq!(a.name(), b.name());
            assert_eq!(a.raw_fields(), b.raw_fields());
            assert_eq!(a.encode().unwrap(), b.encode().unwrap());
        }
    }
    assert!(decoded > 1000, "only {decoded} words decoded");
}

#[test]
fn assembles_and_disassembles_a_program() {
    let program = "\
// y = a * x + y, then clamp
@P0 FFMA.FTZ R4, R1, R2, R4
FMNMX R4, R4, 1, PT
loop: IADD R1, R1, 0x10
";
    let words = assemble(program).unwrap();
    assert_eq!(words.len(), 3);
    // The same bits as the checked-in generated crate.
    assert_eq!(words, isa_generated::text::assemble(program).0);
    let text = disassemble(&words).unwrap();
    assert_eq!(text, "@P0 FFMA.FTZ R4, R1, R2, R4\nFMNMX R4, R4, 1, PT\nIADD R1, R1, 0x10\n");
    assert_eq!(assemble(&text).unwrap(), words, "the printed text assembles to the same bits");
    let one: gpu::Instruction = "FADD.RZ R0, -R1, |R2|".parse().unwrap();
    assert_eq!(one.to_string(), "FADD.RZ R0, -R1, |R2|");
}

#[test]
fn reports_bad_lines_with_line_and_column() {
    let errors = assemble("FADD R1, R2, R3\nFADD R1, R2, R999\nFMUL.XYZ R1, R2, R3\n").unwrap_err();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].starts_with("2:"), "{errors:?}");
    assert!(errors[0].contains("R999"), "{errors:?}");
    assert!(errors[1].starts_with("3:") && errors[1].contains(".XYZ"), "{errors:?}");
}

/// `reference_kernels!(.. as Name)`: the kernels under a name of the
/// caller's choosing, here beside the crate's own `Reference`.
mod named {
    isa_reference::reference_kernels!(isa_downstream_example::gpu as Semantics);
}

#[test]
fn reference_kernels_take_a_type_name() {
    let words = assemble("MOV R1, 0x40400000\nMOV R2, 0x3FC00000\nFFMA R3, R1, R2, R1\n").unwrap();
    let mut w = gpu::sim::new_warp();
    for word in words {
        gpu::Instruction::decode(word).unwrap().execute(&mut w, &named::Semantics).unwrap();
    }
    assert_eq!(w.lane(gpu::sim::FILE_REG, 3, 0), 0x40F0_0000, "3 * 1.5 + 3 = 7.5");
}

/// The embedded ISA runs with `isa-reference`'s kernels (this crate's own
/// `Reference`): FFMA computes 3 * 1.5 + 3, and random instructions on
/// random warps leave the same warp as `isa-sim` does. Both apply the same
/// kernels (to `generated/`'s trait there), so this holds the macro's
/// application to an expansion (its types, paths, operand plumbing), not
/// the semantics, which `isa-sim`'s and `isa-runtime`'s tests hold to
/// oracles.
#[test]
fn executes_as_the_reference_simulator_does() {
    let mut w = gpu::sim::new_warp();
    isa_downstream_example::run("MOV R1, 0x40400000\nMOV R2, 0x3FC00000\nFFMA R3, R1, R2, R1\n", &mut w).unwrap();
    assert_eq!(w.lane(gpu::sim::FILE_REG, 3, 0), 0x40F0_0000, "7.5");
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut ran = 0;
    while ran < 3000 {
        let word = (next() as u128) << 64 | next() as u128;
        let (Ok(ours), Ok(theirs)) = (gpu::Instruction::decode(word), isa_generated::Instruction::decode(word)) else { continue };
        let mut a = gpu::sim::new_warp();
        for f in 0..gpu::sim::FILES.len() {
            for r in 0..gpu::sim::FILES[f].count as u64 {
                for lane in 0..isa_runtime::sim::LANES {
                    let v = if gpu::sim::FILES[f].predicate { next() as u32 & 1 } else { next() as u32 };
                    a.set(f, r, lane, v);
                }
            }
        }
        a.active = next() as u32 | 1;
        for bank in 0..4 {
            for k in 0..256 {
                a.cmem.write(bank, k * 4, next() as u32).unwrap();
            }
        }
        let mut b = isa_generated::sim::new_warp();
        b.cmem = a.cmem.clone();
        for f in 0..gpu::sim::FILES.len() {
            for r in 0..gpu::sim::FILES[f].count as u64 {
                for lane in 0..isa_runtime::sim::LANES {
                    b.set(f, r, lane, a.get(f, r, lane));
                }
            }
        }
        b.active = a.active;
        let (ra, rb) = (ours.execute(&mut a, &isa_downstream_example::Reference), theirs.execute(&mut b, &isa_sim::Reference));
        assert_eq!(ra.map_err(|f| f.to_string()), rb.map_err(|f| f.to_string()), "{theirs}");
        assert!(a == b, "{theirs}: the warps differ");
        ran += 1;
    }
}
