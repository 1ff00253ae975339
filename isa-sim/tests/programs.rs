//! Every opcode executes: the programs in `programs.yaml` (expectations
//! worked out by hand from the spec) plus F2FP, which has no assembly syntax
//! and is built as structs here. The last test checks that together they
//! cover all opcodes of the ISA.

use isa_generated::{sim::new_warp, Instruction, OPCODE_NAMES};
use isa_runtime::sim::{Warp, LANES};
use std::collections::BTreeSet;

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    state: String,
    program: String,
    expect: serde_yaml::Mapping,
}

fn cases() -> Vec<Case> {
    let text = include_str!("programs.yaml");
    serde_yaml::from_str(text).expect("programs.yaml parses")
}

/// Checks the registers `expect` names; returns a description of each mismatch.
fn check(warp: &Warp, expect: &serde_yaml::Mapping) -> Vec<String> {
    check_from(warp, expect, None)
}

/// [`check`], and with `state`, every other register too: it must still
/// hold its value from `state` (nothing but what `expect` names changed).
fn check_from(warp: &Warp, expect: &serde_yaml::Mapping, state: Option<&str>) -> Vec<String> {
    let mut bad = Vec::new();
    if let Some(state) = state {
        let mut before = new_warp();
        isa_sim::state::load(&mut before, state).unwrap();
        for (file, spec) in warp.file_specs().enumerate() {
            for idx in 0..spec.count {
                let name = spec.register_name(idx);
                let named = expect.keys().any(|k| k.as_str().and_then(|n| warp.parse_register(n)) == Some((file, idx)));
                let value = |w: &Warp| if spec.warp { vec![w.warp(file, idx as u64)] } else { w.lanes(file, idx as u64).to_vec() };
                if !named && value(warp) != value(&before) {
                    bad.push(format!("{name} changed, and expect does not name it"));
                }
            }
        }
    }
    let mut want = new_warp();
    let mut doc = serde_yaml::Mapping::new();
    doc.insert("regs".into(), serde_yaml::Value::Mapping(expect.clone()));
    let text = serde_yaml::to_string(&doc).unwrap();
    isa_sim::state::load(&mut want, &text).unwrap_or_else(|e| panic!("bad expectation: {}", e.message));
    for k in expect.keys() {
        let name = k.as_str().map(str::to_string).unwrap_or_else(|| format!("{k:?}"));
        let (file, idx) = warp.parse_register(&name).expect("a register");
        for lane in 0..LANES {
            let (got, exp) = (warp.get(file, idx as u64, lane), want.get(file, idx as u64, lane));
            if got != exp {
                bad.push(format!("{name} lane {lane}: got {got:#010x}, expected {exp:#010x}"));
                break;
            }
        }
    }
    bad
}

fn executed() -> BTreeSet<&'static str> {
    let mut seen = BTreeSet::new();
    for case in cases() {
        for (i, _) in isa_sim::assemble(&case.program).unwrap_or_default() {
            seen.insert(i.name());
        }
    }
    seen.extend(f2fp_program().iter().map(|(i, _)| i.name()));
    seen
}

#[test]
fn programs_give_the_expected_state() {
    let mut failures = Vec::new();
    for case in cases() {
        let program = match isa_sim::assemble(&case.program) {
            Ok(p) => p,
            Err(errors) => {
                for e in errors {
                    let (at, _) = e.span.unwrap_or((0, 0));
                    let line = case.program[..at].matches('\n').count() + 1;
                    failures.push(format!("{}: line {line}: {}", case.name, e.message));
                }
                continue;
            }
        };
        let mut warp = new_warp();
        isa_sim::state::load(&mut warp, &case.state).unwrap_or_else(|e| panic!("{}: state: {}", case.name, e.message));
        if let Err(e) = isa_sim::run(&mut warp, &program) {
            failures.push(format!("{}: {}", case.name, e.message));
            continue;
        }
        failures.extend(check_from(&warp, &case.expect, Some(&case.state)).into_iter().map(|m| format!("{}: {m}", case.name)));
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

/// Every instruction of every program matters to its `expect`: run without
/// it, the program must fail its check. An instruction whose result a later
/// one overwrites, or that `expect` does not read, would otherwise count as
/// covered by [`every_opcode_executes_in_some_program`] while nothing
/// checks it.
#[test]
fn every_instruction_is_checked() {
    let mut unchecked = Vec::new();
    for case in cases() {
        let program = isa_sim::assemble(&case.program).expect("assembles (see programs_give_the_expected_state)");
        for skip in 0..program.len() {
            let mut rest = program.clone();
            let (inst, (at, _)) = rest.remove(skip);
            let mut warp = new_warp();
            isa_sim::state::load(&mut warp, &case.state).unwrap();
            if isa_sim::run(&mut warp, &rest).is_ok() && check(&warp, &case.expect).is_empty() {
                let line = case.program[..at].matches('\n').count() + 1;
                unchecked.push(format!("{}: line {line} ({}): the check passes without it", case.name, inst.name()));
            }
        }
    }
    assert!(unchecked.is_empty(), "{} instruction(s) nothing checks:\n{}", unchecked.len(), unchecked.join("\n"));
}

/// F2FP in each operand form: F32 pairs to E4M3 (packed with Rc's half) and
/// back from E4M3 to F16.
fn f2fp_program() -> Vec<(Instruction, (usize, usize))> {
    use isa_generated::*;
    let r = |n| Reg::new(n).unwrap();
    let narrow = (F2FPSrcType::F32, F2FPDstType::E4M3);
    vec![
        (Instruction::F2FP_RRR(F2FP_RRR::DEFAULT.with_rd(r(10)).with_ra(r(2)).with_rb(r(1)).with_rc(r(3)).with_rc_hsel(HSel::H1).with_srctype(narrow.0).with_dsttype(narrow.1)), (0, 0)),
        (Instruction::F2FP_RUR(F2FP_RUR::DEFAULT.with_rd(r(11)).with_ra(r(2)).with_urb(UReg::new(1).unwrap()).with_rc(r(3)).with_rc_hsel(HSel::H1).with_srctype(narrow.0).with_dsttype(narrow.1)), (0, 0)),
        (Instruction::F2FP_RIR(F2FP_RIR::DEFAULT.with_rd(r(12)).with_ra(r(2)).with_vb(F32Imm::from_raw(1.0f32.to_bits() as u64).unwrap()).with_rc(r(3)).with_rc_hsel(HSel::H1).with_srctype(narrow.0).with_dsttype(narrow.1)), (0, 0)),
        (Instruction::F2FP_RCR(F2FP_RCR::DEFAULT.with_rd(r(13)).with_ra(r(2)).with_vb(CMem::new(0, 0).unwrap()).with_rc(r(3)).with_rc_hsel(HSel::H1).with_srctype(narrow.0).with_dsttype(narrow.1)), (0, 0)),
        // E4M3 bytes 0x40 (2.0) in R4's byte 1 and R5's byte 1, selected by .B1: F16 (1.0 is 0x3C00, 2.0 0x4000).
        (Instruction::F2FP_RRR(F2FP_RRR::DEFAULT.with_rd(r(14)).with_ra(r(4)).with_rb(r(5)).with_rb_vsel(VSel::S1).with_srctype(F2FPSrcType::E4M3).with_dsttype(F2FPDstType::F16)), (0, 0)),
    ]
}

#[test]
fn f2fp_executes_in_every_form() {
    let mut warp = new_warp();
    let state = "regs: {R1: 1.0, R2: 2.0, R3: 0xABCD1234, UR1: 1.0, R4: 0x3800, R5: 0x4000}\ncmem: {\"c[0x0][0x0]\": 1.0}\n";
    isa_sim::state::load(&mut warp, state).unwrap();
    isa_sim::run(&mut warp, &f2fp_program()).unwrap();
    // SrcB = 1.0 -> 0x38 in byte 0, Ra = 2.0 -> 0x40 in byte 1, Rc.H1 = 0xABCD above.
    let expect: serde_yaml::Mapping = serde_yaml::from_str("{R10: 0xABCD4038, R11: 0xABCD4038, R12: 0xABCD4038, R13: 0xABCD4038, R14: 0x3C004000}").unwrap();
    let bad = check(&warp, &expect);
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn every_opcode_executes_in_some_program() {
    let seen = executed();
    let missing: Vec<&&str> = OPCODE_NAMES.iter().filter(|n| !seen.contains(*n)).collect();
    assert!(missing.is_empty(), "{} opcode(s) never executed: {missing:?}", missing.len());
}

#[test]
fn a_bad_index_faults_before_any_lane_writes() {
    let program = isa_sim::assemble("GETGPR R1, R[UR1+0xff] ;\n").unwrap();
    let mut warp = new_warp();
    isa_sim::state::load(&mut warp, "regs: {UR1: 200, R1: 5}").unwrap();
    let before = warp.clone();
    let e = isa_sim::run(&mut warp, &program).unwrap_err();
    assert!(e.message.contains("register index 455"), "{}", e.message);
    assert_eq!(warp, before);
}

/// A constant is read whole at a word's address: a misaligned one faults
/// (it read bytes of two words before), and nothing is written.
#[test]
fn a_misaligned_constant_faults() {
    let mut warp = new_warp();
    isa_sim::state::load(&mut warp, "cmem:\n  c[0][0]: 0x11223344\n  c[0][4]: 0x55667788\nregs: {R1: 9}").unwrap();
    let before = warp.clone();
    for at in ["0x3", "0x2", "0x1ffff"] {
        let program = isa_sim::assemble(&format!("MOV R1, c[0x0][{at}] ;\n")).unwrap();
        let e = isa_sim::run(&mut warp, &program).unwrap_err();
        assert!(e.message.contains("is not a word's address"), "{at}: {}", e.message);
        assert_eq!(warp, before);
    }
    let program = isa_sim::assemble("MOV R1, c[0x0][0x4] ;\nIADD R2, R1, c[0x0][0x8] ;\n").unwrap();
    isa_sim::run(&mut warp, &program).unwrap();
    let expect: serde_yaml::Mapping = serde_yaml::from_str("{R1: 0x55667788, R2: 0x55667788}").unwrap();
    assert!(check(&warp, &expect).is_empty());
}

/// A 64-bit constant whose high word would lie past the last offset the
/// operand names (`c[0x0][0x1fffc]`, offsets below 0x20000) faults, as a
/// misaligned one does; it read that word as 0 (review 50, F2). One word
/// earlier it reads both words.
#[test]
fn a_64_bit_constant_past_the_bank_faults() {
    let mut warp = new_warp();
    // Bank 1 follows: the high word is not read from it either.
    isa_sim::state::load(&mut warp, "cmem:\n  c[0][0x1fff8]: 0x11223344\n  c[0][0x1fffc]: 5\n  c[1][0]: 0x77\nregs: {R2: 1, R3: 1}").unwrap();
    let before = warp.clone();
    let program = isa_sim::assemble("IMAD.WIDE.U32 R[0:1], R2, R3, c[0x0][0x1fffc] ;\n").unwrap();
    let e = isa_sim::run(&mut warp, &program).unwrap_err();
    assert!(e.message.contains("c[0x0][0x1fffc] holds no 64-bit constant: its high word would be at 0x20000, past the last word the operand can name, 0x1fffc"), "{}", e.message);
    assert_eq!(warp, before);
    let program = isa_sim::assemble("IMAD.WIDE.U32 R[0:1], R2, R3, c[0x0][0x1fff8] ;\n").unwrap();
    isa_sim::run(&mut warp, &program).unwrap();
    let expect: serde_yaml::Mapping = serde_yaml::from_str("{R0: 0x11223345, R1: 5}").unwrap();
    let bad = check(&warp, &expect);
    assert!(bad.is_empty(), "{bad:?}");
}

/// MOV.64, built as structs here (its template `MOV.64 Rd, Ra` takes no
/// immediate, which the `MOV_I` encoding holds): the `Bitwidth` expression
/// `32 + (width=="64")*32` makes Rd and Rb pairs.
#[test]
fn mov_64_moves_register_pairs() {
    use isa_generated::*;
    let r = |n| Reg::new(n).unwrap();
    let mut warp = new_warp();
    isa_sim::state::load(&mut warp, "regs: {R4: 0x11111111, R5: 0x22222222}").unwrap();
    let program = vec![
        (Instruction::MOV_R(MOV_R::DEFAULT.with_rd(r(10)).with_rb(r(4)).with_width(MOVW::V64)), (0, 0)),
        (Instruction::MOV_R(MOV_R::DEFAULT.with_rd(r(20)).with_rb(r(4)).with_width(MOVW::V32)), (0, 0)),
        (Instruction::MOV_I(MOV_I::DEFAULT.with_rd(r(30)).with_vb(SImm32::new(-2).unwrap()).with_width(MOVW::V64)), (0, 0)),
    ];
    isa_sim::run(&mut warp, &program).unwrap();
    let expect: serde_yaml::Mapping =
        serde_yaml::from_str("{R10: 0x11111111, R11: 0x22222222, R20: 0x11111111, R21: 0, R30: 0xFFFFFFFE, R31: 0xFFFFFFFF}").unwrap();
    let bad = check(&warp, &expect);
    assert!(bad.is_empty(), "{bad:?}");
}

/// Bad input never panics: random state texts (YAML-ish fragments and raw
/// bytes) and random programs give a `RunError` or a state, nothing else.
#[test]
fn garbage_state_and_programs_do_not_panic() {
    let pieces = [
        "active:", " 0x", "ffff", "regs:", "\n  ", "R1", "UR63", "URZ", "P7", ": ", "[", "]", ", ", "true", "-1", "1.5e40",
        "cmem:", "\"c[0x1f][0x1fffc]\"", "c[", "][", "{", "}", "0x1_0000_0000", "nan", "~", "&a", "*a", "!!binary", "\t", "\u{fffd}",
    ];
    let ops = ["FFMA R0, R1, R2, R3", "GETGPR R1, R[UR1+0xff]", "SETGPR R[UR2-0x100], R1", "R2UR UR1, R2", "@!P0 IADD R1, R2, -R3", "P2R R1, PR, R2, 0xff", "junk", "F2F.F16.F32 R1, -|R2|"];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..3000 {
        let n = next() % 12;
        let state: String = (0..n).map(|_| pieces[next() as usize % pieces.len()]).collect();
        let m = next() % 4;
        let program: String = (0..m).map(|_| format!("{} ;\n", ops[next() as usize % ops.len()])).collect();
        let mut warp = new_warp();
        let _ = isa_sim::state::load(&mut warp, &state);
        let _ = isa_sim::run_program(&program, &state);
        // Whatever the garbage left in the warp, its dump reads back
        // (`state_roundtrip.rs` checks that it reads back as the same warp).
        let dumped = isa_sim::state::dump(&warp);
        assert!(isa_sim::state::load(&mut new_warp(), &dumped).is_ok(), "{dumped}");
    }
}

#[test]
fn a_word_that_does_not_decode_is_not_run() {
    // `.word` keeps any value as data, but only an instruction runs: the
    // error is at the number, as `isa asm` would place it.
    let e = isa_sim::assemble("MOV R1, R2 ;\n.word 0x1 ;\n").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].span, e[0].message.as_str()), (Some((19, 1)), "`.word` does not decode: 0x00000000000000000000000000000001: unknown opcode"));
    // A word that decodes runs as its instruction.
    let word = isa_generated::text::assemble("MOV R1, R2 ;").0[0];
    let program = isa_sim::assemble(&format!(".word {word:#034x}\n")).unwrap();
    assert_eq!(program[0].0.to_string(), "MOV R1, R2");
}
