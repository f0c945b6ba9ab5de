resource "aws_instance" "web" {
  ami = "second"
}
