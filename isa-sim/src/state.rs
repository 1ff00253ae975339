//! Warp state as YAML, the format `isa run --state` reads and prints
//! ([`FORMAT`], which `isa run --help` shows).
#![doc = concat!("\n```yaml\n", include_str!("state_format.yaml"), "```\n")]
//!
//! A state is one YAML document whose `[`/`{` nest at most 64 deep.

/// The state format by example, with its rules in comments.
pub const FORMAT: &str = include_str!("state_format.yaml");

use crate::{ErrorKind, RunError};
use isa_runtime::sim::{Warp, LANES};
use isa_runtime::text::literal::{self, FloatFormat};
use serde_yaml::Value;
use std::fmt::Write;

/// An error at the key `near` (see [`find_key`]); when `near` is empty or
/// not written as such (a number key that YAML read as `16`), at the
/// document's first significant character, so every error has a place.
fn error(text: &str, near: &str, message: impl Into<String>) -> RunError {
    let found = if near.is_empty() { None } else { find_key(text, near).map(|at| (at, near.len())) };
    let span = found.or_else(|| first_significant(text).map(|at| (at, 1)));
    RunError { kind: ErrorKind::State, span, message: message.into() }
}

/// An error about key `k` of section `section` (a key that is not a
/// string): at the key when its text is found as a key after the section's,
/// else at the section.
fn key_error(text: &str, section: &str, k: &Value, message: String) -> RunError {
    let key = scalar_text(k);
    let mut e = error(text, section, message);
    let after = find_key(text, section).unwrap_or(0);
    if let Some(at) = key_places(text, &key).find(|&at| !key.is_empty() && at > after) {
        e.span = Some((at, key.len()));
    } else if let Some(span) = odd_key_place(text, after, k) {
        e.span = Some(span);
    }
    e
}

/// Where a key with no text of its own is written, on an indented line
/// after byte `after`: a null (`~:`, `null:`, `: 3`), a list (`[1, 2]:`) or
/// a mapping (`{a: 1}:`), or a `? ` complex key.
fn odd_key_place(text: &str, after: usize, k: &Value) -> Option<(usize, usize)> {
    for (start, line) in isa_runtime::text::lex::lines(text) {
        let body = line.trim_start_matches([' ', '\t']);
        if start <= after || body.len() == line.len() {
            continue;
        }
        let key_then_colon = |key: &str| body.strip_prefix(key).is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':'));
        let hit = match k {
            Value::Null => ["~", "null", "Null", "NULL", ""].into_iter().find(|n| key_then_colon(n)).map(|n| n.len().max(1)),
            Value::Sequence(_) => body.starts_with('[').then_some(1),
            Value::Mapping(_) => body.starts_with('{').then_some(1),
            _ => None,
        }
        .or_else(|| body.starts_with("? ").then_some(1));
        if let Some(len) = hit {
            return Some((start + line.len() - body.len(), len));
        }
    }
    None
}

/// An error about the value of `key`: at the value when it is written on the
/// key's line (for `lane`, that lane's item of a `[..]` list), else at the
/// key.
fn value_error(text: &str, key: &str, lane: Option<usize>, message: impl Into<String>) -> RunError {
    let mut e = error(text, key, message);
    if let Some(span) = find_key(text, key).and_then(|at| value_place(text, at + key.len(), lane)) {
        e.span = Some(span);
    }
    e
}

/// The value after a key ending at `end` (`R1: 0x10`, `"c[0][4]": 7`, `R1:
/// [1, 2, ..]`, or lane `n`'s `- x` line of a block list below the key), as
/// (start, length); `None` for another value on later lines.
fn value_place(text: &str, end: usize, lane: Option<usize>) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = end;
    let skip = |i: &mut usize, set: &[u8]| {
        while *i < b.len() && set.contains(&b[*i]) {
            *i += 1;
        }
    };
    skip(&mut i, b"\"' \t");
    if b.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    skip(&mut i, b" \t");
    let token = |from: usize, stops: &[u8]| {
        let mut to = from;
        while to < b.len() && !stops.contains(&b[to]) {
            to += 1;
        }
        let t = text[from..to].trim_end();
        (!t.is_empty()).then_some((from, t.len()))
    };
    match (b.get(i), lane) {
        (Some(b'['), Some(n)) => {
            // The n-th item of a flow list (items may span lines).
            let mut k = 0;
            let mut at = i + 1;
            loop {
                skip(&mut at, b" \t\r\n");
                if k == n {
                    return token(at, b",]\n#");
                }
                while at < b.len() && !matches!(b[at], b',' | b']') {
                    at += 1;
                }
                if b.get(at) != Some(&b',') {
                    return None;
                }
                at += 1;
                k += 1;
            }
        }
        (Some(b'\n' | b'\r' | b'#'), Some(n)) => {
            // The n-th item of a block list: the `- x` lines below the key.
            let mut off = i + text[i..].find('\n')? + 1;
            let mut k = 0;
            for line in text[off..].split_inclusive('\n') {
                let t = line.trim_start_matches([' ', '\t']);
                if t.trim().is_empty() || t.starts_with('#') {
                    off += line.len();
                    continue;
                }
                let item = t.strip_prefix('-').filter(|r| r.is_empty() || r.starts_with([' ', '\t', '\r', '\n']))?;
                if k == n {
                    let mut at = off + (line.len() - item.len());
                    skip(&mut at, b" \t");
                    return token(at, b"\r\n#");
                }
                k += 1;
                off += line.len();
            }
            None
        }
        (Some(b'\n' | b'\r' | b'#'), _) | (None, _) => None,
        _ => token(i, b",}\n#"),
    }
}

/// The first character that is not blank, a comment or a document marker.
fn first_significant(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let lead = line.len() - body.len();
        if !(body.is_empty() || body.starts_with('#') || body.trim_end() == "---") {
            return Some(at + lead);
        }
        at += line.len();
    }
    None
}

/// Every place where `key` is written as a mapping key (see [`find_key`]).
fn key_places<'t>(text: &'t str, key: &'t str) -> impl Iterator<Item = usize> + 't {
    let is_key = move |at: usize| {
        let before = text[..at].rsplit('\n').next().unwrap_or("");
        let lead = before.trim_end_matches(['"', '\'']).trim_end();
        let after = text[at + key.len()..].trim_start_matches(['"', '\'']).trim_start_matches([' ', '\t']);
        (lead.is_empty() || lead.ends_with(['{', ',']) || lead.trim_start().starts_with('-') && lead.trim_start().len() == 1)
            && !before.contains('#')
            && after.starts_with(':')
    };
    text.match_indices(key).map(|(at, _)| at).filter(move |&at| is_key(at))
}

/// Where `key` is written as a mapping key (first on its line, or after
/// `{`/`,` in a flow mapping, maybe quoted, then `:`), else its first
/// occurrence: `R1` is not found inside `R10:`, nor in a comment.
fn find_key(text: &str, key: &str) -> Option<usize> {
    key_places(text, key).next().or_else(|| text.find(key))
}

/// How deep flow collections (`[`, `{`) may nest: a state needs two levels
/// (`regs: {R1: [..]}`); the YAML parser's time grows with the square of
/// the depth, so a deeper file is refused before it is parsed.
const MAX_FLOW_DEPTH: usize = 64;

/// Where flow collections first nest deeper than [`MAX_FLOW_DEPTH`],
/// skipping comments and quoted scalars.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < b.len() {
        match b[i] {
            b'#' if i == 0 || b[i - 1].is_ascii_whitespace() => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if q == b'"' && b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The serde_yaml error `e` on `text` as a state error with a place: the
/// parser's own place when it has one (its `at line L column C` is left
/// out, since it can name another place than the caret's), else one found
/// from what the message names.
fn yaml_error(text: &str, e: &serde_yaml::Error) -> RunError {
    let said = e.to_string();
    let said = said.split(" at line ").next().unwrap_or(&said);
    // Without a place of its own, an error is at the document's start.
    let state = |span: Option<(usize, usize)>, message: String| {
        let span = span.or_else(|| first_significant(text).map(|at| (at, 1)));
        RunError { kind: ErrorKind::State, span, message }
    };
    // Valid YAML that the parser's values cannot hold.
    if said.contains(" as u128") || said.contains(" as i128") {
        return state(e.location().map(|l| (l.index(), 1)), "a number too large to read (a register holds 32 bits)".into());
    }
    // `regs: duplicate entry with key "R1"`: at the second `R1`.
    if let Some((_, key)) = said.split_once("duplicate entry with key \"") {
        let key = key.trim_end_matches('"');
        let within = said.split_once(": duplicate").map_or(String::new(), |(w, _)| format!(" in `{w}`"));
        let span = key_places(text, key).nth(1).map(|at| (at, key.len()));
        return state(span, format!("`{key}` is given twice{within}"));
    }
    // `... at position 13`: a character index.
    if let Some((head, n)) = said.rsplit_once(" at position ") {
        if let Ok(n) = n.trim().parse::<usize>() {
            let at = text.char_indices().nth(n).map_or(text.len(), |(at, _)| at);
            return state(Some((at, 1)), format!("not YAML: {head}"));
        }
    }
    if said.contains("more than one document") {
        // The first `---` after the first document's content.
        let start = first_significant(text).unwrap_or(0);
        let second = text[start..].find("\n---").map(|i| (start + i + 1, 3));
        return state(second, "a state is one YAML document: a second one starts here".into());
    }
    state(e.location().map(|l| (l.index(), 1)), format!("not YAML: {said}"))
}

/// Loads `text` into `warp` (registers not named keep their values).
pub fn load(warp: &mut Warp, text: &str) -> Result<(), RunError> {
    load_all(warp, text).map_err(|mut errors| errors.swap_remove(0))
}

/// [`load`], with every error rather than the first: each entry of `regs`
/// and `cmem` is checked whatever the others hold (a file that is not YAML
/// is one error).
pub fn load_all(warp: &mut Warp, text: &str) -> Result<(), Vec<RunError>> {
    if let Some(at) = too_deep(text) {
        let message = format!("`[`/`{{` nested more than {MAX_FLOW_DEPTH} deep (a state needs two levels)");
        return Err(vec![RunError { kind: ErrorKind::State, span: Some((at, 1)), message }]);
    }
    // Numbers the reader refuses whatever their place (`010`, a number past
    // 64 bits) are reported here and blanked, so that the YAML still reads
    // and every other entry is checked too.
    let (scanned, mut errors) = refused_numbers(text);
    let doc: Value = match serde_yaml::from_str(&scanned) {
        Ok(doc) => doc,
        Err(e) => {
            errors.push(yaml_error(text, &e));
            return Err(errors);
        }
    };
    let map = match &doc {
        Value::Null if errors.is_empty() => return Ok(()),
        Value::Null => return Err(errors),
        Value::Mapping(m) => m,
        _ => return Err(vec![error(text, "", "the state is a mapping with `active`, `regs` and `cmem`")]),
    };
    for (k, v) in map {
        let Some(key) = k.as_str() else {
            errors.push(error(text, "", "a key that is not a name: the state's keys are `active`, `regs` and `cmem`"));
            continue;
        };
        match key {
            "active" => match mask(text, key, v) {
                Ok(m) => warp.active = m,
                Err(e) => errors.push(e),
            },
            "regs" => regs(warp, text, v, &mut errors),
            "cmem" => cmem(warp, text, v, &mut errors),
            _ => errors.push(error(text, key, format!("unknown key {}: expected `active`, `regs` or `cmem`", shown(k)))),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        errors.sort_by_key(|e| e.span.map_or(0, |(at, _)| at));
        Err(errors)
    }
}

/// `text` with every decimal number the reader refuses blanked (the same
/// length, so places keep their offsets), and an error at each: one
/// written with a leading zero (`010`: YAML 1.1 tools read it as octal, this
/// reader would read 10, and the assembler refuses it), and one past 64
/// bits (YAML cannot read it, which hid every other error). Comments and
/// quoted strings are left alone (a quoted number is read, and checked, as
/// a value).
fn refused_numbers(text: &str) -> (std::borrow::Cow<'_, str>, Vec<RunError>) {
    let b = text.as_bytes();
    let mut errors = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                } else if c == b'\\' && q == b'"' {
                    i += 1;
                }
                i += 1;
                continue;
            }
            None if c == b'"' || c == b'\'' => {
                quote = Some(c);
                i += 1;
                continue;
            }
            None if c == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace()) => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            None => {}
        }
        let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.');
        if !word(c) {
            i += 1;
            continue;
        }
        // A whole word (with a sign before it): `R1`, `0x10`, `010`, `1.5`.
        let start = if i > 0 && matches!(b[i - 1], b'-' | b'+') { i - 1 } else { i };
        let mut end = i;
        while end < b.len() && word(b[end]) {
            end += 1;
        }
        let token = &text[start..end];
        let body = token.trim_start_matches(['-', '+']);
        // A key (`R010:`) is a name, not a number.
        let is_key = b.get(end) == Some(&b':');
        let decimal = !body.is_empty() && body.bytes().all(|d| d.is_ascii_digit() || d == b'_');
        if decimal && !is_key {
            let digits = body.replace('_', "");
            let too_long = digits.trim_start_matches('0').len() > 19 || digits.parse::<u64>().is_err();
            if literal::leading_zero(&digits) {
                errors.push(RunError { kind: ErrorKind::State, span: Some((start, end - start)), message: literal::int_error_message(token) });
                blank.push((start, end));
            } else if too_long {
                let message = format!("`{token}` is too large: a register or constant word holds 32 bits");
                errors.push(RunError { kind: ErrorKind::State, span: Some((start, end - start)), message });
                blank.push((start, end));
            }
        }
        i = end;
    }
    if blank.is_empty() {
        return (std::borrow::Cow::Borrowed(text), errors);
    }
    let mut out = text.as_bytes().to_vec();
    for (s, e) in blank {
        out[s] = b'0';
        out[s + 1..e].fill(b' ');
    }
    (std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_default()), errors)
}

/// How a message names a value: a scalar as written (cut past 40
/// characters), a collection by what it is (a 1,000-item list echoed whole
/// made a 1,006-line message).
fn shown(v: &Value) -> String {
    match v {
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Null => "nothing".into(),
        _ => format!("`{}`", literal_cut(&scalar_text(v))),
    }
}

/// `s`, cut to its first and last 16 characters around `…` past 40.
fn literal_cut(s: &str) -> String {
    let n = s.chars().count();
    if n <= 40 {
        return s.to_string();
    }
    let head: String = s.chars().take(16).collect();
    let tail: String = s.chars().skip(n - 16).collect();
    format!("{head}…{tail}")
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other).unwrap_or_default().trim().to_string(),
    }
}

/// A 32-bit value: an integer (decimal, hex, negative), a float (its binary32
/// bits, rounded to nearest; one that would round to infinity or to zero is
/// an error, as in assembly), a boolean for a `predicate` only, or a
/// string holding one of these. The lane mask: an integer only (a float's
/// bits or a boolean as a mask is a mistake, not a spelling).
fn mask(text: &str, key: &str, v: &Value) -> Result<u32, RunError> {
    let not_mask = || value_error(text, key, None, format!("`{key}`: {} is not a lane mask: write an integer, bit i for lane i (`0xffffffff`: all 32)", shown(v)));
    match v {
        Value::Number(n) if n.is_u64() || n.is_i64() => word(text, key, None, v, false),
        Value::String(s) => integer(s.trim()).ok_or_else(not_mask),
        _ => Err(not_mask()),
    }
}

/// A 32-bit integer as text: `0x` hex, decimal, or negative decimal (two's
/// complement); `_` may separate digits in each (`0xffff_0000`, `1_000`).
fn integer(s: &str) -> Option<u32> {
    let digits = |t: &str| (!t.starts_with('_') && !t.ends_with('_')).then(|| t.replace('_', ""));
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(&digits(h)?, 16).ok()
    } else {
        let (sign, body) = s.strip_prefix('-').map_or(("", s), |b| ("-", b));
        let t = format!("{sign}{}", digits(body)?);
        t.parse::<u32>().ok().or_else(|| t.parse::<i32>().ok().map(|i| i as u32))
    }
}

/// `lane`: which item of `key`'s per-lane list `v` is, to find its text.
fn word(text: &str, key: &str, lane: Option<usize>, v: &Value, predicate: bool) -> Result<u32, RunError> {
    let bad = || value_error(text, key, None, format!("`{key}`: {} is not a 32-bit value", shown(v)));
    match v {
        // `true`/`false` are predicate values, not words.
        Value::Bool(b) if predicate => Ok(*b as u32),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u32::try_from(u).map_err(|_| bad())
            } else if let Some(i) = n.as_i64() {
                i32::try_from(i).map(|i| i as u32).map_err(|_| bad())
            } else {
                // A float is its binary32 bits, rounded once from the decimal
                // as written, as the assembler rounds literals (rounded to f64
                // first, `1.00000005960464477` came out one bit high). YAML's
                // `.inf` is infinity; `.nan` says no NaN in particular.
                let f = n.as_f64().ok_or_else(bad)?;
                let written = find_key(text, key).and_then(|at| value_place(text, at + key.len(), lane)).map(|(at, len)| &text[at..at + len]);
                if f.is_nan() {
                    let t = written.unwrap_or(".nan");
                    return Err(value_error(text, key, None, format!("`{key}`: {}", literal::float_error_message(t, FloatFormat::F32, literal::FloatError::Syntax))));
                }
                if f.is_infinite() {
                    return Ok((f as f32).to_bits());
                }
                // The text found must be this number (else its shortest spelling is read).
                let t = written.filter(|t| t.parse::<f64>() == Ok(f)).map_or_else(|| scalar_text(v), str::to_string);
                literal::parse_float(&t, FloatFormat::F32).map(|b| b as u32).map_err(|e| value_error(text, key, None, format!("`{key}`: {}", literal::float_error_message(&t, FloatFormat::F32, e))))
            }
        }
        Value::String(s) => {
            let s = s.trim();
            // A quoted `010`, as a plain one (`refused_numbers`).
            if literal::leading_zero(&s.trim_start_matches(['-', '+']).replace('_', "")) {
                return Err(value_error(text, key, None, format!("`{key}`: {}", literal::int_error_message(s))));
            }
            // Bits are a 32-bit float's: `0f` and 8 hex digits, as in assembly
            // (`0f3F80` took the bits 0x3f80).
            if s.starts_with("0f") || s.starts_with("0F") {
                return literal::parse_float(s, FloatFormat::F32).map(|b| b as u32).map_err(|e| value_error(text, key, None, format!("`{key}`: {}", literal::float_error_message(s, FloatFormat::F32, e))));
            }
            let parsed = integer(s);
            match parsed {
                Some(x) => Ok(x),
                // The assembler's float spellings (`inf`, `-inf`), then a
                // float or a boolean in quotes, read as the scalar it holds.
                None => match literal::parse_float(s, FloatFormat::F32) {
                    Ok(b) => Ok(b as u32),
                    // `nan` says no NaN in particular, a decimal past the format's
                    // range rounds away, bits take no sign: the assembler's
                    // message, which says how to write them.
                    Err(e) if {
                        let body = s.trim_start_matches(['-', '+']);
                        body.eq_ignore_ascii_case("nan") || body.starts_with("0f") || body.starts_with("0F") || matches!(e, literal::FloatError::Overflow | literal::FloatError::Underflow)
                    } =>
                    {
                        Err(value_error(text, key, None, format!("`{key}`: {}", literal::float_error_message(s, FloatFormat::F32, e))))
                    }
                    Err(_) => match serde_yaml::from_str::<Value>(s) {
                        Ok(inner @ (Value::Number(_) | Value::Bool(_))) => word(text, key, lane, &inner, predicate),
                        _ => Err(bad()),
                    },
                },
            }
        }
        _ => Err(bad()),
    }
}

/// Sets the registers `v` names; each entry's error goes to `errors`.
fn regs(warp: &mut Warp, text: &str, v: &Value, errors: &mut Vec<RunError>) {
    let m = match v {
        Value::Mapping(m) => m,
        // `regs:` with nothing (or only comments) under it: no registers.
        Value::Null => return,
        _ => return errors.push(error(text, "regs", "`regs` maps register names to values")),
    };
    for (k, v) in m {
        if let Err(e) = reg(warp, text, k, v) {
            errors.push(e);
        }
    }
}

/// One entry of `regs`.
fn reg(warp: &mut Warp, text: &str, k: &Value, v: &Value) -> Result<(), RunError> {
    let Value::String(name) = k else {
        return Err(key_error(text, "regs", k, format!("`regs`: {} is not a register name (names are written `R1`, `P0`, `UR4`)", shown(k))));
    };
    let name = name.clone();
    let Some((file, idx)) = warp.parse_register(&name) else {
        return Err(error(text, &name, format!("`{name}` is not a register")));
    };
    let spec = warp.file_specs().nth(file).expect("parse_register returns a file index");
    if spec.is_constant(idx) {
        let named = spec.register_name(idx);
        let what = if named != name { format!("`{name}` is `{named}`, a constant register") } else { format!("`{name}` is a constant register") };
        return Err(error(text, &name, format!("{what}; it cannot be set")));
    }
    match v {
        Value::Sequence(items) => {
            if spec.warp {
                return Err(error(text, &name, format!("`{name}` is one register per warp: give one value")));
            }
            if items.len() != LANES {
                return Err(error(text, &name, format!("`{name}`: {} value{}; a per-lane list has {LANES}", items.len(), if items.len() == 1 { "" } else { "s" })));
            }
            for (lane, item) in items.iter().enumerate() {
                let x = value(text, &name, Some(lane), item, spec.predicate).map_err(|e| {
                    value_error(text, &name, Some(lane), format!("lane {lane}: {}", e.message))
                })?;
                warp.set(file, idx as u64, lane, x);
            }
        }
        _ => {
            let x = value(text, &name, None, v, spec.predicate)?;
            for lane in 0..LANES {
                warp.set(file, idx as u64, lane, x);
            }
        }
    }
    Ok(())
}

/// A register's value: a [`word`], or for a predicate true/false or 1/0.
fn value(text: &str, name: &str, lane: Option<usize>, v: &Value, predicate: bool) -> Result<u32, RunError> {
    let not_predicate = || value_error(text, name, None, format!("`{name}`: {} is not a predicate value (true/false or 1/0)", shown(v)));
    match word(text, name, lane, v, predicate) {
        Ok(x) if predicate && x > 1 => Err(not_predicate()),
        Err(_) if predicate => Err(not_predicate()),
        other => other,
    }
}

/// `c[bank][offset]` with integer bank and byte offset.
fn parse_cmem(name: &str) -> Option<(u64, u64)> {
    let rest = name.trim().strip_prefix("c[")?.strip_suffix(']')?;
    let (bank, offset) = rest.split_once("][")?;
    let int = |s: &str| {
        let s = s.trim();
        match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => s.parse().ok(),
        }
    };
    Some((int(bank)?, int(offset)?))
}

/// Writes the constant-memory words `v` names; each entry's error goes to
/// `errors`.
fn cmem(warp: &mut Warp, text: &str, v: &Value, errors: &mut Vec<RunError>) {
    let m = match v {
        Value::Mapping(m) => m,
        // `cmem:` with nothing under it: no words.
        Value::Null => return,
        _ => return errors.push(error(text, "cmem", "`cmem` maps `c[bank][offset]` to 32-bit words")),
    };
    // Two spellings of one address (`c[0x0][0x10]`, `c[0][16]`) are one key.
    let mut seen = std::collections::HashMap::new();
    for (k, v) in m {
        if let Err(e) = cmem_word(warp, text, k, v, &mut seen) {
            errors.push(e);
        }
    }
}

/// One entry of `cmem`; `seen`: the addresses before it, with their spelling.
fn cmem_word(warp: &mut Warp, text: &str, k: &Value, v: &Value, seen: &mut std::collections::HashMap<(u64, u64), String>) -> Result<(), RunError> {
    let Value::String(name) = k else {
        return Err(key_error(text, "cmem", k, format!("`cmem`: {} is not `c[bank][offset]`", shown(k))));
    };
    let name = name.clone();
    // Whole aligned words, inside the bank: what `dump` prints reads back as the same words.
    let Some((bank, offset)) = parse_cmem(&name).filter(|(b, o)| *b < 32 && *o < 1 << 17 && o % 4 == 0) else {
        return Err(error(text, &name, format!("`{name}` is not `c[bank][offset]` (bank < 32, byte offset < 0x20000 and a multiple of 4: the value is a 32-bit word)")));
    };
    if let Some(first) = seen.insert((bank, offset), name.clone()) {
        return Err(error(text, &name, format!("`{name}` and `{first}` are one address: each word is given once")));
    }
    let x = word(text, &name, None, v, false)?;
    warp.cmem.write(bank, offset, x).map_err(|e| error(text, &name, e.to_string()))?;
    Ok(())
}

/// The state as YAML (see the module documentation).
pub fn dump(warp: &Warp) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "active: {:#010x}", warp.active);
    let mut regs = String::new();
    for (file, spec) in warp.file_specs().enumerate() {
        for idx in 0..spec.count {
            if spec.is_constant(idx) {
                continue;
            }
            let lanes = if spec.warp { 1 } else { LANES };
            let vals: Vec<u32> = (0..lanes).map(|l| warp.get(file, idx as u64, l)).collect();
            if vals.iter().all(|&v| v == 0) {
                continue;
            }
            let show = |v: u32| if spec.predicate { (v != 0).to_string() } else { format!("{v:#010x}") };
            let name = spec.register_name(idx);
            if vals.iter().all(|&v| v == vals[0]) {
                let _ = writeln!(regs, "  {name}: {}", show(vals[0]));
            } else {
                // Eight lanes a line (lanes 0-7, 8-15, ...), aligned under the first.
                let items: Vec<String> = vals.iter().map(|&v| show(v)).collect();
                let pad = " ".repeat(name.len() + 5);
                let rows: Vec<String> = items.chunks(8).map(|c| c.join(", ")).collect();
                let _ = writeln!(regs, "  {name}: [{}]", rows.join(&format!(",\n{pad}")));
            }
        }
    }
    if regs.is_empty() {
        out.push_str("regs: {}\n");
    } else {
        out.push_str("regs:\n");
        out.push_str(&regs);
    }
    let words = warp.cmem.words();
    if words.is_empty() {
        out.push_str("cmem: {}\n");
    } else {
        out.push_str("cmem:\n");
        for (bank, offset, v) in words {
            let _ = writeln!(out, "  \"c[{bank:#x}][{offset:#x}]\": {v:#010x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_generated::sim::new_warp;

    /// The format `isa run --help` shows is a state, meaning what its comments say.
    #[test]
    fn the_documented_format_reads_as_it_says() {
        let mut w = new_warp();
        load(&mut w, FORMAT).unwrap();
        let reg = |name: &str| dump(&w).lines().find(|l| l.trim_start().starts_with(&format!("{name}:"))).map(|l| l.split_once(": ").unwrap().1.to_string());
        assert_eq!(reg("R0").as_deref(), Some("0x3f800000"));
        assert!(reg("R1").unwrap().starts_with("[0x00000000, 0x00000001,"));
        assert_eq!(reg("R2").as_deref(), Some("0x3fc00000"), "1.5 as binary32");
        assert_eq!(reg("R3").as_deref(), Some("0xff800000"), "-inf");
        assert_eq!(reg("P0").as_deref(), Some("true"));
        assert_eq!(reg("UR4").as_deref(), Some("0x00000008"));
        assert_eq!(w.cmem.read(0, 0x100), 0x3f80_0000);
    }

    #[test]
    fn a_constant_register_is_named_as_the_spec_names_it() {
        let mut w = new_warp();
        let e = load(&mut w, "regs:\n  P7: true\n").unwrap_err();
        assert!(e.message.starts_with("`P7` is `PT`, a constant register; it cannot be set"), "{}", e.message);
        let e = load(&mut w, "regs:\n  RZ: 1\n").unwrap_err();
        assert!(e.message.starts_with("`RZ` is a constant register"), "{}", e.message);
    }

    #[test]
    fn round_trips_and_reports_bad_input() {
        let text = "active: 0x0000ffff\nregs:\n  R0: 1.5\n  R3: -1\n  P1: true\n  UR2: 0x10\ncmem:\n  \"c[0x1][0x8]\": 7\n";
        let mut w = new_warp();
        load(&mut w, text).unwrap();
        assert_eq!(w.active, 0xFFFF);
        assert_eq!(w.lane(0, 0, 5), 0x3FC0_0000);
        assert_eq!(w.lane(0, 3, 31), 0xFFFF_FFFF);
        assert_eq!(w.cmem.read(1, 8), 7);
        let dumped = dump(&w);
        let mut again = new_warp();
        load(&mut again, &dumped).unwrap();
        assert_eq!(w, again);
        assert!(dumped.contains("R0: 0x3fc00000"), "{dumped}");
        // A string holds any of these: a float, a boolean, an integer.
        let mut q = new_warp();
        load(&mut q, "regs:\n  R9: \"1.5\"\n  P1: \"true\"\n  R4: \"-2\"\n").unwrap();
        assert_eq!((q.lane(0, 9, 0), q.lane(0, 4, 7)), (0x3FC0_0000, 0xFFFF_FFFE));
        assert_eq!(dump(&q).lines().find(|l| l.contains("P1")), Some("  P1: true"));
        // Predicates take true/false or 1/0; floats round to binary32, YAML's
        // infinities and NaN included.
        load(&mut w, "regs:\n  P0: 1\n  P1: false\n  R4: .inf\n  R5: -.inf\n  R6: 0.1\n").unwrap();
        assert_eq!((w.lane(2, 0, 7), w.lane(2, 1, 7)), (1, 0));
        assert_eq!((w.lane(0, 4, 0), w.lane(0, 5, 0), w.lane(0, 6, 0)), (0x7F80_0000, 0xFF80_0000, 0x3DCC_CCCD));
        // A decimal is rounded once to binary32, from the digits written (review
        // 50, F1). Expected bits: GNU MPFR (gmpy2, 24-bit precision, nearest
        // even), not this code. Rounding to f64 first gave 0x3f800001 for the
        // first two (one below the midpoint 1 + 2^-24, one on it) and refused
        // the third as rounding to zero; the fourth is just above the midpoint
        // 1 + 3 * 2^-24. FLT_MAX + half an ulp, a tie that rounds to infinity,
        // was taken as FLT_MAX.
        let mpfr = [("1.00000005960464477", 0x3F80_0000u32), ("1.000000059604644775390625", 0x3F80_0000), ("7.00649232162408535461864791644958065641e-46", 0x0000_0001), ("1.00000017881393432617187500001", 0x3F80_0002)];
        for (decimal, bits) in mpfr {
            let mut w = new_warp();
            load(&mut w, &format!("regs:\n  R1: {decimal}\n  R2: [{}{decimal}]\n  R3:\n{}    - {decimal}\n", "0, ".repeat(31), "    - 0\n".repeat(31))).unwrap();
            assert_eq!((w.lane(0, 1, 0), w.lane(0, 2, 31), w.lane(0, 3, 31)), (bits, bits, bits), "{decimal}");
        }
        let e = load(&mut new_warp(), "regs:\n  R1: 3.40282356779733661637539395458142568448e38\n").unwrap_err();
        assert!(e.message.contains("is out of range of a 32-bit float"), "{}", e.message);
        // `.nan` says no NaN either; bits are 8 hex digits, as in assembly (`0f3F80` took 0x3f80).
        let e = load(&mut new_warp(), "regs:\n  R1: .nan\n").unwrap_err();
        assert_eq!(e.message, "`R1`: `.nan` does not say which NaN: write its bits, such as `0f7FC00000` (the quiet NaN of a 32-bit float)");
        let e = load(&mut new_warp(), "regs:\n  R1: 0f3F80\n").unwrap_err();
        assert_eq!(e.message, "`R1`: `0f3F80` is not a 32-bit float: its bits are written `0f` and 8 hex digits (4 here)");
        // Read as text by YAML, these said only "not a 32-bit value" (review 51).
        let e = load(&mut new_warp(), "regs:\n  R1: 1e400\n").unwrap_err();
        assert!(e.message.starts_with("`R1`: `1e400` is out of range of a 32-bit float"), "{}", e.message);
        let e = load(&mut new_warp(), "regs:\n  R1: \"-0f3F800000\"\n").unwrap_err();
        assert_eq!(e.message, "`R1`: `-0f3F800000` is not a 32-bit float: bits take no sign; write `0fBF800000`");
        // `nan` names no NaN in particular: the assembler's advice (it was "not a 32-bit value").
        let e = load(&mut new_warp(), "regs:\n  R1: nan\n").unwrap_err();
        assert_eq!(e.message, "`R1`: `nan` does not say which NaN: write its bits, such as `0f7FC00000` (the quiet NaN of a 32-bit float)");
        let e = load(&mut new_warp(), "regs:\n  P0: 7\n").unwrap_err();
        assert_eq!(e.message, "`P0`: `7` is not a predicate value (true/false or 1/0)");
        let lanes = format!("regs:\n  R1: [{}abc]\n", "1, ".repeat(31));
        let e = load(&mut new_warp(), &lanes).unwrap_err();
        assert_eq!(e.message, "lane 31: `R1`: `abc` is not a 32-bit value");
        assert_eq!(e.span, Some((lanes.find("abc").unwrap(), 3)));
        // Items over several lines, and a value on the key's line of a flow map.
        let text = format!("regs: {{R1: [0, 1,\n  2, x3, {}4]}}\n", "4, ".repeat(27));
        let text = text.as_str();
        let e = load(&mut new_warp(), text).unwrap_err();
        assert_eq!((e.message.as_str(), e.span), ("lane 3: `R1`: `x3` is not a 32-bit value", Some((text.find("x3").unwrap(), 2))));
        let text = "regs: {R0: 1, R1: zz}\n";
        assert_eq!(load(&mut new_warp(), text).unwrap_err().span, Some((text.find("zz").unwrap(), 2)));
        let e = load(&mut new_warp(), "regs:\n  R0: 1.0e39\n").unwrap_err();
        // The number as written (it was quoted as f64 prints it, `1e39`).
        assert!(e.message.starts_with("`R0`: `1.0e39` is out of range of a 32-bit float"), "{}", e.message);

        for (bad, what) in [
            ("regs:\n  R999: 1\n", "R999"),
            ("regs:\n  RZ: 1\n", "RZ"),
            ("regs:\n  UR1: [1, 2]\n", "UR1"),
            ("regs:\n  R1: [1, 2]\n", "R1"),
            ("regs:\n  R1: 0x1_0000_0000\n", "0x1_0000_0000"),
            ("cmem:\n  c[0x40][0]: 1\n", "c[0x40][0]"),
            ("cmem:\n  c[0x0][0x1FFFF]: 1\n", "c[0x0][0x1FFFF]"),
            ("cmem:\n  c[0x0][0x101]: 1\n", "c[0x0][0x101]"),
            ("bogus: 1\n", "bogus"),
            ("regs: [\n", ""),
            ("regs:\n  P2: 7\n", "7"),
            ("regs:\n  R2: 1.0e39\n", "1.0e39"),
            ("regs:\n  R2: 1.0e-50\n", "1.0e-50"),
            ("regs:\n  R10: 1\n  R1: abc\n", "abc"),
            ("# R1x here\nactive: 1\nregs: {R1: 1, R1x: 2}\n", "R1x: 2"),
            ("active: 1.5\n", "1.5"),
            ("active: true\n", "true"),
            ("active: 0f3F800000\n", "0f3F800000"),
            ("active: \"1.5\"\n", "\"1.5\""),
            ("active: \"true\"\n", "\"true\""),
            ("active: \"0f3F800000\"\n", "\"0f3F800000\""),
            ("regs: {0x10: 5}\n", "regs"),
            ("regs:\n  7: 5\n", "7"),
            ("cmem: {7: 5}\n", "7"),
            ("cmem:\n  12: 5\n", "12"),
            ("# a comment\n42\n", "4"),
            ("- 1\n", "-"),
            ("? [a, b]\n: 1\n", "?"),
            ("cmem:\n  c[0x0][0x10]: 1\n  c[0][16]: 2\n", "c[0][16]"),
        ] {
            let e = load(&mut new_warp(), bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::State);
            if !what.is_empty() {
                let (at, len) = e.span.unwrap_or_else(|| panic!("{bad}: no span: {}", e.message));
                assert_eq!(&bad[at..], &bad[bad.find(what).unwrap()..], "{bad}: {}", e.message);
                assert_eq!(len, what.split(':').next().unwrap().len(), "{}", e.message);
            } else {
                assert!(e.span.is_some(), "{}", e.message);
            }
        }
    }

    #[test]
    fn quoted_and_assembler_spellings_and_empty_sections() {
        let mut w = new_warp();
        load(&mut w, "active: \"0x10\"\nregs:\n  R1: inf\n  R2: -inf\n  R3: \"1.5\"\n").unwrap();
        assert_eq!(w.active, 0x10);
        assert_eq!((w.lane(0, 1, 0), w.lane(0, 2, 0), w.lane(0, 3, 0)), (0x7F80_0000, 0xFF80_0000, 0x3FC0_0000));
        // Sections with nothing (or only comments) under them are empty.
        // `_` separates digits in decimal as in hex.
        load(&mut w, "regs:\n  R1: 1_000\n  R2: 0xffff_0000\n  R3: -1_0\n").unwrap();
        assert_eq!((w.lane(0, 1, 0), w.lane(0, 2, 0), w.lane(0, 3, 0)), (1000, 0xFFFF_0000, (-10i32) as u32));
        assert!(load(&mut new_warp(), "regs:\n  R1: _1\n").is_err());
        let mut e = new_warp();
        load(&mut e, "regs:\n  # R1: 1\ncmem:\n").unwrap();
        assert_eq!(e, new_warp());
    }

    #[test]
    fn every_entry_is_checked() {
        let text = "regs:\n  R1: abc\n  R2: 5\n  Q7: 1\ncmem:\n  c[0x40][0]: 1\nactive: 1.5\n";
        let mut w = new_warp();
        let errors = load_all(&mut w, text).unwrap_err();
        let places: Vec<usize> = errors.iter().map(|e| e.span.unwrap().0).collect();
        assert_eq!(places, ["abc", "Q7", "c[0x40]", "1.5"].map(|t| text.find(t).unwrap()));
        assert_eq!(w.lane(0, 2, 0), 5, "the good entries are loaded");
    }

    #[test]
    fn errors_the_parser_gives_no_place_get_one() {
        let at = |text: &str| {
            let e = load(&mut new_warp(), text).unwrap_err();
            (e.span.map(|(at, _)| at), e.message)
        };
        let text = "active: 0xff\nregs:\n  R1: 1\n  R2: 2\n  R1: 4\n";
        assert_eq!(at(text), (text.rfind("R1"), "`R1` is given twice in `regs`".to_string()));
        let text = "active: 1\nactive: 2\n";
        assert_eq!(at(text), (text.rfind("active"), "`active` is given twice".to_string()));
        let text = "regs: {R1: 1}\u{0}\n";
        assert_eq!(at(text), (text.find('\u{0}'), "not YAML: control characters are not allowed".to_string()));
        for text in ["a: 1\n---\nb: 2\n", "---\na: 1\n---\nb: 2\n"] {
            assert_eq!(at(text), (text.rfind("---"), "a state is one YAML document: a second one starts here".to_string()));
        }
        // Deep nesting is refused before the parser (whose time grows with
        // the square of the depth) sees it; quoted and commented brackets
        // do not count.
        let text = format!("regs: {}", "[".repeat(100_000));
        assert_eq!(at(&text).0, Some(6 + MAX_FLOW_DEPTH));
        assert_eq!(too_deep(&format!("# {}\nregs: {{R1: '{}'}}\n", "[".repeat(100), "[".repeat(100))), None);
    }

    #[test]
    fn yaml_errors_say_what_and_leave_the_place_to_the_caret() {
        let e = load(&mut new_warp(), "regs: {R0: 1\n").unwrap_err();
        assert_eq!(e.message, "not YAML: did not find expected ',' or '}'");
        assert!(e.span.is_some());
        // Valid YAML, but beyond what the parser's numbers hold: the whole
        // number marked, and the other entries still checked.
        let text = "regs: {R0: 99999999999999999999999999999, R1: x, P9: 1}\n";
        let errors = load_all(&mut new_warp(), text).unwrap_err();
        let said: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(said, ["`99999999999999999999999999999` is too large: a register or constant word holds 32 bits", "`R1`: `x` is not a 32-bit value", "`P9` is not a register"]);
        assert_eq!(errors[0].span, Some((text.find('9').unwrap(), 29)));
    }

    #[test]
    fn a_key_without_text_of_its_own_is_marked_at_the_key() {
        for (text, key) in [
            ("regs:\n  R2: 5\n  ~: 3\n", "~"),
            ("regs:\n  R2: 5\n  null : 3\n", "null"),
            ("regs:\n  R2: 5\n  [1, 2]: 3\n", "["),
            ("regs:\n  R2: 5\n  ? {a: 1}\n  : 3\n", "?"),
        ] {
            let e = load(&mut new_warp(), text).unwrap_err();
            assert_eq!(e.span, Some((text.find(key).unwrap(), key.len())), "{text:?}: {}", e.message);
        }
    }

    #[test]
    fn a_bad_item_of_a_block_list_is_marked_at_the_item() {
        let items: String = (0..32).map(|k| if k == 5 { "    - x\n".to_string() } else { format!("    - {k}\n") }).collect();
        let text = format!("regs:\n  R1:\n{items}  R2: 7\n");
        let e = load(&mut new_warp(), &text).unwrap_err();
        assert_eq!((e.message.as_str(), e.span), ("lane 5: `R1`: `x` is not a 32-bit value", Some((text.find("- x").unwrap() + 2, 1))));
    }

    #[test]
    fn leading_zeros_booleans_and_lists_are_refused_as_the_assembler_would() {
        // `010`: YAML 1.1 tools read octal 8, this reader would read 10.
        let text = "regs: {R1: 010, R2: 0017, R3: '010'}\ncmem: {\"c[0x0][0x0]\": -010}\n# 010 in a comment\n";
        let errors = load_all(&mut new_warp(), text).unwrap_err();
        let at: Vec<usize> = errors.iter().filter_map(|e| e.span.map(|s| s.0)).collect();
        assert_eq!(at, [text.find("010").unwrap(), text.find("0017").unwrap(), text.find("'010").unwrap(), text.find("-010").unwrap()], "{errors:?}");
        assert!(errors[0].message.starts_with("`010` starts with 0: octal is not read here"), "{errors:?}");
        // Booleans are predicate values only; a list is named, not echoed.
        let lanes = format!("[[1, 2, 3]{}]", ", 0".repeat(31));
        let errors = load_all(&mut new_warp(), &format!("regs: {{R1: true, P0: true, P1: yes, R2: {lanes}}}\n")).unwrap_err();
        let said: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(said, ["`R1`: `true` is not a 32-bit value", "`P1`: `yes` is not a predicate value (true/false or 1/0)", "lane 0: `R2`: a list is not a 32-bit value"]);
    }
}
