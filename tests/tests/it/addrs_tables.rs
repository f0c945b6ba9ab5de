//! Provider source address and platform vectors from the reference (terraform-semantics.md
//! §E and §B.6), with Terraform's and OpenTofu's exact error texts.

use tflock_core::addrs::{parse_provider_part, Platform, Provider};
use tflock_core::Flavor::{OpenTofu, Terraform};

fn p(s: &str) -> Provider {
    Provider::parse(s, Terraform).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn err(s: &str, flavor: tflock_core::Flavor) -> (String, String) {
    let e = Provider::parse(s, flavor).expect_err(s);
    (e.summary, e.detail)
}

#[test]
fn parses_and_normalizes_provider_sources() {
    let aws = Provider::new("registry.terraform.io", "hashicorp", "aws");
    for s in [
        "registry.terraform.io/hashicorp/aws",
        "registry.Terraform.io/HashiCorp/AWS",
        "hashicorp/aws",
        "HashiCorp/AWS",
        "aws",
        "AWS",
    ] {
        assert_eq!(p(s), aws, "{s}");
    }
    assert_eq!(
        p("example.com/foo-bar/baz-boop"),
        Provider::new("example.com", "foo-bar", "baz-boop")
    );
    assert_eq!(
        p("foo-bar/baz-boop"),
        Provider::new("registry.terraform.io", "foo-bar", "baz-boop")
    );
    assert_eq!(
        p("localhost:8080/foo/bar"),
        Provider::new("localhost:8080", "foo", "bar")
    );
    assert_eq!(
        p("example.com:443/foo/bar"),
        Provider::new("example.com", "foo", "bar")
    );
    assert!(p("terraform.io/builtin/terraform").is_builtin());
    assert!(p("-/aws").is_legacy());
}

#[test]
fn bare_types_keep_the_unknown_namespace_in_parse_source() {
    for s in ["aws", "AWS", "terraform"] {
        let got = Provider::parse_source(s, Terraform).unwrap();
        assert_eq!(
            (got.hostname.as_str(), got.namespace.as_str()),
            ("registry.terraform.io", "?")
        );
        assert!(!got.has_known_namespace());
    }
}

#[test]
fn opentofu_uses_its_own_default_registry() {
    assert_eq!(
        Provider::parse("aws", OpenTofu).unwrap(),
        Provider::new("registry.opentofu.org", "hashicorp", "aws")
    );
    let tf_host = Provider::parse("registry.terraform.io/hashicorp/aws", OpenTofu).unwrap();
    assert_eq!(
        tf_host.for_display(OpenTofu),
        "registry.terraform.io/hashicorp/aws"
    );
    assert_eq!(tf_host.for_display(Terraform), "hashicorp/aws");
    assert!(Provider::new("opentofu.org", "builtin", "terraform").is_builtin_for(OpenTofu));
    assert!(!Provider::new("opentofu.org", "builtin", "terraform").is_builtin_for(Terraform));
}

#[test]
fn display_forms() {
    let aws = p("hashicorp/aws");
    assert_eq!(aws.to_string(), "registry.terraform.io/hashicorp/aws");
    assert_eq!(aws.for_display(Terraform), "hashicorp/aws");
    let idn = p("München.Example/foo/bar");
    assert_eq!(idn.hostname, "xn--mnchen-3ya.example");
    assert_eq!(idn.to_string(), "münchen.example/foo/bar");
}

#[test]
fn orders_by_hostname_namespace_type() {
    let mut list = [
        p("example.com/a/b"),
        p("hashicorp/aws"),
        p("example.com/a/a"),
        p("hashicorp/archive"),
    ];
    list.sort();
    let got: Vec<String> = list.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "example.com/a/a",
            "example.com/a/b",
            "registry.terraform.io/hashicorp/archive",
            "registry.terraform.io/hashicorp/aws"
        ]
    );
}

#[test]
fn implied_providers() {
    assert_eq!(
        Provider::implied("aws", Terraform).to_string(),
        "registry.terraform.io/hashicorp/aws"
    );
    assert_eq!(
        Provider::implied("aws", OpenTofu).to_string(),
        "registry.opentofu.org/hashicorp/aws"
    );
    assert_eq!(
        Provider::implied("terraform", Terraform).to_string(),
        "terraform.io/builtin/terraform"
    );
    assert_eq!(
        Provider::local_name_for_resource_type("aws_instance"),
        "aws"
    );
    assert_eq!(Provider::local_name_for_resource_type("null"), "null");
}

#[test]
fn malformed_sources_are_rejected_with_exact_texts() {
    let format = (
        "Invalid provider source string".to_string(),
        r#"The "source" attribute must be in the format "[hostname/][namespace/]name""#.to_string(),
    );
    for s in [
        "example.com/too/many/parts/here",
        "/too///many//slashes",
        "///",
        "/ / /",
        "",
        "a//b",
    ] {
        assert_eq!(err(s, Terraform), format, "{s:?}");
    }
    let ns = |s: &str, why: &str| {
        (
            "Invalid provider namespace".to_string(),
            format!("Invalid provider namespace \"\" in source \"{s}\": {why}\""),
        )
    };
    let letters =
        "must contain only letters, digits, and dashes, and may not use leading or trailing dashes";
    for (s, why) in [
        ("example.com/badnamespace!/aws", letters),
        (
            "example.com/bad--namespace/aws",
            "cannot use multiple consecutive dashes",
        ),
        ("example.com/-badnamespace/aws", letters),
        ("example.com/badnamespace-/aws", letters),
        ("example.com/bad.namespace/aws", "dots are not allowed"),
    ] {
        assert_eq!(err(s, Terraform), ns(s, why), "{s}");
    }
    let ty = |s: &str, given: &str, why: &str| {
        (
            "Invalid provider type".to_string(),
            format!("Invalid provider type \"{given}\" in source \"{s}\": {why}\""),
        )
    };
    for (s, given, why) in [
        ("example.com/hashicorp/badtype!", "badtype!", letters),
        (
            "example.com/hashicorp/bad--type",
            "bad--type",
            "cannot use multiple consecutive dashes",
        ),
        ("example.com/hashicorp/-badtype", "-badtype", letters),
        ("example.com/hashicorp/badtype-", "badtype-", letters),
        (
            "example.com/hashicorp/bad.type",
            "bad.type",
            "dots are not allowed",
        ),
    ] {
        assert_eq!(err(s, Terraform), ty(s, given, why), "{s}");
    }
    assert_eq!(
        err("badhost!/hashicorp/aws", Terraform),
        (
            "Invalid provider source hostname".to_string(),
            r#"Invalid provider source hostname namespace "" in source "badhost!/hashicorp/aws": idna: disallowed rune U+0021""#.to_string()
        )
    );
    assert_eq!(
        err("xn--mnchen-3ya.de/foo/bar", Terraform).1,
        r#"Invalid provider source hostname namespace "" in source "xn--mnchen-3ya.de/foo/bar": hostname label "xn--mnchen-3ya" specified in punycode format; service hostnames must be given in unicode""#
    );
    assert_eq!(
        err("example.com/-/aws", Terraform),
        ("Invalid provider namespace".to_string(), r#"The legacy provider namespace "-" can be used only with hostname registry.terraform.io."#.to_string())
    );
    assert_eq!(
        err("registry.terraform.io/-/aws", OpenTofu).1,
        r#"The legacy provider namespace "-" can be used only with hostname registry.opentofu.org."#
    );
}

#[test]
fn redundant_type_prefixes() {
    assert_eq!(
        err("example.com/hashicorp/terraform-provider-bad", Terraform),
        (
            "Invalid provider type".to_string(),
            "Provider source \"example.com/hashicorp/terraform-provider-bad\" has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean \"example.com/hashicorp/bad\"?".to_string()
        )
    );
    assert_eq!(
        err("hashicorp/terraform-provider-aws", Terraform).1,
        "Provider source \"hashicorp/terraform-provider-aws\" has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean \"hashicorp/aws\"?"
    );
    assert_eq!(
        err("example.com/hashicorp/terraform-bad", Terraform).1,
        "Provider source \"example.com/hashicorp/terraform-bad\" has a type with the prefix \"terraform-\", which isn't allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix."
    );
    // OpenTofu keeps the terraform- rules and adds its own.
    assert!(Provider::parse("example.com/hashicorp/opentofu-bad", Terraform).is_ok());
    assert_eq!(
        err("example.com/hashicorp/opentofu-provider-bad", OpenTofu).1,
        "Provider source \"example.com/hashicorp/opentofu-provider-bad\" has a type with the prefix \"opentofu-provider-\", which isn't valid. Although that prefix is sometimes used in the names of version control repositories for OpenTofu providers, provider source strings should not include it.\n\nDid you mean \"example.com/hashicorp/bad\"?"
    );
    assert_eq!(
        err("example.com/hashicorp/opentofu-bad", OpenTofu).1,
        "Provider source \"example.com/hashicorp/opentofu-bad\" has a type with the prefix \"opentofu-\", which isn't allowed because it would be redundant to name an OpenTofu provider with that prefix. If you are the author of this provider, rename it to not include the prefix."
    );
    assert_eq!(
        err("example.com/hashicorp/terraform-bad", OpenTofu).1,
        "Provider source \"example.com/hashicorp/terraform-bad\" has a type with the prefix \"terraform-\", which isn't allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix."
    );
}

#[test]
fn provider_part_vectors() {
    for (given, want) in [
        ("FOO", Ok("foo")),
        ("Foo", Ok("foo")),
        ("Испытание", Ok("испытание")),
        ("münchen", Ok("münchen")),
        ("mu\u{308}nchen", Ok("münchen")),
        ("abc--123", Err("cannot use multiple consecutive dashes")),
        ("xn--80akhbyknj4f", Err("cannot use multiple consecutive dashes")),
        ("abc.123", Err("dots are not allowed")),
        ("-abc123", Err("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")),
        ("abc123-", Err("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")),
        ("a_b", Err("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")),
        ("", Err("must have at least one character")),
    ] {
        assert_eq!(parse_provider_part(given).as_deref().map_err(|e| *e), want, "{given:?}");
    }
    assert_eq!(
        parse_provider_part("münchen").unwrap(),
        "m\u{fc}nchen",
        "precomposed"
    );
}

#[test]
fn platform_vectors() {
    assert_eq!(
        Platform::parse("").unwrap_err().to_string(),
        "must be two words separated by an underscore"
    );
    assert_eq!(
        Platform::parse("too_many_notes").unwrap_err().to_string(),
        "must be two words separated by an underscore"
    );
    assert_eq!(
        Platform::parse("extra _ whitespaces ")
            .unwrap_err()
            .to_string(),
        "OS portion must not contain whitespace"
    );
    assert_eq!(
        Platform::parse("linux_amd 64").unwrap_err().to_string(),
        "architecture portion must not contain whitespace"
    );
    assert_eq!(
        Platform::parse("arbitrary_os").unwrap(),
        Platform::new("arbitrary", "os")
    );
    assert_eq!(
        Platform::parse("_amd64").unwrap(),
        Platform::new("", "amd64")
    );
    assert_eq!(
        Platform::parse("Linux_AMD64").unwrap().to_string(),
        "Linux_AMD64"
    );
    let mut list: Vec<Platform> = ["windows_386", "darwin_arm64", "linux_arm64", "darwin_amd64"]
        .iter()
        .map(|s| Platform::parse(s).unwrap())
        .collect();
    list.sort();
    let got: Vec<String> = list.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        ["darwin_amd64", "darwin_arm64", "linux_arm64", "windows_386"]
    );
    let here = Platform::current();
    assert!(!here.os.is_empty() && !here.arch.is_empty());
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        assert_eq!(here.to_string(), "linux_amd64");
    }
}
