resource "null_resource" "a" {}

terraform {
  backend "local" {
    path = "x.tfstate"
  }
}
