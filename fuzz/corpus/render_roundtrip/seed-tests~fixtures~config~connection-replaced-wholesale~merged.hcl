resource "null_resource" "a" {
  connection {
    host = "b"
  }
}
