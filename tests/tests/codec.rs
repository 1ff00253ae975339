//! The generated encoders/decoders against the interpreted ones (built from
//! the IR at test time), on the real spec:
//! * 10^6 random valid instructions: interpreted encode -> generated decode ->
//!   same opcode and field values -> generated encode -> same word;
//! * 10^6 random words (half with a valid opcode key): both paths agree on
//!   success/failure and on every field; `encode(decode(w)) == w` modulo the
//!   documented uncovered bits; strict decoding rejects exactly the words with
//!   non-zero uncovered bits;
//! * the decoder's check table (`plan::reject_cubes`) against the interpreted
//!   checks, per opcode, on valid words with bits flipped;
//! * `Decoded::new` and `Instruction::decode` (the table check) against
//!   `Instruction::decode_dispatch` (each opcode's own checks) on 10^6
//!   random and 10^6 near-valid words: same result, same error;
//! * `Instruction::encode` (the same table row) against `encode_checked`
//!   (each opcode's own rules) and the interpreted encoder on 10^6 random
//!   field values, rule violations included;
//! * `Instruction::decode_words` (the buffer decoder) against `decode` of
//!   each of those words;
//! * proptest: `decode(encode(x)) == x` for every opcode.

use isa_codegen::interp::{Codec, DecodeError};
use isa_dsl::ir::Isa;
use isa_tests::{random_raw, random_valid, Rng};
use isa_generated::{Instruction, RawFieldsError};
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
        assert_eq!(Instruction::decode_le_bytes(w.to_le_bytes()), Ok(g));
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
    let mut words = Vec::with_capacity(1_000_000);
    for k in 0..1_000_000 {
        let mut w = rng.word();
        if k % 2 == 0 {
            // Give half the words a real opcode's constant bits.
            let op = &isa().opcodes[rng.below(isa().opcodes.len())];
            w = (w & !op.fixed_mask) | op.fixed_bits;
        }
        words.push(w);
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
    // The buffer decoder (which reads ahead) gives every word's result, in order.
    let buffered = Instruction::decode_words(&words);
    assert_eq!(buffered.len(), words.len());
    assert!(buffered.eq(words.iter().map(|&w| Instruction::decode(w))));
}

/// A valid word of a random opcode with 1 to 4 of its field bits flipped.
fn near_valid(codec: &Codec, rng: &mut Rng) -> (usize, u128) {
    let (raw, mut w) = random_valid(codec, rng);
    let op = &isa().opcodes[raw.opcode];
    let free = op.covered_mask() & !op.fixed_mask;
    let bits: Vec<u32> = (0..128).filter(|b| free >> b & 1 == 1).collect();
    for _ in 0..1 + rng.below(4) {
        w ^= 1u128 << bits[rng.below(bits.len())];
    }
    (raw.opcode, w)
}

#[test]
fn reject_cubes_are_exactly_the_interpreted_checks() {
    let codec = Codec::new(isa());
    let mut rng = Rng(3);
    let cubes: Vec<_> = isa().opcodes.iter().map(|op| isa_codegen::plan::reject_cubes(isa(), op)).collect();
    let described = cubes.iter().filter(|c| c.is_some()).count();
    assert!(described >= 180, "most opcodes' checks are table-shaped: {described}");
    let (mut accepted, mut rejected) = (0, 0);
    for k in 0..1_000_000 {
        let (i, mut w) = near_valid(&codec, &mut rng);
        let Some(cubes) = &cubes[i] else { continue };
        // Every other word: also flip bits the checks look at.
        let checked = cubes.iter().fold(0u128, |m, c| m | c.mask);
        if k % 2 == 0 && checked != 0 {
            let bits: Vec<u32> = (0..128).filter(|b| checked >> b & 1 == 1).collect();
            for _ in 0..1 + rng.below(3) {
                w ^= 1u128 << bits[rng.below(bits.len())];
            }
        }
        let table = !cubes.iter().any(|c| c.contains(w));
        let interp = codec.decode_as(i, w).is_ok();
        assert_eq!(table, interp, "{} {w:#034x}", isa().opcodes[i].name);
        if interp { accepted += 1 } else { rejected += 1 }
    }
    assert!(accepted > 100_000 && rejected > 50_000, "{accepted} accepted, {rejected} rejected");
}

#[test]
fn decoded_and_decode_agree_with_the_opcodes_own_checks() {
    let codec = Codec::new(isa());
    let mut rng = Rng(4);
    let (mut ok, mut err) = (0, 0);
    for k in 0..2_000_000 {
        let w = if k % 2 == 0 {
            near_valid(&codec, &mut rng).1
        } else {
            let op = &isa().opcodes[rng.below(isa().opcodes.len())];
            let w = rng.word();
            if k % 4 == 1 { (w & !op.fixed_mask) | op.fixed_bits } else { w }
        };
        let d = isa_generated::Decoded::new(w);
        // `decode` is the table check too; `decode_dispatch` decides by the
        // opcode's own checks.
        let i = Instruction::decode_dispatch(w);
        assert_eq!(Instruction::decode(w), i, "{w:#034x}");
        match (d, i) {
            (Ok(d), Ok(i)) => {
                ok += 1;
                assert_eq!((d.index(), d.name(), d.word()), (i.index(), i.name(), w));
                assert_eq!(d.instruction(), i);
            }
            (Err(a), Err(b)) => {
                err += 1;
                assert_eq!(a, b);
            }
            (d, i) => panic!("{w:#034x}: Decoded {d:?}, Instruction::decode_dispatch {i:?}"),
        }
    }
    assert!(ok > 300_000 && err > 300_000, "{ok} ok, {err} errors");
}

/// `Instruction::encode` checks the rules with the decoder's table row;
/// `encode_checked` with the opcode's own `encode`. Both against the
/// interpreted encoder, on random field values of every opcode (many of
/// which violate a rule).
#[test]
fn encode_agrees_with_the_opcodes_own_checks_and_the_interpreter() {
    let codec = Codec::new(isa());
    let mut rng = Rng(5);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..1_000_000 {
        let op = rng.below(isa().opcodes.len());
        let raw = random_raw(isa(), op, &mut rng);
        let Ok(i) = Instruction::from_raw_fields(op, &raw.values) else {
            // Only values outside their type: the interpreter refuses them too.
            assert!(matches!(codec.encode(&raw), Err(isa_codegen::interp::EncodeError::InvalidValue { .. })), "{raw:?}");
            continue;
        };
        assert_eq!(i.raw_fields(), raw.values);
        let fast = i.encode();
        assert_eq!(fast, i.encode_checked(), "{i:?}");
        match (fast, codec.encode(&raw)) {
            (Ok(a), Ok(b)) => {
                ok += 1;
                assert_eq!(a, b);
            }
            (Err(isa_generated::EncodeError::Exception { message: a, .. }), Err(isa_codegen::interp::EncodeError::Exception { message: b, .. })) => {
                err += 1;
                assert_eq!(a, b);
            }
            (a, b) => panic!("{i:?}: generated {a:?}, interpreted {b:?}"),
        }
    }
    assert!(ok > 100_000 && err > 10_000, "{ok} encoded, {err} rejected");
}

#[test]
fn every_default_encodes_and_its_text_reads_back() {
    // F2F's fields without a default are zero, the same type twice, which
    // its own rule forbids: its default takes the first types that differ.
    let codec = Codec::new(isa());
    for k in 0..isa().opcodes.len() {
        let raw = codec.encodable_default(k).unwrap();
        let word = codec.encode(&raw).unwrap_or_else(|e| panic!("{}: {e}", isa().opcodes[k].name));
        let i = Instruction::decode(word).unwrap();
        assert_eq!(i.index(), k);
        // Opcodes without syntax print as `.word`, which reads back too.
        let text = i.to_string();
        assert_eq!(text.parse::<Instruction>().map(|b| b.to_word()), Ok(word), "{}: `{text}`", isa().opcodes[k].name);
    }
    let f2f = Instruction::from(isa_generated::F2F_R::default());
    assert_eq!(f2f.encode(), Ok(codec.encode(&codec.encodable_default(f2f.index()).unwrap()).unwrap()));
    // The last field without a default turns first: the source type.
    assert_eq!(f2f.to_string(), "F2F.F32.F16 R0, R0");
    // The zero defaults stay where they keep the rules.
    assert_eq!(codec.encodable_default(isa_generated::IADD_RR::INDEX), codec.default_instruction(isa_generated::IADD_RR::INDEX));
    assert_eq!(Instruction::from(isa_generated::IADD_RR::DEFAULT).to_word(), codec.encode(&codec.default_instruction(isa_generated::IADD_RR::INDEX).unwrap()).unwrap());
}

/// `optype_name` is the optype each opcode declares itself under, as the
/// spec's text writes it (`__DefOpcode IMAD_WIDE_RR : [IMAD_WIDE]`), for
/// the typed instruction and the checked word alike.
#[test]
fn optype_names_are_the_declared_parents() {
    let mut parent = std::collections::HashMap::new();
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    for e in std::fs::read_dir(&spec).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "txt") {
            for l in std::fs::read_to_string(&p).unwrap().lines() {
                let Some(rest) = l.trim().strip_prefix("__DefOpcode ") else { continue };
                let (name, up) = rest.split_once(':').unwrap();
                parent.insert(name.trim().to_string(), up.trim().trim_matches(['[', ']']).trim().to_string());
            }
        }
    }
    let codec = Codec::new(isa());
    assert_eq!(parent.len(), isa().opcodes.len());
    for k in 0..isa().opcodes.len() {
        let word = codec.encode(&codec.encodable_default(k).unwrap()).unwrap();
        let i = Instruction::decode(word).unwrap();
        assert_eq!(i.optype_name(), parent[i.name()], "{}", i.name());
        assert_eq!(isa_generated::Decoded::new(word).unwrap().optype_name(), parent[i.name()]);
    }
    assert_eq!(isa_generated::IMAD_WIDE_RRR::OPTYPE_NAME, "IMAD_WIDE");
}

#[test]
fn from_raw_fields_rejects_what_does_not_fit() {
    let i = Instruction::from(isa_generated::IADD_RR::DEFAULT);
    let mut v = i.raw_fields();
    let n = v.len();
    assert_eq!(Instruction::from_raw_fields(i.index(), &v), Ok(i));
    let e = Instruction::from_raw_fields(i.index(), &v[1..]).unwrap_err();
    assert_eq!(e, RawFieldsError::Count { opcode: "IADD_RR", expected: n, given: n - 1 }, "a value missing");
    assert_eq!(e.to_string(), format!("IADD_RR has {n} fields, {} values given", n - 1));
    let e = Instruction::from_raw_fields(999, &v).unwrap_err();
    assert_eq!(e, RawFieldsError::NoOpcode { index: 999, count: isa().opcodes.len() }, "no such opcode");
    let at = |name: &str| isa_generated::IADD_RR::FIELD_NAMES.iter().position(|n| *n == name).unwrap();
    let mut w = v.clone();
    w[at("optype")] ^= 1;
    let e = Instruction::from_raw_fields(i.index(), &w).unwrap_err();
    assert!(matches!(e, RawFieldsError::Constant { field: "optype", .. }), "a constant changed: {e:?}");
    assert!(e.to_string().starts_with("field `optype` is the constant 0x"), "{e}");
    // `rd` is a Reg of 8 bits.
    v[at("rd")] = 256;
    let e = Instruction::from_raw_fields(i.index(), &v).unwrap_err();
    assert_eq!(e, RawFieldsError::TooWide { field: "rd", value: 256, width: 8 });
    assert_eq!(e.to_string(), "0x100 does not fit in field `rd` (8 bits)");
}

/// `from_raw_fields` refuses exactly the values the interpreter's encoder
/// refuses before its `__Exception` rules, with the same field and reason:
/// random values of random opcodes, a fifth of them broken (too wide, not a
/// value of an enum, a constant changed, a value missing or added).
#[test]
fn from_raw_fields_refuses_what_the_interpreter_refuses() {
    use isa_codegen::interp::EncodeError as E;
    let codec = Codec::new(isa());
    let mut rng = Rng(29);
    let mut seen = [0usize; 5];
    for _ in 0..200_000 {
        let op = rng.below(isa().opcodes.len());
        let mut raw = random_raw(isa(), op, &mut rng);
        let k = rng.below(raw.values.len());
        match rng.below(10) {
            0 => raw.values[k] = rng.next() >> rng.below(64),
            1 => raw.values[k] = raw.values[k].wrapping_add(1 + rng.below(3) as u64),
            2 if rng.below(8) == 0 => drop(raw.values.pop()),
            3 if rng.below(8) == 0 => raw.values.push(0),
            _ => {}
        }
        let ours = Instruction::from_raw_fields(op, &raw.values);
        let theirs = codec.encode(&raw);
        match (&ours, &theirs) {
            (Ok(_), Ok(_) | Err(E::Exception { .. })) => seen[0] += 1,
            (Err(RawFieldsError::TooWide { field, value, .. }), Err(E::OutOfRange { field: f, value: v, .. })) => {
                assert_eq!((*field, *value), (f.as_str(), *v));
                seen[1] += 1;
            }
            (Err(RawFieldsError::NotOfType { field, value, .. }), Err(E::InvalidValue { field: f, value: v, .. })) => {
                assert_eq!((*field, *value), (f.as_str(), *v));
                seen[2] += 1;
            }
            (Err(RawFieldsError::Constant { field, value, .. }), Err(E::WrongConstant { field: f, value: v, .. })) => {
                assert_eq!((*field, *value), (f.as_str(), *v));
                seen[3] += 1;
            }
            (Err(RawFieldsError::Count { expected, given, .. }), Err(E::FieldCount { expected: x, got, .. })) => {
                assert_eq!((*expected, *given), (*x, *got));
                seen[4] += 1;
            }
            _ => panic!("{raw:?}: generated {ours:?}, interpreted {theirs:?}"),
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "every outcome often: {seen:?}");
}

#[test]
fn an_opcodes_decode_names_the_opcode_a_word_belongs_to() {
    // A word of another opcode: named, as the IR's constant bits say.
    let w = Instruction::FMUL_RR(isa_generated::FMUL_RR::DEFAULT).encode().unwrap();
    let owner = isa().opcodes.iter().find(|o| w & o.fixed_mask == o.fixed_bits).map(|o| o.name.as_str());
    assert_eq!(owner, Some("FMUL_RR"));
    let err = isa_generated::HADD2_RR::decode(w).unwrap_err();
    assert_eq!(err, isa_generated::DecodeError::WrongOpcode { opcode: "HADD2_RR", found: "FMUL_RR" });
    assert_eq!(err.to_string(), "HADD2_RR: the word has the constant bits of FMUL_RR");
    // No opcode's constant bits: unknown, as `Instruction::decode` says.
    let none = (0..u128::MAX).step_by(0x1234_5678_9abc_def1).find(|w| isa().opcodes.iter().all(|o| w & o.fixed_mask != o.fixed_bits)).unwrap();
    assert_eq!(isa_generated::HADD2_RR::decode(none), Err(isa_generated::DecodeError::UnknownOpcode { word: none }));
    assert_eq!(Instruction::decode(none), Err(isa_generated::DecodeError::UnknownOpcode { word: none }));
}

#[test]
fn exceptions_are_enforced_both_ways() {
    // HADD2 with BF16_V2 and FTZ violates H_ARITH's rule.
    let mut i = isa_generated::HADD2_RR::DEFAULT.with_hfmt_v2(isa_generated::HFmtV2::BF16_V2).with_ftz(isa_generated::FPFtz::FTZ);
    let err = i.encode().unwrap_err();
    assert_eq!(err.to_string(), "HADD2_RR: BF16_V2 doesnot support .FTZ/.SAT.");
    // The error names the bits of the fields the rule reads, looked up in the IR.
    let op = isa().opcodes.iter().find(|o| &*o.name == "HADD2_RR").unwrap();
    let rule: u128 = ["hfmt_v2", "ftz", "sat"].iter().map(|n| op.fields.iter().find(|f| &*f.name == *n).unwrap()).map(|f| ((1u128 << f.width) - 1) << f.start).fold(0, |a, b| a | b);
    assert!(matches!(err, isa_generated::EncodeError::Exception { bits, .. } if bits == rule), "{err:?}");
    i.set_ftz(isa_generated::FPFtz::NoFTZ);
    let w = i.encode().unwrap();
    let bad = w | 1u128 << 76; // set ftz in the word directly
    assert!(matches!(Instruction::decode(bad), Err(isa_generated::DecodeError::Exception { bits, .. }) if bits == rule));
    let codec = Codec::new(isa());
    assert!(matches!(codec.decode(bad), Err(DecodeError::Exception { bits, .. }) if bits == rule));
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
    // Bits above the field: `None` for every type, signed ones too (SImm32
    // used to drop them: `from_raw(0x1_0000_0005)` gave 5).
    assert_eq!(isa_generated::SImm9::from_raw(0x200), None);
    assert_eq!(isa_generated::SImm32::from_raw(0x1_0000_0005), None);
    assert_eq!(isa_generated::SImm32::from_raw(0xFFFF_FFFF).map(|v| v.value()), Some(-1));
    assert_eq!(isa_generated::Reg::from_raw(0x100), None);
    // The error says what would fit.
    assert_eq!(isa_generated::Reg::new(256).unwrap_err().to_string(), "256 does not fit in Reg (0..=255)");
    assert_eq!(isa_generated::SImm9::new(256).unwrap_err().to_string(), "256 does not fit in SImm9 (-256..=255)");
    assert_eq!(isa_generated::CMem::new(32, 0).unwrap_err().to_string(), "32 does not fit in CMem bank (0..=31)");
}

/// Generic code reaches every opcode's defaults and field names through
/// `Instruction`, without a match over the opcodes.
#[test]
fn defaults_and_field_names_by_index() {
    use isa_generated::{Instruction, OPCODE_NAMES};
    assert_eq!(Instruction::DEFAULTS.len(), OPCODE_NAMES.len());
    for (k, i) in Instruction::DEFAULTS.iter().enumerate() {
        assert_eq!((i.index(), i.name()), (k, OPCODE_NAMES[k]));
        assert_eq!(i.field_names().len(), i.raw_fields().len(), "{}", i.name());
    }
    let ffma = Instruction::DEFAULTS[OPCODE_NAMES.iter().position(|n| *n == "FFMA_RRR").unwrap()];
    assert_eq!(ffma.to_word(), isa_generated::FFMA_RRR::DEFAULT.to_word());
    assert_eq!(ffma.field_names(), &isa_generated::FFMA_RRR::FIELD_NAMES[..]);
    assert!(ffma.field_names().contains(&"rc.neg"));
}

/// Operand values print as the assembly syntax writes them; the expected
/// texts are the syntax's (registers, `c[..][..]`, hex immediates) and the
/// IEEE encodings (0x3FC00000 is 1.5 in binary32, 0xBC00/0x3C00 are -1/1
/// in binary16), not our printer's output.
#[test]
fn operand_values_print_as_assembly_text() {
    use isa_generated::*;
    assert_eq!(Reg::new(7).unwrap().to_string(), "R7");
    assert_eq!(Reg::RZ.to_string(), "RZ");
    assert_eq!(format!("{:?}", Reg::new(255).unwrap()), "RZ");
    assert_eq!(UReg::URZ.to_string(), "URZ");
    assert_eq!(Pred::PT.to_string(), "PT");
    assert_eq!(format!("{:>4}|", Pred::new(3).unwrap()), "  P3|");
    assert_eq!(FPRound::RZ.to_string(), "RZ");
    assert_eq!(CMem::new(3, 0x18).unwrap().to_string(), "c[0x3][0x18]");
    assert_eq!(SImm32::new(-16).unwrap().to_string(), "-0x10");
    assert_eq!(UImm8::new(31).unwrap().to_string(), "0x1F");
    assert_eq!(F32Imm::new(0x3FC0_0000).unwrap().to_f32(), 1.5);
    assert_eq!(F32Imm::from_f32(1.5).bits(), 0x3FC0_0000);
    assert_eq!(F32Imm::from_f32(-0.1).to_string(), "-0.1");
    let pair = F16ImmX2::new(0xBC00_3C00).unwrap();
    assert_eq!(pair.to_string(), "-1, 1", "the high lane first, as the syntax writes F16 pairs");
    assert_eq!((pair.lane_f64(0), pair.lane_f64(1), pair.lane_f64(2)), (Some(1.0), Some(-1.0), None));
    // A struct's Debug shows register names, not tuple numbers.
    let i = FADD_RI::DEFAULT.with_rd(Reg::new(4).unwrap());
    let dbg = format!("{i:?}");
    assert!(dbg.contains("rd: R4") && dbg.contains("pg: PT"), "{dbg}");
}

#[test]
fn defaults_come_from_the_spec() {
    let i = isa_generated::IADD_RR::default();
    assert_eq!(i.pg(), isa_generated::Pred::PT);
    assert_eq!(i.pp_not(), isa_generated::PModi::True, "IADD's pp defaults to !PT");
    assert_eq!(i.ext(), isa_generated::IExt::NoX);
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

#[test]
fn opcode_structs_convert_and_print_as_their_instructions() {
    let i: Instruction = "FFMA.RZ R1, R2, -R3, R4".parse().unwrap();
    let f = isa_generated::FFMA_RRR::try_from(i).expect("an FFMA_RRR");
    assert_eq!(f.to_string(), "FFMA.RZ R1, R2, -R3, R4");
    let wrong = isa_generated::FADD_RR::try_from(i).unwrap_err();
    assert_eq!((wrong.expected, wrong.found), ("FADD_RR", i), "another opcode gives the instruction back");
    assert_eq!(wrong.to_string(), "expected FADD_RR, found FFMA_RRR");
    // A `std::error::Error`, so `?` takes it into a boxed error.
    let boxed: Box<dyn std::error::Error> = Box::new(wrong);
    assert_eq!(boxed.to_string(), "expected FADD_RR, found FFMA_RRR");
    let d = isa_generated::Decoded::new(i.encode().unwrap()).unwrap();
    assert_eq!(format!("{d:?}"), format!("Decoded {{ opcode: \"FFMA_RRR\", word: {:#034x} }}", d.word()));
}

/// The generated structs' field tables are the IR's (`spec_fields.rs`
/// checks the IR against the spec text).
#[test]
fn generated_field_bits_are_the_irs() {
    use isa_generated::{FFMA_RRR, LEA_RRR};
    for (name, names, bits, covered) in [
        ("FFMA_RRR", &FFMA_RRR::FIELD_NAMES[..], &FFMA_RRR::FIELD_BITS[..], FFMA_RRR::COVERED),
        ("LEA_RRR", &LEA_RRR::FIELD_NAMES[..], &LEA_RRR::FIELD_BITS[..], LEA_RRR::COVERED),
    ] {
        let op = isa().opcodes.iter().find(|o| o.name == name).unwrap();
        let spec: Vec<(&str, (u32, u32))> = op.fields.iter().map(|f| (&*f.name, (f.start, f.width))).collect();
        let generated: Vec<(&str, (u32, u32))> = names.iter().copied().zip(bits.iter().copied()).collect();
        assert_eq!(generated, spec, "{name}");
        let union = bits.iter().fold(0u128, |m, &(s, w)| m | (((1u128 << w) - 1) << s));
        assert_eq!(union, covered, "{name}: the fields cover COVERED");
    }
}

/// Every generated enum: its values are the IR's, in order, and each one's
/// name and raw bits read back as it (`from_name` of `Display`,
/// `from_raw` of `to_raw`), while a name or bits of no value read as none.
#[test]
fn enum_values_read_back_from_their_names_and_bits() {
    use isa_generated::*;
    let isa = isa();
    let mut checked = 0;
    macro_rules! check {
        ($($t:ident),*) => {$({
            let ty = isa.types.iter().find(|t| t.name == stringify!($t)).expect(stringify!($t));
            let isa_dsl::ir::TypeKind::Enum { values } = &ty.kind else { panic!("{} is an enum", ty.name) };
            let names: Vec<String> = $t::ALL.iter().map(|v| v.to_string()).collect();
            let want: Vec<String> = values.iter().map(|v| v.name.to_string()).collect();
            assert_eq!(names, want, "{}", ty.name);
            for (v, iv) in $t::ALL.iter().zip(values) {
                assert_eq!($t::from_name(&v.to_string()), Some(*v));
                assert_eq!(v.to_raw(), iv.encoding, "{}.{}", ty.name, iv.name);
                assert_eq!($t::from_raw(v.to_raw()), Some(*v));
            }
            assert_eq!($t::from_name("no such value"), None);
            let used: Vec<u64> = values.iter().map(|v| v.encoding).collect();
            if let Some(free) = (0..=u8::MAX as u64).find(|b| !used.contains(b)) {
                assert_eq!($t::from_raw(free), None, "{}: bits {free:#x}", ty.name);
            }
            checked += 1;
        })*};
    }
    check!(FullITypes,FullITypesNoI64,I8Types,FTypes,FTypesNoF64,F2IRnd,F2INTZ,F64F32F16,F32F16,F64Only,VSel,F2FPSrcType,F2FPDstType,SATFINITE,IExt,I8Type,I16Type,IType,IXType,LEASX32,BSel,CWMode,LOHI,CompOp,BoolOp,BMBF,EXBool,SHFDType,PRMTMode,I2IDType,SATRelu,I2IPDType,SHFDir,MOVW,Optype,SType,FCMPOp,LOPOp,FPRound,FMULScale,FPFtz,FPSat,NAN,RELU,HFmtV2,BVal,HSel,HSel2,PModi,SignModi);
    let enums = isa.types.iter().filter(|t| matches!(t.kind, isa_dsl::ir::TypeKind::Enum { .. }) && !matches!(&t.kind, isa_dsl::ir::TypeKind::Enum { values } if values.is_empty())).count();
    assert_eq!(checked, enums, "every enum of the spec is checked");
}
