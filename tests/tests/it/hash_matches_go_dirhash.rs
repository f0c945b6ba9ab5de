//! Differential test: tflock's `h1:`/`zh:` against Go's own `golang.org/x/mod/sumdb/dirhash`
//! and `archive/zip` (the oracle in `tests/oracles/dirhash`), on generated zips and
//! directories, through the whole-bytes API and the streaming API with random chunk sizes.

use crate::hash_common::{crate_zip, hand_zip, random_content, random_name, Entry, Method, Writer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tflock_core::hash::{hash_files, hash_zip, hash_zip_reader, HashError, ZipHasher, ZipLimits};

const ZIP_CASES: usize = 600;
const DIR_CASES: usize = 120;
const EMPTY_DIR_H1: &str = "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";

/// The fixed seed, unless `HASH_TEST_SEED` asks for another run (for exploring:
/// `HASH_TEST_SEED=<n> cargo test -p tflock-tests --test it -- hash_matches_go_dirhash::`).
fn seed(default: u64) -> u64 {
    std::env::var("HASH_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

struct Oracle {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let mut child = Command::new(tflock_tests::oracle("dirhash"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start dirhash oracle");
        let out = BufReader::new(child.stdout.take().expect("oracle stdout"));
        Oracle { child, out }
    }

    fn ask(&mut self, fields: &[&str]) -> Result<String, String> {
        let stdin = self.child.stdin.as_mut().expect("oracle stdin");
        writeln!(stdin, "{}", fields.join("\t")).expect("write to oracle");
        stdin.flush().expect("flush oracle");
        let mut line = Vec::new();
        self.out.read_until(b'\n', &mut line).expect("read oracle");
        // Go's messages may quote non-UTF-8 entry names byte for byte.
        let line = String::from_utf8_lossy(&line)
            .trim_end_matches('\n')
            .to_owned();
        match line.strip_prefix("error: ") {
            Some(e) => Err(e.to_owned()),
            None => Ok(line),
        }
    }
}

struct ZipCase {
    label: String,
    bytes: Vec<u8>,
    /// The stream cannot know where a stored entry with a data descriptor ends.
    stream_may_need_random_access: bool,
}

fn random_zip_case(rng: &mut StdRng, i: usize) -> ZipCase {
    let writer = match i % 3 {
        0 => Writer::ZipCrate,
        1 => Writer::ZipCrateStream,
        _ => Writer::Hand,
    };
    let n = rng.gen_range(0..=7);
    let mut entries: Vec<Entry> = Vec::new();
    let mut names = std::collections::HashSet::new();
    for _ in 0..n {
        let mut name = random_name(rng);
        match rng.gen_range(0..100) {
            // Rare hostile or odd names.
            0 => name = format!("{name}/../x"),
            1 => name = format!("/{name}"),
            2 => name = format!("./{name}"),
            3 => name = format!("{name}\nnewline"),
            _ => {}
        }
        let dir = rng.gen_range(0..100) < 15;
        let mut e = if dir {
            // The hand writer may mark a directory by mode bits only.
            let slash = writer != Writer::Hand || rng.gen_bool(0.7);
            Entry::dir(&if slash {
                format!("{name}/")
            } else {
                name.clone()
            })
        } else {
            Entry::file(&name, &random_content(rng, i % 40 == 7))
        };
        if !dir && rng.gen_bool(0.4) {
            e.method = Method::Stored;
        }
        e.zip64 = rng.gen_range(0..100) < 12;
        if writer == Writer::Hand {
            e.descriptor = rng.gen_bool(0.3);
        }
        // Mostly keep a consistent tree (a few file/directory clashes stay, to compare errors).
        let bare = e.name.trim_end_matches('/').to_owned();
        let clash = names.iter().any(|k: &String| {
            let k = k.trim_end_matches('/');
            bare.starts_with(&format!("{k}/")) || k.starts_with(&format!("{bare}/"))
        });
        if clash && rng.gen_range(0..100) < 90 {
            continue;
        }
        let dup = !names.insert(e.name.clone());
        if dup && writer != Writer::Hand {
            continue; // the zip crate refuses duplicate names
        }
        entries.push(e);
    }
    if writer == Writer::Hand && !entries.is_empty() && rng.gen_bool(0.2) {
        // A later duplicate with different content.
        let mut again = entries[rng.gen_range(0..entries.len())].clone();
        again.content = random_content(rng, false);
        again.dir = false;
        again.method = Method::Deflated;
        entries.push(again);
    }
    let bytes = match writer {
        Writer::ZipCrate => crate_zip(&entries, false),
        Writer::ZipCrateStream => crate_zip(&entries, true),
        Writer::Hand => hand_zip(&entries),
    };
    let stream_may_need_random_access = entries.iter().any(|e| {
        e.method == Method::Stored && (e.descriptor || (writer == Writer::ZipCrateStream && !e.dir))
    });
    ZipCase {
        label: format!(
            "case {i} ({writer:?}): {:?}",
            entries.iter().map(|e| &e.name).collect::<Vec<_>>()
        ),
        bytes,
        stream_may_need_random_access,
    }
}

fn stream_in_random_chunks(
    bytes: &[u8],
    rng: &mut StdRng,
) -> Result<tflock_core::hash::ZipHashes, HashError> {
    let mut h = ZipHasher::new();
    let mut at = 0;
    let tiny = rng.gen_bool(0.1) && bytes.len() < 200_000;
    while at < bytes.len() {
        let n = if tiny {
            rng.gen_range(1..=7)
        } else {
            rng.gen_range(1..=70_000)
        };
        let end = (at + n).min(bytes.len());
        h.update(&bytes[at..end])?;
        at = end;
    }
    h.finish()
}

fn check_zip_case(
    case: &ZipCase,
    path: &Path,
    work: &Path,
    oracle: &mut Oracle,
    rng: &mut StdRng,
) -> usize {
    let label = &case.label;
    let archive = oracle.ask(&["zip", path.to_str().unwrap()]);
    let unzip_dir = work.join("x");
    let lock = oracle.ask(&["unzip", path.to_str().unwrap(), unzip_dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&unzip_dir);
    let ours = hash_zip(&case.bytes);
    let mut compared = 0;
    match (&archive, &lock, &ours) {
        (Ok(a), Ok(l), Ok(o)) => {
            assert_eq!(&o.h1_archive.to_string(), a, "{label}: archive form");
            assert_eq!(&o.h1.to_string(), l, "{label}: lock-file form");
            compared += 2;
        }
        (Ok(a), Err(e), Ok(o)) if e.starts_with("empty archive") => {
            // Documented: go-getter refuses empty zips; tflock hashes them as an empty dir.
            assert_eq!(&o.h1_archive.to_string(), a, "{label}");
            assert_eq!(o.h1.to_string(), EMPTY_DIR_H1, "{label}");
            compared += 1;
        }
        (_, Err(e), Err(ours_err)) if e.starts_with("entry contains '..'") => {
            assert_eq!(&ours_err.to_string(), e, "{label}: go-getter's text");
        }
        (Err(_), _, Err(_)) | (_, Err(_), Err(_)) => {
            if std::env::var_os("HASH_TEST_VERBOSE").is_some() {
                eprintln!("{label}: Go {archive:?} / {lock:?}; tflock {ours:?}");
            }
        }
        _ => panic!("{label}: Go said archive={archive:?} lock={lock:?}, tflock said {ours:?}"),
    }
    if let Ok(o) = &ours {
        let zh = format!("zh:{}", hex::encode(Sha256::digest(&case.bytes)));
        assert_eq!(o.zh.to_string(), zh, "{label}: zh");
    }
    // Streaming, in random chunks: the same answer, or (only where documented) a request
    // to use random access, whose answer must then be the same.
    match stream_in_random_chunks(&case.bytes, rng) {
        Err(e) if e.needs_random_access() => {
            assert!(
                case.stream_may_need_random_access,
                "{label}: unexpected fallback: {e}"
            );
            let again = hash_zip_reader(
                &mut std::io::Cursor::new(&case.bytes),
                &ZipLimits::default(),
            );
            assert_eq!(again, ours, "{label}: random-access reader");
        }
        streamed => match (&streamed, &ours) {
            (Ok(s), Ok(o)) => assert_eq!(s, o, "{label}: streamed"),
            (Err(_), Err(_)) => {}
            _ => panic!("{label}: streamed {streamed:?} but whole {ours:?}"),
        },
    }
    compared
}

#[test]
fn zips_hash_like_go_dirhash_and_terraform_extraction() {
    let mut oracle = Oracle::start();
    let work = tempfile::tempdir().expect("tempdir");
    let mut rng = StdRng::seed_from_u64(seed(0x7f10c4));
    let (mut ok, mut errors) = (0, 0);
    for i in 0..ZIP_CASES {
        let case = random_zip_case(&mut rng, i);
        let path = work.path().join(format!("case{i}.zip"));
        std::fs::write(&path, &case.bytes).expect("write zip");
        let n = check_zip_case(&case, &path, work.path(), &mut oracle, &mut rng);
        if n > 0 {
            ok += 1;
        } else {
            errors += 1;
        }
        std::fs::remove_file(&path).ok();
    }
    eprintln!("{ok} zips hashed identically to Go, {errors} rejected by both");
    assert!(ok >= 520, "too few successful comparisons: {ok}");
}

#[test]
fn zip64_entries_via_the_zip_crate_match_go() {
    let mut oracle = Oracle::start();
    let work = tempfile::tempdir().expect("tempdir");
    let mut rng = StdRng::seed_from_u64(64);
    for i in 0..20 {
        let mut entries = vec![
            Entry::file(
                "terraform-provider-big_v0.0.1",
                &crate::hash_common::binary_content(&mut rng, 3 << 20),
            ),
            Entry::file(
                "LICENSE",
                &crate::hash_common::text_content(&mut rng, 16_000),
            ),
            Entry::dir("docs/"),
            Entry::file("docs/README.md", b""),
        ];
        for e in &mut entries {
            e.zip64 = true;
            if i % 2 == 1 && !e.dir {
                e.method = Method::Stored;
            }
        }
        let case = ZipCase {
            label: format!("zip64 case {i}"),
            bytes: crate_zip(&entries, i % 4 >= 2),
            stream_may_need_random_access: i % 4 == 3,
        };
        let path = work.path().join("z64.zip");
        std::fs::write(&path, &case.bytes).expect("write zip");
        assert_eq!(
            check_zip_case(&case, &path, work.path(), &mut oracle, &mut rng),
            2,
            "{}",
            case.label
        );
    }
}

#[test]
fn directories_hash_like_go_hashdir() {
    let mut oracle = Oracle::start();
    let work = tempfile::tempdir().expect("tempdir");
    let mut rng = StdRng::seed_from_u64(0xd1a);
    for i in 0..DIR_CASES {
        let root = work.path().join(format!("d{i}"));
        std::fs::create_dir_all(&root).expect("mkdir");
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        for _ in 0..rng.gen_range(0..8) {
            let name = random_name(&mut rng);
            // Keep a consistent tree: no file that is also a directory prefix.
            let clash = files
                .keys()
                .any(|k| k.starts_with(&format!("{name}/")) || name.starts_with(&format!("{k}/")));
            if !clash {
                files.insert(name, random_content(&mut rng, false));
            }
        }
        for (name, content) in &files {
            let p: PathBuf = root.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).expect("mkdir");
            std::fs::write(&p, content).expect("write");
        }
        if rng.gen_bool(0.3) {
            std::fs::create_dir_all(root.join("empty/dir")).expect("mkdir");
        }
        let want = oracle
            .ask(&["dir", root.to_str().unwrap()])
            .expect("HashDir");
        let ours = hash_files(files.iter().map(|(n, c)| (n.as_str(), c.as_slice()))).unwrap();
        assert_eq!(
            ours.to_string(),
            want,
            "dir case {i}: {:?}",
            files.keys().collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&root).ok();
    }
}

#[test]
fn reference_vectors_from_terraform_testdata_match_go() {
    let mut oracle = Oracle::start();
    let work = tempfile::tempdir().expect("tempdir");
    let placeholder =
        b"# This is just a placeholder file for discovery testing, not a real provider plugin.\n";
    let zip = crate_zip(
        &[Entry::file("terraform-provider-null", placeholder)],
        false,
    );
    let path = work.path().join("null.zip");
    std::fs::write(&path, &zip).unwrap();
    let go = oracle.ask(&["zip", path.to_str().unwrap()]).unwrap();
    assert_eq!(go, "h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=");
    assert_eq!(hash_zip(&zip).unwrap().h1.to_string(), go);

    let with_dir = crate_zip(
        &[
            Entry::dir("sub/"),
            Entry::file("a.txt", b"hello\n"),
            Entry::file("sub/b", b"world"),
        ],
        false,
    );
    let path = work.path().join("dirs.zip");
    std::fs::write(&path, &with_dir).unwrap();
    let ours = hash_zip(&with_dir).unwrap();
    assert_eq!(
        ours.h1_archive.to_string(),
        oracle.ask(&["zip", path.to_str().unwrap()]).unwrap()
    );
    assert_eq!(
        ours.h1_archive.to_string(),
        "h1:yIBEDdBMcmQ95KfeH0nHpC3G0Cboli1NcZ1a4I2RGHA="
    );
    assert_eq!(
        ours.h1.to_string(),
        "h1:isfzfqhWUqIYrvO+Uqez4TjYu7JCnKvLsUL778ilnJE="
    );

    // The placeholder "zip" in Terraform's filesystem-mirror testdata is not a zip at all.
    let not_zip =
        b"This is just a placeholder file for discovery testing, not a real provider package.\n";
    let path = work.path().join("placeholder.zip");
    std::fs::write(&path, not_zip).unwrap();
    assert_eq!(
        oracle.ask(&["zip", path.to_str().unwrap()]),
        Err("zip: not a valid zip file".into())
    );
    assert!(matches!(hash_zip(not_zip), Err(HashError::Format { .. })));
}

/// Corrupted zips: wherever Go reads both forms successfully tflock must give the same
/// hashes; wherever Go fails tflock must fail too; and nothing may panic.
#[test]
fn corrupted_zips_agree_with_go_or_fail() {
    let mut oracle = Oracle::start();
    let work = tempfile::tempdir().expect("tempdir");
    let mut rng = StdRng::seed_from_u64(seed(0xbad));
    let (mut same, mut both_fail) = (0, 0);
    for i in 0..800 {
        let mut case = random_zip_case(&mut rng, i);
        if case.bytes.len() > 400_000 || case.bytes.is_empty() {
            continue;
        }
        let len = case.bytes.len();
        match rng.gen_range(0..4) {
            0 => case.bytes.truncate(rng.gen_range(0..len)),
            1 => {
                // Flip bytes near the end, where the central directory lives.
                for _ in 0..rng.gen_range(1..=3) {
                    let at = len - 1 - rng.gen_range(0..len.min(200));
                    case.bytes[at] ^= 1 << rng.gen_range(0..8);
                }
            }
            2 => {
                for _ in 0..rng.gen_range(1..=3) {
                    let at = rng.gen_range(0..len);
                    case.bytes[at] = rng.gen();
                }
            }
            _ => {
                let at = rng.gen_range(0..len);
                let junk: Vec<u8> = (0..rng.gen_range(1..40)).map(|_| rng.gen()).collect();
                case.bytes.splice(at..at, junk);
            }
        }
        case.label = format!("mutated {}", case.label);
        case.stream_may_need_random_access = true;
        let path = work.path().join("m.zip");
        std::fs::write(&path, &case.bytes).expect("write zip");
        if let Some(keep) = std::env::var_os("HASH_TEST_KEEP") {
            std::fs::write(keep, &case.bytes).expect("keep zip");
        }
        let archive = oracle.ask(&["zip", path.to_str().unwrap()]);
        let unzip_dir = work.path().join("x");
        let lock = oracle.ask(&["unzip", path.to_str().unwrap(), unzip_dir.to_str().unwrap()]);
        let _ = std::fs::remove_dir_all(&unzip_dir);
        let ours = hash_zip(&case.bytes);
        match (&archive, &lock, &ours) {
            (Ok(a), Ok(l), Ok(o)) => {
                assert_eq!(
                    (&o.h1_archive.to_string(), &o.h1.to_string()),
                    (a, l),
                    "{}",
                    case.label
                );
                same += 1;
            }
            (Ok(_), Err(e), Ok(_)) if e.starts_with("empty archive") => {}
            // Documented: Go ignores the encryption flag (and usually fails later on the
            // ciphertext); tflock refuses flagged entries up front.
            (Ok(_), Ok(_), Err(HashError::Encrypted { .. })) => both_fail += 1,
            (Ok(a), Ok(l), Err(e)) => {
                panic!(
                    "{}: Go read it ({a}, {l}) but tflock failed: {e}",
                    case.label
                )
            }
            (_, _, Ok(o)) => panic!(
                "{}: Go failed ({archive:?}, {lock:?}) but tflock hashed it: {o:?}",
                case.label
            ),
            _ => both_fail += 1,
        }
        // The stream must agree with the whole-bytes answer or ask for random access.
        match stream_in_random_chunks(&case.bytes, &mut rng) {
            Err(e) if e.needs_random_access() => {}
            Ok(s) => assert_eq!(Ok(&s), ours.as_ref(), "{}: streamed", case.label),
            Err(e) => assert!(
                ours.is_err(),
                "{}: stream failed ({e}), whole did not",
                case.label
            ),
        }
    }
    eprintln!("corrupted zips: {same} read identically, {both_fail} rejected by both");
    assert!(same > 40 && both_fail > 200, "{same} / {both_fail}");
}
