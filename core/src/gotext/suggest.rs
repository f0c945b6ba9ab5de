//! HCL's "Did you mean" name suggestions (`nameSuggestion`: edit distance below 3), for
//! every module that words a diagnostic the way HCL does.

/// The first of `candidates` within edit distance 2 of `given`, as HCL suggests names.
pub(crate) fn name_suggestion<'a>(given: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates.iter().copied().find(|c| distance(given, c) < 3)
}

/// Levenshtein distance counted in Unicode scalar values, unit costs.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(
            name_suggestion("versoin", &["version", "hashes"]),
            Some("version")
        );
        assert_eq!(name_suggestion("doodad", &["provider", "module"]), None);
    }
}
