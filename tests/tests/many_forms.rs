//! A mnemonic with many syntax forms (here 1,000 optypes spelled `XT.M0`
//! ... `XT.M999`): a line is assembled, and a bad one worded, by trying
//! each form, and each form that fails must cost little. (Each failing form
//! used to write the "not allowed" message, which lists the modifiers of
//! every form: a bad line took 20 s with 400 forms, `check` of 1,000 forms
//! with an example each 5 minutes. helper-24, session 37.) The messages
//! are the same as with a few forms.

use isa_codegen::asm::Assembler;

const FORMS: usize = 1000;

fn spec() -> isa_dsl::Frontend {
    let mut text = String::from("__DefBitFieldType XOp<8>\n    XTEST = 0xF0;\n__DefBitFieldType Sel<10>\n");
    for i in 0..FORMS {
        text += &format!("    S{i};\n");
    }
    text += "\n__DefGroup XG : [ALL]\n  __Encoding\n    field<12, 3> Pred pg = PT;\n    field<15, 1> PModi pg.not = False;\n    field<0, 8> XOp optype == XTEST;\n    field<16, 8> Reg rd;\n";
    for i in 0..FORMS {
        text += &format!(
            "\n__DefOptype XT{i} : [XG]\n  __Encoding\n    field<64, 10> Sel sel == S{i};\n  __Syntax\n```asm\nXT.M{i} Rd, SrcB      $sched $req ;\n```\n  __Examples\n```asm\nXT.M{i} R0, R1;\n```\n\n__DefOpcode XT{i}_R : [XT{i}]\n  __Encoding\n    field<8, 4> SType stype == R;\n    field<32, 8> Reg rb;\n  __OperandInfo\n    InList<pg, rb>;\n    OutList<rd>;\n    Order<pg, rd, rb>;\n"
        );
    }
    let dir = std::env::temp_dir().join(format!("isa-many-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("xt.txt");
    std::fs::write(&file, text).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/base");
    let fe = isa_dsl::load(&[root, file]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!fe.has_errors(), "{}", fe.render_diagnostics());
    fe
}

#[test]
fn every_form_of_a_mnemonic_with_a_thousand_assembles_and_bad_lines_are_worded_as_usual() {
    let fe = spec();
    assert_eq!(fe.isa.optypes.len(), FORMS);
    // `check`: every example assembles and round-trips.
    let checked = isa_codegen::check_frontend(fe);
    let stats = checked.example_stats;
    assert_eq!((stats.total, stats.round_trip, stats.defective), (FORMS, FORMS, 0));
    let asm = Assembler::new(&checked.fe.isa);
    // The last form's line, and the sel field it sets.
    let a = asm.assemble_line("XT.M999 R0, R1").unwrap().unwrap();
    assert_eq!((a.word >> 64) & 0x3ff, 999);
    // A bad operand count, in the last form.
    let e = asm.assemble_line("XT.M999 R0, R1, R2").unwrap_err();
    assert_eq!((e.col, e.message.as_str()), (16, "too many operands: `XT` takes at most 2"));
    // A fixed part no form has: the forms are listed, a dozen of them.
    let e = asm.assemble_line("XT.M1000 R0, R1").unwrap_err();
    assert_eq!(e.message, "`XT` is not written alone: it is `XT.M0`, `XT.M1`, `XT.M2`, `XT.M3`, `XT.M4`, `XT.M5`, `XT.M6`, `XT.M7`, `XT.M8`, `XT.M9`, `XT.M10`, `XT.M11` or 988 more");
    // A modifier no slot takes, after a fixed part: this form's modifiers first, then forty of the others'.
    let e = asm.assemble_line("XT.M5.FTZ R0, R1").unwrap_err();
    assert_eq!(e.col, 6);
    assert!(e.message.starts_with("modifier `.FTZ` is not allowed here; `XT` takes .M5 .M0 .M1 .M10 .M100 "), "{}", e.message);
    assert!(e.message.ends_with(" and 960 more"), "{}", e.message);
}
