resource "aws_instance" "web" {
  ami = "from-tofu"
}
