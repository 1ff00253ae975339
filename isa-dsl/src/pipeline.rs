//! The front end's passes in order, as every caller runs them through
//! [`crate::compile`]: parse each file -> resolve the ISA (the SPA 5.3 files
//! are parsed meanwhile) -> per optype,
//! resolve, check, bind and plan its opcodes -> bind what spans optypes ->
//! plan across optypes beside the whole-ISA checks. This module owns the scheduling only: which part runs per file, per
//! optype or once, and which of them the two [`Workers`] share when the input is
//! big enough to pay for a helper thread. Diagnostics are gathered in the same
//! order whatever ran where, so the output never depends on the scheduling.

use crate::ast;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::ir::{self, Isa, Opcode};
use crate::workers::Workers;
use crate::source::{FileId, SourceMap};
use crate::{bind, check, exec, parser, resolve, spa};
use std::sync::{PoisonError, RwLock};

/// Below this much DSL text, a helper thread costs more than it saves (one
/// spawn and join takes 40-500 us on the 2-core machine; `spec/` is 190 KiB).
const PARALLEL_BYTES: usize = 32 * 1024;

/// Runs every pass over the DSL files `dsl` and the SPA 5.3 files `spa`.
pub(crate) fn run(sources: &SourceMap, dsl: Vec<(FileId, &str)>, spa: Vec<FileId>, diags: &mut Diagnostics) -> Isa {
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let two_workers = total >= PARALLEL_BYTES && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let jobs = parse_jobs(dsl, two_workers);
    // What the per-optype step reads on both workers; the calling thread
    // writes it only between steps.
    let shared = RwLock::new(Shared::default());
    std::thread::scope(|s| {
        let workers = if two_workers { Workers::with_helper(s) } else { Workers::single() };
        steps(&workers, sources, &jobs, spa, &shared, diags);
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

/// The passes, on `workers`. Leaves the finished IR in `shared`.
fn steps<'scope>(
    workers: &Workers<'scope>,
    sources: &'scope SourceMap,
    jobs: &'scope [ParseJob<'scope>],
    spa: Vec<FileId>,
    shared: &'scope RwLock<Shared>,
    diags: &mut Diagnostics,
) {
    // Parse: one file, or a piece of a big one, per item.
    let files = parse(workers, jobs, diags);
    // Resolving the ISA reads every DSL file and runs on the calling thread;
    // the SPA files, which it does not read, are parsed meanwhile.
    let ((mut isa, prepared), (legacy, spa_diags)) = workers.join(
        || {
            check::check_value_list_dots(&files, diags);
            resolve::prepare(sources, &files, diags)
        },
        move || {
            let mut d = Diagnostics::default();
            let legacy: Vec<ir::Optype> = spa.iter().flat_map(|&id| spa::parse_file(sources, id, &mut d)).collect();
            (legacy, d)
        },
    );
    diags.extend(spa_diags.items);
    isa.legacy = legacy;
    spa::check_examples(&isa, diags);
    let n_optypes = isa.optypes.len();
    // Largest optypes first, so that the workers finish together.
    let mut order: Vec<usize> = (0..n_optypes).collect();
    order.sort_by_key(|&ot| std::cmp::Reverse(isa.optypes[ot].opcodes.len()));
    *write(shared) = Shared { isa, files, prepared };

    // Per optype: resolve, check, bind and plan its opcodes.
    let done = workers.map(n_optypes, move |k| {
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

    // The whole-ISA parts: plans across optypes beside the checks. The AST
    // is freed after the plans, the shorter of the two (0.56 + 0.54 ms
    // against 0.86 ms for the checks, on `spec/`).
    let (plans, checked) = workers.join(
        || {
            let plans = exec::finish(&read(shared).isa, plans, diags);
            drop((files, prepared));
            plans
        },
        || {
            let mut d = Diagnostics::default();
            check::check(&read(shared).isa, &mut d);
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
    let mut opcodes: Vec<(Opcode, Vec<Diagnostic>)> = sh.isa.optypes[ot]
        .opcodes
        .iter()
        .map(|&id| {
            let mut d = Vec::new();
            let op = resolve::opcode(sources, &sh.files, &sh.prepared, id, &mut d);
            (op, d)
        })
        .collect();
    // Checked once all are resolved: a rule of the optype may name a field of only some of them.
    let checked: Vec<Vec<Diagnostic>> = {
        let siblings: Vec<&Opcode> = opcodes.iter().map(|(op, _)| op).collect();
        siblings
            .iter()
            .map(|op| {
                let mut d = Diagnostics::default();
                check::check_opcode(&sh.isa, op, &siblings, &mut d);
                d.items
            })
            .collect()
    };
    for ((op, d), c) in opcodes.iter_mut().zip(checked) {
        d.extend(c);
        op.forms = bind::bind_opcode(&sh.isa, op, &mut unbound);
        let mut bound = Diagnostics::default();
        check::check_order_bound(&sh.isa, op, &mut bound);
        d.extend(bound.items);
    }
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

/// One DSL file, or a piece of one, to parse.
struct ParseJob<'a> {
    file: FileId,
    text: &'a str,
    range: std::ops::Range<usize>,
}

impl ParseJob<'_> {
    fn run(&self, cache: &parser::LineCache, diags: &mut Diagnostics) -> ast::File {
        parser::parse_piece(self.file, self.text, self.range.clone(), cache, diags)
    }
}

/// The files to parse, in input order. With two workers, big files are cut
/// into declaration-aligned pieces so that the workers get even shares (one
/// seed file is 40% of `spec/`).
fn parse_jobs<'a>(dsl: Vec<(FileId, &'a str)>, two_workers: bool) -> Vec<ParseJob<'a>> {
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let piece = if two_workers { (total / 8).max(4096) } else { usize::MAX };
    dsl.into_iter()
        .flat_map(|(file, text)| {
            parser::pieces(text, piece).into_iter().map(move |range| ParseJob { file, text, range })
        })
        .collect()
}

/// Parses every job, each worker with its own line cache. Returns one AST per
/// DSL file, in input order (pieces joined).
fn parse<'scope>(workers: &Workers<'scope>, jobs: &'scope [ParseJob<'scope>], diags: &mut Diagnostics) -> Vec<ast::File> {
    // Largest first, so that the workers finish together.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].range.len()));
    let done = workers.map_with(jobs.len(), parser::LineCache::default, move |cache, k| {
        let mut d = Diagnostics::default();
        let parsed = jobs[order[k]].run(cache, &mut d);
        (order[k], parsed, d)
    });
    let mut parsed: Vec<Option<(ast::File, Diagnostics)>> = (0..jobs.len()).map(|_| None).collect();
    for (i, p, d) in done {
        parsed[i] = Some((p, d));
    }
    let mut files: Vec<ast::File> = Vec::new();
    let mut last_file = None;
    for (job, (f, d)) in jobs.iter().zip(parsed.into_iter().map(|p| p.expect("every piece is parsed once"))) {
        diags.extend(d.items);
        match files.last_mut() {
            // The next piece of the same file.
            Some(prev) if last_file == Some(job.file) => {
                prev.decls.extend(f.decls);
                prev.cut_short |= f.cut_short;
            }
            _ => files.push(f),
        }
        last_file = Some(job.file);
    }
    files
}
