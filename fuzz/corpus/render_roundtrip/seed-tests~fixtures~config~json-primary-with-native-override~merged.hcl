variable "region" {
  default = "eu-west-1"
  type = string
}

resource "aws_instance" "web" {
  ami = "a"
  lifecycle {
    create_before_destroy = true
  }
}
