//! The check tables the generated decoder and encoder read (`plan::check_tables`)
//! accept exactly the words the interpreted codec accepts for each opcode
//! they cover, once the dispatch key has matched: checked against
//! `Codec::decode_as` and the opcode's constant bits, on random words near
//! each opcode's encodings.

use isa_codegen::interp::Codec;
use isa_codegen::plan::{check_tables, CheckTables, MAX_CHECK_CUBES};
use std::path::Path;

/// splitmix64: a fixed, seeded stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn word(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
}

#[test]
fn tables_accept_what_the_interpreter_accepts() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec"));
    let fe = isa_dsl::load(&[root.to_path_buf()]);
    let codec = Codec::new(&fe.isa);
    let key = codec.plan().key_mask();
    let tables = check_tables(&fe.isa, key);

    assert!(tables.cubes.len() <= MAX_CHECK_CUBES && tables.cubes[0].mask == 0, "cube 0 is every word");
    assert!(tables.windows.iter().all(|w| w.entries.len() == 1 << w.width));
    let covered = tables.rows.iter().filter(|r| r.is_some()).count();
    // Most opcodes are decided by the tables; the rest by their own checks.
    assert!(covered * 10 >= fe.isa.opcodes.len() * 9, "{covered} of {} opcodes", fe.isa.opcodes.len());

    let mut rng = Rng(0x5EED);
    let (mut accepted, mut rejected) = (0, 0);
    for (i, op) in fe.isa.opcodes.iter().enumerate() {
        let Some(row) = tables.rows[i] else {
            continue;
        };
        for k in 0..2000 {
            // The key bits are the opcode's; its other constant bits too,
            // except now and then one flipped bit.
            let mut w = (rng.word() & !op.fixed_mask) | op.fixed_bits;
            if k % 8 == 0 {
                w ^= 1u128 << (rng.next() % 128);
                w = (w & !key) | (op.fixed_bits & key);
            }
            let interp = w & op.fixed_mask == op.fixed_bits && codec.decode_as(i, w).is_ok();
            assert_eq!(!tables.rejects(row, w), interp, "{} on {w:#034x}", op.name);
            if interp {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
        // A row never accepts what rejects every word.
        assert!(tables.rejects(CheckTables::REJECT_ALL, rng.word()));
    }
    // Both answers were exercised, many times.
    assert!(accepted > 10_000 && rejected > 10_000, "{accepted} accepted, {rejected} rejected");
}
