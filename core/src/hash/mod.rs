//! Provider package hashes: the `h1:` (Go dirhash Hash1) and `zh:` (zip SHA-256) schemes.
