terraform {
  backend "local" {
    path = "override.tfstate"
  }
}
