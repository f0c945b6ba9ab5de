//! A plain-text container for a module directory, so one fuzz input holds several files and
//! the seed corpus can be made from fixture directories by concatenation.
//!
//! Format: sections that each start with a line `--- <file name>`; the bytes up to the next
//! such line are the file. Input without a first header line is one file, `main.tf`.

const HEADER: &[u8] = b"--- ";

/// Splits a container into `(name, bytes)` pairs (names with a `/` lose their directories,
/// as `load_module` takes one directory's file names).
pub fn unpack_files(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    if !data.starts_with(HEADER) {
        return vec![("main.tf".to_owned(), data.to_vec())];
    }
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for section in split_sections(data) {
        let rest = &section[HEADER.len()..];
        let (name, body) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let name = String::from_utf8_lossy(name);
        let name = name
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        out.push((name, body.to_vec()));
    }
    out
}

/// Joins files into the container [`unpack_files`] reads.
pub fn pack_files<N: AsRef<str>, B: AsRef<[u8]>>(files: &[(N, B)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (name, body)) in files.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        out.extend_from_slice(HEADER);
        out.extend_from_slice(name.as_ref().as_bytes());
        out.push(b'\n');
        out.extend_from_slice(body.as_ref());
    }
    out
}

/// The sections of `data`, each starting with a header (the newline before a header ends
/// the previous file).
fn split_sections(data: &[u8]) -> Vec<&[u8]> {
    let mut starts = vec![0];
    let mut i = 0;
    while let Some(off) = data[i..]
        .windows(HEADER.len() + 1)
        .position(|w| w[0] == b'\n' && &w[1..] == HEADER)
    {
        starts.push(i + off + 1);
        i += off + 1;
    }
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let end = starts.get(k + 1).map_or(data.len(), |&e| e - 1);
            &data[s..end]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_then_unpack_gives_the_files_back() {
        let files = vec![
            ("main.tf".to_owned(), b"a = 1\n".to_vec()),
            ("x_override.tf".to_owned(), b"b = 2\n--x\n".to_vec()),
        ];
        assert_eq!(unpack_files(&pack_files(&files)), files);
    }

    #[test]
    fn input_without_header_is_main_tf() {
        assert_eq!(
            unpack_files(b"x = 1"),
            vec![("main.tf".to_owned(), b"x = 1".to_vec())]
        );
    }
}
