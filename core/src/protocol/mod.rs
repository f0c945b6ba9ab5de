//! Registry, network-mirror and CLI-config protocol models, and signed SHA256SUMS.
