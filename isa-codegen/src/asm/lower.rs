//! Lowers the syntax of an ISA to the static text model the generated crate
//! carries (`isa_runtime::text::model`), and emits the generated `text`
//! module: that model as a `static`, and `FromStr`/`Display` for
//! `Instruction` over it.
//!
//! Lowering resolves at generation time everything the interpreted
//! assembler (`super::Assembler`) looks up by name at run time: fields become
//! bit ranges, `Bitwidth<>` and hook conditions become expressions over the
//! word, suffix spellings become tables (computed with the interpreted
//! assembler's own mapping functions, one entry per possible value). The
//! placement and printing algorithms are written twice, once per path, and
//! the tests run both on the same inputs (differential testing).

use super::{describe, hooks, Assembler};
use crate::gen_rust::u128_lit;
use crate::plan::{lower as lower_expr, RawExpr};
use isa_dsl::bind::settable_fields;
use isa_dsl::expr::BinOp;
use isa_dsl::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

fn rt() -> TokenStream {
    quote! { ::isa_runtime::text::model }
}

fn bits(f: &Field) -> TokenStream {
    let rt = rt();
    let (s, w) = (Literal::u8_unsuffixed(f.start as u8), Literal::u8_unsuffixed(f.width as u8));
    quote! { #rt::Bits { start: #s, width: #w } }
}

fn sub_bits(b: &BitRange) -> TokenStream {
    let rt = rt();
    let (s, w) = (Literal::u8_unsuffixed(b.start as u8), Literal::u8_unsuffixed(b.width as u8));
    quote! { #rt::Bits { start: #s, width: #w } }
}

fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = Literal::u64_unsuffixed(v);
            quote! { Some(#v) }
        }
        None => quote! { None },
    }
}

fn field_ref(f: &Field) -> TokenStream {
    let rt = rt();
    let b = bits(f);
    let d = opt_u64(f.default_value());
    quote! { #rt::FieldRef { bits: #b, default: #d } }
}

fn field_mask(f: &Field) -> u128 {
    (crate::plan::mask64(f.width) as u128) << f.start
}

/// `&Expr::...` for a lowered expression.
fn expr(e: &RawExpr) -> TokenStream {
    let rt = rt();
    match e {
        RawExpr::Const(c) => {
            let c = Literal::i64_unsuffixed(*c);
            quote! { &#rt::Expr::Const(#c) }
        }
        RawExpr::Field { start, width } => {
            let (s, w) = (Literal::u8_unsuffixed(*start as u8), Literal::u8_unsuffixed(*width as u8));
            quote! { &#rt::Expr::Field(#rt::Bits { start: #s, width: #w }) }
        }
        RawExpr::Not(a) => {
            let a = expr(a);
            quote! { &#rt::Expr::Not(#a) }
        }
        RawExpr::Binary(op, a, b) => {
            let (a, b) = (expr(a), expr(b));
            let v = match op {
                BinOp::Or => quote! { Or },
                BinOp::And => quote! { And },
                BinOp::Eq => quote! { Eq },
                BinOp::Ne => quote! { Ne },
                BinOp::Add => quote! { Add },
                BinOp::Sub => quote! { Sub },
                BinOp::Mul => quote! { Mul },
            };
            quote! { &#rt::Expr::#v(#a, #b) }
        }
    }
}

fn opt_expr(e: Option<RawExpr>) -> TokenStream {
    match e {
        Some(e) => {
            let e = expr(&e);
            quote! { Some(#e) }
        }
        None => quote! { None },
    }
}

fn matcher(m: Option<(u128, u128)>) -> TokenStream {
    let rt = rt();
    match m {
        Some((mask, value)) => {
            let (mask, value) = (u128_lit(mask), u128_lit(value));
            quote! { Some(#rt::Match { mask: #mask, value: #value }) }
        }
        None => quote! { None },
    }
}

struct Lower<'a> {
    isa: &'a Isa,
    asm: Assembler<'a>,
    /// Type id -> register class index.
    class_of: Vec<Option<u16>>,
}

/// The generated `text` module.
pub fn gen_text(isa: &Isa) -> TokenStream {
    let mut class_of = vec![None; isa.types.len()];
    let mut classes = Vec::new();
    for (i, t) in isa.types.iter().enumerate() {
        if let TypeKind::Register { prefix, constants, predicate, .. } = &t.kind {
            class_of[i] = Some(classes.len() as u16);
            let names = constants.iter().map(|c| c.name.as_str());
            let idx = constants.iter().map(|c| Literal::u64_unsuffixed(c.index));
            let rt = rt();
            classes.push((prefix.clone(), quote! { #rt::RegClass { prefix: #prefix, constants: &[ #( (#names, #idx) ),* ], predicate: #predicate } }));
        }
    }
    let lw = Lower { isa, asm: Assembler::new(isa), class_of };
    let rt = rt();
    // Longest prefix first, ties in type order (what the interpreted assembler does).
    let mut prefixes: Vec<(String, u16)> = classes.iter().enumerate().map(|(i, (p, _))| (p.clone(), i as u16)).collect();
    prefixes.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    let prefix_items = prefixes.iter().map(|(p, c)| {
        let c = Literal::u16_unsuffixed(*c);
        quote! { (#p, #c) }
    });
    let class_items = classes.iter().map(|(_, t)| t);
    let mut mnemonics: std::collections::BTreeMap<&str, Vec<(usize, usize)>> = Default::default();
    for o in &isa.optypes {
        for (fi, f) in o.syntax.iter().enumerate() {
            for &oc in &o.opcodes {
                mnemonics.entry(f.mnemonic.as_str()).or_default().push((oc, fi));
            }
        }
    }
    let mn_items = mnemonics.iter().map(|(name, forms)| {
        let pairs = forms.iter().map(|&(oc, fi)| {
            let (oc, fi) = (Literal::u16_unsuffixed(oc as u16), Literal::u16_unsuffixed(fi as u16));
            quote! { (#oc, #fi) }
        });
        quote! { #rt::Mnemonic { name: #name, forms: &[ #( #pairs ),* ] } }
    });
    let opcode_items = isa.opcodes.iter().enumerate().map(|(oc, op)| lw.opcode(oc, op));
    let controls = isa.control_fields.iter().map(String::as_str);
    let guard = match &isa.guard {
        Some(g) => quote! { Some(#g) },
        None => quote! { None },
    };
    quote! {
        //! Assembly text: the ISA's syntax as a static model, and
        //! `FromStr`/`Display` for [`Instruction`] over it
        //! (`isa_runtime::text` does the work; `isa-codegen` lowered the model
        //! from the spec's `__Syntax` templates).

        use super::{DecodeError, Decoded, Instruction};

        /// The syntax model of this ISA.
        pub static MODEL: #rt::Model = #rt::Model {
            mnemonics: &[ #( #mn_items ),* ],
            opcodes: &[ #( #opcode_items ),* ],
            registers: &[ #( #class_items ),* ],
            prefixes: &[ #( #prefix_items ),* ],
            controls: &[ #( #controls ),* ],
            guard: #guard,
            decode: decode_index,
            check: check_word,
        };

        fn decode_index(w: u128) -> Result<usize, String> {
            Instruction::decode(w).map(|i| i.index()).map_err(|e| e.to_string())
        }

        /// An assembled word must decode as the opcode it was assembled for
        /// (this applies the spec's `__Exception` rules).
        fn check_word(opcode: usize, w: u128) -> Result<(), String> {
            match Instruction::decode(w) {
                Ok(i) if i.index() == opcode => Ok(()),
                Ok(i) => Err(format!("the word decodes as {}", i.name())),
                Err(e) => Err(e.to_string()),
            }
        }

        /// Why a line does not assemble.
        pub use ::isa_runtime::text::AsmError;

        impl Instruction {
            /// Assembles one line: `Ok(None)` for blank, comment-only and label-only lines.
            pub fn parse_line(line: &str) -> Result<Option<Instruction>, AsmError> {
                match ::isa_runtime::text::assemble_line(&MODEL, line)? {
                    None => Ok(None),
                    Some(a) => Instruction::decode(a.word)
                        .map(Some)
                        .map_err(|e| AsmError { col: 0, message: e.to_string() }),
                }
            }

            /// Appends the canonical text of the instruction to `out`.
            pub fn write_text(&self, out: &mut String) {
                ::isa_runtime::text::disasm::write(&MODEL, self.index(), self.to_word(), out)
            }
        }

        impl core::str::FromStr for Instruction {
            type Err = AsmError;
            /// Assembles one instruction (a blank line is an error).
            fn from_str(s: &str) -> Result<Self, AsmError> {
                Instruction::parse_line(s)?.ok_or_else(|| AsmError { col: 0, message: "no instruction on the line".into() })
            }
        }

        impl core::fmt::Display for Instruction {
            /// The canonical assembly text.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let mut s = String::with_capacity(48);
                self.write_text(&mut s);
                f.write_str(&s)
            }
        }

        /// Assembles a whole text: the words, and every bad line as
        /// (byte offset in the text, length, message).
        pub fn assemble(text: &str) -> (Vec<u128>, Vec<(usize, usize, String)>) {
            let (ok, errors) = ::isa_runtime::text::assemble_text(&MODEL, text);
            (ok.into_iter().map(|a| a.word).collect(), errors)
        }

        /// Decodes a word and prints it.
        pub fn disassemble(word: u128) -> Result<String, DecodeError> {
            let mut s = String::with_capacity(48);
            disassemble_into(word, &mut s)?;
            Ok(s)
        }

        /// Decodes a word and appends its text to `out`: the same text as
        /// `Instruction::decode(word)?.to_string()`, without building the
        /// typed instruction (the opcode is all the printer needs).
        pub fn disassemble_into(word: u128, out: &mut String) -> Result<(), DecodeError> {
            let d = Decoded::new(word)?;
            ::isa_runtime::text::disasm::write(&MODEL, d.index(), d.word(), out);
            Ok(())
        }
    }
}

impl Lower<'_> {
    fn class(&self, f: &Field) -> u16 {
        self.class_of[f.ty].unwrap_or(u16::MAX)
    }

    /// Flag encodings of a field: (on, off).
    fn flag(&self, f: &Field) -> (u64, u64) {
        (self.asm.flag(f, true), self.asm.flag(f, false))
    }

    fn opcode(&self, oc: usize, op: &Opcode) -> TokenStream {
        let rt = rt();
        let name = op.name.as_str();
        let base = u128_lit(op.fields.iter().fold(0u128, |w, f| w | (f.default_value().unwrap_or(0) as u128 & crate::plan::mask64(f.width) as u128) << f.start));
        let covered = u128_lit(op.covered_mask());
        let guard = match self.isa.guard.as_deref().and_then(|g| Some((g, op.field(g)?))) {
            Some((g, gf)) => {
                let reg = field_ref(gf);
                let class = Literal::u16_unsuffixed(self.class(gf));
                let not = match op.field(&format!("{g}.not")) {
                    Some(nf) => {
                        let b = bits(nf);
                        let (on, off) = self.flag(nf);
                        let (on, off) = (Literal::u64_unsuffixed(on), Literal::u64_unsuffixed(off));
                        quote! { Some(#rt::Flag { bits: #b, on: #on, off: #off }) }
                    }
                    None => quote! { None },
                };
                quote! { Some(#rt::Guard { reg: #reg, class: #class, not: #not }) }
            }
            None => quote! { None },
        };
        let controls = self.isa.control_fields.iter().filter_map(|c| {
            let f = op.field(c)?;
            let fr = field_ref(f);
            Some(quote! { #rt::Control { name: #c, field: #fr } })
        });
        let forms = op.forms.iter().map(|b| self.form(oc, op, b));
        quote! {
            #rt::Opcode { name: #name, base: #base, covered: #covered, guard: #guard, controls: &[ #( #controls ),* ], forms: &[ #( #forms ),* ] }
        }
    }

    fn form(&self, oc: usize, op: &Opcode, b: &FormBinding) -> TokenStream {
        let rt = rt();
        let isa = self.isa;
        let ot = op.optype;
        let form = &isa.optypes[ot].syntax[b.form];
        let settable = settable_fields(isa, op, b);
        let mut prints = Some((0u128, 0u128));
        for f in &op.fields {
            if !f.is_constant() && !settable.iter().any(|s| **s == *f.name) {
                prints = match (prints, f.default_value()) {
                    (Some((m, v)), Some(d)) => Some((m | field_mask(f), v | (d as u128) << f.start)),
                    _ => None,
                };
            }
        }
        let prints = matcher(prints);
        let unsettable = match op.fields.iter().find(|f| f.value == FieldValue::Free && !settable.iter().any(|s| **s == *f.name)) {
            Some(f) => {
                let n = &*f.name;
                quote! { Some(#n) }
            }
            None => quote! { None },
        };
        let mnemonic = form.mnemonic.as_str();
        let spellings = self.asm.modifier_spellings(b);
        let modifiers = b.modifiers.iter().enumerate().map(|(s, m)| self.modifier(op, ot, form.modifiers.get(s), m));
        let operands = form.operands.iter().zip(&b.operands).map(|(sop, ob)| self.operand(oc, op, ot, sop, ob));
        quote! {
            #rt::Form {
                mnemonic: #mnemonic,
                prints: #prints,
                unsettable: #unsettable,
                modifiers: &[ #( #modifiers ),* ],
                operands: &[ #( #operands ),* ],
                spellings: #spellings,
            }
        }
    }

    fn modifier(&self, op: &Opcode, ot: usize, sm: Option<&SyntaxModifier>, m: &ModifierBinding) -> TokenStream {
        let rt = rt();
        let name = sm.map_or("", |s| s.name.as_str());
        let optional = sm.is_some_and(|s| s.optional);
        let kind = match m {
            ModifierBinding::Mnemonic { text } => quote! { #rt::ModifierKind::Mnemonic(#text) },
            ModifierBinding::Value { field, spelling, value, optional } => match op.field(field) {
                Some(f) => {
                    let fr = field_ref(f);
                    let v = Literal::u64_unsuffixed(*value);
                    quote! { #rt::ModifierKind::Value { field: #fr, spelling: #spelling, value: #v, optional: #optional } }
                }
                None => quote! { #rt::ModifierKind::Broken },
            },
            ModifierBinding::Choice { field, optional, values } => match op.field(field) {
                Some(f) => {
                    let fr = field_ref(f);
                    let vals = values.iter().map(|c| {
                        let (s, v) = (c.spelling.as_str(), Literal::u64_unsuffixed(c.value));
                        quote! { (#s, #v) }
                    });
                    quote! { #rt::ModifierKind::Choice { field: #fr, values: &[ #( #vals ),* ], optional: #optional } }
                }
                None => quote! { #rt::ModifierKind::Broken },
            },
            ModifierBinding::Unbound { text } => {
                let accepts: Vec<&str> = self.asm.value_list(ot, text).map(|l| l.items.iter().map(|i| i.spelling.as_str()).collect()).unwrap_or_default();
                quote! { #rt::ModifierKind::Unbound { text: #text, accepts: &[ #( #accepts ),* ] } }
            }
        };
        quote! { #rt::Modifier { name: #name, optional: #optional, kind: #kind } }
    }

    fn operand(&self, oc: usize, op: &Opcode, ot: usize, sop: &SyntaxOperand, ob: &OperandBinding) -> TokenStream {
        let rt = rt();
        let isa = self.isa;
        let name = sop.name.as_str();
        let optional = sop.optional;
        // When an optional operand counts as "at its defaults".
        let mut at_default = Some((0u128, 0u128));
        for n in ob.field.iter().chain(&ob.index_fields).chain(ob.decorations.iter().flatten()) {
            if let Some(f) = op.field(n) {
                at_default = match (at_default, f.default_value()) {
                    (Some((m, v)), Some(d)) => Some((m | field_mask(f), v | (d as u128) << f.start)),
                    _ => None,
                };
            }
        }
        let at_default = matcher(at_default);
        let field = ob.field.as_deref().and_then(|n| op.field(n));
        let kind = match &sop.shape {
            OperandShape::Literal => quote! { #rt::OperandKind::Literal },
            OperandShape::Indexed { base, .. } => {
                let index = match ob.index_fields.first().and_then(|n| op.field(n)) {
                    Some(f) => {
                        let (b, c) = (bits(f), Literal::u16_unsuffixed(self.class(f)));
                        quote! { Some((#b, #c)) }
                    }
                    None => quote! { None },
                };
                let offset = match ob.index_fields.get(1).and_then(|n| op.field(n)) {
                    Some(f) => {
                        let b = bits(f);
                        let signed = matches!(isa.types[f.ty].kind, TypeKind::Int { signed: true });
                        let n = &*f.name;
                        quote! { Some((#b, #signed, #n)) }
                    }
                    None => quote! { None },
                };
                quote! { #rt::OperandKind::Indexed { base: #base, index: #index, offset: #offset } }
            }
            OperandShape::Named => match (&ob.field, field) {
                (None, _) => quote! { #rt::OperandKind::Unbound },
                (Some(n), None) => quote! { #rt::OperandKind::Broken(#n) },
                (Some(_), Some(f)) => self.value_kind(op, f),
            },
        };
        let decorations = sop.prefixes.iter().chain(&sop.suffixes).zip(&ob.decorations).map(|(d, df)| self.decoration(oc, op, ot, d, df.as_deref()));
        let prefixes = Literal::u8_unsuffixed(sop.prefixes.iter().fold(0u8, |m, d| m | 1 << decoration_bit(d.kind)));
        // `.neg` spelled `~` under a `CvtINegX(x.neg, ext)` hook when `ext` is `X`.
        let neg_is_inv = ob.field.as_ref().and_then(|base| {
            let h = self.asm.hook(op, Some(&format!("{base}.neg")), "CvtINegX")?;
            let af = op.field(h.args.get(1)?)?;
            let x = isa.types[af.ty].enum_value("X")?;
            Some(RawExpr::Binary(
                BinOp::Eq,
                Box::new(RawExpr::Field { start: af.start, width: af.width }),
                Box::new(RawExpr::Const(x.encoding as i64)),
            ))
        });
        let neg_is_inv = opt_expr(neg_is_inv);
        let (describe, type_name, fname) = match field {
            Some(f) => (describe(&isa.types[f.ty]), isa.types[f.ty].name.as_str(), &*f.name),
            None => (String::new(), "", ob.field.as_deref().unwrap_or("")),
        };
        quote! {
            #rt::Operand {
                name: #name,
                optional: #optional,
                at_default: #at_default,
                kind: #kind,
                decorations: &[ #( #decorations ),* ],
                prefixes: #prefixes,
                field: #fname,
                neg_is_inv: #neg_is_inv,
                describe: #describe,
                type_name: #type_name,
            }
        }
    }

    fn value_kind(&self, op: &Opcode, f: &Field) -> TokenStream {
        let rt = rt();
        let isa = self.isa;
        let b = bits(f);
        match &isa.types[f.ty].kind {
            TypeKind::Register { .. } => {
                let class = Literal::u16_unsuffixed(self.class(f));
                let pair = op.operands.bitwidths.iter().find(|w| w.operand == *f.name).and_then(|w| lower_expr(isa, op, &w.expr));
                let pair = opt_expr(pair);
                quote! { #rt::OperandKind::Register { bits: #b, class: #class, pair: #pair } }
            }
            TypeKind::Int { signed } => quote! { #rt::OperandKind::Int { bits: #b, signed: #signed } },
            TypeKind::Float { exponent, mantissa, lanes } => {
                let (e, m, l) = (Literal::u32_unsuffixed(*exponent), Literal::u32_unsuffixed(*mantissa), Literal::u32_unsuffixed(*lanes));
                let select = self
                    .asm
                    .hook(op, Some(&f.name), "CvtFImm")
                    .and_then(|h| op.field(h.args.get(1)?))
                    .map(|af| {
                        let by = bits(af);
                        let entries = match &isa.types[af.ty].kind {
                            TypeKind::Enum { values } => values
                                .iter()
                                .filter_map(|v| {
                                    let ff = hooks::format_named(&v.name)?;
                                    let (enc, fe, fm) = (Literal::u64_unsuffixed(v.encoding), Literal::u32_unsuffixed(ff.exponent), Literal::u32_unsuffixed(ff.mantissa));
                                    Some(quote! { (#enc, ::isa_runtime::text::literal::FloatFormat { exponent: #fe, mantissa: #fm }) })
                                })
                                .collect::<Vec<_>>(),
                            _ => Vec::new(),
                        };
                        quote! { Some((#by, &[ #( #entries ),* ])) }
                    })
                    .unwrap_or_else(|| quote! { None });
                quote! {
                    #rt::OperandKind::Float {
                        bits: #b,
                        format: ::isa_runtime::text::literal::FloatFormat { exponent: #e, mantissa: #m },
                        lanes: #l,
                        select: #select,
                    }
                }
            }
            TypeKind::ConstMem { bank, offset } => {
                let (bb, ob) = (sub_bits(bank), sub_bits(offset));
                quote! { #rt::OperandKind::ConstMem { bits: #b, bank: #bb, offset: #ob } }
            }
            TypeKind::Enum { .. } => quote! { #rt::OperandKind::Enum },
        }
    }

    fn decoration(&self, oc: usize, op: &Opcode, ot: usize, d: &isa_dsl::ir::Decoration, df: Option<&str>) -> TokenStream {
        let rt = rt();
        let kind = match d.kind {
            DecorationKind::Neg => quote! { Neg },
            DecorationKind::Abs => quote! { Abs },
            DecorationKind::Not => quote! { Not },
            DecorationKind::Invert => quote! { Invert },
            DecorationKind::Suffix => quote! { Suffix },
        };
        let name = d.name.as_str();
        let optional = d.optional;
        let f = df.and_then(|n| op.field(n));
        let target = match (df, f) {
            (None, _) => quote! { #rt::Target::None },
            (Some(_), None) => quote! { #rt::Target::Missing },
            (Some(_), Some(f)) => {
                let fr = field_ref(f);
                let (on, off) = self.flag(f);
                let (on, off) = (Literal::u64_unsuffixed(on), Literal::u64_unsuffixed(off));
                quote! { #rt::Target::Field { field: #fr, on: #on, off: #off } }
            }
        };
        let neg_hook = self.asm.hook(op, df, "CvtINegX").is_some();
        let suffix = match (d.kind, f) {
            (DecorationKind::Suffix, Some(f)) => self.suffix(oc, op, ot, f, &d.name),
            _ => quote! { None },
        };
        quote! {
            #rt::Decoration { kind: #rt::DecorationKind::#kind, name: #name, optional: #optional, target: #target, neg_hook: #neg_hook, suffix: #suffix }
        }
    }

    /// The suffix spellings of field `f`, computed with the interpreted
    /// assembler's mapping for every spelling and value there is.
    fn suffix(&self, oc: usize, op: &Opcode, ot: usize, f: &Field, list: &str) -> TokenStream {
        let rt = rt();
        let isa = self.isa;
        let t = &isa.types[f.ty];
        let mut candidates: Vec<&str> = Vec::new();
        if let Some(l) = self.asm.value_list(ot, list) {
            candidates.extend(l.items.iter().map(|i| i.spelling.as_str()));
        }
        let values: Vec<u64> = match &t.kind {
            TypeKind::Enum { values } => {
                candidates.extend(values.iter().map(|v| v.name.as_str()));
                values.iter().map(|v| v.encoding).collect()
            }
            _ => Vec::new(),
        };
        candidates.extend(hooks::vsel_spellings(8).iter().chain(hooks::vsel_spellings(16)));
        let mut seen = std::collections::HashSet::new();
        candidates.retain(|c| seen.insert(*c));
        let Some(mut raw) = self.asm.codec().default_instruction(oc) else { return quote! { None } };
        let map = |raw: &crate::interp::RawInstruction| {
            let parse = candidates.iter().filter_map(|c| {
                let v = self.asm.suffix_value(ot, op, raw, f, list, c)?;
                let v = Literal::u64_unsuffixed(v);
                Some(quote! { (#c, #v) })
            });
            let print = values.iter().filter_map(|&v| {
                let s = self.asm.suffix_text(ot, op, raw, f, list, v)?;
                let v = Literal::u64_unsuffixed(v);
                Some(quote! { (#v, #s) })
            });
            quote! { #rt::SuffixMap { parse: &[ #( #parse ),* ], print: &[ #( #print ),* ] } }
        };
        let hook = self.asm.hook(op, Some(&f.name), "CvtVSel").or_else(|| self.asm.hook(op, Some(&f.name), "CvtVPSel"));
        match hook {
            None => {
                let m = map(&raw);
                quote! { Some(#rt::Suffix::Fixed(#m)) }
            }
            Some(h) => {
                let Some((ai, af)) = h.args.get(1).and_then(|a| op.fields.iter().enumerate().find(|(_, f)| *f.name == **a)) else {
                    return quote! { Some(#rt::Suffix::Selected { by: #rt::Bits { start: 0, width: 0 }, table: &[] }) };
                };
                let by = bits(af);
                let arg_values: Vec<u64> = match &isa.types[af.ty].kind {
                    TypeKind::Enum { values } => values.iter().map(|v| v.encoding).collect(),
                    _ => Vec::new(),
                };
                let mut rows = Vec::new();
                for av in arg_values {
                    raw.values[ai] = av;
                    let m = map(&raw);
                    let av = Literal::u64_unsuffixed(av);
                    rows.push(quote! { (#av, #m) });
                }
                quote! { Some(#rt::Suffix::Selected { by: #by, table: &[ #( #rows ),* ] }) }
            }
        }
    }
}

fn decoration_bit(k: DecorationKind) -> u8 {
    match k {
        DecorationKind::Neg => 0,
        DecorationKind::Abs => 1,
        DecorationKind::Not => 2,
        DecorationKind::Invert => 3,
        DecorationKind::Suffix => 4,
    }
}
