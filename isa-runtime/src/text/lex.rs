//! Lexing one line of assembly: label, guard, mnemonic with its dotted
//! parts, and the operand texts with their decorations
//! (`-|R4.H0_H0|`, `!P1`, `~R5`, `c[0x3][0x18]`, `R[UR2+0x1]`, `R[4:5]`).
//! Purely textual: what the texts mean is decided against the templates.
//! Tokens borrow from the line and lists are inline: lexing never allocates
//! (except to word an error).

/// A token with its byte column (0-based) in the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tok<'a> {
    pub text: &'a str,
    pub col: usize,
}

/// A list of at most `N` items stored inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct List<T, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> Default for List<T, N> {
    fn default() -> Self {
        List { items: [T::default(); N], len: 0 }
    }
}

impl<T: Copy + Default, const N: usize> List<T, N> {
    /// Appends; `false` when full.
    fn push(&mut self, t: T) -> bool {
        if self.len == N {
            return false;
        }
        self.items[self.len] = t;
        self.len += 1;
        true
    }
}

impl<T, const N: usize> std::ops::Deref for List<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<'l, T, const N: usize> IntoIterator for &'l List<T, N> {
    type Item = &'l T;
    type IntoIter = std::slice::Iter<'l, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items[..self.len].iter()
    }
}

/// Most dotted modifiers a mnemonic may carry.
pub const MAX_PARTS: usize = 12;
/// Most operand texts a line may have.
pub const MAX_OPERANDS: usize = 16;
/// Most `&name=value` controls a line may have.
pub const MAX_CONTROLS: usize = 8;

/// A lexed line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Line<'a> {
    pub label: Option<Tok<'a>>,
    /// `@P0` / `@!P0`: (negated, register text).
    pub guard: Option<(bool, Tok<'a>)>,
    /// Base mnemonic (`IMAD`).
    pub mnemonic: Option<Tok<'a>>,
    /// Dotted parts after it (`WIDE`, `U32`), in order.
    pub parts: List<Tok<'a>, MAX_PARTS>,
    /// Operand texts, split at top-level commas.
    pub operands: List<Tok<'a>, MAX_OPERANDS>,
    /// `&name=value` control settings.
    pub controls: List<(Tok<'a>, Tok<'a>), MAX_CONTROLS>,
}

/// Lexes a line. Errors carry a byte column and a reason.
pub fn lex(line: &str) -> Result<Line<'_>, (usize, String)> {
    // Strip the comment, then a trailing `;`.
    let code = match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    };
    let mut end = code.trim_end().len();
    if code[..end].ends_with(';') {
        end -= 1;
    }
    let code = &code[..end];
    let mut out = Line::default();
    let mut pos = skip_ws(code, 0);
    // Label: `name:` at the start.
    let word_end = pos + code[pos..].find(|c: char| c.is_whitespace()).unwrap_or(code.len() - pos);
    if code[pos..word_end].ends_with(':') && word_end - pos > 1 {
        out.label = Some(Tok { text: &code[pos..word_end - 1], col: pos });
        pos = skip_ws(code, word_end);
    }
    if pos >= code.len() {
        return Ok(out);
    }
    if code[pos..].starts_with('@') {
        let neg = code[pos + 1..].starts_with('!');
        let start = pos + 1 + neg as usize;
        let e = start + code[start..].find(|c: char| c.is_whitespace()).unwrap_or(code.len() - start);
        if e == start {
            return Err((pos, "expected a predicate after `@`".into()));
        }
        out.guard = Some((neg, Tok { text: &code[start..e], col: start }));
        pos = skip_ws(code, e);
    }
    if pos >= code.len() {
        return Err((pos, "expected an instruction after the guard".into()));
    }
    let e = pos + code[pos..].find(|c: char| c.is_whitespace()).unwrap_or(code.len() - pos);
    let mut col = pos;
    // A directive (`.word`) is one token.
    let directive = code[pos..].starts_with('.');
    if directive {
        out.mnemonic = Some(Tok { text: &code[pos..e], col: pos });
    }
    for (k, part) in code[pos..e].split('.').enumerate().filter(|_| !directive) {
        if part.is_empty() {
            return Err((col, "empty modifier (`..` or a trailing `.`)".into()));
        }
        let tok = Tok { text: part, col };
        if k == 0 {
            out.mnemonic = Some(tok);
        } else if !out.parts.push(tok) {
            return Err((col, format!("more than {MAX_PARTS} modifiers")));
        }
        col += part.len() + 1;
    }
    pos = skip_ws(code, e);
    // Operands: split at commas outside brackets and bars; `&x=y` controls at the end.
    let rest = &code[pos..];
    let mut depth = 0i32;
    let mut start = 0usize;
    let mut pieces: List<(usize, &str), { MAX_OPERANDS + 1 }> = List::default();
    for (i, c) in rest.bytes().enumerate() {
        match c {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b',' if depth == 0 => {
                if !pieces.push((start, &rest[start..i])) {
                    return Err((pos + start, format!("more than {MAX_OPERANDS} operands")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err((pos + start, "unbalanced brackets".into()));
    }
    if (!rest[start..].trim().is_empty() || !pieces.is_empty()) && !pieces.push((start, &rest[start..])) {
        return Err((pos + start, format!("more than {MAX_OPERANDS} operands")));
    }
    let n = pieces.len();
    for (k, &(off, piece)) in pieces.iter().enumerate() {
        let lead = piece.len() - piece.trim_start().len();
        let col = pos + off + lead;
        let mut text = piece.trim();
        if text.is_empty() {
            return Err((col, if k + 1 == n { "empty operand after the last comma".into() } else { "empty operand".into() }));
        }
        // Controls come last, separated by spaces from the last operand.
        if k + 1 == n && text.contains('&') {
            // Peel `&name=value` words off the end, then restore their order.
            let mut found: List<(Tok, Tok), MAX_CONTROLS> = List::default();
            loop {
                let trimmed = text.trim_end();
                let ws = trimmed.rfind(char::is_whitespace).map_or(0, |i| i + trimmed[i..].chars().next().map_or(1, char::len_utf8));
                let w = &trimmed[ws..];
                if !w.starts_with('&') {
                    break;
                }
                let wcol = col + ws;
                let Some((name, value)) = w[1..].split_once('=') else {
                    return Err((wcol, format!("expected `&name=value`, found `{w}`")));
                };
                if !found.push((Tok { text: name, col: wcol + 1 }, Tok { text: value, col: wcol + 2 + name.len() })) {
                    return Err((wcol, format!("more than {MAX_CONTROLS} controls")));
                }
                text = trimmed[..ws].trim_end();
            }
            for c in found.iter().rev() {
                out.controls.push(*c);
            }
            if text.is_empty() {
                break;
            }
        }
        if text.is_empty() {
            return Err((col, "empty operand".into()));
        }
        if !out.operands.push(Tok { text, col }) {
            return Err((col, format!("more than {MAX_OPERANDS} operands")));
        }
    }
    Ok(out)
}

fn skip_ws(s: &str, mut i: usize) -> usize {
    while i < s.len() && s.as_bytes()[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The core of an operand text, with decorations peeled off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core<'a> {
    /// `R7`, `RZ`, `UR3`, `PT`, `PR`: a name (resolved against register types later).
    Name(&'a str),
    /// `R[4:5]`: a register pair.
    Pair { prefix: &'a str, lo: u64, hi: u64 },
    /// `c[bank][offset]`.
    CMem { bank: u64, offset: u64 },
    /// `R[UR2+0x1]`: a register indexed by another plus an offset.
    Indexed { base: &'a str, index: &'a str, offset: i64 },
    /// A number as written (integer or float, sign included).
    Number(&'a str),
}

/// An operand text, decorated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandText<'a> {
    pub neg: bool,
    pub not: bool,
    pub inv: bool,
    pub abs: bool,
    pub core: Core<'a>,
    /// `.H0_H0` after the core.
    pub suffix: Option<&'a str>,
}

/// Parses an operand text. `-1` and `-0x10` stay numbers (the sign is the
/// literal's); `-R2` is a negated register.
pub fn operand(text: &str) -> Result<OperandText<'_>, String> {
    let mut s = text.trim();
    let mut op = OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(""), suffix: None };
    loop {
        if let Some(r) = s.strip_prefix('!') {
            op.not = true;
            s = r.trim_start();
        } else if let Some(r) = s.strip_prefix('~') {
            op.inv = true;
            s = r.trim_start();
        } else if s.starts_with('-') && !s[1..].trim_start().starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            op.neg = true;
            s = s[1..].trim_start();
        } else {
            break;
        }
    }
    if let Some(r) = s.strip_prefix('|') {
        let Some(inner) = r.trim_end().strip_suffix('|') else { return Err(format!("`{text}`: `|` is not closed")) };
        op.abs = true;
        s = inner.trim();
    }
    // Suffix: `.NAME` after a register-like core (not inside a number).
    let core_text;
    if !s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') {
        let close = s.rfind(']').map(|i| i + 1).unwrap_or(0);
        match s[close..].find('.') {
            Some(d) => {
                core_text = &s[..close + d];
                let suf = &s[close + d + 1..];
                if suf.is_empty() || !suf.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(format!("`{text}`: bad suffix `.{suf}`"));
                }
                op.suffix = Some(suf);
            }
            None => core_text = s,
        }
    } else {
        core_text = s;
    }
    op.core = core(core_text).ok_or_else(|| format!("`{text}` is not an operand"))?;
    Ok(op)
}

use super::literal::int;

fn core(s: &str) -> Option<Core<'_>> {
    if s.is_empty() {
        return None;
    }
    if let Some(rest) = s.strip_prefix("c[") {
        let (bank, rest) = rest.split_once(']')?;
        let off = rest.strip_prefix('[')?.strip_suffix(']')?;
        return Some(Core::CMem { bank: int(bank.trim())?, offset: int(off.trim())? });
    }
    if let Some(open) = s.find('[') {
        let base = &s[..open];
        let inner = s[open + 1..].strip_suffix(']')?.trim();
        if !base.chars().all(|c| c.is_ascii_alphabetic()) || base.is_empty() {
            return None;
        }
        if let Some((lo, hi)) = inner.split_once(':') {
            return Some(Core::Pair { prefix: base, lo: int(lo.trim())?, hi: int(hi.trim())? });
        }
        let (index, offset) = match inner.find(['+', '-']) {
            Some(i) => {
                let v = int(inner[i + 1..].trim())? as i64;
                (inner[..i].trim(), if &inner[i..i + 1] == "-" { -v } else { v })
            }
            None => (inner, 0),
        };
        return Some(Core::Indexed { base, index, offset });
    }
    if s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.')
        || s.eq_ignore_ascii_case("inf")
        || s.eq_ignore_ascii_case("nan")
    {
        return Some(Core::Number(s));
    }
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then_some(Core::Name(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_lines() {
        let l = lex("@!P2 IMAD.WIDE.U32 R[2:3], P0, R4, -c[0x3][0x18], R6 &req=0x3 ; // comment").unwrap();
        assert_eq!(l.guard.as_ref().map(|g| (g.0, g.1.text)), Some((true, "P2")));
        assert_eq!(l.mnemonic.unwrap().text, "IMAD");
        assert_eq!(l.parts.iter().map(|p| p.text).collect::<Vec<_>>(), ["WIDE", "U32"]);
        assert_eq!(l.operands.iter().map(|p| p.text).collect::<Vec<_>>(), ["R[2:3]", "P0", "R4", "-c[0x3][0x18]", "R6"]);
        assert_eq!(l.controls.iter().map(|(n, v)| (n.text, v.text)).collect::<Vec<_>>(), [("req", "0x3")]);
        let l = lex("NOP &a=1 &b=2").unwrap();
        assert_eq!(l.controls.iter().map(|(n, v)| (n.text, n.col, v.text)).collect::<Vec<_>>(), [("a", 5, "1"), ("b", 10, "2")]);
        assert!(l.operands.is_empty());
        assert_eq!(lex("loop: // only a label").unwrap().label.unwrap().text, "loop");
    }

    #[test]
    fn parses_operands() {
        let o = operand("-|R4.H0_H0|").unwrap();
        assert!(o.neg && o.abs && o.suffix == Some("H0_H0"));
        assert_eq!(operand("-0x114514").unwrap().core, Core::Number("-0x114514"));
        assert_eq!(operand("R[UR2+0x1]").unwrap().core, Core::Indexed { base: "R", index: "UR2", offset: 1 });
        assert_eq!(operand("c[0x3][0x18]").unwrap().core, Core::CMem { bank: 3, offset: 0x18 });
        assert!(operand("!PT").unwrap().not);
        assert!(operand("|R1").is_err());
    }
}
