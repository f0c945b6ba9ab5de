resource "a" "b" {}
