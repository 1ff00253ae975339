//! Every `__Examples` line of the seeds is a test: it must assemble, its
//! disassembly must assemble back to the same bits, and the outcome must match
//! `tests/golden/examples.txt` — the word and canonical text for good lines,
//! the precise reason for the defective ones (which `isa-codegen check`
//! reports as W014). The defective set was reviewed against an independent
//! reading of the seeds (see the README); the good lines' words are read
//! back by an independent decoder of the spec text (`tools/example_words.py`,
//! held by `spec_fields.rs`). `BLESS=1` rewrites the golden file (then run
//! that script again).

use isa_codegen::asm::Assembler;
use isa_codegen::examples::check_examples;
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;

fn main() {
    let args = Arguments::from_args();
    let isa = isa_tests::spec_isa();
    let asm = Assembler::new(&isa);
    let (checked, _, stats) = check_examples(&asm);
    let line = |c: &isa_codegen::examples::CheckedExample| -> (String, String) {
        let key = format!("{}:{}", isa.files[c.loc.file as usize].rsplit('/').next().unwrap_or(""), c.loc.line);
        let value = match &c.result {
            Ok((w, text)) => format!("ok {w:032x} {text}"),
            Err(reason) => format!("defective: {reason}"),
        };
        (key, value)
    };
    let golden_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/examples.txt");
    let actual: Vec<(String, String)> = checked.iter().map(line).collect();
    if std::env::var_os("BLESS").is_some() {
        let mut s = format!(
            "# {} example lines: {} assemble and round-trip, {} defective.\n",
            stats.total, stats.round_trip, stats.defective
        );
        for (k, v) in &actual {
            s.push_str(&format!("{k} {v}\n"));
        }
        std::fs::write(&golden_path, s).unwrap();
    }
    let golden: BTreeMap<String, String> = std::fs::read_to_string(&golden_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split_once(' ').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    // An entry no example gives any more (a moved or deleted line) is stale.
    let stale: Vec<String> = golden.keys().filter(|k| !actual.iter().any(|(a, _)| a == *k)).cloned().collect();
    let mut trials: Vec<Trial> = actual
        .into_iter()
        .zip(checked)
        .map(|((key, value), c)| {
            let want = golden.get(&key).cloned();
            let text = c.text.clone();
            Trial::test(format!("example {key}"), move || -> Result<(), Failed> {
                match want {
                    None => Err(format!("{key} `{text}` is not in tests/golden/examples.txt (BLESS=1)").into()),
                    Some(w) if w != value => Err(format!("{key} `{text}`\n  expected: {w}\n  actual:   {value}").into()),
                    Some(_) => Ok(()),
                }
            })
        })
        .collect();
    trials.push(Trial::test("no stale entries in tests/golden/examples.txt", move || {
        if stale.is_empty() { Ok(()) } else { Err(format!("no example gives {stale:?} (BLESS=1)").into()) }
    }));
    trials.push(Trial::test("example counts: 94 lines", move || {
        if stats.total == 94 { Ok(()) } else { Err(format!("{} example lines, expected 94", stats.total).into()) }
    }));
    libtest_mimic::run(&args, trials).exit();
}
