//! The disassembler over a [`Model`]: an opcode's word to its canonical text.
//!
//! The first form of the opcode that can express every field's value prints
//! it: defaults are omitted, optional operands are omitted when all their
//! fields are at their defaults (within a run of adjacent optional operands,
//! printing one prints those before it, or positions would be ambiguous),
//! controls are printed only when not at their defaults. A word no form can
//! express prints as `.word 0x...`, which the assembler reads back.

use super::literal::{push_dec, write_float};
use super::model::*;

/// Appends the text of opcode `opcode`'s word `w` to `out`.
pub fn write(m: &Model, opcode: usize, w: u128, out: &mut String) {
    let start = out.len();
    let mut w = w;
    if let Some(op) = m.opcodes.get(opcode) {
        // Stray bits outside every field do not print (as after decoding).
        w &= op.covered;
        for form in op.forms {
            if write_form(m, op, form, w, out).is_some() {
                return;
            }
            out.truncate(start);
        }
    }
    out.push_str(".word 0x");
    push_hex(out, w, 32, false);
}

/// The text of opcode `opcode`'s word `w`.
pub fn text(m: &Model, opcode: usize, w: u128) -> String {
    let mut s = String::with_capacity(48);
    write(m, opcode, w, &mut s);
    s
}

const DIGITS_LOWER: &[u8; 16] = b"0123456789abcdef";
const DIGITS_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Hex digits of `v`, at least `min` of them.
fn push_hex(out: &mut String, v: u128, min: usize, upper: bool) {
    let digits = if upper { DIGITS_UPPER } else { DIGITS_LOWER };
    let n = (((128 - v.leading_zeros()) as usize).div_ceil(4)).max(min).max(1);
    let mut buf = [0u8; 32];
    for (i, b) in buf[..n].iter_mut().enumerate() {
        *b = digits[(v >> (4 * (n - 1 - i)) & 15) as usize];
    }
    push_ascii(out, &buf[..n]);
}

/// Appends ASCII bytes (digits) to `out`.
#[inline]
fn push_ascii(out: &mut String, bytes: &[u8]) {
    out.reserve(bytes.len());
    bytes.iter().for_each(|&b| out.push(b as char));
}

fn push_register(m: &Model, out: &mut String, class: u16, v: u64) {
    match m.registers.get(class as usize) {
        Some(c) => match c.constants.iter().find(|&&(_, i)| i == v) {
            Some((name, _)) => out.push_str(name),
            None => {
                out.push_str(c.prefix);
                push_dec(out, v);
            }
        },
        None => {
            out.push_str("0x");
            push_hex(out, v as u128, 1, false);
        }
    }
}

fn sign_extend(v: u64, bits: Bits, signed: bool) -> i128 {
    if signed && bits.width < 64 && v >> (bits.width - 1) & 1 == 1 {
        v as i128 - (1i128 << bits.width)
    } else {
        v as i128
    }
}

fn write_form(m: &Model, op: &Opcode, form: &Form, w: u128, out: &mut String) -> Option<()> {
    // Every field the form cannot set must be at its default.
    if !form.prints?.test(w) {
        return None;
    }
    if let Some(g) = &op.guard {
        let v = g.reg.bits.get(w);
        let not_on = g.not.is_some_and(|f| f.bits.get(w) != f.off);
        if Some(v) != g.reg.default || not_on {
            out.push('@');
            if not_on {
                out.push('!');
            }
            push_register(m, out, g.class, v);
            out.push(' ');
        }
    }
    out.push_str(form.mnemonic);
    for slot in form.modifiers {
        match &slot.kind {
            ModifierKind::Mnemonic(text) => {
                out.push('.');
                out.push_str(text);
            }
            ModifierKind::Value { field, spelling, value, optional } => {
                let v = field.bits.get(w);
                let default = Some(v) == field.default;
                if !optional {
                    if v != *value {
                        return None;
                    }
                    out.push('.');
                    out.push_str(spelling);
                } else if v == *value && !default {
                    out.push('.');
                    out.push_str(spelling);
                } else if v != *value && !default {
                    return None;
                }
            }
            ModifierKind::Choice { field, values, optional } => {
                let v = field.bits.get(w);
                let default = Some(v) == field.default;
                match (values.iter().find(|c| c.1 == v), *optional) {
                    (Some((s, _)), false) => {
                        out.push('.');
                        out.push_str(s);
                    }
                    (Some((s, _)), true) if !default => {
                        out.push('.');
                        out.push_str(s);
                    }
                    (_, true) if default => {}
                    _ => return None,
                }
            }
            ModifierKind::Unbound { .. } => {}
            ModifierKind::Broken => return None,
        }
    }
    // Which operands print: mandatory ones, and optional ones off their
    // defaults together with the optional ones right before them.
    let n = form.operands.len();
    let mut want = [false; 64];
    if n > want.len() {
        return None;
    }
    for (k, o) in form.operands.iter().enumerate() {
        want[k] = !o.optional || o.at_default.is_none_or(|d| !d.test(w));
    }
    for k in (0..n.saturating_sub(1)).rev() {
        if form.operands[k].optional && form.operands[k + 1].optional && want[k + 1] {
            want[k] = true;
        }
    }
    let mut first = true;
    for (k, o) in form.operands.iter().enumerate() {
        if want[k] {
            out.push_str(if first { " " } else { ", " });
            first = false;
            write_operand(m, o, w, out)?;
        } else {
            // Not printed, but it must still be printable.
            let mark = out.len();
            write_operand(m, o, w, out)?;
            out.truncate(mark);
        }
    }
    for c in op.controls {
        let v = c.field.bits.get(w);
        if Some(v) != c.field.default {
            out.push_str(" &");
            out.push_str(c.name);
            out.push_str("=0x");
            push_hex(out, v as u128, 1, false);
        }
    }
    Some(())
}

fn write_operand(m: &Model, o: &Operand, w: u128, out: &mut String) -> Option<()> {
    match &o.kind {
        OperandKind::Literal => {
            out.push_str(o.name);
            return Some(());
        }
        OperandKind::Indexed { base, index, offset } => {
            let (ib, ic) = (*index)?;
            out.push_str(base);
            out.push('[');
            push_register(m, out, ic, ib.get(w));
            if let Some((ob, signed, _)) = offset {
                let v = sign_extend(ob.get(w), *ob, *signed);
                if v != 0 {
                    out.push_str(if v < 0 { "-0x" } else { "+0x" });
                    push_hex(out, v.unsigned_abs(), 1, true);
                }
            }
            out.push(']');
            return Some(());
        }
        OperandKind::Enum | OperandKind::Unbound | OperandKind::Broken(_) => return None,
        _ => {}
    }
    // Prefixes, then the core, then the suffix.
    let mut abs = false;
    let mut suffix: Option<&str> = None;
    let mut pre = [0u8; 8];
    let mut npre = 0;
    let spelled_inv = o.neg_is_inv.is_some_and(|e| e.eval(w) != 0);
    for d in o.decorations {
        let (f, off) = match d.target {
            Target::None => continue,
            Target::Missing => return None,
            Target::Field { field, off, .. } => (field, off),
        };
        let v = f.bits.get(w);
        let on = v != off;
        let mark = match d.kind {
            DecorationKind::Neg if on => Some(if spelled_inv { b'~' } else { b'-' }),
            DecorationKind::Not if on => Some(b'!'),
            DecorationKind::Invert if on => Some(b'~'),
            DecorationKind::Abs if on => {
                abs = true;
                None
            }
            DecorationKind::Suffix => {
                let selected = matches!(d.suffix, Some(Suffix::Selected { .. }));
                if d.optional && Some(v) == f.default && !selected {
                    continue;
                }
                let s = d.suffix.as_ref()?.map(w)?.text(v)?;
                if !s.is_empty() {
                    suffix = Some(s);
                }
                None
            }
            _ => None,
        };
        if let Some(c) = mark {
            if npre < pre.len() {
                pre[npre] = c;
                npre += 1;
            }
        }
    }
    pre[..npre].iter().for_each(|&b| out.push(b as char));
    if abs {
        out.push('|');
    }
    match &o.kind {
        OperandKind::Register { bits, class, pair } => {
            let v = bits.get(w);
            let c = m.registers.get(*class as usize)?;
            if pair.is_some_and(|e| e.eval(w) == 64) && !c.constants.iter().any(|&(_, i)| i == v) {
                out.push_str(c.prefix);
                out.push('[');
                push_dec(out, v);
                out.push(':');
                push_dec(out, v + 1);
                out.push(']');
            } else {
                push_register(m, out, *class, v);
            }
        }
        OperandKind::Int { bits, signed } => {
            let s = sign_extend(bits.get(w), *bits, *signed);
            out.push_str(if s < 0 { "-0x" } else { "0x" });
            push_hex(out, s.unsigned_abs(), 1, true);
        }
        OperandKind::Float { bits, format, lanes, select } => {
            let v = bits.get(w);
            let fmt = select.and_then(|(by, table)| table.iter().find(|(x, _)| *x == by.get(w)).map(|&(_, f)| f)).unwrap_or(*format);
            let lanes = if fmt.width() < bits.width as u32 { bits.width as u32 / fmt.width() } else { (*lanes).max(1) };
            let lane_mask = if fmt.width() >= 64 { u64::MAX } else { (1u64 << fmt.width()) - 1 };
            for lane in 0..lanes {
                if lane > 0 {
                    out.push_str(", ");
                }
                let b = (v >> (fmt.width() * (lanes - 1 - lane))) & lane_mask;
                write_float(out, b, fmt);
            }
        }
        OperandKind::ConstMem { bits, bank, offset } => {
            let v = bits.get(w) as u128;
            out.push_str("c[0x");
            push_hex(out, bank.get(v) as u128, 1, false);
            out.push_str("][0x");
            push_hex(out, offset.get(v) as u128, 1, false);
            out.push(']');
        }
        _ => return None,
    }
    if let Some(s) = suffix {
        out.push('.');
        out.push_str(s);
    }
    if abs {
        out.push('|');
    }
    Some(())
}
