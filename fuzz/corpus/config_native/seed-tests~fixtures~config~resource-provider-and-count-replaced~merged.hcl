resource "aws_instance" "web" {
  provider = aws.west
  count    = 3
}
