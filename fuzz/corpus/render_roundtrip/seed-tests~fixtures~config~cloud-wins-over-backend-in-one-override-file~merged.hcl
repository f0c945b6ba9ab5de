terraform {
  cloud {
    organization = "acme"
  }
}
