variable "fully_overridden" {
  default     = "b_override"
  description = "b_override description"
  type        = string
  nullable    = false
}

variable "partially_overridden" {
  default = "b_override partial"
  description = "base description"
  type        = string
}
