resource "aws_instance" "web" {}

provider "aws" {
  region = "eu-west-1"
}
