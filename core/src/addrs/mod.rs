//! Provider source addresses and platforms.
