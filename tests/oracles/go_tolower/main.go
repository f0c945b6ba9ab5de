// go_tolower: the entries of Go's unicode.CaseRanges that change a rune's lower case (what
// strings.ToLower applies, and Terraform with it), one "(0xLO, 0xHI, DELTA)," line each,
// DELTA being 0x110000 (unicode.UpperLower) for ranges that alternate upper and lower
// case. tflock embeds this table (core/src/gotext/to_lower.rs).
package main

import (
	"bufio"
	"fmt"
	"os"
	"unicode"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, c := range unicode.CaseRanges {
		d := c.Delta[unicode.LowerCase]
		if d == 0 {
			continue
		}
		if d == unicode.UpperLower {
			fmt.Fprintf(out, "(0x%04X, 0x%04X, 0x110000),\n", c.Lo, c.Hi)
		} else {
			fmt.Fprintf(out, "(0x%04X, 0x%04X, %d),\n", c.Lo, c.Hi, d)
		}
	}
}
