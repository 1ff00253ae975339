//! `state::dump` and `state::load` are inverse: any warp (active mask, every
//! register of every file in every lane, constant-memory words) printed and
//! read back is the same warp, compared register by register, not by text.

use isa_generated::sim::new_warp;
use isa_runtime::sim::Warp;
use proptest::prelude::*;

/// Everything a state holds, read through the warp's accessors.
fn contents(w: &Warp) -> (u32, Vec<u32>, Vec<(u64, u64, u32)>) {
    let mut regs = Vec::new();
    for (file, spec) in w.file_specs().enumerate() {
        for idx in 0..spec.count as u64 {
            if spec.warp {
                regs.push(w.warp(file, idx));
            } else {
                regs.extend(w.lanes(file, idx));
            }
        }
    }
    (w.active, regs, w.cmem.words())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_dumped_warp_loads_back_as_the_same_warp(
        active in any::<u32>(),
        writes in proptest::collection::vec((any::<usize>(), any::<u64>(), 0usize..32, any::<u32>()), 0..200),
        cmem in proptest::collection::vec((0u64..4, 0u64..64, any::<u32>()), 0..20),
    ) {
        let mut w = new_warp();
        w.active = active;
        let files: Vec<_> = w.file_specs().copied().collect();
        for (file, idx, lane, v) in writes {
            let file = file % files.len();
            let spec = &files[file];
            let idx = idx % spec.count as u64;
            // A predicate holds a boolean.
            let v = if spec.predicate { v & 1 } else { v };
            if spec.warp {
                w.set_warp(file, idx, v);
            } else {
                w.set_lane(file, idx, lane, v);
            }
        }
        for (bank, word, v) in cmem {
            w.cmem.write(bank, word * 4, v).unwrap();
        }
        let text = isa_sim::state::dump(&w);
        let mut again = new_warp();
        let loaded = isa_sim::state::load(&mut again, &text);
        prop_assert!(loaded.is_ok(), "{loaded:?}\n{text}");
        prop_assert_eq!(contents(&again), contents(&w), "{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Any text, YAML-like or not, loads or is refused with a place inside
    /// it; nothing panics.
    #[test]
    fn any_state_text_loads_or_is_refused_in_place(
        text in prop_oneof![
            "\\PC{0,120}",
            proptest::collection::vec(prop_oneof![
                Just("active: "), Just("regs:\n"), Just("cmem:\n"), Just("  R1: "), Just("  UR4: "), Just("  P0: "), Just("  PT: "),
                Just("\"c[0x1][0x8]\": "), Just("0x"), Just("ffffffff"), Just("1.5"), Just("-1"), Just("true"), Just("[1, 2]"),
                Just("{a: b}"), Just("&x "), Just("*x"), Just("!!str "), Just("\n"), Just("  "), Just("~"), Just(".nan"), Just("1e400"),
            ], 0..30).prop_map(|v| v.concat()),
        ],
    ) {
        let mut w = new_warp();
        if let Err(e) = isa_sim::state::load(&mut w, &text) {
            if let Some((at, len)) = e.span {
                // A caret just past the end says "at the end of the text".
                prop_assert!(at + len <= text.len() || (at == text.len() && len <= 1), "{:?} of {} in {text:?}: {}", e.span, text.len(), e.message);
            }
        }
    }
}
