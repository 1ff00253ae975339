//! "Did you mean" hints: the nearest known spelling of a misspelt name. Shared
//! by the front end's diagnostics and both assemblers, so every hint follows
//! one rule (case-insensitive edit distance, at most a third of the name).

/// The candidate closest to `name` by edit distance, if reasonably close.
pub fn nearest<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    let limit = name.len().max(2) / 3 + 1;
    let a: Vec<char> = name.to_ascii_lowercase().chars().collect();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let b: Vec<char> = c.to_ascii_lowercase().chars().collect();
        // The distance is at least the difference in length: a name far
        // longer or shorter than the candidate costs nothing to rule out.
        if a.len().abs_diff(b.len()) > limit {
            continue;
        }
        if let Some(d) = edit_distance(&a, &b, limit) {
            if best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
                best = Some((d, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// The edit distance of `a` and `b`, or `None` once it must exceed `limit`
/// (every entry of a row above it: the rows never decrease).
fn edit_distance(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        if cur.iter().all(|&d| d > limit) {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook distance, for comparison.
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
        // A huge name is ruled out by its length alone (this took seconds).
        let huge = "A".repeat(1 << 20);
        assert_eq!(nearest(&huge, names.iter().copied()), None);
    }
}
