//! Spec names -> Rust identifiers. Spec names are kept as they are where Rust
//! allows (`HADD2_RR`, `FPRound`, `RN`); field paths become snake case
//! (`ra.neg` -> `ra_neg`); names Rust cannot take are adjusted the same way
//! everywhere (`32` -> `V32`, `type` -> `r#type`).

use proc_macro2::{Ident, Span};

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static",
    "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// The identifier text for a spec name.
pub fn ident_text(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'V');
    }
    if matches!(s.as_str(), "self" | "Self" | "super" | "crate" | "_") {
        s.push('_');
    }
    s
}

/// A Rust identifier for a spec name (raw identifier for keywords).
pub fn ident(name: &str) -> Ident {
    let s = ident_text(name);
    if KEYWORDS.contains(&s.as_str()) {
        Ident::new_raw(&s, Span::call_site())
    } else {
        Ident::new(&s, Span::call_site())
    }
}

/// The accessor of a field path (`ra.neg` -> `ra_neg`): the getter's name, and
/// the stem of `set_…`/`with_…`. A field named like one of the opcode
/// struct's own methods (`encode`, `word`, …) gets `_field` appended.
pub fn field_ident(name: &str) -> Ident {
    ident(&field_text(name))
}

/// The methods and associated constants every opcode struct has besides its
/// field accessors.
const STRUCT_METHODS: &[&str] = &[
    "word", "encode", "decode", "to_word", "from_word", "is_valid", "exception", "decode_error", "raw_fields", "from_raw_fields",
    "default", "of", "execute", "registers",
    "clone", "eq", "ne", "hash", "fmt",
    "COVERED", "DEFAULT", "FIELD_BITS", "FIELD_NAMES", "FIXED_BITS", "FIXED_MASK", "INDEX", "NAME", "OPTYPE_NAME",
];

/// Type-namespace names the generated code uses unqualified besides the
/// spec's: the prelude's and the generated API's own items and modules.
/// A spec type or opcode named so would shadow or clash with them.
const TAKEN_TYPE_NAMES: &[&str] = &[
    "Option", "Some", "None", "Result", "Ok", "Err", "Vec", "String", "Box", "ToString", "ToOwned", "Default", "Clone", "Copy",
    "Send", "Sync", "Sized", "Unpin", "Drop", "Fn", "FnMut", "FnOnce", "Iterator", "IntoIterator", "DoubleEndedIterator",
    "ExactSizeIterator", "Extend", "PartialEq", "Eq", "PartialOrd", "Ord", "AsRef", "AsMut", "Into", "From", "TryFrom", "TryInto",
    "FromIterator", "Debug", "Hash",
    "Instruction", "Decoded", "DecodeError", "EncodeError", "RangeError", "RawFieldsError", "WrongOpcode", "Kernels", "types", "opcodes", "text", "sim",
    // The simulator's, imported into `sim` beside the spec's types.
    "Fault", "FileRegister", "FileSpec", "RegRange", "Registers", "Warp",
];

/// E060: spec names the generated Rust cannot keep apart. Two types or
/// opcodes whose identifiers are the same (`A-B`, `A_B`), a type or opcode
/// named like a name the generated code already uses (`TAKEN_TYPE_NAMES`),
/// and two fields of one opcode with the same accessor (`t.x`, `t_x`).
/// Without this check such a spec would pass and its generated crate would
/// not compile, with the error far from the spec.
pub fn check(isa: &isa_dsl::ir::Isa) -> Vec<isa_dsl::Diagnostic> {
    use isa_dsl::{Code, Diagnostic};
    use std::collections::HashMap;
    let mut out = Vec::new();
    let clash = |loc: &isa_dsl::ir::Loc, message: String, note: String| Diagnostic::new(Code::RustNameClash, loc.span, message).with_label("rename this").with_note(note);
    // Types and opcodes share the crate root (`pub use types::*`, `opcodes::*`).
    let mut seen: HashMap<String, (&str, &str)> = HashMap::new();
    let items = isa.types.iter().map(|t| ("type", &*t.name, &t.loc)).chain(isa.opcodes.iter().map(|o| ("opcode", &*o.name, &o.loc)));
    for (kind, name, loc) in items {
        let id = ident_text(name);
        if TAKEN_TYPE_NAMES.contains(&id.as_str()) {
            let what = if id == name { format!("{kind} `{name}` takes") } else { format!("{kind} `{name}` becomes `{id}`,") };
            out.push(clash(loc, format!("{what} a name the generated Rust already uses"), "the generated code refers to the prelude's and its own items by these names".into()));
        } else if let Some((other_kind, other)) = seen.insert(id.clone(), (kind, name)) {
            out.push(clash(loc, format!("{kind} `{name}` and {other_kind} `{other}` are both `{id}` in Rust"), "spec names become Rust identifiers: characters Rust does not allow become `_`".into()));
        }
    }
    for op in &isa.opcodes {
        let mut fields: HashMap<String, &str> = HashMap::new();
        for f in op.fields.iter().filter(|f| !f.is_constant()) {
            let id = field_text(&f.name);
            if let Some(other) = fields.insert(id.clone(), &f.name) {
                if other != &*f.name {
                    out.push(clash(&f.loc, format!("fields `{other}` and `{}` have the same accessor `{id}`", f.name), format!("in opcode `{}`: a field path's `.` becomes `_` in its accessor", op.name)));
                }
            }
        }
    }
    out
}

fn field_text(name: &str) -> String {
    let s = ident_text(&name.replace('.', "_"));
    if STRUCT_METHODS.contains(&s.as_str()) {
        format!("{s}_field")
    } else {
        s
    }
}

/// `set_ra_neg`, the setter of a field path.
pub fn field_setter(name: &str) -> Ident {
    ident(&format!("set_{}", field_text(name)))
}

/// `with_ra_neg`, the builder of a field path (the value with one field changed).
pub fn field_builder(name: &str) -> Ident {
    ident(&format!("with_{}", field_text(name)))
}
