resource "a" "b" {
  x = 1
  y = 3
}
