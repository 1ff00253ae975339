//! The whole-warp path (operands gathered per register, `fmaf_lanes` on
//! vector FMA, masked stores, the guard as one mask) against the scalar
//! kernel lane by lane: random FFMA instructions on random warps.

use isa_generated::sim::{new_warp, Kernels, FILE_PRED, FILE_REG};
use isa_generated::*;
use isa_runtime::sim::LANES;
use isa_sim::Reference;

mod common;
use common::Rng;

#[test]
fn warp_ffma_equals_the_scalar_kernel_per_lane() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let sign = |r: &mut Rng| if r.next() & 1 == 1 { SignModi::True } else { SignModi::False };
    for _ in 0..3000 {
        let mut w = new_warp();
        w.active = rng.next() as u32 | 1;
        for reg in 0..8u64 {
            for lane in 0..LANES {
                let v = rng.float();
                w.set_lane(FILE_REG, reg, lane, v);
            }
        }
        for lane in 0..LANES {
            w.set_lane(FILE_PRED, 0, lane, (rng.next() & 1) as u32);
        }
        let reg = |r: &mut Rng| Reg::new(r.next() % 8).unwrap();
        let i = FFMA_RRR::DEFAULT
            .with_pg(if rng.next() & 1 == 1 { Pred::new(0).unwrap() } else { Pred::PT })
            .with_pg_not(if rng.next() & 3 == 0 { PModi::True } else { PModi::False })
            .with_rd(reg(&mut rng))
            .with_ra(reg(&mut rng))
            .with_rb(reg(&mut rng))
            .with_rc(reg(&mut rng))
            .with_ra_neg(sign(&mut rng))
            .with_ra_abs(sign(&mut rng))
            .with_rb_neg(sign(&mut rng))
            .with_rb_abs(sign(&mut rng))
            .with_rc_neg(sign(&mut rng))
            .with_rc_abs(sign(&mut rng))
            .with_ftz(if rng.next() & 3 == 0 { FPFtz::FTZ } else { FPFtz::NoFTZ })
            .with_sat(if rng.next() & 3 == 0 { FPSat::SAT } else { FPSat::NoSAT })
            .with_rnd(FPRound::ALL[rng.next() as usize % 4]);
        let before = w.clone();
        i.execute(&mut w, &Reference).unwrap();
        let k = Reference;
        for lane in 0..LANES {
            let read = |r: Reg, neg, abs| k.f32_neg(k.f32_abs(before.lane(FILE_REG, r.index(), lane), abs), neg);
            let guard = before.lane(FILE_PRED, i.pg().index(), lane) != 0 || i.pg() == Pred::PT;
            let runs = before.active >> lane & 1 == 1 && guard != (i.pg_not() == PModi::True);
            let want = if runs {
                k.fmaf(read(i.ra(), i.ra_neg(), i.ra_abs()), read(i.rb(), i.rb_neg(), i.rb_abs()), read(i.rc(), i.rc_neg(), i.rc_abs()), i.ftz(), i.sat(), i.rnd())
            } else {
                before.lane(FILE_REG, i.rd().index(), lane)
            };
            assert_eq!(w.lane(FILE_REG, i.rd().index(), lane), want, "{i:?} lane {lane}");
        }
    }
}
