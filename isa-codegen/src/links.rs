//! Links in the spec's prose: `[[FADD]]` references to instructions and
//! Markdown links. References to instructions the spec has resolve; links to
//! documents (`浮点数NAN处理规则.md`) and unknown instructions do not: `check`
//! reports them (W010) and the manual renders them visibly unresolved.

use isa_dsl::ir::{Isa, Prose};
use isa_dsl::{Code, Diagnostic, Span};
use pulldown_cmark::{Event, Parser, Tag};
use std::ops::Range;

/// A link found in a block of prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProseLink {
    /// Byte range of the whole link in the prose text.
    pub range: Range<usize>,
    /// The visible text.
    pub text: String,
    /// What the link points at.
    pub target: LinkTarget,
}

/// What a prose link points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// An instruction (optype) of this spec.
    Instruction(String),
    /// A web address or an in-page anchor: kept as it is.
    External(String),
    /// Something the spec does not contain.
    Unresolved(String),
}

/// Every `[[NAME]]` and Markdown link in `text`, in order.
pub fn scan(isa: &Isa, text: &str) -> Vec<ProseLink> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("[[") {
        let start = from + i;
        let Some(j) = text[start + 2..].find("]]") else { break };
        let name = &text[start + 2..start + 2 + j];
        if !name.is_empty() && !name.contains(['\n', '[', ']']) {
            let target = if isa.optypes.iter().any(|o| o.name == name) {
                LinkTarget::Instruction(name.to_string())
            } else {
                LinkTarget::Unresolved(format!("[[{name}]]"))
            };
            out.push(ProseLink { range: start..start + 4 + j, text: name.to_string(), target });
        }
        from = start + 2 + j + 2;
    }
    let mut open: Option<(usize, String, String)> = None;
    for (ev, range) in Parser::new(text).into_offset_iter() {
        match ev {
            // An image is a link to its file (`![plot](x.png)`): the spec holds no such file either.
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => open = Some((range.start, dest_url.to_string(), String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some(o) = &mut open {
                    o.2.push_str(&t);
                }
            }
            Event::End(pulldown_cmark::TagEnd::Link | pulldown_cmark::TagEnd::Image) => {
                if let Some((start, dest, label)) = open.take() {
                    let target = if dest.starts_with("http://") || dest.starts_with("https://") || dest.starts_with('#') {
                        LinkTarget::External(dest)
                    } else {
                        LinkTarget::Unresolved(dest)
                    };
                    out.push(ProseLink { range: start..range.end, text: label, target });
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|l| l.range.start);
    out
}

/// W010 for every unresolved link in every optype's prose.
pub fn check(isa: &Isa, sources: &isa_dsl::SourceMap) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ot in &isa.optypes {
        let d = &ot.docs;
        for prose in [&d.description, &d.operand_info, &d.modifier_info, &d.semantics, &d.exception].into_iter().flatten() {
            out.extend(check_prose(isa, sources, prose));
        }
    }
    out
}

/// The file offset of offset `k` of `prose`, which is the file's text from
/// `start` with each line ending read as `\n` (a CRLF file has one byte more per line).
fn file_offset(file: &str, start: usize, prose: &str, k: usize) -> usize {
    let (fb, pb) = (file.as_bytes(), prose.as_bytes());
    let (mut i, mut j) = (start, 0);
    while j < k && i < fb.len() {
        // The `\r` of a CRLF is the one byte the prose does not have (a lone
        // `\r` is a line end of its own, read as the prose's `\n`).
        if !(fb[i] == b'\r' && fb.get(i + 1) == Some(&b'\n') && pb.get(j) == Some(&b'\n')) {
            j += 1;
        }
        i += 1;
    }
    i
}

fn check_prose(isa: &Isa, sources: &isa_dsl::SourceMap, prose: &Prose) -> Vec<Diagnostic> {
    let Some(span) = prose.loc.span else { return Vec::new() };
    let file = if (span.file.0 as usize) < sources.len() { sources.get(span.file).text.as_str() } else { "" };
    scan(isa, &prose.text)
        .into_iter()
        .filter_map(|l| match l.target {
            LinkTarget::Unresolved(dest) => {
                let at = |k: usize| file_offset(file, span.start as usize, &prose.text, k);
                let at = Span::new(span.file, at(l.range.start), at(l.range.end));
                let what = if dest.starts_with("[[") { "instruction" } else { "document" };
                Some(
                    Diagnostic::new(Code::UnresolvedLink, at, format!("link to `{dest}`: the spec contains no such {what}"))
                        .with_label("rendered as unresolved in the manual"),
                )
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use isa_dsl::{Code, Diagnostics, SourceMap};

    /// W010 locations (file:line:col and the linked text) of `spec/` with
    /// the seed `000_halu.txt` given line endings `eol`.
    fn w010(eol: &str) -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut diags = Diagnostics::default();
        let mut sources = SourceMap::new();
        for path in isa_dsl::collect_spec_files(&[root], &mut diags) {
            let mut text = std::fs::read_to_string(&path).unwrap();
            if path.ends_with("000_halu.txt") {
                text = text.replace('\n', eol);
            }
            isa_dsl::add_source(&mut sources, &path.file_name().unwrap().to_string_lossy(), text.as_bytes(), &mut diags);
        }
        let fe = isa_dsl::compile(sources, diags);
        super::check(&fe.isa, &fe.sources)
            .into_iter()
            .filter(|d| d.code == Code::UnresolvedLink)
            .filter_map(|d| d.span)
            .map(|s| (fe.sources.location(s), fe.sources.text(s).to_string()))
            .collect()
    }

    #[test]
    fn link_locations_do_not_drift_on_crlf_files() {
        let (lf, crlf, cr) = (w010("\n"), w010("\r\n"), w010("\r"));
        assert!(lf.iter().any(|(at, _)| at.starts_with("000_halu.txt:")), "the seed has unresolved links");
        assert_eq!(lf, crlf);
        assert_eq!(lf, cr, "a lone CR ends a line of its own");
        // Each span covers the link as written.
        assert!(lf.iter().all(|(_, text)| text.starts_with('[') && text.ends_with(')')), "{lf:?}");
    }
}
