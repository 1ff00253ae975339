//! Text made safe to show on a terminal: what diagnostics echo from a user's
//! file (a snippet, a name in a message) must not carry terminal control
//! sequences or reorder itself. Shared by `isa-dsl`'s diagnostics and the
//! `isa` tool's.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is: control characters
/// (ESC starts colour and cursor sequences) other than tab and line ends,
/// the bidirectional overrides that make text read other than it runs, and
/// the invisible ones (zero-width spaces and joiners, direction marks, a
/// byte-order mark inside the text), which a message would quote as nothing.
pub fn unprintable(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{061C}')
}

/// `s` with each [`unprintable`] character replaced by one `?` per byte, so
/// byte offsets (spans) stay valid; borrowed when there is none.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unprintable) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if unprintable(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What `c`, an [`unprintable`] character, is: its code point and name,
/// as a note names it (`U+200B ZERO WIDTH SPACE`).
pub fn describe(c: char) -> String {
    let name = match c {
        '\0' => "NULL",
        '\u{7}' => "BELL",
        '\u{8}' => "BACKSPACE",
        '\u{B}' => "LINE TABULATION",
        '\u{C}' => "FORM FEED",
        '\u{1B}' => "ESCAPE",
        '\u{7F}' => "DELETE",
        '\u{85}' => "NEXT LINE",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}' => "FUNCTION APPLICATION",
        '\u{2062}' => "INVISIBLE TIMES",
        '\u{2063}' => "INVISIBLE SEPARATOR",
        '\u{2064}' => "INVISIBLE PLUS",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{FEFF}' => "BYTE ORDER MARK",
        '\u{61C}' => "ARABIC LETTER MARK",
        _ if c.is_control() => "a control character",
        _ => "",
    };
    if name.is_empty() {
        format!("U+{:04X}", c as u32)
    } else if name.starts_with("a ") {
        format!("U+{:04X} ({name})", c as u32)
    } else {
        format!("U+{:04X} {name}", c as u32)
    }
}

/// At most this many characters are named in one note; the rest are counted.
const NAMED_AT_MOST: usize = 4;

/// A note naming the [`unprintable`] characters a diagnostic shows as `?`:
/// those of `line` (the number and text of the source line its caret is
/// on) with their columns as the snippet shows them, else those of `quoted`
/// (its message and label, which may quote text from elsewhere). `None`
/// when there are none.
pub fn hidden_note(line: Option<(usize, &str)>, quoted: &[&str]) -> Option<String> {
    let list = |found: Vec<String>| {
        let more = found.len().saturating_sub(NAMED_AT_MOST);
        let mut text = found.into_iter().take(NAMED_AT_MOST).collect::<Vec<_>>().join(", ");
        if more > 0 {
            text += &format!(" and {more} more");
        }
        text
    };
    if let Some((number, line)) = line {
        let mut column = 1;
        let mut found = Vec::new();
        for c in line.chars() {
            if unprintable(c) {
                found.push(format!("{} at column {column}", describe(c)));
            }
            // The snippet shows such a character as one `?` per byte.
            column += if unprintable(c) { c.len_utf8() } else { 1 };
        }
        if !found.is_empty() {
            return Some(format!("line {number} holds characters that do not show, each byte as `?`: {}", list(found)));
        }
    }
    let mut found: Vec<String> = Vec::new();
    for c in quoted.iter().flat_map(|q| q.chars()).filter(|&c| unprintable(c)) {
        let d = describe(c);
        if !found.contains(&d) {
            found.push(d);
        }
    }
    (!found.is_empty()).then(|| format!("the message quotes characters that do not show, each byte as `?`: {}", list(found)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_overrides_become_one_question_mark_per_byte() {
        assert!(matches!(printable("MOV R1, R2 // ok\tx\r\n"), Cow::Borrowed(_)));
        let shown = printable("a\u{1b}[31mb\u{202E}c\u{85}d");
        assert_eq!(shown, "a?[31mb???c??d");
        assert_eq!(shown.len(), "a\u{1b}[31mb\u{202E}c\u{85}d".len(), "offsets stay valid");
        // Invisible characters are shown, not quoted as nothing.
        assert_eq!(printable("R2 ;\u{200B}"), "R2 ;???");
        assert_eq!(printable("a\u{FEFF}b"), "a???b");
    }

    #[test]
    fn a_note_names_each_hidden_character_where_the_snippet_shows_it() {
        assert_eq!(hidden_note(Some((1, "MOV R1, R2 ;")), &["unknown `MOV`"]), None);
        // Columns count the `?`s before: three for a zero-width space.
        assert_eq!(
            hidden_note(Some((2, "IADD3\u{200B} R1,\u{0} R2")), &[]).as_deref(),
            Some("line 2 holds characters that do not show, each byte as `?`: U+200B ZERO WIDTH SPACE at column 6, U+0000 NULL at column 13")
        );
        // Not on the line: named once each, from the message.
        assert_eq!(
            hidden_note(Some((1, "x")), &["`a\u{FEFF}b` and `\u{FEFF}`", "\u{1}"]).as_deref(),
            Some("the message quotes characters that do not show, each byte as `?`: U+FEFF BYTE ORDER MARK, U+0001 (a control character)")
        );
        let many = "\u{200B}".repeat(6);
        assert!(hidden_note(Some((1, &many)), &[]).unwrap().ends_with("U+200B ZERO WIDTH SPACE at column 10 and 2 more"));
        assert_eq!(describe('\u{E000}'), "U+E000");
    }
}
