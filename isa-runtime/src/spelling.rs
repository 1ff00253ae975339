//! "Did you mean" hints: the nearest known spelling of a misspelt name. Shared
//! by the front end's diagnostics and both assemblers, so every hint follows
//! one rule: case-insensitive edit distance counting a swap of two neighbours
//! as one edit, at most a third of the name; ties go to a candidate the name
//! begins or ends (`HADD` -> `HADD2`), then to the closest length. Also the
//! ASCII character a full-width one stands for, as an input method types
//! them (`；` for `;`), for the hint that names it.

/// The ASCII character a full-width or CJK punctuation character stands
/// for (`，` for `,`, `；` for `;`, `２` for `2`).
pub fn ascii_of_full_width(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{3000}' => Some(' '),
        '、' => Some(','),
        '。' => Some('.'),
        '“' | '”' => Some('"'),
        '‘' | '’' => Some('\''),
        '【' => Some('['),
        '】' => Some(']'),
        _ => None,
    }
}

/// `text` with its full-width characters read as ASCII ([`ascii_of_full_width`]).
pub fn as_ascii(text: &str) -> String {
    text.chars().map(|c| ascii_of_full_width(c).unwrap_or(c)).collect()
}

/// What a line of assembly holding a full-width character (before any `//`
/// comment) gets added to its error: `the line holds `；` (U+FF1B), the
/// full-width form of `;``. An ideographic space is not named: the lexer
/// reads it as a space, so it causes nothing.
pub fn full_width_hint(line: &str) -> Option<String> {
    let code = line.split("//").next().unwrap_or("");
    let (c, a) = code.chars().filter(|&c| c != '\u{3000}').find_map(|c| ascii_of_full_width(c).map(|a| (c, a)))?;
    Some(format!("the line holds `{c}` (U+{:04X}), the full-width form of `{a}`", c as u32))
}

/// The candidate closest to `name` by edit distance, if reasonably close;
/// never `name` itself (a name that is there needs no hint: a caller asking
/// was confused by something else, such as a broken declaration).
pub fn nearest<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    let limit = name.len().max(2) / 3 + 1;
    let lower = name.to_ascii_lowercase();
    let a: Vec<char> = lower.chars().collect();
    let mut best: Option<((usize, bool, usize), &str)> = None;
    for c in candidates.filter(|c| *c != name) {
        let lc = c.to_ascii_lowercase();
        let b: Vec<char> = lc.chars().collect();
        // The distance is at least the difference in length: a name far
        // longer or shorter than the candidate costs nothing to rule out.
        if a.len().abs_diff(b.len()) > limit {
            continue;
        }
        if let Some(d) = edit_distance(&a, &b, limit) {
            let related = lc.starts_with(&lower) || lower.starts_with(&lc);
            let rank = (d, !related, a.len().abs_diff(b.len()));
            if best.is_none_or(|(br, bc)| (rank, c) < (br, bc)) {
                best = Some((rank, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// Whether `a` and `b` differ by at most one edit, case aside (a letter
/// added, dropped, changed, or two neighbours swapped): a typo of the other.
pub fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.to_ascii_lowercase().chars().collect(), b.to_ascii_lowercase().chars().collect());
    edit_distance(&a, &b, 1).is_some()
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions,
/// and swaps of two neighbours), or `None` once it must exceed `limit`
/// (every entry of two rows above it: no later row can come back under).
fn edit_distance(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                cur[j + 1] = cur[j + 1].min(before[j - 1] + 1);
            }
        }
        if cur.iter().all(|&d| d > limit) && prev.iter().all(|&d| d > limit) {
            return None;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_punctuation_maps_to_ascii() {
        assert_eq!(ascii_of_full_width('，'), Some(','));
        assert_eq!(ascii_of_full_width('；'), Some(';'));
        assert_eq!(ascii_of_full_width('（'), Some('('));
        assert_eq!(ascii_of_full_width('２'), Some('2'));
        assert_eq!(ascii_of_full_width('、'), Some(','));
        assert_eq!(ascii_of_full_width('\u{3000}'), Some(' '));
        assert_eq!(ascii_of_full_width('a'), None);
        assert_eq!(ascii_of_full_width('字'), None);
        assert_eq!(full_width_hint("IADD R1，R2;").as_deref(), Some("the line holds `，` (U+FF0C), the full-width form of `,`"));
        assert_eq!(full_width_hint("IADD R1, R2; // 中文注释，结果"), None);
        assert_eq!(full_width_hint("IADD R1, R2;\u{3000}// 注释"), None);
    }

    /// The textbook distance (optimal string alignment: a swap of two
    /// neighbours is one edit), for comparison.
    fn plain(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                d[i][j] = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1])).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    proptest::proptest! {
        /// Bounded, the distance is the textbook one wherever it is within the limit.
        #[test]
        fn bounded_distance_is_the_distance(a in "[abcé]{0,12}", b in "[abcé]{0,12}", limit in 0usize..8) {
            let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let want = plain(&a, &b);
            proptest::prop_assert_eq!(edit_distance(&ca, &cb, limit), (want <= limit).then_some(want));
        }
    }

    #[test]
    fn hints_are_close_and_case_insensitive() {
        let names = ["FFMA", "FMUL", "FADD", "IMAD.WIDE"];
        assert_eq!(nearest("FMULL", names.iter().copied()), Some("FMUL"));
        assert_eq!(nearest("ffma", names.iter().copied()), Some("FFMA"));
        assert_eq!(nearest("XYZW", names.iter().copied()), None);
        // A swap is one edit; a name that begins a candidate wins a tie.
        let names = ["ISET", "ISETP", "FADD", "HADD2"];
        assert_eq!(nearest("ISTEP", names.iter().copied()), Some("ISETP"));
        assert_eq!(nearest("HADD", names.iter().copied()), Some("HADD2"));
        // A huge name is ruled out by its length alone (this took seconds).
        let huge = "A".repeat(1 << 20);
        assert_eq!(nearest(&huge, names.iter().copied()), None);
        // Never the name itself (helper-24: "`$sched` ...; did you mean `$sched`?").
        assert_eq!(nearest("ISET", names.iter().copied()), Some("ISETP"));
        assert_eq!(nearest("FADD", ["FADD"].into_iter()), None);
    }
}
