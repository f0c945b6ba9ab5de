provider "example.com/ns/empty" {
  version = "" # ERROR: Invalid provider version number
}

provider "example.com/ns/prefixed" {
  version = "v1.0.0" # ERROR: Invalid provider version number
}

provider "example.com/ns/two-parts" {
  version = "1.0" # ERROR: Invalid provider version number
}

provider "example.com/ns/one-part" {
  version = "1" # ERROR: Invalid provider version number
}

provider "example.com/ns/padded" {
  version = "1.02" # ERROR: Invalid provider version number
}

provider "example.com/ns/number" {
  version = 1 # ERROR: Invalid provider version number
}

provider "example.com/ns/missing" { # ERROR: Missing required argument
}

provider "example.com/ns/null" {
  version = null # ERROR: Missing required argument
}

provider "example.com/ns/list" {
  version = ["1.0.0"] # ERROR: Unsuitable value type
}

provider "example.com/ns/variable" {
  version = var.v # ERROR: Variables not allowed, Unsuitable value type
}

provider "example.com/ns/fine" {
  version = "1.0.0-beta.1+meta"
}
