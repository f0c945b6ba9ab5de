resource "test" "a" {
  dynamic "foo" {
    for_each = []
    content {}
  }
}
