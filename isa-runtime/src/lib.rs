//! `isa-runtime`: hand-written code the generated simulator calls. Never
//! generated, never overwritten. So far: [`float`], the float kernels.

pub mod float;
