//! The front end's checks, at three points of the pipeline: on the AST
//! (value lists written without dots, [`check_value_list_dots`]), per opcode
//! once it is resolved and before it is bound (expressions of exceptions and
//! `Bitwidth` naming unknown fields or values, directives naming operands
//! that do not exist, `AsmFormat` hooks: [`check_opcode`]), and over the
//! whole bound ISA (opcodes that can decode the same word, fields no syntax
//! can set, optypes without syntax or opcodes: [`check`]). Each check is a
//! small function pushing diagnostics.

use crate::ast;
use crate::bind::settable_fields;
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::expr::{BinOp, Expr, ExprKind, ExprType};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};

/// Runs the checks that need the whole IR.
pub fn check(isa: &Isa, diags: &mut Diagnostics) {
    check_missing_syntax(isa, diags);
    check_value_lists(isa, diags);
    check_ambiguous_decode(isa, diags);
    check_unsettable_fields(isa, diags);
}

/// Runs the checks of one opcode on its own (its optype and the types
/// aside): its expressions and its directives. A problem that many opcodes
/// inherit is reported by each; [`Diagnostics::sort`] keeps one.
/// `siblings` are the opcodes of its optype (it among them), resolved: a
/// field one of them lacks may be another's.
pub fn check_opcode(isa: &Isa, op: &Opcode, siblings: &[&Opcode], diags: &mut Diagnostics) {
    check_expressions(isa, op, siblings, diags);
    check_directives(isa, op, diags);
    check_guard_default(isa, op, diags);
    check_orphan_sub_fields(op, diags);
}

/// W038: a sub-field (`rbb.neg`) whose field (`rbb`) the opcode does not
/// have, most likely a typo of a sub-field it does (`rb.neg`).
fn check_orphan_sub_fields(op: &Opcode, diags: &mut Diagnostics) {
    for f in &op.fields {
        let Some((base, part)) = f.name.split_once('.') else { continue };
        if op.field(base).is_some() || op.is_broken(base) {
            continue;
        }
        let bases = op.fields.iter().filter(|g| !g.name.contains('.')).map(|g| &*g.name);
        let near = isa_runtime::spelling::nearest(base, bases).map_or_else(String::new, |n| format!(": did you mean `{n}.{part}`?"));
        let msg = format!("sub-field `{}` of `{base}`, a field the opcode does not have", f.name);
        diags.push(Diagnostic::new(Code::OrphanSubField, f.loc.span.or(op.loc.span), msg).with_label(format!("no field `{base}`{near}")).in_opcode(&op.name));
    }
}

/// W030: the ISA's guard field without a default. Every line without
/// `@P..` leaves it out, and would encode 0: `@P0`, not always.
fn check_guard_default(isa: &Isa, op: &Opcode, diags: &mut Diagnostics) {
    let Some(g) = isa.guard.as_deref().and_then(|g| op.field(g)) else { return };
    if !g.is_constant() && g.default_value().is_none() {
        let zero = isa.types[g.ty].value_text(0);
        let msg = format!("the guard field `{}` has no default: a line without `@..` encodes 0, a guard of `{zero}`", g.name);
        diags.push(Diagnostic::new(Code::OptionalWithoutDefault, g.loc.span.or(op.loc.span), msg).with_label("give it a default (`= PT`)"));
    }
}

fn span(loc: &Loc) -> Option<crate::Span> {
    loc.span
}

/// Value lists and their items must start with a dot (`.rnd = {.RN*}`),
/// and list no value twice: checks of what the IR does not keep, so they
/// run on the AST.
pub fn check_value_list_dots(files: &[ast::File], diags: &mut Diagnostics) {
    for s in files.iter().flat_map(|f| &f.decls).flat_map(|d| &d.sections) {
        for v in &s.value_lists {
            if v.missing_dot {
                diags.push(
                    Diagnostic::new(Code::ValueListMismatch, v.name.span, format!("value list `{}` lacks its leading dot", v.name.value))
                        .with_label(format!("write `.{}`", v.name.value)),
                );
            }
            for (k, i) in v.items.iter().enumerate() {
                if i.missing_dot {
                    diags.push(
                        Diagnostic::new(Code::ValueListMismatch, i.name.span, format!("value `{}` lacks its leading dot", i.name.value))
                            .with_label(format!("write `.{}`", i.name.value)),
                    );
                }
                // A value listed twice: a copy-paste slip, and (mapped by
                // position) the value it replaced has no spelling left.
                if let Some(first) = v.items[..k].iter().find(|j| j.name.value == i.name.value) {
                    let mut d = Diagnostic::new(Code::ValueListMismatch, i.name.span, format!("value `.{}` is listed twice in `.{}`", i.name.value, v.name.value))
                        .with_label("listed again here");
                    d.secondary.push(crate::diagnostic::Label { span: first.name.span, message: "first listed here".into() });
                    diags.push(d.with_note("was another value meant? The list spells one value fewer than it has entries"));
                }
            }
        }
    }
}

/// Value lists that name no modifier or suffix of the optype's templates
/// (a typo, or one left over), and a name listed twice (the first list is
/// the one used): both used to pass silently.
fn check_value_lists(isa: &Isa, diags: &mut Diagnostics) {
    for ot in &isa.optypes {
        let used: BTreeSet<&str> = ot
            .syntax
            .iter()
            .flat_map(|f| f.modifiers.iter().map(|m| m.name.as_str()).chain(f.operands.iter().flat_map(|o| o.suffixes.iter().map(|d| d.name.as_str()))))
            .collect();
        for (k, l) in ot.value_lists.iter().enumerate() {
            if let Some(first) = ot.value_lists[..k].iter().find(|f| f.name == l.name) {
                let mut d = Diagnostic::new(Code::ValueListMismatch, span(&l.loc), format!("`.{}` is listed twice; the first list is the one used", l.name));
                if let Some(s) = span(&first.loc) {
                    d = d.with_secondary(s, "first listed here");
                }
                diags.push(d);
            } else if !ot.syntax.is_empty() && !used.contains(l.name.as_str()) {
                let mut d = Diagnostic::new(Code::ValueListMismatch, span(&l.loc), format!("`.{}` names no modifier or suffix of `{}`'s templates", l.name, ot.name));
                if let Some(n) = isa_runtime::spelling::nearest(&l.name, used.iter().copied()) {
                    // The template's spelling names no field (`.mdoe`) while
                    // this list's does (`.mode`): the typo is the template's.
                    let fields = || ot.opcodes.iter().map(|&oc| &isa.opcodes[oc]);
                    let typo_in_template = fields().any(|op| op.field(&l.name).is_some()) && !fields().any(|op| op.field(n).is_some());
                    d = d.with_label(if typo_in_template {
                        format!("the template writes `.{n}`, which names no field: a typo of `.{}`?", l.name)
                    } else {
                        format!("did you mean `.{n}`?")
                    });
                }
                diags.push(d);
            }
        }
    }
}

fn check_missing_syntax(isa: &Isa, diags: &mut Diagnostics) {
    for ot in &isa.optypes {
        if ot.syntax.is_empty() && ot.broken_templates == 0 {
            diags.push(
                Diagnostic::new(Code::MissingSyntax, span(&ot.loc), format!("optype `{}` has no `__Syntax`", ot.name))
                    .with_note("it cannot be assembled or disassembled"),
            );
        }
        if ot.opcodes.is_empty() {
            diags.push(Diagnostic::new(Code::NoOpcodes, span(&ot.loc), format!("optype `{}` has no opcodes", ot.name)));
        }
    }
}

/// Whether opcodes `x` and `y` fix a field of theirs (the same bits) to an
/// encoding that two values of its type share (E036, reported): they may
/// have named different values, so their collision is that error's.
fn same_duplicated_constant(isa: &Isa, x: &Opcode, y: &Opcode) -> bool {
    x.fields.iter().filter(|f| f.is_constant()).any(|f| {
        let (FieldValue::Constant(v), Some(g)) = (f.value, y.field(&f.name)) else { return false };
        let TypeKind::Enum { values } = &isa.types[f.ty].kind else { return false };
        g.value == f.value && g.start == f.start && g.width == f.width && values.iter().filter(|e| e.encoding == v).count() > 1
    })
}

/// Two opcodes whose constant bits agree wherever both are constant can both
/// claim the same word.
fn check_ambiguous_decode(isa: &Isa, diags: &mut Diagnostics) {
    // Bucket by the bits every opcode fixes, so the common case is not quadratic.
    // An opcode with a field that did not resolve (reported) may lack a
    // constant: its collisions would bury that error under dozens.
    let whole = || isa.opcodes.iter().enumerate().filter(|(_, o)| o.is_whole());
    let common = whole().fold(u128::MAX, |m, (_, o)| m & o.fixed_mask);
    let mut buckets: BTreeMap<u128, Vec<usize>> = BTreeMap::new();
    for (i, o) in whole() {
        buckets.entry(o.fixed_bits & common).or_default().push(i);
    }
    // Colliding pairs of opcodes, gathered by their pair of optypes: one
    // mistake (an optype constant copied or left out) collides every
    // opcode of one optype with those of another, or of many.
    let mut by_optypes: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
    for ids in buckets.values() {
        for (k, &a) in ids.iter().enumerate() {
            for &b in &ids[..k] {
                let (x, y) = (&isa.opcodes[a], &isa.opcodes[b]);
                if (x.fixed_bits ^ y.fixed_bits) & x.fixed_mask & y.fixed_mask == 0 && !same_duplicated_constant(isa, x, y) {
                    by_optypes.entry((x.optype.min(y.optype), x.optype.max(y.optype))).or_default().push((b, a));
                }
            }
        }
    }
    // An optype that collides with three or more others is said once.
    let mut partners: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for &(s, t) in by_optypes.keys().filter(|(s, t)| s != t) {
        partners.entry(s).or_default().insert(t);
        partners.entry(t).or_default().insert(s);
    }
    let wide: BTreeSet<usize> = partners.iter().filter(|(_, p)| p.len() >= 3).map(|(&t, _)| t).collect();
    for &t in &wide {
        let ot = &isa.optypes[t];
        let others: Vec<&str> = partners[&t].iter().map(|&u| isa.optypes[u].name.as_str()).collect();
        let pairs: usize = by_optypes.iter().filter(|((s, u), _)| (*s == t || *u == t) && s != u).map(|(_, v)| v.len()).sum();
        let mask = isa.opcodes.iter().filter(|o| o.optype == t && o.is_whole()).fold(u128::MAX, |m, o| m & o.fixed_mask);
        let msg = format!("opcodes of `{}` can decode the same words as those of {} other optypes ({pairs} pairs)", ot.name, others.len());
        let d = match default_naming_its_optype(isa, t) {
            Some(f) => Diagnostic::new(Code::AmbiguousDecode, f.loc.span.or(span(&ot.loc)), msg)
                .with_label(format!("a default, not a constant: did you mean `{} == {}`?", f.name, ot.name)),
            None => Diagnostic::new(Code::AmbiguousDecode, span(&ot.loc), msg),
        };
        let d = d
            .with_note(format!("they collide with {}", others.join(", ")))
            .with_note(format!("every opcode of `{}` fixes the bits of word & {mask:#x}: does `{}` lack a constant of its own (its `optype == ...`)?", ot.name, ot.name));
        diags.push(d);
    }
    for ((s, t), pairs) in &by_optypes {
        if s != t && (wide.contains(s) || wide.contains(t)) {
            continue;
        }
        let &(b, a) = &pairs[0];
        let (x, y) = (&isa.opcodes[a], &isa.opcodes[b]);
        let both = x.fixed_mask & y.fixed_mask;
        let message = match pairs.len() {
            1 => format!("opcodes `{}` and `{}` can decode the same word", y.name, x.name),
            n => format!(
                "opcodes `{}` and `{}` can decode the same word, and {} more pair{} of `{}` and `{}`",
                y.name,
                x.name,
                n - 1,
                if n == 2 { "" } else { "s" },
                isa.optypes[*s].name,
                isa.optypes[*t].name
            ),
        };
        let mut d = Diagnostic::new(Code::AmbiguousDecode, span(&x.loc), message)
            .with_note(format!("their constant fields agree on every bit both fix (word & {:#x} == {:#x})", both, x.fixed_bits & both));
        if pairs.len() > 1 {
            let listed: Vec<String> = pairs.iter().skip(1).map(|&(b, a)| format!("`{}`/`{}`", isa.opcodes[b].name, isa.opcodes[a].name)).collect();
            d = d.with_note(format!("also {}", listed.join(", ")));
        }
        if let Some(s) = span(&y.loc) {
            d = d.with_secondary(s, format!("`{}` is declared here", y.name));
        }
        for ot in BTreeSet::from([x.optype, y.optype]) {
            if let Some(f) = default_naming_its_optype(isa, ot).and_then(|f| f.loc.span.map(|s| (f, s))) {
                d = d.with_secondary(f.1, format!("a default, not a constant: did you mean `{} == {}`?", f.0.name, isa.optypes[ot].name));
            }
        }
        // The constants each opcode writes, and each optype when they
        // differ: the lines to change.
        let mut labelled = BTreeSet::new();
        for o in [y, x] {
            let optype = &isa.optypes[o.optype].name;
            let own = |f: &Field| *f.declared_in == *o.name || (x.optype != y.optype && *f.declared_in == **optype);
            for f in o.fields.iter().filter(|f| f.is_constant() && own(f) && f.mask() & both != 0) {
                if let Some(s) = span(&f.loc).filter(|s| labelled.insert(*s)) {
                    d = d.with_secondary(s, format!("`{}` fixes `{}` here", if *f.declared_in == *o.name { &o.name } else { optype }, f.name));
                }
            }
        }
        diags.push(d);
    }
}

/// A field of optype `ot` (declared there) whose default is the optype's
/// own name (`optype = IADD`): a constant (`==`) was meant.
fn default_naming_its_optype(isa: &Isa, ot: usize) -> Option<&Field> {
    let name = &isa.optypes[ot].name;
    isa.opcodes.iter().filter(|o| o.optype == ot).flat_map(|o| &o.fields).find(|f| {
        !f.is_constant() && &*f.declared_in == name && f.default_value().is_some_and(|v| isa.types[f.ty].value_text(v) == *name)
    })
}

/// Fields with no constant value that none of the optype's syntax forms can set.
fn check_unsettable_fields(isa: &Isa, diags: &mut Diagnostics) {
    // field span -> (field name, opcodes)
    let mut unsettable: BTreeMap<(Option<crate::Span>, String), Vec<String>> = BTreeMap::new();
    let mut required: BTreeMap<(Option<crate::Span>, String), Vec<String>> = BTreeMap::new();
    // An opcode with a field that did not resolve (reported) leaves that
    // operand's prefix fields unsettable only because of it.
    for op in isa.opcodes.iter().filter(|op| op.is_whole()) {
        if isa.optypes[op.optype].syntax.is_empty() {
            continue; // reported as W008
        }
        // A form no line can use (E028) leaves its fields unset only because of that.
        if op.has_unusable_form(isa) {
            continue;
        }
        let per_form: Vec<Vec<String>> = op.forms.iter().map(|b| settable_fields(isa, op, b)).collect();
        let any: BTreeSet<&str> = per_form.iter().flatten().map(|s| s.as_str()).collect();
        for f in &op.fields {
            if f.is_constant() {
                continue;
            }
            if !any.contains(&*f.name) {
                unsettable.entry((span(&f.loc), f.name.to_string())).or_default().push(op.name.clone());
            } else if f.value == FieldValue::Free {
                for (b, set) in op.forms.iter().zip(&per_form) {
                    if !set.iter().any(|s| **s == *f.name) {
                        let form = &isa.optypes[op.optype].syntax[b.form];
                        required.entry((span(&form.loc), f.name.to_string())).or_default().push(op.name.clone());
                    }
                }
            }
        }
    }
    for ((s, name), ops) in unsettable {
        diags.push(
            Diagnostic::new(Code::UnsettableField, s, format!("no syntax form can set field `{name}`"))
                .with_note(format!("in {}", ops.join(", "))),
        );
    }
    for ((s, name), ops) in required {
        diags.push(
            Diagnostic::new(
                Code::UnsettableField,
                s,
                format!("this form cannot set field `{name}`, which has no default: no line can use it, and its words disassemble as `.word` (W026)"),
            )
            .with_note(format!("in {}", ops.join(", "))),
        );
    }
}

/// Field lookup for expression checking.
struct Scope<'a> {
    isa: &'a Isa,
    op: &'a Opcode,
    /// The opcodes of `op`'s optype.
    siblings: &'a [&'a Opcode],
}

impl Scope<'_> {
    /// Types an expression, reporting unknown fields and values.
    fn ty(&self, e: &Expr, diags: &mut Diagnostics) -> Option<ExprType> {
        Some(match &e.kind {
            ExprKind::Int(_) => ExprType::Int,
            ExprKind::Str(_) => ExprType::Value,
            ExprKind::Bool(_) => ExprType::Bool,
            ExprKind::Field(name) => {
                if self.op.is_broken(name) {
                    return None;
                }
                if self.op.field(name).is_none() {
                    let mut d = Diagnostic::new(
                        Code::UndefinedField,
                        e.span,
                        format!("`{name}` is not a field"),
                    )
                    .in_opcode(&self.op.name);
                    // A value written bare (`sat == SAT`) is no misspelt field.
                    let value_of = self.op.fields.iter().find(|f| match &self.isa.types[f.ty].kind {
                        TypeKind::Enum { values } => values.iter().any(|v| v.name == **name),
                        TypeKind::Register { constants, .. } => constants.iter().any(|c| c.name == **name),
                        _ => false,
                    });
                    // A rule inherited from the optype, about a field of only some of its opcodes.
                    let owners: Vec<&str> = self.siblings.iter().filter(|o| o.field(name).is_some()).map(|o| &*o.name).collect();
                    if let Some(f) = value_of {
                        d = d.with_label(format!("`{name}` is a value of `{}`: values are quoted, `\"{name}\"`", f.name));
                    } else if !owners.is_empty() {
                        d = d.with_label(format!(
                            "only {} {} `{name}`, and this rule applies to every opcode of the optype: move it to {}",
                            owners.join(", "),
                            if owners.len() == 1 { "has" } else { "have" },
                            if owners.len() == 1 { "that opcode" } else { "those opcodes" }
                        ));
                    } else if let Some(n) = isa_runtime::spelling::nearest(name, self.op.fields.iter().map(|f| &*f.name)) {
                        d = d.with_label(format!("did you mean `{n}`?"));
                    }
                    diags.push(d);
                    return None;
                }
                ExprType::Value
            }
            ExprKind::Not(inner) => {
                if self.ty(inner, diags)? == ExprType::Int {
                    diags.push(
                        Diagnostic::new(Code::TypeMismatch, inner.span, "`!` needs a condition here, not a number")
                            .with_label("a number other than 0 always holds, and 0 never does: compare a field with it"),
                    );
                }
                ExprType::Bool
            }
            ExprKind::Binary(op, a, b) => {
                let ta = self.ty(a, diags);
                let tb = self.ty(b, diags);
                let (ta, tb) = (ta?, tb?);
                match op {
                    BinOp::Eq | BinOp::Ne => {
                        self.check_comparison(a, b, diags);
                        self.check_comparison(b, a, diags);
                        self.check_field_types(a, b, diags);
                        ExprType::Bool
                    }
                    BinOp::Or | BinOp::And => {
                        for (t, x) in [(ta, a), (tb, b)] {
                            if t == ExprType::Value && !matches!(x.kind, ExprKind::Field(_)) {
                                diags.push(Diagnostic::new(
                                    Code::TypeMismatch,
                                    x.span,
                                    format!("`{}` needs a condition here", op.symbol()),
                                ));
                            } else if t == ExprType::Int {
                                // `... or 1` makes the whole rule always hold (`and 0`: never).
                                diags.push(
                                    Diagnostic::new(Code::TypeMismatch, x.span, format!("`{}` needs a condition here, not a number", op.symbol()))
                                        .with_label("a number other than 0 always holds, and 0 never does: compare a field with it"),
                                );
                            }
                        }
                        ExprType::Bool
                    }
                    BinOp::Add | BinOp::Sub | BinOp::Mul => {
                        for x in [a, b] {
                            if matches!(x.kind, ExprKind::Str(_)) {
                                diags.push(Diagnostic::new(
                                    Code::TypeMismatch,
                                    x.span,
                                    format!("`{}` needs a number, not a string", op.symbol()),
                                ));
                            }
                        }
                        ExprType::Int
                    }
                }
            }
        })
    }

    /// `field == other`: two fields of different enum types compare their
    /// encodings, which mean nothing to each other (`ftz == sat`).
    fn check_field_types(&self, a: &Expr, b: &Expr, diags: &mut Diagnostics) {
        let (ExprKind::Field(f), ExprKind::Field(g)) = (&a.kind, &b.kind) else { return };
        let (Some(x), Some(y)) = (self.op.field(f), self.op.field(g)) else { return };
        let enum_type = |t: TypeId| matches!(self.isa.types[t].kind, TypeKind::Enum { .. }).then(|| &self.isa.types[t].name);
        if let (Some(tx), Some(ty)) = (enum_type(x.ty), enum_type(y.ty)) {
            if tx != ty {
                let msg = format!("`{f}` (type `{tx}`) and `{g}` (type `{ty}`) are of different enum types: their encodings do not compare");
                let span = match (a.span, b.span) {
                    (Some(s), Some(e)) if s.file == e.file => Some(crate::Span::new(s.file, s.start as usize, e.end as usize)),
                    (s, e) => s.or(e),
                };
                diags.push(Diagnostic::new(Code::TypeMismatch, span, msg).with_label(format!("compare each with a value of its type (`{f} == \"...\"`)")));
            }
        }
    }

    /// `field == "VALUE"`: VALUE must be a value of the field's type;
    /// `field == N`: N must fit the field's bits (a comparison of the raw
    /// bits with a number they cannot hold never holds, and the rule that
    /// says so would never fire).
    fn check_comparison(&self, field: &Expr, value: &Expr, diags: &mut Diagnostics) {
        if let (ExprKind::Field(f), ExprKind::Int(n)) = (&field.kind, &value.kind) {
            let Some(fd) = self.op.field(f) else { return };
            let max = if fd.width >= 64 { u64::MAX } else { (1u64 << fd.width) - 1 };
            if *n < 0 || *n as u64 > max || (*n == i64::MAX && fd.width < 64) {
                let number = if *n == i64::MAX { "this number".to_string() } else { format!("`{n}`") };
                diags.push(
                    Diagnostic::new(Code::ValueTooWide, value.span, format!("{number} does not fit field `{f}` ({} bits, 0..={max}): `{f}` never equals it", fd.width))
                        .with_label("out of the field's range"),
                );
            }
            return;
        }
        let (ExprKind::Field(f), ExprKind::Str(v)) = (&field.kind, &value.kind) else { return };
        let Some(fd) = self.op.field(f) else { return };
        let t = &self.isa.types[fd.ty];
        let ok = match &t.kind {
            TypeKind::Enum { .. } => t.enum_value(v).is_some(),
            _ => crate::resolve::encode_literal(t, v).is_some(),
        };
        if !ok {
            let mut d = Diagnostic::new(
                Code::UnknownValue,
                value.span,
                format!("`{v}` is not a value of `{f}` (type `{}`)", t.name),
            );
            if let TypeKind::Enum { values } = &t.kind {
                if let Some(n) = isa_runtime::spelling::nearest(v, values.iter().map(|x| x.name.as_str())) {
                    d = d.with_label(format!("did you mean `{n}`?"));
                }
            }
            diags.push(d);
        }
    }
}

fn check_expressions(isa: &Isa, op: &Opcode, siblings: &[&Opcode], diags: &mut Diagnostics) {
    let scope = Scope { isa, op, siblings };
    for e in &op.exceptions {
        check_exception_message(isa, op, e, diags);
        if let Some(t) = scope.ty(&e.condition, diags) {
            if t == ExprType::Int || matches!(e.condition.kind, ExprKind::Str(_)) {
                diags.push(Diagnostic::new(
                    Code::TypeMismatch,
                    e.condition.span,
                    "an exception condition must be a comparison or a logical expression",
                ));
            }
        }
    }
    for b in &op.operands.bitwidths {
        if let Some(ExprType::Bool) = scope.ty(&b.expr, diags) {
            if !matches!(b.expr.kind, ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..)) {
                diags.push(Diagnostic::new(Code::TypeMismatch, b.expr.span, "a bit width must be a number"));
            }
        }
    }
}

/// W036: a rule's message that says `name=VALUE` of a name no field has,
/// while the rule tests another field for that value (F2I's "with
/// srctype=F32" for `ftype == "F32"`): a refused line is reported with a
/// name the user cannot find.
fn check_exception_message(isa: &Isa, op: &Opcode, e: &Exception, diags: &mut Diagnostics) {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let tested = e.condition.comparisons();
    // Names a line may write: fields (any case), and the templates' modifiers and suffixes (`hsel`).
    let syntax = &isa.optypes[op.optype].syntax;
    let known = |n: &str| {
        op.fields.iter().any(|f| f.name.eq_ignore_ascii_case(n))
            || op.is_broken(n)
            || syntax.iter().any(|f| f.modifiers.iter().any(|m| m.name == n) || f.operands.iter().any(|o| o.suffixes.iter().any(|s| s.name == n)))
    };
    let m = e.message.as_str();
    // Each `name=VALUE` (or `==`, spaces, quotes around the value): where the
    // name starts and the value ends, to quote it as written.
    let mut at = 0;
    while let Some(k) = m[at..].find('=').map(|k| at + k) {
        let eq_end = k + m[k..].bytes().take_while(|&c| c == b'=').count();
        at = eq_end;
        let before = m[..k].trim_end();
        let name = before.rsplit(|c: char| !word(c)).next().unwrap_or_default().trim_matches('.');
        let after = m[eq_end..].trim_start();
        let quoted = after.starts_with(['"', '\'', '`']);
        let value = after.trim_start_matches(['"', '\'', '`']).split(|c: char| !word(c)).next().unwrap_or_default().trim_end_matches('.');
        if name.is_empty() || value.is_empty() || known(name) {
            continue;
        }
        let Some((field, v, _)) = tested.iter().find(|(_, v, _)| v.eq_ignore_ascii_case(value)) else { continue };
        let start = before.len() - name.len() - (before.len() - before.trim_end_matches('.').len());
        let end = m.len() - after.len() + quoted as usize * 2 + value.len();
        let said = m.get(start..end.min(m.len())).unwrap_or(name);
        // At the words in the message (when it is written as read: no escapes), else at the rule.
        let at = match e.message_span {
            Some(s) if s.end as usize - s.start as usize == m.len() + 2 && end <= m.len() => Some(s.sub(1 + start, 1 + end)),
            other => other.or(e.loc.span),
        };
        diags.push(
            Diagnostic::new(Code::MessageNamesNoField, at, format!("the message says `{said}`, but the rule tests `{field} == \"{v}\"`: no field is named `{name}`"))
                .with_note(format!("in {}; a refused line is reported with this message", op.name)),
        );
    }
}

/// Names in InList/OutList/Order/Bitwidth/AsmFormat/ModiOrder must be fields
/// (or fixed text of the syntax, such as `PR`), none listed twice in one list (W029).
fn check_directives(isa: &Isa, op: &Opcode, diags: &mut Diagnostics) {
    {
        let info = &op.operands;
        // W029: a name twice in one list (`Order<rd, rb, rb>`) is a typo for another.
        let mut twice = |names: Vec<(&str, Option<crate::Span>)>, what: &str| {
            for (k, (n, at)) in names.iter().enumerate() {
                if names[..k].iter().any(|(m, _)| m == n) {
                    diags.push(Diagnostic::new(Code::ListedTwice, at.or(op.loc.span), format!("{what} lists `{n}` twice")).with_label("already listed"));
                }
            }
        };
        for (list, what) in [(&info.inputs, "InList"), (&info.outputs, "OutList"), (&info.order, "Order")] {
            twice(list.iter().map(|r| (r.name.as_str(), r.span)).collect(), what);
        }
        twice(info.modi_order.iter().map(|m| (m.name.as_str(), m.span)).collect(), "ModiOrder");
    }
    let ot = &isa.optypes[op.optype];
    let literal = |n: &str| {
        ot.syntax.iter().flat_map(|f| &f.operands).any(|o| matches!(o.shape, OperandShape::Literal) && o.name == n)
    };
    let indexed_base = |n: &str| {
        ot.syntax.iter().flat_map(|f| &f.operands).any(|o| matches!(&o.shape, OperandShape::Indexed { base, .. } if base == n))
    };
    let mut check = |name: &str, at: Option<crate::Span>, what: &str, indexed: bool| {
        let ok = op.field(name).is_some() || op.is_broken(name) || literal(name) || (indexed && indexed_base(name));
        if !ok {
            let msg = format!("{what} names `{name}`, which is not a field of this opcode");
            let mut d = Diagnostic::new(Code::UnknownDirectiveOperand, at.or(op.loc.span), msg);
            // Two-letter names are all one letter apart (`rb`, `rd`): no guess for those.
            if let Some(n) = isa_runtime::spelling::nearest(name, op.fields.iter().map(|f| &*f.name)).filter(|_| name.len() >= 3) {
                d = d.with_note(format!("did you mean `{n}`?"));
            }
            diags.push(d);
        }
    };
    let info = &op.operands;
    for (list, what) in [(&info.inputs, "InList"), (&info.outputs, "OutList"), (&info.order, "Order")] {
        for r in list {
            check(&r.name, r.span, what, !r.index.is_empty());
            for i in &r.index {
                check(i, r.span, what, false);
            }
        }
    }
    for b in &info.bitwidths {
        check(&b.operand, b.span, "Bitwidth", false);
    }
    for a in &info.asm_formats {
        // The deciding field (`Hook(x, by)`) is `check_asm_hook`'s: an error there.
        for (k, x) in std::iter::once(&a.operand).chain(&a.args).enumerate().filter(|(k, _)| *k != 2 || asm_hook(&a.function).is_none()) {
            check(x, a.spans.get(k).copied(), "AsmFormat", false);
        }
    }
    for m in &info.modi_order {
        check(&m.name, m.span, "ModiOrder", false);
    }
    for a in &info.asm_formats {
        check_asm_hook(isa, op, a, diags);
    }
}

/// W007: an `Order<...>` entry that no operand of any template takes (a
/// modifier's field listed with the operands, `Order<pg, rd, ra, rb, ftz>`):
/// the simulator would read it as an operand. Runs once the opcode's forms
/// are bound. The guard, which no template writes, is not counted; nor an
/// opcode with a form no line can use (E028 says what its `Order` left).
pub fn check_order_bound(isa: &Isa, op: &Opcode, diags: &mut Diagnostics) {
    // A form no line can use (E028) already says which entry it left; with
    // no `__DefIsa` (E038), the guard, listed in every `Order`, is unknown.
    if op.forms.is_empty() || op.has_unusable_form(isa) || isa.no_isa {
        return;
    }
    for r in &op.operands.order {
        if isa.guard.as_deref() == Some(r.name.as_str()) || !op.order_entry_untaken(isa, &r.name) {
            continue;
        }
        let templates = if isa.optypes[op.optype].syntax.len() == 1 { "the template" } else { "any template" };
        let msg = format!("`Order` names `{}`, which no operand of {templates} takes", r.name);
        diags.push(Diagnostic::new(Code::UnknownDirectiveOperand, r.span.or(op.loc.span), msg).with_note(format!("in {}; it is read as the field it is, not as an operand", op.name)));
    }
    // W034: two operands a template writes one way round and `Order` the
    // other (`Order<pg, pu, rd, ...>` for `Rd{, pu}`): a copy-paste slip.
    // `Order` is the operands' declared order (the hooks' slots, the
    // manual); the template binds by name, so nothing else shows it.
    let position = |field: &str| op.operands.order.iter().position(|r| r.index.is_empty() && r.name == field);
    for b in &op.forms {
        let form = &isa.optypes[op.optype].syntax[b.form];
        let written: Vec<(usize, &str)> = b.operands.iter().zip(&form.operands).filter_map(|(o, s)| Some((position(o.field.as_deref()?)?, s.name.as_str()))).collect();
        // The two the other way round that lie farthest apart in the
        // template: a swap of `rd` and `ra` across `pu` is that pair, not
        // `rd` and `pu` (first of equals).
        let mut worst: Option<(usize, usize)> = None;
        for i in 0..written.len() {
            for j in i + 1..written.len() {
                if written[i].0 > written[j].0 && worst.is_none_or(|(a, b)| j - i > b - a) {
                    worst = Some((i, j));
                }
            }
        }
        let Some((i, j)) = worst else { continue };
        let ((later, first), (earlier, second)) = (written[i], written[j]);
        let order = &op.operands.order;
        let msg = format!("`Order` lists `{}` before `{}`, but the template writes `{first}` before `{second}`", order[earlier].name, order[later].name);
        let mut d = Diagnostic::new(Code::OrderAgainstTemplate, order[earlier].span.or(op.loc.span), msg).with_note(format!("in {}", op.name));
        if let Some(s) = form.loc.span {
            d = d.with_secondary(s, "the template");
        }
        diags.push(d);
        return;
    }
}

/// An `AsmFormat` must name a hook of the language, as `Hook(x, by)`, and the
/// values of `by` must declare what the hook reads from them: a hook that
/// found nothing would silently spell the field another way.
fn check_asm_hook(isa: &Isa, op: &Opcode, a: &AsmFormat, diags: &mut Diagnostics) {
    let at = a.function_span.or(op.loc.span);
    let Some(hook) = asm_hook(&a.function) else {
        let names = ASM_FORMAT_HOOKS.iter().map(|h| h.name);
        let mut d = Diagnostic::new(Code::BadAsmHook, at, format!("unknown AsmFormat hook `{}`", a.function));
        match isa_runtime::spelling::nearest(&a.function, names.clone()) {
            Some(n) => d = d.with_label(format!("did you mean `{n}`?")),
            None => d = d.with_label("not a hook of the language"),
        }
        let list: Vec<String> = names.map(|n| format!("`{n}`")).collect();
        diags.push(d.with_note(format!("the hooks are {}", list.join(", "))));
        return;
    };
    let [_, by] = a.args.as_slice() else {
        diags.push(
            Diagnostic::new(Code::BadAsmHook, at, format!("`{}` takes two arguments, not {}", hook.name, a.args.len()))
                .with_label(format!("write `{}({}, field)`", hook.name, a.operand)),
        );
        return;
    };
    let by_at = a.spans.get(2).copied().or(at);
    let Some(f) = op.field(by) else {
        // A hook decided by nothing would silently do nothing.
        if !op.is_broken(by) {
            diags.push(
                Diagnostic::new(Code::BadAsmHook, by_at, format!("`{}` is decided by `{by}`, which is not a field of this opcode", hook.name))
                    .with_label("expected a field"),
            );
        }
        return;
    };
    let ty = &isa.types[f.ty];
    let TypeKind::Enum { values } = &ty.kind else {
        diags.push(
            Diagnostic::new(Code::BadAsmHook, by_at, format!("`{}` is decided by `{by}`, whose type `{}` has no named values", hook.name, ty.name))
                .with_label("expected a field of a bit-field type"),
        );
        return;
    };
    let (missing, example): (Vec<&str>, &str) = match hook.needs {
        HookNeeds::Value(v) if values.iter().any(|x| x.name == v) => return,
        HookNeeds::Value(v) => {
            diags.push(
                Diagnostic::new(Code::BadAsmHook, by_at, format!("`{}` tests `{by}` for the value `{v}`, which `{}` does not have", hook.name, ty.name))
                    .with_label(format!("`{by}` is a `{}`", ty.name)),
            );
            return;
        }
        // Values without a layout keep the operand type's own format, so one
        // is enough; each must split the immediate into whole lanes.
        HookNeeds::Float if values.iter().any(|v| v.format.and_then(|f| f.float).is_some()) => {
            let x = a.args.first().and_then(|x| op.field(x));
            if let Some(x) = x.filter(|x| matches!(isa.types[x.ty].kind, TypeKind::Float { .. })) {
                for v in values {
                    let Some(l) = v.format.and_then(|f| f.float) else { continue };
                    let bits = 1 + l.exponent + l.mantissa;
                    if x.width % bits != 0 {
                        diags.push(
                            Diagnostic::new(Code::BadAsmHook, by_at, format!("`{}` of `{}` is a {bits}-bit float, which does not split the {}-bit `{}` into whole lanes", v.name, ty.name, x.width, x.name))
                                .with_label(format!("`{by}` is a `{}`", ty.name)),
                        );
                    }
                }
            }
            return;
        }
        HookNeeds::Float => (Vec::new(), "Float VALUE = <exponent, mantissa>;"),
        HookNeeds::Bits => (values.iter().filter(|v| v.format.is_none()).map(|v| v.name.as_str()).collect(), "Bits VALUE = n;"),
    };
    let message = if hook.needs == HookNeeds::Float {
        format!("`{}` reads a float layout from the values of `{}`, but none declares one", hook.name, ty.name)
    } else if missing.is_empty() {
        return;
    } else {
        let list: Vec<String> = missing.iter().take(8).map(|n| format!("`{n}`")).collect();
        let more = if missing.len() > 8 { format!(" and {} more", missing.len() - 8) } else { String::new() };
        let verb = if missing.len() == 1 { "declares" } else { "declare" };
        format!("`{}` reads a width from each value of `{}`, but {}{more} {verb} none", hook.name, ty.name, list.join(", "))
    };
    diags.push(
        Diagnostic::new(Code::BadAsmHook, by_at, message)
            .with_label(format!("`{by}` is a `{}`", ty.name))
            .with_note(format!("declare it with `__DefValueFormat {}` and a line `{example}`", ty.name)),
    );
}
