variable "name" {
  default = "x"
}

output "upper" {
  value = "${upper("x")}-lit \"q\" \\ $${not} %%{no}"
  description = "overridden"
}

output "nested" {
  value = "a${jsonencode({a = "x}", b = ["${var.name}"]})}b"
}

output "directive" {
  value = "%{ if var.name == "x" }yes%{ else }no%{ endif }"
}
