//! Interpreted encoder and decoder: encode/decode any spec straight from the
//! IR, without generating code. It is the reference the generated crate is
//! differentially tested against, and what `isa-codegen` itself uses.
//!
//! Uncovered bits (bits no field of the decoded opcode covers) are ignored by
//! [`Codec::decode`] and re-encoded as zero; [`Codec::decode_strict`] rejects
//! words where they are not zero. The generated decoders behave the same.

use crate::plan::{exceptions, mask64, valid_values, DecodePlan, RawException};
use isa_dsl::ir::{FieldValue, Isa};
use std::fmt;

/// An instruction as raw field values: one per field of the opcode, in the
/// IR's field order (constants included).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawInstruction {
    /// Index in [`Isa::opcodes`].
    pub opcode: usize,
    /// One raw value per field of the opcode, in field order.
    pub values: Vec<u64>,
}

/// Why a word does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// No opcode's constant bits match.
    UnknownOpcode,
    /// A field holds an encoding its enum type does not have.
    InvalidValue {
        /// The opcode's name.
        opcode: String,
        /// The field's name.
        field: String,
        /// The raw value found.
        value: u64,
    },
    /// The word violates one of the opcode's `__Exception` rules.
    Exception {
        /// The opcode's name.
        opcode: String,
        /// The rule's own message.
        message: String,
        /// The bits of the fields the rule reads.
        bits: u128,
    },
    /// Strict mode: bits no field covers are not zero.
    UncoveredBits {
        /// The opcode's name.
        opcode: String,
        /// The non-zero uncovered bits.
        bits: u128,
    },
}

/// Why an instruction does not encode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// The opcode index is not one of the ISA's.
    UnknownOpcode(usize),
    /// Wrong number of field values.
    FieldCount {
        /// The opcode's name.
        opcode: String,
        /// Its number of fields.
        expected: usize,
        /// The number of values given.
        got: usize,
    },
    /// A value does not fit its field.
    OutOfRange {
        /// The opcode's name.
        opcode: String,
        /// The field's name.
        field: String,
        /// The value given.
        value: u64,
    },
    /// A value is not one of the field's enum encodings.
    InvalidValue {
        /// The opcode's name.
        opcode: String,
        /// The field's name.
        field: String,
        /// The value given.
        value: u64,
    },
    /// A constant field was given another value.
    WrongConstant {
        /// The opcode's name.
        opcode: String,
        /// The field's name.
        field: String,
        /// The value given.
        value: u64,
    },
    /// The instruction violates one of the opcode's `__Exception` rules.
    Exception {
        /// The opcode's name.
        opcode: String,
        /// The rule's own message.
        message: String,
        /// The bits of the fields the rule reads.
        bits: u128,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::UnknownOpcode => write!(f, "unknown opcode"),
            DecodeError::InvalidValue { opcode, field, value } => {
                write!(f, "{opcode}: field `{field}` holds {value:#x}, which is not a value of its type")
            }
            DecodeError::Exception { opcode, message, .. } => write!(f, "{opcode}: {message}"),
            DecodeError::UncoveredBits { opcode, bits } => write!(f, "{opcode}: bits {bits:#x} are not covered by any field"),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::UnknownOpcode(i) => write!(f, "no opcode #{i}"),
            EncodeError::FieldCount { opcode, expected, got } => write!(f, "{opcode}: {got} field values given, {expected} expected"),
            EncodeError::OutOfRange { opcode, field, value } => write!(f, "{opcode}: {value:#x} does not fit field `{field}`"),
            EncodeError::InvalidValue { opcode, field, value } => {
                write!(f, "{opcode}: {value:#x} is not a value of field `{field}`")
            }
            EncodeError::WrongConstant { opcode, field, value } => {
                write!(f, "{opcode}: field `{field}` is a constant and cannot be {value:#x}")
            }
            EncodeError::Exception { opcode, message, .. } => write!(f, "{opcode}: {message}"),
        }
    }
}

impl std::error::Error for DecodeError {}
impl std::error::Error for EncodeError {}

/// An encoder/decoder for one ISA, built from its IR.
pub struct Codec<'a> {
    isa: &'a Isa,
    plan: DecodePlan,
    exceptions: Vec<Vec<RawException>>,
    covered: Vec<u128>,
    valid: Vec<Vec<Option<Vec<u64>>>>,
}

impl<'a> Codec<'a> {
    /// The codec of `isa`: its decode plan, lowered `__Exception` rules,
    /// covered bits and valid enum encodings, per opcode.
    pub fn new(isa: &'a Isa) -> Codec<'a> {
        Codec {
            isa,
            plan: DecodePlan::new(isa),
            exceptions: isa.opcodes.iter().map(|op| exceptions(isa, op)).collect(),
            covered: isa.opcodes.iter().map(|op| op.covered_mask()).collect(),
            valid: isa.opcodes.iter().map(|op| op.fields.iter().map(|f| valid_values(isa, f)).collect()).collect(),
        }
    }

    /// The ISA the codec was built from.
    pub fn isa(&self) -> &'a Isa {
        self.isa
    }

    /// The decode dispatch, as the generated decoder also uses it.
    pub fn plan(&self) -> &DecodePlan {
        &self.plan
    }

    /// Decodes a word; bits no field covers are ignored.
    pub fn decode(&self, word: u128) -> Result<RawInstruction, DecodeError> {
        let mut first_err = None;
        for &i in self.plan.candidates_for(word) {
            let op = &self.isa.opcodes[i];
            if word & op.fixed_mask != op.fixed_bits {
                continue;
            }
            match self.decode_as(i, word) {
                Ok(r) => return Ok(r),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        Err(first_err.unwrap_or(DecodeError::UnknownOpcode))
    }

    /// Decodes a word, rejecting non-zero bits that no field covers.
    pub fn decode_strict(&self, word: u128) -> Result<RawInstruction, DecodeError> {
        let r = self.decode(word)?;
        let stray = word & !self.covered[r.opcode];
        if stray != 0 {
            return Err(DecodeError::UncoveredBits { opcode: self.isa.opcodes[r.opcode].name.clone(), bits: stray });
        }
        Ok(r)
    }

    /// Decodes `word` as opcode `i`: its field values and `__Exception`
    /// rules, not its constant bits.
    pub fn decode_as(&self, i: usize, word: u128) -> Result<RawInstruction, DecodeError> {
        let op = &self.isa.opcodes[i];
        let mut values = Vec::with_capacity(op.fields.len());
        for (k, f) in op.fields.iter().enumerate() {
            let v = ((word >> f.start) as u64) & mask64(f.width);
            if let Some(valid) = &self.valid[i][k] {
                if !valid.contains(&v) {
                    return Err(DecodeError::InvalidValue { opcode: op.name.clone(), field: f.name.to_string(), value: v });
                }
            }
            values.push(v);
        }
        let canonical = word & self.covered[i];
        if let Some(e) = self.exceptions[i].iter().find(|e| e.condition.eval(canonical) != 0) {
            return Err(DecodeError::Exception { opcode: op.name.clone(), message: e.message.clone(), bits: e.bits });
        }
        Ok(RawInstruction { opcode: i, values })
    }

    /// Encodes raw field values.
    pub fn encode(&self, r: &RawInstruction) -> Result<u128, EncodeError> {
        let op = self.isa.opcodes.get(r.opcode).ok_or(EncodeError::UnknownOpcode(r.opcode))?;
        if r.values.len() != op.fields.len() {
            return Err(EncodeError::FieldCount { opcode: op.name.clone(), expected: op.fields.len(), got: r.values.len() });
        }
        let mut word = 0u128;
        for (k, (f, &v)) in op.fields.iter().zip(&r.values).enumerate() {
            let err = |e: fn(String, String, u64) -> EncodeError| e(op.name.clone(), f.name.to_string(), v);
            if v & !mask64(f.width) != 0 {
                return Err(err(|opcode, field, value| EncodeError::OutOfRange { opcode, field, value }));
            }
            if let FieldValue::Constant(c) = f.value {
                if v != c {
                    return Err(err(|opcode, field, value| EncodeError::WrongConstant { opcode, field, value }));
                }
            }
            if let Some(valid) = &self.valid[r.opcode][k] {
                if !valid.contains(&v) {
                    return Err(err(|opcode, field, value| EncodeError::InvalidValue { opcode, field, value }));
                }
            }
            word |= (v as u128) << f.start;
        }
        if let Some(e) = self.exceptions[r.opcode].iter().find(|e| e.condition.eval(word) != 0) {
            return Err(EncodeError::Exception { opcode: op.name.clone(), message: e.message.clone(), bits: e.bits });
        }
        Ok(word)
    }

    /// The instruction with every field at its default (0 where none).
    pub fn default_instruction(&self, opcode: usize) -> Option<RawInstruction> {
        let op = self.isa.opcodes.get(opcode)?;
        Some(RawInstruction { opcode, values: op.fields.iter().map(|f| f.default_value().unwrap_or(0)).collect() })
    }

    /// [`Codec::default_instruction`], except that when it breaks an
    /// `__Exception` rule (F2F's zero types are the same type, which it
    /// forbids), the fields without a spec default take the first values
    /// that keep every rule: tried in field order, each field's candidates
    /// in its type's order (0 first, then an enum's values, else 1..=3), at
    /// most [`Self::DEFAULT_SEARCH`] combinations. Unchanged when none does.
    /// What the typed `DEFAULT` of an opcode holds.
    pub fn encodable_default(&self, opcode: usize) -> Option<RawInstruction> {
        let base = self.default_instruction(opcode)?;
        if !matches!(self.encode(&base), Err(EncodeError::Exception { .. })) {
            return Some(base);
        }
        let op = &self.isa.opcodes[opcode];
        // (field index, candidates) for each field without a default.
        let free: Vec<(usize, Vec<u64>)> = op
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.default_value().is_none())
            .map(|(k, f)| {
                let others = self.valid[opcode][k].clone().unwrap_or_else(|| (1..=3.min(mask64(f.width))).collect());
                (k, std::iter::once(0).chain(others.into_iter().filter(|&v| v != 0)).collect())
            })
            .collect();
        // An odometer over the candidates, the first field turning slowest.
        let mut at = vec![0usize; free.len()];
        for _ in 0..Self::DEFAULT_SEARCH {
            let mut r = base.clone();
            for ((k, cands), &i) in free.iter().zip(&at) {
                r.values[*k] = cands[i];
            }
            if self.encode(&r).is_ok() {
                return Some(r);
            }
            let Some(turn) = (0..free.len()).rev().find(|&j| at[j] + 1 < free[j].1.len()) else { break };
            at[turn] += 1;
            at[turn + 1..].iter_mut().for_each(|i| *i = 0);
        }
        Some(base)
    }

    /// How many combinations [`Codec::encodable_default`] tries at most.
    pub const DEFAULT_SEARCH: usize = 4096;
}
