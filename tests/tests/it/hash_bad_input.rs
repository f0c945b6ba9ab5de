//! Hostile and broken zips: every API returns an error value (never a panic), with bounded
//! work, and the streaming API asks for random access exactly where it cannot decide.

use crate::hash_common::{crate_zip, hand_zip, Entry, Method};
use std::io::Cursor;
use tflock_core::hash::{
    hash_zip, hash_zip_reader, hash_zip_with_limits, HashError, ZipHasher, ZipLimits,
};

fn stream(
    bytes: &[u8],
    chunk: usize,
    limits: ZipLimits,
) -> Result<tflock_core::hash::ZipHashes, HashError> {
    let mut h = ZipHasher::with_limits(limits);
    for c in bytes.chunks(chunk.max(1)) {
        h.update(c)?;
    }
    h.finish()
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// Offset of the first central record of a zip without a comment.
fn central_offset(zip: &[u8]) -> usize {
    u32_at(zip, zip.len() - 22 + 16)
}

/// Sets general-purpose flag bits and the method of the first entry, in both headers.
fn patch_first_entry(zip: &mut [u8], flags: u16, method: Option<u16>) {
    let cd = central_offset(zip);
    for (flag_at, method_at) in [(6, 8), (cd + 8, cd + 10)] {
        let f = u16::from_le_bytes([zip[flag_at], zip[flag_at + 1]]) | flags;
        zip[flag_at..flag_at + 2].copy_from_slice(&f.to_le_bytes());
        if let Some(m) = method {
            zip[method_at..method_at + 2].copy_from_slice(&m.to_le_bytes());
        }
    }
}

#[test]
fn zip_bomb_hits_the_total_size_limit_in_both_apis() {
    let zeros = vec![0u8; 64 << 20];
    let zip = crate_zip(&[Entry::file("bomb", &zeros)], false);
    assert!(zip.len() < 200_000);
    let limits = ZipLimits {
        max_total_uncompressed: 16 << 20,
        ..ZipLimits::default()
    };
    let want = HashError::TooLarge { limit: 16 << 20 };
    assert_eq!(hash_zip_with_limits(&zip, &limits).unwrap_err(), want);
    // The stream stops at the limit but cannot know whether Go would read those bytes (the
    // central directory might not list the entry): it hands over to random access.
    let streamed = stream(&zip, 4096, limits).unwrap_err();
    assert!(streamed.needs_random_access(), "{streamed}");
    assert!(
        streamed.to_string().contains(&want.to_string()),
        "{streamed}"
    );
    assert_eq!(
        want.to_string(),
        "zip: uncompressed contents exceed the limit of 16777216 bytes"
    );
    // The default limits let a 64 MiB entry through.
    assert!(hash_zip(&zip).is_ok());
}

#[test]
fn overlapping_entries_hit_the_ratio_limit_in_both_apis() {
    // One local entry of 8 MiB of zeros, listed 300 times by the central directory.
    let one = hand_zip(&[Entry::file("z", &vec![0u8; 8 << 20])]);
    let cd = central_offset(&one);
    let record = one[cd..one.len() - 22].to_vec();
    let mut zip = one[..cd].to_vec();
    // Every record keeps the name "z": Go would list it 300 times, reading 2.4 GB.
    for _ in 0..300 {
        zip.extend_from_slice(&record);
    }
    let mut eocd = one[one.len() - 22..].to_vec();
    eocd[8..10].copy_from_slice(&300u16.to_le_bytes());
    eocd[10..12].copy_from_slice(&300u16.to_le_bytes());
    eocd[12..16].copy_from_slice(&((record.len() * 300) as u32).to_le_bytes());
    zip.extend_from_slice(&eocd);
    let err = hash_zip(&zip).unwrap_err();
    assert_eq!(err, HashError::RatioTooHigh { limit: 1100 });
    // The stream digests the shared local entry once (bounded work) but counts it as often
    // as Go would read it, so both APIs refuse alike.
    assert_eq!(stream(&zip, 65536, ZipLimits::default()).unwrap_err(), err);
}

#[test]
fn encrypted_entries_are_refused() {
    let mut zip = hand_zip(&[Entry::file("secret", b"data")]);
    patch_first_entry(&mut zip, 1, None);
    let want = HashError::Encrypted {
        name: "secret".into(),
    };
    assert_eq!(hash_zip(&zip).unwrap_err(), want);
    assert_eq!(stream(&zip, 7, ZipLimits::default()).unwrap_err(), want);
}

#[test]
fn unsupported_compression_is_refused_with_the_method() {
    let mut zip = hand_zip(&[Entry::file("bz", b"data")]);
    patch_first_entry(&mut zip, 0, Some(12));
    let want = HashError::UnsupportedCompression {
        name: "bz".into(),
        method: 12,
    };
    assert_eq!(hash_zip(&zip).unwrap_err(), want);
    assert_eq!(stream(&zip, 3, ZipLimits::default()).unwrap_err(), want);
    assert!(want
        .to_string()
        .starts_with("zip: unsupported compression algorithm"));
}

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    let zip = crate_zip(
        &[
            Entry::dir("d/"),
            Entry::file("d/a", b"hello hello hello"),
            Entry::file("b", &[7; 3000]),
        ],
        true,
    );
    assert!(hash_zip(&zip).is_ok());
    for len in 0..zip.len() {
        let cut = &zip[..len];
        assert!(hash_zip(cut).is_err(), "prefix of {len} bytes");
        assert!(
            stream(cut, 5, ZipLimits::default()).is_err(),
            "prefix of {len} bytes"
        );
    }
}

#[test]
fn newline_names_are_an_error() {
    let zip = crate_zip(&[Entry::file("a\nb", b"x")], false);
    assert_eq!(hash_zip(&zip).unwrap_err(), HashError::NewlineInName);
    assert_eq!(
        stream(&zip, 100, ZipLimits::default()).unwrap_err(),
        HashError::NewlineInName
    );
}

#[test]
fn stored_entry_with_data_descriptor_needs_random_access_and_gets_the_same_answer() {
    let mut e = Entry::file("stored", b"some stored bytes");
    e.method = Method::Stored;
    e.descriptor = true;
    let zip = hand_zip(&[e, Entry::file("after", b"more")]);
    let err = stream(&zip, 1000, ZipLimits::default()).unwrap_err();
    assert!(err.needs_random_access(), "{err}");
    let whole = hash_zip(&zip).unwrap();
    let reader = hash_zip_reader(&mut Cursor::new(&zip), &ZipLimits::default()).unwrap();
    assert_eq!(whole, reader);
    let want =
        tflock_core::hash::hash_files([("stored", &b"some stored bytes"[..]), ("after", b"more")]);
    assert_eq!(whole.h1, want.unwrap());
}

#[test]
fn prepended_bytes_need_random_access_where_go_reads_through_them() {
    let zip = crate_zip(&[Entry::file("a", b"x"), Entry::file("b", b"y")], false);
    let mut stub = b"#!/bin/sh\nexit 0\n".to_vec();
    stub.extend_from_slice(&zip);
    let err = stream(&stub, 64, ZipLimits::default()).unwrap_err();
    assert!(err.needs_random_access(), "{err}");
    // Go's reader finds the archive after the stub (its base offset); so does tflock's.
    let got = hash_zip(&stub).unwrap();
    assert_eq!(got.h1, hash_zip(&zip).unwrap().h1);
    assert_ne!(got.zh, hash_zip(&zip).unwrap().zh);
}

#[test]
fn a_failed_stream_stays_failed() {
    let mut h = ZipHasher::new();
    assert!(h.update(b"not a zip at all").is_err());
    assert_eq!(h.update(b"more").unwrap_err(), HashError::AlreadyFailed);
    assert_eq!(h.finish().unwrap_err(), HashError::AlreadyFailed);
}

#[test]
fn not_a_zip_and_empty_input_are_format_errors() {
    for bytes in [
        &b""[..],
        b"PK",
        b"hello world, this is not a zip file at all.....",
    ] {
        assert!(
            matches!(hash_zip(bytes), Err(HashError::Format { .. })),
            "{bytes:?}"
        );
    }
}
