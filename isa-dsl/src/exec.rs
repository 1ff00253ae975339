//! Simulation hooks -> per-opcode execution plans ([`Exec`]). A hook
//! (`vd = fmaf(va: F32, vb: F32, vc: F32, ftz, sat, rnd);`, from a
//! `__DefSimulation` declaration or the optype's own `__Simulation`) names
//! operands by name or by slot (`vX` is the operand of `Order` whose name ends
//! in `X`, so one hook serves the RR, RI, RU and RC forms alike) and fields by
//! name. This pass resolves those names for every opcode of the optype, decides
//! how each operand is read (register, register pair, immediate, constant
//! memory, whole predicate file, register indexed at run time) and in which
//! order its sub-fields (`ra.neg`, `ra.hsel2`) are applied, and reports what
//! does not fit: unknown names (E050), one kernel called with two signatures
//! (E051), the seeds' own hooks that disagree with the operands (W015),
//! modifiers nobody applies (W016), written operands `OutList` omits (W017) and
//! optypes without a hook (W018).

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};

/// The plans of one optype's opcodes ([`plan_optype`]), for [`finish`].
#[derive(Debug, Default)]
pub struct OptypePlans {
    execs: Vec<(OpcodeId, Exec, Loc)>,
    diags: Diagnostics,
}

/// Works out the [`Exec`] of every opcode of optype `ot`, whose opcodes are
/// `ops` (in the order of `Optype::opcodes`, which gives their ids). Reads
/// only `isa`'s optypes, types and ISA properties, and `ops`, so optypes plan
/// independently.
pub fn plan_optype(isa: &Isa, ot: OptypeId, ops: &[&Opcode]) -> OptypePlans {
    let mut out = OptypePlans::default();
    let diags = &mut out.diags;
    let execs = &mut out.execs;
    let ot = &isa.optypes[ot];
    if ot.notation.is_some() || ot.opcodes.is_empty() {
        return out;
    }
    let Some(hook) = ot.effective_hook() else {
        // A hook line that did not parse is reported there.
        if ot.broken_hook {
            return out;
        }
        diags.push(
            Diagnostic::new(Code::NoSimulation, ot.loc.span, format!("`{}` has no simulation hook; it cannot execute", ot.name))
                .with_note("give it one with `__DefSimulation Optype` and a hook line `vd = kernel(va: Domain, ...);`"),
        );
        return out;
    };
    if let (Some(seed), Some(ours)) = (&ot.simulation, &ot.hook) {
        if seed.function != ours.function {
            diags.push(
                Diagnostic::new(
                    Code::SeedHookMismatch,
                    seed.loc.span,
                    format!("the hook calls `{}`, the `__DefSimulation` calls `{}`", seed.function, ours.function),
                )
                .with_label("this hook's kernel name"),
            );
        }
    }
    if let Some(seed) = &ot.simulation {
        check_seed_hook(isa, ot, ops, seed, diags);
    }
    let mut unapplied: BTreeSet<String> = BTreeSet::new();
    // An opcode with a field that did not resolve, or a form no line can
    // use (both reported), has operands without fields that are only that:
    // it is not planned, nor reported.
    for (&oi, &op) in ot.opcodes.iter().zip(ops).filter(|(_, op)| op.is_whole() && !op.has_unusable_form(isa)) {
        match plan(isa, op, ops, hook, &mut unapplied) {
            Ok((exec, unlisted)) => {
                // At the spec's list, when it is written, with the hook's use beside.
                let listed = |code: Code, list: &str, list_at: Option<crate::Span>, name: &str, at: Option<crate::Span>, does: &str, note: &str| {
                    let (primary, label) = match list_at {
                        Some(l) => (Some(l), format!("the hook {does} `{name}`")),
                        None => (at.or(hook.loc.span), String::new()),
                    };
                    let mut d = Diagnostic::new(code, primary, format!("`{list}` does not name `{name}`, which the simulation hook {does}")).in_opcode(&op.name).with_note(note);
                    if let (Some(_), Some(h)) = (list_at, at.or(hook.loc.span)) {
                        d = d.with_secondary(h, label);
                    }
                    d
                };
                for (name, at, by_slot) in unlisted.written {
                    let note = if by_slot { "the simulator writes it: the hook's result is the operand `Order` puts there" } else { "the simulator writes it" };
                    diags.push(listed(Code::HookOutputNotListed, "OutList", op.operands.outputs_span, &name, at, "writes", note));
                }
                // An `InList` entry that is no field (W007) is a typo for what it misses.
                let typo = op.operands.inputs.iter().any(|r| r.index.is_empty() && op.field(&r.name).is_none() && !op.is_broken(&r.name));
                for (name, at, by_slot) in unlisted.read.into_iter().filter(|_| !typo) {
                    let note = if by_slot { "the simulator reads it: the hook's argument is the operand `Order` puts there" } else { "the simulator reads it" };
                    diags.push(listed(Code::HookInputNotListed, "InList", op.operands.inputs_span, &name, at, "reads", note));
                }
                // W032: an output the hook never writes keeps its old value.
                for out in op.operands.outputs.iter().filter(|o| !exec.results.iter().any(|r| r.name == display(o))) {
                    diags.push(
                        Diagnostic::new(
                            Code::OutputNotWritten,
                            out.span.or(hook.loc.span),
                            format!("`OutList` names `{}`, which the hook never writes: a run leaves it unchanged", display(out)),
                        )
                        .in_opcode(&op.name)
                        .with_label("not among the hook's results"),
                    );
                }
                execs.push((oi, exec, hook.loc));
            }
            Err((msg, at)) => diags.push(Diagnostic::new(Code::UnknownHookName, at.or(hook.loc.span), msg).in_opcode(&op.name)),
        }
    }
    for m in unapplied {
        diags.push(
            Diagnostic::new(
                Code::ModifierNotApplied,
                hook.loc.span,
                format!("`{}`: the simulation neither applies nor passes `{m}`", ot.name),
            )
            .with_note("give the operand a domain (`va: F32`) to apply it, or pass the sub-field as an argument"),
        );
    }
    out
}

/// Once every optype is planned and every opcode is in `isa`: reports the
/// optypes' problems, widens 32-bit values where a kernel also takes 64-bit
/// ones, checks that each kernel has one signature, and returns the plans for
/// [`apply`].
pub fn finish(isa: &Isa, optypes: Vec<OptypePlans>, diags: &mut Diagnostics) -> Vec<(OpcodeId, Exec)> {
    let mut signatures: BTreeMap<String, (String, Loc, String)> = BTreeMap::new();
    let mut execs = Vec::new();
    for p in optypes {
        diags.extend(p.diags.items);
        execs.extend(p.execs);
    }
    widen(&mut execs);
    for (oi, exec, loc) in &execs {
        let op = &isa.opcodes[*oi];
        let hook_loc = *loc;
        let mut calls = vec![(exec.function.clone(), signature(isa, exec))];
        for a in &exec.args {
            let ExecArg::Operand(o) = a else { continue };
            for m in &o.modifiers {
                let t = value_type(&o.width);
                let sub = op.field(&m.field).map_or("?", |f| &*f.ty_name);
                calls.push((m.method.clone(), format!("({t}, {sub}) -> {t}")));
            }
        }
        for (function, sig) in calls {
            match signatures.get(&function) {
                Some((other, _, first)) if *other != sig => diags.push(
                    Diagnostic::new(
                        Code::KernelSignature,
                        hook_loc.span,
                        format!("`{function}` is called as {sig} by {}, as {other} by {first}", op.name),
                    )
                    .with_note("one kernel has one Rust signature; give the forms the same operand widths and field types, or use two kernels or domains"),
                ),
                Some(_) => {}
                None => {
                    signatures.insert(function, (sig, hook_loc, op.name.clone()));
                }
            }
        }
    }
    execs.into_iter().map(|(oi, exec, _)| (oi, exec)).collect()
}

/// Stores the plans of [`finish`] in [`Opcode::exec`].
pub fn apply(isa: &mut Isa, plans: Vec<(OpcodeId, Exec)>) {
    for (oi, exec) in plans {
        isa.opcodes[oi].exec = Some(exec);
    }
}

/// Where one opcode passes a 64-bit value and another a 32-bit one in the
/// same place of the same kernel (MOV's 32-bit immediate, its 64-bit
/// registers), the kernel takes `u64` and the 32-bit value is widened.
fn widen(execs: &mut [(OpcodeId, Exec, Loc)]) {
    let is64 = |o: &ExecOperand| !matches!(o.width, ExecWidth::Bool | ExecWidth::Fixed(32));
    let mut wide: BTreeSet<(String, bool, usize)> = BTreeSet::new();
    for (_, e, _) in execs.iter() {
        for (i, a) in e.args.iter().enumerate() {
            if matches!(a, ExecArg::Operand(o) if is64(o)) {
                wide.insert((e.function.clone(), false, i));
            }
        }
        for (i, r) in e.results.iter().enumerate() {
            if is64(r) {
                wide.insert((e.function.clone(), true, i));
            }
        }
    }
    for (_, e, _) in execs.iter_mut() {
        let f = e.function.clone();
        for (i, a) in e.args.iter_mut().enumerate() {
            if let ExecArg::Operand(o) = a {
                o.widened = o.width == ExecWidth::Fixed(32) && wide.contains(&(f.clone(), false, i));
            }
        }
        for (i, r) in e.results.iter_mut().enumerate() {
            r.widened = r.width == ExecWidth::Fixed(32) && wide.contains(&(f.clone(), true, i));
        }
    }
}

/// The type a kernel takes or returns for an operand.
pub fn param_type(o: &ExecOperand) -> &'static str {
    if o.widened {
        "u64"
    } else {
        value_type(&o.width)
    }
}

/// The kernel's argument and result types, as text (`(u32, u32, FPRound) -> u32`).
fn signature(isa: &Isa, exec: &Exec) -> String {
    let ty = |o: &ExecOperand| {
        let t = param_type(o);
        if exec.warp && !is_warp(isa, o) {
            format!("[{t}; lanes]")
        } else {
            t.to_string()
        }
    };
    let args: Vec<String> = exec
        .args
        .iter()
        .map(|a| match a {
            ExecArg::Operand(o) => ty(o),
            ExecArg::Field { ty, .. } => ty.clone(),
        })
        .collect();
    let results: Vec<String> = exec.results.iter().map(|r| param_type(r).to_string()).collect();
    format!("({}) -> ({})", args.join(", "), results.join(", "))
}

/// The Rust type of an operand value of this width.
pub fn value_type(w: &ExecWidth) -> &'static str {
    match w {
        ExecWidth::Bool => "bool",
        ExecWidth::Fixed(32) => "u32",
        _ => "u64",
    }
}

/// Whether an operand has one value per warp rather than per lane.
pub fn is_warp(isa: &Isa, o: &ExecOperand) -> bool {
    let ty = match &o.source {
        OperandSource::Register { ty, .. } | OperandSource::Indexed { ty, .. } | OperandSource::File { ty } => ty,
        // Immediates and constant memory are the same for every lane.
        OperandSource::Immediate { .. } | OperandSource::ConstMem { .. } => return true,
    };
    isa.types.iter().any(|t| &t.name == ty && matches!(t.kind, TypeKind::Register { warp: true, .. }))
}

/// The slot letter of an operand: the last letter of its name (`urb` -> `b`),
/// of its index base for `R[urb, ridx]`.
fn slot(r: &OperandRef) -> Option<char> {
    let name = if r.index.is_empty() { &r.name } else { &r.index[0] };
    name.chars().last()
}

/// Finds the operand a hook name means: an exact name, else the slot `vX`.
/// Looks through `Order`, `OutList` and `InList` (guard excluded) in place:
/// this runs for every hook argument of every opcode and its sibling forms.
fn find_operand<'a>(isa: &Isa, op: &'a Opcode, name: &str) -> Result<Option<&'a OperandRef>, String> {
    let info = &op.operands;
    // The guard, and an `Order` entry no template's operand takes (W007), are no operands.
    let not_operand = |r: &OperandRef| (isa.guard.as_deref() == Some(r.name.as_str()) || op.order_entry_untaken(isa, &r.name)) && r.index.is_empty();
    let mut all = info.order.iter().chain(&info.outputs).chain(&info.inputs).filter(|r| !not_operand(r));
    if let Some(r) = all.find(|r| r.index.is_empty() && r.name == name) {
        return Ok(Some(r));
    }
    let mut chars = name.chars();
    if let (Some('v'), Some(x), None) = (chars.next(), chars.next(), chars.next()) {
        // The operands `Order` names in this slot, each once.
        let mut in_order: Vec<&OperandRef> = Vec::new();
        for r in info.order.iter().filter(|r| !not_operand(r) && slot(r) == Some(x)) {
            if !in_order.iter().any(|o| same(o, r)) {
                in_order.push(r);
            }
        }
        return match in_order.as_slice() {
            [one] => Ok(Some(one)),
            [] => Ok(None),
            many => Err(format!(
                "slot `{name}` is ambiguous: {}",
                many.iter().map(|r| display(r)).collect::<Vec<_>>().join(", ")
            )),
        };
    }
    Ok(None)
}

/// The same operand (spans aside).
fn same(a: &OperandRef, b: &OperandRef) -> bool {
    a.name == b.name && a.index == b.index
}

fn display(r: &OperandRef) -> String {
    if r.index.is_empty() {
        r.name.clone()
    } else {
        format!("{}[{}]", r.name, r.index.join(", "))
    }
}

/// A reason [`plan`] fails, and the result or argument it is about.
type PlanError = (String, Option<crate::Span>);

/// Operands the hook writes that `OutList` does not name, and operands it
/// reads that `InList` does not name, each with where the hook names it.
/// Each with whether the hook names it by slot (`vb`) rather than exactly.
#[derive(Default)]
struct Unlisted {
    written: Vec<(String, Option<crate::Span>, bool)>,
    read: Vec<(String, Option<crate::Span>, bool)>,
}

fn plan(isa: &Isa, op: &Opcode, siblings: &[&Opcode], hook: &SimulationHook, unapplied: &mut BTreeSet<String>) -> Result<(Exec, Unlisted), PlanError> {
    let passed: BTreeSet<String> = hook
        .args
        .iter()
        .filter_map(|a| {
            let (base, sub) = a.name.split_once('.')?;
            let r = find_operand(isa, op, base).ok()??;
            Some(format!("{}.{sub}", r.name))
        })
        .collect();
    let mut results = Vec::new();
    let mut unlisted = Unlisted::default();
    for (k, name) in hook.results.iter().enumerate() {
        let at = |e: String| (e, hook.result_spans.get(k).copied());
        let r = find_operand(isa, op, name)
            .map_err(at)?
            .ok_or_else(|| at(format!("the hook's result `{name}` is not an operand of the opcode")))?;
        let o = operand(isa, op, r, None, &passed, unapplied).map_err(|e| e.placed(hook.result_spans.get(k).copied()))?;
        if matches!(o.source, OperandSource::Immediate { .. } | OperandSource::ConstMem { .. }) {
            return Err(at(format!("the hook's result `{name}` is `{}`, which cannot be written", display(r))));
        }
        if !op.operands.outputs.iter().any(|o| same(o, r)) {
            unlisted.written.push((display(r), hook.result_spans.get(k).copied(), display(r) != *name));
        }
        results.push(o);
    }
    let mut args = Vec::new();
    for a in &hook.args {
        let at = |e: String| (e, a.span);
        let (base, sub) = match a.name.split_once('.') {
            Some((b, s)) => (b, Some(s)),
            None => (a.name.as_str(), None),
        };
        let found = find_operand(isa, op, base).map_err(at)?;
        let arg = match (found, sub) {
            (Some(r), None) => {
                let o = operand(isa, op, r, a.domain.as_deref(), &passed, unapplied).map_err(|e| e.placed(a.span))?;
                // A register read that `InList` leaves out; not an immediate
                // (the seeds list none of `lut`, `shiftamt`), nor what the
                // hook also writes (`PR = r2p(PR, ...)` keeps the bits it does not set).
                let written = hook.results.iter().any(|n| find_operand(isa, op, n).ok().flatten().is_some_and(|w| same(w, r)));
                if !matches!(o.source, OperandSource::Immediate { .. }) && !written && !op.operands.inputs.iter().any(|i| same(i, r)) {
                    unlisted.read.push((display(r), a.span, display(r) != base));
                }
                ExecArg::Operand(o)
            }
            (Some(r), Some(sub)) => {
                let field = format!("{}.{sub}", r.name);
                match op.field(&field) {
                    Some(f) => ExecArg::Field { field, ty: f.ty_name.to_string(), fixed: f.is_constant().then(|| f.default_value()).flatten() },
                    None => {
                        // Another form's operand in this slot has it: pass its default.
                        let other = siblings
                            .iter()
                            .filter_map(|&other| {
                                let r = find_operand(isa, other, base).ok()??;
                                other.field(&format!("{}.{sub}", r.name))
                            })
                            .find_map(|f| f.default_value().map(|d| (f.ty_name.to_string(), d)));
                        match other {
                            Some((ty, d)) => ExecArg::Field { field, ty, fixed: Some(d) },
                            None => return Err(at(format!("`{}` has no sub-field `{sub}`", display(r)))),
                        }
                    }
                }
            }
            (None, _) if op.field(&a.name).is_some() => {
                let f = op.field(&a.name);
                let ty = f.map(|f| f.ty_name.to_string()).unwrap_or_default();
                let fixed = f.filter(|f| f.is_constant()).and_then(|f| f.default_value());
                ExecArg::Field { field: a.name.clone(), ty, fixed }
            }
            (None, _) => {
                let near = isa_runtime::spelling::nearest(&a.name, op.fields.iter().map(|f| &*f.name)).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
                return Err(at(format!("the hook's argument `{}` is neither an operand nor a field of the opcode{near}", a.name)));
            }
        };
        args.push(arg);
    }
    let mut exec = Exec { function: hook.function.clone(), warp: false, results, args };
    let warp_result = exec.results.iter().any(|r| is_warp(isa, r));
    let lane_arg = exec.args.iter().any(|a| matches!(a, ExecArg::Operand(o) if !is_warp(isa, o)));
    exec.warp = warp_result && lane_arg;
    Ok((exec, unlisted))
}

/// Why an operand cannot be planned: at the hook's argument or result
/// ([`OperandError::Here`]), or at a directive of its own (an operand's
/// `Bitwidth`).
enum OperandError {
    Here(String),
    At(String, Option<crate::Span>),
}

impl OperandError {
    /// The error as [`plan`] reports it: at its own place, else at `here`.
    fn placed(self, here: Option<crate::Span>) -> PlanError {
        match self {
            OperandError::Here(msg) => (msg, here),
            OperandError::At(msg, span) => (msg, span.or(here)),
        }
    }
}

impl From<String> for OperandError {
    fn from(msg: String) -> OperandError {
        OperandError::Here(msg)
    }
}

/// How one operand is read or written.
fn operand(
    isa: &Isa,
    op: &Opcode,
    r: &OperandRef,
    domain: Option<&str>,
    passed: &BTreeSet<String>,
    unapplied: &mut BTreeSet<String>,
) -> Result<ExecOperand, OperandError> {
    let name = display(r);
    if r.index.is_empty() && op.field(&r.name).is_none() && isa.file_literals.iter().any(|l| l.name == r.name) {
        let lit = isa
            .file_literals
            .iter()
            .find(|l| l.name == r.name)
            .ok_or_else(|| format!("`{}` is not declared as a literal (`Literal {} = Type;` in `__DefIsa`)", r.name, r.name))?;
        return Ok(ExecOperand { name, source: OperandSource::File { ty: lit.ty_name.clone() }, width: ExecWidth::Fixed(32), modifiers: vec![], widened: false });
    }
    if !r.index.is_empty() {
        let ty = isa
            .types
            .iter()
            .find(|t| matches!(&t.kind, TypeKind::Register { prefix, predicate: false, .. } if *prefix == r.name))
            .ok_or_else(|| format!("no register file has the prefix `{}`", r.name))?;
        let base = op.field(&r.index[0]).ok_or_else(|| format!("no field `{}`", r.index[0]))?;
        let offset = match r.index.get(1) {
            Some(o) => Some(op.field(o).ok_or_else(|| format!("no field `{o}`"))?.name.to_string()),
            None => None,
        };
        return Ok(ExecOperand {
            name,
            source: OperandSource::Indexed { ty: ty.name.clone(), base: base.name.to_string(), base_ty: base.ty_name.to_string(), offset },
            width: ExecWidth::Fixed(32),
            modifiers: vec![],
            widened: false,
        });
    }
    let f = op.field(&r.name).ok_or_else(|| format!("operand `{}` has no field", r.name))?;
    let ty = &isa.types[f.ty];
    let width = match op.operands.bitwidths.iter().find(|b| b.operand == r.name) {
        Some(b) => match b.constant {
            Some(32) => ExecWidth::Fixed(32),
            Some(64) => ExecWidth::Fixed(64),
            Some(c) => return Err(OperandError::At(format!("`Bitwidth<{}> = {c}`: the simulator reads 32- or 64-bit values", r.name), b.span)),
            None => ExecWidth::Dynamic(b.expr.clone()),
        },
        None => ExecWidth::Fixed(32),
    };
    let (source, width) = match &ty.kind {
        TypeKind::Register { predicate: true, .. } => (OperandSource::Register { field: f.name.to_string(), ty: ty.name.clone() }, ExecWidth::Bool),
        TypeKind::Register { .. } => (OperandSource::Register { field: f.name.to_string(), ty: ty.name.clone() }, width),
        TypeKind::Int { signed } => (OperandSource::Immediate { field: f.name.to_string(), signed: *signed }, width),
        TypeKind::Float { .. } => (OperandSource::Immediate { field: f.name.to_string(), signed: false }, width),
        TypeKind::ConstMem { .. } => (OperandSource::ConstMem { field: f.name.to_string() }, width),
        TypeKind::Enum { .. } => {
            return Err(format!("operand `{}` is of the enum type `{}`; pass it as a field", r.name, ty.name).into())
        }
    };
    let mut modifiers = Vec::new();
    for sub in sub_fields(isa, op, &r.name) {
        if passed.contains(&sub) {
            continue;
        }
        match domain {
            Some(d) => {
                let s = sub.rsplit('.').next().unwrap_or(&sub);
                modifiers.push(ExecModifier { field: sub.clone(), method: format!("{}_{s}", d.to_ascii_lowercase()) });
            }
            None => {
                unapplied.insert(sub);
            }
        }
    }
    Ok(ExecOperand { name, source, width, modifiers, widened: false })
}

/// Sub-fields of operand `base`, innermost first: the suffixes the first
/// syntax form writes after the operand, then its prefixes from the nearest
/// outwards (`{-}{|}Ra{.hsel2}{|}` -> `hsel2`, `abs`, `neg`), then any others
/// in layout order.
fn sub_fields(isa: &Isa, op: &Opcode, base: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let prefix = format!("{base}.");
    if let Some(form) = op.forms.first() {
        if let Some((i, b)) = form.operands.iter().enumerate().find(|(_, o)| o.field.as_deref() == Some(base)) {
            // Decorations are the syntax operand's prefixes, then its suffixes.
            let n_pre = isa.optypes[op.optype].syntax.get(form.form).and_then(|s| s.operands.get(i)).map_or(0, |o| o.prefixes.len());
            let (pre, suf) = b.decorations.split_at(n_pre.min(b.decorations.len()));
            for f in suf.iter().chain(pre.iter().rev()).flatten() {
                if f.starts_with(&prefix) && !out.contains(f) {
                    out.push(f.clone());
                }
            }
        }
    }
    for f in &op.fields {
        if f.name.starts_with(&prefix) && !f.is_constant() && !out.iter().any(|o| **o == *f.name) {
            out.push(f.name.to_string());
        }
    }
    out
}

/// Warns when the optype's own `__Simulation` hook cannot be what its opcodes
/// execute: a result or argument that is no operand, or fewer operands than the
/// opcode reads.
fn check_seed_hook(isa: &Isa, ot: &Optype, ops: &[&Opcode], seed: &SimulationHook, diags: &mut Diagnostics) {
    // An opcode whose operands are in doubt (reported) is not compared.
    let Some(&op) = ops.first().filter(|op| op.is_whole() && !op.has_unusable_form(isa)) else { return };
    // An `InList` entry that is no field is W007's.
    let reads: Vec<String> = op
        .operands
        .inputs
        .iter()
        .filter(|r| isa.guard.as_deref() != Some(r.name.as_str()))
        .filter(|r| !r.index.is_empty() || op.field(&r.name).is_some_and(|f| !isa.types[f.ty].is_enum()))
        .map(display)
        .collect();
    let named: Vec<&str> = seed.args.iter().map(|a| a.name.as_str()).collect();
    let missing: Vec<&String> = reads
        .iter()
        .filter(|r| {
            !named.iter().any(|n| {
                find_operand(isa, op, n).ok().flatten().is_some_and(|o| display(o) == **r)
            })
        })
        .collect();
    // An argument that names nothing (`fadd(va, vb, fzt)`), as the
    // `__DefSimulation`'s would be E050.
    let mut unknown = false;
    for a in &seed.args {
        let base = a.name.split_once('.').map_or(a.name.as_str(), |(b, _)| b);
        if find_operand(isa, op, base).ok().flatten().is_none() && op.field(&a.name).is_none() && !op.is_broken(&a.name) {
            let mut d = Diagnostic::new(Code::SeedHookMismatch, a.span.or(seed.loc.span), format!("`{}` passes `{}`, which is neither an operand nor a field of {}", seed.function, a.name, op.name));
            if let Some(n) = isa_runtime::spelling::nearest(&a.name, op.fields.iter().map(|f| &*f.name)) {
                d = d.with_label(format!("did you mean `{n}`?"));
            }
            diags.push(d);
            unknown = true;
        }
    }
    // Every operand passed, but no modifier: `fadd(va, vb)` for
    // `FADD{.FTZ}{.SAT}{.rnd}` computes as if none were written.
    let fields: Vec<&str> = op
        .forms
        .iter()
        .flat_map(|b| &b.modifiers)
        .filter_map(|m| match m {
            ModifierBinding::Value { field, .. } | ModifierBinding::Choice { field, .. } => Some(field.as_str()),
            _ => None,
        })
        .filter(|f| op.field(f).is_some_and(|f| !f.is_constant()))
        .fold(Vec::new(), |mut v, f| {
            if !v.contains(&f) {
                v.push(f);
            }
            v
        });
    let passes_field = seed.args.iter().any(|a| a.name.contains('.') || op.field(&a.name).is_some());
    if missing.is_empty() && !passes_field && !unknown && !fields.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::SeedHookMismatch,
                seed.loc.span,
                format!(
                    "`{}({})` passes none of the modifiers {} sets ({})",
                    seed.function,
                    named.join(", "),
                    op.name,
                    fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                ),
            )
            .with_label("incomplete hook")
            .with_note(if ot.hook.is_some() {
                "the simulator uses the optype's `__DefSimulation` hook instead"
            } else {
                "give a complete hook with `__DefSimulation`"
            }),
        );
    }
    if !missing.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::SeedHookMismatch,
                seed.loc.span,
                format!(
                    "`{}({})` does not pass {} that {} reads, nor any modifier",
                    seed.function,
                    named.join(", "),
                    missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "),
                    op.name
                ),
            )
            .with_label("incomplete hook")
            .with_note(if ot.hook.is_some() {
                "the simulator uses the optype's `__DefSimulation` hook instead"
            } else {
                "give a complete hook with `__DefSimulation`"
            }),
        );
    }
}
