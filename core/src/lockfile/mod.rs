//! The dependency lock file `.terraform.lock.hcl`: read, write, update, review, merge.
