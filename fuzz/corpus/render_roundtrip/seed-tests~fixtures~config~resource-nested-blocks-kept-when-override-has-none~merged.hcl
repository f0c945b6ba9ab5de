resource "aws_instance" "web" {
  ami = "ami-2"

  root_block_device {
    volume_size = 10
  }
}
