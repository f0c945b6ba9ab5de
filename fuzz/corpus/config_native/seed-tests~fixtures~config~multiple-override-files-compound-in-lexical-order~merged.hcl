resource "aws_instance" "web" {
  ami = "from-override"
  instance_type = "from-a"
  tags = {}
}
