# The web tier.
# See override.tf for the AMI.
resource "aws_instance" "web" {
  # size chosen for the demo
  instance_type = "t2.micro" # cheap
  # pinned by the platform team
  ami = "foo"

  tags = {
    Name = "web" # shown in the console
  }
}

/* untouched block keeps everything */
resource "aws_eip" "ip" {
  instance   = aws_instance.web.id   # odd spacing kept
}
