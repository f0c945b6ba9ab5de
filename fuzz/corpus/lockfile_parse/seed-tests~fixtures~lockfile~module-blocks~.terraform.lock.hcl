module "first" { # WARNING: Dependency locks for modules are not yet supported
  anything = "goes"
}

module "second" {
}

provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.1"
}
