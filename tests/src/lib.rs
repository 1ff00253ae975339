//! Shared support for the data-driven tests and benchmarks in this crate:
//! a small deterministic generator and random instructions that are valid for
//! a spec (each field within its type; exception rules respected).

use isa_codegen::interp::{Codec, RawInstruction};
use isa_dsl::ir::{FieldValue, Isa, TypeKind};

/// splitmix64: small and deterministic, so failures reproduce from the seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits (a generator, not an `Iterator`: it never ends).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn word(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
}

/// Random field values for `opcode`, each valid for its field's type.
pub fn random_raw(isa: &Isa, opcode: usize, rng: &mut Rng) -> RawInstruction {
    let values = isa.opcodes[opcode]
        .fields
        .iter()
        .map(|f| match (&f.value, &isa.types[f.ty].kind) {
            (FieldValue::Constant(c), _) => *c,
            (_, TypeKind::Enum { values }) => values[rng.below(values.len())].encoding,
            _ => rng.next() & isa_codegen::plan::mask64(f.width),
        })
        .collect();
    RawInstruction { opcode, values }
}

/// A random instruction of a random opcode that encodes, and its word.
pub fn random_valid(codec: &Codec, rng: &mut Rng) -> (RawInstruction, u128) {
    loop {
        let raw = random_raw(codec.isa(), rng.below(codec.isa().opcodes.len()), rng);
        if let Ok(w) = codec.encode(&raw) {
            return (raw, w);
        }
    }
}

/// The IR of the project's `spec/`.
pub fn spec_isa() -> Isa {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    assert!(!fe.has_errors(), "{}", fe.render_diagnostics());
    fe.isa
}
