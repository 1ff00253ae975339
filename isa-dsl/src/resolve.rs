//! Name resolution: ASTs of all files -> one [`Isa`]. Registers every
//! name first (types, classes, the ISA), then builds types, walks each
//! opcode's `Group -> ... -> Optype -> Opcode` chain to flatten its field
//! layout, types every default and constant, and gathers directives,
//! exceptions and documentation. Problems found on the way (undefined names,
//! duplicates, cycles, overlapping bits, bad values) become diagnostics; the
//! IR is still produced, with the offending item left out. Two entry points:
//! [`prepare`] does everything but the opcodes, [`opcode`] resolves one opcode
//! independently of the others (so they can be resolved on two threads).

use isa_runtime::spelling::nearest;
use crate::ast::{self, DeclKind, Directive, PropertyValue, SectionKind, Spanned};
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::ir::*;
use crate::parser::parse_int;
use crate::source::{SourceMap, Span};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Resolves everything but the opcodes: the ISA declaration, the types, the
/// class hierarchy, every class's own fields, the optypes (with their ids for
/// the opcodes, which are numbered in declaration order) and the simulation
/// hooks. The returned IR has no opcodes yet; [`opcode`] resolves each one
/// from the [`Prepared`] chains, independently of the others. `files` are in
/// reading order.
pub fn prepare(sources: &SourceMap, files: &[ast::File], diags: &mut Diagnostics) -> (Isa, Prepared) {
    let mut r = Resolver { sources, diags, isa: Isa::default(), type_ids: BTreeMap::new(), failed_types: BTreeSet::new(), undefined: BTreeMap::new(), broken_values: BTreeSet::new(), past_width: (0, 0), width_span: None, cut_short: false };
    let decls: Vec<(&ast::Decl, (usize, usize))> =
        files.iter().enumerate().flat_map(|(fi, f)| f.decls.iter().enumerate().map(move |(di, d)| (d, (fi, di)))).collect();
    let refs: Vec<&ast::Decl> = decls.iter().map(|(d, _)| *d).collect();
    r.cut_short = files.iter().any(|f| f.cut_short);
    r.isa.files = sources.files().map(|(_, f)| f.name.clone()).collect();
    r.isa_decl(&refs);
    r.types(&refs);
    r.value_formats(&refs);
    let classes = r.classes(&decls);
    let prepared = r.optypes_and_opcodes(&classes);
    r.simulations(&refs);
    r.lone_domains(&refs);
    r.isa_names(&refs, &prepared);
    r.count_undefined();
    r.sum_up_past_width();
    (r.isa, prepared)
}

/// What [`prepare`] leaves for [`opcode`]: where each class is declared,
/// its own fields, and each opcode's chain.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Each group, optype and opcode: (file, declaration) indices in `files`.
    classes: Vec<(usize, usize)>,
    /// Each class's own fields, resolved (and checked) where they are written.
    resolved: Vec<Vec<Option<Field>>>,
    /// Per opcode id: its chain of classes (root first) and its optype.
    chains: Vec<(Vec<usize>, OptypeId)>,
}

impl Prepared {
    /// Number of opcodes (ids `0..len`).
    pub fn opcodes(&self) -> usize {
        self.chains.len()
    }
}

/// Resolves opcode `id` of a [`prepare`]d ISA: its full layout, operands and
/// exceptions. Problems go to `diags`.
pub fn opcode(sources: &SourceMap, files: &[ast::File], prep: &Prepared, id: OpcodeId, diags: &mut Vec<Diagnostic>) -> Opcode {
    let (classes, optype) = &prep.chains[id];
    let chain: Vec<(&ast::Decl, &[Option<Field>])> = classes
        .iter()
        .map(|&k| {
            let (fi, di) = prep.classes[k];
            (&files[fi].decls[di], prep.resolved[k].as_slice())
        })
        .collect();
    let mut op = resolve_opcode(sources, &chain, *optype, diags);
    // The chain's root declares a parent that did not resolve (undefined,
    // of the wrong kind, in a cycle: reported): what it would have
    // inherited is unknown.
    op.cut_off = chain.first().is_some_and(|(d, _)| matches!(d.parent, Some(Some(_))));
    // Part of the chain was not read (reported): what it declared is unknown too.
    op.cut_off |= chain.iter().any(|(d, _)| d.partly_unread);
    op
}

/// One line of a `__DefValueFormat`.
enum FormatLine {
    Float(FloatLayout),
    Bits(u32),
}

struct Resolver<'a> {
    sources: &'a SourceMap,
    diags: &'a mut Diagnostics,
    isa: Isa,
    type_ids: BTreeMap<String, TypeId>,
    /// Types declared with an error (already reported): fields of these
    /// types are dropped without a second, "undefined type" diagnostic.
    failed_types: BTreeSet<String>,
    /// Undefined type names reported (E020): where in `diags`, and how many
    /// more uses there are.
    undefined: BTreeMap<String, (usize, usize)>,
    /// (type, value) of bit-field value lines that did not parse (E005):
    /// a default or constant naming one is not reported again.
    broken_values: BTreeSet<(String, String)>,
    /// Fields past the instruction's width (E031): how many, and the last
    /// bit of the furthest; past [`PAST_WIDTH_SHOWN`], one summary at `Width`.
    past_width: (usize, u128),
    /// Where the ISA gives its `Width`.
    width_span: Option<Span>,
    /// A file was cut short (reported): hooks of the optypes it lost are
    /// not reported again.
    cut_short: bool,
}

/// How many fields past the instruction's width are reported one by one.
const PAST_WIDTH_SHOWN: usize = 3;

/// A class declaration (group, optype or opcode) and its resolved parent.
struct Class<'a> {
    decl: &'a ast::Decl,
    /// (file, declaration) indices.
    at: (usize, usize),
    parent: Option<usize>,
}

impl<'a> Resolver<'a> {
    fn loc(&self, span: Span) -> Loc {
        loc(self.sources, span)
    }

    fn err(&mut self, code: Code, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::new(code, span, msg));
        self.diags.items.last_mut().expect("just pushed")
    }

    // --- the ISA declaration ------------------------------------------------

    fn isa_decl(&mut self, decls: &[&ast::Decl]) {
        self.isa.width = 128;
        self.isa.name = "ISA".into();
        let isas: Vec<&&ast::Decl> = decls.iter().filter(|d| d.kind == DeclKind::Isa).collect();
        // Opcodes without an ISA: its guard, control fields and literals are
        // missing, and what reads them fails further on; say why first.
        if isas.is_empty() && decls.iter().any(|d| d.kind == DeclKind::Opcode) {
            self.isa.no_isa = true;
            self.diags.push(
                Diagnostic::new(Code::MissingIsa, None, "the spec declares no `__DefIsa`")
                    .with_note("it gives the instruction width, the guard and control fields and the literal operands; is the file declaring it among those given?"),
            );
        }
        if let Some(first) = isas.first() {
            for extra in &isas[1..] {
                self.err(Code::MissingIsa, extra.name.span, "more than one `__DefIsa` declaration")
                    .secondary
                    .push(crate::diagnostic::Label { span: first.name.span, message: "first declared here".into() });
            }
            self.isa.name = first.name.value.clone();
            for p in &first.properties {
                match (p.key.value.as_str(), &p.value.value, &p.name) {
                    ("Width", PropertyValue::Int(w), None) if (1..=128).contains(w) => {
                        self.isa.width = *w as u32;
                        self.width_span = Some(p.value.span);
                    }
                    ("Width", _, _) => {
                        self.err(Code::MalformedProperty, p.value.span, "`Width` must be a number from 1 to 128");
                    }
                    ("Guard", PropertyValue::Name(g), None) => self.isa.guard = Some(g.clone()),
                    ("Control", PropertyValue::Name(c), None) if self.isa.control_fields.contains(c) => {
                        self.diags.push(Diagnostic::new(Code::ListedTwice, p.value.span, format!("control `{c}` is declared twice")).with_label("already a control"));
                    }
                    ("Control", PropertyValue::Name(c), None) => self.isa.control_fields.push(c.clone()),
                    ("GuardDomain", PropertyValue::Name(d), None) => self.isa.guard_domain = Some(d.clone()),
                    ("Literal", PropertyValue::Name(t), Some(n)) => {
                        self.isa.file_literals.push(FileLiteral { name: n.value.clone(), ty_name: t.clone() })
                    }
                    _ => {
                        self.err(Code::MalformedProperty, p.key.span, format!("unknown ISA property `{}`", p.key.value))
                            .notes
                            .push("the ISA takes `Width = N;`, `Guard = field;`, `Control = field;`, `GuardDomain = Domain;` and `Literal NAME = RegisterType;`".into());
                    }
                }
            }
        }
    }

    /// W021: a value domain written once (`va: F3`) whose name is one
    /// letter short or long of one the other hooks share (`F32`): a typo
    /// makes a new domain, with its own kernel methods (`f3_neg`), silently.
    fn lone_domains(&mut self, decls: &[&ast::Decl]) {
        let calls = decls.iter().flat_map(|d| d.hooks.iter().chain(d.sections.iter().filter_map(|s| s.simulation.as_ref())));
        let mut uses: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
        for call in calls {
            for d in call.args.iter().filter_map(|a| a.domain.as_ref()) {
                uses.entry(d.value.as_str()).or_default().push(d.span);
            }
        }
        let shared: Vec<&str> = uses.iter().filter(|(_, at)| at.len() > 1).map(|(d, _)| *d).collect();
        let lone: Vec<(String, Span, String)> = uses
            .iter()
            .filter(|(_, at)| at.len() == 1)
            // A letter left out or doubled: `I32` beside `F32` is a domain of its own.
            .filter_map(|(d, at)| Some((d.to_string(), at[0], nearest(d, shared.iter().copied()).filter(|n| n.len() != d.len())?.to_string())))
            .collect();
        for (d, span, near) in lone {
            let e = self.err(Code::LoneDomain, span, format!("domain `{d}` is written nowhere else"));
            e.label = format!("did you mean `{near}`?");
            e.notes.push(format!("a new domain gets its own kernel methods (`{}_neg`, ...)", d.to_ascii_lowercase()));
        }
    }

    /// E020 for the first use of type `name`, with the nearest type's name
    /// (later uses are counted, see [`Resolver::count_undefined`]); nothing
    /// for a type whose declaration failed (reported there).
    fn undefined_type(&mut self, name: &str, span: Span) {
        if self.failed_types.contains(name) {
            return;
        }
        if let Some((_, more)) = self.undefined.get_mut(name) {
            *more += 1;
            return;
        }
        let mut d = Diagnostic::new(Code::UndefinedType, span, format!("undefined type `{name}`"));
        if let Some(s) = nearest(name, self.type_ids.keys().map(|s| s.as_str())) {
            d = d.with_label(format!("did you mean `{s}`?"));
        }
        self.undefined.insert(name.to_string(), (self.diags.items.len(), 0));
        self.diags.push(d);
    }

    /// One E031 for the fields past the instruction's width beyond the first
    /// few: a `Width` too small is one mistake, reported where it is given.
    fn sum_up_past_width(&mut self) {
        let (n, last) = self.past_width;
        if n <= PAST_WIDTH_SHOWN {
            return;
        }
        let w = self.isa.width;
        let msg = format!("{n} fields end past bit {}, the last bit of the instruction ({PAST_WIDTH_SHOWN} shown)", w - 1);
        let d = match self.width_span {
            Some(span) => Diagnostic::new(Code::FieldOutOfRange, span, msg).with_label(format!("the instruction is {w} bits wide")),
            None => Diagnostic::new(Code::FieldOutOfRange, None, msg),
        };
        self.diags.push(d.with_note(format!("the furthest ends at bit {last}")));
    }

    /// Adds to each E020 how many more uses of its type there are: a type
    /// missing from the files given (one checked alone, without `base/`) is
    /// one mistake, not one per field.
    fn count_undefined(&mut self) {
        for &(at, more) in self.undefined.values() {
            if more > 0 {
                let s = if more == 1 { "" } else { "s" };
                self.diags.items[at].notes.push(format!("{more} more use{s} of it not reported"));
            }
        }
    }

    /// Checks what the ISA declaration names, once the rest is known: the
    /// guard and control fields are fields of some class, a literal's type
    /// is a register file, the guard's domain is one some hook uses.
    fn isa_names(&mut self, decls: &[&ast::Decl], prepared: &Prepared) {
        let Some(isa) = decls.iter().find(|d| d.kind == DeclKind::Isa) else { return };
        let mut fields: BTreeSet<&str> = prepared.resolved.iter().flatten().flatten().map(|f| &*f.name).collect();
        // A field declared but refused (its width against its type's: E037)
        // is still declared: naming it is no second mistake.
        fields.extend(decls.iter().flat_map(|d| &d.sections).flat_map(|s| &s.fields).map(|f| f.name.value.as_str()));
        let mut domains: BTreeSet<String> = BTreeSet::new();
        let hooks = self.isa.optypes.iter().flat_map(|o| o.hook.iter().chain(&o.simulation));
        for h in hooks {
            domains.extend(h.args.iter().filter_map(|a| a.domain.clone()));
        }
        for p in &isa.properties {
            let PropertyValue::Name(name) = &p.value.value else { continue };
            let key = p.key.value.as_str();
            match key {
                // A spec of a few new instructions may have no guarded one
                // (the seeds give `pg`): only a near miss is a mistake.
                "Guard" | "Control" if !fields.contains(name.as_str()) => {
                    // Two-letter names are all one letter apart (`pg`, `pu`):
                    // no near miss among those.
                    if let Some(near) = nearest(name, fields.iter().copied()).filter(|_| name.len() >= 3) {
                        let e = self.err(Code::MalformedProperty, p.value.span, format!("`{key}` names `{name}`, which is no field of any group, optype or opcode"));
                        e.notes.push(format!("did you mean `{near}`? (read as that)"));
                        // Read as the near miss, so that one typo costs one
                        // error rather than a report on every use of the field.
                        let near = near.to_string();
                        if key == "Guard" {
                            self.isa.guard = Some(near);
                        } else if let Some(c) = self.isa.control_fields.iter_mut().find(|c| *c == name) {
                            *c = near;
                        }
                    }
                }
                "Literal" => match self.type_ids.get(name).map(|&t| &self.isa.types[t].kind) {
                    Some(TypeKind::Register { .. }) => {}
                    Some(_) => {
                        self.err(Code::MalformedProperty, p.value.span, format!("literal type `{name}` is not a register file"));
                    }
                    None => self.undefined_type(name, p.value.span),
                },
                // As for the guard field: only a near miss is a mistake.
                "GuardDomain" if !domains.contains(name) => {
                    if let Some(near) = nearest(name, domains.iter().map(String::as_str)) {
                        let known: Vec<String> = domains.iter().map(|d| format!("`{d}`")).collect();
                        let e = self.err(Code::MalformedProperty, p.value.span, format!("`GuardDomain` names `{name}`, a domain no simulation hook uses"));
                        e.notes.push(format!("did you mean `{near}`?"));
                        e.notes.push(format!("the hooks use {}", known.join(", ")));
                    }
                }
                _ => {}
            }
        }
    }

    // --- types --------------------------------------------------------------

    fn types(&mut self, decls: &[&ast::Decl]) {
        for d in decls.iter().filter(|d| d.kind == DeclKind::BitFieldType) {
            self.broken_values.extend(d.broken_values.iter().map(|v| (d.name.value.clone(), v.clone())));
        }
        let mut first_seen: BTreeMap<String, Span> = BTreeMap::new();
        // Each register prefix and where it is given: two files with one
        // prefix would read `R1` as either.
        let mut prefixes: BTreeMap<String, (Span, String)> = BTreeMap::new();
        for d in decls.iter().filter(|d| matches!(d.kind, DeclKind::BitFieldType | DeclKind::OperandType)) {
            if let Some(prev) = first_seen.get(&d.name.value) {
                let prev = *prev;
                self.err(Code::DuplicateDefinition, d.name.span, format!("type `{}` is defined twice", d.name.value))
                    .secondary
                    .push(crate::diagnostic::Label { span: prev, message: "first defined here".into() });
                continue;
            }
            first_seen.insert(d.name.value.clone(), d.name.span);
            match self.build_type(d) {
                Some(t) => {
                    if let TypeKind::Register { prefix, .. } = &t.kind {
                        let span = d.properties.iter().find(|p| p.key.value == "Prefix").map_or(d.name.span, |p| p.value.span);
                        if let Some((first, owner)) = prefixes.get(prefix) {
                            let (first, owner) = (*first, owner.clone());
                            self.err(Code::DuplicateDefinition, span, format!("register prefix \"{prefix}\" is also `{owner}`'s: `{prefix}0` would name a register of both"))
                                .secondary
                                .push(crate::diagnostic::Label { span: first, message: format!("`{owner}`'s prefix") });
                        } else {
                            prefixes.insert(prefix.clone(), (span, t.name.clone()));
                        }
                    }
                    self.type_ids.insert(t.name.clone(), self.isa.types.len());
                    self.isa.types.push(t);
                }
                None => {
                    self.failed_types.insert(d.name.value.clone());
                }
            }
        }
    }

    fn build_type(&mut self, d: &ast::Decl) -> Option<Type> {
        let w = d.width.as_ref()?;
        // A property line that did not parse (reported): what it gave is
        // unknown, so a property "missing" is no second mistake.
        if d.broken_lines > 0 {
            return None;
        }
        if w.value == 0 || w.value > 64 {
            let msg = if w.value == 0 { "type of zero width" } else { "types are at most 64 bits wide" };
            self.err(Code::ZeroWidth, w.span, msg);
            return None;
        }
        let width = w.value as u32;
        let kind = match d.kind {
            DeclKind::BitFieldType => self.enum_type(d, width),
            _ => self.operand_type(d, width)?,
        };
        Some(Type { name: d.name.value.clone(), width, kind, loc: self.loc(d.name.span) })
    }

    fn enum_type(&mut self, d: &ast::Decl, width: u32) -> TypeKind {
        let max = max_value(width);
        // Values whose lines did not parse (reported) are no empty type.
        if d.values.is_empty() && d.broken_values.is_empty() {
            self.diags.push(
                Diagnostic::new(Code::EmptyType, d.name.span, format!("type `{}` has no values", d.name.value))
                    .with_note("a field of it can be neither written nor decoded; list its values under the header (`A;`, `B = 0x3;`)"),
            );
        }
        let mut values: Vec<EnumValue> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        // The first value of each name and of each encoding (a search per
        // value would make a long list quadratic).
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        let mut by_encoding: HashMap<u64, usize> = HashMap::new();
        let mut next = 0u64;
        for (k, v) in d.values.iter().enumerate() {
            let enc = v.encoding.as_ref().map_or(next, |e| e.value);
            let enc_span = v.encoding.as_ref().map_or(v.name.span, |e| e.span);
            // An encoding as written (`0x17`), and where an unwritten one comes from.
            let written = |e: u64| if self.sources.text(enc_span).starts_with("0x") { format!("{e:#x}") } else { e.to_string() };
            let shown = match &v.encoding {
                Some(_) => written(enc),
                None => format!("{enc}"),
            };
            let after = match (&v.encoding, k.checked_sub(1).map(|p| &d.values[p])) {
                (None, Some(p)) => Some(match &p.encoding {
                    Some(e) => format!("numbered after `{}` = {}", p.name.value, self.sources.text(e.span)),
                    None => format!("numbered after `{}` = {}", p.name.value, next.saturating_sub(1)),
                }),
                _ => None,
            };
            if enc > max {
                let e = self.err(
                    Code::ValueTooWide,
                    enc_span,
                    format!("value `{}` = {shown} does not fit in {width} bit{}", v.name.value, if width == 1 { "" } else { "s" }),
                );
                e.label = format!("largest encoding is {}", written(max));
                e.notes.extend(after);
            }
            if let Some(&i) = by_name.get(v.name.value.as_str()) {
                let prev = spans[i];
                self.err(Code::DuplicateValue, v.name.span, format!("value `{}` is listed twice", v.name.value))
                    .secondary
                    .push(crate::diagnostic::Label { span: prev, message: "first listed here".into() });
            } else if let Some(&i) = by_encoding.get(&enc) {
                let (prev, other) = (spans[i], values[i].name.clone());
                self.err(
                    Code::DuplicateValue,
                    enc_span,
                    format!("`{}` and `{other}` have the same encoding {shown}", v.name.value),
                )
                .secondary
                .push(crate::diagnostic::Label { span: prev, message: format!("`{other}` is {enc}") });
            }
            by_name.entry(&v.name.value).or_insert(values.len());
            by_encoding.entry(enc).or_insert(values.len());
            values.push(EnumValue { name: v.name.value.clone(), encoding: enc, format: None });
            spans.push(v.name.span);
            next = enc.wrapping_add(1);
        }
        TypeKind::Enum { values }
    }

    fn operand_type(&mut self, d: &ast::Decl, width: u32) -> Option<TypeKind> {
        let kind = d.type_kind.as_ref()?;
        let mut props: BTreeMap<&str, &ast::Property> = BTreeMap::new();
        let mut constants = Vec::new();
        let allowed: &[&str] = match kind.value.as_str() {
            "Register" | "Predicate" => &["Prefix", "Constant", "Scope"],
            "SignedInt" | "UnsignedInt" => &[],
            "Float" => &["Exponent", "Mantissa", "Lanes"],
            "ConstMem" => &["Bank", "Offset"],
            other => {
                const KINDS: [&str; 6] = ["Register", "Predicate", "SignedInt", "UnsignedInt", "Float", "ConstMem"];
                let e = self.err(Code::MalformedDecl, kind.span, format!("unknown operand kind `{other}`"));
                if let Some(n) = nearest(other, KINDS.into_iter()) {
                    e.label = format!("did you mean `{n}`?");
                }
                e.notes.push("kinds are Register, Predicate, SignedInt, UnsignedInt, Float and ConstMem".into());
                return None;
            }
        };
        for p in &d.properties {
            let key = p.key.value.as_str();
            if !allowed.contains(&key) {
                self.err(Code::MalformedProperty, p.key.span, format!("`{}` has no property `{key}`", kind.value))
                    .notes
                    .push(if allowed.is_empty() {
                        format!("`{}` takes no properties", kind.value)
                    } else {
                        format!("`{}` takes {}", kind.value, allowed.join(", "))
                    });
                continue;
            }
            if key == "Constant" {
                match (&p.name, &p.value.value) {
                    (Some(n), PropertyValue::Int(i)) if *i <= max_value(width) => {
                        constants.push(NamedIndex { name: n.value.clone(), index: *i })
                    }
                    (Some(_), PropertyValue::Int(i)) => {
                        self.err(Code::ValueTooWide, p.value.span, format!("register {i} does not fit in {width} bits"));
                    }
                    _ => {
                        self.err(Code::MalformedProperty, p.span, "expected `Constant NAME = index;`");
                    }
                }
                continue;
            }
            if p.name.is_some() {
                self.err(Code::MalformedProperty, p.span, format!("expected `{key} = value;`"));
                continue;
            }
            if props.insert(key, p).is_some() {
                self.err(Code::DuplicateDefinition, p.key.span, format!("property `{key}` is given twice"));
            }
        }
        let int = |r: &mut Self, key: &str| -> Option<u64> {
            match props.get(key).map(|p| (&p.value.value, p.value.span)) {
                Some((PropertyValue::Int(i), _)) => Some(*i),
                Some((_, span)) => {
                    r.err(Code::MalformedProperty, span, format!("`{key}` must be a number"));
                    None
                }
                None => None,
            }
        };
        let range = |r: &mut Self, key: &str| -> Option<BitRange> {
            match props.get(key).map(|p| (&p.value.value, p.value.span)) {
                Some((PropertyValue::Range { start, width: w }, span)) => {
                    if *start as u128 + *w as u128 > width as u128 || *w == 0 {
                        r.err(Code::FieldOutOfRange, span, format!("`{key}` must lie inside the type's {width} bits"));
                        return None;
                    }
                    Some(BitRange { start: *start as u32, width: *w as u32 })
                }
                Some((_, span)) => {
                    r.err(Code::MalformedProperty, span, format!("`{key}` must be a bit range `<start, width>`"));
                    None
                }
                None => {
                    r.err(Code::MalformedProperty, d.name.span, format!("`ConstMem` needs `{key} = <start, width>;`"));
                    None
                }
            }
        };
        Some(match kind.value.as_str() {
            "Register" | "Predicate" => {
                let prefix = match props.get("Prefix").map(|p| &p.value.value) {
                    Some(PropertyValue::Str(s)) if !s.is_empty() => s.clone(),
                    _ => {
                        self.err(Code::MalformedProperty, d.name.span, "registers need `Prefix = \"R\";`");
                        return None;
                    }
                };
                let warp = match props.get("Scope").map(|p| (&p.value.value, p.value.span)) {
                    None => false,
                    Some((PropertyValue::Name(n), _)) if n == "Lane" => false,
                    Some((PropertyValue::Name(n), _)) if n == "Warp" => true,
                    Some((_, span)) => {
                        self.err(Code::MalformedProperty, span, "`Scope` is `Lane` (one copy per lane) or `Warp` (one per warp)");
                        false
                    }
                };
                TypeKind::Register { prefix, predicate: kind.value == "Predicate", constants, warp }
            }
            "SignedInt" => TypeKind::Int { signed: true },
            "UnsignedInt" => TypeKind::Int { signed: false },
            "Float" => {
                let e = int(self, "Exponent").unwrap_or(8) as u32;
                let m = int(self, "Mantissa").unwrap_or(23) as u32;
                let lanes = int(self, "Lanes").unwrap_or(1) as u32;
                if lanes == 0 || (1 + e + m) * lanes != width || e < 2 || m < 1 {
                    self.err(
                        Code::WidthMismatch,
                        d.name.span,
                        format!("{lanes} lane(s) of 1+{e}+{m} bits do not make {width} bits"),
                    );
                    return None;
                }
                TypeKind::Float { exponent: e, mantissa: m, lanes }
            }
            _ => {
                let (bank, offset) = (range(self, "Bank")?, range(self, "Offset")?);
                if bank.start < offset.start + offset.width && offset.start < bank.start + bank.width {
                    let span = props.get("Bank").map_or(d.name.span, |p| p.value.span);
                    let (b, o) = (bank.start + bank.width - 1, offset.start + offset.width - 1);
                    // Reported, and the type kept: its fields are not also undefined.
                    self.err(Code::FieldOverlap, span, format!("`Bank` (bits {}..={b}) overlaps `Offset` (bits {}..={o})", bank.start, offset.start));
                }
                TypeKind::ConstMem { bank, offset }
            }
        })
    }

    // --- classes --------------------------------------------------------------

    fn classes(&mut self, decls: &[(&'a ast::Decl, (usize, usize))]) -> Vec<Class<'a>> {
        let mut classes: Vec<Class<'a>> = Vec::new();
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        for &(d, at) in decls.iter().filter(|(d, _)| matches!(d.kind, DeclKind::Group | DeclKind::Optype | DeclKind::Opcode)) {
            if let Some(&prev) = by_name.get(d.name.value.as_str()) {
                let prev_span = classes[prev].decl.name.span;
                self.err(Code::DuplicateDefinition, d.name.span, format!("`{}` is defined twice", d.name.value))
                    .secondary
                    .push(crate::diagnostic::Label { span: prev_span, message: "first defined here".into() });
                continue;
            }
            by_name.insert(&d.name.value, classes.len());
            classes.push(Class { decl: d, at, parent: None });
        }
        for i in 0..classes.len() {
            let d = classes[i].decl;
            let Some(Some(p)) = &d.parent else { continue };
            match by_name.get(p.value.as_str()) {
                None => {
                    let mut diag = Diagnostic::new(Code::UndefinedParent, p.span, format!("undefined parent `{}`", p.value));
                    // Suggest only what can be this declaration's parent: not
                    // itself, and of the kind its parent must be.
                    let want = if matches!(d.kind, DeclKind::Group | DeclKind::Optype) { DeclKind::Group } else { DeclKind::Optype };
                    let fits = by_name.iter().filter(|&(n, &ci)| *n != d.name.value.as_str() && classes[ci].decl.kind == want).map(|(n, _)| *n);
                    if let Some(s) = nearest(&p.value, fits) {
                        diag = diag.with_label(format!("did you mean `{s}`?"));
                    }
                    self.diags.push(diag);
                }
                Some(&pi) => {
                    let pk = classes[pi].decl.kind;
                    let ok = match d.kind {
                        DeclKind::Group | DeclKind::Optype => pk == DeclKind::Group,
                        _ => pk == DeclKind::Optype,
                    };
                    if ok {
                        classes[i].parent = Some(pi);
                    } else {
                        let want = if d.kind == DeclKind::Opcode { "an optype" } else { "a group" };
                        let pspan = classes[pi].decl.name.span;
                        self.err(
                            Code::WrongParentKind,
                            p.span,
                            format!("the parent of `{}` must be {want}, but `{}` is declared with `{}`", d.name.value, p.value, pk.keyword()),
                        )
                        .secondary
                        .push(crate::diagnostic::Label { span: pspan, message: "declared here".into() });
                    }
                }
            }
        }
        // Cycles can only run through groups (optypes and opcodes have group/optype parents).
        let mut reported: BTreeSet<usize> = BTreeSet::new();
        for start in 0..classes.len() {
            let mut seen = vec![start];
            let mut cur = classes[start].parent;
            while let Some(c) = cur {
                if c == start {
                    if seen.iter().all(|s| !reported.contains(s)) {
                        let names: Vec<&str> = seen.iter().map(|&s| classes[s].decl.name.value.as_str()).collect();
                        let span = classes[start].decl.name.span;
                        self.err(Code::InheritanceCycle, span, format!("inheritance cycle: {} -> {}", names.join(" -> "), names[0]));
                        reported.extend(seen.iter().copied());
                    }
                    classes[start].parent = None;
                    break;
                }
                if seen.contains(&c) || seen.len() > classes.len() {
                    break;
                }
                seen.push(c);
                cur = classes[c].parent;
            }
        }
        for c in &classes {
            if c.decl.kind == DeclKind::Group {
                let parent = c.parent.map(|p| classes[p].decl.name.value.clone());
                self.isa.groups.push(Group { name: c.decl.name.value.clone(), parent, loc: self.loc(c.decl.name.span) });
            }
        }
        classes
    }

    /// Chain of class indices from the root down to `i` (inclusive).
    fn chain(classes: &[Class], i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut cur = classes[i].parent;
        while let Some(c) = cur {
            if out.contains(&c) {
                break;
            }
            out.push(c);
            cur = classes[c].parent;
        }
        out.reverse();
        out
    }

    fn optypes_and_opcodes(&mut self, classes: &[Class<'a>]) -> Prepared {
        // Every field is resolved and checked once, where it is written (even
        // in a group no opcode inherits); opcodes reuse the result.
        let isa_width = self.isa.width as u64;
        let mut resolved: Vec<Vec<Option<Field>>> = Vec::with_capacity(classes.len());
        for c in classes {
            let mut fields = Vec::new();
            for f in encoding_fields(c.decl) {
                fields.push(self.field(f, c.decl, isa_width));
            }
            resolved.push(fields);
        }
        let mut optype_ids: BTreeMap<usize, OptypeId> = BTreeMap::new();
        for (i, c) in classes.iter().enumerate().filter(|(_, c)| c.decl.kind == DeclKind::Optype) {
            let chain = Self::chain(classes, i);
            let groups = chain[..chain.len() - 1].iter().map(|&g| classes[g].decl.name.value.clone()).collect();
            let ot = self.optype(c.decl, groups);
            optype_ids.insert(i, self.isa.optypes.len());
            self.isa.optypes.push(ot);
        }
        let mut chains = Vec::new();
        for (i, c) in classes.iter().enumerate().filter(|(_, c)| c.decl.kind == DeclKind::Opcode) {
            let Some(p) = c.parent else { continue };
            let Some(&ot) = optype_ids.get(&p) else { continue };
            self.isa.optypes[ot].opcodes.push(chains.len());
            chains.push((Self::chain(classes, i), ot));
        }
        Prepared { classes: classes.iter().map(|c| c.at).collect(), resolved, chains }
    }

    fn prose(&self, d: &ast::Decl, kind: SectionKind) -> Option<Prose> {
        let mut texts = d.sections.iter().filter(|s| s.kind == kind);
        let first = texts.next()?;
        let mut text = first.text.value.clone();
        for s in texts {
            text.push('\n');
            text.push_str(&s.text.value);
        }
        Some(Prose { text, loc: self.loc(first.text.span) })
    }

    fn optype(&mut self, d: &ast::Decl, groups: Vec<String>) -> Optype {
        let mut syntax = Vec::new();
        let mut value_lists = Vec::new();
        let mut examples = Vec::new();
        let mut simulation = None;
        for s in &d.sections {
            for t in &s.templates {
                syntax.push(self.syntax_form(t));
            }
            for v in &s.value_lists {
                value_lists.push(ValueList {
                    name: v.name.value.clone(),
                    items: v
                        .items
                        .iter()
                        .map(|i| ValueListItem { spelling: i.name.value.clone(), is_default: i.is_default, span: Some(i.name.span) })
                        .collect(),
                    reserved: Vec::new(),
                    loc: self.loc(v.span),
                });
            }
            if s.kind == SectionKind::Examples {
                for l in &s.code_lines {
                    if !l.value.trim().is_empty() {
                        examples.push(Example { text: l.value.clone(), loc: self.loc(l.span) });
                    }
                }
            }
            if let Some(sim) = &s.simulation {
                simulation = Some(self.hook(sim));
            }
        }
        let docs = Docs {
            description: self.prose(d, SectionKind::Description),
            operand_info: self.prose(d, SectionKind::OperandInfo),
            modifier_info: self.prose(d, SectionKind::ModifierInfo),
            semantics: self.prose(d, SectionKind::Semantics),
            exception: self.prose(d, SectionKind::Exception),
        };
        Optype {
            name: d.name.value.clone(),
            groups,
            loc: self.loc(d.name.span),
            syntax,
            broken_templates: d.sections.iter().map(|s| s.broken_templates).sum(),
            broken_hook: false,
            value_lists,
            docs,
            examples,
            simulation,
            hook: None,
            opcodes: Vec::new(),
            notation: None,
        }
    }

    fn hook(&self, sim: &ast::SimulationCall) -> SimulationHook {
        SimulationHook {
            results: sim.results.iter().map(|r| r.value.clone()).collect(),
            result_spans: sim.results.iter().map(|r| r.span).collect(),
            function: sim.function.value.clone(),
            args: sim
                .args
                .iter()
                .map(|a| HookArg { name: a.name.value.clone(), span: Some(a.name.span), domain: a.domain.as_ref().map(|d| d.value.clone()) })
                .collect(),
            loc: self.loc(sim.function.span),
        }
    }

    /// Attaches each `__DefValueFormat Type` line to the value it names.
    fn value_formats(&mut self, decls: &[&ast::Decl]) {
        // The line that declared each (type, value, key), for duplicates.
        let mut seen: HashMap<(TypeId, String, &str), Span> = HashMap::new();
        for d in decls.iter().filter(|d| d.kind == DeclKind::ValueFormat) {
            let name = &d.name.value;
            let Some(&t) = self.type_ids.get(name) else {
                if self.failed_types.contains(name) {
                    continue;
                }
                let near = nearest(name, self.type_ids.keys().map(String::as_str)).map(|n| format!("did you mean `{n}`?"));
                let e = self.err(Code::UndefinedType, d.name.span, format!("`__DefValueFormat` of unknown type `{name}`"));
                e.notes.extend(near);
                continue;
            };
            if !self.isa.types[t].is_enum() {
                self.err(Code::MalformedDecl, d.name.span, format!("`{name}` is not a `__DefBitFieldType`"))
                    .notes
                    .push("value formats describe the values of bit-field types".into());
                continue;
            }
            for p in &d.properties {
                let Some(value) = &p.name else {
                    self.err(Code::MalformedProperty, p.span, "expected `Float VALUE = <exponent, mantissa>;` or `Bits VALUE = n;`");
                    continue;
                };
                let key = match (p.key.value.as_str(), &p.value.value) {
                    ("Float", PropertyValue::Range { start: e, width: m }) if (2..=15).contains(e) && (1..=52).contains(m) && 1 + e + m <= 64 => {
                        FormatLine::Float(FloatLayout { exponent: *e as u32, mantissa: *m as u32 })
                    }
                    ("Float", _) => {
                        self.err(Code::MalformedProperty, p.value.span, "`Float` takes `<exponent, mantissa>`: 2..=15 exponent and 1..=52 mantissa bits, at most 64 in all");
                        continue;
                    }
                    ("Bits", PropertyValue::Int(b)) if (1..=64).contains(b) => FormatLine::Bits(*b as u32),
                    ("Bits", _) => {
                        self.err(Code::MalformedProperty, p.value.span, "`Bits` must be a number from 1 to 64");
                        continue;
                    }
                    (k, _) => {
                        self.err(Code::MalformedProperty, p.key.span, format!("unknown value-format property `{k}`"))
                            .notes
                            .push("a value format takes `Float VALUE = <exponent, mantissa>;` and `Bits VALUE = n;`".into());
                        continue;
                    }
                };
                let TypeKind::Enum { values } = &mut self.isa.types[t].kind else { continue };
                let Some(v) = values.iter_mut().find(|v| v.name == value.value) else {
                    let near = nearest(&value.value, values.iter().map(|v| v.name.as_str())).map(|n| format!("did you mean `{n}`?"));
                    let e = self.err(Code::MalformedProperty, value.span, format!("type `{name}` has no value `{}`", value.value));
                    e.notes.extend(near);
                    continue;
                };
                let kw = if matches!(key, FormatLine::Float(_)) { "Float" } else { "Bits" };
                if let Some(first) = seen.insert((t, value.value.clone(), kw), p.span) {
                    self.err(Code::DuplicateDefinition, p.span, format!("`{kw}` of `{name}.{}` is given twice", value.value))
                        .secondary
                        .push(crate::diagnostic::Label { span: first, message: "first given here".into() });
                    continue;
                }
                let f = v.format.get_or_insert(ValueFormat { bits: 0, float: None });
                match key {
                    FormatLine::Float(l) => {
                        f.float = Some(l);
                        if f.bits == 0 {
                            f.bits = 1 + l.exponent + l.mantissa;
                        }
                    }
                    FormatLine::Bits(b) => f.bits = b,
                }
            }
        }
    }

    /// Attaches each `__DefSimulation Optype` hook to its optype.
    fn simulations(&mut self, decls: &[&ast::Decl]) {
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        for d in decls.iter().filter(|d| d.kind == DeclKind::Simulation) {
            let name = &d.name.value;
            let Some(i) = self.isa.optypes.iter().position(|o| &o.name == name) else {
                if self.cut_short {
                    continue;
                }
                let near = nearest(name, self.isa.optypes.iter().map(|o| o.name.as_str())).map(|n| format!("did you mean `{n}`?"));
                let e = self.err(Code::UnknownHookName, d.name.span, format!("`__DefSimulation` of unknown optype `{name}`"));
                e.notes.extend(near);
                continue;
            };
            if let Some(first) = seen.insert(name.clone(), d.name.span) {
                self.err(Code::DuplicateDefinition, d.name.span, format!("second `__DefSimulation {name}`"))
                    .secondary
                    .push(crate::diagnostic::Label { span: first, message: "first given here".into() });
                continue;
            }
            match d.hooks.as_slice() {
                [h] => self.isa.optypes[i].hook = Some(self.hook(h)),
                [] if d.broken_lines > 0 => self.isa.optypes[i].broken_hook = true,
                [] => {
                    self.err(Code::MalformedHook, d.name.span, "`__DefSimulation` without a hook line")
                        .notes
                        .push("write `vd = kernel(va: Domain, vb, field);` on the next line".into());
                }
                [_, extra, ..] => {
                    self.err(Code::MalformedHook, extra.span, "`__DefSimulation` takes one hook line");
                }
            }
        }
    }

    fn syntax_form(&self, t: &ast::Template) -> SyntaxForm {
        let deco = |d: &ast::TemplateDecoration| {
            let (kind, name) = match &d.kind {
                ast::Decoration::Neg => (DecorationKind::Neg, "-".to_string()),
                ast::Decoration::Abs => (DecorationKind::Abs, "|".to_string()),
                ast::Decoration::Not => (DecorationKind::Not, "!".to_string()),
                ast::Decoration::Invert => (DecorationKind::Invert, "~".to_string()),
                ast::Decoration::Suffix(s) => (DecorationKind::Suffix, s.clone()),
            };
            Decoration { kind, name, optional: d.optional, loc: self.loc(d.span) }
        };
        SyntaxForm {
            text: self.sources.text(t.span).to_string(),
            mnemonic: t.mnemonic.value.clone(),
            modifiers: t
                .modifiers
                .iter()
                .map(|m| SyntaxModifier { name: m.name.value.clone(), optional: m.optional, loc: self.loc(m.name.span) })
                .collect(),
            operands: t
                .operands
                .iter()
                .map(|o| SyntaxOperand {
                    name: o.name.value.clone(),
                    shape: match &o.shape {
                        // `PR` where the ISA declares `Literal PR = Pred;`.
                        ast::OperandShape::Named if self.isa.file_literals.iter().any(|l| l.name == o.name.value) => OperandShape::Literal,
                        ast::OperandShape::Named => OperandShape::Named,
                        ast::OperandShape::Indexed { base, index, offset, offset_optional } => OperandShape::Indexed {
                            base: base.value.clone(),
                            index: index.value.clone(),
                            offset: offset.as_ref().map(|o| o.value.clone()),
                            offset_optional: *offset_optional,
                        },
                    },
                    optional: o.optional,
                    prefixes: o.prefixes.iter().map(deco).collect(),
                    suffixes: o.suffixes.iter().map(deco).collect(),
                    loc: self.loc(o.span),
                })
                .collect(),
            controls: t.controls.iter().map(|c| c.value.clone()).collect(),
            control_locs: t.controls.iter().map(|c| self.loc(c.span)).collect(),
            comment: t.comment.clone(),
            loc: self.loc(t.span),
        }
    }

    fn field(&mut self, f: &ast::Field, owner: &ast::Decl, isa_width: u64) -> Option<Field> {
        if f.width.value == 0 {
            self.err(Code::ZeroWidth, f.width.span, format!("field `{}` has zero width", f.name.value));
            return None;
        }
        // In u128: `start + width` of two u64 numbers must not wrap.
        if f.start.value as u128 + f.width.value as u128 > isa_width as u128 {
            let last = f.start.value as u128 + f.width.value as u128 - 1;
            self.past_width.0 += 1;
            self.past_width.1 = self.past_width.1.max(last);
            if self.past_width.0 > PAST_WIDTH_SHOWN {
                return None;
            }
            self.err(
                Code::FieldOutOfRange,
                f.span,
                format!("field `{}` ends at bit {last}, past the last bit {} of the instruction", f.name.value, isa_width - 1),
            )
            .label = format!("bits {}..{last}", f.start.value);
            return None;
        }
        let Some(&ty) = self.type_ids.get(&f.ty.value) else {
            self.undefined_type(&f.ty.value, f.ty.span);
            return None;
        };
        let t = &self.isa.types[ty];
        if t.width as u64 != f.width.value {
            let (tn, tw, tspan) = (t.name.clone(), t.width, t.loc.span);
            self.err(
                Code::WidthMismatch,
                f.width.span,
                format!("field `{}` is {} bits wide but type `{tn}` is {tw}", f.name.value, f.width.value),
            )
            .secondary
            .push(crate::diagnostic::Label { span: tspan.unwrap_or(f.ty.span), message: format!("`{tn}` is declared here") });
            return None;
        }
        let value = match &f.init {
            None => FieldValue::Free,
            Some(init) => {
                let enc = self.encode_value(ty, &init.value)?;
                if init.constant { FieldValue::Constant(enc) } else { FieldValue::Default(enc) }
            }
        };
        Some(Field {
            name: f.name.value.as_str().into(),
            start: f.start.value as u32,
            width: f.width.value as u32,
            ty_name: f.ty.value.as_str().into(),
            ty,
            value,
            declared_in: owner.name.value.as_str().into(),
            loc: self.loc(f.span),
        })
    }

    /// Encodes a default or constant written in the spec for a field of type `ty`.
    fn encode_value(&mut self, ty: TypeId, v: &Spanned<String>) -> Option<u64> {
        let t = &self.isa.types[ty];
        let text = v.value.as_str();
        let enc = encode_literal(t, text);
        if enc.is_none() && self.broken_values.contains(&(t.name.clone(), text.to_string())) {
            return None;
        }
        if enc.is_none() {
            let expected = match &t.kind {
                TypeKind::Enum { values } => {
                    let names: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
                    format!("expected one of {}", names.join(", "))
                }
                TypeKind::Register { prefix, constants, .. } => {
                    let mut s = format!("expected {prefix}0..{prefix}{}", max_value(t.width));
                    for c in constants {
                        s.push_str(&format!(" or {}", c.name));
                    }
                    s
                }
                TypeKind::Int { signed: true } => format!("expected an integer that fits in {} signed bits", t.width),
                _ => format!("expected a number that fits in {} bits", t.width),
            };
            let near = match &t.kind {
                TypeKind::Enum { values } => nearest(text, values.iter().map(|v| v.name.as_str())).map(|n| format!("did you mean `{n}`?")),
                _ => None,
            };
            let name = t.name.clone();
            let e = self.err(Code::BadFieldValue, v.span, format!("`{text}` is not a value of type `{name}`"));
            e.label = expected;
            e.notes.extend(near);
        }
        enc
    }

}

/// One opcode's full layout, operands and exceptions from its chain (root
/// first), each class with its fields as resolved where they are written.
/// Problems go to `diags`.
fn resolve_opcode(sources: &SourceMap, chain: &[(&ast::Decl, &[Option<Field>])], optype: OptypeId, diags: &mut Vec<Diagnostic>) -> Opcode {
    let me = chain[chain.len() - 1].0;
    let mut fields: Vec<Field> = Vec::new();
    let mut field_spans: Vec<Span> = Vec::new();
    let mut broken: Vec<String> = Vec::new();
    for &(d, resolved) in chain {
        broken.extend(d.sections.iter().filter(|s| s.kind == SectionKind::Encoding).flat_map(|s| s.broken_fields.iter().cloned()));
        for (f, field) in encoding_fields(d).zip(resolved) {
            let Some(field) = field else {
                broken.push(f.name.value.clone());
                continue;
            };
            // Overlaps and duplicates against what the chain already declared.
            let mut keep = true;
            for (k, other) in fields.iter().enumerate() {
                let same_name = other.name == field.name;
                let overlap = other.mask() & field.mask() != 0;
                if !same_name && !overlap {
                    continue;
                }
                let identical = same_name
                    && other.start == field.start
                    && other.width == field.width
                    && other.ty == field.ty
                    && other.value == field.value;
                let prev = field_spans[k];
                if identical {
                    diags.push(
                        Diagnostic::new(
                            Code::IdenticalRedefinition,
                            f.span,
                            format!("field `{}` is already defined identically by `{}`", field.name, other.declared_in),
                        )
                        .with_secondary(prev, "first defined here")
                        .with_label("remove this line"),
                    );
                } else if same_name {
                    diags.push(
                        Diagnostic::new(
                            Code::DuplicateDefinition,
                            f.name.span,
                            format!("field `{}` is defined twice", field.name),
                        )
                        .with_secondary(prev, format!("first defined by `{}`", other.declared_in))
                        .with_note("a field is inherited as declared: a child cannot move it or give it another default")
                        .in_opcode(&me.name.value),
                    );
                } else {
                    broken.push(field.name.to_string());
                    let lo = field.start.max(other.start);
                    let hi = (field.start + field.width).min(other.start + other.width) - 1;
                    let bits = if lo == hi { format!("bit {lo}") } else { format!("bits {lo}..{hi}") };
                    diags.push(
                        Diagnostic::new(
                            Code::FieldOverlap,
                            f.span,
                            format!("field `{}` overlaps `{}` at {bits}", field.name, other.name),
                        )
                        .with_secondary(prev, format!("`{}` is defined here", other.name))
                        .in_opcode(&me.name.value),
                    );
                }
                keep = false;
                break;
            }
            if keep {
                fields.push(field.clone());
                field_spans.push(f.span);
            }
        }
    }
    fields.sort_by_key(|f| (f.start, f.width));
    let (mut fixed_mask, mut fixed_bits) = (0u128, 0u128);
    for f in &fields {
        if let FieldValue::Constant(v) = f.value {
            fixed_mask |= f.mask();
            fixed_bits |= ((v as u128) << f.start) & f.mask();
        }
    }
    let mut operands = OperandInfo::default();
    let mut exceptions = Vec::new();
    for &(d, _) in chain {
        for s in &d.sections {
            for dir in &s.directives {
                directive(dir, &mut operands);
            }
            for e in &s.exceptions {
                exceptions.push(Exception {
                    class: e.class.value.clone(),
                    kind: e.kind.value.clone(),
                    message: e.message.value.clone(),
                    condition: e.condition.clone(),
                    loc: loc(sources, e.span),
                    message_span: Some(e.message.span),
                });
            }
        }
    }
    Opcode {
        name: me.name.value.clone(),
        optype,
        loc: loc(sources, me.name.span),
        fields,
        fixed_mask,
        fixed_bits,
        operands,
        exceptions,
        forms: Vec::new(),
        exec: None,
        broken,
        cut_off: false,
    }
}


/// Applies one `__OperandInfo` directive (a later one replaces an earlier one).
fn directive(d: &Directive, out: &mut OperandInfo) {
    let refs = |v: &[ast::OperandRef]| -> Vec<OperandRef> {
        v.iter()
            .map(|r| OperandRef {
                name: r.name.value.clone(),
                index: r.index.iter().map(|i| i.value.clone()).collect(),
                span: Some(r.name.span),
            })
            .collect()
    };
    match d {
        Directive::InList(v, span) => {
            out.inputs = refs(v);
            out.inputs_span = Some(*span);
        }
        Directive::OutList(v, span) => {
            out.outputs = refs(v);
            out.outputs_span = Some(*span);
        }
        Directive::Order(v, span) => {
            out.order = refs(v);
            out.order_span = Some(*span);
        }
        Directive::Bitwidth { operand, expr, .. } => {
            let constant = match expr.eval(&|_| None) {
                Some(crate::expr::Value::Int(i)) => Some(i),
                _ => None,
            };
            out.bitwidths.retain(|b| b.operand != operand.value);
            out.bitwidths.push(Bitwidth {
                operand: operand.value.clone(),
                expr: expr.clone(),
                constant,
                span: Some(operand.span),
            });
        }
        Directive::AsmFormat { operand, function, args, .. } => {
            out.asm_formats.retain(|a| a.operand != operand.value);
            out.asm_formats.push(AsmFormat {
                operand: operand.value.clone(),
                function: function.value.clone(),
                args: args.iter().map(|a| a.value.clone()).collect(),
                spans: std::iter::once(operand.span).chain(args.iter().map(|a| a.span)).collect(),
                function_span: Some(function.span),
            })
        }
        Directive::ModiOrder(v, _) => {
            out.modi_order = v
                .iter()
                .map(|i| OperandRef { name: i.value.clone(), index: Vec::new(), span: Some(i.span) })
                .collect()
        }
    }
}

/// The fields of a class's `__Encoding` sections, in order.
fn encoding_fields(d: &ast::Decl) -> impl Iterator<Item = &ast::Field> {
    d.sections.iter().filter(|s| s.kind == SectionKind::Encoding).flat_map(|s| &s.fields)
}

/// Where a span is: file, 1-based line and column.
fn loc(sources: &SourceMap, span: Span) -> Loc {
    let (line, col) = sources.get(span.file).line_col(span.start);
    Loc { file: span.file.0, line: line as u32, col: col as u32, span: Some(span) }
}

/// Largest unsigned value of `width` bits.
pub fn max_value(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// Encodes a value as written in the spec (`PT`, `R3`, `False`, `0x2`, `-1`)
/// for type `t`; `None` if it is not a value of the type.
pub fn encode_literal(t: &Type, text: &str) -> Option<u64> {
    let max = max_value(t.width);
    let number = |s: &str| -> Option<i128> {
        let (neg, body) = match s.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, s),
        };
        let v = parse_int(body)? as i128;
        Some(if neg { -v } else { v })
    };
    match &t.kind {
        TypeKind::Enum { values } => values.iter().find(|v| v.name == text).map(|v| v.encoding),
        TypeKind::Register { prefix, constants, .. } => {
            if let Some(c) = constants.iter().find(|c| c.name == text) {
                return Some(c.index);
            }
            let n = text.strip_prefix(prefix.as_str()).filter(|r| r.bytes().all(|b| b.is_ascii_digit()) && !r.is_empty())?;
            let n: u64 = n.parse().ok()?;
            (n <= max).then_some(n)
        }
        TypeKind::Int { signed } => {
            let v = number(text)?;
            let (lo, hi) = if *signed {
                (-(1i128 << (t.width - 1)), (1i128 << (t.width - 1)) - 1)
            } else {
                (0, max as i128)
            };
            (lo..=hi).contains(&v).then_some((v as u64) & max)
        }
        TypeKind::Float { .. } | TypeKind::ConstMem { .. } => {
            let v = number(text)?;
            (0..=max as i128).contains(&v).then_some(v as u64)
        }
    }
}

