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

/// The methods every opcode struct has besides its field accessors.
const STRUCT_METHODS: &[&str] = &[
    "word", "encode", "decode", "to_word", "from_word", "is_valid", "exception", "decode_error", "raw_fields", "from_raw_fields",
    "default",
    "clone", "eq", "ne", "hash", "fmt",
];

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
