resource "aws_instance" "web" {
  ami = "ami-${var.suffix}"
  instance_type = "t2.micro"
  provider = aws.west
  tags = {
    "Name" = "web"
    "n" = 1
  }
}
