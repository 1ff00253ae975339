// The seed spec embedded inline: the same API as the generated crate.
isa_macros::isa! {
    include "../spec/**/*.txt";
    module gpu;
}

fn main() {
    let i = gpu::IADD_RR::DEFAULT.with_rd(gpu::Reg::new(1).unwrap());
    let w = i.encode().unwrap();
    assert_eq!(w & 0xFF, 0x30);
    assert_eq!(gpu::Instruction::decode(w).unwrap(), gpu::Instruction::IADD_RR(i));
}
