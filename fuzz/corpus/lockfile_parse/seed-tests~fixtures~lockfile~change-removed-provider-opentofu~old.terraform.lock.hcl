# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/aws" {
  version     = "3.9.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:+VeSLQgQcFBhFo/NLv452Z7FPUu8H2rpRVAH2cLLqH4=",
    "zh:3656e0eb0e3e61c662c00e71b32f7f59391aaab9db2806b16add32e1f6d1f2d1",
    "zh:9bda8dd62fd96ec5030ab24f499d4cbaf6c40d961fa81c3fef4fa0024a820120",
  ]
}

provider "registry.opentofu.org/hashicorp/azurerm" {
  version     = "2.30.0"
  constraints = "~> 2.12"
  hashes = [
    "h1:FJwsuowaG5CIdZ0WQyFZH9r6kIJeRKts9+GcRsTz1+Y=",
    "h1:c/ntSXrDYM1mUir2KufijYebPcwKqS9CRGd3duDSGfY=",
    "h1:yre4Ph76g9H84MbuhZ2z5MuldjSA4FsrX6538O7PCcY=",
    "zh:04f0a50bb2ba92f3bea6f0a9e549ace5a4c13ef0cbb6975494cac0ef7d4acb43",
    "zh:2082e12548ebcdd6fd73580e83f626ed4ed13f8cdfd51205d8696ffe54f30734",
    "zh:246bcc449e9a92679fb30f3c0a77f05513886565e2dcc66b16c4486f51533064",
    "zh:24de3930625ac9014594d79bfa42d600eca65e9022b9668b54bfd0d924e21d14",
    "zh:2a22893a576ff6f268d9bf81cf4a56406f7ba79f77826f6df51ee787f6d2840a",
    "zh:2b27485e19c2aaa9f15f29c4cff46154a9720647610171e30fc6c18ddc42ec28",
    "zh:435f24ce1fb2b63f7f02aa3c84ac29c5757cd29ec4d297ed0618423387fe7bd4",
    "zh:7d99725923de5240ff8b34b5510569aa4ebdc0bdb27b7bac2aa911a8037a3893",
    "zh:7e3b5d0af3b7411dd9dc65ec9ab6caee8c191aee0fa7f20fc4f51716e67f50c0",
    "zh:da0af4552bef5a29b88f6a0718253f3bf71ce471c959816eb7602b0dadb469ca",
  ]
}

provider "registry.opentofu.org/newrelic/newrelic" {
  version     = "2.1.2"
  constraints = "~> 2.1.1"
  hashes = [
    "h1:9+n6L3NOIRpxnbz0oRCYEM9uWgGBIF6BJi7Tw32pHa8=",
    "zh:4e5e4d4be3c5d9eed82e7c5e5f2210eecb457b31cc28cf68720f45c8af0d2ee6",
    "zh:cbf40a279ad2a975fda4992fd2284234e97ce9e1a366d662518bdaef8a915022",
    "zh:ccde2e1cba851f7315f3644d89b81af67d52e8324f22f6a30fb193b8b1383e87",
  ]
}
