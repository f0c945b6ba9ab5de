module "example" {
  source = "./example2-a_override"

  kept = "primary kept"
  foo = "a_override foo"

  providers = {
    test = test.b_override
  }
  depends_on = [null_resource.test]
  new   = "b_override new"
  newer = "b_override newer"
}

resource "null_resource" "test" {}
