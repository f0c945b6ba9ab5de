# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "example.com:8443/испытание/münchen" {
  version = "0.1.0-alpha.2"
}

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.1"
  constraints = ">= 3.0.0, < 4.0.0"
  hashes = [
    "h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=",
    "zh:299dd806df78cb0537e5c111019eaca6e6b7797e1b63cb37cc6a76f91c6c0782",
  ]
}
