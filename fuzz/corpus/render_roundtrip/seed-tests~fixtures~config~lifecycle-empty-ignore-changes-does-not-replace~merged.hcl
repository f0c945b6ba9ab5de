resource "aws_instance" "web" {
  lifecycle {
    ignore_changes = [tags]
  }
}
