variable "port" {
  default = "8080"
  type = number
}
