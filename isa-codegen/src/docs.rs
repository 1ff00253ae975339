//! The reference manual: a static HTML site (`docs/html/`, works from
//! `file://`, no external scripts or fonts) and an mdBook-compatible Markdown
//! book (`docs/md/`), both regenerated from the spec. This module only builds
//! the data each page shows; every byte of HTML and Markdown layout comes
//! from the minijinja templates in `templates/`. Prose is rendered from the
//! spec's Markdown with pulldown-cmark; code blocks are tokenised here and
//! highlighted by the templates.

use crate::asm::Assembler;
use crate::examples::CheckedExample;
use crate::links::{self, LinkTarget};
use isa_dsl::ir::*;
use isa_dsl::Diagnostics;
use minijinja::{context, Environment};
use serde::Serialize;

/// Templates, embedded so the tool works from any directory.
const TEMPLATES: &[(&str, &str)] = &[
    ("html/base.html", include_str!("../../templates/html/base.html")),
    ("html/index.html", include_str!("../../templates/html/index.html")),
    ("html/insn.html", include_str!("../../templates/html/insn.html")),
    ("html/type.html", include_str!("../../templates/html/type.html")),
    ("html/diagnostics.html", include_str!("../../templates/html/diagnostics.html")),
    ("html/search-index.js", include_str!("../../templates/html/search-index.js")),
    ("md/SUMMARY.md", include_str!("../../templates/md/SUMMARY.md")),
    ("md/README.md", include_str!("../../templates/md/README.md")),
    ("md/insn.md", include_str!("../../templates/md/insn.md")),
    ("md/type.md", include_str!("../../templates/md/type.md")),
    ("md/diagnostics.md", include_str!("../../templates/md/diagnostics.md")),
    ("md/book.toml", include_str!("../../templates/md/book.toml")),
];

/// Static files copied as they are.
const STATIC: &[(&str, &str)] = &[
    ("html/style.css", include_str!("../../templates/html/style.css")),
    ("html/search.js", include_str!("../../templates/html/search.js")),
];

/// Everything the manual needs besides the IR.
pub struct DocsInput<'a> {
    /// The checked IR the pages describe.
    pub isa: &'a Isa,
    /// Prints the encoding examples and reads the syntax forms.
    pub asm: &'a Assembler<'a>,
    /// The spec's example lines as `check` assembled them.
    pub examples: &'a [CheckedExample],
    /// All diagnostics of `check` (front end, examples, links).
    pub diagnostics: &'a Diagnostics,
    /// The spec files, to place the diagnostics and link to their lines.
    pub sources: &'a isa_dsl::SourceMap,
}

/// Renders the site and the book: (path relative to the output dir, text).
pub fn generate(input: &DocsInput) -> Result<Vec<(String, String)>, String> {
    let mut env = Environment::new();
    // Prose from the spec placed in the book outside its sections (summaries).
    env.add_filter("book_text", |s: String| escape_for_book(&s));
    env.add_filter("book_code", |s: String| book_code(&s));
    // The page is English; the spec's prose is in whatever language it is written in.
    env.add_filter("lang", |s: String| if s.chars().any(is_cjk) { "zh" } else { "en" });
    // A message's `code` spans as <code> on the site (the text escaped).
    env.add_filter("code_spans", |s: String| minijinja::Value::from_safe_string(code_spans_html(&s)));
    for (name, src) in TEMPLATES {
        env.add_template(name, src).map_err(|e| format!("template {name}: {e}"))?;
    }
    let render = |name: &str, ctx: minijinja::Value| -> Result<String, String> {
        env.get_template(name).and_then(|t| t.render(ctx)).map_err(|e| format!("template {name}: {e:#}"))
    };
    let isa = input.isa;
    let base = Base {
        isa: isa.name.clone(),
        diagnostic_count: input.diagnostics.len(),
        optype_count: isa.optypes.len(),
        opcode_count: isa.opcodes.len(),
        width: isa.width,
    };
    let controls = control_rows(isa);
    let groups = index_groups(isa);
    // Alphabetical, as a reader looks a type up.
    let mut types: Vec<TypeEntry> = isa.types.iter().map(|t| TypeEntry { name: t.name.clone(), kind: type_kind(t) }).collect();
    types.sort_by_cached_key(|t| (t.name.to_lowercase(), t.name.clone()));
    let legacy: Vec<LegacyLink> = isa
        .legacy
        .iter()
        .map(|l| LegacyLink {
            title: format!("{} ({})", l.name, notation(l)),
            href: format!("insn/{}.html", legacy_page(l)),
            md: format!("insn/{}.md", legacy_page(l)),
        })
        .collect();
    let owners = diagnostic_pages(input);
    let mut out = Vec::new();
    for (path, text) in STATIC {
        out.push((format!("docs/{path}"), text.to_string()));
    }
    out.push((
        "docs/html/index.html".into(),
        render("html/index.html", merge(context! { root => "", groups => v(&groups), types => v(&types), legacy => v(&legacy), controls => v(&controls), guard => isa.guard.clone() }, &(), &base))?,
    ));
    out.push(("docs/html/search-index.js".into(), render("html/search-index.js", context! { entries => v(&search_index(input)) })?));
    out.push(("docs/md/book.toml".into(), render("md/book.toml", merge(context! {}, &(), &base))?));
    out.push(("docs/md/SUMMARY.md".into(), render("md/SUMMARY.md", context! { groups => v(&groups), types => v(&types), legacy => v(&legacy) })?));
    out.push(("docs/md/README.md".into(), render("md/README.md", merge(context! { groups => v(&groups), types => v(&types), legacy => v(&legacy), controls => v(&controls), guard => isa.guard.clone() }, &(), &base))?));
    for (ot, o) in isa.optypes.iter().enumerate() {
        let page = insn_page(input, o, Some(ot), &owners);
        let ctx = merge(context! { root => minijinja::Value::from_safe_string("../".into()), controls => v(&controls) }, &page, &base);
        out.push((format!("docs/html/insn/{}.html", o.name), render("html/insn.html", ctx.clone())?));
        out.push((format!("docs/md/insn/{}.md", o.name), render("md/insn.md", ctx)?));
    }
    for o in &isa.legacy {
        let page = insn_page(input, o, None, &owners);
        let ctx = merge(context! { root => minijinja::Value::from_safe_string("../".into()) }, &page, &base);
        out.push((format!("docs/html/insn/{}.html", legacy_page(o)), render("html/insn.html", ctx.clone())?));
        out.push((format!("docs/md/insn/{}.md", legacy_page(o)), render("md/insn.md", ctx)?));
    }
    for t in &isa.types {
        let page = type_page(isa, t, input.sources);
        let ctx = merge(context! { root => minijinja::Value::from_safe_string("../".into()) }, &page, &base);
        out.push((format!("docs/html/types/{}.html", t.name), render("html/type.html", ctx.clone())?));
        out.push((format!("docs/md/types/{}.md", t.name), render("md/type.md", ctx)?));
    }
    let diags = diagnostics_page(input, &owners);
    let ctx = merge(context! { root => "" }, &diags, &base);
    out.push(("docs/html/diagnostics.html".into(), render("html/diagnostics.html", ctx.clone())?));
    out.push(("docs/md/diagnostics.md".into(), render("md/diagnostics.md", ctx)?));
    for (_, text) in out.iter_mut() {
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(out)
}

fn v(x: &impl Serialize) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(x))
}

/// A template context: `first`, then the fields of `a`, then those of `b`.
fn merge(first: minijinja::Value, a: &impl Serialize, b: &impl Serialize) -> minijinja::Value {
    minijinja::value::merge_maps([first, minijinja::Value::from(minijinja::value::Serde(a)), minijinja::Value::from(minijinja::value::Serde(b))])
}

#[derive(Serialize)]
struct Base {
    isa: String,
    diagnostic_count: usize,
    optype_count: usize,
    opcode_count: usize,
    width: u32,
}

/// A control field (`$sched` in templates), for the index's reading guide.
#[derive(Serialize)]
struct ControlRow {
    name: String,
    ty: String,
    bits: String,
    default: String,
}

fn control_rows(isa: &Isa) -> Vec<ControlRow> {
    isa.control_fields
        .iter()
        .filter_map(|name| {
            let f = isa.opcodes.iter().find_map(|op| op.field(name))?;
            let t = &isa.types[f.ty];
            Some(ControlRow { name: name.clone(), ty: t.name.clone(), bits: bits_text(f.start, f.width), default: f.default_value().map_or("—".into(), |v| t.value_text(v)) })
        })
        .collect()
}

#[derive(Serialize, Clone)]
struct TypeEntry {
    name: String,
    kind: String,
}

#[derive(Serialize, Clone)]
struct LegacyLink {
    title: String,
    href: String,
    md: String,
}

#[derive(Serialize, Clone)]
struct IndexGroup {
    name: String,
    path: String,
    insns: Vec<IndexInsn>,
    /// Ancestor groups with no section of their own, anchored here.
    aliases: Vec<String>,
    /// The group chain (without a common root), for ordering.
    #[serde(skip)]
    chain: Vec<String>,
}

#[derive(Serialize, Clone)]
struct IndexInsn {
    name: String,
    /// How the assembler spells it, when not as its name (`IMAD.WIDE` for
    /// optype `IMAD_WIDE`): its forms' mnemonics with their fixed parts.
    spelled: String,
    opcodes: usize,
    summary: String,
    /// The spec gives it no `__Syntax`: it cannot be written in assembly.
    no_syntax: bool,
}

fn type_kind(t: &Type) -> String {
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    let bits = n(t.width as usize, "bit");
    match &t.kind {
        TypeKind::Enum { values } => format!("enum, {}, {bits}", n(values.len(), "value")),
        TypeKind::Register { predicate: true, .. } => format!("predicate, {bits}"),
        TypeKind::Register { .. } => format!("register, {bits}"),
        TypeKind::Int { signed: true } => format!("signed immediate, {bits}"),
        TypeKind::Int { signed: false } => format!("unsigned immediate, {bits}"),
        TypeKind::Float { lanes, .. } if *lanes > 1 => format!("{lanes}-lane float immediate, {bits}"),
        TypeKind::Float { .. } => format!("float immediate, {bits}"),
        TypeKind::ConstMem { .. } => format!("constant-memory reference, {bits}"),
    }
}

/// First sentence (or line) of an optype's description.
fn summary(o: &Optype) -> String {
    // An older notation's prose describes its modifiers, not the instruction.
    if o.notation.is_some() {
        return String::new();
    }
    let Some(d) = &o.docs.description else { return String::new() };
    let first = d.text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let end = first.find('。').map(|i| i + '。'.len_utf8()).unwrap_or(first.len());
    // A line that introduces a list (`...输出：`) reads as a summary without its colon.
    first[..end].trim_end_matches(['：', ':']).to_string()
}

/// Which of `o`'s syntax forms no line can use, said for its Syntax
/// section: in every opcode that has the form, the form leaves a field
/// with no value and no default unset ([`isa_dsl::bind::unset_free_field`],
/// as the assembler judges it), so every line of it is refused.
fn unusable_forms(isa: &Isa, o: &Optype) -> String {
    let mut forms: Vec<String> = Vec::new();
    let mut fields: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for fi in 0..o.syntax.len() {
        let unset: Option<Vec<&str>> = o
            .opcodes
            .iter()
            .filter_map(|&oc| {
                let op = &isa.opcodes[oc];
                op.forms.iter().find(|b| b.form == fi).map(|b| isa_dsl::bind::unset_free_field(isa, op, b).map(|f| &*f.name))
            })
            .collect();
        if let Some(unset) = unset.filter(|u| !u.is_empty()) {
            forms.push((fi + 1).to_string());
            fields.extend(unset);
        }
    }
    let fields: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
    let fields = match fields.as_slice() {
        [one] => format!("field {one}, which has no default"),
        [init @ .., last] => format!("fields {} and {last}, which have no default", init.join(", ")),
        [] => return String::new(),
    };
    match forms.as_slice() {
        [] => String::new(),
        [one] => format!("Form {one} cannot be assembled: it sets no value for {fields} (W004). Words of its encodings disassemble as `.word`."),
        [init @ .., last] => format!("Forms {} and {last} cannot be assembled: they set no value for {fields} (W004). Words of their encodings disassemble as `.word`.", init.join(", ")),
    }
}

fn index_groups(isa: &Isa) -> Vec<IndexGroup> {
    let mut groups: Vec<IndexGroup> = Vec::new();
    // A root group every chain starts with says nothing; breadcrumbs leave it out.
    let first = isa.optypes.first().and_then(|o| o.groups.first());
    let common_root = first.filter(|r| isa.optypes.iter().all(|o| o.groups.first() == Some(*r)));
    for o in &isa.optypes {
        let name = o.groups.last().cloned().unwrap_or_default();
        let skip = usize::from(o.groups.len() > 1 && o.groups.first() == common_root);
        let path = o.groups[skip..].join(" › ");
        let spelled = crate::asm::spellings(isa, o).join(", ");
        let entry = IndexInsn { name: o.name.clone(), spelled, opcodes: o.opcodes.len(), summary: summary(o), no_syntax: o.syntax.is_empty() };
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) => g.insns.push(entry),
            None => groups.push(IndexGroup { name, path, insns: vec![entry], aliases: Vec::new(), chain: o.groups[skip..].to_vec() }),
        }
    }
    // A group's section before its subgroups' (`HALU` before `HALU › H_ARITH`),
    // groups in the order the spec first names them.
    let mut met: Vec<&String> = Vec::new();
    for g in isa.optypes.iter().flat_map(|o| &o.groups) {
        if !met.contains(&g) {
            met.push(g);
        }
    }
    let rank = |chain: &[String]| chain.iter().map(|g| met.iter().position(|m| *m == g).unwrap_or(usize::MAX)).collect::<Vec<_>>();
    groups.sort_by_cached_key(|g| rank(&g.chain));
    // Every group of every chain gets an anchor (breadcrumbs link to them):
    // one without a section of its own at the first section under it.
    let mut anchored: Vec<String> = groups.iter().map(|g| g.name.clone()).collect();
    for g in met {
        if !anchored.contains(g) {
            anchored.push(g.clone());
            if let Some(k) = groups.iter().position(|s| s.chain.contains(g)) {
                groups[k].aliases.push(g.clone());
            }
        }
    }
    groups
}

/// An optype's group chain as breadcrumbs show it: without a root group
/// every chain starts with, which says nothing.
fn crumbs(isa: &Isa, o: &Optype) -> Vec<String> {
    let root = isa.optypes.first().and_then(|o| o.groups.first()).filter(|r| isa.optypes.iter().all(|o| o.groups.first() == Some(*r)));
    let skip = usize::from(o.groups.len() > 1 && o.groups.first() == root);
    o.groups[skip..].to_vec()
}

#[derive(Serialize)]
struct SearchEntry {
    name: String,
    href: String,
    summary: String,
    /// Mnemonics, templates, modifier spellings and the names of the values
    /// its fields take (`E4M3`): matched word for word.
    terms: String,
    /// The prose, as plain text: matched anywhere.
    text: String,
}

fn search_index(input: &DocsInput) -> Vec<SearchEntry> {
    let isa = input.isa;
    isa.optypes
        .iter()
        .map(|o| (o, o.name.clone(), format!("insn/{}.html", o.name)))
        .chain(isa.legacy.iter().map(|o| (o, format!("{} ({})", o.name, notation(o)), format!("insn/{}.html", legacy_page(o)))))
        .map(|(o, name, href)| {
            let mut terms = vec![o.name.clone(), summary(o)];
            for f in &o.syntax {
                terms.push(f.text.clone());
            }
            for l in &o.value_lists {
                terms.extend(l.items.iter().map(|i| format!(".{}", i.spelling)));
            }
            // The value names of its settable fields' types (F2FP's formats
            // have no template; the opcode fields' would match every page).
            let mut types: Vec<usize> = o.opcodes.iter().flat_map(|&oc| isa.opcodes[oc].fields.iter().filter(|f| !f.is_constant()).map(|f| f.ty)).collect();
            types.sort_unstable();
            types.dedup();
            for t in types {
                if let TypeKind::Enum { values } = &isa.types[t].kind {
                    terms.extend(values.iter().map(|v| v.name.clone()));
                }
            }
            let d = &o.docs;
            let prose: Vec<&str> = [&d.description, &d.operand_info, &d.modifier_info, &d.semantics, &d.exception].into_iter().flatten().map(|p| p.text.as_str()).collect();
            // Markdown marks are not words: tables, headings, code spans go.
            let text = prose.join(" ").replace(['|', '#', '*', '`', '\n', '\t'], " ").split_whitespace().collect::<Vec<_>>().join(" ");
            // An older notation's page has no summary of its own: the result says what it is.
            let summary = match &o.notation {
                Some(n) if summary(o).is_empty() => format!("{n} notation: syntax forms and prose, no encodings"),
                _ => summary(o),
            };
            SearchEntry { name, href, summary, terms: terms.join(" "), text }
        })
        .collect()
}

// --- instruction pages ------------------------------------------------------

#[derive(Serialize)]
struct InsnPage {
    name: String,
    groups: Vec<String>,
    summary: String,
    syntax: Vec<String>,
    /// The forms no line can use, and why: "Forms 1 and 3 cannot be
    /// assembled: ..." (empty when every form can).
    unusable: String,
    modifiers: Vec<ModRow>,
    sections: Vec<Section>,
    exceptions: Vec<ExcRow>,
    simulation: Option<String>,
    /// The spec's `//` comment above the hook's declaration: what the
    /// simulator decides where the seed's prose or pseudo-code is unclear.
    simulation_note: String,
    examples: Vec<ExampleRow>,
    opcodes: Vec<OpcodeView>,
    legacy: Vec<LegacyLink>,
    notation: Option<String>,
    /// What `check` reports inside this instruction's declarations.
    defects: Vec<DiagRow>,
}

#[derive(Serialize)]
struct ModRow {
    written: String,
    optional: bool,
    values: Vec<ModValue>,
    /// What omitting the modifier means (`.RN`); `None` when it must be written.
    default: Option<String>,
    /// Why a mandatory modifier has no default although the spec marks one (W006).
    default_note: Option<String>,
    /// The fields it sets (several for an operand suffix over operand forms).
    fields: Vec<FieldRef>,
    /// The syntax forms (numbered from 1, as the Syntax section lists them)
    /// that write it, when not all do (`form 2`); empty when all do.
    forms: String,
}

#[derive(Serialize)]
struct FieldRef {
    name: String,
    bits: String,
}

#[derive(Serialize)]
struct ModValue {
    /// As written: `.FTZ`, or `(none)` for the empty value of a legacy list.
    text: String,
    encoding: String,
}

impl ModValue {
    fn new(spelling: &str, encoding: String) -> ModValue {
        ModValue { text: if spelling.is_empty() { "(none)".into() } else { format!(".{spelling}") }, encoding }
    }
}

/// The values of a modifier no field encodes: its value list's, with the
/// names it reserves (SPA's `INVALID`) marked, else its own spelling.
fn unencoded_values(list: Option<&ValueList>, name: &str) -> Vec<ModValue> {
    let Some(l) = list else { return vec![ModValue::new(name, "—".into())] };
    let reserved = l.reserved.iter().map(|r| ModValue { text: r.clone(), encoding: "— reserved: no line can write it".into() });
    l.items.iter().map(|i| ModValue::new(&i.spelling, "—".into())).chain(reserved).collect()
}

/// The Default column of a modifier row: a mandatory modifier has none (the
/// assembler requires it), even where the spec marks one (W006).
fn default_cell(optional: bool, marked: Option<String>) -> (Option<String>, Option<String>) {
    match (optional, marked) {
        (true, d) => (d, None),
        (false, Some(d)) => (None, Some(format!("must be written: the template makes it mandatory, though the spec gives it the default `{d}` (W006)"))),
        (false, None) => (None, None),
    }
}

#[derive(Serialize)]
struct Section {
    id: String,
    title: String,
    blocks: Vec<Block>,
    /// The section as Markdown for the book (links rewritten).
    markdown: String,
}

#[derive(Serialize)]
struct Block {
    code: bool,
    html: String,
    lines: Vec<Vec<Token>>,
}

#[derive(Serialize, Clone, PartialEq, Eq, Debug)]
struct Token {
    cls: &'static str,
    text: String,
}

#[derive(Serialize)]
struct ExcRow {
    kind: String,
    message: String,
    condition: String,
    opcodes: String,
}

#[derive(Serialize)]
struct ExampleRow {
    text: String,
    loc: String,
    ok: bool,
    word: String,
    disasm: String,
    reason: String,
}

#[derive(Serialize)]
struct OpcodeView {
    name: String,
    constants: Vec<String>,
    /// The bit ranges no field covers (`[111:98], [95:80]`), empty when none.
    unused: String,
    rows: Vec<DiagramRow>,
    operands: Vec<OperandRow>,
    fields: Vec<FieldRow>,
}

#[derive(Serialize)]
struct DiagramRow {
    bits: Vec<String>,
    cells: Vec<Cell>,
}

#[derive(Serialize)]
struct Cell {
    label: String,
    span: u32,
    cls: &'static str,
    title: String,
}

#[derive(Serialize)]
struct OperandRow {
    order: usize,
    name: String,
    field: String,
    kind: String,
    bits: String,
    width: String,
    dir: String,
}

#[derive(Serialize)]
struct FieldRow {
    bits: String,
    name: String,
    value: String,
}

fn bits_text(start: u32, width: u32) -> String {
    if width == 1 { format!("[{start}]") } else { format!("[{}:{start}]", start + width - 1) }
}


fn insn_page(input: &DocsInput, o: &Optype, ot: Option<usize>, owners: &[Option<String>]) -> InsnPage {
    let isa = input.isa;
    let page = match ot {
        Some(_) => o.name.clone(),
        None => legacy_page(o),
    };
    let defects: Vec<DiagRow> = input
        .diagnostics
        .items
        .iter()
        .zip(owners)
        .filter(|(_, p)| p.as_deref() == Some(page.as_str()))
        .map(|(d, p)| diag_row(input, d, p))
        .collect();
    let mut sections = Vec::new();
    // Directives and exception rules are shown as tables, not as prose.
    for (id, title, prose, rules) in [
        ("description", "Description", &o.docs.description, false),
        ("operands", "Operands", &o.docs.operand_info, true),
        ("modifier-info", "Modifier details", &o.docs.modifier_info, false),
        ("semantics", "Semantics", &o.docs.semantics, false),
        ("exception-notes", "Exceptions", &o.docs.exception, true),
    ] {
        if let Some(p) = prose {
            let text = prose_text(&p.text, rules);
            if !text.trim().is_empty() {
                sections.push(section(isa, id, title, &text));
            }
        }
    }
    let mut exceptions: Vec<ExcRow> = Vec::new();
    for &oc in &o.opcodes {
        let op = &isa.opcodes[oc];
        for e in &op.exceptions {
            match exceptions.iter_mut().find(|x| x.message == e.message && x.condition == e.condition.to_text()) {
                Some(x) => x.opcodes.push_str(&format!(", {}", op.name)),
                None => exceptions.push(ExcRow {
                    kind: e.kind.clone(),
                    message: e.message.clone(),
                    condition: e.condition.to_text(),
                    opcodes: op.name.clone(),
                }),
            }
        }
    }
    // A legacy example is checked against its notation's forms only (W014).
    let legacy_examples = o.examples.iter().map(|e| {
        let fails = input.diagnostics.items.iter().find(|d| {
            d.code == isa_dsl::Code::BadExample && d.span.zip(e.loc.span).is_some_and(|(d, e)| d.file == e.file && (e.start..=e.end).contains(&d.start))
        });
        ExampleRow {
            text: e.text.trim().to_string(),
            loc: format!("{}:{}", isa.files.get(e.loc.file as usize).map_or("", |s| s.as_str()), e.loc.line),
            ok: fails.is_none(),
            word: "—".into(),
            disasm: format!("(matches a form; {} describes no encodings)", o.notation.as_deref().unwrap_or("")),
            reason: fails.map_or(String::new(), |d| format!("does not match the {} forms: {}", notation(o), d.label)),
        }
    });
    let examples: Vec<ExampleRow> = if ot.is_none() { legacy_examples.collect() } else { input
        .examples
        .iter()
        .filter(|e| Some(e.optype) == ot)
        .map(|e| {
            let loc = format!("{}:{}", isa.files.get(e.loc.file as usize).map_or("", |s| s.as_str()), e.loc.line);
            match &e.result {
                Ok((w, d)) => ExampleRow { text: e.text.clone(), loc, ok: true, word: format!("{w:032x}"), disasm: d.clone(), reason: String::new() },
                Err(r) => ExampleRow { text: e.text.clone(), loc, ok: false, word: String::new(), disasm: String::new(), reason: format!("does not assemble: {r}") },
            }
        })
        .collect() };
    InsnPage {
        name: o.name.clone(),
        groups: crumbs(input.isa, o),
        summary: summary(o),
        // Each form with the spec's label for it (`// 扩展位宽模式`), if any.
        syntax: o.syntax.iter().map(syntax_line).collect(),
        unusable: unusable_forms(isa, o),
        modifiers: {
            let mut rows = match ot {
                Some(ot) => {
                    let mut rows = modifier_rows(isa, o);
                    rows.extend(prefix_rows(input, ot));
                    rows.extend(suffix_rows(input, ot));
                    rows
                }
                None => legacy_modifier_rows(o),
            };
            for r in &mut rows {
                r.forms = forms_writing(o, &r.written);
            }
            rows
        },
        sections,
        exceptions,
        simulation: o.effective_hook().map(|s| s.text()),
        simulation_note: o.effective_hook().and_then(|h| h.loc.span).map_or(String::new(), |s| declaration_comment(&input.sources.get(s.file).text, s.start as usize)),
        examples,
        opcodes: o.opcodes.iter().map(|&oc| opcode_view(isa, &isa.opcodes[oc])).collect(),
        legacy: if ot.is_some() { legacy_links(isa, &o.name) } else { Vec::new() },
        notation: o.notation.clone(),
        defects,
    }
}

/// A template as the manual shows it: its text, then its comment.
fn syntax_line(f: &SyntaxForm) -> String {
    let text = f.text.trim();
    match f.comment.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) if !text.contains(c) => format!("{text} // {c}"),
        _ => text.to_string(),
    }
}

/// Pages of the same instruction in an older notation.
fn legacy_links(isa: &Isa, name: &str) -> Vec<LegacyLink> {
    isa.legacy
        .iter()
        .filter(|l| l.name == name)
        .map(|l| LegacyLink {
            title: format!("{} in {} notation", l.name, notation(l)),
            href: format!("insn/{}.html", legacy_page(l)),
            md: format!("insn/{}.md", legacy_page(l)),
        })
        .collect()
}

/// The notation a legacy optype was written in, as pages name it
/// (`SPA 5.3`; "legacy" when the file does not say).
fn notation(o: &Optype) -> &str {
    o.notation.as_deref().unwrap_or("legacy")
}

/// A legacy optype's page name: its name and its notation's letters
/// and digits (`IADD.spa53`), apart from a DSL opcode of the same name.
fn legacy_page(o: &Optype) -> String {
    let tag: String = notation(o).chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    format!("{}.{}", o.name, tag.to_ascii_lowercase())
}

/// The forms of `o` that write modifier `written` (`.HI`, `{.itype}`,
/// `SrcB{.vsel}`), as `form 2` or `forms 1, 3`; empty when every form does.
fn forms_writing(o: &Optype, written: &str) -> String {
    let writes = |f: &SyntaxForm| {
        let spelled = |operand: &str, name: &str, optional: bool| if optional { format!("{operand}{{.{name}}}") } else { format!("{operand}.{name}") };
        f.modifiers.iter().any(|m| spelled("", &m.name, m.optional) == written)
            || f.operands.iter().any(|op| op.suffixes.iter().any(|d| spelled(&op.name, &d.name, d.optional) == written))
            || f.operands.iter().any(|op| op.prefixes.iter().any(|d| prefix_written(op, d).is_some_and(|p| p == written)))
    };
    let which: Vec<String> = o.syntax.iter().enumerate().filter(|(_, f)| writes(f)).map(|(k, _)| (k + 1).to_string()).collect();
    match which.len() {
        n if n == o.syntax.len() || n == 0 => String::new(),
        1 => format!("form {}", which[0]),
        _ => format!("forms {}", which.join(", ")),
    }
}

fn legacy_modifier_rows(o: &Optype) -> Vec<ModRow> {
    let mut rows: Vec<ModRow> = Vec::new();
    for f in &o.syntax {
        // Modifiers, then operand suffixes (`Ra{.iswz}`).
        let suffixes = f.operands.iter().flat_map(|op| op.suffixes.iter().map(move |d| (op.name.as_str(), d.name.as_str(), d.optional)));
        for (operand, name, optional) in f.modifiers.iter().map(|m| ("", m.name.as_str(), m.optional)).chain(suffixes) {
            let written = if optional { format!("{operand}{{.{name}}}") } else { format!("{operand}.{name}") };
            if rows.iter().any(|r| r.written == written) {
                continue;
            }
            let list = o.value_lists.iter().find(|l| l.name == name);
            let values = unencoded_values(list, name);
            let marked = list.and_then(|l| l.items.iter().find(|i| i.is_default)).map(|i| ModValue::new(&i.spelling, String::new()).text);
            let (default, default_note) = default_cell(optional, marked);
            rows.push(ModRow { written, optional, values, default, default_note, fields: Vec::new(), forms: String::new() });
        }
    }
    rows
}

/// The fields decoration `slot` (prefixes, then suffixes) of operand `k` of
/// form `fi` sets over `o`'s opcodes, each once, and the first opcode
/// binding one with its field.
fn decoration_fields<'a>(isa: &'a Isa, o: &Optype, fi: usize, k: usize, slot: usize) -> (Vec<&'a Field>, Option<(&'a Opcode, &'a Field)>) {
    let mut fields: Vec<&Field> = Vec::new();
    let mut first = None;
    for &oc in &o.opcodes {
        let op = &isa.opcodes[oc];
        let bound = op.forms.get(fi).and_then(|b| b.operands.get(k)).and_then(|ob| ob.decorations.get(slot)).cloned().flatten();
        if let Some(f) = bound.as_deref().and_then(|n| op.field(n)) {
            first.get_or_insert((op, f));
            if !fields.iter().any(|x| x.name == f.name && x.start == f.start) {
                fields.push(f);
            }
        }
    }
    (fields, first)
}

/// The fields a decoration sets, with their bits; a name at different bits
/// in different opcodes (FFMA's `rb.neg`) says which opcodes have which.
fn field_refs(isa: &Isa, o: &Optype, fields: &[&Field]) -> Vec<FieldRef> {
    fields
        .iter()
        .map(|f| {
            let mut bits = bits_text(f.start, f.width);
            if fields.iter().any(|g| g.name == f.name && g.start != f.start) {
                let ops: Vec<&str> = o.opcodes.iter().map(|&oc| &isa.opcodes[oc]).filter(|op| op.field(&f.name).is_some_and(|g| g.start == f.start)).map(|op| op.name.as_str()).collect();
                bits += &format!(" in {}", ops.join(", "));
            }
            FieldRef { name: f.name.to_string(), bits }
        })
        .collect()
}

/// How a prefix row writes decoration `d` of operand `sop` (`{-}Ra`,
/// `{|}Ra{|}`); `None` for a suffix.
fn prefix_written(sop: &SyntaxOperand, d: &Decoration) -> Option<String> {
    let (open, close) = match d.kind {
        DecorationKind::Neg => ("-", ""),
        DecorationKind::Abs => ("|", "|"),
        DecorationKind::Not => ("!", ""),
        DecorationKind::Invert => ("~", ""),
        DecorationKind::Suffix => return None,
    };
    let wrap = |s: &str| if s.is_empty() { String::new() } else if d.optional { format!("{{{s}}}") } else { s.to_string() };
    Some(format!("{}{}{}", wrap(open), sop.name, wrap(close)))
}

/// Rows for operand prefixes (`{-}Ra`, `{|}Ra{|}`, `{!}pp`): the sign, the
/// sub-field it sets over the optype's opcodes and the value written.
fn prefix_rows(input: &DocsInput, ot: usize) -> Vec<ModRow> {
    let isa = input.isa;
    let o = &isa.optypes[ot];
    let mut rows: Vec<ModRow> = Vec::new();
    for (fi, form) in o.syntax.iter().enumerate() {
        for (k, sop) in form.operands.iter().enumerate() {
            for (di, d) in sop.prefixes.iter().enumerate() {
                let sign = match d.kind {
                    DecorationKind::Neg => "-",
                    DecorationKind::Abs => "|..|",
                    DecorationKind::Not => "!",
                    DecorationKind::Invert => "~",
                    DecorationKind::Suffix => continue,
                };
                let Some(written) = prefix_written(sop, d) else { continue };
                if rows.iter().any(|r| r.written == written) {
                    continue;
                }
                let (fields, first) = decoration_fields(isa, o, fi, k, di);
                let value = |f: &Field, on: bool| isa.types[f.ty].value_text(input.asm.flag(f, on));
                let encoding = fields.first().map_or("—".to_string(), |f| value(f, true));
                let mut values = vec![ModValue { text: sign.to_string(), encoding: encoding.clone() }];
                // A `CvtINegX(x.neg, by)` hook spells the same bit `~` when `by` is X.
                if let Some(by) = first.filter(|_| d.kind == DecorationKind::Neg).and_then(|(op, f)| input.asm.hook(op, Some(&f.name), "CvtINegX")).and_then(|h| h.args.get(1)) {
                    values.push(ModValue { text: "~".into(), encoding: format!("{encoding}, written instead of `-` when `{by}` is X") });
                }
                let refs = field_refs(isa, o, &fields);
                // Leaving out the prefix writes its "off" value; leaving out a
                // whole optional operand (`{, {!}pp}`) keeps the field's default,
                // which may be the "on" one (`pp` defaults to `!PT`).
                let default_note = fields.first().filter(|_| d.optional).map(|f| {
                    let off = input.asm.flag(f, false);
                    let mut note = format!("`{sign}` omitted: {}", value(f, false));
                    if let Some(v) = f.default_value().filter(|&v| sop.optional && v != off) {
                        note += &format!("; operand omitted: {} (the field's default)", isa.types[f.ty].value_text(v));
                    }
                    note
                });
                rows.push(ModRow { written, optional: d.optional, values, default: None, default_note, fields: refs, forms: String::new() });
            }
        }
    }
    rows
}

/// Rows for operand suffixes (`Ra.hsel2`): the values of their lists, the
/// fields they set over the optype's opcodes, and each value's encoding
/// (from the list or the field's enum, or by the source width where an
/// `AsmFormat` hook such as `CvtVSel` spells it).
fn suffix_rows(input: &DocsInput, ot: usize) -> Vec<ModRow> {
    let isa = input.isa;
    let o = &isa.optypes[ot];
    let mut rows: Vec<ModRow> = Vec::new();
    for (fi, form) in o.syntax.iter().enumerate() {
        for (k, sop) in form.operands.iter().enumerate() {
            for (di, d) in sop.suffixes.iter().enumerate() {
                let written = if d.optional { format!("{}{{.{}}}", sop.name, d.name) } else { format!("{}.{}", sop.name, d.name) };
                if rows.iter().any(|r| r.written == written) {
                    continue;
                }
                let (fields, first) = decoration_fields(isa, o, fi, k, sop.prefixes.len() + di);
                let list = o.value_lists.iter().find(|l| l.name == d.name);
                let encoding = |sfx: &str| -> String {
                    let Some((op, f)) = first else { return "—".into() };
                    let w = f.width as usize + 2;
                    match input.asm.suffix_hook(op, f) {
                        Some(h) => {
                            let by = h.args.get(1).map_or("", |a| a.as_str());
                            [8u32, 16, 32]
                                .iter()
                                .filter_map(|&bits| {
                                    let v = input.asm.vsel_value(f, bits, sfx)?;
                                    let name = isa.types[f.ty].enum_name(v).map_or(String::new(), |n| format!(" `{n}`"));
                                    Some(format!("{v:#0w$b}{name} (`{by}` of {bits} bits)"))
                                })
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                        None => input.asm.suffix_static_value(ot, f, &d.name, sfx).map_or("—".into(), |v| format!("{v:#0w$b}")),
                    }
                };
                let values: Vec<ModValue> = match list {
                    Some(l) => l.items.iter().map(|i| ModValue::new(&i.spelling, encoding(&i.spelling))).collect(),
                    None => Vec::new(),
                };
                let marked = list.and_then(|l| l.items.iter().find(|i| i.is_default)).map(|i| format!(".{}", i.spelling));
                let (default, mut default_note) = default_cell(d.optional, marked);
                // No value marked: an omitted suffix leaves the field at its default.
                if let (true, None, None, Some((_, f))) = (d.optional, &default, &default_note, first) {
                    if let Some(v) = f.default_value() {
                        default_note = Some(format!("omitted: the field keeps its default `{}`", isa.types[f.ty].value_text(v)));
                    }
                }
                let fields = field_refs(isa, o, &fields);
                rows.push(ModRow { written, optional: d.optional, values, default, default_note, fields, forms: String::new() });
            }
        }
    }
    rows
}

fn modifier_rows(isa: &Isa, o: &Optype) -> Vec<ModRow> {
    let Some(&first) = o.opcodes.first() else { return Vec::new() };
    let op = &isa.opcodes[first];
    let mut rows: Vec<ModRow> = Vec::new();
    for (form, b) in o.syntax.iter().zip(&op.forms) {
        for (m, mb) in form.modifiers.iter().zip(&b.modifiers) {
            let written = if m.optional { format!("{{.{}}}", m.name) } else { format!(".{}", m.name) };
            if rows.iter().any(|r| r.written == written) {
                continue;
            }
            let field = |name: &str| op.field(name);
            // A field every opcode holds constant: the modifier only spells it.
            let constant = |f: &str| o.opcodes.iter().all(|&oc| isa.opcodes[oc].field(f).is_some_and(Field::is_constant));
            let mut kept: Option<String> = None;
            let mut mismatch: Option<String> = None;
            let (values, default, fname) = match mb {
                ModifierBinding::Mnemonic { .. } => continue,
                ModifierBinding::Value { field: f, spelling, value, .. } => {
                    let fd = field(f);
                    let enc = fd.map_or(String::new(), |fd| format!("{value:#0w$b}", w = fd.width as usize + 2));
                    // Omitted, the field keeps its default (`NoFTZ`).
                    kept = fd.and_then(|fd| Some(format!("omitted: the field keeps its default `{}`", isa.types[fd.ty].value_text(fd.default_value()?))));
                    (vec![ModValue::new(spelling, enc)], None, Some(f.clone()))
                }
                ModifierBinding::Choice { field: f, values, .. } => {
                    let fd = field(f);
                    let w = fd.map_or(1, |fd| fd.width as usize);
                    let mut vals: Vec<ModValue> = values.iter().map(|v| ModValue::new(&v.spelling, format!("{:#0w$b}", v.value, w = w + 2))).collect();
                    kept = fd.and_then(|fd| Some(format!("omitted: the field keeps its default `{}`", isa.types[fd.ty].value_text(fd.default_value()?))));
                    // Values of the spec's list the field cannot hold (W005) are listed, not dropped.
                    for i in o.value_lists.iter().filter(|l| l.name == m.name).flat_map(|l| &l.items) {
                        if !values.iter().any(|v| v.spelling == i.spelling) {
                            vals.push(ModValue::new(&i.spelling, "— cannot be encoded (W005)".into()));
                        }
                    }
                    // Omitted, the field keeps its default: that is the default
                    // shown, also when the list's `*` marks another (W005 says so).
                    let by_field = values.iter().find(|v| fd.and_then(|fd| fd.default_value()) == Some(v.value));
                    let marked = values.iter().find(|v| v.is_default);
                    if let (Some(a), Some(b)) = (by_field, marked) {
                        if a.spelling != b.spelling {
                            mismatch = Some(format!("omitted, the field keeps its default `.{}`; the spec's list marks `.{}` (W005)", a.spelling, b.spelling));
                        }
                    }
                    let default = by_field.or(marked).map(|v| format!(".{}", v.spelling));
                    (vals, default, Some(f.clone()))
                }
                ModifierBinding::Unbound { text } => {
                    let list = o.value_lists.iter().find(|l| l.name == *text);
                    let vals = unencoded_values(list, text);
                    let default = list.and_then(|l| l.items.iter().find(|i| i.is_default)).map(|i| format!(".{}", i.spelling));
                    (vals, default, None)
                }
            };
            let (default, mut default_note) = default_cell(m.optional, default);
            if let Some(f) = fname.as_deref().filter(|f| constant(f)) {
                let v = field(f).and_then(Field::default_value).map_or(String::new(), |v| field(f).map_or(String::new(), |fd| isa.types[fd.ty].value_text(v)));
                let note = format!("`{f}` is the constant `{v}` in every opcode: writing it changes nothing");
                default_note = Some(match default_note {
                    Some(n) => format!("{n}; {note}"),
                    None => note,
                });
            } else if default.is_none() && default_note.is_none() && m.optional {
                default_note = kept;
            }
            if let Some(n) = mismatch {
                default_note = Some(match default_note {
                    Some(d) => format!("{d}; {n}"),
                    None => n,
                });
            }
            let fields = fname
                .map(|n| FieldRef { bits: field(&n).map_or(String::new(), |f| bits_text(f.start, f.width)), name: n })
                .into_iter()
                .collect();
            rows.push(ModRow { written, optional: m.optional, values, default, default_note, fields, forms: String::new() });
        }
    }
    rows
}

fn opcode_view(isa: &Isa, op: &Opcode) -> OpcodeView {
    let constants = op
        .fields
        .iter()
        .filter(|f| f.is_constant())
        .map(|f| {
            // The number too, where the value has a name: the opcode map in hex.
            let v = f.default_value().unwrap_or(0);
            let shown = isa.types[f.ty].value_text(v);
            let number = if shown.starts_with("0x") { String::new() } else { format!(" ({v:#x})") };
            format!("{} == {shown}{number}", f.name)
        })
        .collect();
    let covered = op.covered_mask();
    let mut gaps: Vec<String> = Vec::new();
    let mut b = isa.width;
    while b > 0 {
        b -= 1;
        if covered >> b & 1 == 0 {
            let top = b;
            while b > 0 && covered >> (b - 1) & 1 == 0 {
                b -= 1;
            }
            gaps.push(bits_text(b, top - b + 1));
        }
    }
    let unused = gaps.join(", ");
    // Diagram: rows of 32 bits, most significant first.
    let mut rows = Vec::new();
    let mut hi = isa.width;
    while hi > 0 {
        let lo = hi.saturating_sub(32);
        let bits: Vec<String> = (lo..hi).rev().map(|b| if b % 4 == 0 || b == hi - 1 { b.to_string() } else { String::new() }).collect();
        let mut cells = Vec::new();
        let mut b = hi;
        while b > lo {
            let top = b - 1;
            let owner = op.fields.iter().find(|f| f.start <= top && top < f.start + f.width);
            let mut bottom = top;
            while bottom > lo && op.fields.iter().find(|f| f.start < bottom && bottom - 1 < f.start + f.width).map(|f| &f.name) == owner.map(|f| &f.name) {
                bottom -= 1;
            }
            let span = top - bottom + 1;
            let cell = match owner {
                None => Cell { label: "·".into(), span, cls: "uncovered", title: format!("bits {top}..{bottom}: not covered by any field") },
                Some(f) => {
                    let t = &isa.types[f.ty];
                    let (cls, value) = match f.value {
                        FieldValue::Constant(v) => ("const", format!(" == {}", t.value_text(v))),
                        FieldValue::Default(v) => ("default", format!(" = {}", t.value_text(v))),
                        FieldValue::Free => ("field", String::new()),
                    };
                    let label = if let FieldValue::Constant(v) = f.value { format!("{} {}", f.name, t.value_text(v)) } else { f.name.to_string() };
                    Cell { label, span, cls, title: format!("{} {}: {} bit{} {}..{}{value}", t.name, f.name, f.width, if f.width == 1 { "" } else { "s" }, f.start + f.width - 1, f.start) }
                }
            };
            cells.push(cell);
            b = bottom;
        }
        rows.push(DiagramRow { bits, cells });
        hi = lo;
    }
    let info = &op.operands;
    let operands = info
        .order
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let f = op.field(&r.name);
            let kind = match (f, r.index.is_empty()) {
                (Some(f), true) => type_kind(&isa.types[f.ty]),
                (_, false) => format!("register indexed by {}", r.index.join(" + ")),
                (None, _) => "fixed text".into(),
            };
            let width = info.bitwidths.iter().find(|b| b.operand == r.name).map_or(String::new(), |b| match b.constant {
                Some(c) => c.to_string(),
                None => b.expr.to_text(),
            });
            let is_in = info.inputs.iter().any(|x| x.name == r.name);
            let is_out = info.outputs.iter().any(|x| x.name == r.name);
            let dir = match (is_in, is_out) {
                (true, true) => "in/out",
                (true, false) => "in",
                (false, true) => "out",
                _ => "",
            };
            let name = if r.index.is_empty() { r.name.clone() } else { format!("{}[{}]", r.name, r.index.join(", ")) };
            OperandRow {
                order: k,
                name,
                field: if f.is_some() { r.name.clone() } else { r.index.join(", ") },
                kind,
                // An indexed register: the bits of the fields that index it.
                bits: match f {
                    Some(f) => bits_text(f.start, f.width),
                    None => r.index.iter().filter_map(|n| op.field(n)).map(|f| format!("{} {}", f.name, bits_text(f.start, f.width))).collect::<Vec<_>>().join(", "),
                },
                width,
                dir: if dir.is_empty() && !r.index.is_empty() { "not in InList/OutList".into() } else { dir.into() },
            }
        })
        .collect();
    let fields = op
        .fields
        .iter()
        .map(|f| FieldRow {
            bits: bits_text(f.start, f.width),
            name: f.name.to_string(),
            value: match f.value {
                FieldValue::Constant(v) => format!("== {}", isa.types[f.ty].value_text(v)),
                FieldValue::Default(v) => format!("= {}", isa.types[f.ty].value_text(v)),
                FieldValue::Free => String::new(),
            },
        })
        .collect();
    OpcodeView { name: op.name.clone(), constants, unused, rows, operands, fields }
}

/// A prose section as the manual shows it: without the lines the front end
/// reads as directives or exception rules (when `rules`), and with its
/// headings moved under the page's own `##` sections: its shallowest
/// heading is `###` (`#` in PRMT, `###` in F2IP), the others keep their depth below it.
fn prose_text(text: &str, rules: bool) -> String {
    // A Markdown heading's level (`## x`: 2), outside code fences.
    let heading = |line: &str| {
        let t = line.trim_start();
        let level = t.bytes().take_while(|&b| b == b'#').count();
        ((1..=6).contains(&level) && line.len() - t.len() <= 3 && t[level..].chars().next().is_none_or(char::is_whitespace)).then_some(level)
    };
    let mut in_fence = false;
    let shallowest = text
        .lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            !in_fence
        })
        .filter_map(heading)
        .min()
        .unwrap_or(1);
    let mut out = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            if rules && isa_dsl::parser::is_rule_line(line) {
                continue;
            }
            if let Some(level) = heading(line) {
                out.push_str(&"#".repeat((level + 3 - shallowest).min(6)));
                out.push_str(&t[t.bytes().take_while(|&b| b == b'#').count()..]);
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A CJK ideograph or punctuation mark: text holding one is marked `zh`.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}')
}

/// Splits prose into Markdown blocks and fenced code blocks.
fn section(isa: &Isa, id: &str, title: &str, text: &str) -> Section {
    let mut blocks = Vec::new();
    let mut md = String::new();
    let mut code: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match code.take() {
                Some(lines) => blocks.push(Block { code: true, html: String::new(), lines: lines.iter().map(|l| tokenize(l)).collect() }),
                None => {
                    if !md.trim().is_empty() {
                        blocks.push(Block { code: false, html: markdown_html(isa, &md), lines: Vec::new() });
                    }
                    md.clear();
                    code = Some(Vec::new());
                }
            }
            continue;
        }
        match &mut code {
            Some(lines) => lines.push(line.to_string()),
            None => {
                md.push_str(line);
                md.push('\n');
            }
        }
    }
    if let Some(lines) = code {
        blocks.push(Block { code: true, html: String::new(), lines: lines.iter().map(|l| tokenize(l)).collect() });
    }
    if !md.trim().is_empty() {
        blocks.push(Block { code: false, html: markdown_html(isa, &md), lines: Vec::new() });
    }
    Section { id: id.into(), title: title.into(), blocks, markdown: markdown_for_book(isa, text) }
}

/// Markdown -> HTML (pulldown-cmark), with `[[FADD]]` as links. A link the
/// spec cannot resolve points at the diagnostics page (which lists it as
/// W010) and carries the title `unresolved: ...`, which the stylesheet marks:
/// visible, never dead, and no HTML is written here.
fn markdown_html(isa: &Isa, text: &str) -> String {
    use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
    let mut src = String::new();
    let mut last = 0;
    for l in links::scan(isa, text) {
        if !text[l.range.clone()].starts_with("[[") {
            continue;
        }
        src.push_str(&text[last..l.range.start]);
        match &l.target {
            LinkTarget::Instruction(n) => src.push_str(&format!("[{n}]({n}.html)")),
            _ => src.push_str(&format!("[{}](unresolved:{})", l.text, l.text)),
        }
        last = l.range.end;
    }
    src.push_str(&text[last..]);
    // Raw HTML in the prose is shown as the text it is, never as markup:
    // `a<b c>d` would bold the rest of the paragraph, `</div>` close the
    // page's own, `<script>` run (the book escapes it too: `escape_for_book`).
    let mut unresolved_image = false;
    let events = Parser::new_ext(&src, Options::ENABLE_TABLES).map(|ev| match ev {
        Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
        Event::Start(Tag::HtmlBlock) => Event::Start(Tag::Paragraph),
        Event::End(TagEnd::HtmlBlock) => Event::End(TagEnd::Paragraph),
        Event::Start(Tag::Link { link_type, dest_url, id, .. }) if is_unresolved(&dest_url) => {
            let target = dest_url.trim_start_matches("unresolved:").to_string();
            Event::Start(Tag::Link {
                link_type,
                dest_url: CowStr::from("../diagnostics.html#unresolved-links"),
                title: CowStr::from(format!("unresolved: {target} is not in the spec")),
                id,
            })
        }
        // An image of a file the spec lacks: its text, as an unresolved link.
        Event::Start(Tag::Image { link_type, dest_url, id, .. }) if is_unresolved(&dest_url) => {
            unresolved_image = true;
            Event::Start(Tag::Link {
                link_type,
                dest_url: CowStr::from("../diagnostics.html#unresolved-links"),
                title: CowStr::from(format!("unresolved: {dest_url} is not in the spec")),
                id,
            })
        }
        Event::End(TagEnd::Image) if std::mem::take(&mut unresolved_image) => Event::End(TagEnd::Link),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

fn is_unresolved(dest: &str) -> bool {
    dest.starts_with("unresolved:") || !(dest.starts_with("http://") || dest.starts_with("https://") || dest.starts_with('#') || dest.ends_with(".html"))
}

/// The prose for the book: `[[FADD]]` -> `[FADD](FADD.md)`, links to documents
/// the spec lacks -> their text with the target marked unresolved.
fn markdown_for_book(isa: &Isa, text: &str) -> String {
    let mut out = String::new();
    let mut last = 0;
    for l in links::scan(isa, text) {
        if l.range.start < last {
            continue;
        }
        out.push_str(&text[last..l.range.start]);
        match &l.target {
            LinkTarget::Instruction(n) => out.push_str(&format!("[{n}]({n}.md)")),
            LinkTarget::External(_) => out.push_str(&text[l.range.clone()]),
            LinkTarget::Unresolved(t) => out.push_str(&format!("{} *(unresolved: `{t}`)*", l.text)),
        }
        last = l.range.end;
    }
    out.push_str(&text[last..]);
    blank_line_before_tables(&escape_for_book(&out))
}

/// `md` with a blank line before each table that follows a paragraph line
/// directly: pulldown-cmark (and so mdBook) reads such a table, but
/// cmark-gfm and other renderers read it as more paragraph text.
fn blank_line_before_tables(md: &str) -> String {
    let lines: Vec<&str> = md.split('\n').collect();
    let is_delimiter = |l: &str| {
        let t = l.trim();
        t.contains('-') && t.contains('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
    };
    let mut out = String::with_capacity(md.len() + 8);
    let mut fence = false;
    for (k, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("```") {
            fence = !fence;
        }
        let starts_table = !fence && l.trim_start().starts_with('|') && lines.get(k + 1).is_some_and(|n| is_delimiter(n));
        if starts_table && k > 0 && !lines[k - 1].trim().is_empty() && !lines[k - 1].trim_start().starts_with('|') {
            out.push('\n');
        }
        out.push_str(l);
        if k + 1 < lines.len() {
            out.push('\n');
        }
    }
    out
}

/// `text` as HTML with each `...` span in <code>: a diagnostic's message
/// quotes spec text that way. An unpaired backtick stays as it is.
fn code_spans_html(text: &str) -> String {
    // The escaping the templates' own `{{ }}` get.
    let escape = |s: &str| minijinja::HtmlEscape(s).to_string();
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (k, p) in parts.iter().enumerate() {
        let paired = k % 2 == 1 && k + 1 < parts.len();
        match (k % 2 == 1, paired) {
            (true, true) => out.push_str(&format!("<code>{}</code>", escape(p))),
            (true, false) => out.push_str(&format!("`{}", escape(p))),
            _ => out.push_str(&escape(p)),
        }
    }
    out
}

/// `~` and `<` escaped outside code (fenced blocks and backtick spans):
/// the seeds write `~` as a range sign (`b0~b3`), and mdbook reads a pair
/// of single tildes as strikethrough; a `<` would start raw HTML (`a<b
/// c>d` bolds the rest of the paragraph, `</div>` closes the page's own),
/// which the site shows as text too ([`markdown_html`]). An autolink
/// (`<https://...>`) keeps its `<`.
fn escape_for_book(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if fence || line.trim_start().starts_with("```") || !line.contains(['~', '<']) {
            out.push_str(line);
            continue;
        }
        // Backtick spans: a run of n backticks opens one, the next run of n closes it.
        let mut open: Option<usize> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '`' {
                let run = line[i..].bytes().take_while(|&b| b == b'`').count();
                for _ in 1..run {
                    chars.next();
                }
                open = match open {
                    None => Some(run),
                    Some(n) if n == run => None,
                    other => other,
                };
                out.push_str(&line[i..i + run]);
                continue;
            }
            if (c == '~' || (c == '<' && !is_autolink(&line[i..]))) && open.is_none() {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// `text` as a Markdown code span: fenced by one backtick more than its
/// longest run of them, padded with a space when it starts or ends with
/// one (an example's comment may quote `code`).
fn book_code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Whether `text` starts with a Markdown autolink: `<`, a URI scheme, `:`,
/// then no space up to `>`.
fn is_autolink(text: &str) -> bool {
    let Some(end) = text.find('>') else { return false };
    let inner = &text[1..end];
    let scheme = inner.split(':').next().unwrap_or("");
    inner.len() > scheme.len() && (2..=32).contains(&scheme.len()) && scheme.starts_with(|c: char| c.is_ascii_alphabetic()) && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')) && !inner.contains(char::is_whitespace)
}

/// Tokens of a pseudo-code line for highlighting.
fn tokenize(line: &str) -> Vec<Token> {
    const KEYWORDS: &[&str] = &["if", "else", "for", "while", "return", "true", "false", "break", "continue", "int", "float", "bool"];
    let mut out: Vec<Token> = Vec::new();
    let mut push = |cls: &'static str, text: &str| match out.last_mut() {
        Some(t) if t.cls == cls && cls == "text" => t.text.push_str(text),
        _ => out.push(Token { cls, text: text.to_string() }),
    };
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if rest.starts_with("//") {
            push("comment", rest);
            break;
        }
        let take = |pred: &dyn Fn(char) -> bool| rest.char_indices().find(|(_, ch)| !pred(*ch)).map_or(rest.len(), |(k, _)| k);
        let n = if c.is_ascii_digit() {
            let n = take(&|ch| ch.is_ascii_alphanumeric() || ch == '.' || ch == '_');
            push("num", &rest[..n]);
            n
        } else if c == '"' {
            let n = rest[1..].find('"').map_or(rest.len(), |k| k + 2);
            push("str", &rest[..n]);
            n
        } else if c == '.'
            && (rest[1..].starts_with(|ch: char| ch.is_ascii_alphabetic())
                // A dotted part after a name may start with a digit (`IDP.2A`).
                || (rest[1..].starts_with(|ch: char| ch.is_ascii_digit()) && line[..i].ends_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')))
        {
            let n = 1 + rest[1..].char_indices().find(|(_, ch)| !(ch.is_ascii_alphanumeric() || *ch == '_')).map_or(rest.len() - 1, |(k, _)| k);
            push("mod", &rest[..n]);
            n
        } else if c.is_ascii_alphabetic() || c == '_' {
            let n = take(&|ch| ch.is_ascii_alphanumeric() || ch == '_');
            push(if KEYWORDS.contains(&&rest[..n]) { "kw" } else { "text" }, &rest[..n]);
            n
        } else if "=<>!&|+-*/%?:^~".contains(c) {
            push("op", &rest[..c.len_utf8()]);
            c.len_utf8()
        } else {
            push("text", &rest[..c.len_utf8()]);
            c.len_utf8()
        };
        i += n.max(1);
    }
    out
}

// --- type and diagnostics pages ----------------------------------------------------

#[derive(Serialize)]
struct TypePage {
    name: String,
    description: String,
    /// The spec's own `//` comment lines just above the declaration, line
    /// by line (a list of spellings stays a list).
    comment: Vec<String>,
    values: Vec<TypeValue>,
    /// Some value has a comment of its own (`C; // CLAMP`).
    value_comments: bool,
    users: Vec<TypeUser>,
    loc: String,
}

#[derive(Serialize)]
struct TypeValue {
    name: String,
    encoding: String,
    hex: String,
    /// The comment after the value on its line (`C; // CLAMP`: `CLAMP`).
    comment: String,
}

#[derive(Serialize)]
struct TypeUser {
    optype: String,
    opcode: String,
    field: String,
    bits: String,
}

fn type_page(isa: &Isa, t: &Type, sources: &isa_dsl::SourceMap) -> TypePage {
    let description = match &t.kind {
        TypeKind::Register { prefix, constants, predicate, .. } => {
            // Named registers at the top of the range (RZ = 255) are written by name.
            let max = crate::plan::mask64(t.width);
            let mut top = max;
            while constants.iter().any(|c| c.index == top) && top > 0 {
                top -= 1;
            }
            format!(
                "{} {prefix}0..{prefix}{top} ({} bits){}.",
                if *predicate { "Predicates" } else { "Registers" },
                t.width,
                constants
                    .iter()
                    .map(|c| format!("; {} is number {} (the assembler also reads `{prefix}{}` as it, the disassembler prints `{}`)", c.name, c.index, c.index, c.name))
                    .collect::<String>()
            )
        }
        TypeKind::Float { exponent, mantissa, lanes } => {
            format!("{lanes} IEEE-style float lane(s) of 1 sign, {exponent} exponent and {mantissa} mantissa bits; lane 0 in the low bits.")
        }
        TypeKind::ConstMem { bank, offset } => format!(
            "Constant-memory reference c[bank][offset]: bank in bits {}..{}, byte offset in bits {}..{} of the field.",
            bank.start + bank.width - 1,
            bank.start,
            offset.start + offset.width - 1,
            offset.start
        ),
        _ => format!("{}.", type_kind(t)),
    };
    let text = t.loc.span.map(|s| (sources.get(s.file).text.as_str(), s.start as usize));
    let trailing = text.map(|(text, at)| value_comments(text, at)).unwrap_or_default();
    let values: Vec<TypeValue> = match &t.kind {
        TypeKind::Enum { values } => values
            .iter()
            .map(|v| TypeValue {
                name: v.name.clone(),
                encoding: format!("{:#0w$b}", v.encoding, w = t.width as usize + 2),
                hex: format!("{:#x}", v.encoding),
                comment: trailing.iter().find(|(n, _)| *n == v.name).map(|(_, c)| c.clone()).unwrap_or_default(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let value_comments = values.iter().any(|v| !v.comment.is_empty());
    let mut users: Vec<TypeUser> = Vec::new();
    for op in &isa.opcodes {
        for f in op.fields.iter().filter(|f| *f.ty_name == *t.name) {
            users.push(TypeUser {
                optype: isa.optypes[op.optype].name.clone(),
                opcode: op.name.clone(),
                field: f.name.to_string(),
                bits: bits_text(f.start, f.width),
            });
        }
    }
    let loc = t.loc.span.map_or(String::new(), |s| sources.location(s));
    let comment = text.map(|(text, at)| comment_lines(text, at)).unwrap_or_default();
    TypePage { name: t.name.clone(), description, comment, values, value_comments, users, loc }
}

/// [`comment_above`], leaving out lines that only mark work to do (a bare
/// `todo:` or `fixme`, in any case), which say nothing to a reader: one
/// paragraph (its lines joined), or, when every line is a short item of
/// at most three words (F2FPSrcType's list of `F2FP.BF16.E8` spellings),
/// its lines.
fn comment_lines(text: &str, at: usize) -> Vec<String> {
    let marker = |l: &str| matches!(l.trim_end_matches(':').to_ascii_lowercase().as_str(), "todo" | "fixme" | "xxx");
    let lines: Vec<String> = comment_above(text, at).into_iter().filter(|l| !marker(l)).map(str::to_string).collect();
    if lines.len() > 1 && !lines.iter().all(|l| l.split_whitespace().count() <= 3) {
        vec![lines.join(" ")]
    } else {
        lines
    }
}

/// The trailing comments of the value lines of the type declared at byte
/// `at` (`C; // CLAMP`), by value name: the lines after the declaration's,
/// up to the next declaration.
fn value_comments(text: &str, at: usize) -> Vec<(String, String)> {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("__"))
        .filter_map(|l| {
            let (code, comment) = l.split_once("//")?;
            let name = code.trim().trim_end_matches(';').split('=').next()?.trim();
            let comment = comment.trim();
            (!name.is_empty() && !comment.is_empty()).then(|| (name.to_string(), comment.to_string()))
        })
        .collect()
}

/// The comment above the declaration holding byte `at`: above its own line,
/// or above the `__Def...` line just before it (a hook line under
/// `__DefSimulation X`).
fn declaration_comment(text: &str, at: usize) -> String {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let above = text[..start.saturating_sub(1)].rfind('\n').map_or(0, |i| i + 1);
    if start > 0 && text[above..start].trim_start().starts_with("__Def") {
        leading_comment(text, above)
    } else {
        leading_comment(text, at)
    }
}

/// The `//` comment lines right above the line holding byte `at` (a
/// declaration), without their slashes, joined into one paragraph.
fn leading_comment(text: &str, at: usize) -> String {
    comment_above(text, at).join(" ")
}

/// The non-empty `//` comment lines right above the line holding byte
/// `at`, without their slashes, in order.
fn comment_above(text: &str, at: usize) -> Vec<&str> {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let mut lines: Vec<&str> = text[..start].lines().rev().map(str::trim).take_while(|l| l.starts_with("//")).collect();
    lines.reverse();
    lines.into_iter().map(|l| l.trim_start_matches('/').trim()).filter(|l| !l.is_empty()).collect()
}

#[derive(Serialize)]
struct DiagnosticsPage {
    summary: String,
    diagnostics: Vec<DiagRow>,
    codes: Vec<CodeRow>,
}

#[derive(Serialize)]
struct DiagRow {
    code: String,
    severity: &'static str,
    loc: String,
    message: String,
    message_md: String,
    notes: String,
    /// The instruction page whose declarations contain it (file stem under `insn/`).
    page: Option<String>,
    /// How links name that page: `HMUL2 (SPA 5.3)` for a legacy page.
    page_title: String,
}

/// For each diagnostic, the instruction page whose declarations contain its
/// place: the nearest declaration (type, group, optype, opcode, simulation
/// hook) starting at or before it in its file decides; types and groups
/// belong to no page.
fn diagnostic_pages(input: &DocsInput) -> Vec<Option<String>> {
    let isa = input.isa;
    // (file, start offset, page)
    let mut decls: Vec<(u32, u32, Option<String>)> = Vec::new();
    let mut add = |loc: &Loc, page: Option<String>| {
        if let Some(s) = loc.span {
            decls.push((s.file.0, s.start, page));
        }
    };
    for t in &isa.types {
        add(&t.loc, None);
    }
    for g in &isa.groups {
        add(&g.loc, None);
    }
    for o in &isa.optypes {
        add(&o.loc, Some(o.name.clone()));
        if let Some(h) = &o.hook {
            // The hook line starts at its results (`vd = kernel(...)`).
            let start = h.result_spans.first().map(|s| Loc { span: Some(*s), ..h.loc });
            add(start.as_ref().unwrap_or(&h.loc), Some(o.name.clone()));
        }
    }
    for op in &isa.opcodes {
        add(&op.loc, Some(isa.optypes[op.optype].name.clone()));
    }
    for o in &isa.legacy {
        for f in &o.syntax {
            add(&f.loc, Some(legacy_page(o)));
        }
        for e in &o.examples {
            add(&e.loc, Some(legacy_page(o)));
        }
    }
    decls.sort_by_key(|d| (d.0, d.1));
    input
        .diagnostics
        .items
        .iter()
        .map(|d| {
            let s = d.span?;
            let k = decls.partition_point(|x| (x.0, x.1) <= (s.file.0, s.start));
            decls[..k].last().filter(|x| x.0 == s.file.0).and_then(|x| x.2.clone())
        })
        .collect()
}

fn diag_row(input: &DocsInput, d: &isa_dsl::Diagnostic, page: &Option<String>) -> DiagRow {
    DiagRow {
        code: d.code.as_str().to_string(),
        severity: if d.is_error() { "error" } else { "warning" },
        loc: d.span.map_or(String::new(), |s| input.sources.location(s)),
        message: d.message.clone(),
        message_md: d.message.replace('|', "\\|"),
        notes: d.all_notes().collect::<Vec<_>>().join("; "),
        page_title: page.as_ref().map_or(String::new(), |p| {
            let legacy = input.isa.legacy.iter().find(|o| legacy_page(o) == *p);
            legacy.map_or(p.clone(), |o| format!("{} ({})", o.name, notation(o)))
        }),
        page: page.clone(),
    }
}

#[derive(Serialize)]
struct CodeRow {
    code: &'static str,
    title: &'static str,
}

fn diagnostics_page(input: &DocsInput, owners: &[Option<String>]) -> DiagnosticsPage {
    let diagnostics = input.diagnostics.items.iter().zip(owners).map(|(d, p)| diag_row(input, d, p)).collect();
    let codes = isa_dsl::Code::ALL.iter().map(|c| CodeRow { code: c.as_str(), title: c.title() }).collect();
    DiagnosticsPage { summary: input.diagnostics.summary(), diagnostics, codes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_in_prose_is_text_on_the_site_and_in_the_book() {
        let isa = Isa::default();
        let prose = "a<b c>d and <script>x()</script>, `<i>` in code\n\n</div></main>\n\nsee <https://example.com/x>";
        let html = markdown_html(&isa, prose);
        assert!(html.contains("a&lt;b c&gt;d and &lt;script&gt;x()&lt;/script&gt;") && html.contains("<code>&lt;i&gt;</code>"), "{html}");
        assert!(html.contains("<p>&lt;/div&gt;&lt;/main&gt;") && !html.contains("<b") && !html.contains("</div>"), "{html}");
        assert!(html.contains(r#"<a href="https://example.com/x">"#), "an autolink stays a link: {html}");
        let book = escape_for_book(prose);
        assert_eq!(book, "a\\<b c>d and \\<script>x()\\</script>, `<i>` in code\n\n\\</div>\\</main>\n\nsee <https://example.com/x>");
    }

    #[test]
    fn an_image_of_a_file_the_spec_lacks_is_an_unresolved_link() {
        let isa = Isa::default();
        let html = markdown_html(&isa, "see ![plot](x.png) and ![logo](https://example.com/l.png)");
        assert!(html.contains(r#"<a href="../diagnostics.html#unresolved-links" title="unresolved: x.png is not in the spec">plot</a>"#), "{html}");
        assert!(!html.contains("x.png\"") && html.contains(r#"<img src="https://example.com/l.png" alt="logo""#), "{html}");
        let links = crate::links::scan(&isa, "see ![plot](x.png)");
        assert!(matches!(links.as_slice(), [l] if l.target == LinkTarget::Unresolved("x.png".into()) && l.text == "plot"), "{links:?}");
        assert_eq!(markdown_for_book(&isa, "see ![plot](x.png)"), "see plot *(unresolved: `x.png`)*");
    }

    #[test]
    fn a_code_span_is_fenced_past_its_own_backticks() {
        assert_eq!(book_code("FADD R0, R1, R2"), "`FADD R0, R1, R2`");
        assert_eq!(book_code("FADD R0 // R0 = `x`"), "`` FADD R0 // R0 = `x` ``");
        assert_eq!(book_code("a ``b`` c"), "```a ``b`` c```");
    }

    #[test]
    fn tokenizes_pseudo_code() {
        let t = tokenize("if (.ftz == .FTZ) { d = 0x7FFF; } // NaN");
        let cls: Vec<&str> = t.iter().map(|t| t.cls).collect();
        assert!(cls.contains(&"kw") && cls.contains(&"mod") && cls.contains(&"num") && cls.contains(&"comment"));
        // `IDP.2A` is a name and its modifier, not a name and a number.
        let idp: Vec<(&str, String)> = tokenize("IDP.2A.lohi Rd, 0.5").into_iter().map(|t| (t.cls, t.text)).collect();
        assert_eq!(idp[..3], [("text", "IDP".to_string()), ("mod", ".2A".to_string()), ("mod", ".lohi".to_string())]);
        assert!(idp.iter().any(|(c, t)| *c == "num" && t == "0.5"), "{idp:?}");
        assert_eq!(t.iter().map(|t| t.text.as_str()).collect::<String>(), "if (.ftz == .FTZ) { d = 0x7FFF; } // NaN");
    }
}
