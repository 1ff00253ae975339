//! `isa-runtime`: hand-written code the generated crate calls. Never
//! generated, never overwritten. [`float`], [`narrow`] and [`int`]: the kernels of the
//! simulator. [`text`]: the table-driven assembler and disassembler behind the
//! generated `FromStr`/`Display`. [`spelling`]: "did you mean" hints, also used by
//! the front end. [`sim`]: the warp the generated `execute` stubs run on.
//! [`read_ahead`]: a buffer of words read front to back with prefetching.
//! `report` (feature `report`): how every command shows a diagnostic.

pub mod float;
pub mod int;
pub mod narrow;
pub mod read_ahead;
#[cfg(feature = "report")]
pub mod report;
pub mod shown;
pub mod sim;
pub mod spelling;
pub mod text;
