//! Provider requirements gathered from a module tree: `required_providers` (object and legacy
//! string forms), legacy `provider { version }`, implied providers of resources, local child
//! modules, and the errors Terraform reports for bad entries.

use tflock_core::collections::SortedMap;
use tflock_core::config::requirements::{render_tree, OriginKind};
use tflock_core::config::{load_tree, tree_requirements, LoadOptions, ProviderRequirements};
use tflock_core::Flavor;

type Dirs = SortedMap<String, Vec<(String, Vec<u8>)>>;

fn dirs(files: &[(&str, &str)]) -> Dirs {
    let mut out: Dirs = SortedMap::new();
    for (path, text) in files {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        out.entry(dir.to_string())
            .or_default()
            .push((name.to_string(), text.as_bytes().to_vec()));
    }
    out
}

fn reqs(files: &[(&str, &str)], flavor: Flavor) -> ProviderRequirements {
    let tree = load_tree(&dirs(files), "", &LoadOptions::new(flavor));
    tree_requirements(&tree, flavor)
}

fn summary(r: &ProviderRequirements) -> Vec<(String, String)> {
    r.providers
        .values()
        .map(|p| (p.provider.clone(), p.constraints.clone()))
        .collect()
}

const ROOT: &str = r#"terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    mycloud = {
      source  = "example.com/acme/mycloud"
      version = ">= 1.2, < 2"
    }
    random = "3.1"
  }
}

provider "google" {
  version = ">= 4"
}

resource "aws_instance" "a" {}
resource "null_resource" "n" {}
resource "x_thing" "t" {
  provider = mycloud.east
}
data "terraform_remote_state" "s" {}

module "net" {
  source = "./modules/net"
}

module "remote" {
  source = "hashicorp/consul/aws"
}
"#;

const NET: &str = r#"terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.1"
    }
  }
}

resource "aws_vpc" "v" {}
"#;

#[test]
fn constraints_from_every_source_are_intersected_per_provider() {
    let r = reqs(
        &[("main.tf", ROOT), ("modules/net/main.tf", NET)],
        Flavor::Terraform,
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(
        summary(&r),
        [
            (
                "example.com/acme/mycloud".to_string(),
                ">= 1.2.0, < 2.0.0".to_string()
            ),
            (
                "registry.terraform.io/hashicorp/aws".into(),
                "~> 5.0, >= 5.1.0".into()
            ),
            (
                "registry.terraform.io/hashicorp/google".into(),
                ">= 4.0.0".into()
            ),
            ("registry.terraform.io/hashicorp/null".into(), "".into()),
            (
                "registry.terraform.io/hashicorp/random".into(),
                "3.1.0".into()
            ),
            ("terraform.io/builtin/terraform".into(), "".into()),
        ]
    );
    let builtin: Vec<_> = r
        .providers
        .values()
        .filter(|p| p.builtin)
        .map(|p| p.provider.as_str())
        .collect();
    assert_eq!(builtin, ["terraform.io/builtin/terraform"]);
}

#[test]
fn each_constraint_remembers_module_file_and_line() {
    let r = reqs(
        &[("main.tf", ROOT), ("modules/net/main.tf", NET)],
        Flavor::Terraform,
    );
    let aws = r
        .providers
        .values()
        .find(|p| p.provider.ends_with("/aws"))
        .unwrap();
    let got: Vec<_> = aws
        .origins
        .iter()
        .map(|o| {
            (
                o.module.as_str(),
                o.kind,
                o.constraint.as_deref(),
                o.range.filename.as_str(),
                o.range.start.line,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "",
                OriginKind::RequiredProviders,
                Some("~> 5.0"),
                "main.tf",
                3
            ),
            ("", OriginKind::Resource, None, "main.tf", 19),
            (
                "module.net",
                OriginKind::RequiredProviders,
                Some(">= 5.1"),
                "modules/net/main.tf",
                3
            ),
            (
                "module.net",
                OriginKind::Resource,
                None,
                "modules/net/main.tf",
                10
            ),
        ]
    );
    let google = r
        .providers
        .values()
        .find(|p| p.provider.ends_with("/google"))
        .unwrap();
    assert_eq!(google.origins[0].kind, OriginKind::ProviderBlockVersion);
    assert_eq!(google.origins[0].range.to_string(), "main.tf:16,3-19");
}

#[test]
fn opentofu_resolves_unqualified_names_on_its_registry() {
    let r = reqs(
        &[("main.tf", "resource \"aws_instance\" \"a\" {}\n")],
        Flavor::OpenTofu,
    );
    assert_eq!(
        summary(&r),
        [(
            "registry.opentofu.org/hashicorp/aws".to_string(),
            String::new()
        )]
    );
}

#[test]
fn override_source_applies_to_implied_resource_providers() {
    let r = reqs(
        &[
            (
                "main.tf",
                "terraform {\n  required_providers {\n    bar = {\n      source = \"acme/bar\"\n    }\n    foo = {\n      source = \"acme/foo\"\n    }\n  }\n}\nresource \"bar_thing\" \"bt\" {}\nresource \"foo_thing\" \"ft\" {}\n",
            ),
            (
                "bar_provider_override.tf",
                "terraform {\n  required_providers {\n    bar = {\n      source  = \"blorp/bar\"\n      version = \"~>2.0.0\"\n    }\n  }\n}\n",
            ),
        ],
        Flavor::Terraform,
    );
    assert_eq!(
        summary(&r),
        [
            ("registry.terraform.io/acme/foo".to_string(), String::new()),
            ("registry.terraform.io/blorp/bar".into(), "~> 2.0.0".into()),
        ]
    );
}

fn first_error(files: &[(&str, &str)]) -> (String, String) {
    let r = reqs(files, Flavor::Terraform);
    let d = r.diagnostics.iter().next().expect("a diagnostic");
    (d.summary.clone(), d.detail.clone())
}

#[test]
fn local_names_must_be_normalized() {
    let (s, d) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    AWS = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(s, "Invalid provider local name");
    assert_eq!(
        d,
        "Provider names must be normalized. Replace \"AWS\" with \"aws\" to fix this error."
    );
}

#[test]
fn version_strings_must_pass_both_parse_stages() {
    let (s, d) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = {\n      version = \"~> x\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(
        (s.as_str(), d.as_str()),
        (
            "Invalid version constraint",
            "This string does not use correct version constraint syntax."
        )
    );
    // go-version accepts a "v" prefix; go-versions (the second stage) does not.
    let (s, d) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = {\n      version = \">= v1.0\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(s, "Invalid version constraint");
    assert!(
        d.starts_with("Incorrect version constraint syntax: "),
        "{d}"
    );
}

#[test]
fn bad_sources_and_properties_are_reported() {
    let (s, _) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = {\n      source = \"a/b/c/d\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(s, "Invalid provider source string");
    let (s, d) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = {\n      region = \"x\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(s, "Invalid required_providers object");
    assert!(d.starts_with("required_providers objects can only contain \"version\", \"source\""));
    let (s, d) = first_error(&[(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = {\n      configuration_aliases = [google.west]\n    }\n  }\n}\n",
    )]);
    assert_eq!(s, "Invalid configuration_aliases value");
    assert_eq!(d, "Configuration aliases must be prefixed with the provider name. Expected \"aws\", but found \"google\".");
}

#[test]
fn requirement_tree_renders_like_terraform_providers() {
    let tree = load_tree(
        &dirs(&[("main.tf", ROOT), ("modules/net/main.tf", NET)]),
        "",
        &LoadOptions::default(),
    );
    insta::assert_snapshot!(render_tree(&tree, Flavor::Terraform));
}

#[test]
fn a_loop_of_module_calls_ends_where_terraforms_module_key_outgrows_a_file_name() {
    // a → b → a → …: Terraform's installer fails to remove `.terraform/modules/<key>` once
    // the key passes 255 bytes (129 calls of one-letter names, `a.b.….a`).
    let call = |to: &str| format!("module \"{to}\" {{\n  source = \"../{to}\"\n}}\n");
    let tree = load_tree(
        &dirs(&[
            ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
            ("a/main.tf", &call("b")),
            ("b/main.tf", &call("a")),
        ]),
        "",
        &LoadOptions::default(),
    );
    let key = ["a", "b"].repeat(65)[..129].join(".");
    assert_eq!(key.len(), 257);
    let errors: Vec<_> = tree.diagnostics().0.into_iter().collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].summary, "Failed to remove local module cache");
    assert_eq!(
        errors[0].detail,
        format!("Terraform tried to remove .terraform/modules/{key} in order to reinstall this module, but encountered an error: unlinkat .terraform/modules/{key}: file name too long")
    );
    let mut depth = 0;
    let mut node = &tree;
    while let Some(child) = node.children.first() {
        depth += 1;
        node = child;
    }
    assert_eq!(depth, 128, "every module up to the 255-byte key is loaded");
}
