//! Every vector from the reference (terraform-semantics.md §B) as table-driven tests:
//! constraint grammar and error texts for both flavours, canonical strings, match vectors,
//! version ordering, ParseVersion, the two config parse stages and selection messages.

use tflock_core::version::{
    check_config_syntax, parse_config_constraint, select_explained, select_newest, Constraints,
    Origin, Reason, Version,
};
use tflock_core::Flavor::{self, OpenTofu, Terraform};

fn v(s: &str) -> Version {
    Version::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn parse_err(s: &str, flavor: Flavor) -> String {
    match Constraints::parse(s, flavor) {
        Ok(c) => panic!("{s:?} parsed as {:?} for {flavor}", c.canonical()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn ruby_style_multi_vectors_from_go_versions() {
    assert!(Constraints::parse("", Terraform).unwrap().is_empty());
    assert_eq!(
        Constraints::parse("1.1.1", Terraform).unwrap().canonical(),
        "1.1.1"
    );
    let c = Constraints::parse(">= 1.0, < 2", Terraform).unwrap();
    assert_eq!(c.selections.len(), 2);
    assert_eq!(
        c.selections[0].boundary.patch, None,
        "`>= 1.0` leaves the patch unconstrained"
    );
    assert_eq!(c.selections[1].boundary.minor, None);
    assert_eq!(c.canonical(), ">= 1.0.0, < 2.0.0");
    for flavor in [Terraform, OpenTofu] {
        assert_eq!(
            parse_err(">= 1.0 < 2", flavor),
            r#"missing comma after ">= 1.0""#
        );
    }
}

#[test]
fn v_prefix_messages_differ_by_flavour() {
    let cases = [
        (
            "~> v1.1.1",
            r#"a "v" prefix should not be used"#,
            r#"invalid specification "~> v1.1.1": a "v" prefix should not be used when specifying versions"#,
        ),
        (
            ">= 1.0, < v2.0",
            r#"a "v" prefix should not be used"#,
            r#"invalid specification "< v2.0": a "v" prefix should not be used when specifying versions"#,
        ),
        (
            "v1.2.3",
            r#"a "v" prefix should not be used"#,
            r#"invalid specification "v1.2.3": a "v" prefix should not be used when specifying versions"#,
        ),
        (
            ">= v1.0.0",
            r#"a "v" prefix should not be used"#,
            r#"invalid specification ">= v1.0.0": a "v" prefix should not be used when specifying versions"#,
        ),
    ];
    for (input, terraform, opentofu) in cases {
        assert_eq!(parse_err(input, Terraform), terraform, "{input}");
        assert_eq!(parse_err(input, OpenTofu), opentofu, "{input}");
    }
}

#[test]
fn verified_edge_errors_are_the_same_in_both_flavours() {
    let cases = [
        (
            ">=",
            r#"invalid specification ">=": only one space is expected after the operator ">=""#,
        ),
        ("garbage", r#"missing comma after """#),
        (
            ",>= 1.0",
            r#"invalid specification ",>= 1.0": invalid constraint operator ",>=""#,
        ),
        ("1.0.0 - 2.0.0", r#"missing comma after "1.0.0""#),
        (
            "~>  1.0",
            r#"invalid specification "~>  1.0": only one space is expected after the operator "~>""#,
        ),
        (
            "^1.0",
            r#"invalid specification "^1.0": invalid constraint operator "^""#,
        ),
        (
            "~1.0",
            r#"invalid specification "~1.0": invalid constraint operator "~""#,
        ),
        (
            "1.x",
            r#"invalid specification "1.x": can't use wildcard for minor number; omit segments that should be unconstrained"#,
        ),
        ("1.0beta", r#"missing comma after "1.0""#),
        (
            "~>",
            r#"invalid specification "~>": only one space is expected after the operator "~>""#,
        ),
        (
            "& 1.1.0",
            r#"invalid specification "& 1.1.0": invalid constraint operator "&""#,
        ),
        (
            "=< 1.0",
            r#"invalid specification "=< 1.0": invalid constraint operator "=<"; did you mean "<="?"#,
        ),
        (
            "=> 1.0",
            r#"invalid specification "=> 1.0": invalid constraint operator "=>"; did you mean ">="?"#,
        ),
        (
            "=  1.1.1",
            r#"invalid specification "=  1.1.1": only one space is expected after the operator "=""#,
        ),
        (
            "=\t1.1.1",
            r#"invalid specification "=\t1.1.1": only one space is expected after the operator "=""#,
        ),
        (
            "1.0.0.0",
            r#"invalid specification "1.0.0.0": too many numbered portions; only three are allowed (major, minor, patch)"#,
        ),
    ];
    for (input, want) in cases {
        for flavor in [Terraform, OpenTofu] {
            assert_eq!(parse_err(input, flavor), want, "{input:?} {flavor}");
        }
    }
}

#[test]
fn verified_accepted_spellings() {
    for (input, canonical) in [
        ("~>1.2", "~> 1.2"),
        (">=1.0,<2.0", ">= 1.0.0, < 2.0.0"),
        (" ~> 1.2", "~> 1.2"),
        ("~> 1.2 ", "~> 1.2"),
        (">= 1.0,", ">= 1.0.0"),
        ("1.0-beta2", "1.0.0-beta2"),
    ] {
        for flavor in [Terraform, OpenTofu] {
            let c = Constraints::parse(input, flavor).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(c.canonical(), canonical, "{input:?}");
        }
    }
}

#[test]
fn canonical_strings_match_terraform_version_constraints_string() {
    let table = [
        ("1.2.3", "1.2.3"),
        ("1.2.3-beta", "1.2.3-beta"),
        ("1.2.3+foo.bar", "1.2.3+foo.bar"),
        ("1.2.3-beta+foo.bar", "1.2.3-beta+foo.bar"),
        (">= 3", ">= 3.0.0"),
        ("~> 3", "~> 3.0"),
        ("~> 3.0", "~> 3.0"),
        ("~> 3.0.0", "~> 3.0.0"),
        ("> 1.0.0, < 1.0.0, >= 1.0.0, <= 1.0.0, != 1.0.0", "> 1.0.0, >= 1.0.0, <= 1.0.0, < 1.0.0, != 1.0.0"),
        (">= 3.0, < 4.0", ">= 3.0.0, < 4.0.0"),
        (">= 1.2.3, 1.2.3, ~> 1.2, 1.2.3", "~> 1.2, >= 1.2.3, 1.2.3"),
        (">= 2.68, >= 2.68.0", ">= 2.68.0"),
        (
            "< 1.2.3, <= 1.2.3, != 1.2.3, 1.2.3+local.2, 1.2.3+local.1, = 1.2.4, = 1.2.3, > 2, > 1.2.3, >= 1.2.3, ~> 1.2.3, ~> 1.2",
            "~> 1.2, > 1.2.3, >= 1.2.3, 1.2.3, ~> 1.2.3, <= 1.2.3, < 1.2.3, != 1.2.3, 1.2.3+local.1, 1.2.3+local.2, 1.2.4, > 2.0.0",
        ),
        ("~> 1.2, >= 1.2, 1.2.4", ">= 1.2.0, ~> 1.2, 1.2.4"),
        (">= 2, >= 1.2, < 1.3", ">= 1.2.0, < 1.3.0, >= 2.0.0"),
        ("", ""),
    ];
    for (input, want) in table {
        let c = Constraints::parse(input, Terraform).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(c.canonical(), want, "{input}");
    }
}

#[test]
fn match_vectors_verified_against_go_versions() {
    let candidates = [
        "0.9.0",
        "1.0.0-beta",
        "1.0.0",
        "1.0.0+abc",
        "1.1.0-rc1",
        "1.2.0",
        "1.2.3",
        "1.2.5",
        "1.3.0",
        "2.0.0",
    ];
    let table: [(&str, &[&str]); 10] = [
        (
            ">= 1.0.0-beta",
            &[
                "1.0.0",
                "1.0.0+abc",
                "1.2.0",
                "1.2.3",
                "1.2.5",
                "1.3.0",
                "2.0.0",
            ],
        ),
        ("1.0.0-beta", &["1.0.0-beta"]),
        (">= 0.9, 1.0.0-beta", &["1.0.0-beta"]),
        (
            "~> 1.0",
            &["1.0.0", "1.0.0+abc", "1.2.0", "1.2.3", "1.2.5", "1.3.0"],
        ),
        ("= 1", &["1.0.0"]),
        ("1.2", &["1.2.0"]),
        ("~> 1.2.3-beta", &["1.2.3", "1.2.5"]),
        ("~>1.2", &["1.2.0", "1.2.3", "1.2.5", "1.3.0"]),
        (">= 2.0.0, < 1.0.0", &[]),
        (
            "!= 1.0.0",
            &[
                "0.9.0",
                "1.0.0+abc",
                "1.2.0",
                "1.2.3",
                "1.2.5",
                "1.3.0",
                "2.0.0",
            ],
        ),
    ];
    for (constraint, want) in table {
        let c = Constraints::parse(constraint, Terraform).unwrap();
        let got: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|s| c.allows(&v(s)))
            .collect();
        assert_eq!(got, want, "{constraint}");
    }
}

#[test]
fn requested_prereleases_must_also_meet_the_other_constraints() {
    // go-versions 1.0.2's fix (Terraform and OpenTofu both include it).
    for s in [
        "1.0.0-beta1, != 1.0.0-beta1",
        "!= 2.0.0-beta1, 2.0.0-beta1",
        "1.0.0-beta, >= 2.0",
    ] {
        let c = Constraints::parse(s, Terraform).unwrap();
        assert!(
            !c.allows(&v("1.0.0-beta1"))
                && !c.allows(&v("2.0.0-beta1"))
                && !c.allows(&v("1.0.0-beta")),
            "{s}"
        );
    }
}

#[test]
fn prerelease_ordering_has_the_go_versions_quirk() {
    let less = |a: &str, b: &str| v(&format!("1.0.0-{a}")) < v(&format!("1.0.0-{b}"));
    assert!(
        less("beta", "alpha.1"),
        "beta < alpha.1 (fewer identifiers sorts first)"
    );
    assert!(!less("alpha.1", "beta"));
    assert!(less("rc.1", "rc.2"));
    assert!(!less("rc.10", "rc.9"));
    assert!(less("1", "a"));
    assert!(less("alpha", "alpha.1"));
    assert!(v("1.0.0-rc.1") < v("1.0.0"));
    assert!(v("1.9.0") < v("1.10.0"));
}

#[test]
fn metadata_is_ignored_for_precedence_but_kept_for_equality() {
    let (a, b) = (v("1.0.0"), v("1.0.0+abc"));
    assert_ne!(a, b);
    assert!(a.same(&b));
    assert_eq!(a.cmp_precedence(&b), std::cmp::Ordering::Equal);
    assert!(
        a < b,
        "Ord breaks precedence ties by metadata so it agrees with Eq"
    );
}

#[test]
fn parse_version_vectors() {
    assert_eq!(v("1").to_string(), "1.0.0");
    assert_eq!(v("1.2").to_string(), "1.2.0");
    assert_eq!(v("1.2.3-beta.1+abc").to_string(), "1.2.3-beta.1+abc");
    assert!(v("1.2.3-beta").is_prerelease());
    let err = |s: &str| Version::parse(s).unwrap_err().to_string();
    assert_eq!(err("v1.0.0"), r#"a "v" prefix should not be used"#);
    assert_eq!(err(" 1.0.0"), "extraneous spaces at start of specification");
    assert_eq!(err("1.0.0 "), "extraneous spaces at end of specification");
    assert_eq!(
        err("1.0.0.0"),
        "too many numbered portions; only three are allowed (major, minor, patch)"
    );
    assert_eq!(
        err(">1.0"),
        r#"can't use constraint operator ">"; an exact version is required"#
    );
    assert_eq!(err(""), "empty specification");
    assert_eq!(
        err("1.*"),
        "can't use wildcard for minor number; an exact version is required"
    );
    assert_eq!(
        err("1.0.0, 2.0.0"),
        "can't specify multiple versions; a single exact version is required"
    );
    assert_eq!(
        err("1.0.0 - 2.0.0"),
        "can't specify version range; a single exact version is required"
    );
    assert_eq!(
        err("=1.0"),
        r#"invalid sequence "=" at start of specification"#
    );
    assert_eq!(
        err("abc"),
        "invalid specification; required format is three positive integers separated by periods"
    );
    assert_eq!(err("1.0.0 x"), r#"invalid characters "x""#);
}

#[test]
fn config_constraints_go_through_both_parse_stages() {
    let e = parse_config_constraint("v1.2.3", Terraform).unwrap_err();
    assert_eq!(e.summary, "Invalid version constraint");
    assert_eq!(
        e.detail,
        r#"Incorrect version constraint syntax: a "v" prefix should not be used."#
    );
    let e = parse_config_constraint("", Terraform).unwrap_err();
    assert_eq!(
        e.detail,
        "This string does not use correct version constraint syntax."
    );
    let e = parse_config_constraint("^1.0", OpenTofu).unwrap_err();
    assert_eq!(
        e.detail,
        "This string does not use correct version constraint syntax."
    );
    let e = parse_config_constraint("~> v1.1.1", OpenTofu).unwrap_err();
    assert_eq!(
        e.detail,
        r#"Incorrect version constraint syntax: invalid specification "~> v1.1.1": a "v" prefix should not be used when specifying versions."#
    );
    assert_eq!(
        parse_config_constraint(" >= 1.0, < 2.0 ", Terraform)
            .unwrap()
            .canonical(),
        ">= 1.0.0, < 2.0.0"
    );
    // Stage 1 accepts it, stage 2 does not.
    assert!(check_config_syntax("1.0beta"));
    assert!(parse_config_constraint("1.0beta", Terraform).is_err());
    // Stage 2 would accept a trailing comma, stage 1 does not.
    assert!(Constraints::parse(">= 1.0,", Terraform).is_ok());
    assert!(parse_config_constraint(">= 1.0,", Terraform).is_err());
}

#[test]
fn selection_picks_newest_acceptable_and_reports_terraform_text() {
    let avail: Vec<Version> = ["1.0.0", "1.2.0", "1.9.9", "2.0.0", "1.10.0-beta"]
        .iter()
        .map(|s| v(s))
        .collect();
    let c = Constraints::parse(">= 1.2.0, < 2.0.0", Terraform).unwrap();
    assert_eq!(select_newest(&c, &avail), Some(v("1.9.9")));
    let c = Constraints::parse(">= 2.0.0, < 1.0.0", Terraform).unwrap();
    assert_eq!(select_newest(&c, &avail), None);
    let explained = select_explained(&[(c, None)], &avail);
    // The reference writes this example as ">= 2.0.0, < 1.0.0", but Terraform renders the
    // constraints with VersionConstraintsString, which sorts by boundary (real outputs read
    // e.g. ">= 2.23.0, >= 4.33.0, >= 5.0.0, ~> 5.6.2, >= 5.95.0, < 6.0.0").
    assert_eq!(
        explained.result().unwrap_err().to_string(),
        "no available releases match the given constraints < 1.0.0, >= 2.0.0"
    );
    // 0.0.0 is never picked (go-versions compares against Unspecified).
    assert_eq!(select_newest(&Constraints::any(), &[v("0.0.0")]), None);
}

#[test]
fn selection_explains_which_constraint_excluded_newer_versions() {
    let root = Constraints::parse(">= 1.0", Terraform).unwrap();
    let child = Constraints::parse("~> 1.2.0", Terraform).unwrap();
    let origin = |m: &str, loc: &str| {
        Some(Origin {
            module: m.into(),
            location: Some(loc.into()),
        })
    };
    let avail: Vec<Version> = ["1.2.0", "1.2.7", "1.3.0", "2.0.0-rc1", "2.0.0"]
        .iter()
        .map(|s| v(s))
        .collect();
    let e = select_explained(
        &[
            (root, origin("", "main.tf:3,17-25")),
            (child, origin("module.net", "net/versions.tf:4,17-28")),
        ],
        &avail,
    );
    assert_eq!(e.chosen, Some(v("1.2.7")));
    let rejected: Vec<String> = e.rejected.iter().map(|r| r.version.to_string()).collect();
    assert_eq!(rejected, ["2.0.0", "2.0.0-rc1", "1.3.0"]);
    let by_child = Reason::Excluded {
        selection: "~> 1.2.0".into(),
        origin: origin("module.net", "net/versions.tf:4,17-28"),
    };
    assert_eq!(e.rejected[0].reasons, std::slice::from_ref(&by_child));
    assert_eq!(e.rejected[2].reasons, [by_child]);
    assert_eq!(
        e.rejected[0].reasons[0].to_string(),
        r#"excluded by "~> 1.2.0" from module.net (net/versions.tf:4,17-28)"#
    );
    // A prerelease inside every range is rejected only for being an unrequested prerelease.
    let wide = Constraints::parse(">= 1.0", Terraform).unwrap();
    let e = select_explained(&[(wide, None)], &[v("1.0.0"), v("1.1.0-rc1")]);
    assert_eq!(e.rejected[0].reasons, [Reason::UnrequestedPrerelease]);
}
