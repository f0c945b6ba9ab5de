terraform {
  cloud {
    organization = "x"
  }
}
