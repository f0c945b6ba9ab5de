# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "3.9.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:+VeSLQgQcFBhFo/NLv452Z7FPUu8H2rpRVAH2cLLqH4=",
    "zh:3656e0eb0e3e61c662c00e71b32f7f59391aaab9db2806b16add32e1f6d1f2d1",
    "zh:9bda8dd62fd96ec5030ab24f499d4cbaf6c40d961fa81c3fef4fa0024a820120",
  ]
}

provider "registry.terraform.io/newrelic/newrelic" {
  version     = "2.1.2"
  constraints = "~> 2.1.1"
  hashes = [
    "h1:9+n6L3NOIRpxnbz0oRCYEM9uWgGBIF6BJi7Tw32pHa8=",
    "zh:4e5e4d4be3c5d9eed82e7c5e5f2210eecb457b31cc28cf68720f45c8af0d2ee6",
    "zh:cbf40a279ad2a975fda4992fd2284234e97ce9e1a366d662518bdaef8a915022",
    "zh:ccde2e1cba851f7315f3644d89b81af67d52e8324f22f6a30fb193b8b1383e87",
  ]
}
