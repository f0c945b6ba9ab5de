variable "x" {
  type = string
  validation {
    condition     = length(var.x) > 2
    error_message = "Too short."
  }
  description = "overridden"
}
