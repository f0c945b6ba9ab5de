//! Versions, version constraints (both Terraform parse stages) and version selection.
