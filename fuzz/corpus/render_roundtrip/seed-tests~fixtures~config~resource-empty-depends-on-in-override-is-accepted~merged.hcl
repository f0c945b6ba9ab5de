resource "aws_instance" "web" {
  ami = "ami-1"
}
