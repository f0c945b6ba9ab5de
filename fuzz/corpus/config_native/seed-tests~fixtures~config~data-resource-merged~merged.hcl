data "aws_ami" "ubuntu" {
  most_recent = true
  owners = ["self"]
}
