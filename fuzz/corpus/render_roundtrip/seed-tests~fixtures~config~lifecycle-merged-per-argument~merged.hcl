resource "aws_instance" "web" {
  ami = "ami-1"

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags]
    prevent_destroy = true
  }
}
