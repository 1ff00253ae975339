//! Shadowed forms (W028). Each opcode's all-defaults instruction, printed
//! by the first form that expresses it, must read back as that opcode.
//! When an earlier opcode's form reads the same text (two optypes with one
//! template, or opcodes told apart only by a constant no template writes),
//! every such line assembles as the earlier one, and the disassembler's
//! text for the later one's words does not give them back.

use crate::asm::{Assembled, Assembler};
use isa_dsl::{Code, Diagnostic};

/// One W028 per form whose text assembles as another opcode, listing the
/// opcodes it happens to.
pub fn check(asm: &Assembler) -> Vec<Diagnostic> {
    let isa = asm.codec().isa();
    let mut out = Vec::new();
    for (i, op) in isa.opcodes.iter().enumerate() {
        let Some(raw) = asm.codec().default_instruction(i) else { continue };
        if asm.codec().encode(&raw).is_err() {
            continue;
        }
        let Some((fi, text)) = asm.render_with_form(&raw) else { continue };
        let Ok(Some(Assembled { raw: Ok(back), .. })) = asm.assemble_line(&text) else { continue };
        if back.opcode == i {
            continue;
        }
        let form = &isa.optypes[op.optype].syntax[fi];
        let other = &isa.opcodes[back.opcode];
        let which = if other.optype == op.optype {
            format!("opcode `{}` of the same instruction, which the text cannot tell apart", other.name)
        } else {
            format!("`{}`, whose syntax reads the same text", isa.optypes[other.optype].name)
        };
        let mut d = Diagnostic::new(
            Code::ShadowedForm,
            form.loc.span,
            format!("lines of this form assemble as {which}: words of the opcodes below disassemble to text that does not give them back"),
        )
        .with_note(format!("`{text}`, for one, assembles as `{}`", other.name));
        d.opcodes.push(op.name.clone());
        out.push(d);
    }
    out
}
