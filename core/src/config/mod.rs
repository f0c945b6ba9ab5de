//! Module loading from in-memory files, override merging and provider requirements.
