# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/null" {
  version     = "3.2.0"
  constraints = "~> 3.1"
  hashes = [
    "${h1 hashicorp/null 3.2.0 linux_amd64}",
    "${zh hashicorp/null 3.2.0 darwin_arm64}",
    "${zh hashicorp/null 3.2.0 linux_amd64}",
    "${zh hashicorp/null 3.2.0 windows_amd64}",
  ]
}
