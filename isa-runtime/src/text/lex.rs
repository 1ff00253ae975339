//! Lexing one line of assembly: label, guard, mnemonic with its dotted
//! parts, and the operand texts with their decorations
//! (`-|R4.H0_H0|`, `!P1`, `~R5`, `c[0x3][0x18]`, `R[UR2+0x1]`, `R[4:5]`).
//! Purely textual: what the texts mean is decided against the templates.
//! Tokens borrow from the line and lists are inline: lexing never allocates
//! (except to word an error).

/// A token with its byte column (0-based) in the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tok<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Its byte column in the line, from 0.
    pub col: usize,
}

/// A list of at most `N` items stored inline (nothing is written to the
/// slots past its length, so an empty list costs nothing to make).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T, const N: usize>(arrayvec::ArrayVec<T, N>);

impl<T, const N: usize> Default for List<T, N> {
    #[inline]
    fn default() -> Self {
        List(arrayvec::ArrayVec::new())
    }
}

impl<T, const N: usize> List<T, N> {
    /// Appends; `false` when full.
    #[inline]
    pub(crate) fn push(&mut self, t: T) -> bool {
        self.0.try_push(t).is_ok()
    }

    /// The items, to change in place.
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T, const N: usize> std::ops::Deref for List<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<'l, T, const N: usize> IntoIterator for &'l List<T, N> {
    type Item = &'l T;
    type IntoIter = std::slice::Iter<'l, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Most dotted modifiers a mnemonic may carry.
pub const MAX_PARTS: usize = 12;
/// Most operand texts a line may have.
pub const MAX_OPERANDS: usize = 16;
/// Most `&name=value` controls a line may have.
pub const MAX_CONTROLS: usize = 8;

/// A lexed line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line<'a> {
    /// The label the line defines (`loop:`), without its `:`.
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

/// The lines of a text as (byte offset, line without its end): lines end
/// at `\n`, `\r\n` or a lone `\r` (old Mac files), as editors show them.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= b.len() {
            return None;
        }
        let start = at;
        let end = b[start..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(b.len(), |i| start + i);
        at = end + if b.get(end) == Some(&b'\r') && b.get(end + 1) == Some(&b'\n') { 2 } else { 1 };
        Some((start, &text[start..end]))
    })
}

/// Whether `s` can name a label: a letter, `_`, `.` or `$`, then those or
/// digits (`loop`, `.L1`, `$done`).
pub fn is_label(s: &str) -> bool {
    let ok = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$');
    s.bytes().next().is_some_and(|c| ok(c) && !c.is_ascii_digit()) && s.bytes().all(ok)
}

/// The label a line defines (`loop:` at its start, up to the first `:`), without lexing the
/// rest: what a whole-file pass needs to find labels defined twice. Words
/// it as [`lex`] does: `None` also when the label is not a name.
pub fn label(line: &str) -> Option<Tok<'_>> {
    let code = &line[..find_comment(line.as_bytes())];
    let pos = skip_ws(code, 0);
    let end = find_ws(code, pos);
    let name = &code[pos..pos + code[pos..end].find(':')?];
    is_label(name).then_some(Tok { text: name, col: pos })
}

/// Lexes a line. Errors carry a byte column and a reason.
///
/// Whitespace is what [`char::is_whitespace`] says, as everywhere in the
/// assembler. Lines of printable ASCII whose only whitespace is the space
/// (what the disassembler prints) take `fast`; the rest, and every line
/// with an error, take `general`, which gives `fast`'s result wherever
/// `fast` gives one (a property test holds them equal).
#[inline]
pub fn lex(line: &str) -> Result<Line<'_>, (usize, String)> {
    let mut out = Line::default();
    lex_into(line, &mut out)?;
    Ok(out)
}

/// [`lex`] into `out` (which must be empty): a `Line` is a kilobyte, and
/// lexing in place spares copying it.
#[inline]
pub fn lex_into<'a>(line: &'a str, out: &mut Line<'a>) -> Result<(), (usize, String)> {
    if fast(line, out).is_none() {
        *out = general(line)?;
    }
    Ok(())
}

/// Whether any byte of `v` is below 0x20 or above 0x7E, or is `/` or `;`.
#[inline]
fn unusual8(v: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = v.wrapping_sub(ONES * 0x20) & !v;
    // Adding 1 sets the high bit of 0x7F; `| v` catches 0x80 and above.
    let above = v.wrapping_add(ONES) | v;
    let s = v ^ (ONES * b'/' as u64);
    let slash = s.wrapping_sub(ONES) & !s;
    let c = v ^ (ONES * b';' as u64);
    let semi = c.wrapping_sub(ONES) & !c;
    (below | above | slash | semi) & HIGH != 0
}

/// Where the code of a line ends (at `//` or the end), or `None` when a
/// byte before it is not printable ASCII, or a `;` is followed by more
/// than spaces (`general` words both). Eight bytes a step while none is
/// unusual.
#[inline]
fn code_end(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i + 8 <= b.len() {
        let v = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        if unusual8(v) {
            break;
        }
        i += 8;
    }
    // A comment runs to the end, unless a line break ends it (two lines
    // given as one: `general` words that).
    let one_line = |from: usize| !b[from..].iter().any(|&c| c == b'\n' || c == b'\r');
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => return one_line(i).then_some(i),
            b';' => {
                // Only the last thing of the code: spaces, then the end or a comment.
                let rest = skip_spaces(b, i + 1);
                return (rest == b.len() || b[rest..].starts_with(b"//") && one_line(rest)).then_some(rest.min(b.len()));
            }
            0x20..=0x7E => i += 1,
            _ => return None,
        }
    }
    Some(b.len())
}

/// The high bit of each byte of `v` that equals `c` (exactly: no carries
/// between bytes).
#[inline(always)]
fn eq8(v: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = v ^ (0x0101_0101_0101_0101 * c as u64);
    !(((x & LOW7) + LOW7) | x) & !LOW7
}

/// The first byte at or after `i` that the operand split looks at (a
/// [`SPLIT`] byte), or the end; eight bytes a step.
#[inline]
fn next_split(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let hits = eq8(v, b',') | eq8(v, b'[') | eq8(v, b']') | eq8(v, b'(') | eq8(v, b')');
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !SPLIT[b[i] as usize] {
        i += 1;
    }
    i
}

/// The first byte at or after `i` that is not a space.
#[inline]
fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    i
}

/// The first space at or after `i`, or the end.
#[inline]
fn find_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b' ' {
        i += 1;
    }
    i
}

/// [`lex`] for lines of printable ASCII with spaces only: one pass per
/// part of the line, no character decoding, into `out` (empty). `None`
/// for any other line and for every error, which [`general`] then words.
#[inline]
fn fast<'a>(line: &'a str, out: &mut Line<'a>) -> Option<()> {
    let all = line.as_bytes();
    let mut end = code_end(all)?;
    while end > 0 && all[end - 1] == b' ' {
        end -= 1;
    }
    if end > 0 && all[end - 1] == b';' {
        end -= 1;
    }
    let b = &all[..end];
    let mut pos = skip_spaces(b, 0);
    let first_word = pos;
    let word_end = find_space(b, pos);
    // A label ends at the first `:` of the first word (`loop:`, `loop:MOV`).
    if let Some(c) = b[pos..word_end].iter().position(|&x| x == b':').filter(|&c| c > 0) {
        // A label that is not a name is worded by `general`.
        if !is_label(&line[pos..pos + c]) {
            return None;
        }
        out.label = Some(Tok { text: &line[pos..pos + c], col: pos });
        pos = skip_spaces(b, pos + c + 1);
        if b[pos..find_space(b, pos)].contains(&b':') {
            return None;
        }
    }
    if pos >= b.len() {
        return Some(());
    }
    if b[pos] == b'@' {
        let neg = b.get(pos + 1) == Some(&b'!');
        let start = pos + 1 + neg as usize;
        let e = find_space(b, start);
        if e <= start {
            return None;
        }
        out.guard = Some((neg, Tok { text: &line[start..e], col: start }));
        pos = skip_spaces(b, e);
        if pos >= b.len() {
            return None;
        }
    }
    let e = if pos == first_word { word_end } else { find_space(b, pos) };
    if b[pos] == b'.' {
        out.mnemonic = Some(Tok { text: &line[pos..e], col: pos });
    } else {
        let mut start = pos;
        for i in pos..=e {
            if i < e && b[i] != b'.' {
                continue;
            }
            if i == start {
                return None;
            }
            let tok = Tok { text: &line[start..i], col: start };
            if start == pos {
                out.mnemonic = Some(tok);
            } else if !out.parts.push(tok) {
                return None;
            }
            start = i + 1;
        }
    }
    pos = skip_spaces(b, e);
    // Operands: split at commas outside brackets; parentheses go to `general`.
    let mut depth = 0i32;
    let mut start = pos;
    let mut i = next_split(b, pos);
    while let Some(&c) = b.get(i) {
        match c {
            b'[' => depth += 1,
            b']' if depth == 0 => return None,
            b']' => depth -= 1,
            b',' if depth == 0 => {
                let (s, t) = trim_spaces(b, start, i);
                if s == t || !out.operands.push(Tok { text: &line[s..t], col: s }) {
                    return None;
                }
                start = i + 1;
            }
            b',' => {}
            _ => return None,
        }
        i = next_split(b, i + 1);
    }
    if depth != 0 {
        return None;
    }
    let (s, mut t) = trim_spaces(b, start, b.len());
    if s == t {
        // Nothing after the last comma is an error; no operands at all is not.
        return out.operands.is_empty().then_some(());
    }
    // Controls come last: `&name=value` words peeled off the end.
    if b[s..t].contains(&b'&') {
        // Peeled last first, into place; reversed after.
        let found = &mut out.controls;
        loop {
            let ws = b[s..t].iter().rposition(|&c| c == b' ').map_or(s, |i| s + i + 1);
            if b[ws] != b'&' {
                break;
            }
            let eq = ws + 1 + b[ws + 1..t].iter().position(|&c| c == b'=')?;
            // No value, or controls run together: the careful lexer words it.
            if eq + 1 == t || b[eq + 1..t].contains(&b'&') {
                return None;
            }
            if !found.push((Tok { text: &line[ws + 1..eq], col: ws + 1 }, Tok { text: &line[eq + 1..t], col: eq + 1 })) {
                return None;
            }
            t = ws;
            while t > s && b[t - 1] == b' ' {
                t -= 1;
            }
            if t == s {
                break;
            }
        }
        out.controls.as_mut_slice().reverse();
        // A control given twice, or controls after a trailing comma: the
        // careful lexer words the error.
        let c = &out.controls;
        if (1..c.len()).any(|i| c[..i].iter().any(|(n, _)| n.text == c[i].0.text)) {
            return None;
        }
        if t == s {
            return out.operands.is_empty().then_some(());
        }
        // A control with spaces in it (`&sched = 1`): `general` words it.
        // A byte loop: the text is short, and `contains` calls `memchr`.
        #[allow(clippy::manual_contains)]
        let spaced = b[s..t].iter().any(|&c| c == b'&');
        if spaced {
            return None;
        }
    }
    out.operands.push(Tok { text: &line[s..t], col: s }).then_some(())
}

/// `b[start..end]` without its leading and trailing spaces, as a range.
#[inline]
fn trim_spaces(b: &[u8], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && b[start] == b' ' {
        start += 1;
    }
    while end > start && b[end - 1] == b' ' {
        end -= 1;
    }
    (start, end)
}

/// [`lex`] for any line, with its errors.
fn general(line: &str) -> Result<Line<'_>, (usize, String)> {
    // A line break with more text after it: two lines given as one (a
    // caller of `parse_line`/`FromStr`; `assemble_lines` splits them first).
    // Line breaks at the end are whitespace.
    if let Some(br) = line.find(['\n', '\r']) {
        let rest = line[br..].trim_start();
        if !rest.is_empty() {
            let second = rest.lines().next().unwrap_or(rest).trim_end();
            return Err((line.len() - rest.len(), format!("a line break inside the line: one instruction per line (`{second}` would be a second)")));
        }
    }
    // Strip the comment, then a trailing `;`.
    let code = &line[..find_comment(line.as_bytes())];
    let mut end = trim_end_len(code);
    if code.as_bytes()[..end].last() == Some(&b';') {
        end -= 1;
    }
    let code = &code[..end];
    if let Some(semi) = code.find(';') {
        let rest = skip_ws(code, semi + 1);
        let after = code[rest..].trim_end();
        return Err(match after.is_empty() || after.starts_with(';') {
            // At the second `;`: the next one, or the trailing one stripped above.
            true => (if after.is_empty() { end } else { rest }, "a second `;`: one `;` ends the instruction".into()),
            false => (rest, format!("text after `;`: one instruction per line (`{after}` would be a second)")),
        });
    }
    let mut out = Line::default();
    let mut pos = skip_ws(code, 0);
    // Label: `name:` at the start.
    let first_word = pos;
    let word_end = find_ws(code, pos);
    // A label ends at the first `:` of the first word (`loop:`, `loop:MOV`).
    if let Some(c) = code[pos..word_end].find(':').filter(|&c| c > 0) {
        let name = &code[pos..pos + c];
        if !is_label(name) {
            return Err((pos, format!("`{name}` is not a label name: a label starts with a letter, `_`, `.` or `$` and goes on with those or digits")));
        }
        out.label = Some(Tok { text: name, col: pos });
        pos = skip_ws(code, pos + c + 1);
        let next = &code[pos..find_ws(code, pos)];
        if let Some(c) = next.find(':') {
            return Err((pos, format!("one label per line: `{}:` follows `{name}:`", &next[..c])));
        }
    }
    if pos >= code.len() {
        return Ok(out);
    }
    if code.as_bytes()[pos] == b'@' {
        let neg = code.as_bytes().get(pos + 1) == Some(&b'!');
        let start = pos + 1 + neg as usize;
        let e = find_ws(code, start);
        if e == start {
            return Err((pos, "expected a predicate after `@`".into()));
        }
        out.guard = Some((neg, Tok { text: &code[start..e], col: start }));
        pos = skip_ws(code, e);
    }
    if pos >= code.len() {
        return Err((pos, "expected an instruction after the guard".into()));
    }
    // Without a label or guard, the mnemonic is the first word, already found.
    let e = if pos == first_word { word_end } else { find_ws(code, pos) };
    if code.as_bytes()[pos] == b'.' {
        // A directive (`.word`) is one token.
        out.mnemonic = Some(Tok { text: &code[pos..e], col: pos });
    } else {
        // The mnemonic and its dotted parts.
        let mut start = pos;
        for i in pos..=e {
            if i < e && code.as_bytes()[i] != b'.' {
                continue;
            }
            if i == start {
                return Err((start, "empty modifier (`..` or a trailing `.`)".into()));
            }
            let tok = Tok { text: &code[start..i], col: start };
            if start == pos {
                out.mnemonic = Some(tok);
            } else if !out.parts.push(tok) {
                return Err((start, format!("more than {MAX_PARTS} modifiers")));
            }
            start = i + 1;
        }
    }
    pos = skip_ws(code, e);
    // Operands: split at commas outside brackets and bars; `&x=y` controls at the end.
    let rest = &code[pos..];
    // Where each open bracket is, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut pieces: List<(usize, &str), { MAX_OPERANDS + 1 }> = List::default();
    let r = rest.as_bytes();
    let mut i = next_split(r, 0);
    while let Some(&c) = r.get(i) {
        match c {
            b'[' | b'(' => {
                open.push(i);
                depth += 1;
            }
            b']' | b')' => {
                let want = if c == b']' { b'[' } else { b'(' };
                match open.last() {
                    Some(&o) if r[o] == want => {}
                    Some(&o) => return Err((pos + i, format!("`{}` closes `{}` (at column {})", c as char, r[o] as char, pos + o + 1))),
                    None => return Err((pos + i, format!("`{}` closes nothing", c as char))),
                }
                open.pop();
                depth -= 1;
            }
            b',' if depth == 0 => {
                if !pieces.push((start, &rest[start..i])) {
                    return Err((pos + start, format!("more than {MAX_OPERANDS} operands")));
                }
                start = i + 1;
            }
            _ => {}
        }
        i = next_split(r, i + 1);
    }
    if let Some(&o) = open.last() {
        return Err((pos + o, format!("`{}` is not closed", r[o] as char)));
    }
    if (!trim(&rest[start..]).1.is_empty() || !pieces.is_empty()) && !pieces.push((start, &rest[start..])) {
        return Err((pos + start, format!("more than {MAX_OPERANDS} operands")));
    }
    let n = pieces.len();
    for (k, &(off, piece)) in pieces.iter().enumerate() {
        let (lead, mut text) = trim(piece);
        let col = pos + off + lead;
        if text.is_empty() {
            return Err((col, if k + 1 == n { "empty operand after the last comma".into() } else { "empty operand".into() }));
        }
        // Controls come last, separated by spaces from the last operand.
        if k + 1 == n && text.as_bytes().contains(&b'&') {
            // Peel `&name=value` words off the end, then restore their order.
            let mut found: List<(Tok, Tok), MAX_CONTROLS> = List::default();
            // Past the most a line may have: the columns of the rest.
            let mut more: Vec<usize> = Vec::new();
            loop {
                let trimmed = &text[..trim_end_len(text)];
                let ws = rfind_ws(trimmed).map_or(0, |(i, len)| i + len);
                let w = &trimmed[ws..];
                if !w.starts_with('&') {
                    break;
                }
                let wcol = col + ws;
                let Some((name, value)) = w.as_bytes()[1..].iter().position(|&c| c == b'=').map(|i| (&w[1..1 + i], &w[2 + i..])) else {
                    return Err((wcol, format!("expected `&name=value`, found `{w}`")));
                };
                let vcol = wcol + 2 + name.len();
                if value.is_empty() {
                    return Err((vcol, format!("`&{name}=` has no value")));
                }
                if let Some(amp) = value.find('&') {
                    return Err((vcol + amp, format!("controls are separated by spaces: `&{name}={} {}`", &value[..amp], &value[amp..])));
                }
                if !more.is_empty() || !found.push((Tok { text: name, col: wcol + 1 }, Tok { text: value, col: vcol })) {
                    more.push(wcol);
                }
                text = &trimmed[..trim_end_len(&trimmed[..ws])];
            }
            if !more.is_empty() {
                // Peeled from the end: the first control past the most is
                // the one that many places before the end.
                let cols: Vec<usize> = found.iter().map(|(n, _)| n.col - 1).chain(more).collect();
                return Err((cols[cols.len() - MAX_CONTROLS - 1], format!("more than {MAX_CONTROLS} controls")));
            }
            if let Some(amp) = text.find('&') {
                // `R2&sched=1`: the control glued to the last operand.
                if amp > 0 && !text.as_bytes()[amp - 1].is_ascii_whitespace() && text[amp + 1..].contains('=') {
                    let glued = text[..amp].rsplit([' ', '\t', ',']).next().unwrap_or("");
                    let control = text[amp..].split([' ', '\t']).next().unwrap_or("");
                    return Err((col + amp, format!("a space goes before a control: `{glued} {control}`")));
                }
                // `&sched=1 R2`: a whole control, then more operand text.
                let word = text[amp..].split(char::is_whitespace).next().unwrap_or("");
                let after = text[amp + word.len()..].trim();
                if let Some((name, value)) = word[1..].split_once('=').filter(|(n, v)| !n.is_empty() && !v.is_empty() && !after.is_empty()) {
                    let next = after.split([',', ' ', '\t']).next().unwrap_or(after);
                    return Err((col + amp, format!("controls come after the operands: `&{name}={value}` is followed by `{next}`")));
                }
                return Err((col + amp, "a control is one word, `&name=value`, without spaces".into()));
            }
            for (i, c) in found.iter().rev().enumerate() {
                if let Some((first, _)) = found.iter().rev().take(i).find(|(n, _)| n.text == c.0.text) {
                    return Err((c.0.col - 1, format!("`&{}` is given twice (first at column {})", c.0.text, first.col)));
                }
                out.controls.push(*c);
            }
            if text.is_empty() {
                if k > 0 {
                    return Err((col, "empty operand after the last comma (controls follow the last operand without one)".into()));
                }
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

/// The bytes the operand split looks at: brackets, parentheses and commas.
static SPLIT: [bool; 256] = {
    let mut t = [false; 256];
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b'(' as usize] = true;
    t[b')' as usize] = true;
    t[b',' as usize] = true;
    t
};

/// The first byte at or after `i` that is not ASCII whitespace.
fn skip_ws(s: &str, mut i: usize) -> usize {
    while i < s.len() && s.as_bytes()[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Where `//` starts in `b`, or its length.
fn find_comment(b: &[u8]) -> usize {
    let mut from = 0;
    while let Some(k) = b[from..].iter().position(|&c| c == b'/') {
        let i = from + k;
        if b.get(i + 1) == Some(&b'/') {
            return i;
        }
        from = i + 1;
    }
    b.len()
}

/// Whether ASCII byte `b` is whitespace (as [`char::is_whitespace`]).
#[inline]
fn ascii_ws(b: u8) -> bool {
    BYTE[b as usize] == WS
}

/// [`BYTE`] classes: whitespace, the first byte of a non-ASCII character,
/// anything else.
const WS: u8 = 1;
const LEAD: u8 = 2;

/// Each byte's class, for the scans (one load instead of a range test).
static BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b' ' | b'\t'..=b'\r' => WS,
            0xC0..=0xFF => LEAD,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// Whether a whitespace character starts at byte `i` of `s` (which holds a
/// non-ASCII byte there).
#[cold]
fn unicode_ws_at(s: &str, i: usize) -> bool {
    s.get(i..).and_then(|t| t.chars().next()).is_some_and(char::is_whitespace)
}

/// The first whitespace at or after byte `from`, or the end of `s`.
fn find_ws(s: &str, from: usize) -> usize {
    let b = s.as_bytes();
    let mut i = from;
    while i < b.len() {
        match BYTE[b[i] as usize] {
            0 => {}
            WS => return i,
            _ if unicode_ws_at(s, i) => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The last whitespace character in `s`: its byte index and length.
fn rfind_ws(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        match BYTE[b[i] as usize] {
            WS => return Some((i, 1)),
            // The first byte of a character: decode it.
            LEAD if unicode_ws_at(s, i) => return Some((i, s[i..].chars().next().map_or(1, char::len_utf8))),
            _ => {}
        }
    }
    None
}

/// The length of `s` without its trailing whitespace.
fn trim_end_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut j = b.len();
    while j > 0 && ascii_ws(b[j - 1]) {
        j -= 1;
    }
    if j > 0 && b[j - 1] >= 0x80 {
        return s[..j].trim_end().len();
    }
    j
}

/// `s` without leading and trailing whitespace, and how many bytes were cut
/// from its start.
fn trim(s: &str) -> (usize, &str) {
    let rest = trim_start(s);
    (s.len() - rest.len(), &rest[..trim_end_len(rest)])
}

/// `s` without its leading whitespace.
fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && ascii_ws(b[i]) {
        i += 1;
    }
    if i < b.len() && b[i] >= 0x80 {
        return s.trim_start();
    }
    &s[i..]
}

/// The core of an operand text, with decorations peeled off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core<'a> {
    /// `R7`, `RZ`, `UR3`, `PT`, `PR`: a name (resolved against register types later).
    Name(&'a str),
    /// `R[4:5]`: a register pair.
    Pair {
        /// The register prefix (`R`).
        prefix: &'a str,
        /// The first register's number.
        lo: u64,
        /// The second register's number.
        hi: u64,
    },
    /// `c[bank][offset]`.
    CMem {
        /// The bank.
        bank: u64,
        /// The byte offset.
        offset: u64,
    },
    /// `R[UR2+0x1]`: a register indexed by another plus an offset.
    Indexed {
        /// The register prefix before `[` (`R`).
        base: &'a str,
        /// The index register's text (`UR2`).
        index: &'a str,
        /// The signed offset (0 when none is written).
        offset: i128,
    },
    /// A number as written (integer or float, sign included).
    Number(&'a str),
}

/// An operand text, decorated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandText<'a> {
    /// Written `-x`.
    pub neg: bool,
    /// Written `!x`.
    pub not: bool,
    /// Written `~x`.
    pub inv: bool,
    /// Written `|x|`.
    pub abs: bool,
    /// The operand without its decorations.
    pub core: Core<'a>,
    /// `.H0_H0` after the core.
    pub suffix: Option<&'a str>,
}

impl OperandText<'_> {
    /// The first prefix written (`-`, `|..|`, `!`, `~`), if any.
    pub fn prefix_text(&self) -> Option<&'static str> {
        [(self.neg, "-"), (self.abs, "|..|"), (self.not, "!"), (self.inv, "~")].into_iter().find(|(on, _)| *on).map(|(_, t)| t)
    }

    /// A value after a float operand's first (`1, |-2|`) takes a sign and
    /// nothing else: the error for any other decoration written on it.
    pub fn lane_decoration_error(&self) -> Option<String> {
        let which = [(self.abs, "|..|"), (self.not, "!"), (self.inv, "~")].into_iter().find(|(on, _)| *on)?.1;
        Some(format!("`{which}` cannot be written on a value: a value takes only a sign `-`"))
    }
}

/// Parses an operand text. `-1` and `-0x10` stay numbers (the sign is the
/// literal's); `-R2` is a negated register.
pub fn operand(text: &str) -> Result<OperandText<'_>, String> {
    // The common case, a bare name (`R7`, `PT`): what `decorated` gives it,
    // without its steps.
    if is_plain_name(text) {
        return Ok(OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(text), suffix: None });
    }
    decorated(text)
}

/// [`operand`] in general: decorations, suffix, core.
fn decorated(text: &str) -> Result<OperandText<'_>, String> {
    let mut op = OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(""), suffix: None };
    let mut s = trim(text).1;
    // Each prefix at most once: `--R1` is not `R1`, and not `-R1` either.
    let twice = |c: char| Err(format!("`{text}`: `{c}` is written twice"));
    loop {
        let flag = match s.as_bytes().first() {
            Some(b'!') => &mut op.not,
            Some(b'~') => &mut op.inv,
            Some(b'-') if !starts_number(&s[1..]) => &mut op.neg,
            // `--1`: a `-` before a negative number.
            Some(b'-') if op.neg => return twice('-'),
            _ => break,
        };
        if *flag {
            return twice(s.as_bytes()[0] as char);
        }
        *flag = true;
        s = trim_start(&s[1..]);
    }
    if let Some(r) = s.strip_prefix('|') {
        let Some(inner) = r[..trim_end_len(r)].strip_suffix('|') else {
            // `|R1|.H0_H0`: closed, but the suffix belongs inside.
            if let Some((core, suf)) = r.rsplit_once("|.").filter(|(c, s)| !c.contains('|') && !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')) {
                let before = &text[..text.len() - s.len()];
                return Err(format!("`{text}`: the suffix goes inside the bars: `{before}|{core}.{suf}|`"));
            }
            return Err(format!("`{text}`: `|` is not closed"));
        };
        op.abs = true;
        s = trim(inner).1;
        if s.starts_with(['!', '~']) || (s.starts_with('-') && !starts_number(&s[1..])) {
            return Err(format!("`{text}`: prefixes are written before `|`, not inside it"));
        }
    }
    // `R1 extra`: a blank outside brackets before what starts an operand
    // is most likely a `,` left out.
    let mut depth = 0i32;
    let gap = s.bytes().position(|c| {
        depth += i32::from(c == b'[') - i32::from(c == b']');
        depth == 0 && (c == b' ' || c == b'\t')
    });
    if let Some(g) = gap {
        let next = trim_start(&s[g..]);
        // `- 5`: a sign apart from its number.
        if g == 1 && matches!(s.as_bytes()[0], b'-' | b'+') && starts_number(next) {
            return Err(format!("`{text}`: a sign is written next to its number: `{}{next}`", &s[..1]));
        }
        // `$sched=1`, `$sched $req`: the template's placeholders, written
        // as controls.
        if next.starts_with('$') {
            let words: Vec<&str> = next.split_ascii_whitespace().collect();
            let spelled: Vec<String> = words
                .iter()
                .map(|w| {
                    let w = w.trim_start_matches('$');
                    if w.contains('=') { format!("&{w}") } else { format!("&{w}=value") }
                })
                .collect();
            let optional = if words.iter().all(|w| w.contains('=')) { "" } else { " (each may be left out)" };
            return Err(format!("`{next}` is not an operand: controls are written `{}`{optional}", spelled.join(" ")));
        }
        if next.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '!' | '~' | '|')) {
            return Err(format!("`{text}` is not an operand: is a `,` missing before `{next}`?"));
        }
    }
    // Suffix: `.NAME` after a register-like core (not inside a number).
    let core_text;
    if !s.as_bytes().first().is_some_and(|&c| c.is_ascii_digit() || c == b'-' || c == b'+' || c == b'.') {
        let close = s.bytes().rposition(|c| c == b']').map_or(0, |i| i + 1);
        match s.as_bytes()[close..].iter().position(|&c| c == b'.') {
            Some(d) => {
                core_text = &s[..close + d];
                let suf = &s[close + d + 1..];
                if suf.is_empty() || !suf.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    return Err(format!("`{text}`: bad suffix `.{suf}`"));
                }
                op.suffix = Some(suf);
            }
            None => core_text = s,
        }
    } else {
        core_text = s;
    }
    op.core = core(core_text).ok_or_else(|| not_an_operand(text, core_text))?;
    Ok(op)
}

/// Why `text`, whose core is `core_text`, is not an operand: a constant
/// reference spelled `C[..][..]`, or whose bank or offset is not read,
/// says which; anything else is just not an operand.
#[cold]
fn not_an_operand(text: &str, core_text: &str) -> String {
    if let Some(rest) = core_text.strip_prefix("C[").filter(|r| core(&format!("c[{r}")).is_some()) {
        return format!("`{text}` is not an operand; did you mean `c[{rest}`?");
    }
    // `c[..][..]` whose bank or offset is not read: which, and why.
    let parts = core_text.strip_prefix("c[").and_then(|rest| {
        let close = rest.find(']')?;
        let off = rest[close + 1..].strip_prefix('[')?.strip_suffix(']')?;
        (!off.contains(['[', ']'])).then(|| [("bank", trim(&rest[..close]).1), ("offset", trim(off).1)])
    });
    for (which, part) in parts.into_iter().flatten() {
        let why = match (int(part), super::literal::signed(part)) {
            (Some(_), _) => continue,
            _ if part.is_empty() => format!("its {which} is missing"),
            (None, Some(_)) => format!("its {which} `{part}` is negative"),
            (None, None) => format!("its {which}: {}", super::literal::int_error_message(part)),
        };
        return format!("`{text}` is not an operand: {why}");
    }
    format!("`{text}` is not an operand")
}

use super::literal::int;

/// Whether `s` (after a `-`) starts a number, so the `-` is its sign.
fn starts_number(s: &str) -> bool {
    trim_start(s).as_bytes().first().is_some_and(|&c| c.is_ascii_digit() || c == b'.')
}

/// A name that [`operand`] reads as [`Core::Name`] with no decoration: a
/// letter or `_`, then letters, digits and `_`, and not `inf` or `nan`
/// (which are numbers).
fn is_plain_name(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        && !is_number_word(s)
}

/// The words read as numbers: `inf` and `nan`, and `infinity`, which a
/// float operand refuses with a word on how infinity is written.
pub(super) fn is_number_word(s: &str) -> bool {
    s.eq_ignore_ascii_case("inf") || s.eq_ignore_ascii_case("nan") || s.eq_ignore_ascii_case("infinity")
}

fn core(s: &str) -> Option<Core<'_>> {
    if s.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    if let Some(rest) = s.strip_prefix("c[") {
        let close = rest.bytes().position(|c| c == b']')?;
        let off = rest[close + 1..].strip_prefix('[')?.strip_suffix(']')?;
        return Some(Core::CMem { bank: int(trim(&rest[..close]).1)?, offset: int(trim(off).1)? });
    }
    if let Some(open) = b.iter().position(|&c| c == b'[') {
        let base = &s[..open];
        let inner = trim(s[open + 1..].strip_suffix(']')?).1;
        // `C[0x3][0x18]` is no indexed register (`c[..][..]` misspelt).
        if !base.bytes().all(|c| c.is_ascii_alphabetic()) || base.is_empty() || inner.contains(['[', ']']) {
            return None;
        }
        if let Some(colon) = inner.bytes().position(|c| c == b':') {
            let number = |s: &str| super::literal::register_number(trim(s).1);
            return Some(Core::Pair { prefix: base, lo: number(&inner[..colon])?, hi: number(&inner[colon + 1..])? });
        }
        let (index, offset) = match inner.bytes().position(|c| c == b'+' || c == b'-') {
            Some(i) => {
                // The offset may carry its own sign (`R[UR1+-0x1]` is `R[UR1-0x1]`).
                let v = super::literal::signed(trim(&inner[i + 1..]).1)?;
                (trim(&inner[..i]).1, if inner.as_bytes()[i] == b'-' { -v } else { v })
            }
            None => (inner, 0),
        };
        return Some(Core::Indexed { base, index, offset });
    }
    if b[0].is_ascii_digit() || matches!(b[0], b'-' | b'+' | b'.') || is_number_word(s) {
        return Some(Core::Number(s));
    }
    b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_').then_some(Core::Name(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let got: Vec<(usize, &str)> = super::lines("a\nb\r\nc\rd\r\re").collect();
        assert_eq!(got, [(0, "a"), (2, "b"), (5, "c"), (7, "d"), (9, ""), (10, "e")]);
        assert_eq!(super::lines("").count(), 0);
        assert_eq!(super::lines("x\n").collect::<Vec<_>>(), [(0, "x")]);
    }

    #[test]
    fn too_many_controls_point_at_the_first_one_too_many() {
        for n in [9usize, 10, 20] {
            let line = format!("MOV R1, R2{}", " &sched=1".repeat(n));
            let ninth = line.match_indices('&').nth(MAX_CONTROLS).unwrap().0;
            assert_eq!(lex(&line).unwrap_err(), (ninth, format!("more than {MAX_CONTROLS} controls")), "{n} controls");
        }
        let eight: String = (0..8).map(|k| format!(" &c{k}=1")).collect();
        assert_eq!(lex(&format!("MOV R1, R2{eight}")).unwrap().controls.len(), 8);
    }

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
        assert_eq!(operand("R[UR2+-0x1]").unwrap().core, Core::Indexed { base: "R", index: "UR2", offset: -1 });
        assert_eq!(operand("c[0x3][0x18]").unwrap().core, Core::CMem { bank: 3, offset: 0x18 });
        assert!(operand("!PT").unwrap().not);
        assert!(operand("|R1").is_err());
        // A prefix written twice is an error, not the same prefix once.
        for t in ["--R1", "- -R1", "!!P0", "~~R[6:7]", "-!-P0", "--1.5", "-|-R1|", "|!P0|", "|~R1|"] {
            assert!(operand(t).is_err(), "{t} accepted");
        }
        assert_eq!(operand("-1.5").unwrap().core, Core::Number("-1.5"));
        let o = operand("-|-1.5|").unwrap();
        assert!(o.neg && o.abs && o.core == Core::Number("-1.5"));
        // Two operands with no `,` between them: the message says so.
        assert_eq!(operand("R1 extra").unwrap_err(), "`R1 extra` is not an operand: is a `,` missing before `extra`?");
        assert_eq!(operand("-R1  -|R2|").unwrap_err(), "`-R1  -|R2|` is not an operand: is a `,` missing before `-|R2|`?");
        // Blanks inside brackets are no gap.
        assert_eq!(operand("c[ 0x3 ][ 0x18 ]").unwrap().core, Core::CMem { bank: 3, offset: 0x18 });
        assert_eq!(operand("c[0x3] [0x18]").unwrap_err(), "`c[0x3] [0x18]` is not an operand");
        assert_eq!(operand("- 5").unwrap_err(), "`- 5`: a sign is written next to its number: `-5`");
        let two = "FFMA R1, R2, R3, R4 // one\n  FFMA R5, R6, R7, R8\n";
        assert_eq!(
            lex(two).map(|_| ()),
            Err((two.find("FFMA R5").unwrap(), "a line break inside the line: one instruction per line (`FFMA R5, R6, R7, R8` would be a second)".to_string()))
        );
        assert_eq!(lex("FFMA R1, R2, R3, R4 ;\r\n").map(|l| l.operands.len()), Ok(4), "a line ending at the end is whitespace");
        assert_eq!(operand("R2 $sched=1").unwrap_err(), "`$sched=1` is not an operand: controls are written `&sched=1`");
        assert_eq!(
            operand("R2 $sched $req").unwrap_err(),
            "`$sched $req` is not an operand: controls are written `&sched=value &req=value` (each may be left out)"
        );
        assert_eq!(operand("-|R1|.H0_H0").unwrap_err(), "`-|R1|.H0_H0`: the suffix goes inside the bars: `-|R1.H0_H0|`");
        assert_eq!(operand("|R1").unwrap_err(), "`|R1`: `|` is not closed");
    }

    // The byte scans against the `str` methods they stand for, on text
    // mixing ASCII, the whitespace `char::is_whitespace` knows beyond ASCII
    // (U+0085, U+00A0, U+2003, U+3000), vertical tab and other non-ASCII.
    const ALPHABET: &str = "[a-zA-Z0-9_/;:@!.,\\[\\]|&= \t\r\n\u{0B}\u{0C}\u{85}\u{A0}\u{2003}\u{3000}\u{E9}\u{4E2D}-]{0,24}";

    proptest::proptest! {
        #[test]
        fn scans_agree_with_str(s in ALPHABET, from in 0usize..24) {
            let from = (0..=from.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
            proptest::prop_assert_eq!(find_ws(&s, from), s[from..].find(char::is_whitespace).map_or(s.len(), |i| from + i));
            proptest::prop_assert_eq!(trim_end_len(&s), s.trim_end().len());
            proptest::prop_assert_eq!(trim(&s), (s.len() - s.trim_start().len(), s.trim()));
            proptest::prop_assert_eq!(trim_start(&s), s.trim_start());
            proptest::prop_assert_eq!(find_comment(s.as_bytes()), s.find("//").unwrap_or(s.len()));
            proptest::prop_assert_eq!(rfind_ws(&s), s.rfind(char::is_whitespace).map(|i| (i, s[i..].chars().next().map_or(1, char::len_utf8))));
        }

        /// The eight-byte test against testing each byte.
        #[test]
        fn unusual8_tests_each_byte(v: u64, k in 0usize..8, byte: u8) {
            // Half the words carry one chosen byte among printable ones.
            let v = if byte & 1 == 0 { v } else { (0x4141_4141_4141_4141u64 & !(0xFF << (8 * k))) | (byte as u64) << (8 * k) };
            let expected = v.to_le_bytes().iter().any(|&c| !(0x20..=0x7E).contains(&c) || c == b'/' || c == b';');
            proptest::prop_assert_eq!(unusual8(v), expected);
        }

        /// The eight-byte split scan against testing each byte.
        #[test]
        fn next_split_finds_the_first_split_byte(s in "[a-z0-9 ,\\[\\]().|-]{0,40}", from in 0usize..44) {
            let b = s.as_bytes();
            let expected = (from..b.len()).find(|&i| SPLIT[b[i] as usize]).unwrap_or(b.len().max(from));
            proptest::prop_assert_eq!(next_split(b, from), expected);
        }

        /// `eq8` marks exactly the bytes equal to `c` (half the words have
        /// `c` planted at a random place, and its neighbours `c ± 1` around).
        #[test]
        fn eq8_marks_equal_bytes(v: u64, c: u8, k in 0usize..8, plant: bool) {
            let v = if plant {
                let near = u64::from_le_bytes([c.wrapping_sub(1), c.wrapping_add(1), c ^ 0x80, 0, c, c.wrapping_add(1), 0xFF, c]);
                (near & !(0xFF << (8 * k))) | (c as u64) << (8 * k)
            } else {
                v
            };
            let expected = v.to_le_bytes().iter().enumerate().fold(0u64, |m, (k, &x)| m | ((x == c) as u64) << (8 * k + 7));
            proptest::prop_assert_eq!(eq8(v, c), expected);
        }

        /// Where the fast path lexes a line, it lexes it as `general` does.
        #[test]
        fn fast_agrees_with_general(s in "[a-zA-Z0-9_@!.,:;/|&=~+\\-\\[\\]() \t\u{A0}]{0,40}") {
            let mut l = Line::default();
            if fast(&s, &mut l).is_some() {
                proptest::prop_assert_eq!(Ok(l), general(&s));
            }
        }

        /// Lines shaped like the disassembler's (and some not quite) take
        /// the fast path unless they have an error, and agree with `general`.
        #[test]
        fn fast_takes_canonical_lines(s in concat!(
            " ?(L[0-9]{1,2}: +)?(@!?P[0-6T] +)?[A-Z]{1,5}(\\.[A-Z0-9_]{1,4}){0,3}",
            "( [-!~|]{0,2}(R[0-9]{1,3}|c\\[0x[0-9a-f]{1,3}\\]\\[0x[0-9a-f]{1,4}\\]|R\\[[0-9]:[0-9]\\]|R\\[UR[0-9]\\+0x1\\]|-?0x[0-9a-f]{1,8})\\|?",
            "(, ?[-!~|]{0,2}(R[0-9]{1,3}|c\\[0x1\\]\\[0x2\\]|[0-9]{1,3}|)\\|?){0,5})?",
            "( +&[a-z]{0,5}=?(0x[0-9a-f]{1,2})?){0,3} *;? *( // [a-z/ ]{0,5})?",
        )) {
            let g = general(&s);
            let mut l = Line::default();
            if fast(&s, &mut l).is_some() {
                proptest::prop_assert_eq!(Ok(l), g);
            } else {
                proptest::prop_assert!(g.is_err(), "`{}` lexes but not on the fast path", s);
            }
        }

        #[test]
        fn plain_names_read_as_in_general(s in "[a-zA-Z0-9_.|\\-]{0,6}|[iInN][nNaA][fFnN]") {
            if is_plain_name(&s) {
                proptest::prop_assert_eq!(operand(&s), decorated(&s));
            }
        }
    }
}