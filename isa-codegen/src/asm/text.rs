//! Lexing one line of assembly: label, guard, mnemonic with its dotted
//! parts, and the operand texts with their decorations
//! (`-|R4.H0_H0|`, `!P1`, `~R5`, `c[0x3][0x18]`, `R[UR2+0x1]`, `R[4:5]`).
//! Purely textual: what the texts mean is decided against the templates.

/// A token with its byte column (0-based) in the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub text: String,
    pub col: usize,
}

/// A lexed line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub label: Option<Tok>,
    /// `@P0` / `@!P0`: (negated, register text).
    pub guard: Option<(bool, Tok)>,
    /// Base mnemonic (`IMAD`).
    pub mnemonic: Option<Tok>,
    /// Dotted parts after it (`WIDE`, `U32`), in order.
    pub parts: Vec<Tok>,
    /// Operand texts, split at top-level commas.
    pub operands: Vec<Tok>,
    /// `&name=value` control settings.
    pub controls: Vec<(Tok, Tok)>,
}

/// Lexes a line. Errors carry a byte column and a reason.
pub fn lex(line: &str) -> Result<Line, (usize, String)> {
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
        out.label = Some(Tok { text: code[pos..word_end - 1].to_string(), col: pos });
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
        out.guard = Some((neg, Tok { text: code[start..e].to_string(), col: start }));
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
        out.mnemonic = Some(Tok { text: code[pos..e].to_string(), col: pos });
    }
    for (k, part) in code[pos..e].split('.').enumerate().filter(|_| !directive) {
        if part.is_empty() {
            return Err((col, "empty modifier (`..` or a trailing `.`)".into()));
        }
        let tok = Tok { text: part.to_string(), col };
        if k == 0 {
            out.mnemonic = Some(tok);
        } else {
            out.parts.push(tok);
        }
        col += part.len() + 1;
    }
    pos = skip_ws(code, e);
    // Operands: split at commas outside brackets and bars; `&x=y` controls at the end.
    let rest = &code[pos..];
    let mut depth = 0i32;
    let mut start = 0usize;
    let mut pieces: Vec<(usize, &str)> = Vec::new();
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push((start, &rest[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err((pos + start, "unbalanced brackets".into()));
    }
    if !rest[start..].trim().is_empty() || !pieces.is_empty() {
        pieces.push((start, &rest[start..]));
    }
    let n = pieces.len();
    for (k, (off, piece)) in pieces.into_iter().enumerate() {
        let lead = piece.len() - piece.trim_start().len();
        let col = pos + off + lead;
        let mut text = piece.trim();
        if text.is_empty() {
            return Err((col, if k + 1 == n { "empty operand after the last comma".into() } else { "empty operand".into() }));
        }
        // Controls come last, separated by spaces from the last operand.
        if k + 1 == n {
            let mut words: Vec<&str> = text.split_whitespace().collect();
            while words.last().is_some_and(|w| w.starts_with('&')) {
                let w = words.pop().unwrap_or_default();
                let wcol = col + text.rfind(w).unwrap_or(0);
                let Some((name, value)) = w[1..].split_once('=') else {
                    return Err((wcol, format!("expected `&name=value`, found `{w}`")));
                };
                out.controls.insert(
                    0,
                    (Tok { text: name.to_string(), col: wcol + 1 }, Tok { text: value.to_string(), col: wcol + 2 + name.len() }),
                );
            }
            let kept = words.len();
            if kept == 0 {
                break;
            }
            // Re-slice the operand text without the controls.
            let cut = text.split_whitespace().take(kept).last().map(|w| text.find(w).unwrap_or(0) + w.len()).unwrap_or(0);
            text = &text[..cut];
        }
        if text.is_empty() {
            return Err((col, "empty operand".into()));
        }
        out.operands.push(Tok { text: text.to_string(), col });
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Core {
    /// `R7`, `RZ`, `UR3`, `PT`, `PR`: a name (resolved against register types later).
    Name(String),
    /// `R[4:5]`: a register pair.
    Pair { prefix: String, lo: u64, hi: u64 },
    /// `c[bank][offset]`.
    CMem { bank: u64, offset: u64 },
    /// `R[UR2+0x1]`: a register indexed by another plus an offset.
    Indexed { base: String, index: String, offset: i64 },
    /// A number as written (integer or float, sign included).
    Number(String),
}

/// An operand text, decorated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandText {
    pub neg: bool,
    pub not: bool,
    pub inv: bool,
    pub abs: bool,
    pub core: Core,
    /// `.H0_H0` after the core.
    pub suffix: Option<String>,
}

/// Parses an operand text. `-1` and `-0x10` stay numbers (the sign is the
/// literal's); `-R2` is a negated register.
pub fn operand(text: &str) -> Result<OperandText, String> {
    let mut s = text.trim();
    let mut op = OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(String::new()), suffix: None };
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
                op.suffix = Some(suf.to_string());
            }
            None => core_text = s,
        }
    } else {
        core_text = s;
    }
    op.core = core(core_text).ok_or_else(|| format!("`{text}` is not an operand"))?;
    Ok(op)
}

fn core(s: &str) -> Option<Core> {
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
            return Some(Core::Pair { prefix: base.to_string(), lo: int(lo.trim())?, hi: int(hi.trim())? });
        }
        let (index, offset) = match inner.find(['+', '-']) {
            Some(i) => {
                let v = int(inner[i + 1..].trim())? as i64;
                (inner[..i].trim(), if &inner[i..i + 1] == "-" { -v } else { v })
            }
            None => (inner, 0),
        };
        return Some(Core::Indexed { base: base.to_string(), index: index.to_string(), offset });
    }
    if s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.')
        || s.eq_ignore_ascii_case("inf")
        || s.eq_ignore_ascii_case("nan")
    {
        return Some(Core::Number(s.to_string()));
    }
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then(|| Core::Name(s.to_string()))
}

/// `0x1F`, `31`, `0b101`: a non-negative integer.
pub fn int(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// A signed integer literal (`-0x114514`, `+3`, `7`).
pub fn signed(s: &str) -> Option<i128> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = int(body)? as i128;
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_lines() {
        let l = lex("@!P2 IMAD.WIDE.U32 R[2:3], P0, R4, -c[0x3][0x18], R6 &req=0x3 ; // comment").unwrap();
        assert_eq!(l.guard.as_ref().map(|g| (g.0, g.1.text.as_str())), Some((true, "P2")));
        assert_eq!(l.mnemonic.unwrap().text, "IMAD");
        assert_eq!(l.parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(), ["WIDE", "U32"]);
        assert_eq!(l.operands.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(), ["R[2:3]", "P0", "R4", "-c[0x3][0x18]", "R6"]);
        assert_eq!(l.controls.len(), 1);
        assert_eq!(lex("loop: // only a label").unwrap().label.unwrap().text, "loop");
    }

    #[test]
    fn parses_operands() {
        let o = operand("-|R4.H0_H0|").unwrap();
        assert!(o.neg && o.abs && o.suffix.as_deref() == Some("H0_H0"));
        assert_eq!(operand("-0x114514").unwrap().core, Core::Number("-0x114514".into()));
        assert_eq!(operand("R[UR2+0x1]").unwrap().core, Core::Indexed { base: "R".into(), index: "UR2".into(), offset: 1 });
        assert_eq!(operand("c[0x3][0x18]").unwrap().core, Core::CMem { bank: 3, offset: 0x18 });
        assert!(operand("!PT").unwrap().not);
        assert!(operand("|R1").is_err());
    }
}
