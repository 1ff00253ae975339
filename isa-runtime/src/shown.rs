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
}
