locals {
  a = "one"
  b = 2
}

locals {
  c = "three"
}
