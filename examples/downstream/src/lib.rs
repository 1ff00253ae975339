//! A downstream crate using `isa!`: the seed ISA compiled into this crate at
//! build time, with the same API as the checked-in `generated/` crate.
//! Editing any spec file rebuilds this crate.

isa_macros::isa! {
    include "../../spec/*.txt";
    include "../../spec/base/*.txt";
    module gpu;
}

/// Builds `IADD R{rd}, R{ra}, R{rb}` and returns its encoding.
pub fn iadd(rd: u64, ra: u64, rb: u64) -> Result<u128, String> {
    let reg = |i| gpu::Reg::new(i).map_err(|e| e.to_string());
    let i = gpu::IADD_RR { rd: reg(rd)?, ra: reg(ra)?, rb: reg(rb)?, ..Default::default() };
    i.encode().map_err(|e| e.to_string())
}
