//! Syntax binding: links every element of every `__Syntax` template to the
//! field(s) of each opcode that it sets, and reports elements nothing encodes.
//!
//! The rules (documented in `docs/dsl.md`):
//! * A modifier `.name` / `{.name}` whose name is a field of the opcode is a
//!   choice among that field's values, spelled as in the value list `.name = {...}`
//!   (or as the type's value names when there is no list).
//! * Otherwise a modifier that is a value name of exactly one unbound enum field
//!   sets that field (`.HI` sets `lohi`; `{.FTZ}` sets `ftz` when present).
//! * Otherwise a mandatory upper-case modifier is part of the mnemonic (`.WIDE`).
//! * An operand binds to the field of the same name (case-insensitive); else to
//!   the next `Order<...>` entry whose type name prefixes the operand name
//!   (`UImm5Sca` -> a `UImm5` field); else to the next unclaimed `Order` entry
//!   not named elsewhere in the form (`SrcB` -> `rb` / `urb` / `vb`); a name
//!   so bound that is one edit from a field's (`Rdd`) is reported (W020).
//! * Decorations set sub-fields of their operand: `-` `.neg`, `|..|` `.abs`,
//!   `!` `.not`, `~` `.inv`, `.sel` `.sel`.

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::ir::*;
use isa_runtime::spelling::one_edit_apart;
use std::collections::BTreeMap;

/// Binds every syntax form of `op`'s optype to `op`, noting in `out` the
/// problems (reported by [`finish`]) and the control fields the forms write.
/// Reads only the optypes and types of `isa`, so opcodes bind independently.
pub fn bind_opcode(isa: &Isa, op: &Opcode, out: &mut Unbound) -> Vec<FormBinding> {
    let ot = op.optype;
    let mut forms = Vec::new();
    // An opcode with a field that did not resolve (reported) would have
    // operands and prefixes with "no field" that are only that field: its
    // problems are left unsaid.
    let mut unsaid = Aggregate::new();
    let agg = if op.is_whole() { &mut out.agg } else { &mut unsaid };
    for (fi, form) in isa.optypes[ot].syntax.iter().enumerate() {
        let b = bind_form(isa, ot, op, fi, form, agg);
        for c in &b.controls {
            push_new(&mut out.controls, c);
        }
        forms.push(b);
    }
    forms
}

/// Once every opcode is bound and in `isa`: records the control fields the
/// templates write in `Isa::control_fields` and reports what nothing encodes.
pub fn finish(isa: &mut Isa, unbound: Unbound, diags: &mut Diagnostics) {
    for c in &unbound.controls {
        push_new(&mut isa.control_fields, c);
    }
    report_aggregate(isa, unbound.agg, diags);
}

/// What [`bind_opcode`] leaves for [`finish`]: problems, with the opcodes
/// they concern, and the control fields seen, each in the order met.
#[derive(Debug, Default)]
pub struct Unbound {
    agg: Aggregate,
    controls: Vec<String>,
}

impl Unbound {
    /// Appends what binding later opcodes left (`later` came after `self`).
    pub fn merge(&mut self, later: Unbound) {
        for (key, opcodes) in later.agg {
            let ops = self.agg.entry(key).or_default();
            for o in opcodes {
                if !ops.iter().any(|(n, _)| *n == o.0) {
                    ops.push(o);
                }
            }
        }
        for c in &later.controls {
            push_new(&mut self.controls, c);
        }
    }
}

/// Problems that depend on the opcode, reported once per place with the
/// opcodes they concern: (span, code, message, note) -> opcode names, each
/// with what the message adds for it ([`note_each`]).
type Aggregate = BTreeMap<(Option<crate::Span>, Code, String, Option<String>), Vec<(String, Option<String>)>>;

fn note(agg: &mut Aggregate, loc: &Loc, code: Code, msg: String, opcode: &str) {
    note_why(agg, loc, code, msg, None, opcode);
}

/// [`note`] with a note saying why (the same for every opcode it lists).
fn note_why(agg: &mut Aggregate, loc: &Loc, code: Code, msg: String, why: Option<String>, opcode: &str) {
    add(agg, (loc.span, code, msg, why), opcode, None);
}

/// [`note`] whose message ends with a part that depends on the opcode
/// (`(no `rb.neg`)`): one diagnostic for the place, the parts of all its
/// opcodes in it.
fn note_each(agg: &mut Aggregate, loc: &Loc, code: Code, msg: String, part: String, opcode: &str) {
    add(agg, (loc.span, code, msg, None), opcode, Some(part));
}

fn add(agg: &mut Aggregate, key: (Option<crate::Span>, Code, String, Option<String>), opcode: &str, part: Option<String>) {
    let list = agg.entry(key).or_default();
    if !list.iter().any(|(n, _)| n == opcode) {
        list.push((opcode.to_string(), part));
    }
}

/// Appends `name` to `list` unless it is there already (lists keep the order met).
fn push_new(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|n| n == name) {
        list.push(name.to_string());
    }
}

fn report_aggregate(isa: &Isa, agg: Aggregate, diags: &mut Diagnostics) {
    let count: BTreeMap<&str, usize> = isa
        .optypes
        .iter()
        .flat_map(|o| o.opcodes.iter().map(move |&oc| (isa.opcodes[oc].name.as_str(), o.opcodes.len())))
        .collect();
    for ((span, code, mut msg, why), entries) in agg {
        // The opcodes' own parts: once when they agree, else each with its opcodes.
        let mut parts: Vec<(&str, Vec<&str>)> = Vec::new();
        for (o, p) in &entries {
            let Some(p) = p else { continue };
            match parts.iter_mut().find(|(q, _)| q == p) {
                Some((_, os)) => os.push(o),
                None => parts.push((p, vec![o])),
            }
        }
        match parts.as_slice() {
            [] => {}
            [(p, _)] => msg = format!("{msg} ({p})"),
            many => msg = format!("{msg} ({})", many.iter().map(|(p, os)| format!("{p} in {}", os.join(", "))).collect::<Vec<_>>().join("; ")),
        }
        let named = parts.len() > 1;
        let opcodes: Vec<String> = entries.into_iter().map(|(o, _)| o).collect();
        let mut d = Diagnostic::new(code, span, msg);
        if let Some(why) = why {
            d = d.with_note(why);
        }
        // Only say which opcodes when it is not all of the optype's.
        let all = opcodes.first().and_then(|o| count.get(o.as_str())).is_some_and(|&n| n == opcodes.len());
        if !all && !named {
            d.opcodes = opcodes;
        }
        diags.push(d);
    }
}

fn enum_values(isa: &Isa, f: &Field) -> Vec<EnumValue> {
    match &isa.types[f.ty].kind {
        TypeKind::Enum { values } => values.clone(),
        _ => Vec::new(),
    }
}

/// Spellings a choice accepts: the value list's, mapped onto the field's enum.
fn choice_values(
    isa: &Isa,
    ot: usize,
    list_name: &str,
    field: &Field,
    mandatory: bool,
    op: &Opcode,
    agg: &mut Aggregate,
) -> Vec<ChoiceValue> {
    let values = enum_values(isa, field);
    let list = isa.optypes[ot].value_lists.iter().find(|l| l.name == list_name);
    let field_default = field.default_value();
    let Some(list) = list else {
        return values
            .iter()
            .filter(|v| !field.is_constant() || Some(v.encoding) == field_default)
            .map(|v| ChoiceValue { spelling: v.name.clone(), value: v.encoding, is_default: Some(v.encoding) == field_default })
            .collect();
    };
    let hooked = op.operands.asm_formats.iter().any(|a| a.operand == *field.name);
    let opcode = op.name.as_str();
    let matched: Vec<Option<&EnumValue>> =
        list.items.iter().map(|i| values.iter().find(|v| v.name == i.spelling)).collect();
    let positional = matched.iter().all(Option::is_none) && list.items.len() == values.len() && !hooked;
    let mut out = Vec::new();
    for (k, item) in list.items.iter().enumerate() {
        // Diagnostics about this one value point at it.
        let item_loc = Loc { span: item.span.or(list.loc.span), ..list.loc };
        let ev = if positional { values.get(k) } else { matched[k] };
        let Some(ev) = ev else {
            if !hooked {
                let names: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
                let near = isa_runtime::spelling::nearest(&item.spelling, names.iter().copied()).map(|n| format!("; did you mean `.{n}`?")).unwrap_or_default();
                note(
                    agg,
                    &item_loc,
                    Code::ValueListMismatch,
                    format!(
                        "`.{}` lists `.{}`, which is not a value of `{}` ({}){near}",
                        list.name,
                        item.spelling,
                        field.ty_name,
                        names.join(", ")
                    ),
                    opcode,
                );
            }
            continue;
        };
        if positional {
            note(
                agg,
                &list.loc,
                Code::ValueListMismatch,
                format!(
                    "`.{}` spells the values of `{}` differently; mapped by position: {}",
                    list.name,
                    field.ty_name,
                    list.items
                        .iter()
                        .zip(&values)
                        .map(|(i, v)| format!(".{} = {}", i.spelling, v.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                opcode,
            );
        }
        if field.is_constant() && Some(ev.encoding) != field_default {
            note(
                agg,
                &item_loc,
                Code::ValueListMismatch,
                format!(
                    "`.{}` cannot be encoded: field `{}` is the constant `{}` in this opcode",
                    item.spelling,
                    field.name,
                    field_default.and_then(|d| isa.types[field.ty].enum_name(d)).unwrap_or("?")
                ),
                opcode,
            );
            continue;
        }
        if item.is_default && Some(ev.encoding) != field_default {
            note(
                agg,
                &item_loc,
                Code::ValueListMismatch,
                format!(
                    "`.{}` is marked as the default, but field `{}` defaults to {}",
                    item.spelling,
                    field.name,
                    field_default.and_then(|d| isa.types[field.ty].enum_name(d)).unwrap_or("nothing")
                ),
                opcode,
            );
        }
        if item.is_default && mandatory {
            note(
                agg,
                &list.loc,
                Code::MandatoryWithDefault,
                format!("`.{}` is mandatory in the template but `.{}` is marked as its default", list.name, item.spelling),
                opcode,
            );
        }
        out.push(ChoiceValue { spelling: item.spelling.clone(), value: ev.encoding, is_default: item.is_default });
    }
    out
}

fn bind_form(
    isa: &Isa,
    ot: usize,
    op: &Opcode,
    fi: usize,
    form: &SyntaxForm,
    agg: &mut Aggregate,
) -> FormBinding {
    // The lexer reads at most `MAX_PARTS` dotted parts on a line (the
    // mnemonic's fixed ones among them).
    let max = isa_runtime::text::lex::MAX_PARTS;
    if form.modifiers.len() > max {
        let msg = format!(
            "this template has {} modifiers, but a line may write at most {max}: a line that writes more is refused, and a word that sets more disassembles to text that does not assemble",
            form.modifiers.len()
        );
        note(agg, &form.loc, Code::TooManyModifiers, msg, &op.name);
    }
    let mut bound: Vec<String> = Vec::new();
    let mut mnemonic = form.mnemonic.clone();
    let mut modifiers = Vec::new();
    let mut fixed = Vec::new();
    // Fields named by a choice modifier anywhere in the form are not candidates for flags.
    let named: Vec<&str> = form.modifiers.iter().map(|m| m.name.as_str()).collect();
    for m in &form.modifiers {
        let name = m.name.as_str();
        let field = op.field(name).filter(|f| isa.types[f.ty].is_enum());
        let has_list = isa.optypes[ot].value_lists.iter().any(|l| l.name == name);
        let binding = if let Some(f) = field {
            bound.push(f.name.to_string());
            let list_default = isa.optypes[ot].value_lists.iter().any(|l| l.name == name && l.items.iter().any(|i| i.is_default));
            if !m.optional && !list_default && matches!(f.value, FieldValue::Default(_)) {
                note(
                    agg,
                    &m.loc,
                    Code::MandatoryWithDefault,
                    format!("`.{name}` is mandatory in the template but field `{}` has a default (`{}`)", f.name, f.default_value().map_or(String::new(), |v| isa.types[f.ty].value_text(v))),
                    &op.name,
                );
            }
            if m.optional && !f.is_constant() && f.default_value().is_none() {
                let zero = isa.types[f.ty].enum_name(0).map_or("0".to_string(), |n| format!("`.{n}`"));
                let msg = format!("`.{name}` is optional, but field `{}` has no default: a line that leaves it out encodes 0 ({zero}), which the manual does not show as its default", f.name);
                note(agg, &m.loc, Code::OptionalWithoutDefault, msg, &op.name);
            }
            ModifierBinding::Choice {
                field: f.name.to_string(),
                optional: m.optional,
                values: choice_values(isa, ot, name, f, !m.optional, op, agg),
            }
        } else if let Some((f, v)) = op
            .fields
            .iter()
            // A name with a value list is a choice whose field is missing, not a value.
            .filter(|_| !has_list)
            .filter(|f| !bound.iter().any(|b| **b == *f.name) && !named.contains(&&*f.name))
            .filter(|f| !f.is_constant() || isa.types[f.ty].enum_value(name).map(|v| v.encoding) == f.default_value())
            .find_map(|f| isa.types[f.ty].enum_value(name).map(|v| (f, v.encoding)))
        {
            bound.push(f.name.to_string());
            if !m.optional {
                fixed.push(FieldSetting { field: f.name.to_string(), value: v });
            }
            ModifierBinding::Value { field: f.name.to_string(), spelling: name.to_string(), value: v, optional: m.optional }
        } else if !has_list && !m.optional && !name.chars().any(|c| c.is_ascii_lowercase()) {
            mnemonic.push('.');
            mnemonic.push_str(name);
            ModifierBinding::Mnemonic { text: name.to_string() }
        } else {
            note(
                agg,
                &m.loc,
                Code::UnboundModifier,
                {
                    // Its default may still be written: it is what the word means.
                    let default = isa.optypes[ot].value_lists.iter().filter(|l| l.name == name).flat_map(|l| &l.items).find(|i| i.is_default);
                    let only = default.map(|d| format!(" (only its default `.{}` may be written)", d.spelling)).unwrap_or_default();
                    // A lower-case name one edit from a field's (`.mdoe`): a typo.
                    let near = (name.chars().any(|c| c.is_ascii_lowercase()))
                        .then(|| isa_runtime::spelling::nearest(name, op.fields.iter().filter(|f| isa.types[f.ty].is_enum()).map(|f| &*f.name)))
                        .flatten()
                        .map(|n| format!("; did you mean `.{n}`?"))
                        .unwrap_or_default();
                    format!("modifier `.{name}` has no field to encode it{only}{near}")
                },
                &op.name,
            );
            ModifierBinding::Unbound { text: name.to_string() }
        };
        modifiers.push(binding);
    }
    // W031: a spelling an optional modifier shares with a later one goes to
    // the optional one when written (the first slot that takes it), so a
    // line cannot leave the optional one out and write the later one, and
    // a word with the optional one at its default disassembles to text that
    // assembles to other bits.
    let spellings = |b: &ModifierBinding| -> Vec<String> {
        match b {
            ModifierBinding::Choice { values, .. } => values.iter().map(|v| v.spelling.clone()).collect(),
            ModifierBinding::Value { spelling, .. } => vec![spelling.clone()],
            _ => Vec::new(),
        }
    };
    for (j, mj) in modifiers.iter().enumerate() {
        let later = spellings(mj);
        for (i, mi) in modifiers[..j].iter().enumerate() {
            let optional = matches!(mi, ModifierBinding::Choice { optional: true, .. } | ModifierBinding::Value { optional: true, .. });
            let shared: Vec<String> = spellings(mi).into_iter().filter(|s| later.contains(s)).map(|s| format!(".{s}")).collect();
            if optional && !shared.is_empty() {
                let (a, b) = (&form.modifiers[i].name, &form.modifiers[j].name);
                let msg = format!(
                    "`.{b}` shares {} with the optional `.{a}` before it: written alone, the spelling goes to `.{a}`, so a line cannot leave `.{a}` out and write `.{b}`, and such a word disassembles to text that assembles to other bits",
                    shared.join(" ")
                );
                note(agg, &form.modifiers[j].loc, Code::AmbiguousModifiers, msg, &op.name);
                break;
            }
        }
    }

    // Operands, aligned with Order<...> (minus the guard).
    let guard = isa.guard.as_deref();
    let order: Vec<&OperandRef> = op.operands.order.iter().filter(|r| Some(r.name.as_str()) != guard).collect();
    let mut claimed = vec![false; order.len()];
    // Which operand took each entry of `order`.
    let mut taker: Vec<Option<usize>> = vec![None; order.len()];
    let lower_names: Vec<String> = form.operands.iter().map(|o| o.name.to_ascii_lowercase()).collect();
    let mut pos = 0usize;
    let mut operands = Vec::new();
    // A swap in `Order` is said once, at its first entry (W034).
    let mut swapped = false;
    for (k, sop) in form.operands.iter().enumerate() {
        let mut b = OperandBinding::default();
        // Bound by position to a field of another slot (W034): what else it says is that slip's.
        let mut slip = false;
        match &sop.shape {
            OperandShape::Literal => {
                if let Some(i) = order.iter().position(|e| e.name == sop.name) {
                    claimed[i] = true;
                    taker[i] = Some(k);
                    pos = pos.max(i + 1);
                }
            }
            OperandShape::Indexed { .. } => {
                if let Some(i) = (0..order.len()).find(|&i| !claimed[i] && !order[i].index.is_empty()) {
                    claimed[i] = true;
                    taker[i] = Some(k);
                    pos = pos.max(i + 1);
                    b.index_fields = order[i].index.clone();
                }
            }
            OperandShape::Named => {
                let lname = &lower_names[k];
                let by_name = order.iter().enumerate().position(|(i, e)| !claimed[i] && e.name.to_ascii_lowercase() == *lname);
                let pick = by_name
                    .or_else(|| {
                        // A field whose type name prefixes the operand name.
                        (pos..order.len()).find(|&i| {
                            !claimed[i]
                                && op.field(&order[i].name).is_some_and(|f| sop.name.starts_with(&*f.ty_name))
                        })
                    })
                    .or_else(|| {
                        (pos..order.len()).find(|&i| {
                            !claimed[i]
                                && order[i].index.is_empty()
                                && !lower_names.contains(&order[i].name.to_ascii_lowercase())
                                && op.field(&order[i].name).is_some()
                        })
                    });
                // The same name twice (`Rd, -Rd`): the manual would print it
                // so; the second is bound by position.
                let twice = lower_names[..k].contains(lname);
                if let (true, Some(i)) = (twice, pick) {
                    let msg = format!("operand `{}` is written twice in this template; this one is bound by position to `{}`", sop.name, order[i].name);
                    note(agg, &sop.loc, Code::DuplicateOperand, msg, &op.name);
                }
                if let Some(i) = pick {
                    // Bound by position, but one letter from a field's
                    // name: most likely that field, misspelt. Names of two
                    // letters are all one letter apart, so for those only
                    // the field it is bound to counts, and only a letter
                    // replaced (`pv` bound to `pu`; `pc` bound to `upc` is
                    // a shared template naming the uniform form's field).
                    if by_name.is_none() && !twice && sop.name.len() >= 2 {
                        let near = order
                            .iter()
                            .map(|e| &e.name)
                            .filter(|n| sop.name.len() >= 3 || (**n == order[i].name && n.len() == sop.name.len()))
                            .find(|n| one_edit_apart(n, &sop.name));
                        if let Some(near) = near {
                            let to = &order[i].name;
                            let how = if near == to { "one letter from its name".to_string() } else { format!("though it is one letter from `{near}`") };
                            note(agg, &sop.loc, Code::MisspeltOperand, format!("operand `{}` names no field; bound by position to `{to}`, {how}", sop.name), &op.name);
                        }
                    }
                    // Named as a register of some file (`Ra`: prefix `R`, then
                    // lower case), bound by position to another kind of field:
                    // lines may write that kind there (`MOV.64 Rd, Ra` takes
                    // `c[..][..]` in MOV_C), which the name says they may not.
                    if by_name.is_none() {
                        if let Some((prefix, f)) = register_prefix(isa, &sop.name).zip(op.field(&order[i].name)) {
                            if !matches!(&isa.types[f.ty].kind, TypeKind::Register { prefix: p, .. } if *p == prefix) {
                                let msg = format!("operand `{}` is named as a register `{prefix}n`, but is bound by position to a field of another type, so lines may write other operands there", sop.name);
                                note(agg, &sop.loc, Code::RegisterNamedOperand, msg, &op.name);
                            }
                        }
                    }
                    // `SrcB` bound by position to a field of another slot
                    // (`rc`, `pp`: slots are the names' last letters, as the
                    // hooks' `vX` read them). Its decorations and default
                    // are then that field's, not worth saying; and when
                    // `Order` has a field of its own slot elsewhere
                    // (`Order<.., rc, rb>`), the two are swapped (W034).
                    // MOV's lone `SrcA` in slot b has none: not a slip.
                    let slot = sop.name.strip_prefix("Src").filter(|x| x.len() == 1 && x.bytes().all(|c| c.is_ascii_alphabetic())).map(|x| x.to_ascii_lowercase());
                    let to = &order[i].name;
                    if let (None, Some(x), Some(y)) = (by_name, slot, to.chars().last().filter(char::is_ascii_alphabetic)) {
                        slip = !x.starts_with(y);
                        let own = order.iter().find(|e| e.index.is_empty() && e.name != *to && e.name.ends_with(x.as_str()) && op.field(&e.name).is_some());
                        if let (true, false, Some(own)) = (slip, swapped, own) {
                            swapped = true;
                            let at = Loc { span: order[i].span.or(sop.loc.span), ..sop.loc };
                            let msg = format!("`Order` puts `{to}` where the template writes `{}`, so `{}` is bound to `{to}`, not to `{}`", sop.name, sop.name, own.name);
                            note(agg, &at, Code::OrderAgainstTemplate, msg, &op.name);
                        }
                    }
                    claimed[i] = true;
                    taker[i] = Some(k);
                    pos = i + 1;
                    b.field = Some(order[i].name.clone());
                } else if op.field(lname).is_some() {
                    if twice {
                        // Both set the one field: a line's first text is lost.
                        let msg = format!("operand `{}` is written twice in this template; both set field `{lname}`, so a line's later text overwrites the earlier", sop.name);
                        note(agg, &sop.loc, Code::DuplicateOperand, msg, &op.name);
                    }
                    b.field = Some(lname.clone());
                } else if sop.optional {
                    // Lines may leave it out: the form is still usable.
                    note(agg, &sop.loc, Code::UnboundOperand, format!("operand `{}` has no field to encode it", sop.name), &op.name);
                } else {
                    let why = why_unbound(op, &order, &claimed, &taker, pos, form);
                    let msg = format!("operand `{}` has no field to encode it, so no line can use this form", sop.name);
                    note_why(agg, &sop.loc, Code::UnassemblableForm, msg, Some(why), &op.name);
                }
            }
        }
        if let Some(f) = &b.field {
            // Left out, an operand whose field has no default encodes 0: a
            // real register (`R0`), not "none".
            if let Some(fd) = op.field(f).filter(|fd| sop.optional && !fd.is_constant() && fd.default_value().is_none()) {
                let zero = isa.types[fd.ty].value_text(0);
                let msg = format!("operand `{}` is optional, but field `{f}` has no default: a line that leaves it out encodes 0 (`{zero}`)", sop.name);
                note(agg, &sop.loc, Code::OptionalWithoutDefault, msg, &op.name);
            }
            // A default no line can use: the template asks for the operand.
            if let Some((fd, v)) = op.field(f).filter(|fd| !slip && !sop.optional && !fd.is_constant()).and_then(|fd| Some((fd, fd.default_value()?))) {
                let value = isa.types[fd.ty].value_text(v);
                let msg = format!("operand `{}` is mandatory in the template but its field has a default", sop.name);
                note_each(agg, &sop.loc, Code::MandatoryWithDefault, msg, format!("`{f}` = `{value}`"), &op.name);
            }
            bound.push(f.clone());
        }
        bound.extend(b.index_fields.iter().cloned());
        for d in sop.prefixes.iter().chain(&sop.suffixes) {
            let Some(base) = b.field.as_ref().filter(|_| !slip) else {
                b.decorations.push(None);
                continue;
            };
            let sub = match d.kind.sub_field() {
                Some(s) => s.to_string(),
                None => d.name.clone(),
            };
            let full = format!("{base}.{sub}");
            if let Some(f) = op.field(&full) {
                if d.kind == DecorationKind::Suffix && isa.types[f.ty].is_enum() {
                    // Checks the suffix's value list against the field's type.
                    choice_values(isa, ot, &d.name, f, !d.optional, op, agg);
                }
                bound.push(full.clone());
                b.decorations.push(Some(full));
            } else if d.optional
                && op.field(base).is_some_and(|f| matches!(isa.types[f.ty].kind, TypeKind::Int { .. } | TypeKind::Float { .. }))
            {
                // An immediate carries its own sign, and takes no abs or selector:
                // the decoration is simply not available in this operand form.
                b.decorations.push(None);
            } else {
                let what = match d.kind {
                    DecorationKind::Suffix => format!("suffix `.{}`", d.name),
                    _ => format!("prefix `{}`", d.name),
                };
                note_each(agg, &d.loc, Code::UnboundOperandDecoration, format!("{what} of operand `{}` has no field to encode it", sop.name), format!("no `{full}`"), &op.name);
                b.decorations.push(None);
            }
        }
        operands.push(b);
    }
    let mut controls = Vec::new();
    for (k, c) in form.controls.iter().enumerate() {
        if op.field(c).is_some() {
            // A field the ISA does not declare a control (`$ftz` for `$req`):
            // every instruction would then take `&ftz=`.
            if !isa.control_fields.is_empty() && !isa.control_fields.contains(c) {
                let at = form.control_locs.get(k).unwrap_or(&form.loc);
                let declared = isa.control_fields.join(", ");
                note(agg, at, Code::UndeclaredControl, format!("`${c}` is not a control the ISA declares ({declared}): every instruction would take `&{c}=`"), &op.name);
            }
            controls.push(c.clone());
        } else {
            let near = isa_runtime::spelling::nearest(c, isa.control_fields.iter().map(String::as_str)).map(|n| format!("; did you mean `${n}`?")).unwrap_or_default();
            let at = form.control_locs.get(k).unwrap_or(&form.loc);
            note(agg, at, Code::UnboundOperand, format!("control `${c}` has no field to encode it{near}"), &op.name);
        }
    }
    FormBinding { form: fi, mnemonic, modifiers, operands, fixed, controls }
}

/// Why a mandatory operand found no field: the `Order<...>` entries bound
/// so far, and the entry left behind, if any (`pos`: where binding by
/// position goes on; `taker`: the operand of `form` each entry went to).
fn why_unbound(op: &Opcode, order: &[&OperandRef], claimed: &[bool], taker: &[Option<usize>], pos: usize, form: &SyntaxForm) -> String {
    let shown = format!("`Order<{}>`", op.operands.order.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", "));
    if op.operands.order.is_empty() {
        if op.operands.order_span.is_some() {
            return format!("`Order<>` of `{}` is empty: the template's operands are bound to its entries", op.name);
        }
        return format!("`{}` has no `Order<...>`, whose entries the template's operands are bound to", op.name);
    }
    // An entry that names no field (a typo, W007) is the likelier cause than the order.
    if let Some(e) = order.iter().find(|e| e.index.is_empty() && op.field(&e.name).is_none() && !op.is_broken(&e.name)) {
        let near = isa_runtime::spelling::nearest(&e.name, op.fields.iter().map(|f| &*f.name)).map(|n| format!(" (did you mean `{n}`?)")).unwrap_or_default();
        return format!("{shown} names `{}`, which is no field of `{}`{near}", e.name, op.name);
    }
    let left: Vec<&str> = (0..order.len()).filter(|&i| !claimed[i] && order[i].index.is_empty() && op.field(&order[i].name).is_some()).map(|i| order[i].name.as_str()).collect();
    let took = |i: usize| taker[i].map(|k| format!("`{}` took `{}`", form.operands[k].name, order[i].name));
    match left.as_slice() {
        [] => {
            let all: Vec<String> = (0..order.len()).filter_map(took).collect();
            format!("every entry of {shown} is taken ({})", all.join(", "))
        }
        _ => {
            let last = pos.checked_sub(1).and_then(took).unwrap_or_default();
            let left = left.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
            format!("{shown} leaves {left}, but operands bound by position only take entries after the last one taken ({last}); does it list the fields in the template's order?")
        }
    }
}

/// The first field of `op` with no value and no default that form `b`
/// cannot set: a line of the form cannot be encoded (the assembler refuses
/// it, `check` warns W004, the manual says so under the form).
pub fn unset_free_field<'a>(isa: &Isa, op: &'a Opcode, b: &FormBinding) -> Option<&'a Field> {
    let settable = settable_fields(isa, op, b);
    op.fields.iter().find(|f| f.value == FieldValue::Free && !settable.iter().any(|s| **s == *f.name))
}

/// Fields a form can set (including the guard and control fields).
pub fn settable_fields(isa: &Isa, _op: &Opcode, b: &FormBinding) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(g) = &isa.guard {
        out.push(g.clone());
        out.push(format!("{g}.not"));
    }
    out.extend(isa.control_fields.iter().cloned());
    for m in &b.modifiers {
        match m {
            ModifierBinding::Value { field, .. } | ModifierBinding::Choice { field, .. } => out.push(field.clone()),
            _ => {}
        }
    }
    for o in &b.operands {
        out.extend(o.field.iter().cloned());
        out.extend(o.index_fields.iter().cloned());
        out.extend(o.decorations.iter().flatten().cloned());
    }
    out
}

/// The register prefix an operand's name is spelled with (`Ra`, `URb`: a
/// register file's prefix, then only lower-case letters), the longest
/// that fits; `None` for other names (`SrcB`, `pp`).
fn register_prefix(isa: &Isa, name: &str) -> Option<String> {
    isa.types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Register { prefix, .. } if !prefix.is_empty() => Some(prefix.as_str()),
            _ => None,
        })
        .filter(|p| name.strip_prefix(*p).is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase())))
        .max_by_key(|p| p.len())
        .map(str::to_string)
}
