//! What Terraform's configuration schema says about block types: how many labels each takes
//! and which nested names are blocks (which JSON syntax needs to tell blocks from arguments).

use crate::flavor::Flavor;

/// The label names of a top-level block type, or `None` if the type is not allowed at top level.
pub fn top_level_labels(kind: &str, flavor: Flavor) -> Option<&'static [&'static str]> {
    Some(match kind {
        // A top-level `required_providers` is in the schema only to be refused.
        "terraform" | "locals" | "moved" | "import" | "removed" | "required_providers" => &[],
        "provider" | "variable" | "output" | "module" | "check" => &["name"],
        "resource" | "data" | "ephemeral" => &["type", "name"],
        "action" if flavor == Flavor::Terraform => &["type", "name"],
        _ => return None,
    })
}

/// The block types a configuration file's top level takes, in the order of Terraform's
/// file schema (`configFileSchema`), which decides which one "Did you mean" names.
pub fn top_level_block_types(flavor: Flavor) -> Vec<&'static str> {
    [
        "terraform",
        "required_providers",
        "provider",
        "variable",
        "locals",
        "output",
        "module",
        "resource",
        "data",
        "ephemeral",
        "action",
        "moved",
        "removed",
        "import",
        "check",
    ]
    .into_iter()
    .filter(|kind| top_level_labels(kind, flavor).is_some())
    .collect()
}

/// The label count of nested block type `child` inside the block at `path` (block types from
/// the top level down), if Terraform reads `child` as a block there: from the decoder schema
/// of `path`, else from the blocks a provider or provisioner body may hold. Anything else in
/// a JSON body is an argument.
pub fn nested_block_labels(path: &[&str], child: &str, flavor: Flavor) -> Option<usize> {
    if let BodyDecode::Content(s) | BodyDecode::Partial(s) = body_decode(path, flavor) {
        if let Some((_, labels)) = s.blocks.iter().find(|(t, _)| *t == child) {
            return Some(labels.len());
        }
    }
    match (path.last().copied().unwrap_or(""), child) {
        ("resource" | "data" | "ephemeral" | "provider" | "module", "dynamic") => Some(1),
        ("provisioner", "connection") => Some(0),
        ("dynamic", "content") => Some(0),
        _ => None,
    }
}

/// Terraform's schema for one block body: the names its decoder reads, and what happens to
/// everything else.
#[derive(Debug)]
pub struct BodySchema {
    /// Argument names in the decoder's order (HCL suggests the first close one), and whether
    /// each is required.
    pub attrs: &'static [(&'static str, bool)],
    /// Nested block types and their label names.
    pub blocks: &'static [(&'static str, &'static [&'static str])],
    /// True when an override file's block may leave required arguments out
    /// (`schemaForOverrides`).
    pub relaxed_in_overrides: bool,
}

/// How Terraform decodes a block body when it loads a configuration.
#[derive(Debug, Clone, Copy)]
pub enum BodyDecode {
    /// `Content`: names outside the schema are errors.
    Content(&'static BodySchema),
    /// `PartialContent`: the rest is the provider's (or module's) to judge later.
    Partial(&'static BodySchema),
    /// `JustAttributes`: any argument, no blocks.
    JustAttributes,
    /// Not decoded when loading (backend settings, provisioner connections, ...).
    Any,
}

/// A schema whose required arguments hold in override files too.
pub(crate) const fn schema(
    attrs: &'static [(&'static str, bool)],
    blocks: &'static [(&'static str, &'static [&'static str])],
) -> BodySchema {
    BodySchema {
        attrs,
        blocks,
        relaxed_in_overrides: false,
    }
}

/// No labels (most nested block types).
pub(crate) const NO_LABELS: &[&str] = &[];
/// A `precondition`, `postcondition`, `validation` or `assert` body.
pub(crate) const CHECK_RULE: BodySchema =
    schema(&[("condition", true), ("error_message", true)], &[]);
// `state_store` is an experiment in Terraform 1.15: release builds leave it out of the schema.
const TERRAFORM_TF: BodySchema = schema(
    &[
        ("required_version", false),
        ("experiments", false),
        ("language", false),
    ],
    &[
        ("backend", &["type"]),
        ("cloud", NO_LABELS),
        ("required_providers", NO_LABELS),
        ("provider_meta", &["provider"]),
    ],
);
const TERRAFORM_TOFU: BodySchema = schema(
    &[
        ("required_version", false),
        ("experiments", false),
        ("language", false),
    ],
    &[
        ("backend", &["type"]),
        ("cloud", NO_LABELS),
        ("required_providers", NO_LABELS),
        ("provider_meta", &["provider"]),
        ("encryption", NO_LABELS),
    ],
);
const PROVIDER_TF: BodySchema = schema(
    &[
        ("alias", false),
        ("version", false),
        ("count", false),
        ("depends_on", false),
        ("for_each", false),
        ("source", false),
    ],
    &[
        ("_", NO_LABELS),
        ("lifecycle", NO_LABELS),
        ("locals", NO_LABELS),
    ],
);
const PROVIDER_TOFU: BodySchema = schema(
    &[
        ("alias", false),
        ("version", false),
        ("for_each", false),
        ("count", false),
        ("depends_on", false),
        ("source", false),
    ],
    &[
        ("_", NO_LABELS),
        ("lifecycle", NO_LABELS),
        ("locals", NO_LABELS),
    ],
);
const VARIABLE_TF: BodySchema = schema(
    &[
        ("description", false),
        ("default", false),
        ("type", false),
        ("sensitive", false),
        ("ephemeral", false),
        ("nullable", false),
        ("deprecated", false),
        ("const", false),
    ],
    &[("validation", NO_LABELS)],
);
const VARIABLE_TOFU: BodySchema = schema(
    &[
        ("description", false),
        ("default", false),
        ("type", false),
        ("sensitive", false),
        ("ephemeral", false),
        ("const", false),
        ("deprecated", false),
        ("nullable", false),
    ],
    &[("validation", NO_LABELS)],
);
const OUTPUT_TF: BodySchema = BodySchema {
    relaxed_in_overrides: true,
    ..schema(
        &[
            ("description", false),
            ("value", true),
            ("depends_on", false),
            ("sensitive", false),
            ("ephemeral", false),
            ("deprecated", false),
            ("type", false),
        ],
        &[("precondition", NO_LABELS), ("postcondition", NO_LABELS)],
    )
};
const OUTPUT_TOFU: BodySchema = BodySchema {
    relaxed_in_overrides: true,
    ..schema(
        &[
            ("description", false),
            ("value", true),
            ("depends_on", false),
            ("sensitive", false),
            ("ephemeral", false),
            ("deprecated", false),
        ],
        &[("precondition", NO_LABELS), ("postcondition", NO_LABELS)],
    )
};
const MODULE_BLOCKS: &[(&str, &[&str])] = &[
    ("_", NO_LABELS),
    ("lifecycle", NO_LABELS),
    ("locals", NO_LABELS),
    ("provider", &["type"]),
];
const MODULE_TF: BodySchema = BodySchema {
    relaxed_in_overrides: true,
    ..schema(
        &[
            ("source", true),
            ("version", false),
            ("count", false),
            ("for_each", false),
            ("depends_on", false),
            ("providers", false),
            ("ignore_nested_deprecations", false),
        ],
        MODULE_BLOCKS,
    )
};
const MODULE_TOFU: BodySchema = BodySchema {
    relaxed_in_overrides: true,
    ..schema(
        &[
            ("source", true),
            ("version", false),
            ("count", false),
            ("for_each", false),
            ("depends_on", false),
            ("providers", false),
        ],
        MODULE_BLOCKS,
    )
};
const MODULE_LIFECYCLE_TOFU: BodySchema = schema(&[("enabled", false)], &[]);
const RESOURCE_ATTRS: &[(&str, bool)] = &[
    ("count", false),
    ("for_each", false),
    ("provider", false),
    ("depends_on", false),
];
const RESOURCE: BodySchema = schema(
    RESOURCE_ATTRS,
    &[
        ("locals", NO_LABELS),
        ("lifecycle", NO_LABELS),
        ("connection", NO_LABELS),
        ("provisioner", &["type"]),
        ("_", NO_LABELS),
    ],
);
const DATA: BodySchema = schema(
    RESOURCE_ATTRS,
    &[
        ("lifecycle", NO_LABELS),
        ("locals", NO_LABELS),
        ("_", NO_LABELS),
    ],
);
const LIFECYCLE_TF: BodySchema = schema(
    &[
        ("create_before_destroy", false),
        ("prevent_destroy", false),
        ("ignore_changes", false),
        ("replace_triggered_by", false),
    ],
    &[
        ("precondition", NO_LABELS),
        ("postcondition", NO_LABELS),
        ("action_trigger", NO_LABELS),
    ],
);
const LIFECYCLE_TOFU: BodySchema = schema(
    &[
        ("create_before_destroy", false),
        ("prevent_destroy", false),
        ("destroy", false),
        ("ignore_changes", false),
        ("replace_triggered_by", false),
        ("enabled", false),
    ],
    &[("precondition", NO_LABELS), ("postcondition", NO_LABELS)],
);
const ACTION_TRIGGER: BodySchema = schema(
    &[("events", true), ("condition", false), ("actions", true)],
    &[],
);
const PROVISIONER: BodySchema = schema(
    &[("when", false), ("on_failure", false)],
    &[
        ("_", NO_LABELS),
        ("connection", NO_LABELS),
        ("lifecycle", NO_LABELS),
    ],
);
const MOVED: BodySchema = schema(&[("from", true), ("to", true)], &[]);
const IMPORT_TF: BodySchema = schema(
    &[
        ("provider", false),
        ("for_each", false),
        ("id", false),
        ("to", true),
        ("identity", false),
    ],
    &[],
);
const IMPORT_TOFU: BodySchema = schema(
    &[
        ("provider", false),
        ("id", false),
        ("identity", false),
        ("to", true),
        ("for_each", false),
    ],
    &[],
);
const REMOVED_TF: BodySchema = schema(
    &[("from", true)],
    &[
        ("lifecycle", NO_LABELS),
        ("connection", NO_LABELS),
        ("provisioner", &["type"]),
    ],
);
const REMOVED_TOFU: BodySchema = schema(
    &[("from", true)],
    &[("lifecycle", NO_LABELS), ("provisioner", &["type"])],
);
const REMOVED_LIFECYCLE: BodySchema = schema(&[("destroy", false)], &[]);
const CHECK: BodySchema = schema(&[], &[("data", &["type", "name"]), ("assert", NO_LABELS)]);
const ACTION: BodySchema = schema(
    &[("count", false), ("for_each", false), ("provider", false)],
    &[("config", NO_LABELS)],
);

/// The schema of a module block: its own arguments and block types.
pub fn module_schema(flavor: Flavor) -> &'static BodySchema {
    match flavor {
        Flavor::Terraform => &MODULE_TF,
        Flavor::OpenTofu => &MODULE_TOFU,
    }
}

/// How Terraform (1.15.5) and OpenTofu decode the body of the block at `path` (block types from the top level
/// down) when it loads a configuration.
pub fn body_decode(path: &[&str], flavor: Flavor) -> BodyDecode {
    use BodyDecode::{Any, Content, JustAttributes, Partial};
    let tofu = flavor == Flavor::OpenTofu;
    let pick = |tf: &'static BodySchema, of: &'static BodySchema| if tofu { of } else { tf };
    match path {
        ["terraform"] => Content(pick(&TERRAFORM_TF, &TERRAFORM_TOFU)),
        ["terraform", "required_providers" | "provider_meta"] => JustAttributes,
        ["provider"] => Partial(pick(&PROVIDER_TF, &PROVIDER_TOFU)),
        ["variable"] => Content(pick(&VARIABLE_TF, &VARIABLE_TOFU)),
        ["variable", "validation"] => Content(&CHECK_RULE),
        ["output"] => Content(pick(&OUTPUT_TF, &OUTPUT_TOFU)),
        ["output", "precondition"] => Content(&CHECK_RULE),
        ["locals"] => JustAttributes,
        ["module"] => Partial(module_schema(flavor)),
        ["module", "lifecycle"] if tofu => Content(&MODULE_LIFECYCLE_TOFU),
        ["resource"] => Partial(&RESOURCE),
        ["data" | "ephemeral"] | ["check", "data"] => Partial(&DATA),
        ["resource" | "data" | "ephemeral", "lifecycle"] | ["check", "data", "lifecycle"] => {
            Content(pick(&LIFECYCLE_TF, &LIFECYCLE_TOFU))
        }
        [.., "lifecycle", "precondition" | "postcondition"] => Content(&CHECK_RULE),
        ["resource", "lifecycle", "action_trigger"] if !tofu => Content(&ACTION_TRIGGER),
        ["resource" | "removed", "provisioner"] => Partial(&PROVISIONER),
        ["moved"] => Content(&MOVED),
        ["import"] => Content(pick(&IMPORT_TF, &IMPORT_TOFU)),
        ["removed"] => Content(pick(&REMOVED_TF, &REMOVED_TOFU)),
        ["removed", "lifecycle"] => Content(&REMOVED_LIFECYCLE),
        ["check"] => Content(&CHECK),
        ["check", "assert"] => Content(&CHECK_RULE),
        ["action"] if !tofu => Content(&ACTION),
        _ => Any,
    }
}
