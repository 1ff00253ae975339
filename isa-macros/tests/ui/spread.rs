// An ISA whose decode checks read bits too far apart for one 32-bit window:
// `Decoded::new` then reads each opcode's own window. It must accept and
// reject exactly the words `Instruction::decode` does.
isa_macros::isa! {
    include "../spec/base/*.txt",
    include "tests/ui/specs/spread.txt",
    module spread;
}

fn main() {
    let fixed = [
        (spread::LOWT_R::FIXED_MASK, spread::LOWT_R::FIXED_BITS),
        (spread::HIGHT_R::FIXED_MASK, spread::HIGHT_R::FIXED_BITS),
    ];
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut ok, mut err) = (0, 0);
    for k in 0..200_000 {
        let mut w = (next() as u128) << 64 | next() as u128;
        if k % 4 != 0 {
            let (m, b) = fixed[k % 2];
            // Only the two `t` fields and the control bits stay random.
            w = (w & (3 << 24 | 3 << 100 | 0xffff << 112) & !m) | b;
        }
        match (spread::Decoded::new(w), spread::Instruction::decode(w)) {
            (Ok(d), Ok(i)) => {
                ok += 1;
                assert_eq!((d.index(), d.instruction()), (i.index(), i));
            }
            (Err(a), Err(b)) => {
                err += 1;
                assert_eq!(a, b);
            }
            (d, i) => panic!("{w:#034x}: Decoded {d:?}, Instruction::decode {i:?}"),
        }
    }
    assert!(ok > 50_000 && err > 50_000, "{ok} ok, {err} errors");
}
