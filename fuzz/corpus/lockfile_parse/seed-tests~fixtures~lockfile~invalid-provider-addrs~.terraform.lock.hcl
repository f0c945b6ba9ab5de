provider "" { # ERROR: Invalid provider source address
}

provider "hashicorp/null" { # ERROR: Non-normalized provider source address
}

provider "null" { # ERROR: Non-normalized provider source address
}

provider "a/b/c/d" { # ERROR: Invalid provider source address
}

provider "Registry.Terraform.io/hashicorp/null" { # ERROR: Non-normalized provider source address
}

provider "registry.terraform.io/HashiCorp/null" { # ERROR: Non-normalized provider source address
}

provider "registry.terraform.io/hashicorp/Null" { # ERROR: Non-normalized provider source address
}

provider "example.com/ns/ok" {
  version = "1.0.0"
}

provider "example.com/ns/ok" { # ERROR: Duplicate provider lock
  version = "2.0.0"
}

# Legacy (namespace "-") and built-in providers are never locked.
provider "registry.terraform.io/-/null" { # ERROR: Invalid provider source address
}

provider "terraform.io/builtin/terraform" { # ERROR: Invalid provider source address
}
