provider "aws" {
  region = "eu-west-1"
  profile = "dev"
}
