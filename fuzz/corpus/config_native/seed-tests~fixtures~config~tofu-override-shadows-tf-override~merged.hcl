resource "aws_instance" "web" {
  ami = "overridden by tofu file"
}
