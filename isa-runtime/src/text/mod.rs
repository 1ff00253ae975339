//! Assembly text for any ISA described by a [`model::Model`]: the lexer, the
//! literal syntax, the table-driven assembler behind the generated crate's
//! `FromStr`, the line buffer and pieces its generated printers (`Display`)
//! write with, word files, and the listing loop both disassemblers share. The model is static data the
//! generator lowers from the spec's `__Syntax` templates; nothing here knows
//! a particular ISA.

pub mod asm;
pub mod asm_fast;
pub mod disasm;
pub mod lex;
/// Needs the diagnostic codes of [`crate::report`].
#[cfg(feature = "report")]
pub mod listing;
pub mod literal;
pub mod model;
pub mod words;

pub use asm::{assemble_line, assemble_text, AsmError, Assembled, TextError};
pub use model::Model;
