//! The selection explanation as text: which constraint, from which module and file,
//! excluded each version newer than the one picked.

use tflock_core::version::{select_explained, Constraints, Origin, Version};
use tflock_core::Flavor::Terraform;

fn c(s: &str) -> Constraints {
    Constraints::parse(s, Terraform).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn versions(list: &[&str]) -> Vec<Version> {
    list.iter()
        .map(|s| Version::parse(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

fn origin(module: &str, location: &str) -> Option<Origin> {
    Some(Origin {
        module: module.into(),
        location: Some(location.into()),
    })
}

#[test]
fn explanation_names_the_constraint_and_module_that_excluded_each_newer_version() {
    let available = versions(&[
        "4.9.0",
        "5.5.0",
        "5.6.2",
        "5.6.9",
        "5.7.0",
        "5.95.0",
        "6.0.0-beta1",
        "6.0.0",
    ]);
    let explained = select_explained(
        &[
            (c("~> 5.0"), origin("", "versions.tf:5,17-25")),
            (
                c(">= 4.33.0, ~> 5.6.2"),
                origin("module.network", "modules/network/versions.tf:4,17-40"),
            ),
            (
                c("!= 5.6.9"),
                origin("module.dns", "modules/dns/main.tf:9,17-27"),
            ),
        ],
        &available,
    );
    insta::assert_snapshot!(explained.to_string());
}

#[test]
fn explanation_when_nothing_matches_lists_every_candidate() {
    let available = versions(&["1.0.0", "2.0.0", "2.1.0-rc1"]);
    let explained = select_explained(
        &[
            (c(">= 2.0.0"), origin("", "main.tf:3,17-28")),
            (c("< 2.0.0"), None),
        ],
        &available,
    );
    insta::assert_snapshot!(explained.to_string());
}
