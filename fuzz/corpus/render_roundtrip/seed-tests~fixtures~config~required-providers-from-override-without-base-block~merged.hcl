resource "bar_thing" "bt" {}

terraform {
  required_providers {
    bar = {
      source  = "blorp/bar"
      version = "~>2.0.0"
    }
  }
}
