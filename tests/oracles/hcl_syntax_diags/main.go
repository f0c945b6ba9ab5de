// hcl_syntax_diags: hclsyntax.ParseConfig's diagnostics for many files in one run, for
// the differential test `config_syntax_errors_match_hclsyntax`.
//
// Reads a JSON list of {"name": ..., "src": <base64 bytes>} on stdin and prints a JSON list
// with, per input, the diagnostics as {severity, summary, detail, subject: {filename,
// start: {line, column, byte}, end: {...}}}. With `-tokens`, prints hclsyntax.LexConfig's
// tokens instead (type, bytes, range): a debugging aid for the scanner port.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

type input struct {
	Name string `json:"name"`
	Src  []byte `json:"src"`
}

type pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type rng struct {
	Filename string `json:"filename"`
	Start    pos    `json:"start"`
	End      pos    `json:"end"`
}

type diag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Subject  *rng   `json:"subject"`
}

type token struct {
	Type  string `json:"type"`
	Bytes string `json:"bytes"`
	Range rng    `json:"range"`
}

func toRange(r hcl.Range) rng {
	return rng{
		Filename: r.Filename,
		Start:    pos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:      pos{r.End.Line, r.End.Column, r.End.Byte},
	}
}

func main() {
	var inputs []input
	if err := json.NewDecoder(os.Stdin).Decode(&inputs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tokens := len(os.Args) > 1 && os.Args[1] == "-tokens"
	var out []interface{}
	for _, in := range inputs {
		if tokens {
			toks, _ := hclsyntax.LexConfig(in.Src, in.Name, hcl.InitialPos)
			list := []token{}
			for _, t := range toks {
				list = append(list, token{t.Type.String(), string(t.Bytes), toRange(t.Range)})
			}
			out = append(out, list)
			continue
		}
		_, diags := hclsyntax.ParseConfig(in.Src, in.Name, hcl.InitialPos)
		list := []diag{}
		for _, d := range diags {
			sev := "error"
			if d.Severity == hcl.DiagWarning {
				sev = "warning"
			}
			var subject *rng
			if d.Subject != nil {
				r := toRange(*d.Subject)
				subject = &r
			}
			list = append(list, diag{sev, d.Summary, d.Detail, subject})
		}
		out = append(out, list)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
