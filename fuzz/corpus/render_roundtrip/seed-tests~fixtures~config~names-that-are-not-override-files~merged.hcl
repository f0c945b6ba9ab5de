resource "a" "four" {}

resource "a" "three" {}

resource "a" "two" {}

resource "a" "one" {}
