//! The front end's passes in order, as every caller runs them through
//! [`crate::compile`]: parse each file -> resolve the ISA -> per optype,
//! resolve, bind and plan its opcodes -> bind and plan what spans optypes ->
//! check. This module owns the scheduling only: which part runs per file, per
//! optype or once, and which of them the two [`Lanes`] share when the input is
//! big enough to pay for a helper thread. Diagnostics are gathered in the same
//! order whatever ran where, so the output never depends on the scheduling.

use crate::ast;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::ir::{self, Isa, Opcode};
use crate::lanes::Lanes;
use crate::source::{FileId, SourceMap};
use crate::{bind, check, exec, parser, resolve, spa};
use std::sync::{PoisonError, RwLock};

/// Below this much DSL text, a helper thread costs more than it saves (one
/// spawn and join takes 40-500 us on the 2-core machine; `spec/` is 190 KiB).
const PARALLEL_BYTES: usize = 32 * 1024;

/// Runs every pass over the DSL files `dsl` and the SPA 5.3 files `spa`.
pub(crate) fn run(sources: &SourceMap, dsl: Vec<(FileId, &str)>, spa: Vec<FileId>, diags: &mut Diagnostics) -> Isa {
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let two_lanes = total >= PARALLEL_BYTES && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let jobs = parse_jobs(dsl, spa, two_lanes);
    // What the per-optype step reads on both lanes; the calling thread
    // writes it only between steps.
    let shared = RwLock::new(Shared::default());
    std::thread::scope(|s| {
        let lanes = if two_lanes { Lanes::with_helper(s) } else { Lanes::single() };
        steps(&lanes, sources, &jobs, &shared, diags);
    });
    shared.into_inner().unwrap_or_else(PoisonError::into_inner).isa
}

/// The IR being built, with what resolving its opcodes still needs.
#[derive(Default)]
struct Shared {
    isa: Isa,
    files: Vec<ast::File>,
    prepared: resolve::Prepared,
}

/// The passes, on `lanes`. Leaves the finished IR in `shared`.
fn steps<'scope>(
    lanes: &Lanes<'scope>,
    sources: &'scope SourceMap,
    jobs: &'scope [ParseJob<'scope>],
    shared: &'scope RwLock<Shared>,
    diags: &mut Diagnostics,
) {
    // Parse: one file, or a piece of a big one, per item.
    let (files, legacy) = parse(lanes, sources, jobs, diags);
    check::check_value_list_dots(&files, diags);
    let (mut isa, prepared) = resolve::prepare(sources, &files, diags);
    isa.legacy = legacy;
    let n_optypes = isa.optypes.len();
    // Largest optypes first, so that the lanes finish together.
    let mut order: Vec<usize> = (0..n_optypes).collect();
    order.sort_by_key(|&ot| std::cmp::Reverse(isa.optypes[ot].opcodes.len()));
    *write(shared) = Shared { isa, files, prepared };

    // Per optype: resolve, check, bind and plan its opcodes.
    let done = lanes.map(n_optypes, move |k| {
        (order[k], optype_step(sources, &read(shared), order[k]))
    });
    let mut by_optype: Vec<Option<OptypeStep>> = (0..n_optypes).map(|_| None).collect();
    for (ot, step) in done {
        by_optype[ot] = Some(step);
    }
    let mut sh = write(shared);
    let n_opcodes = sh.prepared.opcodes();
    let mut opcodes: Vec<Option<(Opcode, Vec<Diagnostic>)>> = (0..n_opcodes).map(|_| None).collect();
    let mut unbound = bind::Unbound::default();
    let mut plans = Vec::with_capacity(n_optypes);
    for (ot, step) in by_optype.into_iter().enumerate() {
        let step = step.expect("every optype is stepped once");
        for (&id, op) in sh.isa.optypes[ot].opcodes.iter().zip(step.opcodes) {
            opcodes[id] = Some(op);
        }
        unbound.merge(step.unbound);
        plans.push(step.plans);
    }
    for (op, d) in opcodes.into_iter().map(|o| o.expect("every opcode is in one optype")) {
        diags.items.extend(d);
        sh.isa.opcodes.push(op);
    }
    bind::finish(&mut sh.isa, unbound, diags);
    let files = std::mem::take(&mut sh.files);
    let prepared = std::mem::take(&mut sh.prepared);
    drop(sh);

    // The whole-ISA parts: plans across optypes beside the checks; the AST
    // is freed off the calling thread.
    let (plans, checked) = lanes.join(
        || exec::finish(&read(shared).isa, plans, diags),
        move || {
            let mut d = Diagnostics::default();
            check::check(&read(shared).isa, &mut d);
            drop((files, prepared));
            d
        },
    );
    diags.extend(checked.items);
    exec::apply(&mut write(shared).isa, plans);
}

/// What one optype's step produces.
struct OptypeStep {
    /// Its opcodes, in the order of `Optype::opcodes`, each with what
    /// resolving and checking it reported.
    opcodes: Vec<(Opcode, Vec<Diagnostic>)>,
    unbound: bind::Unbound,
    plans: exec::OptypePlans,
}

/// Resolves, checks, binds and plans the opcodes of optype `ot`.
fn optype_step(sources: &SourceMap, sh: &Shared, ot: ir::OptypeId) -> OptypeStep {
    let mut unbound = bind::Unbound::default();
    let opcodes: Vec<(Opcode, Vec<Diagnostic>)> = sh.isa.optypes[ot]
        .opcodes
        .iter()
        .map(|&id| {
            let mut d = Diagnostics::default();
            let mut op = resolve::opcode(sources, &sh.files, &sh.prepared, id, &mut d.items);
            check::check_opcode(&sh.isa, &op, &mut d);
            op.forms = bind::bind_opcode(&sh.isa, &op, &mut unbound);
            (op, d.items)
        })
        .collect();
    let ops: Vec<&Opcode> = opcodes.iter().map(|(op, _)| op).collect();
    let plans = exec::plan_optype(&sh.isa, ot, &ops);
    OptypeStep { opcodes, unbound, plans }
}

fn read(shared: &RwLock<Shared>) -> std::sync::RwLockReadGuard<'_, Shared> {
    shared.read().unwrap_or_else(PoisonError::into_inner)
}

fn write(shared: &RwLock<Shared>) -> std::sync::RwLockWriteGuard<'_, Shared> {
    shared.write().unwrap_or_else(PoisonError::into_inner)
}

/// One file, or a piece of one, to parse, in the notation it is written in.
enum ParseJob<'a> {
    Dsl(FileId, &'a str, std::ops::Range<usize>),
    Spa(FileId),
}

/// What a [`ParseJob`] produces.
enum Parsed {
    /// The AST of a file or a piece of it.
    Dsl(FileId, ast::File),
    Spa(Vec<ir::Optype>),
}

impl ParseJob<'_> {
    fn len(&self, sources: &SourceMap) -> usize {
        match self {
            ParseJob::Dsl(_, _, range) => range.len(),
            ParseJob::Spa(id) => sources.get(*id).text.len(),
        }
    }
    fn run(&self, sources: &SourceMap, cache: &parser::LineCache, diags: &mut Diagnostics) -> Parsed {
        match self {
            ParseJob::Dsl(id, text, range) => Parsed::Dsl(*id, parser::parse_piece(*id, text, range.clone(), cache, diags)),
            ParseJob::Spa(id) => Parsed::Spa(spa::parse_file(sources, *id, diags)),
        }
    }
}

/// The files to parse, in input order. With two lanes, big files are cut
/// into declaration-aligned pieces so that the lanes get even shares (one
/// seed file is 40% of `spec/`).
fn parse_jobs<'a>(dsl: Vec<(FileId, &'a str)>, spa: Vec<FileId>, two_lanes: bool) -> Vec<ParseJob<'a>> {
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let piece = if two_lanes { (total / 8).max(4096) } else { usize::MAX };
    dsl.into_iter()
        .flat_map(|(id, text)| parser::pieces(text, piece).into_iter().map(move |r| ParseJob::Dsl(id, text, r)))
        .chain(spa.into_iter().map(ParseJob::Spa))
        .collect()
}

/// Parses every job, each lane with its own line cache. Returns one AST per
/// DSL file, in input order (pieces joined), and the legacy optypes.
fn parse<'scope>(
    lanes: &Lanes<'scope>,
    sources: &'scope SourceMap,
    jobs: &'scope [ParseJob<'scope>],
    diags: &mut Diagnostics,
) -> (Vec<ast::File>, Vec<ir::Optype>) {
    // Largest first, so that the lanes finish together.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].len(sources)));
    let done = lanes.map_with(jobs.len(), parser::LineCache::default, move |cache, k| {
        let mut d = Diagnostics::default();
        let parsed = jobs[order[k]].run(sources, cache, &mut d);
        (order[k], parsed, d)
    });
    let mut parsed: Vec<Option<(Parsed, Diagnostics)>> = (0..jobs.len()).map(|_| None).collect();
    for (i, p, d) in done {
        parsed[i] = Some((p, d));
    }
    let mut files: Vec<ast::File> = Vec::new();
    let mut legacy = Vec::new();
    let mut last_file = None;
    for (p, d) in parsed.into_iter().map(|p| p.expect("every file is parsed once")) {
        diags.extend(d.items);
        match p {
            Parsed::Dsl(id, f) => {
                match files.last_mut() {
                    // The next piece of the same file.
                    Some(prev) if last_file == Some(id) => prev.decls.extend(f.decls),
                    _ => files.push(f),
                }
                last_file = Some(id);
            }
            Parsed::Spa(optypes) => legacy.extend(optypes),
        }
    }
    (files, legacy)
}

