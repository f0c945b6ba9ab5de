terraform {
  required_providers {
    aws = {
      version = "~> 6.0"
    }
    random = {
      source = "hashicorp/random"
    }
  }
}
