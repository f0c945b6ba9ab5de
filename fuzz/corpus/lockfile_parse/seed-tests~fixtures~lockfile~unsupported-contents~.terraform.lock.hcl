doodad "x" { # ERROR: Unsupported block type
}

providers "example.com/ns/t" { # ERROR: Unsupported block type
}

stray = true # ERROR: Unsupported argument

provider { # ERROR: Missing source_addr for provider
}

provider "example.com/ns/a" "extra" { # ERROR: Extraneous label for provider
}

provider "example.com/ns/t" {
  version = "1.0.0"
  versions = "2.0.0" # ERROR: Unsupported argument
  platform "linux_amd64" { # ERROR: Unsupported block type
  }
}
