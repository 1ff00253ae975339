//! Parser: spec text -> [`File`]. Splits a file into declarations,
//! sections and raw lines as the grammar's `file` rule describes (line by
//! line, asking `line_head` about lines that begin with `__`), then applies
//! the line rules of `grammar.pest` to each line according to the section it
//! is in. A line that does not parse becomes one diagnostic at the column pest
//! reports, and parsing goes on with the next line; what the line most likely
//! declared (a field's or value's name) is kept so that its uses are not
//! reported again. Code where prose is allowed (a condition outside a rule,
//! a template outside its code block, a directive without its `<..>`) is
//! found by parsing it, never by guessing from its first word. Big files can be parsed
//! in declaration-aligned [`pieces`] on several threads, each with its own
//! [`LineCache`].

use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::expr::{BinOp, Expr, ExprKind};
use crate::source::{FileId, Span};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The parser pest derives from `grammar.pest`, in a module of its own: pest
/// generates [`Rule`] (one variant per grammar rule) and `Rule::all_rules`
/// without docs, which the crate's `missing_docs` lint would report.
mod derived {
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub(super) struct DslParser;
}
use derived::DslParser;
pub use derived::Rule;

/// `__OperandInfo` directive keywords.
const DIRECTIVES: &[&str] = &["InList", "OutList", "Order", "Bitwidth", "AsmFormat", "ModiOrder"];

/// Deepest nesting accepted in one expression (brackets, or `!`/`not` in a
/// row: `max_nesting`). Deeper input is
/// reported (E011) instead of risking the parser's stack.
pub const MAX_NESTING: usize = 32;

/// Most binary operators accepted on one line (`a or b or ...`): a chain of
/// them nests the expression tree one level per operator, as brackets do,
/// and the passes over the tree recurse once per level (`operator_count`).
/// Longer lines are reported (E011); 2,000 used to overflow a stack.
pub const MAX_OPERATORS: usize = 1024;

/// Parses one file. Never panics; every problem becomes a diagnostic.
pub fn parse_file(file: FileId, text: &str, diags: &mut Diagnostics) -> File {
    parse_piece(file, text, 0..text.len(), &LineCache::default(), diags)
}

/// Parses the piece `range` of a file's `text`, which must start and end
/// where [`pieces`] cuts. Spans are in the whole file. The pieces of a file,
/// parsed separately and their declarations concatenated in order, give what
/// [`parse_file`] gives (diagnostics aside, which come in another order).
pub fn parse_piece(
    file: FileId,
    text: &str,
    range: std::ops::Range<usize>,
    cache: &LineCache,
    diags: &mut Diagnostics,
) -> File {
    let mut out = File::default();
    let cx = Cx { file, cache };
    let before = diags.items.len();
    let last_piece = range.end == text.len();
    for item in split_file(file, text, range, cache) {
        match item {
            Item::Stray(line) => {
                if !is_blank_or_comment(line.value) {
                    diags.push(
                        Diagnostic::new(Code::StrayText, trim_span(&line), "text before the first declaration")
                            .with_label("expected `__DefGroup`, `__DefOptype`, `__DefOpcode`, `__DefBitFieldType`, ...")
                            .with_note("comments start with `//`"),
                    );
                }
            }
            Item::Decl(d) => {
                if let Some(d) = cx.decl(d, diags) {
                    out.decls.push(d);
                }
            }
        }
    }
    // A last line without its line break that does not parse: a file cut
    // short (a copy or an editor that stopped), which is worth saying.
    let end = text.trim_end_matches([' ', '\t']).len();
    if last_piece && !text.is_empty() && !text.ends_with(['\n', '\r']) {
        let at_end = diags.items[before..].iter_mut().filter(|d| d.is_error() && d.span.is_some_and(|s| s.file == file && s.end as usize >= end)).last();
        if let Some(d) = at_end {
            d.notes.push("the file ends here, with no line break: is it cut short?".into());
            out.cut_short = true;
        }
    }
    out
}

/// A piece of a file, as [`split_file`] finds them.
enum Item<'i> {
    /// A line before the first declaration.
    Stray(Line<'i>),
    Decl(DeclLines<'i>),
}

/// One declaration: its header line, the lines up to its first section, and
/// its sections.
struct DeclLines<'i> {
    header: Line<'i>,
    body: Vec<Line<'i>>,
    sections: Vec<SectionLines<'i>>,
}

/// One section: the span of its keyword (`__Encoding`) and its lines.
struct SectionLines<'i> {
    keyword: Spanned<&'i str>,
    body: Vec<Line<'i>>,
}

/// What a line starts, by the grammar's `line_head` rule.
#[derive(Clone, Copy)]
enum LineKind {
    Body,
    Decl,
    /// A section header; where its keyword is in the line.
    Section { at: usize, len: usize },
}

/// Classifies one line. Only a line whose first non-blank characters are
/// `__` can start anything, so most lines never reach pest.
fn line_kind(line: &str) -> LineKind {
    let head = line.trim_start_matches(BLANKS);
    if !head.starts_with("__") {
        return LineKind::Body;
    }
    // `decl_start` (blanks, then `__Def`) is `line_head`'s first choice and
    // needs nothing more: such a line is a declaration without asking pest
    // (344 lines of `spec/`, 4 K instructions each).
    if head.starts_with("__Def") || miscased_keyword(head).is_some() {
        return LineKind::Decl;
    }
    let Ok(Some(head)) = DslParser::parse(Rule::line_head, line).map(|mut p| p.next()) else { return LineKind::Body };
    match head.into_inner().next() {
        Some(p) if p.as_rule() == Rule::decl_start => LineKind::Decl,
        Some(p) => match p.into_inner().find(|k| matches!(k.as_rule(), Rule::section_kw | Rule::unknown_section_kw)) {
            Some(k) => LineKind::Section { at: k.as_span().start(), len: k.as_str().len() },
            None => LineKind::Body,
        },
        None => LineKind::Body,
    }
}

/// What may stand before a declaration or section header: the grammar's
/// blanks (`WS`), and a no-break space or an ideographic space (text copied
/// from a web page, an input method's), which a header is read without.
const BLANKS: [char; 5] = [' ', '\t', '\u{c}', '\u{a0}', '\u{3000}'];

/// The declaration keywords, as written.
const DECL_KEYWORDS: [&str; 8] =
    ["__DefBitFieldType", "__DefOperandType", "__DefIsa", "__DefGroup", "__DefOptype", "__DefOpcode", "__DefSimulation", "__DefValueFormat"];

/// When `head` (a line from its first non-blank) starts with a declaration
/// keyword in the wrong case (`__defopcode`, `__DefOpCode`): the word and
/// the keyword. Such a line starts a declaration, so that it is reported,
/// not read as prose (a file of them was skipped as "not DSL").
pub(crate) fn miscased_keyword(head: &str) -> Option<(&str, &'static str)> {
    let word = &head[..head.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(head.len())];
    let k = DECL_KEYWORDS.iter().find(|k| k.eq_ignore_ascii_case(word))?;
    (*k != word).then_some((word, *k))
}

/// The declaration keyword a header's first word misspells (`__DefOpcod`),
/// if it is none and one is near.
fn misspelt_keyword(head: &str) -> Option<(&str, &'static str)> {
    let word = &head[..head.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(head.len())];
    if DECL_KEYWORDS.contains(&word) {
        return None;
    }
    // Near in what follows `__Def`, the part that differs between them.
    let rest = word.strip_prefix("__Def")?;
    let near = isa_runtime::spelling::nearest(rest, DECL_KEYWORDS.iter().map(|k| &k[5..]))?;
    DECL_KEYWORDS.iter().find(|k| k[5..] == *near).map(|k| (word, *k))
}

/// [`line_kind`], remembering the answer for lines that start no
/// declaration: section headers repeat (`  __Encoding` 184 times and more),
/// declaration headers do not.
fn line_kind_cached(line: &str, cache: &LineCache) -> LineKind {
    if !line.trim_start_matches(BLANKS).starts_with("__") {
        return LineKind::Body;
    }
    if let Some(k) = cache.heads.borrow().get(line) {
        return *k;
    }
    let k = line_kind(line);
    if !matches!(k, LineKind::Decl) {
        cache.heads.borrow_mut().insert(line.to_string(), k);
    }
    k
}

/// Cuts a file into pieces of about `size` bytes or more, each starting at a
/// declaration (the first at 0), for parsing on several threads. A file with
/// no declaration far enough in stays whole. Only the lines just after each
/// `size` bytes are looked at.
pub fn pieces(text: &str, size: usize) -> Vec<std::ops::Range<usize>> {
    let size = size.max(1);
    let bytes = text.as_bytes();
    let mut cuts = vec![0];
    let mut from = size;
    while from < text.len() {
        // The first line that starts after `from` (a break is `\n`, `\r\n` or `\r`).
        let Some(brk) = bytes[from..].iter().position(|&c| c == b'\n' || c == b'\r').map(|i| from + i) else { break };
        let start = if bytes[brk] == b'\r' && bytes.get(brk + 1) == Some(&b'\n') { brk + 2 } else { brk + 1 };
        let decl = split_lines(&text[start..]).find(|(_, line)| {
            // `__Def` after blanks is what `decl_start` needs.
            matches!(line_kind(line), LineKind::Decl)
        });
        let Some((at, _)) = decl else { break };
        cuts.push(start + at);
        from = start + at + size;
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// Splits `text[range]` into stray lines and declarations with their
/// sections: the structure the grammar's `file` rule describes, found line by
/// line (a test checks the two agree). Every line lands somewhere, so one bad
/// line costs one diagnostic, not the rest of the file.
fn split_file<'i>(file: FileId, text: &'i str, range: std::ops::Range<usize>, cache: &LineCache) -> Vec<Item<'i>> {
    let mut items: Vec<Item<'_>> = Vec::new();
    let base = range.start;
    for (at, value) in split_lines(&text[range]) {
        let at = base + at;
        let line = Spanned { value, span: Span::new(file, at, at + value.len()) };
        let kind = line_kind_cached(value, cache);
        let Some(Item::Decl(d)) = items.last_mut().filter(|i| matches!(i, Item::Decl(_))) else {
            items.push(match kind {
                LineKind::Decl => Item::Decl(DeclLines { header: line, body: Vec::new(), sections: Vec::new() }),
                _ => Item::Stray(line),
            });
            continue;
        };
        match kind {
            LineKind::Decl => {
                items.push(Item::Decl(DeclLines { header: line, body: Vec::new(), sections: Vec::new() }))
            }
            LineKind::Section { at, len } => d.sections.push(SectionLines {
                keyword: Spanned { value: &value[at..at + len], span: line.span.sub(at, at + len) },
                body: Vec::new(),
            }),
            LineKind::Body => match d.sections.last_mut() {
                Some(s) => s.body.push(line),
                None => d.body.push(line),
            },
        }
    }
    items
}

fn error_pos(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    }
}

/// The names a field line that did not parse most likely declares, so that
/// their uses are not reported again: the last word before its `=` or `;`
/// (`field<32, 8> Reg rb` without `;`, `field<16, 8 Reg rd;`, a full-width
/// `；`, or the keyword misspelt as `feild`), full-width letters and digits
/// read as ASCII; for a name holding one (`rd２`), also the part before it
/// (`rd2`, `rd`: which was meant is unknown).
fn field_name_guess(line: &str) -> Vec<String> {
    let t = line.trim_start();
    let keyword: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if keyword != "field" && isa_runtime::spelling::nearest(&keyword, ["field"].into_iter()).is_none() {
        return Vec::new();
    }
    let ascii = isa_runtime::spelling::as_ascii(t);
    let Some(name) = ascii.split(['=', ';']).next().and_then(|d| d.split_whitespace().last()) else { return Vec::new() };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    if !(name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && name.chars().all(word)) {
        return Vec::new();
    }
    let mut names = vec![name.to_string()];
    let raw = t.split(['=', ';', '；', '＝']).next().and_then(|d| d.split_whitespace().last()).unwrap_or("");
    let prefix: String = raw.chars().take_while(|&c| word(c)).collect();
    if raw != name && !prefix.is_empty() && prefix != name {
        names.push(prefix);
    }
    names
}

/// A line without its `//` comment, if any.
fn before_comment(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// Whether a line is blank or a `//` comment.
pub(crate) fn is_blank_or_comment(s: &str) -> bool {
    let t = s.trim_start_matches([' ', '\t', '\u{3000}']);
    t.trim_end().is_empty() || t.starts_with("//")
}

fn trim_span(line: &Line<'_>) -> Span {
    let lead = line.value.len() - line.value.trim_start().len();
    let body = line.value.trim();
    line.span.sub(lead, lead + body.len())
}

/// Human name of a grammar rule for "expected ..." messages.
fn rule_name(r: &Rule) -> &'static str {
    match r {
        Rule::int => "a number",
        Rule::ident | Rule::operand_name | Rule::mnemonic => "a name",
        Rule::value_name => "a value name",
        Rule::path => "a field name",
        Rule::string => "a string",
        Rule::bit_range | Rule::decl_width => "`<`",
        Rule::const_op => "`==`",
        Rule::default_op | Rule::field_init => "`=`",
        Rule::trailing_comment => "a comment",
        Rule::EOI => "end of line",
        Rule::expr | Rule::paren | Rule::bool_lit => "an expression",
        Rule::not_op => "`not`",
        Rule::or_op | Rule::and_op | Rule::eq_op | Rule::ne_op | Rule::add_op | Rule::sub_op | Rule::mul_op => {
            "an operator"
        }
        Rule::decl_parent | Rule::decl_kind => "`:`",
        Rule::operand_ref | Rule::indexed_ref => "an operand",
        Rule::list_item => "a value",
        Rule::comma => "`,`",
        Rule::operand | Rule::opt_operand | Rule::operand_list => "an operand",
        Rule::opt_modifier | Rule::req_modifier => "a modifier",
        Rule::control => "`$name`",
        Rule::property_value => "a value",
        _ => "more input",
    }
}

fn expected_message(e: &pest::error::Error<Rule>) -> String {
    match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(rule_name).collect();
            names.sort();
            names.dedup();
            match names.len() {
                0 => "unexpected input".to_string(),
                1 => format!("expected {}", names[0]),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("expected {} or {}", names.join(", "), last)
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    }
}

fn positives_has_int(e: &pest::error::Error<Rule>) -> bool {
    matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. } if positives.contains(&Rule::int))
}

/// Where a line rule failed and what it expected there. pest's own error
/// names only rules; its parse attempts also know the literal tokens tried at
/// the furthest position (`;`, `=`, `>`), which makes for precise messages.
fn describe_failure(e: &pest::error::Error<Rule>) -> (usize, String) {
    let pos = error_pos(e);
    let Some(attempts) = e.parse_attempts() else { return (pos, expected_message(e)) };
    if attempts.max_position < pos {
        return (pos, expected_message(e));
    }
    let mut names: Vec<String> = Vec::new();
    if attempts.max_position == pos {
        if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
            names.extend(positives.iter().map(rule_name).filter(|n| *n != "more input").map(String::from));
        }
    }
    for t in attempts.expected_tokens() {
        // `ParsingToken` is not exported; its Display is the token, or `a..z` for ranges.
        let token = t.to_string();
        let n = match token.as_str() {
            "BUILTIN_RULE" => continue,
            t if t.trim().is_empty() => continue,
            "0x" | "0X" | "0b" => "a number".to_string(),
            t if t.len() >= 4 && t.contains("..") => {
                if t.starts_with(|c: char| c.is_ascii_digit()) { "a number".to_string() } else { "a name".to_string() }
            }
            t => format!("`{t}`"),
        };
        if !names.contains(&n) {
            names.push(n);
        }
    }
    if names.iter().any(|n| n == "a name" || n == "a field name") {
        names.retain(|n| n != "`_`" && n != "a number" || n == "a number" && positives_has_int(e));
    }
    if names.iter().any(|n| n == "an expression") {
        // The expression's own first tokens say nothing more.
        names.retain(|n| n.starts_with("a") || n == "`(`");
    }
    names.sort();
    names.dedup();
    let msg = match names.len() {
        0 => "unexpected input".to_string(),
        1 => format!("expected {}", names[0]),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("expected {} or {}", names.join(", "), last)
        }
    };
    (attempts.max_position, msg)
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq_op, Assoc::Left) | Op::infix(Rule::ne_op, Assoc::Left))
            .op(Op::infix(Rule::add_op, Assoc::Left) | Op::infix(Rule::sub_op, Assoc::Left))
            .op(Op::infix(Rule::mul_op, Assoc::Left))
    })
}

/// How deeply a line nests: its deepest bracket, or its longest run of
/// prefix operators (`!`, `not`; brackets and spaces between them do not
/// end a run), whichever is more. Both nest the expression tree, and the
/// passes over it recurse once per level.
fn max_nesting(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut d, mut m, mut run) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        match b[i] {
            b'(' | b'{' | b'[' => {
                d += 1;
                m = m.max(d);
            }
            b')' | b'}' | b']' => d = d.saturating_sub(1),
            b'!' if b.get(i + 1) != Some(&b'=') => {
                run += 1;
                m = m.max(run);
            }
            b'n' if word_start && b[i..].starts_with(b"not") && !b.get(i + 3).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') => {
                run += 1;
                m = m.max(run);
                i += 3;
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => run = 0,
        }
        i += 1;
    }
    m
}

/// How many binary operators a line may hold, counted from its text: `==`,
/// `!=`, `&&`, `||`, `+`, `-`, `*` and the words `and`, `or`. An upper
/// bound (a `-` of a negative number counts too), which is all
/// [`MAX_OPERATORS`] needs.
fn operator_count(s: &str) -> usize {
    let b = s.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let (mut n, mut i) = (0usize, 0usize);
    while i < b.len() {
        let word_start = i == 0 || !is_word(b[i - 1]);
        let rest = &b[i..];
        let word = |w: &[u8]| word_start && rest.starts_with(w) && !rest.get(w.len()).is_some_and(|c| is_word(*c));
        if rest.starts_with(b"==") || rest.starts_with(b"!=") || rest.starts_with(b"&&") || rest.starts_with(b"||") {
            n += 1;
            i += 2;
            continue;
        }
        if matches!(b[i], b'+' | b'-' | b'*') {
            n += 1;
        } else if word(b"and") || word(b"or") {
            n += 1;
            i += 2;
        }
        i += 1;
    }
    n
}

/// Lines already parsed, by exact text, for reuse across the files and
/// pieces one thread parses: the seeds repeat most field and directive lines
/// (945 fields, 242 distinct; 1163 directives, 125 distinct), section headers
/// and code fences, so a repeat costs a lookup and a clone instead of a pest
/// parse. Only lines that parsed without
/// diagnostics are kept; a hit is moved to its own file and position with
/// `Relocate`. What a line parses to does not depend on the cache.
#[derive(Default)]
pub struct LineCache {
    fields: RefCell<HashMap<String, (u32, Field)>>,
    directives: RefCell<HashMap<String, (u32, Directive)>>,
    heads: RefCell<HashMap<String, LineKind>>,
    fences: RefCell<HashMap<String, bool>>,
}

struct Cx<'c> {
    file: FileId,
    cache: &'c LineCache,
}

/// A move of spans from a line starting at `from` to one starting at `to`
/// in `file`.
#[derive(Clone, Copy)]
struct Move {
    from: u32,
    to: u32,
    file: FileId,
}

/// Moves every span of an AST node to another line (see [`Move`]).
trait Relocate {
    fn relocate(&mut self, m: Move);
}

impl Relocate for Span {
    fn relocate(&mut self, m: Move) {
        self.file = m.file;
        self.start = self.start - m.from + m.to;
        self.end = self.end - m.from + m.to;
    }
}

impl<T> Relocate for Spanned<T> {
    fn relocate(&mut self, m: Move) {
        self.span.relocate(m);
    }
}

impl<T: Relocate> Relocate for Vec<T> {
    fn relocate(&mut self, m: Move) {
        self.iter_mut().for_each(|x| x.relocate(m));
    }
}

impl Relocate for Expr {
    fn relocate(&mut self, m: Move) {
        if let Some(s) = &mut self.span {
            s.relocate(m);
        }
        match &mut self.kind {
            ExprKind::Not(a) => a.relocate(m),
            ExprKind::Binary(_, a, b) => {
                a.relocate(m);
                b.relocate(m);
            }
            _ => {}
        }
    }
}

impl Relocate for OperandRef {
    fn relocate(&mut self, m: Move) {
        self.name.relocate(m);
        self.index.relocate(m);
    }
}

impl Relocate for Field {
    fn relocate(&mut self, m: Move) {
        self.start.relocate(m);
        self.width.relocate(m);
        self.ty.relocate(m);
        self.name.relocate(m);
        if let Some(i) = &mut self.init {
            i.value.relocate(m);
        }
        self.span.relocate(m);
    }
}

impl Relocate for Directive {
    fn relocate(&mut self, m: Move) {
        match self {
            Directive::InList(r, s) | Directive::OutList(r, s) | Directive::Order(r, s) => {
                r.relocate(m);
                s.relocate(m);
            }
            Directive::Bitwidth { operand, expr, span } => {
                operand.relocate(m);
                expr.relocate(m);
                span.relocate(m);
            }
            Directive::AsmFormat { operand, function, args, span } => {
                operand.relocate(m);
                function.relocate(m);
                args.relocate(m);
                span.relocate(m);
            }
            Directive::ModiOrder(a, s) => {
                a.relocate(m);
                s.relocate(m);
            }
        }
    }
}

/// Parses `line` with `parse`, or reuses an earlier parse of the same text.
fn memo<T: Clone + Relocate>(
    cache: &RefCell<HashMap<String, (u32, T)>>,
    line: &Line<'_>,
    diags: &mut Diagnostics,
    parse: impl FnOnce(&mut Diagnostics) -> Option<T>,
) -> Option<T> {
    if let Some((from, v)) = cache.borrow().get(line.value) {
        let mut v = v.clone();
        v.relocate(Move { from: *from, to: line.span.start, file: line.span.file });
        return Some(v);
    }
    let before = diags.len();
    let v = parse(diags)?;
    if diags.len() == before {
        cache.borrow_mut().insert(line.value.to_string(), (line.span.start, v.clone()));
    }
    Some(v)
}

impl Cx<'_> {
    /// Whether `line` is a code fence (`fence_line`), remembered by text.
    fn is_fence(&self, line: &str) -> bool {
        if let Some(&f) = self.cache.fences.borrow().get(line) {
            return f;
        }
        let f = DslParser::parse(Rule::fence_line, line).is_ok();
        self.cache.fences.borrow_mut().insert(line.to_string(), f);
        f
    }

    /// Parses `line` with a line rule. On failure, reports `code` at the
    /// column pest stopped at and returns None.
    fn parse_line<'i>(
        &self,
        rule: Rule,
        line: &Line<'i>,
        code: Code,
        what: &str,
        diags: &mut Diagnostics,
    ) -> Option<Pair<'i, Rule>> {
        if max_nesting(line.value) > MAX_NESTING {
            diags.push(
                Diagnostic::new(Code::TooDeep, trim_span(line), format!("{what} nested too deeply"))
                    .with_note(format!("at most {MAX_NESTING} levels of brackets, or {MAX_NESTING} `!`/`not` in a row, are accepted")),
            );
            return None;
        }
        let operators = operator_count(line.value);
        if operators > MAX_OPERATORS {
            diags.push(
                Diagnostic::new(Code::TooDeep, trim_span(line), format!("{what} has too many operators ({operators})"))
                    .with_note(format!("at most {MAX_OPERATORS} binary operators on a line are accepted: each nests the expression one level")),
            );
            return None;
        }
        match DslParser::parse(rule, line.value) {
            Ok(mut pairs) => pairs.next(),
            Err(_) => {
                // Parse again with pest's error detail on, which records the
                // literal tokens tried; it is too slow to leave on for every line.
                // It is only ever switched on, so messages never depend on timing.
                pest::set_error_detail(true);
                let Err(e) = DslParser::parse(rule, line.value) else { return None };
                let (pos, mut expected) = describe_failure(&e);
                let pos = pos.min(line.value.len());
                // A line that only lacks its `;` (`Width = 128`): say that,
                // not every token that could also have come next.
                let rest = line.value[pos..].trim();
                if (rest.is_empty() || rest.starts_with("//")) && expected.contains("`;`") {
                    expected = "missing `;` at the end of the line".to_string();
                }
                // `0xG`: a hex number with a digit that is none.
                let word_start = line.value[..pos].rfind(|c: char| !c.is_ascii_alphanumeric()).map_or(0, |i| i + 1);
                let word_end = pos + line.value[pos..].find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(line.value.len() - pos);
                let word = &line.value[word_start..word_end];
                if pos > word_start && (pos < word_end || word.len() == 2) && (word.starts_with("0x") || word.starts_with("0X")) {
                    expected = format!("`{word}` is not a hexadecimal number");
                }
                // `[ALL, G]`: inheritance is single.
                if rule == Rule::decl_head && line.value[pos..].starts_with(',') && line.value[..pos].contains('[') {
                    expected = "a declaration has one parent: `[Parent]`".to_string();
                }
                let at = line.value[pos..].chars().next();
                let end = at.map(|c| pos + c.len_utf8()).unwrap_or(pos);
                let one_line = rule == Rule::exception_line && expected.starts_with("missing `;`");
                let mut d = Diagnostic::new(code, line.span.sub(pos, end), format!("malformed {what}")).with_label(expected);
                if at == Some('\u{a0}') {
                    d = d.with_note("a no-break space (U+00A0), as text copied from a web page holds: write a plain space");
                } else if let Some((c, ascii)) = at.and_then(|c| isa_runtime::spelling::ascii_of_full_width(c).map(|a| (c, a))) {
                    d = d.with_note(format!("`{c}` is the full-width (U+{:04X}) form of `{ascii}`: write the ASCII `{ascii}`", c as u32));
                }
                if one_line {
                    d = d.with_note("a rule is one line: its condition cannot go on to the next");
                }
                // `Prefix = "R;`: say which quote is not closed.
                let code = before_comment(line.value);
                if code.matches('"').count() % 2 == 1 {
                    let open = code.rfind('"').unwrap_or(0);
                    let col = line.value[..open].chars().count() + 1;
                    d = d.with_note(format!("the string opened by the `\"` at column {col} is not closed on this line"));
                }
                diags.push(d);
                None
            }
        }
    }

    fn offset_span(&self, line: &Line<'_>, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        line.span.sub(s.start(), s.end())
    }

    fn offset_ident(&self, line: &Line<'_>, p: &Pair<Rule>) -> Ident {
        Spanned { value: p.as_str().to_string(), span: self.offset_span(line, p) }
    }

    fn decl(&self, d: DeclLines<'_>, diags: &mut Diagnostics) -> Option<Decl> {
        let mut header = d.header;
        let mut lead = header.value.len() - header.value.trim_start_matches(BLANKS).len();
        // A no-break or ideographic space before the header: read without it.
        if header.value[..lead].contains(['\u{a0}', '\u{3000}']) {
            header = Spanned { value: &header.value[lead..], span: header.span.sub(lead, header.value.len()) };
            lead = 0;
        }
        if let Some((word, keyword)) = miscased_keyword(&header.value[lead..]) {
            diags.push(
                Diagnostic::new(Code::MalformedDecl, header.span.sub(lead, lead + word.len()), format!("unknown declaration keyword `{word}`"))
                    .with_label(format!("keywords are case-sensitive: did you mean `{keyword}`?")),
            );
            return None;
        }
        if let Some((word, keyword)) = misspelt_keyword(&header.value[lead..]) {
            diags.push(
                Diagnostic::new(Code::MalformedDecl, header.span.sub(lead, lead + word.len()), format!("unknown declaration keyword `{word}`"))
                    .with_label(format!("did you mean `{keyword}`?")),
            );
            return None;
        }
        // `__DefOptype IMUL : [IALU];`: a header takes no `;`. Said, then
        // read without it, so that what it declares is not lost.
        let code_end = header.value.find("//").unwrap_or(header.value.len());
        let unended = header.value[..code_end].trim_end().strip_suffix(';').filter(|h| DslParser::parse(Rule::decl_head, h).is_ok());
        let head = match unended {
            Some(h) => {
                let at = h.len();
                diags.push(
                    Diagnostic::new(Code::MalformedDecl, header.span.sub(at, at + 1), "a declaration header takes no `;`")
                        .with_label("remove it (read without it)"),
                );
                DslParser::parse(Rule::decl_head, &header.value[..at]).ok().and_then(|mut p| p.next())
            }
            None => self.parse_line(Rule::decl_head, &header, Code::MalformedDecl, "declaration header", diags),
        };
        let mut decl = match head {
            Some(h) => self.decl_head(&header, h, diags)?,
            None => return None,
        };
        let mut sections = d.sections;
        let class = matches!(decl.kind, DeclKind::Group | DeclKind::Optype | DeclKind::Opcode);
        let stray: Vec<&Line<'_>> = d.body.iter().filter(|l| !is_blank_or_comment(l.value)).collect();
        if let (true, Some(first), Some(last)) = (class, stray.first(), stray.last()) {
            // Lines before a class's first section: one error for the run.
            // Fields whose `__Encoding` line is missing are read as that
            // section, so that its opcodes are not reported again.
            let fields = stray.iter().all(|l| l.value.trim_start().starts_with("field"));
            let span = Span { end: trim_span(last).end, ..trim_span(first) };
            let n = stray.len();
            let what = if n == 1 { "a line".to_string() } else { format!("{n} lines") };
            let mut e = Diagnostic::new(Code::StrayText, span, "text outside any section");
            e = if fields {
                e.with_label(format!("{what} of fields before any section")).with_note("is `__Encoding` missing above them? (read as that)")
            } else {
                // What the lines meant is unknown: no follow-ons.
                decl.partly_unread = true;
                e.with_label("expected a section such as `__Encoding`")
            };
            diags.push(e);
            if fields {
                let keyword = Spanned { value: "__Encoding", span: trim_span(first) };
                sections.insert(0, SectionLines { keyword, body: d.body.clone() });
            }
        } else {
            for line in &d.body {
                self.decl_body_line(&mut decl, line, diags);
            }
        }
        let mut said = false;
        for s in sections {
            let Some(s) = self.section(&decl, s, diags) else {
                decl.partly_unread = true;
                continue;
            };
            {
                // A second `__Encoding` (or other section) in one
                // declaration: most likely the header of the next one is
                // missing, and its sections were read as this one's (said
                // once: the sections after it follow from the same cause).
                if let Some(first) = decl.sections.iter().find(|f| f.kind == s.kind).filter(|_| !said) {
                    said = true;
                    diags.push(
                        Diagnostic::new(Code::DuplicateDefinition, s.header, format!("`{}` has a second `{}` section", decl.name.value, s.kind.keyword()))
                            .with_secondary(first.header, "the first is here")
                            .with_note("is a declaration header (`__DefOpcode ...`) missing above it? Its sections are read as this declaration's"),
                    );
                }
                // A directive that did not parse: what the opcode reads,
                // writes and binds is unknown, so no follow-ons.
                decl.partly_unread |= s.broken_directives > 0;
                decl.sections.push(s);
            }
        }
        Some(decl)
    }

    fn decl_head(&self, line: &Line<'_>, head: Pair<Rule>, diags: &mut Diagnostics) -> Option<Decl> {
        let mut kind = None;
        let mut name = None;
        let mut width = None;
        let mut parent = None;
        let mut type_kind = None;
        for p in head.into_inner() {
            match p.as_rule() {
                Rule::decl_kw => {
                    kind = Some(match p.as_str() {
                        "__DefBitFieldType" => DeclKind::BitFieldType,
                        "__DefOperandType" => DeclKind::OperandType,
                        "__DefIsa" => DeclKind::Isa,
                        "__DefGroup" => DeclKind::Group,
                        "__DefOptype" => DeclKind::Optype,
                        "__DefSimulation" => DeclKind::Simulation,
                        "__DefValueFormat" => DeclKind::ValueFormat,
                        _ => DeclKind::Opcode,
                    })
                }
                Rule::ident => name = Some(self.offset_ident(line, &p)),
                Rule::decl_width => {
                    let n = p.into_inner().next()?;
                    width = Some(self.int(line, &n, diags)?);
                }
                Rule::decl_parent => {
                    parent = Some(p.into_inner().next().map(|i| self.offset_ident(line, &i)));
                }
                Rule::decl_kind => {
                    type_kind = p.into_inner().next().map(|i| self.offset_ident(line, &i));
                }
                _ => {}
            }
        }
        let kind = kind?;
        let span = trim_span(line);
        let name = name?;
        // Shape checks that the grammar leaves to us, so the message can be precise.
        let needs_width = matches!(kind, DeclKind::BitFieldType | DeclKind::OperandType);
        if needs_width && width.is_none() {
            diags.push(
                Diagnostic::new(Code::MalformedDecl, name.span, format!("`{}` needs a width", kind.keyword()))
                    .with_label(format!("write `{}<N>`", name.value)),
            );
            // Kept without one: the type is then refused where types are
            // built, so its uses are not reported as undefined again.
        }
        if !needs_width {
            if let Some(w) = &width {
                diags.push(Diagnostic::new(Code::MalformedDecl, w.span, format!("`{}` takes no width", kind.keyword())));
            }
        }
        if matches!(kind, DeclKind::Optype | DeclKind::Opcode) && parent.as_ref().is_none_or(|p| p.is_none()) {
            diags.push(
                Diagnostic::new(Code::MalformedDecl, name.span, format!("`{}` needs a parent", kind.keyword()))
                    .with_label(format!("write `{} : [Parent]`", name.value)),
            );
            return None;
        }
        if kind == DeclKind::OperandType && type_kind.is_none() {
            diags.push(
                Diagnostic::new(Code::MalformedDecl, name.span, "`__DefOperandType` needs a kind")
                    .with_label("write `: Register`, `: Predicate`, `: SignedInt`, `: UnsignedInt`, `: Float` or `: ConstMem`"),
            );
            return None;
        }
        if kind != DeclKind::OperandType {
            if let Some(k) = &type_kind {
                diags.push(Diagnostic::new(Code::MalformedDecl, k.span, "only `__DefOperandType` takes a kind"));
            }
        }
        if !matches!(kind, DeclKind::Group | DeclKind::Optype | DeclKind::Opcode) {
            if let Some(Some(p)) = &parent {
                diags.push(Diagnostic::new(Code::MalformedDecl, p.span, format!("`{}` takes no parent", kind.keyword())));
            }
        }
        Some(Decl {
            kind,
            name,
            width,
            parent,
            type_kind,
            span,
            values: Vec::new(),
            properties: Vec::new(),
            hooks: Vec::new(),
            sections: Vec::new(),
            broken_values: Vec::new(),
            broken_lines: 0,
            partly_unread: false,
        })
    }

    fn int(&self, line: &Line<'_>, p: &Pair<Rule>, diags: &mut Diagnostics) -> Option<Spanned<u64>> {
        let span = self.offset_span(line, p);
        match parse_int(p.as_str()) {
            Some(v) => Some(Spanned { value: v, span }),
            None => {
                diags.push(Diagnostic::new(Code::ValueTooWide, span, "number does not fit in 64 bits"));
                None
            }
        }
    }

    fn decl_body_line(&self, decl: &mut Decl, line: &Line<'_>, diags: &mut Diagnostics) {
        if is_blank_or_comment(line.value) {
            return;
        }
        match decl.kind {
            DeclKind::BitFieldType => {
                let Some(p) = self.parse_line(Rule::enum_value_line, line, Code::MalformedEnumValue, "value", diags)
                else {
                    // `NoX = 0x0` without its `;`, `NoX = 0xG;`: the name is still the first word.
                    let t = line.value.trim_start();
                    let n = t.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
                    if n > 0 {
                        decl.broken_values.push(t[..n].to_string());
                    }
                    return;
                };
                let mut name = None;
                let mut enc = None;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::value_name => name = Some(self.offset_ident(line, &c)),
                        Rule::int => enc = self.int(line, &c, diags),
                        _ => {}
                    }
                }
                if let Some(name) = name {
                    decl.values.push(EnumValue { name, encoding: enc, span: trim_span(line) });
                }
            }
            DeclKind::OperandType | DeclKind::Isa | DeclKind::ValueFormat => {
                let Some(p) = self.parse_line(Rule::property_line, line, Code::MalformedProperty, "property", diags)
                else {
                    decl.broken_lines += 1;
                    return;
                };
                let mut key = None;
                let mut name = None;
                let mut value = None;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::ident => key = Some(self.offset_ident(line, &c)),
                        Rule::value_name => name = Some(self.offset_ident(line, &c)),
                        Rule::property_value => {
                            let span = self.offset_span(line, &c);
                            let Some(v) = c.into_inner().next() else { continue };
                            let pv = match v.as_rule() {
                                Rule::string => PropertyValue::Str(string_body(&v)),
                                Rule::int => match self.int(line, &v, diags) {
                                    Some(i) => PropertyValue::Int(i.value),
                                    None => return,
                                },
                                Rule::bit_range => {
                                    let mut it = v.into_inner();
                                    let (Some(a), Some(b)) = (it.next(), it.next()) else { return };
                                    let (Some(a), Some(b)) = (self.int(line, &a, diags), self.int(line, &b, diags))
                                    else {
                                        return;
                                    };
                                    PropertyValue::Range { start: a.value, width: b.value }
                                }
                                _ => PropertyValue::Name(v.as_str().to_string()),
                            };
                            value = Some(Spanned { value: pv, span });
                        }
                        _ => {}
                    }
                }
                if let (Some(key), Some(value)) = (key, value) {
                    decl.properties.push(Property { key, name, value, span: trim_span(line) });
                }
            }
            DeclKind::Simulation => {
                match self.parse_line(Rule::simulation_line, line, Code::MalformedHook, "simulation hook", diags) {
                    Some(p) => decl.hooks.push(self.simulation(line, p)),
                    None => decl.broken_lines += 1,
                }
            }
            _ => diags.push(
                Diagnostic::new(Code::StrayText, trim_span(line), "text outside any section")
                    .with_label("expected a section such as `__Encoding`"),
            ),
        }
    }

    fn section(&self, decl: &Decl, section: SectionLines<'_>, diags: &mut Diagnostics) -> Option<Section> {
        let header = section.keyword.span;
        let kind = match SectionKind::from_keyword(section.keyword.value) {
            Some(kind) => kind,
            None => {
                // Read as the keyword it nearly is, so one typo costs one
                // error; with none near, its lines are skipped.
                let word = section.keyword.value;
                let near = isa_runtime::spelling::nearest(word, SectionKind::ALL.iter().map(|k| k.keyword()));
                let hint = near.map_or_else(
                    || format!("sections are {}", SectionKind::ALL.map(|k| format!("`{}`", k.keyword())).join(", ")),
                    |n| format!("did you mean `{n}`? (read as that)"),
                );
                diags.push(Diagnostic::new(Code::UnknownSectionKeyword, header, format!("unknown section `{word}`")).with_label(hint));
                SectionKind::from_keyword(near?)?
            }
        };
        let lines = section.body;
        if !matches!(decl.kind, DeclKind::Group | DeclKind::Optype | DeclKind::Opcode) {
            diags.push(Diagnostic::new(
                Code::StrayText,
                header,
                format!("section `__{}` inside `{}`", kind.name(), decl.kind.keyword()),
            ));
            return None;
        }
        let text = section_text(self.file, header, &lines);
        let mut s = Section {
            kind,
            header,
            text,
            fields: Vec::new(),
            directives: Vec::new(),
            exceptions: Vec::new(),
            templates: Vec::new(),
            value_lists: Vec::new(),
            code_lines: Vec::new(),
            broken_fields: Vec::new(),
            broken_templates: 0,
            broken_directives: 0,
            simulation: None,
        };
        let mut fence_open: Option<Span> = None;
        // The lines of the open code block of `__Semantics`.
        let mut block: Vec<&Line<'_>> = Vec::new();
        // Each directive given in the section (`Order`, `Bitwidth<rd>`):
        // where, and its text without blanks.
        let mut given: HashMap<String, (Span, String)> = HashMap::new();
        for line in &lines {
            if line.value.trim_start().starts_with("```") && self.is_fence(line.value) {
                fence_open = match fence_open {
                    Some(_) => None,
                    None => Some(trim_span(line)),
                };
                if fence_open.is_none() && kind == SectionKind::Semantics {
                    diags.extend(unbalanced_bracket(&block));
                }
                block.clear();
                continue;
            }
            if fence_open.is_some() && kind == SectionKind::Semantics {
                block.push(line);
            }
            // Markdown's other fence: the manual would show a code block
            // that the compiler does not read.
            if fence_open.is_none() && matches!(kind, SectionKind::Syntax | SectionKind::Examples) && line.value.trim_start().starts_with("~~~") {
                diags.push(
                    Diagnostic::new(Code::UnknownSection, trim_span(line), "a `~~~` fence is not read")
                        .with_label("write ``` instead")
                        .with_note(format!("the lines of `__{}` are read from ``` blocks only", kind.name())),
                );
                continue;
            }
            let in_fence = fence_open.is_some();
            match kind {
                SectionKind::Encoding => {
                    if is_blank_or_comment(line.value) {
                        continue;
                    }
                    match self.field(line, diags) {
                        Some(f) => s.fields.push(f),
                        None => s.broken_fields.extend(field_name_guess(line.value)),
                    }
                }
                SectionKind::Syntax if in_fence => {
                    if is_blank_or_comment(line.value) {
                        continue;
                    }
                    if looks_like_value_list(line.value) {
                        if let Some(v) = self.value_list(line, diags) {
                            s.value_lists.push(v);
                        }
                    } else if let Some(t) = self.template(line, diags) {
                        s.templates.push(t);
                    } else {
                        s.broken_templates += 1;
                    }
                }
                // `InList＜pg, ra＞;`: a directive typed with full-width
                // brackets would be prose; said at the first of them.
                SectionKind::OperandInfo if !in_fence && directive_in_full_width(line.value).is_some() => {
                    let (at, c, a) = directive_in_full_width(line.value).unwrap_or((0, ' ', ' '));
                    diags.push(
                        Diagnostic::new(Code::MalformedDirective, line.span.sub(at, at + c.len_utf8()), "malformed directive")
                            .with_label(format!("`{c}` is the full-width (U+{:04X}) form of `{a}`", c as u32))
                            .with_note(format!("write the ASCII `{a}`")),
                    );
                    s.broken_directives += 1;
                }
                SectionKind::OperandInfo
                    if !in_fence && looks_like_directive(line.value) && !is_prose_after_directive(line.value) => {
                        let word = line.value.trim_start().split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
                        if !DIRECTIVES.contains(&word) {
                            let lead = line.value.len() - line.value.trim_start().len();
                            diags.push(
                                Diagnostic::new(Code::MalformedDirective, line.span.sub(lead, lead + word.len()), format!("unknown directive `{word}`"))
                                    .with_note(format!("directives are {}", DIRECTIVES.join(", "))),
                            );
                            s.broken_directives += 1;
                            continue;
                        }
                        match self.directive(line, diags) {
                            Some(d) => {
                                // A second `Order` (or `Bitwidth<rd>`) in one section would
                                // silently replace the first.
                                // The same line again is only a slip (W029, as a name listed twice).
                                let key = d.key();
                                let text: String = before_comment(line.value).split_whitespace().collect();
                                match given.get(&key) {
                                    Some((first, same)) if *same == text => diags.push(
                                        Diagnostic::new(Code::ListedTwice, d.span(), format!("`{key}` given twice, the same"))
                                            .with_secondary(*first, "first given here")
                                            .with_label("remove this line"),
                                    ),
                                    Some((first, _)) => {
                                        diags.push(
                                            Diagnostic::new(Code::DuplicateDefinition, d.span(), format!("`{key}` given twice"))
                                                .with_secondary(*first, "first given here")
                                                .with_note("the second would replace the first"),
                                        );
                                        s.broken_directives += 1;
                                    }
                                    None => {
                                        given.insert(key, (d.span(), text));
                                        s.directives.push(d);
                                    }
                                }
                            }
                            None => s.broken_directives += 1,
                        }
                    }
                // `InList pg, ra;`: a directive without its `<..>` would be prose.
                SectionKind::OperandInfo if !in_fence && bare_directive(line.value).is_some() => {
                    let (word, at) = bare_directive(line.value).unwrap_or_default();
                    let end = line.value[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    diags.push(
                        Diagnostic::new(Code::MalformedDirective, line.span.sub(at, end), "malformed directive")
                            .with_label(format!("expected `<` after `{word}`"))
                            .with_note(format!("write `{word}<...>;`")),
                    );
                    s.broken_directives += 1;
                }
                SectionKind::Exception
                    if !in_fence && looks_like_directive(line.value) => {
                        if let Some(e) = self.exception(line, diags) {
                            s.exceptions.push(e);
                        }
                    }
                // A rule's condition on a line of its own (a wrapped rule, or
                // one without `EncodingError<..> =`) would be prose, and the
                // rule silently weaker or gone.
                SectionKind::Exception if !in_fence && looks_like_condition(line.value) => {
                    diags.push(
                        Diagnostic::new(Code::MalformedException, trim_span(line), "a condition outside any rule")
                            .with_label("not read: no `EncodingError<Kind, \"message\"> =` before it on this line")
                            .with_note("a rule is one line: `EncodingError<Kind, \"message\"> = condition;`"),
                    );
                }
                SectionKind::Examples | SectionKind::Semantics if in_fence => {
                    s.code_lines.push(Spanned { value: line.value.to_string(), span: line.span });
                }
                // Only the lines of a code block are examples and templates:
                // one that looks like them outside any is named, not dropped.
                SectionKind::Examples | SectionKind::Syntax if looks_like_assembly(line.value, &decl.name.value) => {
                    let what = if kind == SectionKind::Syntax { "template" } else { "example" };
                    diags.push(
                        Diagnostic::new(Code::UnknownSection, trim_span(line), format!("{what} outside a code block"))
                            .with_label(format!("not read as a{} {what}", if what == "example" { "n" } else { "" }))
                            .with_note(format!("the {what}s of `__{}` are the lines of a ```asm block", kind.name())),
                    );
                    if kind == SectionKind::Syntax {
                        s.broken_templates += 1;
                    }
                }
                SectionKind::Simulation => {
                    if is_blank_or_comment(line.value) || s.simulation.is_some() {
                        continue;
                    }
                    match DslParser::parse(Rule::simulation_line, line.value) {
                        Ok(mut p) => s.simulation = p.next().map(|p| self.simulation(line, p)),
                        Err(_) => diags.push(
                            Diagnostic::new(Code::UnknownSection, trim_span(line), "simulation hook not understood")
                                .with_label("expected `result = Hook(args);`"),
                        ),
                    }
                }
                _ => {}
            }
        }
        if let Some(open) = fence_open {
            diags.push(
                Diagnostic::new(Code::UnterminatedFence, open, "code fence is never closed")
                    .with_label("opened here")
                    .with_note(format!("the `__{}` section ends before a closing ```", kind.name())),
            );
        }
        Some(s)
    }

    fn field(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<Field> {
        memo(&self.cache.fields, line, diags, |diags| self.parse_field(line, diags))
    }

    fn parse_field(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<Field> {
        let p = self.parse_line(Rule::field_line, line, Code::MalformedField, "field", diags)?;
        let mut it = p.into_inner();
        let range = it.next()?;
        let mut r = range.into_inner();
        let start = self.int(line, &r.next()?, diags)?;
        let width = self.int(line, &r.next()?, diags)?;
        let ty = self.offset_ident(line, &it.next()?);
        let name = self.offset_ident(line, &it.next()?);
        let mut init = None;
        for c in it {
            if c.as_rule() == Rule::field_init {
                let mut ci = c.into_inner();
                let op = ci.next()?;
                let v = ci.next()?;
                let mut value = self.offset_ident(line, &v);
                if v.as_rule() == Rule::int {
                    // `- int`: keep the sign in the text.
                    value.value = format!("-{}", v.as_str());
                    value.span.start -= 1;
                }
                init = Some(FieldInit { constant: op.as_rule() == Rule::const_op, value });
            }
        }
        Some(Field { start, width, ty, name, init, span: trim_span(line) })
    }

    fn operand_ref(&self, line: &Line<'_>, p: Pair<Rule>) -> Option<OperandRef> {
        let inner = p.into_inner().next()?;
        match inner.as_rule() {
            Rule::indexed_ref => {
                let mut it = inner.into_inner();
                let name = self.offset_ident(line, &it.next()?);
                let index = it.map(|i| self.offset_ident(line, &i)).collect();
                Some(OperandRef { name, index })
            }
            _ => Some(OperandRef { name: self.offset_ident(line, &inner), index: Vec::new() }),
        }
    }

    fn directive(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<Directive> {
        memo(&self.cache.directives, line, diags, |diags| self.parse_directive(line, diags))
    }

    fn parse_directive(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<Directive> {
        let p = self.parse_line(Rule::directive_line, line, Code::MalformedDirective, "directive", diags)?;
        let d = p.into_inner().next()?;
        let span = trim_span(line);
        Some(match d.as_rule() {
            Rule::list_directive => {
                let mut it = d.into_inner();
                let kw = it.next()?;
                let refs: Vec<OperandRef> = it.filter_map(|r| self.operand_ref(line, r)).collect();
                match kw.as_str() {
                    "InList" => Directive::InList(refs, span),
                    "OutList" => Directive::OutList(refs, span),
                    _ => Directive::Order(refs, span),
                }
            }
            Rule::bitwidth_directive => {
                let mut it = d.into_inner();
                let operand = self.offset_ident(line, &it.next()?);
                let e = it.next()?;
                // A width is computed, not compared: a number past i64 would
                // saturate into it.
                for n in e.clone().into_inner().flatten().filter(|p| p.as_rule() == Rule::int) {
                    if parse_int(n.as_str()).is_none_or(|v| v > i64::MAX as u64) {
                        diags.push(Diagnostic::new(Code::ValueTooWide, self.offset_span(line, &n), "number does not fit in 64 bits"));
                        return None;
                    }
                }
                let expr = self.expr(line, e);
                Directive::Bitwidth { operand, expr, span }
            }
            Rule::asm_format_directive => {
                let mut it = d.into_inner();
                let operand = self.offset_ident(line, &it.next()?);
                let function = self.offset_ident(line, &it.next()?);
                let args = it.map(|a| self.offset_ident(line, &a)).collect();
                Directive::AsmFormat { operand, function, args, span }
            }
            _ => Directive::ModiOrder(d.into_inner().map(|a| self.offset_ident(line, &a)).collect(), span),
        })
    }

    fn exception(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<ExceptionRule> {
        let p = self.parse_line(Rule::exception_line, line, Code::MalformedException, "exception rule", diags)?;
        let mut it = p.into_inner();
        let class = self.offset_ident(line, &it.next()?);
        if class.value != "EncodingError" {
            // The one rule class the DSL has; a misspelt one would pass as a new class.
            let near = isa_runtime::spelling::nearest(&class.value, ["EncodingError"].into_iter());
            let hint = near.map_or("a rule is written `EncodingError<Kind, \"message\"> = condition;`".to_string(), |n| format!("did you mean `{n}`?"));
            diags.push(Diagnostic::new(Code::MalformedException, class.span, format!("unknown rule class `{}`", class.value)).with_label(hint));
            return None;
        }
        let kind = self.offset_ident(line, &it.next()?);
        let msg = it.next()?;
        let message = Spanned { value: string_body(&msg), span: self.offset_span(line, &msg) };
        let condition = self.expr(line, it.next()?);
        Some(ExceptionRule { class, kind, message, condition, span: trim_span(line) })
    }

    fn expr(&self, line: &Line<'_>, p: Pair<Rule>) -> Expr {
        let span = self.offset_span(line, &p);
        pratt()
            .map_primary(|prim| self.primary(line, prim))
            .map_prefix(|op, rhs| {
                let s = self.offset_span(line, &op);
                let end = rhs.span.map_or(s.end, |r| r.end);
                Expr::new(ExprKind::Not(Box::new(rhs)), Span { end, ..s })
            })
            .map_infix(move |lhs, op, rhs| {
                let op = match op.as_rule() {
                    Rule::or_op => BinOp::Or,
                    Rule::and_op => BinOp::And,
                    Rule::eq_op => BinOp::Eq,
                    Rule::ne_op => BinOp::Ne,
                    Rule::add_op => BinOp::Add,
                    Rule::sub_op => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                let s = match (lhs.span, rhs.span) {
                    (Some(a), Some(b)) => Span { end: b.end, ..a },
                    _ => span,
                };
                Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), s)
            })
            .parse(p.into_inner())
    }

    fn primary(&self, line: &Line<'_>, p: Pair<Rule>) -> Expr {
        let span = self.offset_span(line, &p);
        match p.as_rule() {
            Rule::paren => match p.into_inner().next() {
                Some(e) => {
                    let mut e = self.expr(line, e);
                    e.span = Some(span);
                    e
                }
                None => Expr::new(ExprKind::Bool(false), span),
            },
            // Numbers too large for i64 saturate; they are compared, never stored.
            Rule::int => Expr::new(ExprKind::Int(parse_int(p.as_str()).map_or(i64::MAX, |v| v as i64)), span),
            Rule::string => Expr::new(ExprKind::Str(string_body(&p)), span),
            Rule::bool_lit => Expr::new(ExprKind::Bool(p.as_str() == "true"), span),
            _ => Expr::new(ExprKind::Field(p.as_str().to_string()), span),
        }
    }

    fn value_list(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<ValueList> {
        let p = self.parse_line(Rule::value_list_line, line, Code::MalformedSyntax, "value list", diags)?;
        let mut missing_dot = true;
        let mut name = None;
        let mut items = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::list_dot => missing_dot = false,
                Rule::ident => name = Some(self.offset_ident(line, &c)),
                Rule::list_item => {
                    let mut item = ValueListItem {
                        name: Spanned { value: String::new(), span: self.offset_span(line, &c) },
                        missing_dot: true,
                        is_default: false,
                    };
                    for ic in c.into_inner() {
                        match ic.as_rule() {
                            Rule::item_dot => item.missing_dot = false,
                            Rule::value_name => item.name = self.offset_ident(line, &ic),
                            Rule::default_mark => item.is_default = true,
                            _ => {}
                        }
                    }
                    items.push(item);
                }
                _ => {}
            }
        }
        Some(ValueList { name: name?, missing_dot, items, span: trim_span(line) })
    }

    fn template(&self, line: &Line<'_>, diags: &mut Diagnostics) -> Option<Template> {
        let p = self.parse_line(Rule::template_line, line, Code::MalformedSyntax, "syntax template", diags)?;
        let mut t = Template {
            mnemonic: Spanned { value: String::new(), span: line.span },
            modifiers: Vec::new(),
            operands: Vec::new(),
            controls: Vec::new(),
            comment: None,
            span: trim_span(line),
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::mnemonic => t.mnemonic = self.offset_ident(line, &c),
                Rule::opt_modifier | Rule::req_modifier => {
                    let optional = c.as_rule() == Rule::opt_modifier;
                    let name = c.into_inner().next()?;
                    t.modifiers.push(TemplateModifier { name: self.offset_ident(line, &name), optional });
                }
                Rule::operand_list => {
                    self.check_commas(line, c.clone(), diags);
                    for item in c.into_inner() {
                        match item.as_rule() {
                            Rule::operand => t.operands.push(self.template_operand(line, item, false, diags)?),
                            Rule::opt_operand => {
                                let op = item.into_inner().find(|i| i.as_rule() == Rule::operand)?;
                                t.operands.push(self.template_operand(line, op, true, diags)?);
                            }
                            _ => {}
                        }
                    }
                }
                Rule::control => {
                    let name = c.into_inner().next()?;
                    t.controls.push(self.offset_ident(line, &name));
                }
                Rule::trailing_comment => {
                    t.comment = Some(c.as_str().trim_start_matches('/').trim().to_string());
                    // The template's span ends before its comment.
                    let cut = c.as_span().start();
                    let lead = line.value.len() - line.value.trim_start().len();
                    let body = line.value[..cut].trim_end().len();
                    t.span = line.span.sub(lead, body.max(lead));
                }
                _ => {}
            }
        }
        Some(t)
    }

    /// W037: operands of a template separated by no comma or by two
    /// (`Ra, {, pp}`, `Ra SrcB`), or a comma before the first or after
    /// the last. Commas count where they stand: alone, or inside an
    /// optional operand's braces (`{, pp}`, `{pu, }`). The assembler reads
    /// such a template as if it were right, so a line written as the
    /// template shows (`Ra, , pp`) is refused.
    fn check_commas(&self, line: &Line<'_>, list: Pair<Rule>, diags: &mut Diagnostics) {
        // Per operand: commas before it (loose ones and its own leading one).
        let mut commas = 0usize;
        let mut last: Option<(String, Span)> = None;
        let mut stray: Option<Span> = None;
        for item in list.into_inner() {
            match item.as_rule() {
                Rule::comma => {
                    commas += 1;
                    stray = Some(self.offset_span(line, &item));
                }
                Rule::operand | Rule::opt_operand => {
                    let parts: Vec<Rule> = item.clone().into_inner().map(|p| p.as_rule()).collect();
                    let inner = parts.iter().position(|r| *r == Rule::operand);
                    let lead = inner.map_or(0, |k| parts[..k].iter().filter(|r| **r == Rule::comma).count());
                    let trail = inner.map_or(0, |k| parts[k + 1..].iter().filter(|r| **r == Rule::comma).count());
                    let name = item.clone().into_inner().find(|p| p.as_rule() == Rule::operand).unwrap_or_else(|| item.clone()).as_str().to_string();
                    let span = self.offset_span(line, &item);
                    let before = commas + lead;
                    let message = match (&last, before) {
                        (None, 0) | (Some(_), 1) => None,
                        (None, _) => Some(format!("a comma before the first operand `{name}`")),
                        (Some((prev, _)), 0) => Some(format!("no comma between `{prev}` and `{name}`")),
                        (Some((prev, _)), _) => Some(format!("two commas between `{prev}` and `{name}`")),
                    };
                    if let Some(m) = message {
                        let (at, reads) = match (&last, before) {
                            (None, _) => (stray.unwrap_or(span), "none"),
                            (Some(_), 0) => (span, "one"),
                            _ => (stray.unwrap_or(span), "one"),
                        };
                        diags.push(
                            Diagnostic::new(Code::TemplateCommas, at, format!("{m}: the assembler reads the template as if it had {reads}"))
                                .with_note("a comma stands between operands, alone or inside the braces of an optional one (`Rd{, pu}`, `{pu, }Rd`)"),
                        );
                    }
                    commas = trail;
                    stray = None;
                    last = Some((name, span));
                }
                _ => {}
            }
        }
        if commas > 0 {
            if let Some((name, span)) = last {
                diags.push(
                    Diagnostic::new(Code::TemplateCommas, stray.unwrap_or(span), format!("a comma after the last operand `{name}`: the assembler reads the template as if it had none"))
                        .with_note("a comma stands between operands, alone or inside the braces of an optional one (`Rd{, pu}`, `{pu, }Rd`)"),
                );
            }
        }
    }

    fn template_operand(&self, line: &Line<'_>, p: Pair<Rule>, optional: bool, diags: &mut Diagnostics) -> Option<TemplateOperand> {
        let span = self.offset_span(line, &p);
        let mut op = TemplateOperand {
            name: Spanned { value: String::new(), span },
            shape: OperandShape::Named,
            optional,
            prefixes: Vec::new(),
            suffixes: Vec::new(),
            span,
        };
        let mut seen_atom = false;
        // Closing bars of an absolute value, after the operand.
        let mut closing: Vec<Span> = Vec::new();
        for c in p.into_inner() {
            let cspan = self.offset_span(line, &c);
            match c.as_rule() {
                Rule::opt_prefix | Rule::req_prefix => {
                    let ch = c.as_str().trim_matches(['{', '}']);
                    let kind = match ch {
                        "-" => Decoration::Neg,
                        "|" => Decoration::Abs,
                        "!" => Decoration::Not,
                        _ => Decoration::Invert,
                    };
                    op.prefixes.push(TemplateDecoration { kind, optional: c.as_rule() == Rule::opt_prefix, span: cspan });
                }
                Rule::operand_name => {
                    op.name = self.offset_ident(line, &c);
                    seen_atom = true;
                }
                Rule::indexed_operand => {
                    let mut it = c.into_inner();
                    let base = self.offset_ident(line, &it.next()?);
                    let index = self.offset_ident(line, &it.next()?);
                    let (offset, offset_optional) = match it.next() {
                        Some(o) => {
                            let optional = o.as_str().starts_with('{');
                            (o.into_inner().next().map(|i| self.offset_ident(line, &i)), optional)
                        }
                        None => (None, false),
                    };
                    op.name = base.clone();
                    op.shape = OperandShape::Indexed { base, index, offset, offset_optional };
                    seen_atom = true;
                }
                Rule::opt_suffix | Rule::req_suffix => {
                    let optional = c.as_rule() == Rule::opt_suffix;
                    let name = c.into_inner().next()?.as_str().to_string();
                    op.suffixes.push(TemplateDecoration { kind: Decoration::Suffix(name), optional, span: cspan });
                }
                Rule::opt_bar | Rule::req_bar
                    // Closing `|` of an absolute value: recorded by the opening one.
                    if !seen_atom => {
                        return None;
                    }
                Rule::opt_bar | Rule::req_bar => closing.push(cspan),
                _ => {}
            }
        }
        // Every `|` before the operand needs one after it, and the other way round.
        let opening: Vec<Span> = op.prefixes.iter().filter(|d| d.kind == Decoration::Abs).map(|d| d.span).collect();
        if opening.len() != closing.len() {
            let (at, what) = if opening.len() > closing.len() {
                (opening[closing.len()], "this `|` opens an absolute value that no `|` after the operand closes")
            } else {
                (closing[opening.len()], "this `|` closes an absolute value that no `|` before the operand opens")
            };
            diags.push(Diagnostic::new(Code::MalformedSyntax, at, "malformed syntax template: unbalanced `|`").with_label(what));
        }
        Some(op)
    }

    fn simulation(&self, line: &Line<'_>, p: Pair<Rule>) -> SimulationCall {
        let span = trim_span(line);
        let mut results = Vec::new();
        let mut function = None;
        let mut args = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::sim_target => results.push(self.offset_ident(line, &c)),
                Rule::ident => function = Some(self.offset_ident(line, &c)),
                Rule::sim_arg => {
                    let mut it = c.into_inner();
                    let Some(name) = it.next().map(|n| self.offset_ident(line, &n)) else { continue };
                    let domain = it.next().map(|d| self.offset_ident(line, &d));
                    args.push(SimulationArg { name, domain });
                }
                _ => {}
            }
        }
        let function = function.unwrap_or(Spanned { value: String::new(), span });
        SimulationCall { results, function, args, span }
    }
}

fn string_body(p: &Pair<Rule>) -> String {
    p.clone().into_inner().next().map(|b| b.as_str().to_string()).unwrap_or_default()
}

/// Whether a line of an `__OperandInfo` or `__Exception` section (outside
/// code fences) is read as a directive or exception rule rather than prose:
/// the reference manual shows those rules in tables, not as text.
pub fn is_rule_line(s: &str) -> bool {
    looks_like_directive(s)
}

/// Whether a line starts like a directive or exception rule: exactly the
/// pattern `[ \t]* ident [ \t]* "<"`, checked by hand because it runs on
/// every prose line of those sections, which so never pay for a failed parse.
fn looks_like_directive(s: &str) -> bool {
    let t = s.trim_start_matches([' ', '\t']);
    let starts_ident = t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    let n = t.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    starts_ident && t[n..].trim_start_matches([' ', '\t']).starts_with('<')
}

/// A line of an `__OperandInfo` section that is a list directive without
/// its `<..>` (`InList pg, ra;`): the name, then names separated by commas
/// (single words), then `;`. Gives the name and the offset where the `<`
/// should be. A sentence (`InList and OutList are ...;`) is no such list.
fn bare_directive(s: &str) -> Option<(&'static str, usize)> {
    let code = before_comment(s).trim_end();
    let list = code.strip_suffix(';')?;
    if looks_like_directive(s) {
        return None;
    }
    let lead = s.len() - s.trim_start_matches([' ', '\t']).len();
    let n = s[lead..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let word = ["InList", "OutList", "Order", "ModiOrder"].into_iter().find(|d| *d == &s[lead..lead + n])?;
    let names = list[lead + n..].trim();
    let name = |p: &str| p.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_') && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    if names.is_empty() || !names.split(',').map(str::trim).all(name) {
        return None;
    }
    let at = lead + n + (s[lead + n..].len() - s[lead + n..].trim_start_matches([' ', '\t']).len());
    Some((word, at))
}

/// A line of an `__OperandInfo` section that would be a directive with its
/// full-width characters read as ASCII, but is not one as written (the
/// `＜` of `InList＜pg, ra＞;`): where the first of them is, it, and its ASCII.
fn directive_in_full_width(s: &str) -> Option<(usize, char, char)> {
    let code = before_comment(s);
    if code.is_ascii() || looks_like_directive(s) {
        return None;
    }
    let ascii = isa_runtime::spelling::as_ascii(code);
    if !ascii.is_ascii() || !looks_like_directive(&ascii) {
        return None;
    }
    code.char_indices().find_map(|(i, c)| isa_runtime::spelling::ascii_of_full_width(c).map(|a| (i, c, a)))
}

/// A line of an `__OperandInfo` section that starts like a directive but
/// holds other text than ASCII and full-width punctuation before any `//`
/// (`Bitwidth<rd>为32，即Rd是单个32bit寄存器。`): prose, as directives name
/// fields, which are ASCII.
fn is_prose_after_directive(s: &str) -> bool {
    let code = before_comment(s);
    !code.chars().all(|c| c.is_ascii() || isa_runtime::spelling::ascii_of_full_width(c).is_some())
}

/// W040 for the first bracket of a block of `__Semantics` pseudo-code that
/// closes nothing, closes another kind, or is never closed: the pseudo-code
/// is not parsed, but a lost `}` is worth a word. Skipped: strings
/// (`"..."`), character literals (`'x'`, `'\n'`; an apostrophe otherwise is
/// text: `don't`, `t'`), `//` and `/* .. */` comments and `#` lines. Not
/// counted: an interval (`[0, 1)`, `(a, b]`) and a case label opening a line
/// (`a)`, `2)`).
fn unbalanced_bracket(block: &[&Line<'_>]) -> Option<Diagnostic> {
    let mut open: Vec<(char, Span)> = Vec::new();
    let mut in_comment = false;
    for line in block {
        if line.value.trim_start().starts_with('#') {
            continue;
        }
        let chars: Vec<(usize, char)> = line.value.char_indices().collect();
        let mut k = 0;
        while k < chars.len() {
            let (i, c) = chars[k];
            k += 1;
            let here = k;
            let next = |d: usize| chars.get(here + d).map(|&(_, c)| c);
            if in_comment {
                if c == '*' && next(0) == Some('/') {
                    in_comment = false;
                    k += 1;
                }
                continue;
            }
            let at = line.span.sub(i, i + c.len_utf8());
            match c {
                '/' if next(0) == Some('/') => break,
                '/' if next(0) == Some('*') => {
                    in_comment = true;
                    k += 1;
                }
                '"' => {
                    // To the closing quote, or the end of the line.
                    while k < chars.len() && chars[k].1 != '"' {
                        k += if chars[k].1 == '\\' { 2 } else { 1 };
                    }
                    k += 1;
                }
                '\'' if next(1) == Some('\'') && next(0) != Some('\\') => k += 2,
                '\'' if next(0) == Some('\\') && next(2) == Some('\'') => k += 3,
                '(' | '[' | '{' => open.push((c, at)),
                ')' | ']' | '}' => {
                    let want = match c {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    match open.pop() {
                        Some((o, _)) if o == want => {}
                        // An interval: `[0, 1)`, `(-inf, +inf]`.
                        Some((o, _)) if matches!((o, c), ('[', ')') | ('(', ']')) => {}
                        Some((o, span)) => {
                            return Some(
                                Diagnostic::new(Code::UnbalancedBracket, at, format!("`{c}` closes the `{o}` opened before it"))
                                    .with_label(format!("expected the `{}` of this `{o}` first", closing(o)))
                                    .with_secondary(span, format!("`{o}` opened here")),
                            )
                        }
                        // A case label: `a)` or `2)` opening a line.
                        None if c == ')' && {
                            let before = line.value[..i].trim_start();
                            !before.is_empty() && before.len() <= 2 && before.bytes().all(|b| b.is_ascii_alphanumeric())
                        } => {}
                        None => return Some(Diagnostic::new(Code::UnbalancedBracket, at, format!("`{c}` closes nothing")).with_label("no bracket is open here in this code block")),
                    }
                }
                _ => {}
            }
        }
    }
    let (o, span) = open.pop()?;
    Some(Diagnostic::new(Code::UnbalancedBracket, span, format!("`{o}` is never closed")).with_label(format!("no `{}` for it in this code block", closing(o))))
}

fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// Whether a line of an `__Exception` section that is no rule is a
/// condition: the whole line (but a `//` comment) parses as one, optionally
/// after `and`/`or`/`&&`/`||` and with a `;` at its end, and opens with one
/// of those or compares (`==`, `!=`). Full-width brackets and the like are read as ASCII here,
/// as an input method types them. Prose in any language does not parse.
fn looks_like_condition(s: &str) -> bool {
    let ascii = isa_runtime::spelling::as_ascii(s);
    let code = before_comment(&ascii).trim_start();
    // A rule's second half (`and (ftz or sat);`) may test bare fields; a
    // line of its own must compare, or any word would be a condition.
    let word = code.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    let continues = ["and", "or"].contains(&word) || code.starts_with("&&") || code.starts_with("||");
    if !(continues || code.contains("==") || code.contains("!=")) || max_nesting(&ascii) > MAX_NESTING || operator_count(&ascii) > MAX_OPERATORS {
        return false;
    }
    DslParser::parse(Rule::condition_line, &ascii).is_ok()
}

/// Whether a line outside a code block is assembly of instruction `name`
/// (an example or a template of the optype whose section it is in): a
/// mnemonic whose first part is `name` (after a guard `@P0`), then operands
/// that are single words separated by commas, then controls (`$sched`,
/// `&req=1`) and a `;`; with neither a `;` nor a control, two operands at
/// least. A sentence that starts with the mnemonic has no such operands.
fn looks_like_assembly(s: &str, name: &str) -> bool {
    let code = before_comment(s).trim();
    let code = match code.strip_prefix('@') {
        Some(rest) => rest.split_once([' ', '\t']).map_or("", |(_, r)| r.trim_start()),
        None => code,
    };
    let (mnemonic, rest) = code.split_once([' ', '\t']).unwrap_or((code.trim_end_matches(';'), ""));
    let head = mnemonic.split(['.', '{']).next().unwrap_or("");
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'{' || b == b'}';
    if head != name || !mnemonic.bytes().all(word) {
        return false;
    }
    let ended = code.ends_with(';');
    let controls = rest.find(['$', '&']);
    let operands = rest[..controls.unwrap_or(rest.len())].trim().trim_end_matches(';').trim_end();
    if operands.is_empty() {
        return ended || controls.is_some();
    }
    let parts: Vec<&str> = operands.split(',').map(str::trim).collect();
    parts.iter().all(|p| !p.is_empty() && !p.contains(char::is_whitespace)) && (ended || controls.is_some() || parts.len() >= 2)
}

fn looks_like_value_list(s: &str) -> bool {
    let t = s.trim_start().trim_start_matches('.');
    let name_len = t.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    name_len > 0 && t[name_len..].trim_start().starts_with('=')
}

/// Parses `123`, `0x1F`, `0b101`.
pub fn parse_int(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// A line of a body: its text (without the line break) and span.
type Line<'i> = Spanned<&'i str>;

/// Splits a body into lines exactly as the grammar's `raw_line` does: a line
/// ends at `\r\n`, `\n` or `\r`; a last line without a break is kept only
/// when non-empty. Yields each line's byte offset in `text` and its text.
/// The assembler reads lines the same way, so this is its function.
fn split_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    isa_runtime::text::lex::lines(text)
}

fn section_text(file: FileId, header: Span, lines: &[Line<'_>]) -> Spanned<String> {
    let mut end = lines.len();
    while end > 0 && lines[end - 1].value.trim().is_empty() {
        end -= 1;
    }
    let mut text = String::with_capacity(lines[..end].iter().map(|l| l.value.len() + 1).sum());
    for l in &lines[..end] {
        text.push_str(l.value);
        text.push('\n');
    }
    let span = match (lines.first(), end) {
        (Some(first), e) if e > 0 => Span { file, start: first.span.start, end: lines[e - 1].span.end },
        _ => Span { file, start: header.end, end: header.end },
    };
    Spanned { value: text, span }
}


#[cfg(test)]
mod memo_tests {
    use super::*;

    /// A repeated line is parsed once, and the copy gets its own spans.
    #[test]
    fn repeated_lines_get_their_own_spans() {
        let text = "__DefOpcode A : [X]\n__Encoding\n    field<0, 8> Reg ra = RZ;\n    field<0, 8> Reg ra = RZ;\n";
        let mut diags = Diagnostics::default();
        let f = parse_file(FileId(0), text, &mut diags);
        let fields = &f.decls[0].sections[0].fields;
        assert_eq!(fields.len(), 2);
        let (a, b) = (&fields[0], &fields[1]);
        let line = "    field<0, 8> Reg ra = RZ;\n".len() as u32;
        assert_eq!(b.span.start, a.span.start + line);
        assert_eq!(b.name.span.start, a.name.span.start + line);
        assert_eq!(&text[b.ty.span.start as usize..b.ty.span.end as usize], "Reg");
        assert_eq!(&text[b.init.as_ref().unwrap().value.span.start as usize..b.init.as_ref().unwrap().value.span.end as usize], "RZ");
    }
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    /// A line first parsed in one file and reused in another gets the other
    /// file's spans.
    #[test]
    fn a_cached_line_moves_to_the_file_that_reuses_it() {
        let a = "__DefOpcode A : [X]\n__Encoding\n    field<0, 8> Reg ra = RZ;\n";
        let b = "// b\n__DefOpcode B : [X]\n__Encoding\n    field<0, 8> Reg ra = RZ;\n";
        let cache = LineCache::default();
        let mut diags = Diagnostics::default();
        parse_piece(FileId(0), a, 0..a.len(), &cache, &mut diags);
        let fb = parse_piece(FileId(1), b, 0..b.len(), &cache, &mut diags);
        let fresh = parse_file(FileId(1), b, &mut diags);
        assert!(diags.is_empty());
        let (reused, fresh) = (&fb.decls[0].sections[0].fields[0], &fresh.decls[0].sections[0].fields[0]);
        assert_eq!(format!("{reused:?}"), format!("{fresh:?}"));
        assert_eq!(reused.ty.span.file, FileId(1));
    }
}

#[cfg(test)]
mod line_shape_tests {
    use super::*;

    #[test]
    fn conditions_outside_rules_are_told_from_prose() {
        for line in [
            "    and (ftz == \"FTZ\");",
            "(a == \"B\") or (c == \"D\");",
            "  || x != 1",
            "not (a == 1)",
            "        and (ftz==\"FTZ\" or sat==\"SAT\");  // 接上一行",
            "    and （ftz==\"FTZ\" or sat==\"SAT\"）;",
            "rd == \"RZ\";",
        ] {
            assert!(looks_like_condition(line), "{line}");
        }
        // Review 47's prose, which must stay prose.
        for line in [
            "",
            "// (a == b)",
            "Still to come: more rules.",
            "规则：a == b 时非法",
            "Note: this rule also applies when rd == RZ.",
            "(1) BF16_V2 does not support .FTZ or .SAT.",
            "not supported when .BF16_V2 is combined with .FTZ or .SAT.",
            "and .SAT cannot be combined with it (see the rule above).",
            "or .SAT; the assembler refuses such lines.",
            "A rule holds when its condition is true, e.g. hfmt_v2 == \"BF16_V2\".",
            "- rd != ra is not required here.",
            "| hfmt_v2==\"BF16_V2\" and ftz==\"FTZ\" | illegal |",
            "(see FADD for the NaN rules)",
            "![rule diagram](bf16_rules.png)",
            "and-ing the two conditions gives the rule above.",
            "`ftz == \"FTZ\"` is only legal for the F16_V2 format.",
            "> Note: rd == RZ discards the result.",
            "!IMPORTANT: keep this rule in sync with the RTL.",
            "1. BF16_V2 != F16_V2: the two formats differ in rounding.",
            "(no rule for HADD2_RR)",
            "See the FADD rule: (ftz==\"FTZ\") needs F16_V2.",
            "not decoded by the hardware.",
        ] {
            assert!(!looks_like_condition(line), "{line}");
        }
    }

    #[test]
    fn assembly_outside_code_blocks_is_told_from_prose() {
        for (line, name) in [
            ("IMUL R0, R1, R2;", "IMUL"),
            ("IMUL R0, R1, R2", "IMUL"),
            ("@!P0 IADD.X R1, R2, R3 ;  // 注释", "IADD"),
            ("LEA.HI.X.SX32 Rd, Ra      $sched $req ;", "LEA"),
            ("HADD2{.FTZ} Rd, {-}{|}Ra{|}{, pu} $sched $req", "HADD2"),
            ("IMUL.HI.U32 R0, R1, 0x114514;   // 高32位", "IMUL"),
            ("NOP;", "NOP"),
            ("IADD R1, R2, R3 &req=0x1;", "IADD"),
        ] {
            assert!(looks_like_assembly(line, name), "{line}");
        }
        // Review 47's prose, which must stay prose.
        for line in [
            "例如：IMUL R0, R1;",
            "The IMUL instruction multiplies;",
            "IMUL computes the low half.",
            "IMUL with .HI returns the high half;",
            "IMUL has one form;",
            "IMUL.WIDE is not supported, use IMAD.WIDE;",
            "FTZ mode flushes denormals;",
            "R0 = R1 * R2;",
            "ALU latency: 4 cycles;",
            "MUFU and IMUL share the multiplier; expect $req stalls.",
            "IMUL R0",
            "A;",
            ".rnd = {.RN*, .RZ};",
            "// IMUL R0, R1;",
        ] {
            assert!(!looks_like_assembly(line, "IMUL"), "{line}");
        }
        assert!(!looks_like_assembly("IADD R1, R2, R3;", "IMUL"), "another instruction's");
    }

    #[test]
    fn a_directive_without_its_angle_brackets_is_found() {
        assert_eq!(bare_directive("    InList pg, ra;"), Some(("InList", 11)));
        assert_eq!(bare_directive("Order  rd, ra; // x"), Some(("Order", 7)));
        assert_eq!(bare_directive("    InList<pg, ra>;"), None);
        assert_eq!(bare_directive("Order of the operands is fixed."), None);
        assert_eq!(bare_directive("Ordering rd, ra;"), None);
        // Review 47's prose, which must stay prose.
        for line in [
            "InList and OutList are derived from the simulation hook;",
            "Order of the operands follows the template;",
            "Bitwidth of Rd is 32 bits;",
            "AsmFormat is not needed for this instruction;",
            "ModiOrder does not apply (no shared spellings);",
            "Order: see the optype;",
        ] {
            assert_eq!(bare_directive(line), None, "{line}");
        }
    }

    #[test]
    fn a_broken_field_line_still_names_its_field() {
        for (line, name) in [
            ("    field<32, 8> Reg rb", "rb"),
            ("    field<16,  8> Reg rd；", "rd"),
            ("    field<16,  8 Reg rd;", "rd"),
            ("    feild<16, 8> Reg rd = R0;", "rd"),
            ("    field<16, 8> Reg rd２;", "rd2"),
            ("    field<97, 1> SignModi rb.neg = False", "rb.neg"),
        ] {
            assert_eq!(field_name_guess(line).first().map(String::as_str), Some(name), "{line}");
        }
        assert_eq!(field_name_guess("    field<16, 8> Reg rd２;"), ["rd2", "rd"]);
        assert!(field_name_guess("    something else;").is_empty());
        assert!(field_name_guess("    field<16, 8> Reg 8;").is_empty());
    }

    #[test]
    fn a_misspelt_declaration_keyword_gets_the_nearest() {
        assert_eq!(misspelt_keyword("__DefOpcod X : [Y]"), Some(("__DefOpcod", "__DefOpcode")));
        assert_eq!(misspelt_keyword("__DefGrup G : [ALL]"), Some(("__DefGrup", "__DefGroup")));
        assert_eq!(misspelt_keyword("__DefThing Z"), None);
        assert_eq!(misspelt_keyword("__DefOpcode X : [Y]"), None);
    }
}

#[cfg(test)]
mod split_tests {
    use super::*;
    use proptest::prelude::*;

    /// The lines the grammar's own `raw_line` rule finds, one after another.
    fn grammar_lines(text: &str) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let Ok(mut p) = DslParser::parse(Rule::raw_line, &text[at..]) else { break };
            let line = p.next().expect("raw_line pair");
            let body = line.clone().into_inner().next().map_or("", |t| t.as_str());
            out.push((at, body));
            at += line.as_str().len();
        }
        out
    }

    /// The structure the grammar's `file` rule finds, one entry per line:
    /// what the line is (`stray`, `decl`, `body`, `section <keyword at>`),
    /// its offset and its text.
    fn grammar_structure(text: &str) -> Vec<String> {
        fn line(p: Pair<'_, Rule>) -> (usize, &str) {
            let raw = p.into_inner().find(|c| c.as_rule() == Rule::raw_line).expect("a raw_line");
            let at = raw.as_span().start();
            (at, raw.into_inner().next().map_or("", |t| t.as_str()))
        }
        fn walk(p: Pair<'_, Rule>, out: &mut Vec<String>) {
            match p.as_rule() {
                Rule::top_line | Rule::body_line => {
                    let what = if p.as_rule() == Rule::top_line { "stray" } else { "body" };
                    let (at, t) = line(p);
                    out.push(format!("{what} {at} {t:?}"));
                }
                Rule::decl => {
                    let (at, t) = line(p.clone());
                    out.push(format!("decl {at} {t:?}"));
                    p.into_inner().filter(|c| c.as_rule() != Rule::raw_line).for_each(|c| walk(c, out));
                }
                Rule::section => {
                    let header = p.clone().into_inner().next().expect("a section_header");
                    let kw = header.clone().into_inner().find(|c| matches!(c.as_rule(), Rule::section_kw | Rule::unknown_section_kw));
                    let kw = kw.map(|k| format!("{}@{}", k.as_str(), k.as_span().start())).unwrap_or_default();
                    let (at, t) = (header.as_span().start(), header.as_str().trim_end_matches(['\n', '\r']));
                    out.push(format!("section {kw} {at} {t:?}"));
                    p.into_inner().filter(|c| c.as_rule() == Rule::body_line).for_each(|c| walk(c, out));
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        let file = DslParser::parse(Rule::file, text).expect("`file` accepts any text").next().expect("file pair");
        file.into_inner().for_each(|p| walk(p, &mut out));
        out
    }

    /// The same, from [`split_file`].
    fn split_structure(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let line = |l: &Line<'_>| format!("{} {:?}", l.span.start, l.value);
        for item in split_file(FileId(0), text, 0..text.len(), &LineCache::default()) {
            match item {
                Item::Stray(l) => out.push(format!("stray {}", line(&l))),
                Item::Decl(d) => {
                    out.push(format!("decl {}", line(&d.header)));
                    out.extend(d.body.iter().map(|l| format!("body {}", line(l))));
                    for s in d.sections {
                        // The header line: from its start to the line break.
                        let start = text[..s.keyword.span.start as usize].rfind(['\n', '\r']).map_or(0, |i| i + 1);
                        let end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
                        out.push(format!(
                            "section {}@{} {start} {:?}",
                            s.keyword.value, s.keyword.span.start, &text[start..end]
                        ));
                        out.extend(s.body.iter().map(|l| format!("body {}", line(l))));
                    }
                }
            }
        }
        out
    }

    /// Every spec file, parsed in pieces of several sizes, gives the same
    /// declarations and the same diagnostics as parsed whole.
    #[test]
    fn pieces_parse_like_the_whole_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut diags = Diagnostics::default();
        for f in crate::collect_spec_files(&[root], &mut diags) {
            let text = std::fs::read_to_string(&f).expect("spec files are UTF-8");
            let mut whole_diags = Diagnostics::default();
            let whole = format!("{:?}", parse_file(FileId(0), &text, &mut whole_diags).decls);
            whole_diags.sort();
            for size in [1, 100, 4096, 30_000] {
                let ranges = pieces(&text, size);
                assert_eq!(ranges.first().map(|r| r.start), Some(0));
                assert_eq!(ranges.last().map(|r| r.end), Some(text.len()));
                if size == 1 && text.contains("\n__Def") {
                    assert!(ranges.len() > 1, "{}: not cut", f.display());
                }
                let mut d = Diagnostics::default();
                let decls: Vec<Decl> = ranges.into_iter().flat_map(|r| parse_piece(FileId(0), &text, r, &LineCache::default(), &mut d).decls).collect();
                d.sort();
                assert_eq!(format!("{decls:?}"), whole, "{} in pieces of {size}", f.display());
                assert_eq!(format!("{:?}", d.items), format!("{:?}", whole_diags.items), "{}", f.display());
            }
        }
    }

    /// `split_file` finds the structure of every spec file in `spec/` as the
    /// `file` rule does.
    #[test]
    fn split_file_matches_file_rule_on_the_spec() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut diags = Diagnostics::default();
        let files = crate::collect_spec_files(&[root], &mut diags);
        assert!(files.len() >= 5, "spec files: {files:?}");
        for f in files {
            let text = std::fs::read_to_string(&f).expect("spec files are UTF-8");
            assert_eq!(split_structure(&text), grammar_structure(&text), "{}", f.display());
        }
    }

    proptest! {
        /// `split_lines` breaks bodies where `raw_line` does, for every mix of
        /// `\n`, `\r\n` and lone `\r`, with and without a final break.
        #[test]
        fn split_lines_matches_raw_line(text in "[a \r\n]{0,40}") {
            prop_assert_eq!(split_lines(&text).collect::<Vec<_>>(), grammar_lines(&text));
        }

        /// `split_file` agrees with the `file` rule on text made of the
        /// pieces that decide structure: keywords (also misspelt), blanks,
        /// tabs, comments and every kind of line break.
        #[test]
        fn split_file_matches_file_rule(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "__DefOpcode A : [B]", "__Def", "__Defx", "__DefGroup G : []", "__Encoding", "__Encoding // c",
                "__Encoding x", "__Encodin", "__Example", "__Encoding_", "__9", "__Syntax", "__Exception", "__Semantics//", "__", "_", "x", "field",
                " ", "\t", "//", "/", "\n", "\r\n", "\r", "\u{3000}", "é",
            ]), 0..40)
        ) {
            let text: String = pieces.concat();
            prop_assert_eq!(split_structure(&text), grammar_structure(&text));
        }
    }
}
