resource "aws_instance" "web" {
  ami = "ami-1"
  ebs_block_device {
    device_name = "/dev/sdz"
  }

  root_block_device {
    volume_size = 10
  }
}
