//! The float kernels against vectors from an independent oracle (GNU MPFR via
//! gmpy2, `tools/gen_float_vectors.py`): every op, format and rounding mode,
//! bit for bit. CI runs the committed set (`tests/vectors/ieee.txt`);
//! `FLOAT_VECTORS=path` runs a larger file (see the script); likewise
//! `FLOAT_MODIFIER_VECTORS`, `FLOAT_CONVERT_VECTORS` (`--convert`) and
//! `FLOAT_MINMAX_VECTORS` (`--minmax`).

use isa_runtime::float::{add, add_mod, fma, fma_f32, fma_f32_soft, fma_mod, mul, mul_mod, Format, Modifiers, Round, BF16, F16, F32};

#[test]
fn kernels_match_mpfr() {
    let path = std::env::var("FLOAT_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/ieee.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut n, mut bad) = (0usize, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let (a, b, c, want) = (hex(w[3]), hex(w[4]), hex(w[5]), hex(w[6]));
        let (f, mode) = (format_of(w[1]), mode_of(w[2]));
        let got = match w[0] {
            "add" => add(a, b, f, mode),
            "mul" => mul(a, b, f, mode),
            "fma" => fma(a, b, c, f, mode),
            other => panic!("unknown operation {other:?} in {line:?}"),
        };
        // The binary32 fast path (FFMA) must agree too.
        if w[0] == "fma" && w[1] == "f32" {
            for (name, fast) in [("fma_f32", fma_f32(a as u32, b as u32, c as u32, mode)), ("fma_f32_soft", fma_f32_soft(a as u32, b as u32, c as u32, mode))] {
                if fast as u64 != want && bad.len() < 20 {
                    bad.push(format!("{line}  -> {name} got {fast:x}"));
                }
            }
        }
        n += 1;
        if got != want && bad.len() < 20 {
            bad.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert!(n >= 10_000, "only {n} vectors in {path}");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{n} vectors from {path}: 0 mismatches");
}

/// The warp kernel (`fma_f32_lanes`: vector FMA, or the vectorized soft path
/// in directed modes) on the f32 fma vectors, 32 at a time.
#[test]
fn fma_f32_lanes_matches_mpfr() {
    use isa_runtime::float::fma_f32_lanes;
    let path = std::env::var("FLOAT_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/ieee.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let mut by_mode: std::collections::BTreeMap<&str, Vec<[u32; 4]>> = Default::default();
    for line in text.lines().filter(|l| l.starts_with("fma f32 ")) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u32::from_str_radix(s, 16).unwrap();
        by_mode.entry(w[2]).or_default().push([hex(w[3]), hex(w[4]), hex(w[5]), hex(w[6])]);
    }
    assert_eq!(by_mode.len(), 4);
    let mut n = 0;
    for (mode, vs) in &by_mode {
        for chunk in vs.chunks(32) {
            let lane = |k: usize| -> [u32; 32] { std::array::from_fn(|l| chunk.get(l).map_or(0, |v| v[k])) };
            let got = fma_f32_lanes(&lane(0), &lane(1), &lane(2), mode_of(mode));
            for (l, v) in chunk.iter().enumerate() {
                assert_eq!(got[l], v[3], "{mode} {:x} {:x} {:x}", v[0], v[1], v[2]);
                n += 1;
            }
        }
    }
    eprintln!("{n} f32 fma vectors through fma_f32_lanes: 0 mismatches");
}

fn format_of(s: &str) -> Format {
    match s {
        "f32" => F32,
        "f16" => F16,
        "bf16" => BF16,
        other => panic!("unknown format {other:?}"),
    }
}

fn mode_of(s: &str) -> Round {
    match s {
        "RN" => Round::RN,
        "RZ" => Round::RZ,
        "RM" => Round::RM,
        "RP" => Round::RP,
        other => panic!("unknown rounding mode {other:?}"),
    }
}

/// The ISA's `.FTZ`/`.SAT`/`.RELU` rules, against the oracle script applying
/// the spec's pseudo-code on top of MPFR (`--modifiers`).
#[test]
fn modifiers_match_the_spec_rules() {
    let path = std::env::var("FLOAT_MODIFIER_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/modifiers.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut n, mut bad) = (0usize, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let (f, mode) = (format_of(w[1]), mode_of(w[2]));
        let m = Modifiers { ftz: w[3].contains("ftz"), sat: w[3].contains("sat"), relu: w[3].contains("relu") };
        let (a, b, c, want) = (hex(w[4]), hex(w[5]), hex(w[6]), hex(w[7]));
        let got = match w[0] {
            "add" => add_mod(a, b, f, mode, m),
            "mul" => mul_mod(a, b, f, mode, m),
            _ => fma_mod(a, b, c, f, mode, m),
        };
        n += 1;
        if got != want && bad.len() < 20 {
            bad.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert!(n >= 7_000, "only {n} vectors");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
}

/// FMNMX/HMNMX2 min/max and FSETP-style comparisons against the spec's rules
/// computed independently by the oracle script (`--minmax`).
#[test]
fn min_max_and_compares_match_the_spec_rules() {
    use isa_runtime::float::{compare, min_max, Cmp};
    let path = std::env::var("FLOAT_MINMAX_VECTORS").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/minmax.txt").into());
    let text = std::fs::read_to_string(path).unwrap();
    let (mut n, mut bad) = (0usize, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let f = format_of(w[1]);
        let (a, b) = (hex(w[4]), hex(w[5]));
        let ok = match w[0] {
            "cmp" => {
                let c = Cmp::ALL[["EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU", "NAN", "NUM"]
                    .iter()
                    .position(|x| *x == w[2])
                    .unwrap()];
                compare(a, b, f, c, w[3] == "1") == (w[6] == "1")
            }
            "fchk" => isa_runtime::float::fchk(a as u32, b as u32) == (w[6] == "1"),
            op => min_max(a, b, f, op == "min", w[2] == "1", w[3] == "1") == hex(w[6]),
        };
        n += 1;
        if !ok && bad.len() < 20 {
            bad.push(line.to_string());
        }
    }
    assert!(n >= 20_000, "only {n} vectors");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
}

/// F2F and I2F against MPFR, F2I/F2IP/FRND against exact rational rounding and the seed's rules (`--convert`).
#[test]
fn conversions_match_mpfr() {
    use isa_runtime::float::{convert, from_int, round_integral, to_int, IntRound};
    let int_round = |s: &str| match s {
        "ROUND" => IntRound::Round,
        "CEIL" => IntRound::Ceil,
        "FLOOR" => IntRound::Floor,
        "TRUNC" => IntRound::Trunc,
        other => panic!("unknown integer rounding {other:?}"),
    };
    let path = std::env::var("FLOAT_CONVERT_VECTORS").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/convert.txt").into());
    let text = std::fs::read_to_string(path).unwrap();
    let (mut n, mut f2ip, mut integer, mut bad) = (0usize, 0usize, 0usize, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        if w[0] == "frnd" {
            let got = round_integral(hex(w[5]), format_of(w[1]), int_round(w[3]), w[4] == "1");
            n += 1;
            if got != hex(w[6]) && bad.len() < 20 {
                bad.push(format!("{line}  -> got {got:x}"));
            }
            continue;
        }
        if w[0] == "i2i" || w[0] == "i2ip" {
            let (dtype, args) = (w[1], &w[2..]);
            let bits: u32 = dtype[1..].parse().unwrap();
            let signed = dtype.starts_with('S');
            let (got, want) = if w[0] == "i2i" {
                (isa_runtime::int::i2i(hex(args[0]) as u32, bits, signed), hex(args[1]))
            } else {
                let relu = args[0] == "1";
                (isa_runtime::int::i2ip(hex(args[1]) as u32, hex(args[2]) as u32, hex(args[3]) as u32, bits, signed, relu), hex(args[4]))
            };
            n += 1;
            integer += 1;
            if got as u64 != want && bad.len() < 20 {
                bad.push(format!("{line}  -> got {got:x}"));
            }
            continue;
        }
        if w[0] == "f2ip" {
            let flags = w[3].as_bytes();
            let m = isa_runtime::float::F2ip {
                signed: w[1] == "S8",
                round: int_round(w[2]),
                ntz: flags[0] == b'1',
                relu: flags[1] == b'1',
                rc_high: flags[2] == b'1',
            };
            let got = isa_runtime::float::f2ip(hex(w[4]) as u32, hex(w[5]) as u32, hex(w[6]) as u32, m) as u64;
            n += 1;
            f2ip += 1;
            if got != hex(w[7]) && bad.len() < 20 {
                bad.push(format!("{line}  -> got {got:x}"));
            }
            continue;
        }
        if w[0] == "f2i" {
            let bits: u32 = w[2][1..].parse().unwrap();
            let r = match w[3] {
                "ROUND" => IntRound::Round,
                "CEIL" => IntRound::Ceil,
                "FLOOR" => IntRound::Floor,
                _ => IntRound::Trunc,
            };
            let (ftz, ntz) = (&w[4][0..1] == "1", &w[4][1..2] == "1");
            let got = to_int(hex(w[5]), format_of(w[1]), r, bits, w[2].starts_with('S'), ftz, ntz) as u64;
            n += 1;
            if got != hex(w[6]) && bad.len() < 20 {
                bad.push(format!("{line}  -> got {got:x}"));
            }
            continue;
        }
        let (to, mode, a, want) = (format_of(w[2]), mode_of(w[3]), hex(w[5]), hex(w[6]));
        let got = if w[0] == "f2f" {
            convert(a, format_of(w[1]), to, mode, w[4] == "1")
        } else {
            let bits: u32 = w[1][1..].parse().unwrap();
            let v = if w[1].starts_with('S') && a >> (bits - 1) & 1 == 1 { a as i64 - (1i64 << bits) } else { a as i64 };
            from_int(v, to, mode)
        };
        n += 1;
        if got != want && bad.len() < 20 {
            bad.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert!(n >= 25_000, "only {n} vectors");
    assert!(f2ip >= 1_000, "only {f2ip} F2IP vectors");
    assert!(integer >= 3_000, "only {integer} I2I/I2IP vectors");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
}

/// F2FP's conversions against `ml_dtypes` (TF32: rounding on the binary32 bits) plus the ISA's
/// rules for NaN, `.SATFINITE` and `.RELU` (`tools/gen_float_vectors.py
/// --narrow`); `FLOAT_NARROW_VECTORS=path` runs a larger file.
#[test]
fn narrow_conversions_match_ml_dtypes() {
    use isa_runtime::narrow::{convert, Narrow};
    let path = std::env::var("FLOAT_NARROW_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/narrow.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let format = |s: &str| match s {
        "F32" => Narrow::F32,
        "TF32" => Narrow::TF32,
        "F16" => Narrow::F16,
        "BF16" => Narrow::BF16,
        "E5M2" => Narrow::E5M2,
        "E4M3" => Narrow::E4M3,
        "E3M2" => Narrow::E3M2,
        "E2M3" => Narrow::E2M3,
        "E2M1" => Narrow::E2M1,
        "E8" => Narrow::E8,
        other => panic!("unknown format {other}"),
    };
    let (mut n, mut bad) = (0usize, Vec::new());
    let mut pairs = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u32::from_str_radix(s, 16).unwrap();
        let (from, to) = (format(w[1]), format(w[2]));
        let got = convert(hex(w[4]), from, to, w[3] == "satfinite", w[3] == "relu");
        pairs.insert((w[1], w[2]));
        n += 1;
        if got != hex(w[5]) && bad.len() < 20 {
            bad.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert_eq!(pairs.len(), 18, "every pair F2FP allows");
    assert!(n >= 18 * 100, "{n} vectors: too few for 18 pairs");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{n} narrow vectors from {path}: 0 mismatches");
}

/// FMUL's `.scl` (`Ra * 2^k * SrcB`, one rounding), with and without
/// `.FTZ`/`.SAT`, against MPFR and the spec's pseudo-code
/// (`tools/gen_float_vectors.py --scaled`); `FLOAT_SCALED_VECTORS=path` runs a larger file.
#[test]
fn scaled_multiply_matches_mpfr() {
    use isa_runtime::float::{mul_mod_scaled, mul_scaled};
    let path = std::env::var("FLOAT_SCALED_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/scaled.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut n, mut bad) = (0usize, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let (f, mode, scale, mods) = (format_of(w[1]), mode_of(w[2]), w[3].parse().unwrap(), w[4]);
        let (a, b, want) = (hex(w[5]), hex(w[6]), hex(w[7]));
        let m = Modifiers { ftz: mods.contains("ftz"), sat: mods.contains("sat"), relu: false };
        let got = mul_mod_scaled(a, b, scale, f, mode, m);
        // Without modifiers, the bare kernel gives the same bits.
        let got = if mods == "-" && mul_scaled(a, b, scale, f, mode) != got { u64::MAX } else { got };
        n += 1;
        if got != want && bad.len() < 20 {
            bad.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert!(n >= 1000, "only {n} vectors");
    assert!(bad.is_empty(), "{} mismatches of {n}:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{n} scaled vectors from {path}: 0 mismatches");
}
