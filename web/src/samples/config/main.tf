terraform {
  required_version = ">= 1.5"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.1"
    }
  }
}

provider "aws" {
  region = "eu-west-1"
}

resource "random_pet" "bucket" {
  length = 2
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs-${random_pet.bucket.id}"

  tags = {
    Team = "platform"
  }
}
