//! `Instruction::registers()` (from the spec's `InList`/`OutList`) against
//! what `execute` (the `__Simulation` hooks and the kernels) actually does,
//! on random instructions of every opcode and random warps:
//!
//! - every register whose value changes is one `registers().writes()` names;
//! - changing every register `registers()` does not name changes none of
//!   the registers the instruction writes (else the register that mattered
//!   is found by bisection: an undeclared read);
//! - a register only written (in `OutList`, not `InList`) is not read: with
//!   its old value changed, every lane the run wrote gets the same value,
//!   and every other register it writes too.
//!
//! The two are independent parts of the spec, so a mismatch is a spec
//! defect or a simulator bug. The opcodes that may mismatch are exactly
//! those `check` reports W017/W035 for (the seeds' SETGPR and GETGPR, whose
//! lists leave out the register they move); that set is read from the
//! front end's diagnostics, not written here.

use isa_generated::sim::{new_warp, Warp, FILES};
use isa_generated::Instruction;
use isa_sim::Reference;
use std::collections::BTreeSet;

mod common;
use common::Rng;

/// Every register of every file, as (file, index).
fn all_registers() -> Vec<(usize, u32)> {
    FILES.iter().enumerate().flat_map(|(f, s)| (0..s.count).filter(move |&i| s.is_writable(i)).map(move |i| (f, i))).collect()
}

/// Gives registers `regs` of `w` random values in every lane.
fn scramble(w: &mut Warp, regs: &[(usize, u32)], rng: &mut Rng) {
    for &(f, i) in regs {
        let per = if FILES[f].warp { 1 } else { isa_runtime::sim::LANES };
        for lane in 0..per {
            // Small values too, so that indexed operands (`R[UR2+0x1]`) name a register.
            let x = rng.next();
            let v = if FILES[f].predicate { x as u32 & 1 } else if x & 3 == 0 { (x >> 32) as u32 % 128 } else { (x >> 16) as u32 };
            w.set(f, i as u64, lane, v);
        }
    }
}

/// A random warp: random registers, constant memory, active lanes.
fn random_warp(rng: &mut Rng, all: &[(usize, u32)]) -> Warp {
    let mut w = new_warp();
    scramble(&mut w, all, rng);
    w.active = rng.next() as u32 | 1;
    for bank in 0..32u64 {
        for k in 0..64u64 {
            let _ = w.cmem.write(bank, k * 4, rng.next() as u32);
        }
    }
    w
}

/// Whether register `(f, i)` holds the same value in every lane of `a` and `b`.
fn same(a: &Warp, b: &Warp, (f, i): (usize, u32)) -> bool {
    (0..isa_runtime::sim::LANES).all(|lane| a.get(f, i as u64, lane) == b.get(f, i as u64, lane))
}

/// Runs `i` on `w` with `regs` scrambled; whether any register it writes
/// comes out different from `base` (the run without the scrambling).
/// Three tries with other values, as one may give the same result (`.SAT`
/// clamps, `RZ` multiplies).
fn influences(i: &Instruction, w: &Warp, base: &Warp, regs: &[(usize, u32)], rng: &mut Rng) -> bool {
    (0..3).any(|_| influences_once(i, w, base, regs, rng))
}

fn influences_once(i: &Instruction, w: &Warp, base: &Warp, regs: &[(usize, u32)], rng: &mut Rng) -> bool {
    let mut w2 = w.clone();
    scramble(&mut w2, regs, rng);
    if i.execute(&mut w2, &Reference).is_err() {
        return true;
    }
    let uses = i.registers();
    all_registers().into_iter().filter(|&(f, r)| uses.writes_register(f, r)).any(|reg| !same(&w2, base, reg))
}

/// The opcodes whose `InList`/`OutList` the front end says leave out an
/// operand their simulation hook reads or writes.
fn listed_defects() -> BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    fe.diagnostics
        .items
        .iter()
        .filter(|d| matches!(d.code.as_str(), "W017" | "W035"))
        .flat_map(|d| d.notes.iter().filter_map(|n| n.strip_prefix("in ").map(str::to_string)).chain(d.opcodes.iter().cloned()))
        .collect()
}

/// The typed accessors reach the same registers as the numbered ones, a
/// per-warp register from any lane, and a constant ignores writes.
#[test]
fn typed_register_access() {
    use isa_generated::{Pred, Reg, UReg};
    use isa_generated::sim::{FILE_PRED, FILE_REG, FILE_UREG};
    let mut w = new_warp();
    w.write(Reg::new(3).unwrap(), 5, 42);
    assert_eq!((w.read(Reg::new(3).unwrap(), 5), w.lane(FILE_REG, 3, 5), w.read(Reg::new(3).unwrap(), 4)), (42, 42, 0));
    w.write(UReg::new(2).unwrap(), 7, 9);
    assert_eq!((w.read(UReg::new(2).unwrap(), 0), w.read(UReg::new(2).unwrap(), 31), w.warp(FILE_UREG, 2)), (9, 9, 9));
    w.write(Reg::RZ, 0, 5);
    w.write(Pred::new(1).unwrap(), 0, 1);
    assert_eq!((w.read(Reg::RZ, 0), w.read(Pred::PT, 3), w.read(Pred::new(1).unwrap(), 0), w.lane(FILE_PRED, 1, 0)), (0, 1, 1, 1));
}

#[test]
fn registers_name_what_execute_reads_and_writes() {
    let all = all_registers();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut done = vec![0usize; isa_generated::OPCODE_NAMES.len()];
    let mut mismatched: BTreeSet<String> = BTreeSet::new();
    let mut tries = 0u64;
    const PER_OPCODE: usize = 6;
    while done.iter().any(|&n| n < PER_OPCODE) && tries < 20_000_000 {
        tries += 1;
        let word = (rng.next() as u128) << 64 | rng.next() as u128;
        let Ok(i) = Instruction::decode(word) else { continue };
        if done[i.index()] >= PER_OPCODE {
            continue;
        }
        let w = random_warp(&mut rng, &all);
        let mut after = w.clone();
        if i.execute(&mut after, &Reference).is_err() {
            continue;
        }
        done[i.index()] += 1;
        let uses = i.registers();
        let name = isa_generated::OPCODE_NAMES[i.index()];
        // Writes: whatever changed is named.
        for &reg in &all {
            if !same(&w, &after, reg) && !uses.writes_register(reg.0, reg.1) {
                mismatched.insert(name.to_string());
                eprintln!("{name} ({i}): writes {} of file {} without naming it", reg.1, FILES[reg.0].name);
            }
        }
        // Reads: scrambling everything unnamed changes nothing it writes.
        let mut unnamed: Vec<(usize, u32)> = all.iter().copied().filter(|&(f, r)| !uses.reads_register(f, r) && !uses.writes_register(f, r)).collect();
        if influences(&i, &w, &after, &unnamed, &mut rng) {
            // Bisect to the register that matters (a few executions).
            while unnamed.len() > 1 {
                let half = unnamed.split_off(unnamed.len() / 2);
                if !influences(&i, &w, &after, &unnamed, &mut rng) {
                    unnamed = half;
                }
            }
            mismatched.insert(name.to_string());
            let (f, r) = unnamed[0];
            eprintln!("{name} ({i}): reads {} of file {} without naming it", r, FILES[f].name);
        }
        // A register only written (named in `OutList`, not `InList`): its old
        // value must not decide the new one. Scrambled, every lane the run
        // changed holds the same new value (lanes it left alone keep the
        // scrambled old one, as they should).
        let written_only: Vec<(usize, u32)> = all.iter().copied().filter(|&(f, r)| uses.writes_register(f, r) && !uses.reads_register(f, r)).collect();
        for &(f, r) in &written_only {
            let mut w2 = w.clone();
            scramble(&mut w2, &[(f, r)], &mut rng);
            if i.execute(&mut w2, &Reference).is_err() {
                continue;
            }
            let changed = |lane: usize| after.get(f, r as u64, lane) != w.get(f, r as u64, lane);
            let differs = (0..isa_runtime::sim::LANES).any(|lane| changed(lane) && w2.get(f, r as u64, lane) != after.get(f, r as u64, lane))
                // Nor may it decide another register the run writes.
                || all.iter().any(|&g| g != (f, r) && uses.writes_register(g.0, g.1) && !same(&w2, &after, g));
            if differs {
                mismatched.insert(name.to_string());
                eprintln!("{name} ({i}): reads {} of file {}, which only its OutList names", r, FILES[f].name);
            }
        }
    }
    let short: Vec<&str> = done.iter().enumerate().filter(|(_, &n)| n < PER_OPCODE).map(|(k, _)| isa_generated::OPCODE_NAMES[k]).collect();
    assert!(short.is_empty(), "opcodes with fewer than {PER_OPCODE} runs after {tries} words: {short:?}");
    assert_eq!(mismatched, listed_defects(), "opcodes whose lists disagree with execute, against those W017/W035 name");
}
