//! OpenTofu's module source addresses: each difference from Terraform, and a sample of the
//! addresses both parse alike (cases written from the behaviour
//! `internal/addrs/module_source_test.go` in OpenTofu's source pins down).

use super::*;
use crate::diag::Severity;

const BOTH: [Flavor; 2] = [Flavor::Terraform, Flavor::OpenTofu];

fn parsed(raw: &str, registry_only: bool, flavor: Flavor) -> String {
    match parse_source_addr_as(raw, registry_only, flavor) {
        Ok(a) => a.to_string(),
        Err(SourceAddrError::Invalid(e)) => format!("error: {e}"),
        Err(SourceAddrError::MaybeRelativePath(a)) => format!("maybe relative: {a}"),
    }
}

#[test]
fn unqualified_registry_addresses_default_to_the_opentofu_registry() {
    for (raw, tofu, terraform) in [
        (
            "hashicorp/consul/aws",
            "registry.opentofu.org/hashicorp/consul/aws",
            "registry.terraform.io/hashicorp/consul/aws",
        ),
        (
            "hashicorp/consul/aws//foo",
            "registry.opentofu.org/hashicorp/consul/aws//foo",
            "registry.terraform.io/hashicorp/consul/aws//foo",
        ),
        (
            "HashiCorp/Consul/aws",
            "registry.opentofu.org/HashiCorp/Consul/aws",
            "registry.terraform.io/HashiCorp/Consul/aws",
        ),
    ] {
        assert_eq!(parsed(raw, false, Flavor::OpenTofu), tofu, "{raw}");
        assert_eq!(parsed(raw, true, Flavor::OpenTofu), tofu, "{raw}");
        assert_eq!(parsed(raw, false, Flavor::Terraform), terraform, "{raw}");
    }
    // A hostname that is written is kept, whichever registry it names.
    for raw in [
        "registry.opentofu.org/hashicorp/consul/aws",
        "registry.terraform.io/hashicorp/consul/aws",
    ] {
        for flavor in BOTH {
            assert_eq!(parsed(raw, false, flavor), raw, "{raw} {flavor}");
        }
    }
    assert_eq!(
        parse_source_addr_as("hashicorp/consul/aws", false, Flavor::OpenTofu),
        Ok(SourceAddr::Registry(
            "registry.opentofu.org/hashicorp/consul/aws".into()
        ))
    );
}

#[test]
fn gcs_shorthand_needs_a_subdomain_for_opentofu() {
    let bare = "googleapis.com/storage/v1/bucket/mod.zip";
    assert_eq!(
        parsed(bare, false, Flavor::Terraform),
        "gcs::https://www.googleapis.com/storage/v1/bucket/mod.zip"
    );
    assert_eq!(
        parsed(bare, false, Flavor::OpenTofu),
        format!("maybe relative: {bare}")
    );
    let www = "www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip";
    for flavor in BOTH {
        assert_eq!(
            parsed(www, false, flavor),
            "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip"
        );
    }
}

#[test]
fn ssh_query_errors_and_empty_sources_use_go_getters_words() {
    let raw = "git@example.com:code/baz.git?ref=%zz";
    let terraform = parsed(raw, false, Flavor::Terraform);
    let tofu = parsed(raw, false, Flavor::OpenTofu);
    assert!(
        terraform.starts_with("error: error parsing Git SSH URL: "),
        "{terraform}"
    );
    assert_eq!(
        tofu,
        terraform.replace("parsing Git SSH", "parsing GitHub SSH")
    );
    assert_eq!(
        parsed("", false, Flavor::OpenTofu),
        "error: invalid source string: "
    );
    assert_eq!(
        parsed("", false, Flavor::Terraform),
        "error: invalid source address: "
    );
}

#[test]
fn diagnostics_name_opentofu() {
    let at = Range::from_span("main.tf", "source = \"boop/bloop\"", 9..21);
    let d = SourceAddrError::MaybeRelativePath("boop/bloop".into()).diagnostic_as(
        Flavor::OpenTofu,
        false,
        at.clone(),
    );
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.summary, "Invalid module source address");
    assert_eq!(
        d.detail,
        "OpenTofu failed to determine your intended installation method for remote module package \"boop/bloop\".\n\nIf you intended this as a path relative to the current module, use \"./boop/bloop\" instead. The \"./\" prefix indicates that the address is a relative filesystem path."
    );
    let e = parse_source_addr_as("a/b", true, Flavor::OpenTofu).unwrap_err();
    let d = e.diagnostic_as(Flavor::OpenTofu, true, at.clone());
    assert_eq!(d.summary, "Invalid registry module source address");
    assert_eq!(
        d.detail,
        "Failed to parse module registry address: a module registry source address must have either three or four slash-separated components.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules."
    );
    let d = e.diagnostic_as(Flavor::OpenTofu, false, at.clone());
    assert_eq!(
        d.detail,
        "Failed to parse module source address: a module registry source address must have either three or four slash-separated components."
    );
    // Terraform's wording is unchanged.
    assert!(e
        .diagnostic(true, at)
        .detail
        .contains("\n\nTerraform assumed that you intended"));
}

#[test]
fn both_flavours_agree_on_the_shared_rules() {
    for (raw, want) in [
        ("./a/../b", "./b"),
        ("..\\x", "../x"),
        (
            "example.com/awesomecorp/network/happycloud//examples/foo",
            "example.com/awesomecorp/network/happycloud//examples/foo",
        ),
        (
            "github.com/hashicorp/terraform-cidr-subnets//example/foo?ref=bar/baz",
            "git::https://github.com/hashicorp/terraform-cidr-subnets.git//example/foo?ref=bar/baz",
        ),
        (
            "github.com/hashicorp/terraform-cidr-subnets//example/foo?",
            "git::https://github.com/hashicorp/terraform-cidr-subnets.git//example/foo",
        ),
        (
            "git::git@example.com:code/baz.git//bleep/bloop",
            "git::ssh://git@example.com/code/baz.git//bleep/bloop",
        ),
        (
            "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
            "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
        ),
        (
            "s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip",
            "s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip",
        ),
        (
            "https://example.com/module?archive=tar&checksum=blah",
            "https://example.com/module?archive=tar&checksum=blah",
        ),
        ("bitbucket.org/a/b", "git::https://bitbucket.org/a/b.git"),
        ("/tmp/foo//example", "file:///tmp/foo//example"),
        // OpenTofu 1.10's OCI sources: a URL with a scheme (or a forced getter) is taken
        // as written; only the installer knows `oci`.
        (
            "oci://example.com/modules/net?tag=1.0.0",
            "oci://example.com/modules/net?tag=1.0.0",
        ),
        (
            "oci::https://example.com/modules/net//sub",
            "oci::https://example.com/modules/net//sub",
        ),
        // Nothing refuses a string that looks somewhat like a URL.
        (
            "dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg",
            "dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg",
        ),
        ("boop/bloop", "maybe relative: boop/bloop"),
        ("oci::example.com/net", "maybe relative: example.com/net"),
        (
            "/tmp/foo//example/../../invalid",
            "error: subdirectory path \"../invalid\" leads outside of the module package",
        ),
        (
            "github.com/foo",
            "error: GitHub URLs should be github.com/username/repo",
        ),
    ] {
        for flavor in BOTH {
            assert_eq!(parsed(raw, false, flavor), want, "{raw} {flavor}");
        }
    }
    for (raw, want) in [
        (
            "---.com/a/b/c",
            "error: invalid module registry hostname \"---.com\"; internationalized domain names must be given as direct unicode characters, not in punycode",
        ),
        (
            "foo/var/no-no-no",
            "error: invalid target system \"no-no-no\": must be between one and 64 ASCII letters or digits",
        ),
        (
            "bitbucket.org/a/b/c",
            "error: can't use \"bitbucket.org\" as a module registry host, because it's reserved for installing directly from version control repositories",
        ),
        (
            "../boop",
            "error: can't use local directory \"../boop\" as a module registry address",
        ),
    ] {
        for flavor in BOTH {
            assert_eq!(parsed(raw, true, flavor), want, "{raw} {flavor}");
        }
    }
}
