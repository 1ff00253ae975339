//! Lowers the syntax of an ISA to what the generated `text` module carries:
//! the static text model the assembler interprets
//! (`isa_runtime::text::model`), and one printer function per opcode, that
//! opcode's printing rules as straight-line Rust; then emits the module
//! (`FromStr`/`Display` for `Instruction`).
//!
//! Lowering resolves at generation time everything the interpreted
//! assembler (`super::Assembler`) looks up by name at run time: fields become
//! bit ranges, `Bitwidth<>` and hook conditions become expressions over the
//! word, suffix spellings become tables (computed with the interpreted
//! assembler's own mapping functions, one entry per possible value). Each
//! lowering step returns the model's entry and its printing code side by
//! side, from the same values. Printing rules: the first form whose fields
//! it cannot set are at their defaults and whose every part can express the
//! word prints it; defaults are omitted; an optional operand prints when a
//! field of it is off its default, and so do the optional operands right
//! before it (or positions would be ambiguous); controls print when not at
//! their defaults; a word no form expresses prints as `.word 0x...`. The
//! placement and printing algorithms are written twice, here and in the
//! interpreted path, and the tests run both on the same inputs
//! (differential testing).

use super::{describe, hooks, Assembler};
use crate::gen_rust::u128_lit;
use crate::plan::{lower as lower_expr, RawExpr};
use isa_dsl::bind::settable_fields;
use isa_dsl::expr::BinOp;
use isa_dsl::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The most the unchecked stores in printing code `tokens` can advance a
/// line, all together: every call of a `Line` method in
/// `isa_runtime::text::disasm::UNCHECKED_METHODS` (`out.piece(..)`), of a
/// function in its `UNCHECKED_FNS` (`disasm::int(..)`), and of a register
/// printer (`register_k(..)`, one piece), each counted at its entry, except
/// a piece whose longest text is known: a fixed one (`piece("IADD3")`), or
/// one from a table `longest` knows (`PIECES_k`, and `register_k` for the
/// tables of register names). Every call is counted, on every path, so the
/// sum bounds any one path: printers have no loops, and call helpers as
/// methods (`out.f(..)`) or by path (`disasm::f(..)`), the shapes counted
/// here. A count short of a path makes the line panic at its first store
/// past its room (`disasm::Line::at`), which the tests' million random
/// words would show.
fn unchecked_spare(tokens: &TokenStream, longest: &dyn Fn(&str) -> Option<usize>) -> usize {
    use isa_runtime::text::disasm::{UNCHECKED_FNS, UNCHECKED_METHODS};
    use proc_macro2::{Delimiter, TokenTree};
    let find = |list: &[(&str, usize)], name: &str| list.iter().find(|(n, _)| *n == name).map_or(0, |&(_, a)| a);
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut sum = 0;
    for (k, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Group(g) => sum += unchecked_spare(&g.stream(), longest),
            TokenTree::Ident(name) => {
                let args = match trees.get(k + 1) {
                    Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
                    _ => continue,
                };
                let name = name.to_string();
                sum += match k.checked_sub(1).map(|j| &trees[j]) {
                    Some(TokenTree::Punct(p)) if p.as_char() == '.' && name == "piece" => {
                        piece_longest(&args, longest).unwrap_or_else(|| find(UNCHECKED_METHODS, "piece"))
                    }
                    Some(TokenTree::Punct(p)) if p.as_char() == '.' => find(UNCHECKED_METHODS, &name),
                    // `piece` after `::` is the const constructor, which prints nothing.
                    Some(TokenTree::Punct(p)) if p.as_char() == ':' => find(UNCHECKED_FNS, &name),
                    _ if name.starts_with("register_") && !name.ends_with("_slow") => {
                        longest(&name).unwrap_or_else(|| find(UNCHECKED_METHODS, "piece"))
                    }
                    _ => 0,
                };
            }
            _ => {}
        }
    }
    sum
}

/// The longest text the argument of `out.piece(..)` can be, when it is
/// exactly one of two shapes: an entry of a table `longest` knows
/// (`&PIECES_3[..]`, whatever the index), or a fixed piece (`&const {
/// ..::piece("IADD3") }`). Anything else (a variable, a choice between
/// pieces) is `None`, and counts as the longest piece there is.
fn piece_longest(args: &TokenStream, longest: &dyn Fn(&str) -> Option<usize>) -> Option<usize> {
    use proc_macro2::{Delimiter, TokenTree};
    let trees: Vec<TokenTree> = args.clone().into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Punct(amp), TokenTree::Ident(table), TokenTree::Group(index)] if amp.as_char() == '&' && index.delimiter() == Delimiter::Bracket => {
            longest(&table.to_string())
        }
        [TokenTree::Punct(amp), TokenTree::Ident(kw), TokenTree::Group(body)] if amp.as_char() == '&' && kw == "const" && body.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = body.stream().into_iter().collect();
            let [.., TokenTree::Punct(colon), TokenTree::Ident(f), TokenTree::Group(call)] = inner.as_slice() else { return None };
            let text: Vec<TokenTree> = call.stream().into_iter().collect();
            match text.as_slice() {
                [TokenTree::Literal(l)] if colon.as_char() == ':' && f == "piece" && call.delimiter() == Delimiter::Parenthesis => {
                    syn::parse_str::<syn::LitStr>(&l.to_string()).ok().map(|t| t.value().len())
                }
                _ => None,
            }
        }
        _ => None,
    }
}

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

/// The runtime's printing helpers.
fn dis() -> TokenStream {
    quote! { ::isa_runtime::text::disasm }
}

/// Appends a fixed text (a `()` expression): as a piece built at compile
/// time when it fits one (a single 16-byte store), else as a `&str`.
fn fixed_text(t: &str) -> TokenStream {
    if t.len() <= 15 && t.is_ascii() {
        let dis = dis();
        quote! { { out.piece(&const { #dis::piece(#t) }); } }
    } else {
        quote! { out.push_str(#t) }
    }
}

/// A field's value in the printed word `w`, as a `u64` expression.
fn bits_get(start: u32, width: u32) -> TokenStream {
    let s = Literal::u32_unsuffixed(start);
    let m = Literal::u64_suffixed(crate::plan::mask64(width));
    quote! { (w >> #s) as u64 & #m }
}

fn field_get(f: &Field) -> TokenStream {
    bits_get(f.start, f.width)
}

/// `field != value` (the field is off `value`); always true without a value.
fn differs(value: TokenStream, default: Option<u64>) -> TokenStream {
    match default {
        Some(d) => {
            let d = Literal::u64_unsuffixed(d);
            quote! { #value != #d }
        }
        None => quote! { true },
    }
}

/// Match arms `value => body`, the first entry of each value only (what a
/// search in order finds; no arm is unreachable), none for `skip`.
fn first_arms<T>(entries: impl IntoIterator<Item = (u64, T)>, skip: Option<u64>, body: impl Fn(T) -> TokenStream) -> Vec<TokenStream> {
    let mut seen: Vec<u64> = skip.into_iter().collect();
    let mut arms = Vec::new();
    for (v, t) in entries {
        if !seen.contains(&v) {
            seen.push(v);
            let (v, b) = (Literal::u64_unsuffixed(v), body(t));
            arms.push(quote! { #v => #b, });
        }
    }
    arms
}

/// Print code of one part of a form: `None` when the part can never print
/// (then neither can its form, as in the runtime's interpreter).
type Print = Option<TokenStream>;

/// A decoration's part in printing its operand.
enum DecoPrint {
    /// Bound to nothing: prints nothing.
    Skip,
    /// The operand never prints.
    Never,
    /// A prefix byte when the condition holds (`-`: `~` under a `CvtINegX` hook).
    Prefix { neg: bool, byte: u8, on: TokenStream },
    /// `|x|` when the condition holds.
    Abs(TokenStream),
    /// Statements that set `suffix`, a `&str` (or fail); and the same over
    /// pieces, when every spelling fits one.
    Suffix(TokenStream, Option<TokenStream>),
}

struct Lower<'a> {
    isa: &'a Isa,
    asm: Assembler<'a>,
    /// Type id -> register class index.
    class_of: Vec<Option<u16>>,
    /// Per register class: its prefix and named registers.
    classes: Vec<(String, Vec<(String, u64)>)>,
    /// Piece tables the printers index (`PIECES_k` is entry k), each once.
    tables: std::cell::RefCell<Vec<Vec<Option<String>>>>,
    /// The largest `spare` of the printers so far (`disasm::print`).
    max_spare: std::cell::Cell<usize>,
    /// Register classes the printers print (a bit per class): only
    /// theirs get a printer and tables (an unused one would be dead code in
    /// the calling crate, a warning there, or an error under `forbid`).
    used_classes: std::cell::RefCell<std::collections::BTreeSet<usize>>,
}

/// Field values with a table of pieces up to this width (4 KiB per table).
const TABLE_WIDTH: u32 = 8;

/// The longest text a piece holds (`isa_runtime::text::disasm::Piece`;
/// ASCII only).
const PIECE_MAX: usize = 15;

/// The generated `text` module.
pub fn gen_text(isa: &Isa) -> TokenStream {
    let opcode_names: Vec<proc_macro2::Ident> = isa.opcodes.iter().map(|o| crate::names::ident(&o.name)).collect();
    let mut class_of = vec![None; isa.types.len()];
    let mut classes = Vec::new();
    let mut class_data = Vec::new();
    for (i, t) in isa.types.iter().enumerate() {
        if let TypeKind::Register { prefix, constants, predicate, .. } = &t.kind {
            class_of[i] = Some(classes.len() as u16);
            class_data.push((prefix.clone(), constants.iter().map(|c| (c.name.clone(), c.index)).collect()));
            let names = constants.iter().map(|c| c.name.as_str());
            let idx = constants.iter().map(|c| Literal::u64_unsuffixed(c.index));
            let rt = rt();
            classes.push((prefix.clone(), quote! { #rt::RegClass { prefix: #prefix, constants: &[ #( (#names, #idx) ),* ], predicate: #predicate } }));
        }
    }
    let lw = Lower { isa, asm: Assembler::new(isa), class_of, classes: class_data, tables: Default::default(), max_spare: Default::default(), used_classes: Default::default() };
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
        quote! { #rt::Mnemonic { name: #name, key: #rt::key(#name), forms: &[ #( #pairs ),* ] } }
    });
    let (opcode_items, printers): (Vec<TokenStream>, Vec<TokenStream>) = isa.opcodes.iter().enumerate().map(|(oc, op)| lw.opcode(oc, op)).unzip();
    let printer_names = (0..isa.opcodes.len()).map(|oc| format_ident!("print_{}", oc));
    let n_opcodes = Literal::usize_unsuffixed(isa.opcodes.len());
    // A line's `String` holds its spare and one 16-byte store past it.
    let line_capacity = Literal::usize_unsuffixed(lw.max_spare.get() + 16);
    let dis = dis();
    let used = lw.used_classes.borrow().clone();
    let class_printers = lw.classes.iter().enumerate().filter(|(k, _)| used.contains(k)).map(|(k, (prefix, constants))| {
        let printer = format_ident!("register_{}", k);
        let slow = format_ident!("register_{}_slow", k);
        let (table, pairs) = (format_ident!("REGISTERS_{}", k), format_ident!("REGISTER_PAIRS_{}", k));
        let named = first_arms(constants.iter().map(|(n, i)| (*i, n)), None, |n| fixed_text(n));
        let named_items = constants.iter().map(|(n, i)| {
            let i = Literal::u64_unsuffixed(*i);
            quote! { (#n, #i) }
        });
        let named_items = quote! { &[ #( #named_items ),* ] };
        let open = format!("{prefix}[");
        let doc = format!("Prints a `{prefix}` register: its name when it has one, else `{prefix}n`, or the pair `{prefix}[n:n+1]` when `pair`.");
        let table_doc = format!("The names of `{prefix}` registers 0..=255.");
        let pairs_doc = format!("The names of `{prefix}` register pairs 0..=255.");
        quote! {
            #[doc = #table_doc]
            static #table: [#dis::Piece; 256] = #dis::register_pieces(#prefix, #named_items, false);
            #[doc = #pairs_doc]
            static #pairs: [#dis::Piece; 256] = #dis::register_pieces(#prefix, #named_items, true);
            #[doc = #doc]
            #[inline(always)]
            fn #printer(out: &mut #dis::Line, r: u64, pair: bool) {
                let names = ::core::hint::select_unpredictable(pair, &#pairs, &#table);
                if r > 255 || !out.piece(&names[r as usize & 255]) {
                    out.detached(|out| #slow(out, r, pair));
                }
            }
            /// Past the tables: a register numbered above 255, or a name longer than a piece.
            #[cold]
            #[inline(never)]
            fn #slow(out: &mut #dis::Line, r: u64, pair: bool) {
                match r {
                    #( #named )*
                    _ if pair => {
                        out.push_str(#open);
                        #dis::dec(out, r);
                        out.push_byte(b':');
                        #dis::dec(out, r + 1);
                        out.push_byte(b']');
                    }
                    _ => {
                        out.push_str(#prefix);
                        #dis::dec(out, r);
                    }
                }
            }
        }
    });
    let class_printers: Vec<TokenStream> = class_printers.collect();
    let piece_tables = lw.tables.borrow().iter().enumerate().map(|(k, entries)| {
        let name = format_ident!("PIECES_{}", k);
        let n = Literal::usize_unsuffixed(entries.len());
        let items = entries.iter().map(|e| match e {
            Some(t) => quote! { Some(#t) },
            None => quote! { None },
        });
        quote! { static #name: [#dis::Piece; #n] = #dis::pieces([ #( #items ),* ]); }
    }).collect::<Vec<_>>();
    let controls = isa.control_fields.iter().map(String::as_str);
    let without_syntax = isa.optypes.iter().filter(|o| o.syntax.is_empty()).map(|o| &*o.name);
    let spelled = super::spelled_otherwise(isa).into_iter().map(|(name, written)| quote! { (#name, #written) });
    let guard = match &isa.guard {
        Some(g) => quote! { Some(#g) },
        None => quote! { None },
    };
    quote! {
        //! Assembly text: the ISA's syntax as a static model, and
        //! `FromStr`/`Display` for [`Instruction`]. Assembly interprets the
        //! model (`isa_runtime::text::asm`); printing has one printer per
        //! opcode, that opcode's printing rules as straight-line code over the
        //! runtime's helpers (`isa_runtime::text::disasm`). `isa-codegen`
        //! lowered both from the spec's `__Syntax` templates.

        use super::{DecodeError, Decoded, Instruction};
        use ::isa_runtime::text::literal::Sink as _;

        /// The syntax model of this ISA.
        pub static MODEL: #rt::Model = #rt::Model {
            mnemonics: &[ #( #mn_items ),* ],
            opcodes: &[ #( #opcode_items ),* ],
            registers: &[ #( #class_items ),* ],
            prefixes: &[ #( #prefix_items ),* ],
            controls: &[ #( #controls ),* ],
            guard: #guard,
            without_syntax: &[ #( #without_syntax ),* ],
            spelled: &[ #( #spelled ),* ],
            decode: decode_index,
            check: check_word,
            fast: ::std::sync::OnceLock::new(),
        };

        /// The capacity a `String` for one line starts with: every printer's
        /// line fits it without growing.
        const LINE_CAPACITY: usize = #line_capacity;

        /// Per opcode, its printer.
        static PRINT: [fn(u128, &mut String); #n_opcodes] = [ #( #printer_names ),* ];

        #( #printers )*

        #( #class_printers )*

        #( #piece_tables )*

        fn decode_index(w: u128) -> Result<usize, String> {
            Decoded::new(w).map(|d| d.index()).map_err(|e| e.to_string())
        }

        /// An assembled word must decode as the opcode it was assembled for
        /// (this applies the spec's `__Exception` rules).
        fn check_word(opcode: usize, w: u128) -> Result<(), #rt::Refusal> {
            // `Decoded` checks what `Instruction::decode` does, without building the instruction.
            match Decoded::new(w) {
                Ok(d) if d.index() == opcode => Ok(()),
                Ok(d) => Err(#rt::Refusal { message: ::std::format!("the word decodes as {}", d.name()), bits: 0 }),
                Err(e) => {
                    let bits = if let DecodeError::Exception { bits, .. } = e { bits } else { 0 };
                    Err(#rt::Refusal { message: e.to_string(), bits })
                }
            }
        }

        /// Why a line does not assemble.
        pub use ::isa_runtime::text::AsmError;
        /// A bad line of a whole text, placed in it ([`assemble`]).
        pub use ::isa_runtime::text::TextError;

        impl Instruction {
            /// Assembles one line: `Ok(None)` for blank, comment-only and
            /// label-only lines. A `.word` that does not decode is refused
            /// ([`assemble`] keeps it as data); one that sets bits no field
            /// of its opcode covers gives that opcode's instruction without
            /// them, as [`Instruction::decode`] does (`isa run` warns W019;
            /// [`Instruction::decode_strict`] refuses the word, and
            /// [`assemble`] keeps it whole).
            pub fn parse_line(line: &str) -> Result<Option<Instruction>, AsmError> {
                match ::isa_runtime::text::assemble_line(&MODEL, line)? {
                    None => Ok(None),
                    Some(a) => {
                        // A `.word` that does not decode is data, no instruction.
                        a.opcode?;
                        Instruction::decode(a.word).map(Some).map_err(|e| AsmError { col: 0, message: e.to_string() })
                    }
                }
            }

            /// Appends the canonical text of the instruction to `out`: its
            /// first syntax form that can express it, else `.word 0x...` (see
            /// [`disassemble_into`]).
            // Inline, so that a caller in another crate passes the opcode
            // and the word in registers: through memory, the packed
            // instruction is read back wider than it was written, which
            // stalls the load.
            #[inline]
            pub fn write_text(&self, out: &mut String) {
                PRINT[self.index()](self.to_word(), out)
            }
        }

        impl core::str::FromStr for Instruction {
            type Err = AsmError;
            /// Assembles one instruction. A line without one (blank, a
            /// comment or a label only) is an error at its first non-blank
            /// byte, or at its end when it is blank.
            fn from_str(s: &str) -> Result<Self, AsmError> {
                Instruction::parse_line(s)?.ok_or_else(|| {
                    let col = s.len() - s.trim_start().len();
                    let message = if col == s.len() { "no instruction: the line is blank" } else { "no instruction on the line, only a label or a comment" };
                    AsmError { col, message: message.into() }
                })
            }
        }

        impl core::fmt::Display for Instruction {
            /// The canonical assembly text, as [`Instruction::write_text`]
            /// writes it (`.word 0x...` when no syntax form can express the
            /// instruction); width and alignment apply: `{:<60}`.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let mut s = String::with_capacity(LINE_CAPACITY);
                self.write_text(&mut s);
                f.pad(&s)
            }
        }

        /// Each opcode struct prints as its [`Instruction`] does. (Parsing goes
        /// the other way through [`Instruction`] only: parse one, then
        /// `IADD_RR::try_from` it, or match on it.)
        macro_rules! display_as_instruction {
            ($($name:ident),*) => {$(
                impl core::fmt::Display for super::$name {
                    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        core::fmt::Display::fmt(&Instruction::from(*self), f)
                    }
                }
            )*};
        }
        display_as_instruction!(#( #opcode_names ),*);

        /// Assembles a whole text: the words of the lines that assemble, and
        /// every bad line's error (its line, column and message; it prints
        /// as `line:col: message`).
        pub fn assemble(text: &str) -> (Vec<u128>, Vec<TextError>) {
            let (ok, errors) = ::isa_runtime::text::assemble_text(&MODEL, text);
            (ok.into_iter().map(|a| a.word).collect(), errors)
        }

        /// Decodes a word and prints it (see [`disassemble_into`]).
        pub fn disassemble(word: u128) -> Result<String, DecodeError> {
            let mut s = String::with_capacity(LINE_CAPACITY);
            disassemble_into(word, &mut s)?;
            Ok(s)
        }

        /// Decodes a word and appends its text to `out`: the same text as
        /// `Instruction::decode(word)?.to_string()`, without building the
        /// typed instruction (the opcode is all the printer needs), except
        /// that a `.word` line shows `word` as given, stray bits included.
        /// A word that decodes with stray bits (bits no field of its opcode
        /// covers) prints as its instruction, so the text assembles to the
        /// word without them; `isa disasm` warns about such words (W019).
        pub fn disassemble_into(word: u128, out: &mut String) -> Result<(), DecodeError> {
            let d = Decoded::new(word)?;
            PRINT[d.index()](d.word(), out);
            Ok(())
        }
    }
}

/// A registered table of pieces (`PIECES_k`); it interpolates as its name.
struct PieceTable {
    ident: proc_macro2::Ident,
    /// Every entry has a text (no value makes the form fail).
    total: bool,
}

impl quote::ToTokens for PieceTable {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.ident.to_tokens(tokens);
    }
}

impl Lower<'_> {
    /// `PIECES_k[v]` for a field of `width` bits whose value `v` prints as the
    /// first text `entries` give it (`None` there, and values it omits: the
    /// form cannot print): the table, registered once. `None` when the field
    /// is too wide for a table or a text too long for a piece (or not ASCII).
    fn piece_table(&self, width: u32, entries: impl IntoIterator<Item = (u64, Option<String>)>) -> Option<PieceTable> {
        if width > TABLE_WIDTH {
            return None;
        }
        let mut table: Vec<Option<Option<String>>> = vec![None; 1 << width];
        for (v, text) in entries {
            if let Some(slot @ None) = table.get_mut(v as usize) {
                *slot = Some(text);
            }
        }
        let table: Vec<Option<String>> = table.into_iter().map(Option::flatten).collect();
        if table.iter().flatten().any(|t| t.len() > PIECE_MAX || !t.is_ascii()) {
            return None;
        }
        let total = table.iter().all(Option::is_some);
        let mut tables = self.tables.borrow_mut();
        let k = match tables.iter().position(|t| *t == table) {
            Some(k) => k,
            None => {
                tables.push(table);
                tables.len() - 1
            }
        };
        Some(PieceTable { ident: format_ident!("PIECES_{}", k), total })
    }

    /// The longest text of piece table `name` (`PIECES_k`), or of the
    /// register names printer `name` (`register_k`) prints from its tables
    /// (a name too long for a piece is printed with checks).
    fn longest_piece(&self, name: &str) -> Option<usize> {
        if let Some(k) = name.strip_prefix("register_") {
            let (prefix, constants) = self.classes.get(k.parse::<usize>().ok()?)?;
            // `R[254:255]`, `R255`, and the named ones.
            let numbered = prefix.len() + "[254:255]".len();
            return Some(constants.iter().map(|(n, _)| n.len()).fold(numbered, usize::max).min(15));
        }
        let k: usize = name.strip_prefix("PIECES_")?.parse().ok()?;
        let tables = self.tables.borrow();
        Some(tables.get(k)?.iter().flatten().map(String::len).max().unwrap_or(0))
    }

    /// Prints entry `index` of piece table `table`; the form fails at an
    /// entry that has no text, unless the table has none such.
    fn print_piece(&self, table: &PieceTable, index: TokenStream) -> TokenStream {
        if table.total {
            quote! { out.piece(&#table[#index]); }
        } else {
            quote! { if !out.piece(&#table[#index]) { return None; } }
        }
    }

    fn class(&self, f: &Field) -> u16 {
        self.class_of[f.ty].unwrap_or(u16::MAX)
    }

    /// Flag encodings of a field: (on, off).
    fn flag(&self, f: &Field) -> (u64, u64) {
        (self.asm.flag(f, true), self.asm.flag(f, false))
    }

    /// A register of class `class` whose number is `v`, printed (a pair
    /// `R[4:5]` when `pair` holds): a call of the class's printer.
    fn register(&self, class: u16, v: TokenStream, pair: Option<RawExpr>) -> TokenStream {
        let dis = dis();
        if self.classes.get(class as usize).is_none() {
            return quote! { #dis::raw_register(out, #v) };
        }
        self.used_classes.borrow_mut().insert(class as usize);
        let printer = format_ident!("register_{}", class);
        let pair = match pair {
            None => quote! { false },
            // A condition over no field is decided here.
            Some(e) if !e.reads_fields() => {
                let p = e.eval(0) == 64;
                quote! { #p }
            }
            Some(e) => {
                let e = crate::gen_rust::raw_expr(&e);
                quote! { #e == 64 }
            }
        };
        quote! { #printer(out, #v, #pair) }
    }

    /// The model's entry for an opcode, and its printer.
    fn opcode(&self, oc: usize, op: &Opcode) -> (TokenStream, TokenStream) {
        let rt = rt();
        let dis = dis();
        let name = op.name.as_str();
        let base = u128_lit(op.fields.iter().fold(0u128, |w, f| w | (f.default_value().unwrap_or(0) as u128 & crate::plan::mask64(f.width) as u128) << f.start));
        let covered = u128_lit(op.covered_mask());
        let (guard, print_guard) = match self.isa.guard.as_deref().and_then(|g| Some((g, op.field(g)?))) {
            Some((g, gf)) => {
                let reg = field_ref(gf);
                let class = Literal::u16_unsuffixed(self.class(gf));
                let (not, not_on) = match op.field(&format!("{g}.not")) {
                    Some(nf) => {
                        let b = bits(nf);
                        let (on, off) = self.flag(nf);
                        let get = field_get(nf);
                        let not_on = differs(get, Some(off));
                        let (on, off) = (Literal::u64_unsuffixed(on), Literal::u64_unsuffixed(off));
                        (quote! { Some(#rt::Flag { bits: #b, on: #on, off: #off }) }, Some(not_on))
                    }
                    None => (quote! { None }, None),
                };
                let get = field_get(gf);
                // Every guard's text (`@!P2 `; none for the default, not
                // negated) as a table of pieces over the register and `.not`.
                let negations = if not_on.is_some() { 2 } else { 1 };
                let texts = (0..negations).flat_map(|n| (0..1u64 << gf.width.min(63)).map(move |v| (n, v))).map(|(n, v)| {
                    let text = if Some(v) == gf.default_value() && n == 0 {
                        String::new()
                    } else {
                        format!("@{}{} ", if n == 1 { "!" } else { "" }, self.asm.register_text(gf, v))
                    };
                    (n << gf.width | v, Some(text))
                });
                let not_on = not_on.unwrap_or_else(|| quote! { false });
                let print = match self.piece_table(gf.width + negations as u32 - 1, texts) {
                    Some(table) => {
                        let width = Literal::u32_unsuffixed(gf.width);
                        quote! { out.piece(&#table[(#get) as usize | ((#not_on) as usize) << #width]); }
                    }
                    None => {
                        let shown = differs(quote! { v }, gf.default_value());
                        let print_reg = self.register(self.class(gf), quote! { v }, None);
                        quote! {
                            let v = #get;
                            let not_on = #not_on;
                            let mark = out.mark();
                            out.push_byte(b'@');
                            out.byte_if(b'!', not_on);
                            #print_reg;
                            out.push_byte(b' ');
                            out.keep_if((#shown) | not_on, mark);
                        }
                    }
                };
                (quote! { Some(#rt::Guard { reg: #reg, class: #class, not: #not }) }, print)
            }
            None => (quote! { None }, quote! {}),
        };
        let mut controls = Vec::new();
        let mut print_controls = Vec::new();
        for (index, c) in self.isa.control_fields.iter().enumerate() {
            let Some(f) = op.field(c) else { continue };
            let fr = field_ref(f);
            let index = Literal::u16_unsuffixed(index as u16);
            controls.push(quote! { #rt::Control { name: #c, index: #index, field: #fr } });
            let (get, shown) = (field_get(f), differs(quote! { v }, f.default_value()));
            let text = format!(" &{c}=0x");
            // A narrow field's every text, the default's empty, is a table of pieces.
            let texts = (0..1u64 << f.width.min(63)).map(|v| (v, Some(if Some(v) == f.default_value() { String::new() } else { format!("{text}{v:x}") })));
            print_controls.push(match self.piece_table(f.width, texts) {
                Some(table) => quote! { out.piece(&#table[(#get) as usize]); },
                None => quote! {
                    let v = #get;
                    out.control(#text, v, #shown);
                },
            });
        }
        let (forms, form_prints): (Vec<TokenStream>, Vec<Print>) = op.forms.iter().map(|b| self.form(oc, op, b)).unzip();
        // Forms that can print, in order: the first that prints wins.
        let form_fns: Vec<(proc_macro2::Ident, TokenStream)> =
            form_prints.into_iter().enumerate().filter_map(|(k, p)| Some((format_ident!("form_{}", k), p?))).collect();
        let tries = form_fns.iter().map(|(f, _)| quote! { { out.reset(mark); #f(w, out).is_some() } });
        let bodies = form_fns.iter().map(|(f, body)| {
            quote! {
                #[inline(always)]
                fn #f(w: u128, out: &mut #dis::Line) -> Option<()> {
                    #body
                    Some(())
                }
            }
        });
        let printed = if form_fns.is_empty() {
            quote! { false }
        } else {
            quote! { #( #tries )||* }
        };
        let printer = format_ident!("print_{}", oc);
        let doc = format!("Prints {name}: its first syntax form that can express the word, else `.word`.");
        let mark = if form_fns.is_empty() { quote! {} } else { quote! { let mark = out.mark(); } };
        let line = quote! {
            // Stray bits outside every field do not print (as after
            // decoding), except in `.word`, which keeps every bit.
            let w = word & #covered;
            #print_guard
            #mark
            if #printed {
                #( #print_controls )*
            } else {
                out.reset(0);
                #dis::word(word, out);
            }
        };
        // Each form is tried from the same mark, so one form's stores are
        // on the line at a time: the guard's, the controls' and `.word`'s
        // (counted together, more than any path takes) and the widest form's.
        let longest = |name: &str| self.longest_piece(name);
        let widest_form = form_fns.iter().map(|(_, body)| unchecked_spare(body, &longest)).max().unwrap_or(0);
        let spare = unchecked_spare(&line, &longest) + widest_form;
        self.max_spare.set(self.max_spare.get().max(spare));
        let spare = Literal::usize_unsuffixed(spare);
        let printer = quote! {
            #[doc = #doc]
            fn #printer(word: u128, out: &mut String) {
                // The line is a local whose address no call takes, so its
                // fields live in registers.
                #dis::print(out, #spare, |out| {
                    #line
                });
                #( #bodies )*
            }
        };
        let model = quote! {
            #rt::Opcode { name: #name, base: #base, guard: #guard, controls: &[ #( #controls ),* ], forms: &[ #( #forms ),* ] }
        };
        (model, printer)
    }

    fn form(&self, oc: usize, op: &Opcode, b: &FormBinding) -> (TokenStream, Print) {
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
        let unsettable = match isa_dsl::bind::unset_free_field(isa, op, b) {
            Some(f) => {
                let n = &*f.name;
                quote! { Some(#n) }
            }
            None => quote! { None },
        };
        let mnemonic = form.mnemonic.as_str();
        let spellings = self.asm.modifier_spellings(ot, b);
        let (modifiers, print_modifiers): (Vec<TokenStream>, Vec<Print>) =
            b.modifiers.iter().enumerate().map(|(s, m)| self.modifier(op, ot, form.modifiers.get(s), m)).unzip();
        let operands: Vec<OperandOut> = form.operands.iter().zip(&b.operands).map(|(sop, ob)| self.operand(oc, op, ot, sop, ob)).collect();
        let model_operands = operands.iter().map(|o| &o.model);
        let model = quote! {
            #rt::Form {
                mnemonic: #mnemonic,
                unsettable: #unsettable,
                modifiers: &[ #( #modifiers ),* ],
                operands: &[ #( #model_operands ),* ],
                spellings: #spellings,
            }
        };
        (model, self.print_form(mnemonic, prints, print_modifiers, &operands))
    }

    /// A form's printing code: `None` when it can never print.
    fn print_form(&self, mnemonic: &str, prints: Option<(u128, u128)>, modifiers: Vec<Print>, operands: &[OperandOut]) -> Print {
        // Every field the form cannot set must be at its default.
        let (mask, value) = prints?;
        let check = (mask != 0).then(|| {
            let (m, v) = (u128_lit(mask), u128_lit(value));
            quote! { if w & #m != #v { return None; } }
        });
        let modifiers: Vec<TokenStream> = modifiers.into_iter().collect::<Option<_>>()?;
        let mut code = vec![{ let m = fixed_text(mnemonic); quote! { #check #m; #( #modifiers )* } }];
        if operands.len() > 64 {
            return None;
        }
        // Which operands print: mandatory ones, and optional ones off their
        // defaults together with the optional ones right before them.
        let want: Vec<proc_macro2::Ident> = (0..operands.len()).map(|k| format_ident!("want_{}", k)).collect();
        for (k, o) in operands.iter().enumerate() {
            if o.optional {
                let w_k = &want[k];
                let off = match o.at_default {
                    Some((0, _)) => quote! { false },
                    Some((m, v)) => {
                        let (m, v) = (u128_lit(m), u128_lit(v));
                        quote! { w & #m != #v }
                    }
                    None => quote! { true },
                };
                code.push(quote! { let #w_k = #off; });
            }
        }
        for k in (0..operands.len().saturating_sub(1)).rev() {
            if operands[k].optional && operands[k + 1].optional {
                let (a, b) = (&want[k], &want[k + 1]);
                code.push(quote! { let #a = #a | #b; });
            }
        }
        for (k, o) in operands.iter().enumerate() {
            let body = o.print.as_ref()?;
            // The separator: a space before the first operand printed.
            let sep = if operands[..k].iter().any(|p| !p.optional) {
                fixed_text(", ")
            } else if k == 0 {
                fixed_text(" ")
            } else {
                let before = &want[..k];
                quote! { out.separator(#( #before )|*); }
            };
            code.push(if o.optional {
                // Printed either way (an operand not shown must still be
                // printable), then dropped unless wanted.
                let w_k = &want[k];
                quote! {
                    let mark = out.mark();
                    #sep
                    #body
                    out.keep_if(#w_k, mark);
                }
            } else {
                quote! { #sep #body }
            });
        }
        Some(quote! { #( #code )* })
    }

    fn modifier(&self, op: &Opcode, ot: usize, sm: Option<&SyntaxModifier>, m: &ModifierBinding) -> (TokenStream, Print) {
        let rt = rt();
        let name = sm.map_or("", |s| s.name.as_str());
        let optional = sm.is_some_and(|s| s.optional);
        let (kind, print) = match m {
            ModifierBinding::Mnemonic { text } => {
                let dotted = format!(".{text}");
                (quote! { #rt::ModifierKind::Mnemonic(#text) }, Some(fixed_text(&dotted)))
            }
            ModifierBinding::Value { field, spelling, value, optional } => match op.field(field) {
                Some(f) => {
                    let fr = field_ref(f);
                    let v = Literal::u64_unsuffixed(*value);
                    let (get, dotted) = (field_get(f), format!(".{spelling}"));
                    let print = match (*optional, f.default_value()) {
                        (false, _) => { let t = fixed_text(&dotted); quote! { if #get != #v { return None; } #t; } }
                        (true, None) => { let t = fixed_text(&dotted); quote! { if #get == #v { #t; } else { return None; } } }
                        // At its default the modifier is omitted; any other value but its own fails.
                        (true, Some(d)) if d == *value => quote! { if #get != #v { return None; } },
                        (true, Some(d)) => match self.piece_table(f.width, [(*value, Some(dotted.clone())), (d, Some(String::new()))]) {
                            Some(t) => self.print_piece(&t, quote! { (#get) as usize }),
                            None => {
                                let d = Literal::u64_unsuffixed(d);
                                let dotted_text = fixed_text(&dotted);
                                quote! {
                                    match #get {
                                        #v => { #dotted_text; }
                                        #d => {}
                                        _ => return None,
                                    }
                                }
                            }
                        },
                    };
                    (quote! { #rt::ModifierKind::Value { field: #fr, spelling: #spelling, value: #v, optional: #optional } }, Some(print))
                }
                None => (quote! { #rt::ModifierKind::Broken }, None),
            },
            ModifierBinding::Choice { field, optional, values } => match op.field(field) {
                Some(f) => {
                    let fr = field_ref(f);
                    let vals = values.iter().map(|c| {
                        let (s, v) = (c.spelling.as_str(), Literal::u64_unsuffixed(c.value));
                        quote! { (#s, #v) }
                    });
                    // At its default an optional modifier is omitted; else the
                    // first spelling of the value prints.
                    let default = f.default_value().filter(|_| *optional);
                    let omit = default.map(|d| {
                        let d = Literal::u64_unsuffixed(d);
                        quote! { #d => {} }
                    });
                    let arms = first_arms(values.iter().map(|c| (c.value, format!(".{}", c.spelling))), default, |dotted| fixed_text(&dotted));
                    let get = field_get(f);
                    let entries = default.map(|d| (d, Some(String::new()))).into_iter().chain(values.iter().map(|c| (c.value, Some(format!(".{}", c.spelling)))));
                    let print = match self.piece_table(f.width, entries) {
                        Some(t) => self.print_piece(&t, quote! { (#get) as usize }),
                        None => quote! {
                            match #get {
                                #omit
                                #( #arms )*
                                _ => return None,
                            }
                        },
                    };
                    (quote! { #rt::ModifierKind::Choice { field: #fr, values: &[ #( #vals ),* ], optional: #optional } }, Some(print))
                }
                None => (quote! { #rt::ModifierKind::Broken }, None),
            },
            ModifierBinding::Unbound { text } => {
                let accepts: Vec<&str> = self.asm.value_list(ot, text).map(|l| l.items.iter().map(|i| i.spelling.as_str()).collect()).unwrap_or_default();
                let default = match self.asm.unbound_default(ot, text) {
                    Some(d) => quote! { Some(#d) },
                    None => quote! { None },
                };
                (quote! { #rt::ModifierKind::Unbound { text: #text, accepts: &[ #( #accepts ),* ], default: #default } }, Some(quote! {}))
            }
        };
        (quote! { #rt::Modifier { name: #name, optional: #optional, kind: #kind } }, print)
    }

    fn operand(&self, oc: usize, op: &Opcode, ot: usize, sop: &SyntaxOperand, ob: &OperandBinding) -> OperandOut {
        let rt = rt();
        let dis = dis();
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
        let field = ob.field.as_deref().and_then(|n| op.field(n));
        // The printing code of the operand's value (`None`: never prints);
        // decorated unless literal or indexed.
        let (kind, core, decorated) = match &sop.shape {
            OperandShape::Literal => (quote! { #rt::OperandKind::Literal }, Some(fixed_text(name)), false),
            OperandShape::Indexed { base, .. } => {
                let index_field = ob.index_fields.first().and_then(|n| op.field(n));
                let index = match index_field {
                    Some(f) => {
                        let (b, c) = (bits(f), Literal::u16_unsuffixed(self.class(f)));
                        quote! { Some((#b, #c)) }
                    }
                    None => quote! { None },
                };
                let offset_field = ob.index_fields.get(1).and_then(|n| op.field(n));
                let offset = match offset_field {
                    Some(f) => {
                        let b = bits(f);
                        let signed = matches!(isa.types[f.ty].kind, TypeKind::Int { signed: true });
                        let n = &*f.name;
                        quote! { Some((#b, #signed, #n)) }
                    }
                    None => quote! { None },
                };
                let print = index_field.map(|f| {
                    let reg = self.register(self.class(f), field_get(f), None);
                    let off = offset_field.map(|o| {
                        let (get, width) = (field_get(o), Literal::u8_unsuffixed(o.width as u8));
                        let signed = matches!(isa.types[o.ty].kind, TypeKind::Int { signed: true });
                        quote! { #dis::offset(out, #dis::sign_extend(#get, #width, #signed)); }
                    });
                    let open = format!("{base}[");
                    { let open = fixed_text(&open); quote! { #open; #reg; #off out.push_byte(b']'); } }
                });
                (quote! { #rt::OperandKind::Indexed { base: #base, index: #index, offset: #offset } }, print, false)
            }
            OperandShape::Named => match (&ob.field, field) {
                (None, _) => (quote! { #rt::OperandKind::Unbound }, None, false),
                (Some(n), None) => (quote! { #rt::OperandKind::Broken(#n) }, None, false),
                (Some(_), Some(f)) => {
                    let (k, p) = self.value_kind(op, f);
                    (k, p, true)
                }
            },
        };
        let (decorations, deco_prints): (Vec<TokenStream>, Vec<DecoPrint>) =
            sop.prefixes.iter().chain(&sop.suffixes).zip(&ob.decorations).map(|(d, df)| self.decoration(oc, op, ot, d, df.as_deref())).unzip();
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
        let print = if decorated { core.and_then(|c| decorate(c, deco_prints, neg_is_inv.as_ref())) } else { core };
        let neg_is_inv = opt_expr(neg_is_inv);
        let (describe, type_name, fname) = match field {
            Some(f) => (describe(&isa.types[f.ty]), isa.types[f.ty].name.as_str(), &*f.name),
            None => (String::new(), "", ob.field.as_deref().unwrap_or("")),
        };
        let model = quote! {
            #rt::Operand {
                name: #name,
                optional: #optional,
                kind: #kind,
                decorations: &[ #( #decorations ),* ],
                prefixes: #prefixes,
                field: #fname,
                neg_is_inv: #neg_is_inv,
                describe: #describe,
                type_name: #type_name,
            }
        };
        OperandOut { model, print, optional, at_default }
    }

    /// The model's kind of a field-bound operand, and the code printing its value.
    fn value_kind(&self, op: &Opcode, f: &Field) -> (TokenStream, Print) {
        let rt = rt();
        let dis = dis();
        let isa = self.isa;
        let b = bits(f);
        let get = field_get(f);
        let width = Literal::u8_unsuffixed(f.width as u8);
        match &isa.types[f.ty].kind {
            TypeKind::Register { .. } => {
                let class = self.class(f);
                let pair = op.operands.bitwidths.iter().find(|w| w.operand == *f.name).and_then(|w| lower_expr(isa, op, &w.expr));
                let print = self.classes.get(class as usize).map(|_| {
                    let reg = self.register(class, get.clone(), pair.clone());
                    quote! { #reg; }
                });
                let (class, pair) = (Literal::u16_unsuffixed(class), opt_expr(pair));
                (quote! { #rt::OperandKind::Register { bits: #b, class: #class, pair: #pair } }, print)
            }
            TypeKind::Int { signed } => (
                quote! { #rt::OperandKind::Int { bits: #b, signed: #signed } },
                Some(quote! { #dis::int(out, #dis::sign_extend(#get, #width, #signed)); }),
            ),
            TypeKind::Float { exponent, mantissa, lanes } => {
                let format = |e: u32, m: u32| {
                    let (e, m) = (Literal::u32_unsuffixed(e), Literal::u32_unsuffixed(m));
                    quote! { ::isa_runtime::text::literal::FloatFormat { exponent: #e, mantissa: #m } }
                };
                let fixed = format(*exponent, *mantissa);
                let l = Literal::u32_unsuffixed(*lanes);
                // `CvtFImm`: the format is chosen by another field's value.
                let select: Option<(&Field, Vec<(u64, hooks::FloatFormat)>)> = self.asm.hook(op, Some(&f.name), "CvtFImm").and_then(|h| op.field(h.args.get(1)?)).map(|af| {
                    let entries = match &isa.types[af.ty].kind {
                        TypeKind::Enum { values } => values.iter().filter_map(|v| Some((v.encoding, hooks::value_float(isa, af, v.encoding)?))).collect(),
                        _ => Vec::new(),
                    };
                    (af, entries)
                });
                let (model_select, print_format) = match &select {
                    Some((af, entries)) => {
                        let by = bits(af);
                        let items = entries.iter().map(|(enc, ff)| {
                            let (enc, ff) = (Literal::u64_unsuffixed(*enc), format(ff.exponent, ff.mantissa));
                            quote! { (#enc, #ff) }
                        });
                        let arms = first_arms(entries.iter().map(|(enc, ff)| (*enc, ff)), None, |ff| format(ff.exponent, ff.mantissa));
                        let by_get = field_get(af);
                        (quote! { Some((#by, &[ #( #items ),* ])) }, quote! { match #by_get { #( #arms )* _ => #fixed } })
                    }
                    None => (quote! { None }, fixed.clone()),
                };
                (
                    quote! { #rt::OperandKind::Float { bits: #b, format: #fixed, lanes: #l, select: #model_select } },
                    Some(quote! { #dis::floats(out, #get, #width, #print_format, #l); }),
                )
            }
            TypeKind::ConstMem { bank, offset } => {
                let (bb, obits) = (sub_bits(bank), sub_bits(offset));
                let (bank_get, offset_get) = (bits_get(bank.start, bank.width), bits_get(offset.start, offset.width));
                (
                    quote! { #rt::OperandKind::ConstMem { bits: #b, bank: #bb, offset: #obits } },
                    Some(quote! {
                        let cm = (#get) as u128;
                        #dis::const_mem(out, { let w = cm; #bank_get }, { let w = cm; #offset_get });
                    }),
                )
            }
            TypeKind::Enum { .. } => (quote! { #rt::OperandKind::Enum }, None),
        }
    }

    fn decoration(&self, oc: usize, op: &Opcode, ot: usize, d: &isa_dsl::ir::Decoration, df: Option<&str>) -> (TokenStream, DecoPrint) {
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
        let (target, mut print) = match (df, f) {
            (None, _) => (quote! { #rt::Target::None }, DecoPrint::Skip),
            (Some(_), None) => (quote! { #rt::Target::Missing }, DecoPrint::Never),
            (Some(_), Some(f)) => {
                let fr = field_ref(f);
                let (on, off) = self.flag(f);
                let set = differs(field_get(f), Some(off));
                let print = match d.kind {
                    DecorationKind::Neg => DecoPrint::Prefix { neg: true, byte: b'-', on: set },
                    DecorationKind::Not => DecoPrint::Prefix { neg: false, byte: b'!', on: set },
                    DecorationKind::Invert => DecoPrint::Prefix { neg: false, byte: b'~', on: set },
                    DecorationKind::Abs => DecoPrint::Abs(set),
                    DecorationKind::Suffix => DecoPrint::Skip,
                };
                let (on, off) = (Literal::u64_unsuffixed(on), Literal::u64_unsuffixed(off));
                (quote! { #rt::Target::Field { field: #fr, on: #on, off: #off } }, print)
            }
        };
        let neg_hook = self.asm.hook(op, df, "CvtINegX").is_some();
        let suffix = match (d.kind, f) {
            (DecorationKind::Suffix, Some(f)) => {
                let dis = dis();
                // An optional suffix at its default prints nothing (unless
                // another field selects its spellings).
                let (model, lookup, piece_lookup, selected) = self.suffix(oc, op, ot, f, &d.name, f.default_value().filter(|_| d.optional));
                let get = field_get(f);
                let skip = f.default_value().filter(|_| d.optional && !selected);
                let piece_code = piece_lookup.map(|lookup| {
                    quote! {
                        {
                            let v = #get;
                            let p: &#dis::Piece = #lookup;
                            if !#dis::piece_ok(p) {
                                return None;
                            }
                            suffix = ::core::hint::select_unpredictable(#dis::piece_len(p) != 0, p, suffix);
                        }
                    }
                });
                let code = match (lookup, skip) {
                    (Some(lookup), None) => Some(quote! { { let v = #get; let s: &str = #lookup; if !s.is_empty() { suffix = s; } } }),
                    (Some(lookup), Some(dv)) => {
                        let dv = Literal::u64_unsuffixed(dv);
                        Some(quote! { { let v = #get; if v != #dv { let s: &str = #lookup; if !s.is_empty() { suffix = s; } } } })
                    }
                    (None, Some(dv)) => {
                        let dv = Literal::u64_unsuffixed(dv);
                        Some(quote! { if #get != #dv { return None; } })
                    }
                    // No spelling for any value: the operand never prints.
                    (None, None) => None,
                };
                print = code.map_or(DecoPrint::Never, |c| DecoPrint::Suffix(c, piece_code));
                model
            }
            _ => quote! { None },
        };
        let model = quote! {
            #rt::Decoration { kind: #rt::DecorationKind::#kind, name: #name, optional: #optional, target: #target, neg_hook: #neg_hook, suffix: #suffix }
        };
        (model, print)
    }

    /// The suffix spellings of field `f`, computed with the interpreted
    /// assembler's mapping for every spelling and value there is: the
    /// model's `Option<Suffix>`, an expression giving the spelling of the
    /// field's value `v` in the printed word `w` (it fails the form when there
    /// is none; `None`: there never is), and whether another field selects
    /// the spellings; and the same lookup as a `&Piece` (with the leading
    /// `.`; `skip` prints nothing when no field selects the spellings), when
    /// every spelling fits a piece.
    fn suffix(&self, oc: usize, op: &Opcode, ot: usize, f: &Field, list: &str, skip: Option<u64>) -> (TokenStream, Option<TokenStream>, Option<TokenStream>, bool) {
        let rt = rt();
        let isa = self.isa;
        let t = &isa.types[f.ty];
        let values: Vec<u64> = match &t.kind {
            TypeKind::Enum { values } => values.iter().map(|v| v.encoding).collect(),
            _ => Vec::new(),
        };
        let Some(mut raw) = self.asm.codec().default_instruction(oc) else { return (quote! { None }, None, None, false) };
        // (model's SuffixMap, print lookup over `v`).
        let map = |raw: &crate::interp::RawInstruction| {
            let parse = self.asm.suffix_spellings(ot, op, raw, f, list).into_iter().map(|(c, v)| {
                let v = Literal::u64_unsuffixed(v);
                quote! { (#c, #v) }
            });
            let texts: Vec<(u64, String)> = values.iter().filter_map(|&v| Some((v, self.asm.suffix_text(ot, op, raw, f, list, v)?))).collect();
            // The first spelling of each value.
            let arms = first_arms(texts.iter().map(|(v, s)| (*v, s)), None, |s| quote! { #s });
            let lookup = (!arms.is_empty()).then(|| quote! { match v { #( #arms )* _ => return None } });
            // The same as pieces: `.` and the spelling, nothing when empty.
            let dotted = texts.iter().map(|(v, s)| (*v, Some(if s.is_empty() { String::new() } else { format!(".{s}") })));
            (quote! { #rt::SuffixMap { parse: &[ #( #parse ),* ] } }, lookup, dotted.collect::<Vec<_>>())
        };
        let hook = self.asm.hook(op, Some(&f.name), "CvtVSel").or_else(|| self.asm.hook(op, Some(&f.name), "CvtVPSel"));
        match hook {
            None => {
                let (m, lookup, dotted) = map(&raw);
                let entries = skip.map(|d| (d, Some(String::new()))).into_iter().chain(dotted);
                let pieces = lookup.as_ref().and_then(|_| self.piece_table(f.width, entries)).map(|t| quote! { &#t[v as usize] });
                (quote! { Some(#rt::Suffix::Fixed(#m)) }, lookup, pieces, false)
            }
            Some(h) => {
                let Some((ai, af)) = h.args.get(1).and_then(|a| op.fields.iter().enumerate().find(|(_, f)| *f.name == **a)) else {
                    return (quote! { Some(#rt::Suffix::Selected { by: #rt::Bits { start: 0, width: 0 }, table: &[] }) }, None, None, true);
                };
                let by = bits(af);
                let arg_values: Vec<u64> = match &isa.types[af.ty].kind {
                    TypeKind::Enum { values } => values.iter().map(|v| v.encoding).collect(),
                    _ => Vec::new(),
                };
                let mut rows = Vec::new();
                let mut arms = Vec::new();
                // The same arms over pieces, while every table fits.
                let mut piece_arms = Some(Vec::new());
                let mut seen = Vec::new();
                for av in arg_values {
                    raw.values[ai] = av;
                    let (m, lookup, dotted) = map(&raw);
                    let avl = Literal::u64_unsuffixed(av);
                    rows.push(quote! { (#avl, #m) });
                    if !seen.contains(&av) {
                        seen.push(av);
                        if let Some(lookup) = lookup {
                            arms.push(quote! { #avl => #lookup, });
                            piece_arms = piece_arms.and_then(|mut a: Vec<TokenStream>| {
                                let t = self.piece_table(f.width, dotted)?;
                                a.push(quote! { #avl => &#t[v as usize], });
                                Some(a)
                            });
                        }
                    }
                }
                let by_get = field_get(af);
                let lookup = (!arms.is_empty()).then(|| quote! { match #by_get { #( #arms )* _ => return None } });
                let pieces = lookup.as_ref().and(piece_arms).map(|a| quote! { match #by_get { #( #a )* _ => return None } });
                (quote! { Some(#rt::Suffix::Selected { by: #by, table: &[ #( #rows ),* ] }) }, lookup, pieces, true)
            }
        }
    }
}

/// An operand's lowered parts.
struct OperandOut {
    model: TokenStream,
    /// Its printing code (`None`: it never prints).
    print: Print,
    optional: bool,
    /// Fields all at these bits: the operand is at its defaults (`None`: never).
    at_default: Option<(u128, u128)>,
}

/// Wraps the code printing an operand's value in its decorations: prefixes
/// in template order, `|..|`, and the last non-empty suffix.
fn decorate(core: TokenStream, decorations: Vec<DecoPrint>, neg_is_inv: Option<&RawExpr>) -> Print {
    let mut code = Vec::new();
    let mut prefixes = Vec::new();
    let mut abs = Vec::new();
    let mut has_suffix = false;
    let mut has_neg = false;
    // Suffixes over pieces when every one of them has them.
    let pieces = decorations.iter().all(|d| !matches!(d, DecoPrint::Suffix(_, None)));
    for d in decorations {
        match d {
            DecoPrint::Skip => {}
            DecoPrint::Never => return None,
            DecoPrint::Prefix { neg, byte, on } => {
                has_neg |= neg;
                let byte = Literal::byte_character(byte);
                let byte = if neg && neg_is_inv.is_some() { quote! { if inv { b'~' } else { #byte } } } else { quote! { #byte } };
                prefixes.push(quote! { out.byte_if(#byte, #on); });
            }
            DecoPrint::Abs(on) => abs.push(on),
            DecoPrint::Suffix(c, p) => {
                has_suffix = true;
                code.push(if pieces { p.unwrap_or(c) } else { c });
            }
        }
    }
    let inv = match (has_neg, neg_is_inv) {
        (true, Some(e)) => {
            let e = crate::gen_rust::raw_expr(e);
            Some(quote! { let inv = #e != 0; })
        }
        _ => None,
    };
    let dis = dis();
    let (suffix_decl, suffix_print) = match (has_suffix, pieces) {
        (false, _) => (None, None),
        (true, true) => (Some(quote! { let mut suffix: &#dis::Piece = &#dis::EMPTY_PIECE; }), Some(quote! { out.piece(suffix); })),
        (true, false) => (Some(quote! { let mut suffix: &str = ""; }), Some(quote! { if !suffix.is_empty() { out.push_byte(b'.'); out.push_str(suffix); } })),
    };
    let (abs_decl, abs_open, abs_close) = if abs.is_empty() {
        (None, None, None)
    } else {
        (Some(if abs.len() == 1 { quote! { let abs = #( #abs )*; } } else { quote! { let abs = #( (#abs) )|*; } }), Some(quote! { out.byte_if(b'|', abs); }), Some(quote! { out.byte_if(b'|', abs); }))
    };
    Some(quote! {
        {
            #inv
            #suffix_decl
            #( #code )*
            #abs_decl
            #( #prefixes )*
            #abs_open
            #core
            #suffix_print
            #abs_close
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a printer's room is made of: each unchecked store at its
    /// helper's figure, a piece at its longest text when its shape says it,
    /// nothing for checked writes, and every call, nested or not.
    #[test]
    fn unchecked_spare_counts_each_store_at_its_bound() {
        let longest = |name: &str| match name {
            "PIECES_0" => Some(5),
            "register_2" => Some(10),
            _ => None,
        };
        let spare = |t: TokenStream| unchecked_spare(&t, &longest);
        assert_eq!(spare(quote! { out.piece(&PIECES_0[(w >> 3) as usize & 7]); }), 5);
        assert_eq!(spare(quote! { out.piece(&const { ::isa_runtime::text::disasm::piece("IADD3.X") }); }), 7);
        // A piece of no known shape counts as the longest a piece can be.
        assert_eq!(spare(quote! { out.piece(suffix); }), 15);
        assert_eq!(spare(quote! { out.piece(pick(c, &PIECES_0[1], suffix)); }), 15);
        assert_eq!(spare(quote! { out.piece(&PIECES_9[0]); }), 15, "a table it does not know");
        assert_eq!(spare(quote! { register_2(out, r, false); }), 10);
        assert_eq!(spare(quote! { ::isa_runtime::text::disasm::int(out, v); }), 19);
        assert_eq!(spare(quote! { out.byte_if(b'-', neg); out.separator(true); }), 1 + 2);
        // Checked writes, and the const constructor of a piece, store nothing unchecked.
        assert_eq!(spare(quote! { out.push_str("a long text"); out.push_byte(b']'); ::isa_runtime::text::disasm::dec(out, r); }), 0);
        assert_eq!(spare(quote! { let p = ::isa_runtime::text::disasm::piece("X"); }), 0);
        // Calls inside blocks, closures and other calls count too.
        assert_eq!(spare(quote! { if c { out.detached(|out| { out.byte_if(b'!', x); }); } else { register_2(out, r, true); } }), 1 + 10);
    }
}
