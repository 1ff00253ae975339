//! `isa-runtime`: hand-written code the generated crate calls. Never
//! generated, never overwritten. [`float`] and [`int`]: the kernels of the
//! simulator. [`text`]: the table-driven assembler and disassembler behind the
//! generated `FromStr`/`Display`. [`spelling`]: "did you mean" hints, also used by
//! the front end.

pub mod float;
pub mod int;
pub mod spelling;
pub mod text;
