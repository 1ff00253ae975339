//! `isa-runtime`: hand-written code the generated crate calls. Never
//! generated, never overwritten. [`float`], [`narrow`] and [`int`]: the kernels of the
//! simulator. [`text`]: the table-driven assembler behind the generated
//! `FromStr`, the line buffer and pieces the generated printers (`Display`)
//! write with, word files, and the disassemblers' listing loop. [`spelling`]: "did you mean" hints, also used by
//! the front end. [`sim`]: the warp the generated `execute` functions run on.
//! [`shown`]: text made safe to print in a terminal.
//! [`read_ahead`]: a buffer of words read front to back with prefetching.
//! [`files`]: the command-line tools' input and output files.
//! `report` (feature `report`): how every command shows a diagnostic.

#![warn(missing_docs)]

pub mod files;
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
