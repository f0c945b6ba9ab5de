# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.0"
  constraints = "~> 3.1"
  hashes = [
    "${h1 hashicorp/null 3.2.0 linux_amd64}",
    "${zh hashicorp/null 3.2.0 linux_amd64}",
  ]
}
