//! Rust code generation: the `generated/` crate. One `gen_*` function per
//! emitted item, each returning a `TokenStream`; files are formatted with
//! prettyplease and get a header naming the generator and the spec files.
//!
//! What the crate holds:
//! * `types.rs`: an enum per bit-field type, a range-checked newtype per
//!   operand type (registers, predicates, immediates, constant memory);
//! * `opcodes.rs`: a struct per opcode with `encode` / `decode`;
//! * `text.rs`: the syntax model and `FromStr`/`Display` (see `asm::lower`);
//! * `sim.rs`: the simulator glue (see `gen_sim`);
//! * `lib.rs`: the `Instruction` enum, the dispatch table and the errors.

use crate::names::{field_builder, field_ident, field_setter, ident};
use crate::plan::{check_tables, exceptions, mask64, CheckTables, DecodePlan, RawExpr, Slot};
use isa_dsl::expr::BinOp;
use isa_dsl::ir::{Field, FieldValue, Isa, Opcode, Type, TypeKind};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// One generated file: path relative to the crate root, and its text.
pub type GenFile = (String, String);

/// The crate's modules as token streams: the root, then `(name, body)` of
/// each submodule. Paths between them are relative (`super::`), so the same
/// tokens work as files of a crate and as one inline module (the `isa!` macro).
pub struct CrateTokens {
    /// The crate root (`lib.rs`): its items and `mod` declarations.
    pub root: TokenStream,
    /// Each submodule's name and body, in a fixed order.
    pub modules: Vec<(&'static str, TokenStream)>,
}

/// Generates the crate's tokens.
pub fn crate_tokens(isa: &Isa) -> CrateTokens {
    crate_tokens_with(isa, None)
}

/// [`crate_tokens`], with a usage example (a doctest) in the root's
/// documentation when the crate's name is known (files on disk, not the
/// `isa!` macro, whose module a doctest could not name).
fn crate_tokens_with(isa: &Isa, crate_name: Option<&str>) -> CrateTokens {
    let modules = MODULES.iter().map(|(name, generate)| (*name, generate(isa))).collect();
    CrateTokens { root: gen_root(isa, crate_name), modules }
}

/// A pass that generates one submodule's items.
type ModulePass = fn(&Isa) -> TokenStream;

/// The crate's submodules, in order, and the pass that generates each.
const MODULES: [(&str, ModulePass); 4] =
    [("types", gen_types), ("opcodes", gen_opcodes), ("text", crate::asm::lower::gen_text), ("sim", crate::gen_sim::gen_sim)];

/// The crate root's items, with the usage example when the crate's name is known.
fn gen_root(isa: &Isa, crate_name: Option<&str>) -> TokenStream {
    let plan = DecodePlan::new(isa);
    let example = crate_name.and_then(|c| usage_example(isa, c)).unwrap_or_default();
    gen_lib(isa, &plan, &example)
}

/// A `# Example` section for the crate's documentation: the first opcode,
/// in spec order, whose all-defaults instruction encodes and prints as
/// text that assembles back, built, encoded, decoded, printed and parsed.
/// The expected word and text come from the interpreted codec and
/// assembler, so the doctest checks the generated code against them.
/// `None` when no opcode qualifies.
fn usage_example(isa: &Isa, crate_name: &str) -> Option<String> {
    let asm = crate::asm::Assembler::new(isa);
    let (op, word, text) = (0..isa.opcodes.len()).find_map(|i| {
        let raw = asm.codec().default_instruction(i)?;
        let word = asm.codec().encode(&raw).ok()?;
        let text = asm.render(&raw);
        let back = asm.assemble_line(&text).ok()??;
        (back.word == word && !text.starts_with('.')).then(|| (&isa.opcodes[i], word, text))
    })?;
    let krate = crate_name.replace('-', "_");
    let name = crate::names::ident_text(&op.name);
    Some(format!(
        "\n\n# Example\n\n\
         ```\n\
         use {krate}::{{Instruction, {name}}};\n\n\
         // `{op_name}` with every field at the spec's default.\n\
         let inst = Instruction::from({name}::default());\n\
         let word = inst.encode()?;\n\
         assert_eq!(word, {word:#034x});\n\
         assert_eq!(Instruction::decode(word)?, inst);\n\
         assert_eq!(inst.to_string(), {text:?});\n\
         assert_eq!({text:?}.parse::<Instruction>()?, inst);\n\
         # Ok::<(), Box<dyn std::error::Error>>(())\n\
         ```",
        op_name = op.name,
    ))
}

impl CrateTokens {
    /// Everything as one token stream: `pub mod name { ... }` for each submodule.
    pub fn inline(&self) -> TokenStream {
        let root = &self.root;
        let mods = self.modules.iter().map(|(name, body)| {
            let name = format_ident!("{}", name);
            quote! { pub mod #name { #body } }
        });
        quote! { #root #( #mods )* }
    }
}

/// Generates every file of the crate: the same tokens as [`crate_tokens`],
/// one module at a time, each formatted and dropped before the next is
/// generated (memory stays that of one module, not of the crate).
pub fn generate_crate(isa: &Isa, options: &crate::Options) -> Vec<GenFile> {
    let header = header(isa);
    let root = gen_root(isa, Some(&options.crate_name));
    let decls = MODULES.iter().map(|(name, _)| format_ident!("{}", name));
    let lib = quote! { #root #( pub mod #decls; )* };
    drop(root);
    let mut files = vec![("Cargo.toml".to_string(), cargo_toml(isa, options)), ("src/lib.rs".to_string(), format(&header, lib))];
    for (name, generate) in MODULES {
        files.push((format!("src/{name}.rs"), format(&header, generate(isa))));
    }
    files
}

/// The `// @generated` header: generator and inputs.
fn header(isa: &Isa) -> String {
    let mut s = String::from("// @generated by isa-codegen; do not edit.\n// Spec files:\n");
    for f in &isa.files {
        s.push_str(&format!("//   {}\n", f.replace('\\', "/")));
    }
    s
}

/// `s` inside a TOML basic string (`"..."`): backslashes and quotes escaped.
fn toml_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn cargo_toml(isa: &Isa, options: &crate::Options) -> String {
    let mut s = String::from("# @generated by isa-codegen; do not edit.\n");
    s.push_str(&format!(
        "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2021\"\nrust-version = \"1.88\"\npublish = false\ndescription = \"Encoders, decoders and assembly text for the {} ISA, generated from its spec.\"\n\n[lib]\npath = \"src/lib.rs\"\n\n[dependencies]\nisa-runtime = {{ path = \"{}\" }}\n",
        options.crate_name,
        isa.name,
        toml_escape(&options.runtime_path.replace('\\', "/")),
    ));
    s
}

/// A file's text: `header`, then `tokens` formatted by prettyplease. The
/// file is parsed and printed an item at a time (the same text as the whole
/// file at once), so only one item's syntax tree is ever in memory.
fn format(header: &str, tokens: TokenStream) -> String {
    use syn::parse::Parser;
    let mut text = format!("{header}\n");
    let print = |input: syn::parse::ParseStream| -> syn::Result<()> {
        let mut file = syn::File { shebang: None, attrs: input.call(syn::Attribute::parse_inner)?, items: Vec::new() };
        while !input.is_empty() {
            file.items.push(input.parse()?);
            text.push_str(&prettyplease::unparse(&file));
            file.attrs.clear();
            file.items.clear();
        }
        if !file.attrs.is_empty() {
            text.push_str(&prettyplease::unparse(&file));
        }
        Ok(())
    };
    if let Err(e) = print.parse2(tokens) {
        // A generator bug: make the file fail to compile, saying why.
        text.push_str(&format!("compile_error!({:?});\n", format!("prettyplease could not parse the generated code: {e}")));
    }
    text
}

/// Inner `#![doc]` attributes (a file's own documentation), one per line.
fn inner_docs(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| format!(" {}", l.trim_end()));
    quote! { #( #![doc = #lines] )* }
}

/// `#[doc]` attributes, one per line (prettyplease prints multi-line docs as `/** */`).
fn docs(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| format!(" {}", l.trim_end()));
    quote! { #( #[doc = #lines] )* }
}

pub(crate) fn u128_lit(v: u128) -> Literal {
    Literal::u128_suffixed(v)
}

/// The smallest unsigned integer type holding `width` bits.
fn uint(width: u32) -> TokenStream {
    match width {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        _ => quote!(u64),
    }
}

fn sint(width: u32) -> TokenStream {
    match width {
        0..=8 => quote!(i8),
        9..=16 => quote!(i16),
        17..=32 => quote!(i32),
        _ => quote!(i64),
    }
}

// ---------------------------------------------------------------------------
// types.rs
// ---------------------------------------------------------------------------

fn gen_types(isa: &Isa) -> TokenStream {
    let items = isa.types.iter().map(|t| {
        let item = match &t.kind {
            TypeKind::Enum { .. } => gen_enum(t),
            TypeKind::Register { .. } => gen_register(t),
            TypeKind::Int { signed } => gen_int(t, *signed),
            TypeKind::Float { .. } => gen_float(t),
            TypeKind::ConstMem { .. } => gen_const_mem(t),
        };
        let from_bits = gen_from_bits(t);
        quote! { #item #from_bits }
    });
    quote! {
        //! Field types: one enum per bit-field type, one range-checked newtype
        //! per operand type. `to_raw`/`from_raw` convert to and from the bits
        //! stored in the instruction word.
        #![allow(non_camel_case_types, clippy::upper_case_acronyms)]
        use super::RangeError;
        #( #items )*
    }
}

/// `from_bits`: the value of bits an opcode struct's word holds, which are
/// always a value of the type (the first value otherwise, so that the
/// accessors need no `Option`).
fn gen_from_bits(t: &Type) -> TokenStream {
    let name = ident(&t.name);
    let fallback = match &t.kind {
        TypeKind::Enum { values } if values.is_empty() => return quote!(),
        TypeKind::Enum { .. } => quote! { #name::ALL[0] },
        _ => quote! { match #name::from_raw(0) { Some(v) => v, None => ::core::panic!("0 is a value of the type") } },
    };
    quote! {
        impl #name {
            /// The value of `raw`, bits known to hold one (an opcode's word).
            #[inline]
            #[allow(dead_code)]
            pub(crate) const fn from_bits(raw: u64) -> Self {
                match Self::from_raw(raw) { Some(v) => v, None => #fallback }
            }
        }
    }
}

fn gen_enum(t: &Type) -> TokenStream {
    let TypeKind::Enum { values } = &t.kind else { return quote!() };
    let name = ident(&t.name);
    let repr = uint(t.width.max(values.iter().map(|v| 64 - v.encoding.leading_zeros()).max().unwrap_or(1)));
    let doc = docs(&format!("Bit-field type `{}` ({} bit{}).", t.name, t.width, if t.width == 1 { "" } else { "s" }));
    let variants: Vec<_> = values.iter().map(|v| ident(&v.name)).collect();
    let encodings: Vec<_> = values.iter().map(|v| Literal::u64_unsuffixed(v.encoding)).collect();
    let names: Vec<_> = values.iter().map(|v| v.name.as_str()).collect();
    let n = values.len();
    let vdocs = values.iter().map(|v| docs(&format!("`{}` = {:#x}", v.name, v.encoding)));
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(#repr)]
        pub enum #name { #( #vdocs #variants = #encodings, )* }
        impl #name {
            /// Every value, in declaration order.
            pub const ALL: [#name; #n] = [ #( #name::#variants ),* ];
            /// The encoding.
            #[inline]
            pub const fn to_raw(self) -> u64 { self as u64 }
            /// The value with this encoding, if any.
            #[inline]
            pub const fn from_raw(raw: u64) -> Option<Self> {
                match raw { #( #encodings => Some(#name::#variants), )* _ => None }
            }
            /// The value's name in the spec.
            pub const fn name(self) -> &'static str {
                match self { #( #name::#variants => #names, )* }
            }
            /// The value with this name in the spec.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { #( #names => Some(#name::#variants), )* _ => None }
            }
        }
        /// The value's name in the spec ([`Self::name`]).
        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.pad(self.name()) }
        }
    }
}

fn gen_register(t: &Type) -> TokenStream {
    let TypeKind::Register { prefix, predicate, constants, .. } = &t.kind else { return quote!() };
    let name = ident(&t.name);
    let repr = uint(t.width);
    let max = Literal::u64_unsuffixed(mask64(t.width));
    let kind = if *predicate { "Predicate" } else { "Register" };
    let doc = docs(&format!(
        "{kind} `{prefix}N` ({} bits){}.",
        t.width,
        constants.iter().map(|c| format!(", `{}` = {prefix}{}", c.name, c.index)).collect::<String>()
    ));
    let consts = constants.iter().map(|c| {
        let cn = ident(&c.name);
        let v = Literal::u64_unsuffixed(c.index);
        let d = docs(&format!("`{}` ({prefix}{}).", c.name, c.index));
        quote! { #d pub const #cn: #name = #name(#v); }
    });
    let named = constants.iter().map(|c| {
        let v = Literal::u64_unsuffixed(c.index);
        let text = &c.name;
        quote! { #v => f.pad(#text), }
    });
    // Examples in this register file's own spelling.
    let example = constants.first().map_or(format!("`{prefix}1`"), |c| format!("`{prefix}1`, `{}`", c.name));
    let pair = if *predicate { String::new() } else { format!("; a 64-bit operand's pair (`{prefix}[4:5]`) is the instruction text's business") };
    let display_doc = docs(&format!("The assembly name: a named register's name, else the prefix and the number ({example}){pair}."));
    let debug_doc = docs(&format!("As [`Display`](core::fmt::Display): {example}."));
    let default_doc = docs(&format!("`Default` is register 0 (`{prefix}0`), as for every register type; a field's own default is its opcode's business."));
    quote! {
        #doc
        ///
        #default_doc
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct #name(pub(crate) #repr);
        #display_doc
        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.0 { #( #named )* n => f.pad(&::std::format!("{}{}", Self::PREFIX, n)) }
            }
        }
        #debug_doc
        impl core::fmt::Debug for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { core::fmt::Display::fmt(self, f) }
        }
        impl #name {
            #( #consts )*
            /// Assembly prefix of this register file.
            pub const PREFIX: &'static str = #prefix;
            /// Register `index`; errors when it does not fit the field.
            pub const fn new(index: u64) -> Result<Self, RangeError> {
                if index <= #max { Ok(#name(index as #repr)) } else { Err(RangeError { type_name: ::core::stringify!(#name), value: index as i128, min: 0, max: #max as i128 }) }
            }
            /// The register number.
            #[inline]
            pub const fn index(self) -> u64 { self.0 as u64 }
            /// The field's raw bits.
            #[inline]
            pub const fn to_raw(self) -> u64 { self.0 as u64 }
            /// The value whose raw bits these are; `None` when they are not one.
            #[inline]
            pub const fn from_raw(raw: u64) -> Option<Self> {
                if raw <= #max { Some(#name(raw as #repr)) } else { None }
            }
        }
    }
}

fn gen_int(t: &Type, signed: bool) -> TokenStream {
    let name = ident(&t.name);
    let w = t.width;
    let mask = Literal::u64_unsuffixed(mask64(w));
    if signed {
        let repr = sint(w);
        let min = Literal::i128_unsuffixed(-(1i128 << (w - 1)));
        let max = Literal::i128_unsuffixed((1i128 << (w - 1)) - 1);
        let shift = Literal::u32_unsuffixed(64 - w);
        let doc = docs(&format!("Signed {w}-bit immediate."));
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
            pub struct #name(pub(crate) #repr);
            impl #name {
                /// Errors when `value` does not fit in the type's bits.
                pub const fn new(value: i64) -> Result<Self, RangeError> {
                    if (value as i128) >= #min && (value as i128) <= #max { Ok(#name(value as #repr)) } else { Err(RangeError { type_name: ::core::stringify!(#name), value: value as i128, min: #min as i128, max: #max as i128 }) }
                }
                /// The value (sign-extended).
                #[inline]
                pub const fn value(self) -> i64 { self.0 as i64 }
                /// The field's raw bits.
                #[inline]
                pub const fn to_raw(self) -> u64 { (self.0 as i64 as u64) & #mask }
                /// The value whose field bits are `raw` (sign-extended);
                /// `None` when `raw` has bits above the field, as for every type.
                #[inline]
                pub const fn from_raw(raw: u64) -> Option<Self> {
                    if raw <= #mask { Some(#name(((raw << #shift) as i64 >> #shift) as #repr)) } else { None }
                }
            }
            /// As the assembler prints it: `0x1F`, `-0x10`.
            impl core::fmt::Display for #name {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    let v = self.value();
                    f.pad(&::std::format!("{}0x{:X}", if v < 0 { "-" } else { "" }, v.unsigned_abs()))
                }
            }
        }
    } else {
        let repr = uint(w);
        let doc = docs(&format!("Unsigned {w}-bit immediate."));
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
            pub struct #name(pub(crate) #repr);
            impl #name {
                /// Errors when `value` does not fit in the type's bits.
                pub const fn new(value: u64) -> Result<Self, RangeError> {
                    if value <= #mask { Ok(#name(value as #repr)) } else { Err(RangeError { type_name: ::core::stringify!(#name), value: value as i128, min: 0, max: #mask as i128 }) }
                }
                /// The value.
                #[inline]
                pub const fn value(self) -> u64 { self.0 as u64 }
                /// The field's raw bits.
                #[inline]
                pub const fn to_raw(self) -> u64 { self.0 as u64 }
                /// The value whose raw bits these are; `None` when they are not one.
                #[inline]
                pub const fn from_raw(raw: u64) -> Option<Self> {
                    if raw <= #mask { Some(#name(raw as #repr)) } else { None }
                }
            }
            /// As the assembler prints it: `0x1F`.
            impl core::fmt::Display for #name {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.pad(&::std::format!("0x{:X}", self.value())) }
            }
        }
    }
}

fn gen_float(t: &Type) -> TokenStream {
    let TypeKind::Float { exponent, mantissa, lanes } = &t.kind else { return quote!() };
    let name = ident(&t.name);
    let repr = uint(t.width);
    let mask = Literal::u64_unsuffixed(mask64(t.width));
    let doc = docs(&format!(
        "{lanes} float lane{} of 1+{exponent}+{mantissa} bits (lane 0 in the low bits), stored as raw bits.",
        if *lanes == 1 { "" } else { "s" }
    ));
    let lane_width = 1 + exponent + mantissa;
    let lane_mask = Literal::u64_unsuffixed(mask64(lane_width));
    let lane_width = Literal::u32_unsuffixed(lane_width);
    let (exponent, mantissa, lanes) = (Literal::u32_unsuffixed(*exponent), Literal::u32_unsuffixed(*mantissa), Literal::u32_unsuffixed(*lanes));
    // Binary32 in one lane of a 32-bit field: `f32` in and out.
    let f32_helpers = if kind_is_f32(&t.kind) && t.width == 32 {
        quote! {
            /// The value with the bits of `x`.
            pub const fn from_f32(x: f32) -> Self { #name(x.to_bits()) }
            /// The value as an `f32` (the same bits).
            pub const fn to_f32(self) -> f32 { f32::from_bits(self.0) }
        }
    } else {
        quote!()
    };
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct #name(pub(crate) #repr);
        impl #name {
            /// From raw IEEE bits; errors when they do not fit.
            pub const fn new(bits: u64) -> Result<Self, RangeError> {
                if bits <= #mask { Ok(#name(bits as #repr)) } else { Err(RangeError { type_name: ::core::stringify!(#name), value: bits as i128, min: 0, max: #mask as i128 }) }
            }
            /// The raw bits.
            #[inline]
            pub const fn bits(self) -> u64 { self.0 as u64 }
            /// The field's raw bits.
            #[inline]
            pub const fn to_raw(self) -> u64 { self.0 as u64 }
            /// The value whose raw bits these are; `None` when they are not one.
            #[inline]
            pub const fn from_raw(raw: u64) -> Option<Self> {
                if raw <= #mask { Some(#name(raw as #repr)) } else { None }
            }
            /// The raw bits of lane `lane` (lane 0 in the low bits); `None`
            /// past the last lane.
            pub const fn lane_bits(self, lane: u32) -> Option<u64> {
                if lane < #lanes { Some((self.0 as u64 >> (lane * #lane_width)) & #lane_mask) } else { None }
            }
            /// The exact value of lane `lane` read as this type's format
            /// (an instruction may read the bits in another format, as its
            /// text shows); `None` past the last lane.
            pub fn lane_f64(self, lane: u32) -> Option<f64> {
                match self.lane_bits(lane) { Some(b) => Some(::isa_runtime::text::literal::to_f64(b, Self::FORMAT)), None => None }
            }
            /// The lanes' format.
            pub const FORMAT: ::isa_runtime::text::literal::FloatFormat =
                ::isa_runtime::text::literal::FloatFormat { exponent: #exponent, mantissa: #mantissa };
            #f32_helpers
        }
        /// As the assembler prints it, in the type's own format: the
        /// shortest decimal of each lane that reads back to its bits, the
        /// highest lane first, separated by `, ` (`-1, 1`).
        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let mut s = String::new();
                ::isa_runtime::text::literal::write_float_lanes(&mut s, self.0 as u64, #lanes, Self::FORMAT);
                f.pad(&s)
            }
        }
    }
}

fn gen_const_mem(t: &Type) -> TokenStream {
    let TypeKind::ConstMem { bank, offset } = &t.kind else { return quote!() };
    let name = ident(&t.name);
    let bank_ty = uint(bank.width);
    let off_ty = uint(offset.width);
    let bank_max = Literal::u64_unsuffixed(mask64(bank.width));
    let off_max = Literal::u64_unsuffixed(mask64(offset.width));
    let (bs, os) = (Literal::u32_unsuffixed(bank.start), Literal::u32_unsuffixed(offset.start));
    let mask = Literal::u64_unsuffixed(mask64(t.width));
    let doc = docs(&format!(
        "Constant-memory reference `c[bank][offset]`: bank in bits {}..={}, offset in bits {}..={} of the field.",
        bank.start,
        bank.start + bank.width - 1,
        offset.start,
        offset.start + offset.width - 1
    ));
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct #name { pub(crate) bank: #bank_ty, pub(crate) offset: #off_ty }
        impl #name {
            /// Errors when the bank or the offset does not fit.
            pub const fn new(bank: u64, offset: u64) -> Result<Self, RangeError> {
                if bank > #bank_max { return Err(RangeError { type_name: ::core::concat!(::core::stringify!(#name), " bank"), value: bank as i128, min: 0, max: #bank_max as i128 }); }
                if offset > #off_max { return Err(RangeError { type_name: ::core::concat!(::core::stringify!(#name), " offset"), value: offset as i128, min: 0, max: #off_max as i128 }); }
                Ok(#name { bank: bank as #bank_ty, offset: offset as #off_ty })
            }
            /// The constant bank.
            #[inline]
            pub const fn bank(self) -> u64 { self.bank as u64 }
            /// The byte offset in the bank.
            #[inline]
            pub const fn offset(self) -> u64 { self.offset as u64 }
            /// The field's raw bits.
            #[inline]
            pub const fn to_raw(self) -> u64 { (self.bank as u64) << #bs | (self.offset as u64) << #os }
            /// The value whose raw bits these are; `None` when they are not one.
            #[inline]
            pub const fn from_raw(raw: u64) -> Option<Self> {
                if raw > #mask { return None; }
                Some(#name { bank: ((raw >> #bs) & #bank_max) as #bank_ty, offset: ((raw >> #os) & #off_max) as #off_ty })
            }
        }
        /// As the assembler prints it: `c[0x3][0x18]`.
        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.pad(&::std::format!("c[{:#x}][{:#x}]", self.bank, self.offset)) }
        }
    }
}

/// Whether a float type is one binary32 lane.
fn kind_is_f32(kind: &TypeKind) -> bool {
    matches!(kind, TypeKind::Float { exponent: 8, mantissa: 23, lanes: 1 })
}

// ---------------------------------------------------------------------------
// opcodes.rs
// ---------------------------------------------------------------------------

fn gen_opcodes(isa: &Isa) -> TokenStream {
    let codec = crate::interp::Codec::new(isa);
    let items = isa.opcodes.iter().enumerate().map(|(i, op)| gen_opcode(isa, &codec, i, op));
    quote! {
        //! One struct per opcode: every non-constant field, typed, with
        //! `encode` (to the 128-bit word) and `decode` (from it).
        #![allow(non_camel_case_types, clippy::all)]
        use super::types::*;
        use super::{constant_bits_owner, DecodeError, EncodeError, RawFieldsError};

        /// The `m`-masked bits of `w` from bit `at` (a field's raw value).
        #[inline(always)]
        const fn bits(w: u128, at: u32, m: u64) -> u64 { (w >> at) as u64 & m }

        /// `w` with the field from bit `at` (mask `m`) holding `v`.
        #[inline(always)]
        const fn put(w: u128, at: u32, m: u64, v: u64) -> u128 { (w & !((m as u128) << at)) | (((v & m) as u128) << at) }

/// A field's getter, setter and builder, from its doc, their names,
        /// its type, first bit and mask.
        macro_rules! field {
            ($doc:literal, $get:ident, $set:ident, $with:ident, $t:ident, $at:literal, $m:literal) => {
                #[doc = $doc]
                #[inline]
                pub const fn $get(&self) -> $t { $t::from_bits(bits(self.to_word(), $at, $m)) }
                #[doc = ::core::concat!("Sets `", ::core::stringify!($get), "`.")]
                #[inline]
                pub fn $set(&mut self, v: $t) { *self = self.$with(v); }
                #[doc = ::core::concat!("The instruction with `", ::core::stringify!($get), "` set to `v`.")]
                #[inline]
                #[must_use]
                pub const fn $with(self, v: $t) -> Self { Self::of(put(self.to_word(), $at, $m, v.to_raw())) }
            };
        }

        /// The bits of raw value `v` for field `field` (of type `ty`) from
        /// bit `at` (mask `m`), unless it does not fit or is not `ok` (a
        /// value of the type).
        #[inline(always)]
        const fn take(v: u64, at: u32, m: u64, ok: bool, field: &'static str, ty: &'static str) -> Result<u128, RawFieldsError> {
            if v & !m != 0 {
                Err(RawFieldsError::TooWide { field, value: v, width: m.count_ones() })
            } else if !ok {
                Err(RawFieldsError::NotOfType { field, value: v, type_name: ty })
            } else {
                Ok((v as u128) << at)
            }
        }

                #( #items )*
    }
}

/// Fields the struct carries (constants are implied by the opcode).
fn free_fields(op: &Opcode) -> impl Iterator<Item = &Field> {
    op.fields.iter().filter(|f| !f.is_constant())
}

fn field_doc(isa: &Isa, f: &Field) -> String {
    let bits = if f.width == 1 { format!("bit {}", f.start) } else { format!("bits {}..={}", f.start, f.start + f.width - 1) };
    let t = &isa.types[f.ty];
    let default = match f.value {
        FieldValue::Default(v) => format!(", default `{}`", t.value_text(v)),
        _ => String::new(),
    };
    // The type as written, and what it resolves to when that differs.
    let ty = if *t.name == *f.ty_name { format!("`{}`", t.name) } else { format!("`{}` (`{}`)", f.ty_name, t.name) };
    format!("`{}`: {ty}, {bits}{default} (declared in `{}`).", f.name, f.declared_in)
}


fn opcode_doc(isa: &Isa, op: &Opcode) -> String {
    let ot = &isa.optypes[op.optype];
    let mut s = format!("`{}`: an encoding of `{}`", op.name, ot.name);
    if !ot.groups.is_empty() {
        s.push_str(&format!(" ({})", ot.groups.join(" > ")));
    }
    s.push_str(".\n");
    if let Some(d) = &ot.docs.description {
        let para: Vec<&str> = d.text.trim().lines().take_while(|l| !l.trim().is_empty()).collect();
        if !para.is_empty() {
            s.push('\n');
            s.push_str(&para.join("\n"));
            s.push('\n');
        }
    }
    if !ot.syntax.is_empty() {
        s.push_str("\nSyntax:\n");
        for f in &ot.syntax {
            s.push_str(&format!("- `{}`\n", f.text.trim()));
        }
        if ot.syntax.iter().any(|f| f.text.contains('$')) {
            s.push_str("\nA `$name` placeholder is a control field, written `&name=value` (left out at its default).\n");
        }
        if !ot.value_lists.is_empty() {
            s.push_str("\nModifier values:\n");
            for l in &ot.value_lists {
                let items: Vec<String> = l
                    .items
                    .iter()
                    .map(|i| if i.is_default { format!("`.{}` (default)", i.spelling) } else { format!("`.{}`", i.spelling) })
                    .collect();
                s.push_str(&format!("- `.{}`: {}\n", l.name, items.join(", ")));
            }
        }
    }
    let consts = selectors(isa, op, true);
    if !consts.is_empty() {
        s.push_str(&format!("\nSelected by {}.\n", consts.join(", ")));
    }
    s
}

/// The opcode's constant fields as `` `name == VALUE` ``, with their bits
/// (`(bits 0..=7)`) when `bits`.
fn selectors(isa: &Isa, op: &Opcode, bits: bool) -> Vec<String> {
    op.fields
        .iter()
        .filter(|f| f.is_constant())
        .map(|f| {
            let value = isa.types[f.ty].value_text(f.default_value().unwrap_or(0));
            let at = if bits { format!(" (bits {}..={})", f.start, f.start + f.width - 1) } else { String::new() };
            format!("`{} == {value}`{at}", f.name)
        })
        .collect()
}

/// Expression that reads a field's raw bits from `lo`/`hi`/`w`.
fn extract(f: &Field) -> TokenStream {
    let m = Literal::u64_unsuffixed(mask64(f.width));
    let end = f.start + f.width;
    if end <= 64 {
        let s = Literal::u32_unsuffixed(f.start);
        quote! { (lo >> #s) & #m }
    } else if f.start >= 64 {
        let s = Literal::u32_unsuffixed(f.start - 64);
        quote! { (hi >> #s) & #m }
    } else {
        let s = Literal::u32_unsuffixed(f.start);
        quote! { ((w >> #s) as u64) & #m }
    }
}

/// A lowered exception condition as Rust over `w: u128` (i64 arithmetic, non-zero = true).
pub(crate) fn raw_expr(e: &RawExpr) -> TokenStream {
    match e {
        RawExpr::Const(c) => {
            let c = Literal::i64_suffixed(*c);
            quote! { #c }
        }
        RawExpr::Field { start, width } => {
            let s = Literal::u32_unsuffixed(*start);
            let m = Literal::u64_unsuffixed(mask64(*width));
            quote! { ((((w >> #s) as u64) & #m) as i64) }
        }
        RawExpr::Not(x) => {
            let x = raw_expr(x);
            quote! { ((#x == 0) as i64) }
        }
        RawExpr::Binary(op, a, b) => {
            let (a, b) = (raw_expr(a), raw_expr(b));
            match op {
                BinOp::Or => quote! { ((#a != 0 || #b != 0) as i64) },
                BinOp::And => quote! { ((#a != 0 && #b != 0) as i64) },
                BinOp::Eq => quote! { ((#a == #b) as i64) },
                BinOp::Ne => quote! { ((#a != #b) as i64) },
                BinOp::Add => quote! { #a.wrapping_add(#b) },
                BinOp::Sub => quote! { #a.wrapping_sub(#b) },
                BinOp::Mul => quote! { #a.wrapping_mul(#b) },
            }
        }
    }
}

fn gen_opcode(isa: &Isa, codec: &crate::interp::Codec, opcode: usize, op: &Opcode) -> TokenStream {
    let name = ident(&op.name);
    let name_str = op.name.as_str();
    let optype_str = isa.optypes[op.optype].name.as_str();
    let doc = docs(&opcode_doc(isa, op));
    let index = Literal::usize_unsuffixed(opcode);
    let fields: Vec<&Field> = free_fields(op).collect();
    let fidents: Vec<_> = fields.iter().map(|f| field_ident(&f.name)).collect();
    let ftypes: Vec<_> = fields.iter().map(|f| ident(&f.ty_name)).collect();
    let fnames: Vec<&str> = fields.iter().map(|f| &*f.name).collect();
    let fixed_mask = u128_lit(op.fixed_mask);
    let fixed_bits = u128_lit(op.fixed_bits);
    let covered = u128_lit(op.covered_mask());
    // Each field's getter, setter and builder: one `field!` invocation (the
    // macro is emitted once per module, so `isa!` expands few tokens). The
    // word only ever holds values of the types, so `from_bits`' fallback is
    // never taken.
    let accessors = fields.iter().zip(&fidents).zip(&ftypes).map(|((f, id), t)| {
        let fdoc = field_doc(isa, f);
        let (set, with) = (field_setter(&f.name), field_builder(&f.name));
        let m = Literal::u64_unsuffixed(mask64(f.width));
        let at = Literal::u32_unsuffixed(f.start);
        quote! { field!(#fdoc, #id, #set, #with, #t, #at, #m); }
    });
    // The spec's defaults are checked values of their types (E034); a field
    // without one is zero, which an enum need not have, unless that breaks
    // an `__Exception` rule (`Codec::encodable_default`).
    let defaults = codec.encodable_default(opcode).map(|r| r.values).unwrap_or_default();
    let default_word = op.fields.iter().zip(&defaults).fold(op.fixed_bits, |w, (f, &v)| w | ((v & mask64(f.width)) as u128) << f.start);
    let default_word = u128_lit(default_word);
    let no_default = fields.iter().filter(|f| {
        let zero_missing = matches!(&isa.types[f.ty].kind, TypeKind::Enum { values } if !values.iter().any(|v| v.encoding == 0));
        f.default_value().is_none() && zero_missing
    });
    let no_default = no_default.map(|f| {
        let msg = format!("field `{}` of `{}` has no default, and 0 is not a value of its type `{}`", f.name, op.name, f.ty_name);
        quote! { compile_error!(#msg); }
    });
    let extracts = fields.iter().zip(&ftypes).zip(&fnames).map(|((f, t), n)| {
        let raw = extract(f);
        quote! {
            let raw = #raw;
            if #t::from_raw(raw).is_none() {
                return DecodeError::InvalidValue { opcode: #name_str, field: #n, value: raw };
            }
        }
    });
    // Fast path: every field's value checked at once, without early exits.
    let valid_terms: Vec<TokenStream> = fields
        .iter()
        .zip(&ftypes)
        .map(|(f, t)| {
            let raw = extract(f);
            quote! { #t::from_raw(#raw).is_some() }
        })
        .collect();
    let rules: Vec<(TokenStream, String, Literal)> =
        exceptions(isa, op).into_iter().map(|e| (raw_expr(&e.condition), e.message, u128_lit(e.bits))).collect();
    let checks = rules.iter().map(|(cond, msg, bits)| quote! { if #cond != 0 { return Some((#msg, #bits)); } });
    let any_rule = rules.iter().map(|(cond, _, _)| cond);
    let all_raw = op.fields.iter().map(|f| {
        let (at, m) = (Literal::u32_unsuffixed(f.start), Literal::u64_unsuffixed(mask64(f.width)));
        quote! { bits(w, #at, #m) }
    });
    // `from_raw_fields`: each value checked against its field, then packed.
    let takes = op.fields.iter().enumerate().map(|(k, f)| {
        let k = Literal::usize_unsuffixed(k);
        if f.is_constant() {
            let c = Literal::u64_suffixed(f.default_value().unwrap_or(0));
            let (field, width) = (&*f.name, Literal::u32_unsuffixed(f.width));
            let m = Literal::u64_unsuffixed(mask64(f.width));
            quote! {
                if v[#k] != #c {
                    return Err(if v[#k] & !#m != 0 {
                        RawFieldsError::TooWide { field: #field, value: v[#k], width: #width }
                    } else {
                        RawFieldsError::Constant { field: #field, value: v[#k], constant: #c }
                    });
                }
            }
        } else {
            let t = ident(&f.ty_name);
            let m = Literal::u64_unsuffixed(mask64(f.width));
            let at = Literal::u32_unsuffixed(f.start);
            let (field, ty) = (&*f.name, &*f.ty_name);
            quote! { w |= take(v[#k], #at, #m, #t::from_raw(v[#k]).is_some(), #field, #ty)?; }
        }
    });
    let nfields = Literal::usize_unsuffixed(op.fields.len());
    let all_names = op.fields.iter().map(|f| &*f.name);
    let all_bits = op.fields.iter().map(|f| {
        let (start, width) = (Literal::u32_unsuffixed(f.start), Literal::u32_unsuffixed(f.width));
        quote! { (#start, #width) }
    });
    let debug_names: Vec<String> = fidents.iter().map(|i| i.to_string().trim_start_matches("r#").to_string()).collect();
    quote! {
        #( #no_default )*
        #doc
        ///
        /// Holds its instruction word; the accessors read and write the fields
        /// in it, so every value is one of its type and encoding is a check of
        /// the `__Exception` rules.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #name { word: [u8; 16] }

        impl Default for #name {
            /// The spec's defaults; fields without one are zero, or the first
            /// values that keep the `__Exception` rules when zero does not.
            fn default() -> Self { Self::DEFAULT }
        }

        /// The fields, as a struct of them would print.
        impl core::fmt::Debug for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(#name_str) #( .field(#debug_names, &self.#fidents()) )* .finish()
            }
        }

        impl #name {
            /// The spec's defaults; fields without one are zero, or the first
            /// values that keep the `__Exception` rules when zero does not.
            pub const DEFAULT: Self = Self::of(#default_word);
            /// Opcode name in the spec.
            pub const NAME: &'static str = #name_str;
            /// Name of the opcode's optype (`__DefOptype`) in the spec: the
            /// instruction its forms belong to.
            pub const OPTYPE_NAME: &'static str = #optype_str;
            /// Index of the opcode in spec order.
            pub const INDEX: usize = #index;
            /// Bits fixed by the opcode's constant fields.
            pub const FIXED_MASK: u128 = #fixed_mask;
            /// Their values.
            pub const FIXED_BITS: u128 = #fixed_bits;
            /// Bits some field covers.
            pub const COVERED: u128 = #covered;
            /// Names of all fields (constants included), in spec order, as the
            /// spec writes them (`ra.neg`; its accessor is `ra_neg`).
            pub const FIELD_NAMES: [&'static str; #nfields] = [ #( #all_names ),* ];
            /// Where each field of [`Self::FIELD_NAMES`] is: (first bit, width).
            pub const FIELD_BITS: [(u32, u32); #nfields] = [ #( #all_bits ),* ];

            #( #accessors )*

            /// The first `__Exception` rule the word violates: its message
            /// and the bits of the fields it reads.
            #[inline]
            fn exception(w: u128) -> Option<(&'static str, u128)> {
                let _ = w;
                #( #checks )*
                None
            }

            /// The instruction word, without checking the `__Exception` rules
            /// (what [`Self::encode`] adds).
            #[inline]
            pub const fn to_word(&self) -> u128 { u128::from_le_bytes(self.word) }

            /// The instruction holding `w` (the caller vouches for it).
            #[inline]
            pub(super) const fn of(w: u128) -> Self { #name { word: w.to_le_bytes() } }

            /// Encodes to the instruction word (bit i of the spec is bit i of the result).
            #[inline]
            pub fn encode(&self) -> Result<u128, EncodeError> {
                let w = self.to_word();
                match Self::exception(w) {
                    None => Ok(w),
                    Some((message, bits)) => Err(EncodeError::Exception { opcode: #name_str, message, bits }),
                }
            }

            /// Whether `w` decodes as this opcode: its constant bits, a value of
            /// its type in every field and no `__Exception` rule violated.
            /// Branch-free over the fields (the fast path of [`Self::decode`]).
            #[inline(always)]
            pub fn is_valid(w: u128) -> bool {
                let lo = w as u64;
                let hi = (w >> 64) as u64;
                let _ = (lo, hi);
                let fields_ok = true #( & #valid_terms )*;
                let rules_ok = {
                    let w = w & Self::COVERED;
                    let _ = w;
                    !(false #( | ((#any_rule) != 0) )*)
                };
                (w & Self::FIXED_MASK == Self::FIXED_BITS) & fields_ok & rules_ok
            }

            /// The instruction of `w`, which [`Self::is_valid`] accepted; bits
            /// no field covers are dropped.
            #[inline(always)]
            pub(crate) const fn from_word(w: u128) -> Self {
                Self::of(w & Self::COVERED)
            }

            /// Why [`Self::is_valid`] rejects `w`: the first failing check, in
            /// field order (kept out of the fast path).
            #[cold]
            #[inline(never)]
            fn decode_error(w: u128) -> DecodeError {
                if w & Self::FIXED_MASK != Self::FIXED_BITS {
                    return match constant_bits_owner(w) {
                        Some(found) => DecodeError::WrongOpcode { opcode: #name_str, found },
                        None => DecodeError::UnknownOpcode { word: w },
                    };
                }
                let lo = w as u64;
                let hi = (w >> 64) as u64;
                let _ = (lo, hi);
                #( #extracts )*
                match Self::exception(w & Self::COVERED) {
                    Some((message, bits)) => DecodeError::Exception { opcode: #name_str, message, bits },
                    None => DecodeError::UnknownOpcode { word: w },
                }
            }

            /// Decodes a word of this opcode; bits no field covers are ignored.
            #[inline(always)]
            pub fn decode(w: u128) -> Result<Self, DecodeError> {
                if Self::is_valid(w) { Ok(Self::from_word(w)) } else { Err(Self::decode_error(w)) }
            }

            /// The instruction whose fields (constants included, in spec
            /// order, as [`Self::raw_fields`] lists them) hold these raw
            /// values; `None` when a value does not fit its field, is not a
            /// value of its type, or differs from a constant.
            pub fn from_raw_fields(v: [u64; #nfields]) -> Result<Self, RawFieldsError> {
                let mut w = Self::FIXED_BITS;
                #( #takes )*
                Ok(Self::of(w))
            }

            /// Raw value of every field (constants included), in spec order.
            pub fn raw_fields(&self) -> [u64; #nfields] {
                let w = self.to_word();
                [ #( #all_raw ),* ]
            }
        }
    }
}

// ---------------------------------------------------------------------------
// lib.rs
// ---------------------------------------------------------------------------

/// `match self { arms }` over the `Instruction` of `n` opcodes: with none,
/// `match *self {}` (a reference to an empty enum is not empty to rustc,
/// and a spec of types alone, `spec/base/`, has no opcodes).
pub(crate) fn match_self(arms: TokenStream, n: usize) -> TokenStream {
    if n == 0 {
        quote! { match *self {} }
    } else {
        quote! { match self { #arms } }
    }
}

fn gen_lib(isa: &Isa, plan: &DecodePlan, example: &str) -> TokenStream {
    let doc = inner_docs(&format!(
        "Encoders and decoders for the `{}` ISA: {} opcodes of {} instructions, {} bits wide.\n\n\
         Generated from the spec by `isa-codegen` (the command, or the `isa!` macro): \
         edit the spec, never this code.\n\n\
         Bit i of the spec is bit i of the `u128` word (bit 0 = least significant); \
         [`Instruction::to_le_bytes`] gives the 16 bytes in memory order.\n\n\
         Bits that no field of the decoded opcode covers are ignored by [`Instruction::decode`] \
         (and encode as zero); [`Instruction::decode_strict`] rejects words where they are not zero.{example}",
        isa.name,
        isa.opcodes.len(),
        isa.optypes.len(),
        isa.width
    ));
    let names: Vec<_> = isa.opcodes.iter().map(|o| ident(&o.name)).collect();
    // Each variant: its instruction and the constants that select it.
    let variant_docs: Vec<TokenStream> = isa
        .opcodes
        .iter()
        .map(|op| {
            let consts = selectors(isa, op, false);
            let by = if consts.is_empty() { String::new() } else { format!(", selected by {}", consts.join(", ")) };
            docs(&format!("An encoding of `{}`{by}: [`{}`].", isa.optypes[op.optype].name, op.name))
        })
        .collect();
    let name_strs: Vec<&str> = isa.opcodes.iter().map(|o| o.name.as_str()).collect();
    let optype_strs: Vec<&str> = isa.opcodes.iter().map(|o| isa.optypes[o.optype].name.as_str()).collect();
    let n = isa.opcodes.len();
    let dispatch = gen_dispatch(isa, plan);
    let indices = (0..n).map(Literal::usize_unsuffixed);
    let counts = isa.opcodes.iter().map(|o| Literal::usize_unsuffixed(o.fields.len()));
    let n_ops = Literal::usize_unsuffixed(n);
    let match_encode = match_self(quote! { #( Instruction::#names(i) => i.encode(), )* }, n);
    let match_to_word = match_self(quote! { #( Instruction::#names(i) => i.to_word(), )* }, n);
    let match_set_word = match_self(quote! { #( Instruction::#names(i) => *i = #names::of(w), )* }, n);
    let match_name = match_self(quote! { #( Instruction::#names(_) => #names::NAME, )* }, n);
    let match_index = match_self(quote! { #( Instruction::#names(_) => #names::INDEX, )* }, n);
    let match_raw_fields = match_self(quote! { #( Instruction::#names(i) => i.raw_fields().to_vec(), )* }, n);
    let n_lit = Literal::usize_unsuffixed(n);
    let match_field_names = match_self(quote! { #( Instruction::#names(_) => &#names::FIELD_NAMES, )* }, n);
    // With one opcode the other arm would be unreachable (a warning in the calling crate).
    let try_from_body = if n == 1 {
        quote! { let Instruction::$name(x) = i; Ok(x) }
    } else {
        quote! { match i { Instruction::$name(x) => Ok(x), found => Err(WrongOpcode { expected: ::core::stringify!($name), found }), } }
    };
    quote! {
        #doc
        // The code is generated for any spec: an item or a match arm that a
        // small ISA leaves unused (one opcode, no uniform registers) is not
        // the user's mistake, so it warns nobody, whatever their lints.
        #![allow(non_camel_case_types, clippy::all, unused, unreachable_patterns)]
        #![forbid(unsafe_code)]

        pub use opcodes::*;
        pub use types::*;

        /// A value that does not fit its type.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct RangeError {
            /// The type (for a part of one, such as a constant-memory bank,
            /// the type and the part).
            pub type_name: &'static str,
            /// The value given.
            pub value: i128,
            /// The least value that fits.
            pub min: i128,
            /// The greatest value that fits.
            pub max: i128,
        }

        impl core::fmt::Display for RangeError {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                ::core::write!(f, "{} does not fit in {} ({}..={})", self.value, self.type_name, self.min, self.max)
            }
        }
        impl std::error::Error for RangeError {}

        /// Why `from_raw_fields` made no instruction of its values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum RawFieldsError {
            /// No opcode has this index (there are `count`).
            NoOpcode {
                /// The index given.
                index: usize,
                /// How many opcodes there are.
                count: usize,
            },
            /// The opcode has `expected` fields (constants included).
            Count {
                /// The opcode (`IADD_RR`).
                opcode: &'static str,
                /// Its number of fields.
                expected: usize,
                /// The number of values given.
                given: usize,
            },
            /// The value has bits beyond the field's width.
            TooWide {
                /// The field.
                field: &'static str,
                /// The value given.
                value: u64,
                /// The field's width in bits.
                width: u32,
            },
            /// The value fits the field but is none of its type's values.
            NotOfType {
                /// The field.
                field: &'static str,
                /// The value given.
                value: u64,
                /// The field's type.
                type_name: &'static str,
            },
            /// The field is a constant of the opcode, and the value differs.
            Constant {
                /// The field.
                field: &'static str,
                /// The value given.
                value: u64,
                /// The opcode's constant.
                constant: u64,
            },
        }

        impl core::fmt::Display for RawFieldsError {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match *self {
                    RawFieldsError::NoOpcode { index, count } => ::core::write!(f, "no opcode has index {index} (there are {count})"),
                    RawFieldsError::Count { opcode, expected, given } => ::core::write!(f, "{opcode} has {expected} fields, {given} values given"),
                    RawFieldsError::TooWide { field, value, width } => ::core::write!(f, "{value:#x} does not fit in field `{field}` ({width} bits)"),
                    RawFieldsError::NotOfType { field, value, type_name } => ::core::write!(f, "{value:#x} is not a value of {type_name} (field `{field}`)"),
                    RawFieldsError::Constant { field, value, constant } => ::core::write!(f, "field `{field}` is the constant {constant:#x} of this opcode, not {value:#x}"),
                }
            }
        }
        impl std::error::Error for RawFieldsError {}

        /// Why an instruction does not encode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum EncodeError {
            /// The instruction violates one of its opcode's `__Exception` rules.
            Exception {
                /// The instruction's opcode.
                opcode: &'static str,
                /// The rule's message, as the spec writes it.
                message: &'static str,
                /// The bits of the fields the rule reads: where the
                /// instruction breaks it.
                bits: u128,
            },
        }

        impl core::fmt::Display for EncodeError {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self { EncodeError::Exception { opcode, message, .. } => ::core::write!(f, "{opcode}: {message}") }
            }
        }
        impl std::error::Error for EncodeError {}

        /// Why a word does not decode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum DecodeError {
            /// No opcode's constant bits match.
            UnknownOpcode {
                /// The word.
                word: u128,
            },
            /// A field holds an encoding its type does not have.
            InvalidValue {
                /// The opcode the word has the constant bits of.
                opcode: &'static str,
                /// The field, by its spec name (`ra.neg`; its accessor is `ra_neg`).
                field: &'static str,
                /// The field's raw bits.
                value: u64,
            },
            /// The word violates one of the opcode's `__Exception` rules.
            Exception {
                /// The opcode the word has the constant bits of.
                opcode: &'static str,
                /// The rule's message, as the spec writes it.
                message: &'static str,
                /// The bits of the fields the rule reads: where the word
                /// breaks it.
                bits: u128,
            },
            /// Strict decoding: bits no field covers are not zero.
            UncoveredBits {
                /// The opcode the word has the constant bits of.
                opcode: &'static str,
                /// The bits set outside every field of the opcode.
                bits: u128,
            },
            /// One opcode's `decode` was given a word with another
            /// opcode's constant bits (`found`, the first in spec order).
            WrongOpcode {
                /// The opcode whose `decode` was called.
                opcode: &'static str,
                /// The opcode the word has the constant bits of.
                found: &'static str,
            },
        }

        impl core::fmt::Display for DecodeError {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self {
                    DecodeError::UnknownOpcode { word } => ::core::write!(f, "{word:#034x}: unknown opcode"),
                    DecodeError::InvalidValue { opcode, field, value } => ::core::write!(f, "{opcode}: field `{field}` holds {value:#x}, which is not a value of its type"),
                    DecodeError::Exception { opcode, message, .. } => ::core::write!(f, "{opcode}: {message}"),
                    DecodeError::UncoveredBits { opcode, bits } => ::core::write!(f, "{opcode}: bits {bits:#x} are not covered by any field"),
                    DecodeError::WrongOpcode { opcode, found } => ::core::write!(f, "{opcode}: the word has the constant bits of {found}"),
                }
            }
        }
        impl std::error::Error for DecodeError {}

        /// Names of all opcodes, in spec order (the index is `Instruction::index`).
        pub const OPCODE_NAMES: [&str; #n] = [ #( #name_strs ),* ];

        /// Each opcode's optype name, in spec order (as [`OPCODE_NAMES`]).
        pub const OPTYPE_NAMES: [&str; #n] = [ #( #optype_strs ),* ];

        /// The first opcode, in spec order, whose constant bits `w` has: what
        /// an opcode's `decode` names when given another's word (an error
        /// path, so a scan).
        #[cold]
        fn constant_bits_owner(w: u128) -> Option<&'static str> {
            const FIXED: [(u128, u128); #n] = [ #( (#names::FIXED_MASK, #names::FIXED_BITS) ),* ];
            FIXED.iter().position(|&(m, b)| w & m == b).map(|k| OPCODE_NAMES[k])
        }

        /// `COVERED` of every opcode, in spec order, as its low and high
        /// halves: a table, so that [`Instruction::covered_mask`] does not
        /// branch on the opcode, of `u64`s, so that masking a word stays in
        /// general registers.
        const COVERED_MASKS: [[u64; 2]; #n] = [ #( [#names::COVERED as u64, (#names::COVERED >> 64) as u64] ),* ];

        /// Any instruction of the ISA.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Instruction { #( #variant_docs #names(#names), )* }

        #( impl From<#names> for Instruction { fn from(i: #names) -> Self { Instruction::#names(i) } } )*

        /// An instruction given to an opcode struct's `try_from` that is
        /// another opcode's: the one expected, and the instruction, given back.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct WrongOpcode {
            /// The opcode asked for (`IADD_RR`).
            pub expected: &'static str,
            /// The instruction, of another opcode.
            pub found: Instruction,
        }

        impl core::fmt::Display for WrongOpcode {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                ::core::write!(f, "expected {}, found {}", self.expected, self.found.name())
            }
        }
        impl std::error::Error for WrongOpcode {}

        /// The opcode struct of an instruction of that opcode; [`WrongOpcode`]
        /// (holding the instruction) otherwise.
        macro_rules! try_from_instruction {
            ($($name:ident),*) => {$(
                impl TryFrom<Instruction> for $name {
                    type Error = WrongOpcode;
                    fn try_from(i: Instruction) -> Result<Self, WrongOpcode> {
                        #try_from_body
                    }
                }
            )*};
        }
        try_from_instruction!(#( #names ),*);

        impl Instruction {
            /// The instruction word (bit i of the spec is bit i of the `u128`),
            /// or the `__Exception` rule of its opcode it violates
            /// ([`EncodeError::Exception`], the same error as
            /// [`Self::encode_checked`]). Every field already holds a value of
            /// its type, so the rules are all there is to check.
            ///
            /// How: one check-table test of the word against its opcode's row
            /// (the rules as bit patterns, the ones [`Decoded::new`] uses),
            /// without branching on the opcode; a rejected word, and opcodes
            /// whose rules do not fit the tables, go to
            /// [`Self::encode_checked`], which names the rule.
            #[inline]
            pub fn encode(&self) -> Result<u128, EncodeError> {
                let w = self.to_word();
                match ROWS.get(self.index()) {
                    Some(r) if !rejected(w, r.reject) => Ok(w),
                    _ => self.encode_checked(),
                }
            }

            /// Encodes through the opcode's own `encode`, which names the
            /// rule an instruction violates.
            #[cold]
            #[inline(never)]
            pub fn encode_checked(&self) -> Result<u128, EncodeError> {
                #match_encode
            }

            /// The instruction word, without checking the `__Exception` rules.
            #[inline]
            pub fn to_word(&self) -> u128 {
                #match_to_word
            }

            /// Replaces the word (one store: every opcode struct is its word).
            #[inline]
            fn set_word(&mut self, w: u128) {
                #match_set_word
            }

            /// The encoded word as 16 little-endian bytes (byte 0 holds bits
            /// 0..=7): [`Instruction::encode`]'s, so it fails where `encode`
            /// does (the spec's `__Exception` rules); `to_word().to_le_bytes()`
            /// does not check them.
            #[inline]
            pub fn to_le_bytes(&self) -> Result<[u8; 16], EncodeError> {
                self.encode().map(u128::to_le_bytes)
            }

            /// Opcode name in the spec.
            #[inline]
            pub fn name(&self) -> &'static str {
                #match_name
            }

            /// Name of the opcode's optype in the spec (`IMAD_WIDE` for
            /// `IMAD_WIDE_RRR`, written `IMAD.WIDE`): what the opcode's forms
            /// are an instruction of.
            #[inline]
            pub fn optype_name(&self) -> &'static str {
                OPTYPE_NAMES[self.index()]
            }

            /// Index of the opcode in spec order.
            #[inline]
            pub fn index(&self) -> usize {
                #match_index
            }

            /// The instruction of opcode `index` (spec order) whose fields
            /// hold `values` (as [`Self::raw_fields`] lists them), or why
            /// there is none: no such opcode, the wrong count of values, or
            /// a value that does not fit its field, is not one of its type
            /// or differs from a constant.
            pub fn from_raw_fields(index: usize, values: &[u64]) -> Result<Instruction, RawFieldsError> {
                match index {
                    #( #indices => match values.try_into() {
                        Ok(v) => #names::from_raw_fields(v).map(Instruction::#names),
                        Err(_) => Err(RawFieldsError::Count { opcode: #names::NAME, expected: #counts, given: values.len() }),
                    }, )*
                    _ => Err(RawFieldsError::NoOpcode { index, count: #n_ops }),
                }
            }

            /// Raw value of every field (constants included), in spec order.
            pub fn raw_fields(&self) -> Vec<u64> {
                #match_raw_fields
            }

            /// Name of every field, in the order of [`Self::raw_fields`]
            /// (the opcode's `FIELD_NAMES`).
            pub fn field_names(&self) -> &'static [&'static str] {
                #match_field_names
            }

            /// Every opcode's `DEFAULT` (the spec's defaults; fields without
            /// one zero, or the first values that keep the `__Exception`
            /// rules when zero does not), in spec order: index it by
            /// [`Self::index`], or find a name in [`OPCODE_NAMES`].
            pub const DEFAULTS: [Instruction; #n_lit] = [ #( Instruction::#names(#names::DEFAULT) ),* ];

            /// Bits some field of this opcode covers.
            #[inline]
            pub fn covered_mask(&self) -> u128 {
                let [lo, hi] = COVERED_MASKS[self.index()];
                (hi as u128) << 64 | lo as u128
            }

            /// Decodes a word strictly: like [`Instruction::decode`], but bits no
            /// field covers must be zero.
            pub fn decode_strict(w: u128) -> Result<Instruction, DecodeError> {
                let i = Self::decode(w)?;
                let stray = w & !i.covered_mask();
                if stray != 0 {
                    return Err(DecodeError::UncoveredBits { opcode: i.name(), bits: stray });
                }
                Ok(i)
            }

            /// Decodes from 16 little-endian bytes.
            #[inline]
            pub fn decode_le_bytes(bytes: [u8; 16]) -> Result<Instruction, DecodeError> {
                Self::decode(u128::from_le_bytes(bytes))
            }
        }

        #dispatch
    }
}

/// The dispatch table, the check tables, [`Decoded`] and `Instruction::decode`.
fn gen_dispatch(isa: &Isa, plan: &DecodePlan) -> TokenStream {
    // Table entries are rows of `ROWS`: opcode `i` is row `i` (so a
    // [`Decoded`] keeps the row as its opcode), candidate list `c` is row
    // `n + c`, and the last row means no opcode.
    let many_base = isa.opcodes.len();
    let none = many_base + plan.candidates.len();
    let table_entries = plan.table.iter().map(|s| match s {
        Slot::Empty => Literal::u16_unsuffixed(none as u16),
        Slot::One(i) => Literal::u16_unsuffixed(*i as u16),
        Slot::Many(c) => Literal::u16_unsuffixed((many_base + c) as u16),
    });
    // Bytes when they suffice: half the cache lines. `ROWS` then
    // has 256 rows, so a row read from the table needs no bounds check.
    let byte_entries = none <= u8::MAX as usize;
    let entry = if byte_entries { quote! { u8 } } else { quote! { u16 } };
    let rows = if byte_entries { 256 } else { none + 1 };
    let size = Literal::usize_unsuffixed(plan.table.len());
    let key_parts = plan.key_runs.iter().map(|r| {
        let m = Literal::u64_unsuffixed(mask64(r.width));
        let sh = Literal::u32_unsuffixed(r.shift);
        if r.start + r.width <= 64 {
            let s = Literal::u32_unsuffixed(r.start);
            quote! { ((((w as u64) >> #s) & #m) << #sh) }
        } else {
            let s = Literal::u32_unsuffixed(r.start);
            quote! { ((((w >> #s) as u64) & #m) << #sh) }
        }
    });
    let arms = isa.opcodes.iter().enumerate().map(|(i, o)| {
        let name = ident(&o.name);
        let k = Literal::u16_unsuffixed(i as u16);
        quote! { #k => #name::decode(w).map(Instruction::#name), }
    });
    let many_arms = plan.candidates.iter().enumerate().map(|(c, list)| {
        let k = Literal::u16_unsuffixed((many_base + c) as u16);
        let tries = list.iter().map(|&i| {
            let name = ident(&isa.opcodes[i].name);
            quote! {
                if w & #name::FIXED_MASK == #name::FIXED_BITS {
                    match #name::decode(w) { Ok(i) => return Ok(Instruction::#name(i)), Err(e) => { if first.is_none() { first = Some(e); } } }
                }
            }
        });
        quote! { #k => { let mut first: Option<DecodeError> = None; #( #tries )* Err(first.unwrap_or(DecodeError::UnknownOpcode { word: w })) } }
    });
    let key_bits = plan.key_bits;
    let key_doc = docs(&format!(
        "Dispatch table: the {key_bits}-bit key (bits every opcode fixes) -> the opcode index, {many_base} + a candidate list, or {none} (no opcode)."
    ));
    let key_expr = if plan.key_runs.is_empty() { quote! { 0u64 } } else { quote! { #( #key_parts )|* } };
    // The dispatch lookup has matched the key bits; the tables check the rest.
    let tables = check_tables(isa, plan.key_mask());
    // An entry has a bit per cube.
    let entry_ty = uint(tables.cubes.len() as u32);
    let window_names: Vec<Ident> = (0..tables.windows.len()).map(|k| format_ident!("CHECK_{}", k)).collect();
    let window_tables = tables.windows.iter().zip(&window_names).map(|(w, name)| {
        let len = Literal::usize_unsuffixed(w.entries.len());
        let entries = w.entries.iter().map(|&e| Literal::u64_unsuffixed(e));
        let doc = docs(&format!(
            "Check table of bits {}..{} of the word: per value of those bits, the cubes of [`rejected`] whose bits there match.",
            w.start,
            w.start + w.width
        ));
        quote! { #doc const #name: [#entry_ty; #len] = [ #( #entries ),* ]; }
    });
    let window_reads = tables.windows.iter().zip(&window_names).map(|(w, name)| {
        let s = Literal::u32_unsuffixed(w.start);
        let m = Literal::u64_unsuffixed(mask64(w.width));
        quote! { #name[((w >> #s) as u64 & #m) as usize] }
    });
    let cube_list = tables
        .cubes
        .iter()
        .enumerate()
        .map(|(k, c)| format!("- {k}: `w & {:#x} == {:#x}`", c.mask, c.value))
        .collect::<Vec<_>>()
        .join("\n");
    let rejected_doc = docs(&format!(
        "Whether `w` is in one of the cubes of `reject` (bit `c` is cube `c`), read from the\ncheck tables without branching: bit `c` of the AND of its windows' entries\nsays whether `w` is in cube `c`. The cubes:\n\n{cube_list}"
    ));
    let reject_all = Literal::u64_unsuffixed(CheckTables::REJECT_ALL);
    let row_rejects: Vec<Literal> =
        tables.rows.iter().map(|r| Literal::u64_unsuffixed(r.unwrap_or(CheckTables::REJECT_ALL))).collect();
    let padding = rows - isa.opcodes.len();
    let own_arms = tables.rows.iter().enumerate().filter(|(_, r)| r.is_none()).map(|(i, _)| {
        let name = ident(&isa.opcodes[i].name);
        let k = Literal::usize_unsuffixed(i);
        quote! { #k => #name::is_valid(w), }
    });
    let names: Vec<_> = isa.opcodes.iter().map(|o| ident(&o.name)).collect();
    // An ISA without opcodes has no instruction to pad with (nor any row to read).
    let template_rows = Literal::usize_unsuffixed(if names.is_empty() { 0 } else { rows });
    let template_padding = std::iter::repeat_n(
        names.first().map(|first| quote! { Instruction::#first(#first::of(0)) }).unwrap_or_default(),
        if names.is_empty() { 0 } else { padding },
    );
    let unreached = match names.first() {
        Some(first) => quote! { Instruction::#first(#first::DEFAULT) },
        None => quote! { unreachable!("an ISA without opcodes decodes no word") },
    };
    quote! {
        #key_doc
        const DISPATCH: [#entry; #size] = [ #( #table_entries ),* ];

        #( #window_tables )*

        #rejected_doc
        #[inline(always)]
        fn rejected(w: u128, reject: #entry_ty) -> bool {
            // No window to read (no rule): `w` is unused, but named.
            let _ = w;
            (#entry_ty::MAX #( & #window_reads )* & reject) != 0
        }

        /// Per [`DISPATCH`] entry: for an opcode (row `i` is opcode `i` in
        /// spec order), its variant holding the opcode's `COVERED` mask as
        /// its word (not an instruction: its fields are all ones), which
        /// [`Decoded::instruction`] copies and ANDs the word into, and the
        /// cubes of [`rejected`] that its rules reject. Rows past the
        /// opcodes (candidate lists, no opcode, padding) and of opcodes
        /// whose rules need their own check reject every word.
        /// This table, [`DISPATCH`] and the check tables are `const`s, not
        /// `static`s: [`Decoded::new`] is inlined into other crates, where a
        /// `static` of this one is reached through the GOT, one more load
        /// per word whenever the caller's loop is short of registers.
        const ROWS: [Row; #template_rows] = [
            #( Row { template: Instruction::#names(#names::of(#names::COVERED)), reject: #row_rejects }, )*
            #( Row { template: #template_padding, reject: #reject_all } ),*
        ];

        /// A row of [`ROWS`], aligned so that its offset is the opcode
        /// shifted (the 17-byte instruction would take a multiply).
        #[repr(C, align(32))]
        struct Row {
            template: Instruction,
            reject: #entry_ty,
        }

        /// A word that decodes, and its opcode; fields are extracted on demand
        /// ([`Decoded::instruction`]). Accepts and rejects exactly the words
        /// [`Instruction::decode`] does, checked with one dispatch lookup and a
        /// few table reads, without branching on the opcode.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Decoded { word: u128, opcode: u16 }

        impl core::fmt::Debug for Decoded {
            /// `Decoded { opcode: "FFMA_RRR", word: 0x… }`.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct("Decoded")
                    .field("opcode", &self.name())
                    .field("word", &::core::format_args!("{:#034x}", self.word))
                    .finish()
            }
        }

        impl Decoded {
            /// Checks `w`: the same result as [`Instruction::decode`], the
            /// same errors.
            #[inline]
            pub fn new(w: u128) -> Result<Decoded, DecodeError> {
                let op = Self::lookup(w);
                match ROWS.get(op) {
                    Some(r) if !rejected(w, r.reject) => Ok(Decoded { word: w, opcode: op as u16 }),
                    _ => Self::other(op, w),
                }
            }

            /// The [`DISPATCH`] entry of `w`'s key bits.
            #[inline(always)]
            fn lookup(w: u128) -> usize {
                let key = (#key_expr) as usize;
                DISPATCH[key & (#size - 1)] as usize
            }

            /// Words the table rejects: those of opcodes with their own
            /// check, then candidate lists and errors.
            #[cold]
            #[inline(never)]
            fn other(op: usize, w: u128) -> Result<Decoded, DecodeError> {
                let own = match op {
                    #( #own_arms )*
                    _ => false,
                };
                if own {
                    return Ok(Decoded { word: w, opcode: op as u16 });
                }
                Self::slow(w)
            }

            /// Candidate lists and errors.
            #[cold]
            #[inline(never)]
            fn slow(w: u128) -> Result<Decoded, DecodeError> {
                Instruction::decode_dispatch(w).map(|i| Decoded { word: w, opcode: i.index() as u16 })
            }

            /// The word as given.
            #[inline]
            pub fn word(self) -> u128 { self.word }

            /// Index of the opcode in spec order (as [`Instruction::index`]).
            #[inline]
            pub fn index(self) -> usize { self.opcode as usize }

            /// Opcode name in the spec.
            #[inline]
            pub fn name(self) -> &'static str { OPCODE_NAMES[self.opcode as usize] }

            /// Name of the opcode's optype in the spec (as [`Instruction::optype_name`]).
            #[inline]
            pub fn optype_name(self) -> &'static str { OPTYPE_NAMES[self.opcode as usize] }

            /// The instruction (bits no field covers are dropped): its
            /// opcode's template with the word stored, without branching on
            /// the opcode.
            #[inline]
            pub fn instruction(self) -> Instruction {
                match ROWS.get(self.opcode as usize) {
                    Some(r) => {
                        let mut i = r.template;
                        i.set_word(i.to_word() & self.word);
                        i
                    }
                    // Not reached: `opcode` is always an index `new` checked.
                    None => #unreached,
                }
            }
        }

        impl Instruction {
            /// Decodes a word: [`Decoded::new`], then
            /// [`Decoded::instruction`]. Never panics.
            #[inline]
            pub fn decode(w: u128) -> Result<Instruction, DecodeError> {
                // `Decoded::new`, with the instruction built on the fast path
                // itself: the word stays in registers.
                let op = Decoded::lookup(w);
                match ROWS.get(op) {
                    Some(r) if !rejected(w, r.reject) => Ok(Decoded { word: w, opcode: op as u16 }.instruction()),
                    _ => Self::decode_other(op, w),
                }
            }

            /// Decodes a buffer of words in order: [`Instruction::decode`] of
            /// each, with the words a few KiB ahead requested from memory as it
            /// goes ([`isa_runtime::read_ahead::ReadAhead`]), which keeps a buffer
            /// larger than the caches decoding near its in-cache speed. Fastest
            /// through `fold`, which takes the words four at a time.
            pub fn decode_words(
                words: &[u128],
            ) -> impl DoubleEndedIterator<Item = Result<Instruction, DecodeError>> + ExactSizeIterator + core::iter::FusedIterator + Clone + '_ {
                ::isa_runtime::read_ahead::ReadAhead::new(words).map(Instruction::decode)
            }

            /// [`Instruction::decode`] of the words its table rejects.
            #[cold]
            #[inline(never)]
            fn decode_other(op: usize, w: u128) -> Result<Instruction, DecodeError> {
                Decoded::other(op, w).map(Decoded::instruction)
            }

            /// Decodes a word by dispatching on its opcode: one table lookup
            /// on the key bits, then the opcode's own checks (the words and
            /// errors of [`Instruction::decode`], which takes this path only
            /// for words its table does not settle).
            pub fn decode_dispatch(w: u128) -> Result<Instruction, DecodeError> {
                let key = (#key_expr) as usize;
                match DISPATCH[key & (#size - 1)] {
                    #( #arms )*
                    #( #many_arms )*
                    _ => Err(DecodeError::UnknownOpcode { word: w }),
                }
            }
        }
    }
}
