// go_isprint: prints the code point ranges for which Go's unicode.IsPrint is true, one
// "0xSTART, 0xEND" pair per line (inclusive). hclwrite escapes every other rune in quoted
// strings as \uXXXX / \UXXXXXXXX, so tflock's writer embeds this table.
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
	start := -1
	for r := 0; r <= unicode.MaxRune+1; r++ {
		p := r <= unicode.MaxRune && unicode.IsPrint(rune(r))
		if p && start < 0 {
			start = r
		} else if !p && start >= 0 {
			fmt.Fprintf(out, "(0x%04X, 0x%04X),\n", start, r-1)
			start = -1
		}
	}
}
