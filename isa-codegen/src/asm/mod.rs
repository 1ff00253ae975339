//! Assembler and disassembler, interpreted from the IR: both directions are
//! driven by the `__Syntax` templates and their bindings (`isa_dsl::bind`);
//! nothing is written per instruction.
//!
//! Assembly of a line: lex it (`isa_runtime::text::lex`, imported as `text`); for every syntax form whose
//! mnemonic matches and every opcode of its optype, try to place the dotted
//! modifiers in the form's modifier slots (any order when unambiguous,
//! position decides otherwise) and the operand texts in its operands (the
//! operand kinds written select the opcode: `R1` -> register, `c[..][..]` ->
//! constant memory, `0x10` -> immediate); then encode, which applies the
//! spec's `__Exception` rules. The most advanced failure is reported.
//!
//! Disassembly: decode, pick the first form that can express every field's
//! value, print it canonically (defaults omitted, optional operands omitted
//! when at their defaults). A word no form can express prints as `.word 0x...`,
//! which the assembler accepts back.

pub mod hooks;
pub mod lower;

use crate::interp::{Codec, RawInstruction};
use isa_runtime::text::literal::FloatFormat;
use isa_dsl::bind::settable_fields;
use isa_dsl::ir::*;
use std::collections::BTreeMap;
use isa_runtime::text::lex::{self as text, Core};
use isa_runtime::text::literal;

/// Why a line does not assemble: the same type as the generated fast
/// path's (a byte column in the line and a reason).
pub use isa_runtime::text::AsmError;

/// An assembled line: the word, and the instruction it decodes as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    /// The instruction; `Err` only for a `.word` whose value does not
    /// decode, with why and where. Such a word is data, kept as written (it
    /// is how the disassembler prints a word it cannot decode).
    pub raw: Result<RawInstruction, AsmError>,
    /// The 128-bit word (bit i of the spec is bit i).
    pub word: u128,
}

/// Assembler and disassembler for one ISA.
pub struct Assembler<'a> {
    isa: &'a Isa,
    codec: Codec<'a>,
    /// Base mnemonic -> (optype, form) pairs.
    forms: BTreeMap<String, Vec<(usize, usize)>>,
    /// Register-like types by prefix, longest prefix first.
    registers: Vec<(String, TypeId)>,
}

/// Where a form put the line's texts: per modifier slot the column of the
/// part filling it, per operand the column of the text it took.
struct Placed {
    slots: Vec<Option<usize>>,
    operands: Vec<Option<usize>>,
}

/// A failed attempt, ranked by how far into the line it got (column), then stage.
struct Attempt {
    score: (usize, u32),
    error: AsmError,
    /// A modifier no slot of form `fi` of optype `ot` (in opcode `oc`)
    /// takes: `error.message` holds the modifier, and the message, which
    /// lists every modifier the mnemonic takes, is written only for the
    /// attempt shown ([`Assembler::attempt_error`]), as the runtime's is.
    not_allowed: Option<(usize, usize, usize)>,
}

impl<'a> Assembler<'a> {
    /// The assembler of `isa`: its mnemonics' forms, register prefixes
    /// (longest first) and codec.
    pub fn new(isa: &'a Isa) -> Assembler<'a> {
        let mut forms: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
        for (ot, o) in isa.optypes.iter().enumerate() {
            for (fi, f) in o.syntax.iter().enumerate() {
                forms.entry(f.mnemonic.clone()).or_default().push((ot, fi));
            }
        }
        let mut registers: Vec<(String, TypeId)> = isa
            .types
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match &t.kind {
                TypeKind::Register { prefix, .. } => Some((prefix.clone(), i)),
                _ => None,
            })
            .collect();
        registers.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        Assembler { isa, codec: Codec::new(isa), forms, registers }
    }

    /// The interpreted encoder and decoder the assembler words through.
    pub fn codec(&self) -> &Codec<'a> {
        &self.codec
    }

    /// Assembles one line. `Ok(None)` for blank, comment-only and label-only lines.
    pub fn assemble_line(&self, line: &str) -> Result<Option<Assembled>, AsmError> {
        self.assemble(line, true)
    }

    /// [`Self::assemble_line`]; `hint`: look for a missing fixed part
    /// ([`isa_runtime::text::asm::fixed_parts_hint`]) when it fails.
    fn assemble(&self, line: &str, hint: bool) -> Result<Option<Assembled>, AsmError> {
        let lexed = text::lex(line).map_err(|(c, m)| AsmError::at(c, m))?;
        let Some(mn) = &lexed.mnemonic else { return Ok(None) };
        if mn.text == ".word" {
            return self.raw_word(&lexed).map(Some);
        }
        let Some(cands) = self.forms.get(mn.text) else {
            let glued = lexed.guard.as_ref().and_then(|(_, g)| isa_runtime::text::asm::glued_guard(g, |t| self.is_guard(t), |t| self.forms.contains_key(t)));
            if let Some(e) = glued {
                return Err(AsmError::at(e.col, e.message));
            }
            let all = self.forms.keys().map(|s| s.as_str());
            let without_syntax = self.isa.optypes.iter().filter(|o| o.syntax.is_empty()).map(|o| &*o.name);
            let spelled = spelled_otherwise(self.isa);
            return Err(AsmError::at(mn.col, isa_runtime::text::asm::unknown_mnemonic(mn.text, all, without_syntax, &spelled)));
        };
        let mut best: Option<Attempt> = None;
        for &(ot, fi) in cands {
            for &oc in &self.isa.optypes[ot].opcodes {
                match self.try_form(&lexed, ot, fi, oc) {
                    Ok((raw, placed)) => match self.codec.encode(&raw) {
                        Ok(word) => return Ok(Some(Assembled { raw: Ok(raw), word })),
                        Err(e) => {
                            let col = match e {
                                crate::interp::EncodeError::Exception { bits, .. } => self.rule_col(&lexed, &placed, fi, oc, bits),
                                _ => mn.col,
                            };
                            let a = Attempt { score: (usize::MAX, 9), error: AsmError::at(col, e.to_string()), not_allowed: None };
                            if best.as_ref().is_none_or(|b| a.score > b.score) {
                                best = Some(a);
                            }
                        }
                    },
                    Err(a) => {
                        if best.as_ref().is_none_or(|b| a.score > b.score) {
                            best = Some(a);
                        }
                    }
                }
            }
        }
        let none = || {
            // An optype with no opcodes (W012) has forms but nothing to encode them.
            let empty: Vec<&str> = cands.iter().map(|&(ot, _)| &self.isa.optypes[ot]).filter(|o| o.opcodes.is_empty()).map(|o| &*o.name).collect();
            match empty.first() {
                Some(name) if empty.len() == cands.len() => AsmError::at(mn.col, format!("optype `{name}` has no opcodes (W012): nothing encodes it")),
                _ => AsmError::at(mn.col, "no form of this instruction matches"),
            }
        };
        let parts: Vec<&str> = lexed.parts.iter().map(|p| p.text).collect();
        let mut e = best.map(|b| self.attempt_error(b, &parts)).unwrap_or_else(none);
        // An error at an operand text: perhaps only the combination of kinds fails.
        if lexed.operands.iter().any(|t| t.col == e.col) {
            let kinds: Vec<(String, isa_runtime::text::asm::TextIs)> = lexed
                .operands
                .iter()
                .filter_map(|t| {
                    let core = text::operand(t.text).ok()?.core;
                    let class = match core {
                        // A register of a class: a prefix and a number, or a named one (`PR` is neither).
                        Core::Name(n) => self.registers.iter().find(|(p, _)| n.starts_with(p.as_str())).filter(|(p, ty)| {
                            let rest = &n[p.len()..];
                            (!rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit())) || matches!(&self.isa.types[*ty].kind, TypeKind::Register { .. }) && self.isa.types.iter().any(|t| matches!(&t.kind, TypeKind::Register { constants, .. } if constants.iter().any(|c| c.name == n)))
                        }).map(|&(_, ty)| describe(&self.isa.types[ty])),
                        _ => None,
                    };
                    use isa_runtime::text::asm::TextIs;
                    let is = match (&core, &class) {
                        (Core::Name(_), Some(_)) => TextIs::Register,
                        (Core::Name(_) | Core::Pair { .. }, _) => TextIs::OtherName,
                        _ => TextIs::Value,
                    };
                    Some((class.unwrap_or_else(|| isa_runtime::text::asm::kind_of(&core).to_string()), is))
                })
                .collect();
            let texts: Vec<(&str, usize, &str, isa_runtime::text::asm::TextIs)> = lexed.operands.iter().zip(&kinds).map(|(t, k)| (t.text, t.col, k.0.as_str(), k.1)).collect();
            let forms: Vec<isa_runtime::text::asm::FormFit> = cands
                .iter()
                .flat_map(|&(ot, fi)| self.isa.optypes[ot].opcodes.iter().map(move |&oc| (ot, fi, oc)))
                // The forms whose fixed parts the line writes (`LEA.HI.X`'s are not a plain `LEA`'s).
                .filter(|&(_, fi, oc)| {
                    self.isa.opcodes[oc].forms.iter().find(|b| b.form == fi).is_none_or(|b| {
                        b.modifiers.iter().all(|x| match x {
                            ModifierBinding::Mnemonic { text } | ModifierBinding::Value { spelling: text, optional: false, .. } => lexed.parts.iter().any(|p| p.text == *text),
                            _ => true,
                        })
                    })
                })
                .map(|(ot, fi, oc)| {
                    let (op, form) = (&self.isa.opcodes[oc], &self.isa.optypes[ot].syntax[fi]);
                    let b = op.forms.iter().find(|b| b.form == fi)?;
                    // One text per operand: no float of several lanes or of a format a field picks.
                    let one_text = |o: &OperandBinding| {
                        o.field.as_deref().and_then(|n| op.field(n)).is_none_or(|f| match &self.isa.types[f.ty].kind {
                            TypeKind::Float { exponent, mantissa, lanes } => *lanes <= 1 && 1 + exponent + mantissa >= f.width && self.hook(op, Some(&f.name), "CvtFImm").is_none(),
                            _ => true,
                        })
                    };
                    b.operands.iter().all(one_text).then(|| {
                        form.operands
                            .iter()
                            .zip(&b.operands)
                            .map(|(s, o)| isa_runtime::text::asm::OperandFit {
                                name: s.name.as_str(),
                                optional: s.optional,
                                describe: self.operand_describe(op, s, o),
                                fits: lexed.operands.iter().map(|t| self.kind_fits(op, s, o, t)).collect(),
                            })
                            .collect()
                    })
                })
                .collect();
            if let Some(u) = isa_runtime::text::asm::uncombined(mn.text, &texts, &forms, &e).filter(|_| texts.len() == lexed.operands.len()) {
                e = u;
            }
        }
        if hint {
            let spelled = cands.iter().filter_map(|&(ot, fi)| {
                let op = &self.isa.opcodes[*self.isa.optypes[ot].opcodes.first()?];
                Some(op.forms[fi].modifiers.iter().filter_map(|x| if let ModifierBinding::Mnemonic { text } = x { Some(text.as_str()) } else { None }).collect())
            });
            if let Some(message) = isa_runtime::text::asm::mnemonic_needs_part(mn.text, &lexed, spelled) {
                e = AsmError::at(mn.col, message);
            }
            let forms = cands.iter().filter_map(|&(ot, fi)| {
                let op = &self.isa.opcodes[*self.isa.optypes[ot].opcodes.first()?];
                Some(op.forms[fi].modifiers.iter().map(|x| match x {
                    ModifierBinding::Mnemonic { text } | ModifierBinding::Value { spelling: text, optional: false, .. } => Some(text.as_str()),
                    _ => None,
                }).collect())
            });
            e.message += &isa_runtime::text::asm::fixed_parts_hint(line, &lexed, forms, |l| matches!(self.assemble(l, false), Ok(Some(_)))).unwrap_or_default();
        }
        Err(e)
    }

    /// `.word 0x...`: a raw word, any value; one that does not decode has
    /// the reason as its instruction's error.
    fn raw_word(&self, l: &text::Line) -> Result<Assembled, AsmError> {
        isa_runtime::text::asm::raw_word_extras(l).map_err(|e| AsmError { col: e.col, message: e.message })?;
        let Some(t) = l.operands.first().filter(|_| l.operands.len() == 1) else {
            return Err(AsmError::at(0, "`.word` takes one 128-bit number"));
        };
        let word = isa_runtime::text::asm::raw_word_value(t).map_err(|e| AsmError { col: e.col, message: e.message })?;
        let raw = self.codec.decode(word).map_err(|e| {
            // Worded as the generated decoder's error, which names the word.
            let e = if e == crate::interp::DecodeError::UnknownOpcode { format!("{word:#034x}: unknown opcode") } else { e.to_string() };
            AsmError::at(t.col, format!("`.word` does not decode: {e}"))
        });
        Ok(Assembled { raw, word })
    }

    /// Whether `text` names a register some opcode's guard field can hold.
    fn is_guard(&self, text: &str) -> bool {
        let Some(g) = self.isa.guard.as_deref() else { return false };
        self.isa.opcodes.iter().any(|op| Self::field_index(op, g).is_some_and(|gi| self.register(&op.fields[gi], text).is_some()))
    }

    fn field_index(op: &Opcode, name: &str) -> Option<usize> {
        op.fields.iter().position(|f| &*f.name == name)
    }

    /// Encoding of a decoration's sub-field (`.neg`, `.not`): 1 when the
    /// decoration is written, 0 when not (a language rule, `docs/dsl.md`;
    /// no value name of the spec's types decides it).
    pub(crate) fn flag(&self, _f: &Field, on: bool) -> u64 {
        on as u64
    }

    fn value_list(&self, ot: usize, name: &str) -> Option<&ValueList> {
        self.isa.optypes[ot].value_lists.iter().find(|l| l.name == name)
    }

    /// The column to report a broken `__Exception` rule at: the last text
    /// of the line that sets a field the rule reads (`bits`); the
    /// mnemonic when none does.
    fn rule_col(&self, l: &text::Line, placed: &Placed, fi: usize, oc: usize, bits: u128) -> usize {
        let op = &self.isa.opcodes[oc];
        let b = &op.forms[fi];
        let field_bits = |name: &str| Self::field_index(op, name).map_or(0, |i| (crate::plan::mask64(op.fields[i].width) as u128) << op.fields[i].start);
        let mut texts: Vec<(u128, usize)> = Vec::new();
        if let (Some((_, tok)), Some(g)) = (&l.guard, self.isa.guard.as_deref()) {
            texts.push((field_bits(g) | field_bits(&format!("{g}.not")), tok.col));
        }
        for (slot, at) in b.modifiers.iter().zip(&placed.slots) {
            if let (ModifierBinding::Value { field, .. } | ModifierBinding::Choice { field, .. }, Some(at)) = (slot, at) {
                texts.push((field_bits(field), *at));
            }
        }
        for (ob, at) in b.operands.iter().zip(&placed.operands) {
            let fields = ob.field.iter().chain(&ob.index_fields).chain(ob.decorations.iter().flatten());
            if let Some(at) = at {
                texts.push((fields.fold(0, |acc, f| acc | field_bits(f)), *at));
            }
        }
        for (name, _) in &l.controls {
            texts.push((field_bits(name.text), name.col));
        }
        let hit = texts.iter().filter(|(mask, _)| mask & bits != 0).map(|&(_, at)| at).max();
        hit.unwrap_or_else(|| l.mnemonic.as_ref().map_or(0, |m| m.col))
    }

    fn try_form(&self, l: &text::Line, ot: usize, fi: usize, oc: usize) -> Result<(RawInstruction, Placed), Attempt> {
        let isa = self.isa;
        let op = &isa.opcodes[oc];
        let form = &isa.optypes[ot].syntax[fi];
        let b = &op.forms[fi];
        // Failures after the operands were placed rank as reaching the end of the line.
        let fail = |stage: u32, col: usize, msg: String| {
            let reach = if stage >= 7 { usize::MAX - 1 } else { col };
            Attempt { score: (reach, stage), error: AsmError::at(col, msg), not_allowed: None }
        };
        let mut raw = self.codec.default_instruction(oc).ok_or_else(|| fail(0, 0, "no such opcode".into()))?;
        let mut set = vec![false; op.fields.len()];

        // Guard.
        if let Some((neg, tok)) = &l.guard {
            let g = isa.guard.as_deref().ok_or_else(|| fail(1, tok.col, "this ISA has no guard predicate".into()))?;
            let gi = Self::field_index(op, g).ok_or_else(|| fail(1, tok.col, format!("`{}` has no guard field", op.name)))?;
            let v = self.register(&op.fields[gi], tok.text).ok_or_else(|| fail(1, tok.col, format!("`{}` is not a predicate", tok.text)))?;
            raw.values[gi] = v;
            if let Some(ni) = Self::field_index(op, &format!("{g}.not")) {
                raw.values[ni] = self.flag(&op.fields[ni], *neg);
            } else if *neg {
                return Err(fail(1, tok.col, "the guard cannot be negated".into()));
            }
        }

        // Modifiers: each dotted part into a slot that accepts it.
        let mut filled: Vec<Option<&text::Tok>> = vec![None; b.modifiers.len()];
        let mut last = 0usize;
        for part in l.parts.iter() {
            let accepts = |s: usize| filled[s].is_none() && self.slot_accepts(ot, &b.modifiers[s], part.text);
            let pick = (last..b.modifiers.len()).find(|&s| accepts(s)).or_else(|| (0..b.modifiers.len()).find(|&s| accepts(s)));
            let Some(s) = pick else {
                // A slot it fits is taken: the same modifier again, or another value of it.
                let fits = |s: &usize| self.slot_accepts(ot, &b.modifiers[*s], part.text);
                let same = (0..b.modifiers.len()).filter(fits).find_map(|s| filled[s].filter(|t| t.text == part.text));
                let taken = same.or_else(|| (0..b.modifiers.len()).filter(fits).find_map(|s| filled[s]));
                let msg = match taken {
                    Some(prev) => isa_runtime::text::asm::repeated_modifier(part.text, prev.text),
                    // Worded only if shown (`attempt_error`).
                    None => return Err(Attempt { not_allowed: Some((ot, fi, oc)), ..fail(2, part.col, part.text.to_string()) }),
                };
                return Err(fail(2, part.col, msg));
            };
            filled[s] = Some(part);
            last = s + 1;
        }
        for (s, slot) in b.modifiers.iter().enumerate() {
            let modifier = &form.modifiers[s];
            let Some(part) = filled[s] else {
                if !modifier.optional && !matches!(slot, ModifierBinding::Unbound { .. }) {
                    let what = match slot {
                        ModifierBinding::Mnemonic { text } => format!("`.{text}`"),
                        ModifierBinding::Choice { values, .. } => {
                            format!("one of {}", values.iter().map(|v| format!(".{}", v.spelling)).collect::<Vec<_>>().join(" "))
                        }
                        ModifierBinding::Value { spelling, .. } => format!("`.{spelling}`"),
                        ModifierBinding::Unbound { text } => format!("`.{text}`"),
                    };
                    // Every written part found its slot: this reaches the
                    // end of the dotted parts, past a form that rejects one.
                    let col = l.mnemonic.as_ref().map_or(0, |m| m.col);
                    let reach = l.parts.last().map_or(col, |p| p.col + p.text.len());
                    // The caret where the modifier is missing: after the written parts.
                    let at = if l.parts.is_empty() { l.mnemonic.as_ref().map_or(0, |m| m.col + m.text.len()) } else { reach };
                    return Err(Attempt { score: (reach, 3), error: AsmError::at(at, format!("missing modifier `.{}`: expected {what}", modifier.name)), not_allowed: None });
                }
                continue;
            };
            match slot {
                ModifierBinding::Mnemonic { .. } => {}
                ModifierBinding::Value { field, value, .. } => {
                    let i = Self::field_index(op, field).unwrap_or(0);
                    raw.values[i] = *value;
                    set[i] = true;
                }
                ModifierBinding::Choice { field, values, .. } => {
                    let i = Self::field_index(op, field).unwrap_or(0);
                    if let Some(v) = values.iter().find(|v| v.spelling == part.text) {
                        raw.values[i] = v.value;
                        set[i] = true;
                    }
                }
                ModifierBinding::Unbound { text } => {
                    // The default is what the word means without a field.
                    let default = self.unbound_default(ot, text);
                    if default != Some(part.text) {
                        return Err(fail(4, part.col, isa_runtime::text::asm::unencodable_modifier(part.text, text, default)));
                    }
                }
            }
        }

        // Operands.
        let mut assignment: Vec<Option<usize>> = vec![None; form.operands.len()];
        let texts: Vec<&text::Tok> = l.operands.iter().collect();
        let mut best_err: Option<Attempt> = None;
        // Where the operands begin: after the mnemonic and its dotted parts.
        let start = l.parts.last().or(l.mnemonic.as_ref()).map_or(0, |t| t.col + t.text.len());
        let ok = self.place(ot, op, form, b, &texts, start, 0, 0, &mut assignment, &mut raw, &mut set, &mut best_err);
        if !ok {
            return Err(best_err.unwrap_or_else(|| {
                let need = form.operands.iter().filter(|o| !o.optional).count();
                let col = texts.last().map_or(l.mnemonic.as_ref().map_or(0, |m| m.col), |t| t.col);
                fail(
                    5,
                    col,
                    format!("`{}` takes {} to {} operands, {} given", form.mnemonic, need, form.operands.len(), texts.len()),
                )
            }));
        }

        // Controls: `&name=value`.
        for (name, value) in &l.controls {
            if !isa.control_fields.iter().any(|c| c == name.text) {
                return Err(fail(7, name.col, format!("unknown control `&{}`; controls are {}", name.text, isa.control_fields.join(", "))));
            }
            let i = Self::field_index(op, name.text).ok_or_else(|| fail(7, name.col, format!("no field `{}`", name.text)))?;
            let f = &op.fields[i];
            let v = literal::int(value.text).filter(|v| *v <= crate::plan::mask64(f.width));
            raw.values[i] = v.ok_or_else(|| fail(7, value.col, isa_runtime::text::asm::control_value_message(value.text, f.width, &f.name)))?;
        }

        // Required fields this form cannot set.
        let settable = settable_fields(isa, op, b);
        for (i, f) in op.fields.iter().enumerate() {
            if f.value == FieldValue::Free && !set[i] && !settable.iter().any(|s| **s == *f.name) {
                let col = l.mnemonic.as_ref().map_or(0, |m| m.col);
                return Err(fail(8, col, format!("this form cannot set field `{}`, which has no default (spec defect)", f.name)));
            }
        }
        let placed = Placed {
            slots: filled.iter().map(|p| p.map(|t| t.col)).collect(),
            operands: assignment.iter().map(|x| x.map(|x| texts[x].col)).collect(),
        };
        Ok((raw, placed))
    }

    /// Places operand texts `texts[x..]` into form operands `k..`, trying
    /// optional operands both present and absent. Records the deepest failure.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        ot: usize,
        op: &Opcode,
        form: &SyntaxForm,
        b: &FormBinding,
        texts: &[&text::Tok],
        start: usize,
        k: usize,
        x: usize,
        assignment: &mut Vec<Option<usize>>,
        raw: &mut RawInstruction,
        set: &mut Vec<bool>,
        best: &mut Option<Attempt>,
    ) -> bool {
        if k == form.operands.len() {
            if x == texts.len() {
                return true;
            }
            let a = Attempt {
                score: (texts[x].col, 5),
                error: AsmError::at(texts[x].col, isa_runtime::text::asm::too_many_operands(&form.mnemonic, form.operands.len(), texts.len())),
                not_allowed: None,
            };
            if best.as_ref().is_none_or(|b| a.score > b.score) {
                *best = Some(a);
            }
            return false;
        }
        let sop = &form.operands[k];
        // Try present first, then absent (if optional).
        let saved = (raw.values.clone(), set.clone());
        if x < texts.len() {
            match self.operand(ot, op, sop, &b.operands[k], texts, x, raw, set) {
                Ok(used) => {
                    assignment[k] = Some(x);
                    if self.place(ot, op, form, b, texts, start, k + 1, x + used, assignment, raw, set, best) {
                        return true;
                    }
                }
                Err(e) => {
                    // A text of the wrong kind ranks below a right kind with a bad value.
                    let stage = if self.kind_fits(op, sop, &b.operands[k], texts[x]) { 6 } else { 5 };
                    let a = Attempt { score: (e.col, stage), error: e, not_allowed: None };
                    if best.as_ref().is_none_or(|b| a.score > b.score) {
                        *best = Some(a);
                    }
                }
            }
            raw.values.clone_from(&saved.0);
            set.clone_from(&saved.1);
            assignment[k] = None;
        }
        if sop.optional {
            return self.place(ot, op, form, b, texts, start, k + 1, x, assignment, raw, set, best);
        }
        if x >= texts.len() {
            // After the last text, or where the operands begin when there is none.
            let col = texts.last().map_or(start, |t| t.col + t.text.len());
            // An indexed operand is named by its shape (`R[..]`), not its base alone.
            let name = if matches!(sop.shape, OperandShape::Indexed { .. }) { format!("{}[..]", sop.name) } else { sop.name.clone() };
            let a = Attempt { score: (col, 5), error: AsmError::at(col, format!("missing operand `{name}`")), not_allowed: None };
            if best.as_ref().is_none_or(|b| a.score > b.score) {
                *best = Some(a);
            }
        }
        false
    }

    /// Applies one operand (which may span several texts, e.g. two float
    /// lanes). Returns how many texts it used.
    #[allow(clippy::too_many_arguments)]
    fn operand(
        &self,
        ot: usize,
        op: &Opcode,
        sop: &SyntaxOperand,
        ob: &OperandBinding,
        texts: &[&text::Tok],
        x: usize,
        raw: &mut RawInstruction,
        set: &mut [bool],
    ) -> Result<usize, AsmError> {
        let tok = texts[x];
        let t = text::operand(tok.text).map_err(|m| AsmError::at(tok.col, m))?;
        let err = |m: String| AsmError::at(tok.col, m);
        let mut used = 1;
        match &sop.shape {
            OperandShape::Literal => {
                if t.core != Core::Name(&sop.name) || t.neg || t.abs || t.not || t.inv || t.suffix.is_some() {
                    return Err(err(format!("expected `{}`", sop.name)));
                }
                return Ok(1);
            }
            OperandShape::Indexed { base, .. } => {
                let Core::Indexed { base: b2, index, offset } = &t.core else {
                    return Err(err(format!("expected `{base}[...]`")));
                };
                if b2 != base {
                    return Err(err(format!("expected `{base}[...]`")));
                }
                if let Some(which) = t.prefix_text() {
                    return Err(err(format!("`{which}` is not allowed on operand `{}` here", sop.name)));
                }
                if t.suffix.is_some() {
                    return Err(err(format!("operand `{}` takes no suffix", sop.name)));
                }
                let ii = ob.index_fields.first().and_then(|f| Self::field_index(op, f)).ok_or_else(|| err("no index field".into()))?;
                raw.values[ii] = self.register(&op.fields[ii], index).ok_or_else(|| err(format!("`{index}` is not a valid index register")))?;
                set[ii] = true;
                if let Some(oi) = ob.index_fields.get(1).and_then(|f| Self::field_index(op, f)) {
                    let f = &op.fields[oi];
                    let signed = matches!(self.isa.types[f.ty].kind, TypeKind::Int { signed: true });
                    raw.values[oi] = isa_runtime::text::literal::offset_bits(*offset, f.width, signed, &f.name).map_err(err)?;
                    set[oi] = true;
                } else if *offset != 0 {
                    return Err(err("this operand takes no offset".into()));
                }
                return Ok(1);
            }
            OperandShape::Named => {}
        }
        let fname = ob.field.as_deref().ok_or_else(|| err(format!("operand `{}` has no field to encode it (spec defect)", sop.name)))?;
        let fi = Self::field_index(op, fname).ok_or_else(|| err(format!("no field `{fname}`")))?;
        let f = &op.fields[fi];
        let ty = &self.isa.types[f.ty];
        let mut literal_sign = false;
        let value = match (&ty.kind, &t.core) {
            (TypeKind::Register { .. }, Core::Name(n)) => self.register(f, n).ok_or_else(|| err(self.why_not_register(f, n, &sop.name)))?,
            (TypeKind::Register { prefix, .. }, Core::Pair { prefix: p, lo, hi }) => {
                if p != prefix || Some(*hi) != lo.checked_add(1) {
                    return Err(err(isa_runtime::text::asm::bad_pair(&format!("{p}[{lo}:{hi}]"), p, &sop.name, &describe(ty), prefix)));
                }
                if self.bitwidth(op, raw, &f.name) != Some(64) {
                    return Err(err(format!("`{}` is not a 64-bit operand here", sop.name)));
                }
                self.register(f, &format!("{prefix}{hi}")).ok_or_else(|| err(format!("`{p}{hi}` does not exist")))?;
                self.register(f, &format!("{prefix}{lo}")).ok_or_else(|| err(format!("`{p}{lo}` does not exist")))?
            }
            (TypeKind::Int { .. }, Core::Number(s)) => {
                let v = literal::signed(s).ok_or_else(|| err(literal::int_error_message(s)))?;
                let v = if t.neg { -v } else { v };
                literal_sign = t.neg;
                let signed = matches!(ty.kind, TypeKind::Int { signed: true });
                self.int_value(f, v).ok_or_else(|| err(format!("{s} does not fit the {}-bit field `{}` ({}: {})", f.width, f.name, ty.name, isa_runtime::text::asm::int_range(f.width, signed))))?
            }
            (TypeKind::Float { exponent, mantissa, lanes }, Core::Number(_)) => {
                let fmt = self.float_format(op, raw, f).unwrap_or(FloatFormat { exponent: *exponent, mantissa: *mantissa });
                let lanes = if fmt.width() < f.width { f.width / fmt.width() } else { *lanes.max(&1) };
                // Lanes are written highest first: `H1, H0`.
                let mut v = 0u64;
                for lane in 0..lanes {
                    let tk = texts.get(x + lane as usize).ok_or_else(|| err(format!("`{}` takes {lanes} values", sop.name)))?;
                    let lt = text::operand(tk.text).map_err(|m| AsmError::at(tk.col, m))?;
                    let Core::Number(s) = &lt.core else { return Err(AsmError::at(tk.col, "expected a number")) };
                    // The first value's decorations are the operand's, checked below.
                    if let Some(e) = lt.lane_decoration_error().filter(|_| lane > 0) {
                        return Err(AsmError::at(tk.col, e));
                    }
                    let bits = literal::parse_float(s, fmt).map_err(|e| AsmError::at(tk.col, literal::float_error_message(tk.text, fmt, e)))?;
                    let bits = if lt.neg { bits ^ 1 << (fmt.width() - 1) } else { bits };
                    v |= bits << (fmt.width() * (lanes - 1 - lane));
                }
                used = lanes as usize;
                literal_sign = t.neg;
                v
            }
            (TypeKind::ConstMem { bank, offset }, Core::CMem { bank: b, offset: o }) => {
                if *b > crate::plan::mask64(bank.width) || *o > crate::plan::mask64(offset.width) {
                    return Err(err(format!("`c[{b:#x}][{o:#x}]` is out of range (bank < {}, offset < {:#x})", 1u64 << bank.width, 1u64 << offset.width)));
                }
                b << bank.start | o << offset.start
            }
            (_, _) => return Err(err(format!("`{}` cannot be {} (operand `{}` is {})", tok.text, isa_runtime::text::asm::kind_of(&t.core), sop.name, describe(ty)))),
        };
        raw.values[fi] = value;
        set[fi] = true;
        // Decorations.
        let mut deco_iter = sop.prefixes.iter().chain(&sop.suffixes).zip(&ob.decorations);
        let mut seen_suffix = false;
        for (d, df) in &mut deco_iter {
            let on = match d.kind {
                DecorationKind::Neg => t.neg && !literal_sign,
                DecorationKind::Abs => t.abs,
                DecorationKind::Not => t.not,
                DecorationKind::Invert => t.inv,
                DecorationKind::Suffix => {
                    seen_suffix = true;
                    if let Some(sfx) = &t.suffix {
                        // An error about the suffix points at it.
                        let at = isa_runtime::text::asm::suffix_col(tok, sfx);
                        let dfi = df.as_ref().and_then(|n| Self::field_index(op, n)).ok_or_else(|| AsmError::at(at, format!("suffix `.{sfx}` has no field to encode it (spec defect)")))?;
                        raw.values[dfi] = self.suffix_value(ot, op, raw, &op.fields[dfi], &d.name, sfx).ok_or_else(|| {
                            let takes = self.suffix_spellings(ot, op, raw, &op.fields[dfi], &d.name);
                            AsmError::at(at, isa_runtime::text::asm::suffix_not_allowed(sfx, &sop.name, takes.iter().map(|(s, _)| *s)))
                        })?;
                        set[dfi] = true;
                    } else if !d.optional {
                        return Err(err(format!("`{}` needs a `.{}` suffix", sop.name, d.name)));
                    }
                    continue;
                }
            };
            // `~` spells `.neg` when a CvtINegX hook says so.
            let on = on || (d.kind == DecorationKind::Neg && t.inv && self.hook(op, df.as_deref(), "CvtINegX").is_some());
            // A written operand sets its flags either way: `P0` clears a `.not`
            // whose default is set (`pp` defaults to `!PT` in some opcodes).
            let Some(dfi) = df.as_ref().and_then(|n| Self::field_index(op, n)) else {
                if on && matches!(t.core, Core::Number(_)) {
                    let which = match d.kind {
                        DecorationKind::Abs => "|..|",
                        DecorationKind::Not => "!",
                        DecorationKind::Invert => "~",
                        _ => "-",
                    };
                    return Err(err(isa_runtime::text::asm::value_prefix_message(which, &sop.name)));
                }
                if on {
                    return Err(err(format!("the `{}` prefix has no field to encode it here (spec defect)", d.name)));
                }
                continue;
            };
            raw.values[dfi] = self.flag(&op.fields[dfi], on);
            set[dfi] = true;
        }
        // Decorations written but not in the template.
        let has = |k: DecorationKind| sop.prefixes.iter().any(|d| d.kind == k);
        // `~` spells the template's `{-}`, so only where the template has one
        // (LEA's `SrcB` has a hook for a `.neg` field, but no `{-}`).
        let inv_spells_neg = has(DecorationKind::Neg) && self.neg_hook(op, ob).is_some();
        let spelled_inv = inv_spells_neg && self.neg_is_spelled_inv(op, ob, raw);
        let inv_ok = has(DecorationKind::Invert) || (t.inv && spelled_inv);
        if (t.neg && !literal_sign && !has(DecorationKind::Neg)) || (t.abs && !has(DecorationKind::Abs)) || (t.not && !has(DecorationKind::Not)) || (t.inv && !inv_ok) {
            let which = if t.neg && !literal_sign { "-" } else if t.abs { "|..|" } else if t.not { "!" } else { "~" };
            if matches!(t.core, Core::Number(_)) && which != "-" {
                return Err(err(isa_runtime::text::asm::value_prefix_message(which, &sop.name)));
            }
            let hint = if t.inv && inv_spells_neg { " (`~` is written only with `.X`)" } else { "" };
            return Err(err(format!("`{which}` is not allowed on operand `{}` here{hint}", sop.name)));
        }
        if t.neg && !literal_sign && spelled_inv {
            return Err(err(format!("with `.X` the prefix of `{}` is `~`, not `-`", sop.name)));
        }
        if let Some(sfx) = t.suffix.filter(|_| !seen_suffix) {
            return Err(AsmError::at(isa_runtime::text::asm::suffix_col(tok, sfx), format!("operand `{}` takes no suffix", sop.name)));
        }
        Ok(used)
    }

    /// The operand's `CvtINegX` hook: its `.neg` prefix is spelled `~` under `.X`.
    fn neg_hook<'b>(&self, op: &'b Opcode, ob: &OperandBinding) -> Option<&'b AsmFormat> {
        let base = ob.field.as_ref()?;
        self.hook(op, Some(&format!("{base}.neg")), "CvtINegX")
    }

    /// Whether the operand's `.neg` prefix is spelled `~` under the current fields.
    fn neg_is_spelled_inv(&self, op: &Opcode, ob: &OperandBinding, raw: &RawInstruction) -> bool {
        let Some(h) = self.neg_hook(op, ob) else { return false };
        let Some(arg) = h.args.get(1) else { return false };
        let Some(ai) = Self::field_index(op, arg) else { return false };
        self.isa.types[op.fields[ai].ty].enum_name(raw.values[ai]) == Some("X")
    }

    pub(crate) fn hook<'b>(&self, op: &'b Opcode, field: Option<&str>, name: &str) -> Option<&'b AsmFormat> {
        let field = field?;
        op.operands.asm_formats.iter().find(|a| a.operand == field && a.function == name)
    }

    /// Whether operand `sop` can take text `tok` by kind (and register
    /// class) alone, whatever its value: `R999` fits a register operand,
    /// `P1` and `0x10` do not.
    fn kind_fits(&self, op: &Opcode, sop: &SyntaxOperand, ob: &OperandBinding, tok: &text::Tok) -> bool {
        let Ok(t) = text::operand(tok.text) else { return false };
        match (&sop.shape, &t.core) {
            (OperandShape::Literal, Core::Name(n)) => *n == sop.name,
            (OperandShape::Indexed { .. }, Core::Indexed { .. }) => true,
            (OperandShape::Named, core) => {
                let Some(f) = ob.field.as_deref().and_then(|n| Self::field_index(op, n)).map(|i| &op.fields[i]) else { return false };
                match (&self.isa.types[f.ty].kind, core) {
                    (TypeKind::Register { prefix, constants, .. }, Core::Name(n)) => {
                        constants.iter().any(|c| c.name == *n) || self.registers.iter().find(|(p, _)| n.starts_with(p.as_str())).is_some_and(|(p, _)| p == prefix)
                    }
                    // A pair of this file's registers (`R[4:5]` is no predicate).
                    (TypeKind::Register { prefix, .. }, Core::Pair { prefix: p, .. }) => p == prefix,
                    (TypeKind::Int { .. } | TypeKind::Float { .. }, Core::Number(_)) => true,
                    (TypeKind::ConstMem { .. }, Core::CMem { .. }) => true,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// What operand `sop` is, by its field's type (`a register `Rn``), as
    /// the generated model's `describe` has it.
    fn operand_describe(&self, op: &Opcode, _sop: &SyntaxOperand, ob: &OperandBinding) -> String {
        ob.field.as_deref().and_then(|n| op.field(n)).map_or(String::new(), |f| describe(&self.isa.types[f.ty]))
    }

    /// A register or predicate by name (`R7`, `RZ`, `PT`) for field `f`.
    fn register(&self, f: &Field, text: &str) -> Option<u64> {
        let t = &self.isa.types[f.ty];
        let TypeKind::Register { prefix, constants, .. } = &t.kind else { return None };
        if let Some(c) = constants.iter().find(|c| c.name == text) {
            return Some(c.index);
        }
        // The longest register prefix must be this type's (so `UR1` is not `R`-something).
        let (p, _) = self.registers.iter().find(|(p, _)| text.starts_with(p.as_str()))?;
        if p != prefix {
            return None;
        }
        let n = &text[p.len()..];
        if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let n: u64 = n.parse().ok()?;
        (n <= crate::plan::mask64(f.width)).then_some(n)
    }

    /// Why `text` is not a register field `f` (of operand `operand`) can
    /// hold: [`isa_runtime::text::asm::not_a_register`].
    fn why_not_register(&self, f: &Field, text: &str, operand: &str) -> String {
        let isa = self.isa;
        let named = |t: &&Type| matches!(&t.kind, TypeKind::Register { constants, .. } if constants.iter().any(|c| c.name == text));
        // The type the name belongs to: a named register, else its longest prefix and a number.
        let numbered = |(p, ty): &(String, TypeId)| {
            let n = &text[p.len()..];
            (text.starts_with(p.as_str()) && !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())).then_some(*ty)
        };
        let by_prefix = self.registers.iter().find(|(p, _)| text.starts_with(p.as_str())).and_then(numbered);
        let of = isa.types.iter().find(named).map(|t| &t.kind).or(by_prefix.map(|ty| &isa.types[ty].kind));
        let TypeKind::Register { prefix: want, .. } = &isa.types[f.ty].kind else { return String::new() };
        let other = match of {
            Some(TypeKind::Register { prefix, predicate, .. }) if prefix != want => Some(isa_runtime::text::asm::describe_class(prefix, *predicate)),
            _ => None,
        };
        let max = matches!(of, Some(TypeKind::Register { prefix, .. }) if prefix == want).then(|| crate::plan::mask64(f.width));
        let upper = text.to_ascii_uppercase();
        let case = upper != text && self.register(f, &upper).is_some();
        isa_runtime::text::asm::not_a_register(text, operand, &describe(&isa.types[f.ty]), other.as_deref(), max, case)
    }

    /// An integer literal for field `f`: signed types accept -2^(w-1)..2^w-1
    /// (unsigned spellings of the same bits), unsigned ones 0..2^w-1.
    fn int_value(&self, f: &Field, v: i128) -> Option<u64> {
        let max = crate::plan::mask64(f.width) as i128;
        let signed = matches!(self.isa.types[f.ty].kind, TypeKind::Int { signed: true });
        let lo = if signed { -(1i128 << (f.width - 1)) } else { 0 };
        (lo..=max).contains(&v).then_some((v as u64) & max as u64)
    }

    /// The float format of `f` given a `CvtFImm` hook (by the named field's value).
    fn float_format(&self, op: &Opcode, raw: &RawInstruction, f: &Field) -> Option<FloatFormat> {
        let h = self.hook(op, Some(&f.name), "CvtFImm")?;
        let ai = Self::field_index(op, h.args.get(1)?)?;
        hooks::value_float(self.isa, &op.fields[ai], raw.values[ai])
    }

    /// The bit width of an operand per `Bitwidth<x>`, under the current field values.
    fn bitwidth(&self, op: &Opcode, raw: &RawInstruction, operand: &str) -> Option<i64> {
        let bw = op.operands.bitwidths.iter().find(|b| b.operand == operand)?;
        let e = crate::plan::lower(self.isa, op, &bw.expr)?;
        let mut word = 0u128;
        for (f, v) in op.fields.iter().zip(&raw.values) {
            word |= (*v as u128) << f.start;
        }
        Some(e.eval(word))
    }

    /// Every spelling suffix list `list` of field `f` takes under `raw`'s
    /// other fields, with its encoding: the list's, the enum's names, the
    /// selectors, in that order (the model's `SuffixMap` is this list).
    pub(crate) fn suffix_spellings<'s>(&'s self, ot: usize, op: &Opcode, raw: &RawInstruction, f: &'s Field, list: &str) -> Vec<(&'s str, u64)> {
        let mut candidates: Vec<&str> = Vec::new();
        if let Some(l) = self.value_list(ot, list) {
            candidates.extend(l.items.iter().map(|i| i.spelling.as_str()));
        }
        if let TypeKind::Enum { values } = &self.isa.types[f.ty].kind {
            candidates.extend(values.iter().map(|v| v.name.as_str()));
        }
        candidates.extend(hooks::vsel_spellings(8).iter().chain(hooks::vsel_spellings(16)));
        let mut seen = std::collections::HashSet::new();
        candidates.retain(|c| seen.insert(*c));
        candidates.into_iter().filter_map(|c| Some((c, self.suffix_value(ot, op, raw, f, list, c)?))).collect()
    }

    /// The encoding of suffix `sfx` for field `f` (value list, hook, or enum names).
    fn suffix_value(&self, ot: usize, op: &Opcode, raw: &RawInstruction, f: &Field, list: &str, sfx: &str) -> Option<u64> {
        if let Some(h) = self.suffix_hook(op, f) {
            let ai = Self::field_index(op, h.args.get(1)?)?;
            let bits = hooks::value_bits(self.isa, &op.fields[ai], raw.values[ai])?;
            return self.vsel_value(f, bits, sfx);
        }
        self.suffix_static_value(ot, f, list, sfx)
    }

    /// The `AsmFormat` hook (`CvtVSel`, `CvtVPSel`) that spells field `f`'s
    /// suffix from another field's type, if any: its second argument names that field.
    pub fn suffix_hook<'b>(&self, op: &'b Opcode, f: &Field) -> Option<&'b AsmFormat> {
        self.hook(op, Some(&f.name), "CvtVSel").or_else(|| self.hook(op, Some(&f.name), "CvtVPSel"))
    }

    /// The encoding in field `f` of a selector suffix `sfx` (`.B2`, `.H1`)
    /// of a `bits`-bit source, as a [`Self::suffix_hook`] spells it.
    pub fn vsel_value(&self, f: &Field, bits: u32, sfx: &str) -> Option<u64> {
        let k = hooks::vsel_spellings(bits).iter().position(|s| *s == sfx)? as u64;
        (k <= crate::plan::mask64(f.width)).then_some(k)
    }

    /// The encoding in field `f` of suffix `sfx` of value list `list`, when no
    /// hook decides it: by the list's position or the field's enum names.
    pub fn suffix_static_value(&self, ot: usize, f: &Field, list: &str, sfx: &str) -> Option<u64> {
        let t = &self.isa.types[f.ty];
        if let Some(l) = self.value_list(ot, list) {
            if let Some(k) = l.items.iter().position(|i| i.spelling == sfx) {
                // The list may spell values differently; map like the binder does.
                if let Some(v) = t.enum_value(sfx) {
                    return Some(v.encoding);
                }
                if let TypeKind::Enum { values } = &t.kind {
                    if values.len() == l.items.len() {
                        return values.get(k).map(|v| v.encoding);
                    }
                }
                return None;
            }
        }
        t.enum_value(sfx).map(|v| v.encoding)
    }

    fn slot_accepts(&self, ot: usize, slot: &ModifierBinding, part: &str) -> bool {
        match slot {
            ModifierBinding::Mnemonic { text } => text == part,
            ModifierBinding::Value { spelling, .. } => spelling == part,
            ModifierBinding::Choice { values, .. } => values.iter().any(|v| v.spelling == part),
            ModifierBinding::Unbound { text } => {
                text == part || self.value_list(ot, text).is_some_and(|l| l.items.iter().any(|i| i.spelling == part))
            }
        }
    }

    /// The default spelling (`.RN*`) of a value list that no field encodes.
    pub(crate) fn unbound_default(&self, ot: usize, text: &str) -> Option<&str> {
        self.value_list(ot, text)?.items.iter().find(|i| i.is_default).map(|i| i.spelling.as_str())
    }

    /// The error an attempt shows, its message written now if it was deferred.
    fn attempt_error(&self, a: Attempt, parts: &[&str]) -> AsmError {
        let Some((ot, fi, oc)) = a.not_allowed else { return a.error };
        let isa = self.isa;
        let (part, mnemonic, b) = (&a.error.message, &isa.optypes[ot].syntax[fi].mnemonic, &isa.opcodes[oc].forms[fi]);
        // What the mnemonic takes in any form (this one among them): `IADD.X` is a form of `IADD`.
        let all: Vec<(usize, &FormBinding)> = self.forms.get(mnemonic).into_iter().flatten().flat_map(|&(ot, fi)| {
            isa.optypes[ot].opcodes.iter().map(move |&oc| (ot, &isa.opcodes[oc].forms[fi]))
        }).collect();
        let takes = |ot: usize, f: &FormBinding, s: &str| f.modifiers.iter().any(|m| self.slot_accepts(ot, m, s));
        if let Some(message) = isa_runtime::text::asm::clashing_modifier(part, parts, mnemonic, |a, b| all.iter().any(|&(ot, f)| takes(ot, f, a) && takes(ot, f, b))) {
            return AsmError::at(a.error.col, message);
        }
        let upper = part.to_ascii_uppercase();
        let case = upper != *part && all.iter().any(|&(ot, f)| f.modifiers.iter().any(|m| self.slot_accepts(ot, m, &upper)));
        let others: Vec<String> = all.iter().map(|&(ot, f)| self.modifier_spellings(ot, f)).collect();
        let spellings = isa_runtime::text::asm::mnemonic_spellings(&self.modifier_spellings(ot, b), others.iter().map(String::as_str));
        AsmError::at(a.error.col, isa_runtime::text::asm::not_allowed_modifier(part, mnemonic, &spellings, case))
    }

    fn modifier_spellings(&self, ot: usize, b: &FormBinding) -> String {
        let mut out: Vec<String> = Vec::new();
        for m in &b.modifiers {
            match m {
                ModifierBinding::Mnemonic { text } => out.push(format!(".{text}")),
                ModifierBinding::Value { spelling, .. } => out.push(format!(".{spelling}")),
                ModifierBinding::Choice { values, .. } => out.extend(values.iter().map(|v| format!(".{}", v.spelling))),
                ModifierBinding::Unbound { text } => match self.unbound_default(ot, text) {
                    Some(d) => out.push(format!(".{d}")),
                    None => out.push(format!(".{text} (unencodable)")),
                },
            }
        }
        // Two slots of one type (`F2F.F16.F32`) list their values once.
        let mut seen = std::collections::HashSet::new();
        out.retain(|s| seen.insert(s.clone()));
        if out.is_empty() { "no modifiers".into() } else { out.join(" ") }
    }

    // --- disassembly -------------------------------------------------------------

    /// Decodes and prints a word canonically.
    pub fn disassemble(&self, word: u128) -> Result<String, crate::interp::DecodeError> {
        let raw = self.codec.decode(word)?;
        Ok(self.render_form_or(&raw, || word))
    }

    /// Prints a decoded instruction: the first form that expresses it, or
    /// `.word` and its encoding.
    pub fn render(&self, raw: &RawInstruction) -> String {
        let op = &self.isa.opcodes[raw.opcode];
        self.render_form_or(raw, || op.fields.iter().zip(&raw.values).fold(0u128, |w, (f, v)| w | (*v as u128) << f.start))
    }

    /// The first form that expresses `raw`, or `.word` and `word()`: a word
    /// being disassembled is shown as given, stray bits included, since
    /// `.word` is the one text that keeps every bit.
    fn render_form_or(&self, raw: &RawInstruction, word: impl FnOnce() -> u128) -> String {
        self.render_with_form(raw).map_or_else(|| format!(".word {:#034x}", word()), |(_, s)| s)
    }

    /// The first form that expresses `raw` (its index in the optype's
    /// `syntax`) and the text it prints; `None` when no form does.
    pub fn render_with_form(&self, raw: &RawInstruction) -> Option<(usize, String)> {
        let op = &self.isa.opcodes[raw.opcode];
        op.forms.iter().find_map(|b| Some((b.form, self.render_form(raw, op, b)?)))
    }

    fn render_form(&self, raw: &RawInstruction, op: &Opcode, b: &FormBinding) -> Option<String> {
        let isa = self.isa;
        let ot = op.optype;
        let form = &isa.optypes[ot].syntax[b.form];
        let val = |name: &str| Self::field_index(op, name).map(|i| raw.values[i]);
        let default = |name: &str| Self::field_index(op, name).and_then(|i| op.fields[i].default_value());
        let settable = settable_fields(isa, op, b);
        // Every field the form cannot set must be at its default.
        for (f, v) in op.fields.iter().zip(&raw.values) {
            if !f.is_constant() && !settable.iter().any(|s| **s == *f.name) && Some(*v) != f.default_value() {
                return None;
            }
        }
        let mut out = String::new();
        if let Some(g) = &isa.guard {
            let gi = Self::field_index(op, g);
            let not_on = Self::field_index(op, &format!("{g}.not")).is_some_and(|i| Some(raw.values[i]) != Some(self.flag(&op.fields[i], false)));
            if let Some(gi) = gi {
                if Some(raw.values[gi]) != op.fields[gi].default_value() || not_on {
                    out.push('@');
                    if not_on {
                        out.push('!');
                    }
                    out.push_str(&self.register_text(&op.fields[gi], raw.values[gi]));
                    out.push(' ');
                }
            }
        }
        out.push_str(&form.mnemonic);
        for m in &b.modifiers {
            match m {
                ModifierBinding::Mnemonic { text } => out.push_str(&format!(".{text}")),
                ModifierBinding::Value { field, spelling, value, optional } => {
                    let v = val(field)?;
                    if !optional {
                        if v != *value {
                            return None;
                        }
                        out.push_str(&format!(".{spelling}"));
                    } else if v == *value && Some(v) != default(field) {
                        out.push_str(&format!(".{spelling}"));
                    } else if v != *value && Some(v) != default(field) {
                        return None;
                    }
                }
                ModifierBinding::Choice { field, optional, values } => {
                    let v = val(field)?;
                    let spelled = values.iter().find(|c| c.value == v);
                    match (spelled, optional) {
                        (Some(c), false) => out.push_str(&format!(".{}", c.spelling)),
                        (Some(c), true) if Some(v) != default(field) => out.push_str(&format!(".{}", c.spelling)),
                        (_, true) if Some(v) == default(field) => {}
                        _ => return None,
                    }
                }
                ModifierBinding::Unbound { .. } => {}
            }
        }
        // An optional operand is printed unless all its fields are at their
        // defaults; within a run of adjacent optional operands, printing one
        // prints those before it too (positions would be ambiguous otherwise).
        let n = form.operands.len();
        let mut want: Vec<bool> = form
            .operands
            .iter()
            .zip(&b.operands)
            .map(|(sop, ob)| {
                let fields: Vec<&String> = ob.field.iter().chain(&ob.index_fields).chain(ob.decorations.iter().flatten()).collect();
                !sop.optional || (!fields.is_empty() && !fields.iter().all(|f| val(f) == default(f)))
            })
            .collect();
        for k in (0..n.saturating_sub(1)).rev() {
            if form.operands[k].optional && form.operands[k + 1].optional && want[k + 1] {
                want[k] = true;
            }
        }
        let mut ops: Vec<String> = Vec::new();
        for ((sop, ob), w) in form.operands.iter().zip(&b.operands).zip(&want) {
            let text = self.render_operand(ot, op, raw, sop, ob)?;
            if *w {
                ops.push(text);
            }
        }
        if !ops.is_empty() {
            out.push(' ');
            out.push_str(&ops.join(", "));
        }
        for c in &isa.control_fields {
            if let (Some(v), d) = (val(c), default(c)) {
                if Some(v) != d {
                    out.push_str(&format!(" &{c}={v:#x}"));
                }
            }
        }
        Some(out)
    }

    fn render_operand(&self, ot: usize, op: &Opcode, raw: &RawInstruction, sop: &SyntaxOperand, ob: &OperandBinding) -> Option<String> {
        let val = |name: &str| Self::field_index(op, name).map(|i| raw.values[i]);
        match &sop.shape {
            OperandShape::Literal => return Some(sop.name.clone()),
            OperandShape::Indexed { base, .. } => {
                let ii = Self::field_index(op, ob.index_fields.first()?)?;
                let idx = self.register_text(&op.fields[ii], raw.values[ii]);
                let off = match ob.index_fields.get(1).and_then(|f| Self::field_index(op, f)) {
                    Some(oi) => {
                        let v = sign_extend(raw.values[oi], op.fields[oi].width, &self.isa.types[op.fields[oi].ty]);
                        match v {
                            0 => String::new(),
                            v if v < 0 => format!("-{:#X}", -v).replace("0X", "0x"),
                            v => format!("+{:#X}", v).replace("0X", "0x"),
                        }
                    }
                    None => String::new(),
                };
                return Some(format!("{base}[{idx}{off}]"));
            }
            OperandShape::Named => {}
        }
        let fi = Self::field_index(op, ob.field.as_deref()?)?;
        let f = &op.fields[fi];
        let v = raw.values[fi];
        let ty = &self.isa.types[f.ty];
        let core = match &ty.kind {
            TypeKind::Register { prefix, constants, .. } => {
                if self.bitwidth(op, raw, &f.name) == Some(64) && !constants.iter().any(|c| c.index == v) {
                    format!("{prefix}[{}:{}]", v, v + 1)
                } else {
                    self.register_text(f, v)
                }
            }
            TypeKind::Int { .. } => {
                let s = sign_extend(v, f.width, ty);
                if s < 0 { format!("-0x{:X}", -s) } else { format!("0x{s:X}") }
            }
            TypeKind::Float { exponent, mantissa, lanes } => {
                let fmt = self.float_format(op, raw, f).unwrap_or(FloatFormat { exponent: *exponent, mantissa: *mantissa });
                let lanes = if fmt.width() < f.width { f.width / fmt.width() } else { *lanes.max(&1) };
                (0..lanes)
                    .map(|lane| {
                        let bits = (v >> (fmt.width() * (lanes - 1 - lane))) & crate::plan::mask64(fmt.width());
                        literal::format_float(bits, fmt)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            TypeKind::ConstMem { bank, offset } => {
                let b = (v >> bank.start) & crate::plan::mask64(bank.width);
                let o = (v >> offset.start) & crate::plan::mask64(offset.width);
                format!("c[{b:#x}][{o:#x}]")
            }
            TypeKind::Enum { .. } => return None,
        };
        let mut pre = String::new();
        let mut abs = false;
        let mut suffix = String::new();
        for (d, df) in sop.prefixes.iter().chain(&sop.suffixes).zip(&ob.decorations) {
            let Some(dn) = df else { continue };
            let di = Self::field_index(op, dn)?;
            let on = raw.values[di] != self.flag(&op.fields[di], false);
            match d.kind {
                DecorationKind::Neg if on => pre.push(if self.neg_is_spelled_inv(op, ob, raw) { '~' } else { '-' }),
                DecorationKind::Not if on => pre.push('!'),
                DecorationKind::Invert if on => pre.push('~'),
                DecorationKind::Abs if on => abs = true,
                DecorationKind::Suffix => {
                    let dv = val(dn)?;
                    let df_default = op.fields[di].default_value();
                    if d.optional && Some(dv) == df_default && self.hook(op, Some(dn), "CvtVSel").is_none() && self.hook(op, Some(dn), "CvtVPSel").is_none() {
                        continue;
                    }
                    let s = self.suffix_text(ot, op, raw, &op.fields[di], &d.name, dv)?;
                    if !s.is_empty() {
                        suffix = format!(".{s}");
                    }
                }
                _ => {}
            }
        }
        Some(if abs { format!("{pre}|{core}{suffix}|") } else { format!("{pre}{core}{suffix}") })
    }

    fn suffix_text(&self, ot: usize, op: &Opcode, raw: &RawInstruction, f: &Field, list: &str, v: u64) -> Option<String> {
        let t = &self.isa.types[f.ty];
        if let Some(h) = self.hook(op, Some(&f.name), "CvtVSel").or_else(|| self.hook(op, Some(&f.name), "CvtVPSel")) {
            let ai = Self::field_index(op, h.args.get(1)?)?;
            let bits = hooks::value_bits(self.isa, &op.fields[ai], raw.values[ai])?;
            let k = usize::try_from(v).ok()?;
            let sp = hooks::vsel_spellings(bits);
            return if sp.is_empty() && k == 0 { Some(String::new()) } else { sp.get(k).map(|s| s.to_string()) };
        }
        if let Some(l) = self.value_list(ot, list) {
            if let TypeKind::Enum { values } = &t.kind {
                if let Some(i) = l.items.iter().position(|i| t.enum_value(&i.spelling).is_some_and(|x| x.encoding == v)) {
                    return Some(l.items[i].spelling.clone());
                }
                if values.len() == l.items.len() {
                    let k = values.iter().position(|x| x.encoding == v)?;
                    return Some(l.items[k].spelling.clone());
                }
            }
        }
        t.enum_name(v).map(str::to_string)
    }

    /// How register `v` of field `f` prints (`R7`, `RZ`, `PT`).
    pub(crate) fn register_text(&self, f: &Field, v: u64) -> String {
        match &self.isa.types[f.ty].kind {
            TypeKind::Register { prefix, constants, .. } => {
                constants.iter().find(|c| c.index == v).map_or_else(|| format!("{prefix}{v}"), |c| c.name.clone())
            }
            _ => format!("{v:#x}"),
        }
    }
}

fn sign_extend(v: u64, width: u32, t: &Type) -> i128 {
    match t.kind {
        TypeKind::Int { signed: true } if width < 64 && v >> (width - 1) & 1 == 1 => v as i128 - (1i128 << width),
        _ => v as i128,
    }
}

fn describe(t: &Type) -> String {
    match &t.kind {
        TypeKind::Register { prefix, predicate, .. } => isa_runtime::text::asm::describe_class(prefix, *predicate),
        TypeKind::Int { .. } => format!("a {}-bit integer", t.width),
        TypeKind::Float { .. } => "a float".to_string(),
        TypeKind::ConstMem { .. } => "`c[bank][offset]`".to_string(),
        TypeKind::Enum { .. } => format!("a `{}` value", t.name),
    }
}

/// Assembles a whole text: the words, and every bad line's error (placed
/// in the text). Stops at nothing: every bad line is reported.
pub fn assemble_text(isa: &Isa, text: &str) -> (Vec<u128>, Vec<isa_runtime::text::TextError>) {
    let mut errors = Vec::new();
    let words = assemble_text_with(isa, text, |e| errors.push(e));
    (words, errors)
}

/// [`assemble_text`], handing each error to `error` as it is found, in
/// line order, rather than keeping them all.
pub fn assemble_text_with(isa: &Isa, text: &str, error: impl FnMut(isa_runtime::text::TextError)) -> Vec<u128> {
    let asm = Assembler::new(isa);
    isa_runtime::text::asm::assemble_lines_with(text, |line| asm.assemble_line(line).map(|a| a.map(|a| a.word)), error)
}

/// The mnemonics optype `o` is written with, with their fixed parts, where
/// they differ from its name (`IDP4A`: `IDP.4A`), in the order of its
/// opcodes' forms: what the manual's index and the assembler's messages say.
pub fn spellings<'a>(isa: &'a Isa, o: &'a Optype) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for f in o.opcodes.iter().flat_map(|&oc| &isa.opcodes[oc].forms) {
        if f.mnemonic != o.name && !out.contains(&f.mnemonic.as_str()) {
            out.push(&f.mnemonic);
        }
    }
    out
}

/// Each optype spelled otherwise than its name, and each such spelling
/// ([`spellings`]), in the order of the spec.
pub fn spelled_otherwise(isa: &Isa) -> Vec<(&str, &str)> {
    isa.optypes.iter().flat_map(|o| spellings(isa, o).into_iter().map(|s| (o.name.as_str(), s))).collect()
}
