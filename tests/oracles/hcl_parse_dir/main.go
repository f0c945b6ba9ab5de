// hcl_parse_dir: the baseline for `cargo xtask bench merge`. Reads every file of one
// directory into memory, then parses each `.tf` file with hclsyntax.ParseConfig (the parse
// alone, no decoding or merging) `runs` times and prints the best run's wall time in
// nanoseconds and the number of files parsed: `<ns> <files>`.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func main() {
	dir := os.Args[1]
	runs, _ := strconv.Atoi(os.Args[2])
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var names []string
	srcs := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		names = append(names, e.Name())
		srcs[e.Name()] = b
	}
	sort.Strings(names)
	best := time.Duration(1 << 62)
	for r := 0; r < runs; r++ {
		start := time.Now()
		for _, n := range names {
			_, diags := hclsyntax.ParseConfig(srcs[n], n, hcl.InitialPos)
			if diags.HasErrors() {
				fmt.Fprintln(os.Stderr, diags.Error())
				os.Exit(1)
			}
		}
		if d := time.Since(start); d < best {
			best = d
		}
	}
	fmt.Printf("%d %d\n", best.Nanoseconds(), len(names))
}
