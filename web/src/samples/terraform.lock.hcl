# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/null" {
  version = "2.1.0"
  hashes = [
    "zh:c0a29558187e5115cc270d1b2e28f1472dec39fa6e5ad42af27094631a6e0fc0",
    "h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=",
  ]
}

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:ltxyuBWIy9cq0kIKDJH1jeWJy/y7XJLjS4QrsQK4plA=",
  ]
}
