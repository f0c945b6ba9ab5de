provider "example.com/ns/no-space" {
  version     = "1.2.0"
  constraints = "~>1.2" # ERROR: Invalid provider version constraints
}

provider "example.com/ns/short" {
  version     = "1.2.0"
  constraints = ">= 1.2" # ERROR: Invalid provider version constraints
}

provider "example.com/ns/unsorted" {
  version     = "1.2.0"
  constraints = "< 2.0.0, >= 1.0.0" # ERROR: Invalid provider version constraints
}

provider "example.com/ns/garbage" {
  version     = "1.2.0"
  constraints = "not a constraint" # ERROR: Invalid provider version constraints
}

provider "example.com/ns/null" {
  version     = "1.2.0"
  constraints = null # ERROR: Unsuitable value type
}

provider "example.com/ns/empty-is-fine" {
  version     = "1.2.0"
  constraints = ""
}

provider "example.com/ns/canonical" {
  version     = "1.2.0"
  constraints = "~> 1.2, >= 1.2.3, 1.2.3"
}
