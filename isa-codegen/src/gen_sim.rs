//! The generated simulator glue (`generated/src/sim.rs`): the register files
//! as [`isa_runtime::sim::FileSpec`]s, a `Kernels` trait with one method per
//! kernel and per operand modifier the hooks name (its signature derived from
//! the operands and fields, implemented by hand elsewhere), and per opcode an
//! `execute` function that reads operands per `Order`/`Bitwidth`, applies their
//! sub-fields, honours the guard per lane, calls the kernel and writes the
//! results. No instruction's semantics is written here: those functions only move
//! values between the warp and the kernels.

use crate::gen_rust::raw_expr;
use crate::names::{field_ident, ident};
use crate::plan::lower;
use isa_dsl::exec::{is_warp, param_type, value_type};
use isa_dsl::ir::{Exec, ExecArg, ExecOperand, ExecWidth, Isa, Opcode, OperandRef, OperandSource, TypeKind};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use std::collections::BTreeMap;

/// The `sim` module.
pub fn gen_sim(isa: &Isa) -> TokenStream {
    let files: Vec<(&str, TokenStream)> = isa
        .types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Register { prefix, predicate, constants, warp } => {
                let name = t.name.as_str();
                let count = Literal::u32_unsuffixed(1u32 << t.width.min(16));
                let cs = constants.iter().map(|c| {
                    let (n, i) = (c.name.as_str(), Literal::u32_unsuffixed(c.index as u32));
                    quote! { (#n, #i) }
                });
                Some((
                    name,
                    quote! { FileSpec { name: #name, prefix: #prefix, count: #count, predicate: #predicate, warp: #warp, constants: &[ #( #cs ),* ] } },
                ))
            }
            _ => None,
        })
        .collect();
    let nfiles = Literal::usize_unsuffixed(files.len());
    let typed = files.iter().map(|(name, _)| {
        let (t, c) = (ident(name), file_const(name));
        quote! {
            impl isa_runtime::sim::FileRegister for #t {
                const FILE: usize = #c;
                #[inline]
                fn number(self) -> u64 { self.to_raw() }
            }
        }
    });
    let file_items = files.iter().map(|f| &f.1);
    let file_consts = files.iter().enumerate().map(|(i, (name, _))| {
        let c = file_const(name);
        let i = Literal::usize_unsuffixed(i);
        let d = format!(" Index of the `{name}` file in [`FILES`].");
        quote! { #[doc = #d] pub const #c: usize = #i; }
    });
    let ctx = Ctx { isa };

    // Trait methods: kernels and modifiers, first use decides the signature
    // (the front end reports conflicting uses as E051).
    let mut methods: BTreeMap<String, TokenStream> = BTreeMap::new();
    let mut executes = Vec::new();
    let mut arms = Vec::new();
    let (mut uses, mut use_arms, mut most) = (Vec::new(), Vec::new(), 0usize);
    for op in &isa.opcodes {
        let name = ident(&op.name);
        let name_str = op.name.as_str();
        let (body, n) = ctx.registers(op);
        most = most.max(n);
        let doc = format!(
            " The registers `{name_str}` reads and writes: its `InList` and `OutList` (see [`Instruction::registers`])."
        );
        uses.push(quote! {
            impl #name {
                #[doc = #doc]
                pub fn registers(&self) -> Registers<MAX_REGISTERS> { #body }
            }
        });
        use_arms.push(quote! { Instruction::#name(i) => i.registers(), });
        match &op.exec {
            Some(exec) => {
                ctx.methods(op, exec, &mut methods);
                executes.push(ctx.execute(op, exec));
                arms.push(quote! { Instruction::#name(i) => i.execute(w, k), });
            }
            None => arms.push(quote! {
                Instruction::#name(_) => Err(Fault { opcode: #name_str, lane: None, message: "the spec gives this opcode no simulation hook".into() }),
            }),
        }
    }
    let methods = methods.values();
    let match_arms = crate::gen_rust::match_self(quote! { #( #arms )* }, arms.len());
    let use_match = crate::gen_rust::match_self(quote! { #( #use_arms )* }, use_arms.len());
    let most = Literal::usize_unsuffixed(most);
    quote! {
        //! Simulator glue: register files, the `Kernels` trait, and an `execute`
        //! function per opcode that moves operands between the warp and the kernels.
        #![allow(clippy::too_many_arguments, clippy::let_and_return, non_snake_case, unused_variables, unused_mut)]
        use super::*;
        use isa_runtime::sim::lanes;
        /// The runtime's machine types the `execute` functions take and return, here so a
        /// user needs no `isa-runtime` import of their own.
        pub use isa_runtime::sim::{Fault, FileRegister, FileSpec, RegRange, Registers, Warp, LANES};

        /// The register files the spec declares, in spec order.
        pub static FILES: [FileSpec; #nfiles] = [ #( #file_items ),* ];
        #( #file_consts )*
        #( #typed )*

        /// A warp of this ISA with every register zero and every lane active.
        pub fn new_warp() -> Warp { Warp::new(&FILES) }

        /// The most register runs ([`RegRange`]) one opcode's `InList` and
        /// `OutList` name together: the capacity of [`Registers`] here.
        pub const MAX_REGISTERS: usize = #most;

        #( #uses )*

        /// What the simulation hooks call: one method per kernel (named by the
        /// hook) and one per operand modifier (`<domain>_<sub-field>`). Operand
        /// values are raw bits (`u32`, `u64` for 64-bit operands, `bool` for
        /// predicates); fields arrive as their generated types. A kernel marked
        /// "per warp" gets one value per lane and the mask of executing lanes,
        /// and returns `None` to write nothing.
        pub trait Kernels {
            #( #methods )*
        }

        #( #executes )*

        impl Instruction {
            /// The registers the instruction reads and writes, as its opcode's
            /// `InList` and `OutList` name them (see [`RegRange`]), for
            /// dependency analysis and scheduling. Entries that are not
            /// registers (immediates, constant memory) are left out. What a
            /// list leaves out is left out here too: `isa-codegen check`
            /// reports a list that omits an operand the simulation reads or
            /// writes (W035, W017; the seeds' GETGPR and SETGPR omit their
            /// indexed register).
            pub fn registers(&self) -> Registers<MAX_REGISTERS> {
                #use_match
            }

            /// Executes the instruction on `w` (see each opcode's `execute`). A
            /// [`Fault`] (the warp unchanged) for an operand out of range or an
            /// opcode without a simulation hook; the `__Exception` rules are
            /// [`Instruction::encode`]'s, not checked here.
            pub fn execute<K: Kernels + ?Sized>(&self, w: &mut Warp, k: &K) -> Result<(), Fault> {
                #match_arms
            }
        }
    }
}

/// The `FILE_X` constant of register type `X`: its index in `FILES`.
fn file_const(ty: &str) -> proc_macro2::Ident {
    format_ident!("FILE_{}", ty.to_ascii_uppercase())
}

struct Ctx<'a> {
    isa: &'a Isa,
}

impl Ctx<'_> {
    /// The body of an opcode's `registers()`, and how many runs it names.
    /// Entries that name no register operand (immediates, constant memory,
    /// names that are nothing: `check` reports those) are left out.
    fn registers(&self, op: &Opcode) -> (TokenStream, usize) {
        let mut dynamic = false;
        let mut run = |r: &OperandRef| -> Option<TokenStream> {
            let whole = |ty: &str| {
                let t = self.isa.types.iter().find(|t| t.name == ty)?;
                let (file, count) = (self.file(ty), Literal::u32_unsuffixed(1u32 << t.width.min(16)));
                Some(quote! { RegRange::new(#file, 0, #count) })
            };
            if !r.index.is_empty() {
                let t = self.isa.types.iter().find(|t| matches!(&t.kind, TypeKind::Register { prefix, predicate: false, .. } if *prefix == r.name))?;
                return whole(&t.name);
            }
            let Some(f) = op.field(&r.name) else {
                let lit = self.isa.file_literals.iter().find(|l| l.name == r.name)?;
                return whole(&lit.ty_name);
            };
            let ty = &self.isa.types[f.ty];
            let TypeKind::Register { predicate, .. } = &ty.kind else { return None };
            let file = self.file(&ty.name);
            let first = self.raw(op, &r.name);
            let count = match op.operands.bitwidths.iter().find(|b| b.operand == r.name) {
                _ if *predicate => quote!(1),
                None => quote!(1),
                Some(b) => match b.constant {
                    Some(c) => Literal::u32_unsuffixed((c.clamp(1, 1 << 16) as u32).div_ceil(32)).into_token_stream(),
                    None => match lower(self.isa, op, &b.expr) {
                        Some(raw) => {
                            dynamic = true;
                            let e = raw_expr(&raw);
                            quote! { (({ let w = w_word; #e }).clamp(1, 1 << 16) as u32).div_ceil(32) }
                        }
                        None => quote!(1),
                    },
                },
            };
            Some(quote! { RegRange::new(#file, #first as u32, #count) })
        };
        let reads: Vec<TokenStream> = op.operands.inputs.iter().filter_map(&mut run).collect();
        let writes: Vec<TokenStream> = op.operands.outputs.iter().filter_map(&mut run).collect();
        let n = reads.len() + writes.len();
        let word = if dynamic { quote! { let w_word = self.to_word(); } } else { quote!() };
        (quote! { #word Registers::new(&[ #( #reads ),* ], &[ #( #writes ),* ]) }, n)
    }

    /// The `FILE_X` constant of a register type.
    fn file(&self, ty: &str) -> proc_macro2::Ident {
        file_const(ty)
    }

    fn value_ty(w: &ExecWidth) -> TokenStream {
        Self::rust(value_type(w))
    }

    /// The type a kernel takes or returns for this operand.
    fn param_ty(o: &ExecOperand) -> TokenStream {
        Self::rust(param_type(o))
    }

    fn rust(t: &str) -> TokenStream {
        match t {
            "bool" => quote!(bool),
            "u32" => quote!(u32),
            _ => quote!(u64),
        }
    }

    /// Adds the trait methods an opcode's plan calls.
    fn methods(&self, op: &Opcode, exec: &Exec, out: &mut BTreeMap<String, TokenStream>) {
        if let Some(g) = self.isa.guard.as_deref() {
            let domain = self.isa.guard_domain.as_deref().unwrap_or("pred").to_ascii_lowercase();
            let prefix = format!("{g}.");
            for f in op.fields.iter().filter(|f| f.name.starts_with(&prefix)) {
                let method = format!("{domain}_{}", &f.name[prefix.len()..]);
                let (mi, ft) = (ident(&method), ident(&f.ty_name));
                let d = format!(" Guard modifier `{method}` (sub-field of type `{}`).", f.ty_name);
                out.entry(method).or_insert_with(|| quote! { #[doc = #d] fn #mi(&self, v: bool, m: #ft) -> bool; });
            }
        }
        let mut params = Vec::new();
        if exec.warp {
            params.push(quote! { mask: u32 });
        }
        for (i, a) in exec.args.iter().enumerate() {
            let p = format_ident!("a{}", i);
            match a {
                ExecArg::Operand(o) => {
                    let t = Self::param_ty(o);
                    if exec.warp && !is_warp(self.isa, o) {
                        params.push(quote! { #p: &[#t; LANES] });
                    } else {
                        params.push(quote! { #p: #t });
                    }
                    let t = Self::value_ty(&o.width);
                    for m in &o.modifiers {
                        let Some(f) = op.field(&m.field) else { continue };
                        let (mi, ft) = (ident(&m.method), ident(&f.ty_name));
                        let d = format!(" Operand modifier `{}` (sub-field of type `{}`).", m.method, f.ty_name);
                        out.entry(m.method.clone()).or_insert_with(|| quote! { #[doc = #d] fn #mi(&self, v: #t, m: #ft) -> #t; });
                    }
                }
                ExecArg::Field { ty, .. } => {
                    let ft = ident(ty);
                    params.push(quote! { #p: #ft });
                }
            }
        }
        let rs: Vec<TokenStream> = exec.results.iter().map(Self::param_ty).collect();
        let mut ret = match rs.len() {
            0 => quote!(()),
            1 => rs[0].clone(),
            _ => quote! { ( #( #rs ),* ) },
        };
        if exec.warp {
            ret = quote! { Option<#ret> };
        }
        let f = ident(&exec.function);
        let hook = self.isa.optypes[op.optype].effective_hook().map(|h| h.text()).unwrap_or_default();
        let d = format!(
            " Kernel `{}`{}, first called by `{}`: `{hook}`",
            exec.function,
            if exec.warp { " (once per warp)" } else { "" },
            op.name
        );
        out.entry(exec.function.clone()).or_insert_with(|| quote! { #[doc = #d] fn #f(&self, #( #params ),*) -> #ret; });
        if !exec.warp {
            self.lanes_method(exec, out);
        }
    }

    /// `<kernel>_lanes`: the kernel over a warp's lanes at once, operands as
    /// one value per lane; by default a loop over the lanes of `mask`, which
    /// an implementation may replace with a faster whole-warp version.
    fn lanes_method(&self, exec: &Exec, out: &mut BTreeMap<String, TokenStream>) {
        let name = format!("{}_lanes", exec.function);
        let mut params = vec![quote! { mask: u32 }];
        let mut call = Vec::new();
        for (i, a) in exec.args.iter().enumerate() {
            let p = format_ident!("a{}", i);
            match a {
                ExecArg::Operand(o) => {
                    let t = Self::param_ty(o);
                    params.push(quote! { #p: &[#t; LANES] });
                    call.push(quote! { #p[lane] });
                }
                ExecArg::Field { ty, .. } => {
                    let ft = ident(ty);
                    params.push(quote! { #p: #ft });
                    call.push(quote! { #p });
                }
            }
        }
        let rs: Vec<TokenStream> = exec.results.iter().map(Self::param_ty).collect();
        let outs: Vec<proc_macro2::Ident> = (0..rs.len()).map(|i| format_ident!("r{}", i)).collect();
        let fname = ident(&exec.function);
        let (ret, init, assign, result) = match rs.len() {
            0 => (quote!(()), quote!(), quote! { self.#fname(#( #call ),*); }, quote!(())),
            1 => {
                let (t, o) = (&rs[0], &outs[0]);
                let f = ident(&exec.function);
                (quote! { [#t; LANES] }, quote! { let mut #o = [<#t>::default(); LANES]; }, quote! { #o[lane] = self.#f(#( #call ),*); }, quote!(#o))
            }
            _ => {
                let ret = quote! { ( #( [#rs; LANES] ),* ) };
                let init = quote! { #( let mut #outs = [<#rs>::default(); LANES]; )* };
                let f = ident(&exec.function);
                let assign = if rs.len() == 1 {
                    let o = &outs[0];
                    quote! { #o[lane] = self.#f(#( #call ),*); }
                } else {
                    let tmp: Vec<proc_macro2::Ident> = (0..rs.len()).map(|i| format_ident!("t{}", i)).collect();
                    quote! { let ( #( #tmp ),* ) = self.#f(#( #call ),*); #( #outs[lane] = #tmp; )* }
                };
                (ret, init, assign, quote! { ( #( #outs ),* ) })
            }
        };
        let mi = ident(&name);
        let d = format!(" `{}` over the lanes of `mask` (the others' results are unspecified).", exec.function);
        out.entry(name).or_insert_with(|| {
            quote! {
                #[doc = #d]
                #[inline]
                fn #mi(&self, #( #params ),*) -> #ret {
                    #init
                    for lane in lanes(mask) { #assign }
                    #result
                }
            }
        });
    }

    /// Whether an opcode runs through `<kernel>_lanes`: every operand is a
    /// register, immediate or constant of fixed width, no result is per warp.
    fn batchable(&self, exec: &Exec) -> bool {
        !exec.warp
            && exec
                .operands()
                .all(|o| {
                    !matches!(o.source, OperandSource::Indexed { .. } | OperandSource::File { .. })
                        && !matches!(o.width, ExecWidth::Dynamic(_))
                })
            && !exec.results.iter().any(|r| is_warp(self.isa, r))
    }

    /// `[T; LANES]` of an operand, modifiers applied (batched `execute` functions).
    fn gather(&self, op: &Opcode, o: &ExecOperand, var: &proc_macro2::Ident) -> TokenStream {
        let lane_file = match &o.source {
            OperandSource::Register { ty, .. } => !is_warp(self.isa, o) && self.isa.types.iter().any(|t| &t.name == ty),
            _ => false,
        };
        let read = if lane_file {
            let OperandSource::Register { field, ty } = &o.source else { unreachable!() };
            let (file, f) = (self.file(ty), self.raw(op, field));
            match &o.width {
                ExecWidth::Bool => quote! { w.lanes(#file, #f).map(|v| v != 0) },
                ExecWidth::Fixed(32) => quote! { w.lanes(#file, #f) },
                _ => quote! { w.lanes64(#file, #f) },
            }
        } else {
            let one = self.read(op, o);
            quote! { { let lane = 0usize; [#one; LANES] } }
        };
        let mods = o.modifiers.iter().map(|m| {
            let (mi, f) = (ident(&m.method), field_ident(&m.field));
            quote! { for v in #var.iter_mut() { *v = k.#mi(*v, self.#f()); } }
        });
        let widen = match &o.source {
            _ if !o.widened => quote!(),
            OperandSource::Immediate { signed: true, .. } => quote! { let #var = #var.map(|v| v as i32 as i64 as u64); },
            _ => quote! { let #var = #var.map(|v| v as u64); },
        };
        quote! { let mut #var = #read; #( #mods )* #widen }
    }

    /// Writes `[T; LANES]` results in the lanes of `mask` (batched `execute` functions).
    fn scatter(&self, op: &Opcode, o: &ExecOperand, var: &proc_macro2::Ident) -> TokenStream {
        let OperandSource::Register { field, ty } = &o.source else { return quote!() };
        let (file, f) = (self.file(ty), self.raw(op, field));
        let v = if o.widened { quote! { &#var.map(|v| v as u32) } } else { quote! { &#var } };
        match &o.width {
            ExecWidth::Bool => quote! { w.set_lanes(#file, #f, mask, &#var.map(|b| b as u32)); },
            ExecWidth::Fixed(32) => quote! { w.set_lanes(#file, #f, mask, #v); },
            _ => quote! { w.set_lanes64(#file, #f, mask, #v); },
        }
    }

    /// A field's raw bits as `u64`: `self.f.to_raw()`, or the constant of a `==` field.
    fn raw(&self, op: &Opcode, field: &str) -> TokenStream {
        match op.field(field) {
            Some(f) if f.is_constant() => {
                let c = Literal::u64_suffixed(f.default_value().unwrap_or(0));
                quote!(#c)
            }
            _ => {
                let id = field_ident(field);
                quote! { self.#id().to_raw() }
            }
        }
    }

    /// Bank and byte offset of a constant-memory field.
    fn cmem(&self, op: &Opcode, field: &str) -> (TokenStream, TokenStream) {
        let f = op.field(field);
        match (f, f.map(|f| &self.isa.types[f.ty].kind)) {
            (Some(f), Some(TypeKind::ConstMem { bank, offset })) if f.is_constant() => {
                let c = f.default_value().unwrap_or(0);
                let part = |r: &isa_dsl::ir::BitRange| Literal::u64_suffixed((c >> r.start) & crate::plan::mask64(r.width));
                let (b, o) = (part(bank), part(offset));
                (quote!(#b), quote!(#o))
            }
            _ => {
                let id = field_ident(field);
                (quote! { self.#id().bank() }, quote! { self.#id().offset() })
            }
        }
    }

    /// How many bytes of a bank the constant operand in `field` can name:
    /// 2 to the width of its type's offset.
    fn cmem_bytes(&self, op: &Opcode, field: &str) -> u64 {
        match op.field(field).map(|f| &self.isa.types[f.ty].kind) {
            Some(TypeKind::ConstMem { offset, .. }) => 1u64.checked_shl(offset.width).unwrap_or(u64::MAX),
            _ => u64::MAX,
        }
    }

    /// `let v = self.field;`, or the default other forms give a field this one lacks.
    fn field_arg(&self, field: &str, ty: &str, fixed: Option<u64>, v: &proc_macro2::Ident) -> TokenStream {
        match fixed {
            None => {
                let fi = field_ident(field);
                quote! { let #v = self.#fi(); }
            }
            Some(d) => {
                let t = ident(ty);
                match self.isa.types.iter().find(|x| x.name == ty).and_then(|x| x.enum_name(d)) {
                    Some(name) => {
                        let n = ident(name);
                        quote! { let #v = #t::#n; }
                    }
                    None => {
                        let d = Literal::u64_unsuffixed(d);
                        quote! { let #v = #t(#d); }
                    }
                }
            }
        }
    }

    /// Expression that is true when a dynamic-width operand is 64 bits wide.
    fn is_wide(&self, op: &Opcode, w: &ExecWidth) -> TokenStream {
        match w {
            ExecWidth::Dynamic(e) => match lower(self.isa, op, e) {
                Some(raw) => {
                    let r = raw_expr(&raw);
                    quote! { ({ let w = w_word; #r } == 64) }
                }
                None => quote!(false),
            },
            ExecWidth::Fixed(64) => quote!(true),
            _ => quote!(false),
        }
    }

    /// Register index expression of an indexed operand, checked (`?`).
    fn index(&self, op: &Opcode, o: &ExecOperand) -> TokenStream {
        let OperandSource::Indexed { ty, base, base_ty, offset } = &o.source else { return quote!(0u64) };
        let (file, bfile) = (self.file(ty), self.file(base_ty));
        let b = self.raw(op, base);
        // The index is the 32-bit sum, as the base register holds it:
        // UR2 = 0xffffffff and an offset of 2 name R1 (docs/semantics.md).
        let base_v = quote! { (w.get(#bfile, #b, lane) as u32) };
        let off = match offset.as_ref().and_then(|f| op.field(f)) {
            Some(f) => {
                let raw = self.raw(op, &f.name);
                let width = Literal::u32_unsuffixed(f.width);
                quote! { (::isa_runtime::sim::sign_extend(#raw, #width) as u32) }
            }
            None => quote!(0u32),
        };
        let name = op.name.as_str();
        quote! {
            w.checked_index(#file, #base_v.wrapping_add(#off) as i64).map_err(|message| Fault { opcode: #name, lane: Some(lane as u32), message })?
        }
    }

    /// Expression reading an operand in `lane`, before modifiers.
    fn read(&self, op: &Opcode, o: &ExecOperand) -> TokenStream {
        let wide = self.is_wide(op, &o.width);
        match &o.source {
            OperandSource::Register { field, ty } => {
                let (file, f) = (self.file(ty), self.raw(op, field));
                match &o.width {
                    ExecWidth::Bool => quote! { w.get(#file, #f, lane) != 0 },
                    ExecWidth::Fixed(32) => quote! { w.get(#file, #f, lane) },
                    ExecWidth::Fixed(_) => quote! { w.get64(#file, #f, lane) },
                    ExecWidth::Dynamic(_) => quote! {
                        if #wide { w.get64(#file, #f, lane) } else { w.get(#file, #f, lane) as u64 }
                    },
                }
            }
            OperandSource::Indexed { ty, .. } => {
                let file = self.file(ty);
                let idx = self.index(op, o);
                quote! { w.get(#file, #idx, lane) }
            }
            OperandSource::Immediate { field, signed } => {
                let f = self.raw(op, field);
                let width = Literal::u32_unsuffixed(op.field(field).map_or(32, |f| f.width));
                let v = if *signed { quote! { (::isa_runtime::sim::sign_extend(#f, #width) as u64) } } else { quote! { #f } };
                match &o.width {
                    ExecWidth::Fixed(32) => quote! { #v as u32 },
                    ExecWidth::Bool => quote! { #v != 0 },
                    _ => quote! { #v },
                }
            }
            OperandSource::ConstMem { field } => {
                let (bank, offset) = self.cmem(op, field);
                // A misaligned constant faults (the instruction, not a lane: the address is the word's).
                let name = op.name.as_str();
                let lo = quote! { w.cmem.load(#name, #bank, #offset)? };
                // A 64-bit one faults too when its high word is past the offsets the operand names.
                let limit = Literal::u64_suffixed(self.cmem_bytes(op, field));
                let wide_load = quote! { w.cmem.load64(#name, #bank, #offset, #limit)? };
                match &o.width {
                    ExecWidth::Fixed(32) => lo,
                    ExecWidth::Bool => quote! { #lo != 0 },
                    ExecWidth::Fixed(_) => wide_load,
                    ExecWidth::Dynamic(_) => quote! { if #wide { #wide_load } else { #lo as u64 } },
                }
            }
            OperandSource::File { ty } => {
                let file = self.file(ty);
                quote! { w.mask(#file, lane) }
            }
        }
    }

    /// Statements reading an operand into `var`, modifiers applied.
    fn load(&self, op: &Opcode, o: &ExecOperand, var: &proc_macro2::Ident) -> TokenStream {
        let read = self.read(op, o);
        let mods = o.modifiers.iter().map(|m| {
            let (mi, f) = (ident(&m.method), field_ident(&m.field));
            quote! { let #var = k.#mi(#var, self.#f()); }
        });
        let widen = match &o.source {
            _ if !o.widened => quote!(),
            OperandSource::Immediate { signed: true, .. } => quote! { let #var = #var as i32 as i64 as u64; },
            _ => quote! { let #var = #var as u64; },
        };
        quote! { let #var = #read; #( #mods )* #widen }
    }

    /// Statement writing `value` to an operand in `lane`.
    fn store(&self, op: &Opcode, o: &ExecOperand, value: TokenStream) -> TokenStream {
        let wide = self.is_wide(op, &o.width);
        let value = if o.widened { quote! { (#value as u32) } } else { value };
        match &o.source {
            OperandSource::Register { field, ty } => {
                let (file, f) = (self.file(ty), self.raw(op, field));
                match &o.width {
                    ExecWidth::Bool => quote! { w.set(#file, #f, lane, #value as u32); },
                    ExecWidth::Fixed(32) => quote! { w.set(#file, #f, lane, #value); },
                    ExecWidth::Fixed(_) => quote! { w.set64(#file, #f, lane, #value); },
                    ExecWidth::Dynamic(_) => quote! {
                        { let v = #value; if #wide { w.set64(#file, #f, lane, v) } else { w.set(#file, #f, lane, v as u32) } }
                    },
                }
            }
            OperandSource::Indexed { ty, .. } => {
                let file = self.file(ty);
                let idx = self.index(op, o);
                quote! { { let idx = #idx; w.set(#file, idx, lane, #value); } }
            }
            OperandSource::File { ty } => {
                let file = self.file(ty);
                quote! { w.set_mask(#file, lane, #value); }
            }
            OperandSource::Immediate { .. } | OperandSource::ConstMem { .. } => quote! {},
        }
    }

    /// Statements computing `mask`: active lanes whose guard holds.
    fn guard(&self, op: &Opcode) -> TokenStream {
        let Some(g) = self.isa.guard.as_deref().and_then(|g| op.field(g)) else {
            return quote! { let mask = w.active; };
        };
        let file = self.file(&g.ty_name);
        let gf = self.raw(op, &g.name);
        let prefix = format!("{}.", g.name);
        let domain = self.isa.guard_domain.as_deref().unwrap_or("pred").to_ascii_lowercase();
        let warp_file = self.isa.types.iter().any(|t| *t.name == *g.ty_name && matches!(t.kind, TypeKind::Register { warp: true, .. }));
        let raw = if warp_file {
            quote! { if w.warp(#file, #gf) != 0 { u32::MAX } else { 0 } }
        } else {
            quote! { w.lane_mask(#file, #gf) }
        };
        // The modifiers map a predicate to one of four functions of it: found
        // by applying them to true and to false, then used on all lanes at once.
        let mods: Vec<TokenStream> = op
            .fields
            .iter()
            .filter(|f| f.name.starts_with(&prefix))
            .map(|f| {
                let sub = &f.name[prefix.len()..];
                let (mi, fi) = (format_ident!("{}_{}", domain, sub), field_ident(&f.name));
                quote! { let g = k.#mi(g, self.#fi()); }
            })
            .collect();
        let on = |v: TokenStream| quote! { { let g = #v; #( #mods )* if g { u32::MAX } else { 0 } } };
        let (t, f) = (on(quote!(true)), on(quote!(false)));
        quote! {
            let raw = #raw;
            let mask = ((raw & #t) | (!raw & #f)) & w.active;
        }    }

    /// The `execute` method of one opcode.
    fn execute(&self, op: &Opcode, exec: &Exec) -> TokenStream {
        let name = ident(&op.name);
        let guard = self.guard(op);
        let f = ident(&exec.function);
        let vars: Vec<proc_macro2::Ident> = (0..exec.args.len()).map(|i| format_ident!("a{}", i)).collect();
        let outs: Vec<proc_macro2::Ident> = (0..exec.results.len()).map(|i| format_ident!("r{}", i)).collect();
        let pattern = match outs.len() {
            0 => quote!(()),
            1 => {
                let o = &outs[0];
                quote!(#o)
            }
            _ => quote! { ( #( #outs ),* ) },
        };
        let stores: Vec<TokenStream> =
            exec.results.iter().zip(&outs).map(|(r, o)| self.store(op, r, quote!(#o))).collect();
        let doc = format!(
            " Executes on every active lane whose guard holds: `{} = {}(...)`{}. A `Fault` (the warp unchanged) when an indexed register or a constant-memory operand is out of range; the `__Exception` rules are `encode`'s, not checked here.",
            exec.results.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", "),
            exec.function,
            if exec.warp { ", once per warp" } else { "" }
        );
        let body = if self.batchable(exec) {
            let gathers = exec.args.iter().zip(&vars).map(|(a, v)| match a {
                ExecArg::Operand(o) => self.gather(op, o, v),
                ExecArg::Field { field, ty, fixed } => self.field_arg(field, ty, *fixed, v),
            });
            let refs = exec.args.iter().zip(&vars).map(|(a, v)| match a {
                ExecArg::Operand(_) => quote!(&#v),
                _ => quote!(#v),
            });
            let fl = format_ident!("{}_lanes", exec.function);
            let scatters = exec.results.iter().zip(&outs).map(|(r, o)| self.scatter(op, r, o));
            let call = quote! { k.#fl(mask, #( #refs ),*) };
            let bind = match outs.len() {
                0 => quote! { #call; },
                1 => {
                    let o = &outs[0];
                    quote! { let #o = #call; }
                }
                _ => quote! { let ( #( #outs ),* ) = #call; },
            };
            quote! {
                if mask == 0 { return Ok(()); }
                #( #gathers )*
                #bind
                #( #scatters )*
            }
        } else if exec.warp {
            let loads = exec.args.iter().zip(&vars).map(|(a, v)| match a {
                ExecArg::Operand(o) if !is_warp(self.isa, o) => {
                    let t = Self::param_ty(o);
                    let load = self.load(op, o, v);
                    quote! {
                        let #v = {
                            let mut all = [<#t>::default(); LANES];
                            for lane in lanes(mask) { #load all[lane] = #v; }
                            all
                        };
                    }
                }
                ExecArg::Operand(o) => {
                    let load = self.load(op, o, v);
                    quote! { let #v = { let lane = 0usize; #load #v }; }
                }
                ExecArg::Field { field, ty, fixed } => self.field_arg(field, ty, *fixed, v),
            });
            let refs = exec.args.iter().zip(&vars).map(|(a, v)| match a {
                ExecArg::Operand(o) if !is_warp(self.isa, o) => quote!(&#v),
                _ => quote!(#v),
            });
            quote! {
                #( #loads )*
                if let Some(#pattern) = k.#f(mask, #( #refs ),*) {
                    let lane = 0usize;
                    #( #stores )*
                }
            }
        } else {
            let loads = exec.args.iter().zip(&vars).map(|(a, v)| match a {
                ExecArg::Operand(o) => self.load(op, o, v),
                ExecArg::Field { field, ty, fixed } => self.field_arg(field, ty, *fixed, v),
            });
            // An indexed operand faults before any lane has executed.
            let prechecks = exec
                .operands()
                .filter(|o| matches!(o.source, OperandSource::Indexed { .. }))
                .map(|o| {
                    let idx = self.index(op, o);
                    quote! { for lane in lanes(mask) { let _ = #idx; } }
                });
            quote! {
                #( #prechecks )*
                for lane in lanes(mask) {
                    #( #loads )*
                    let #pattern = k.#f(#( #vars ),*);
                    #( #stores )*
                }
            }
        };
        let dynamic = exec.operands().any(|o| matches!(o.width, ExecWidth::Dynamic(_)));
        let word = if dynamic { quote! { let w_word = self.to_word(); } } else { quote!() };
        quote! {
            impl #name {
                #[doc = #doc]
                #[inline]
                pub fn execute<K: Kernels + ?Sized>(&self, w: &mut Warp, k: &K) -> Result<(), Fault> {
                    #word
                    #guard
                    #body
                    Ok(())
                }
            }
        }
    }
}
