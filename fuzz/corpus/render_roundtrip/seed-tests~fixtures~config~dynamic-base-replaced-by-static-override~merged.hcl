resource "test" "a" {
  foo {}
  bar {}
}
