provider "example.com/ns/empty" {
  version = "1.0.0"
  hashes  = [] # ERROR: Invalid provider hash set
}

provider "example.com/ns/not-a-list" {
  version = "1.0.0"
  hashes  = "h1:abc" # ERROR: Invalid expression
}

provider "example.com/ns/no-scheme" {
  version = "1.0.0"
  hashes = [ # ERROR: Invalid provider hash string
    "h1:fine",
    "no-colon-here",
    ":empty-scheme",
  ]
}

provider "example.com/ns/null-element" {
  version = "1.0.0"
  hashes = [
    null, # ERROR: Unsuitable value type
  ]
}

provider "example.com/ns/unknown-scheme-kept" {
  version = "1.0.0"
  hashes = [
    "zz:kept-as-is",
    "h1:b",
    "h1:a",
    "h1:a",
  ]
}
