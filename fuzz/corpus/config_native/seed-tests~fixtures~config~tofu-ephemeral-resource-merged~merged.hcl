ephemeral "random_password" "p" {
  length = 32
}
