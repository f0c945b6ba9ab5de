output "ip" {
  value       = aws_eip.ip.public_ip
  description = "Public IP"
  sensitive   = true
}
