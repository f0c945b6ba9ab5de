module "m" {
  source    = "./m"
  providers = { aws = aws.west }
}
