resource "a" "b" {
  x = 2
}
