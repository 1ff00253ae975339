//! The generated encoders/decoders against the interpreted ones (built from
//! the IR at test time), on the real spec:
//! * 10^6 random valid instructions: interpreted encode -> generated decode ->
//!   same opcode and field values -> generated encode -> same word;
//! * 10^6 random words (half with a valid opcode key): both paths agree on
//!   success/failure and on every field; `encode(decode(w)) == w` modulo the
//!   documented uncovered bits; strict decoding rejects exactly the words with
//!   non-zero uncovered bits;
//! * proptest: `decode(encode(x)) == x` for every opcode.

use isa_codegen::interp::{Codec, DecodeError};
use isa_dsl::ir::Isa;
use isa_tests::{random_raw, random_valid, Rng};
use isa_generated::Instruction;
use proptest::prelude::*;
use std::sync::OnceLock;

fn isa() -> &'static Isa {
    static ISA: OnceLock<Isa> = OnceLock::new();
    ISA.get_or_init(isa_tests::spec_isa)
}

#[test]
fn generated_and_interpreted_agree_on_a_million_valid_instructions() {
    let codec = Codec::new(isa());
    let mut rng = Rng(1);
    let mut seen = vec![false; isa().opcodes.len()];
    for _ in 0..1_000_000 {
        let (raw, w) = random_valid(&codec, &mut rng);
        seen[raw.opcode] = true;
        let g = Instruction::decode(w).unwrap_or_else(|e| panic!("{w:#034x} ({}): {e}", isa().opcodes[raw.opcode].name));
        assert_eq!(g.index(), raw.opcode);
        assert_eq!(g.raw_fields(), raw.values, "{}", g.name());
        assert_eq!(g.encode(), Ok(w));
        assert_eq!(g.to_le_bytes(), Ok(w.to_le_bytes()));
        assert_eq!(codec.decode(w).as_ref(), Ok(&raw));
        assert_eq!(Instruction::decode_strict(w), Ok(g), "encoded words have no stray bits");
    }
    let missing: Vec<&str> =
        seen.iter().enumerate().filter(|(_, s)| !**s).map(|(i, _)| isa().opcodes[i].name.as_str()).collect();
    assert!(missing.is_empty(), "opcodes never drawn: {missing:?}");
}

#[test]
fn generated_and_interpreted_agree_on_a_million_random_words() {
    let codec = Codec::new(isa());
    let mut rng = Rng(2);
    let (mut ok, mut err) = (0, 0);
    for k in 0..1_000_000 {
        let mut w = rng.word();
        if k % 2 == 0 {
            // Give half the words a real opcode's constant bits.
            let op = &isa().opcodes[rng.below(isa().opcodes.len())];
            w = (w & !op.fixed_mask) | op.fixed_bits;
        }
        let g = Instruction::decode(w);
        let i = codec.decode(w);
        match (&g, &i) {
            (Ok(g), Ok(i)) => {
                ok += 1;
                assert_eq!(g.index(), i.opcode);
                assert_eq!(g.raw_fields(), i.values);
                let covered = g.covered_mask();
                assert_eq!(g.encode(), Ok(w & covered), "encode(decode(w)) == w with uncovered bits cleared");
                assert_eq!(codec.encode(i), Ok(w & covered));
                let strict = Instruction::decode_strict(w);
                assert_eq!(strict.is_ok(), w & !covered == 0);
                assert_eq!(codec.decode_strict(w).is_ok(), w & !covered == 0);
            }
            (Err(ge), Err(ie)) => {
                err += 1;
                let same_kind = matches!(
                    (ge, ie),
                    (isa_generated::DecodeError::UnknownOpcode { .. }, DecodeError::UnknownOpcode)
                        | (isa_generated::DecodeError::InvalidValue { .. }, DecodeError::InvalidValue { .. })
                        | (isa_generated::DecodeError::Exception { .. }, DecodeError::Exception { .. })
                );
                assert!(same_kind, "{w:#034x}: generated {ge:?}, interpreted {ie:?}");
            }
            _ => panic!("{w:#034x}: generated {g:?}, interpreted {i:?}"),
        }
    }
    assert!(ok > 100_000 && err > 100_000, "both outcomes exercised: {ok} ok, {err} errors");
}

#[test]
fn exceptions_are_enforced_both_ways() {
    // HADD2 with BF16_V2 and FTZ violates H_ARITH's rule.
    let mut i = isa_generated::HADD2_RR { hfmt_v2: isa_generated::HFmtV2::BF16_V2, ftz: isa_generated::FPFtz::FTZ, ..Default::default() };
    let err = i.encode().unwrap_err();
    assert_eq!(err.to_string(), "HADD2_RR: BF16_V2 doesnot support .FTZ/.SAT.");
    i.ftz = isa_generated::FPFtz::NoFTZ;
    let w = i.encode().unwrap();
    let bad = w | 1u128 << 76; // set ftz in the word directly
    assert!(matches!(Instruction::decode(bad), Err(isa_generated::DecodeError::Exception { .. })));
    let codec = Codec::new(isa());
    assert!(matches!(codec.decode(bad), Err(DecodeError::Exception { .. })));
}

#[test]
fn operand_types_are_range_checked() {
    assert!(isa_generated::UReg::new(63).is_ok());
    assert!(isa_generated::UReg::new(64).is_err());
    assert!(isa_generated::SImm9::new(-256).is_ok());
    assert!(isa_generated::SImm9::new(256).is_err());
    assert!(isa_generated::CMem::new(31, 0x1FFFF).is_ok());
    assert!(isa_generated::CMem::new(32, 0).is_err());
    assert_eq!(isa_generated::Reg::RZ.index(), 255);
    assert_eq!(isa_generated::Pred::PT.index(), 7);
    assert_eq!(isa_generated::SImm9::from_raw(0x1FF).unwrap().value(), -1);
}

#[test]
fn defaults_come_from_the_spec() {
    let i = isa_generated::IADD_RR::default();
    assert_eq!(i.pg, isa_generated::Pred::PT);
    assert_eq!(i.pp_not, isa_generated::PModi::True, "IADD's pp defaults to !PT");
    assert_eq!(i.ext, isa_generated::IExt::NoX);
    let w = i.encode().unwrap();
    assert_eq!(w & 0xFF, 0x30, "optype IADD");
    assert_eq!((w >> 8) & 0xF, 5, "stype RR");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn decode_of_encode_is_identity(op in 0usize..184, seed in any::<u64>()) {
        let codec = Codec::new(isa());
        let mut rng = Rng(seed);
        let raw = random_raw(isa(), op % isa().opcodes.len(), &mut rng);
        if let Ok(w) = codec.encode(&raw) {
            let x = Instruction::decode(w).unwrap();
            let w2 = x.encode().unwrap();
            prop_assert_eq!(w2, w);
            prop_assert_eq!(Instruction::decode(w2).unwrap(), x);
        }
    }
}
