//! Which sources' metadata can stand for a download (`metadata::describe`).

use super::metadata::describe;
use crate::addrs::Platform;
use crate::install::needs::{FetchedPackage, SourcePackage};

const H1_A: &str = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
const H1_B: &str = "h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=";
const ZH_A: &str = "zh:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

fn mirror(hashes: &[(&str, &str)]) -> SourcePackage {
    SourcePackage::NetworkMirror {
        mirror_url: "https://mirror.example/".into(),
        url: "https://mirror.example/p.zip".into(),
        hashes: hashes
            .iter()
            .map(|(p, h)| (p.to_string(), h.to_string()))
            .collect(),
        trust_all_hashes: false,
    }
}

fn linux() -> Platform {
    Platform::parse("linux_amd64").unwrap()
}

#[test]
fn a_mirror_listing_one_h1_and_a_zh_describes_the_archive_with_exactly_those() {
    let d = describe(
        &mirror(&[("linux_amd64", H1_A), ("linux_amd64", ZH_A)]),
        &linux(),
    )
    .expect("described");
    assert_eq!(d.h1.as_str(), H1_A);
    let FetchedPackage::Archive { hashes, sha256, .. } = d.package else {
        panic!("an archive");
    };
    assert_eq!((hashes.h1.as_str(), hashes.zh.as_str()), (H1_A, ZH_A));
    assert_eq!(sha256, [0xaa; 32]);
}

#[test]
fn without_a_zh_or_with_two_h1_the_metadata_cannot_stand_for_a_download() {
    let only_h1 = mirror(&[("linux_amd64", H1_A)]);
    assert_eq!(describe(&only_h1, &linux()), None);
    let two = mirror(&[
        ("linux_amd64", H1_A),
        ("linux_amd64", H1_B),
        ("linux_amd64", ZH_A),
    ]);
    assert_eq!(describe(&two, &linux()), None);
}

#[test]
fn only_the_platforms_own_hashes_count_when_the_list_spans_platforms() {
    // trust_all_hashes lists every platform's: another platform's h1: is not this one's.
    let spanning = mirror(&[
        ("darwin_arm64", H1_B),
        ("linux_amd64", H1_A),
        ("linux_amd64", ZH_A),
    ]);
    assert_eq!(
        describe(&spanning, &linux())
            .expect("described")
            .h1
            .as_str(),
        H1_A
    );
    let others_only = mirror(&[("darwin_arm64", H1_B), ("darwin_arm64", ZH_A)]);
    assert_eq!(describe(&others_only, &linux()), None);
}

#[test]
fn local_sources_have_no_metadata() {
    let local = SourcePackage::LocalArchive {
        path: "p.zip".into(),
    };
    assert_eq!(describe(&local, &linux()), None);
}
