//! [`Reference`]: the built-in ISA's reference semantics for `generated/`,
//! from `isa-reference` (which any crate embedding the ISA with `isa!` can
//! apply to its own `Kernels` trait too).

isa_reference::reference_kernels!(isa_generated);
