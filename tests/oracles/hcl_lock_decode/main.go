// hcl_lock_decode: Terraform's lock file decoding (depsfile decodeLocksFromHCL) run on the
// real HCL parser and gohcl decoder, to check tflock's reading of HCL structure, values,
// diagnostics and ranges. The product-level validators (provider address, version and
// constraint parsing) are given in the input, computed by tflock's own tested modules, so
// that only the HCL-facing layer is compared.
//
// Input, one JSON object per line:
//   {"src": "...", "addrs": {label: {"kind": "ok|invalid|builtin|legacy", "canon": "..."}},
//    "versions": {raw: {"err": "...", "canon": "..."}},
//    "constraints": {raw: {"err": "...", "canon": "..."}}, "product": "Terraform", "pv": "1.14.0"}
// Output, one JSON object per line: {"parse_failed": bool, "diags": [...], "locks": [...]}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

type check struct {
	Kind  string `json:"kind"`
	Err   string `json:"err"`
	Canon string `json:"canon"`
}

type input struct {
	Src         string           `json:"src"`
	Addrs       map[string]check `json:"addrs"`
	Versions    map[string]check `json:"versions"`
	Constraints map[string]check `json:"constraints"`
	Product     string           `json:"product"`
	PV          string           `json:"pv"`
}

type diag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Range    string `json:"range"`
}

type lock struct {
	Addr        string   `json:"addr"`
	Version     string   `json:"version"`
	Constraints string   `json:"constraints"`
	Hashes      []string `json:"hashes"`
}

type output struct {
	ParseFailed bool   `json:"parse_failed"`
	Diags       []diag `json:"diags"`
	Locks       []lock `json:"locks"`
}

func conv(ds hcl.Diagnostics) []diag {
	var out []diag
	for _, d := range ds {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		r := ""
		if d.Subject != nil {
			r = d.Subject.String()
		}
		out = append(out, diag{sev, d.Summary, d.Detail, r})
	}
	return out
}

func errd(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

func decode(in input) output {
	var diags hcl.Diagnostics
	f, pd := hclsyntax.ParseConfig([]byte(in.Src), "f.hcl", hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if pd.HasErrors() {
		return output{ParseFailed: true, Diags: conv(pd)}
	}
	content, cd := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "provider", LabelNames: []string{"source_addr"}},
		{Type: "module", LabelNames: []string{"path"}},
	}})
	diags = append(diags, cd...)
	seen := map[string]hcl.Range{}
	seenModule := false
	var locks []lock
	for _, block := range content.Blocks {
		if block.Type == "module" {
			if !seenModule {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning,
					Summary: "Dependency locks for modules are not yet supported",
					Detail: fmt.Sprintf("%s v%s only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of %s that also supports dependency locks for modules.", in.Product, in.PV, in.Product),
					Subject: block.TypeRange.Ptr()})
				seenModule = true
			}
			continue
		}
		raw := block.Labels[0]
		a := in.Addrs[raw]
		lr := block.LabelRanges[0]
		switch a.Kind {
		case "invalid":
			diags = append(diags, errd("Invalid provider source address", "The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\".", lr))
			continue
		case "builtin":
			diags = append(diags, errd("Invalid provider source address", fmt.Sprintf("Cannot lock a version for built-in provider %s. Built-in providers are bundled inside %s itself, so you can't select a version for them independently of the %s release you are currently running.", a.Canon, in.Product, in.Product), lr))
			continue
		case "legacy":
			diags = append(diags, errd("Invalid provider source address", fmt.Sprintf("Provider source address %s is a special provider that is not eligible for dependency locking.", a.Canon), lr))
			continue
		}
		if a.Canon != raw {
			diags = append(diags, errd("Non-normalized provider source address", fmt.Sprintf("The provider source address for this provider lock must be written as %q, the fully-qualified and normalized form.", a.Canon), lr))
			continue
		}
		addr := a.Canon
		bc, bd := block.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
			{Name: "version", Required: true}, {Name: "constraints"}, {Name: "hashes"},
		}})
		diags = append(diags, bd...)
		l := lock{Addr: addr, Version: "0.0.0", Hashes: []string{}}
		if attr := bc.Attributes["version"]; attr != nil {
			var raw *string
			d := gohcl.DecodeExpression(attr.Expr, nil, &raw)
			diags = append(diags, d...)
			if !d.HasErrors() {
				if raw == nil {
					diags = append(diags, errd("Missing required argument", "A provider lock block must contain a \"version\" argument.", attr.Expr.Range()))
				} else {
					v := in.Versions[*raw]
					if v.Err != "" {
						diags = append(diags, errd("Invalid provider version number", fmt.Sprintf("The selected version number for provider %s is invalid: %s.", addr, v.Err), attr.Expr.Range()))
					}
					if v.Canon != *raw {
						diags = append(diags, errd("Invalid provider version number", fmt.Sprintf("The selected version number for provider %s must be written in normalized form: %q.", addr, v.Canon), attr.Expr.Range()))
					}
					l.Version = v.Canon
				}
			}
		}
		if attr := bc.Attributes["constraints"]; attr != nil {
			var raw string
			d := gohcl.DecodeExpression(attr.Expr, nil, &raw)
			diags = append(diags, d...)
			if !d.HasErrors() {
				c := in.Constraints[raw]
				if c.Err != "" {
					diags = append(diags, errd("Invalid provider version constraints", fmt.Sprintf("The recorded version constraints for provider %s are invalid: %s.", addr, c.Err), attr.Expr.Range()))
				}
				if c.Canon != raw {
					diags = append(diags, errd("Invalid provider version constraints", fmt.Sprintf("The recorded version constraints for provider %s must be written in normalized form: %q.", addr, c.Canon), attr.Expr.Range()))
				}
				l.Constraints = c.Canon
			}
		}
		if attr := bc.Attributes["hashes"]; attr != nil {
			exprs, d := hcl.ExprList(attr.Expr)
			diags = append(diags, d...)
			if !d.HasErrors() {
				if len(exprs) == 0 {
					diags = append(diags, errd("Invalid provider hash set", "The \"hashes\" argument must either be omitted or contain at least one hash value.", attr.Expr.Range()))
				}
				for _, e := range exprs {
					var raw string
					d := gohcl.DecodeExpression(e, nil, &raw)
					diags = append(diags, d...)
					if d.HasErrors() {
						continue
					}
					if i := strings.IndexByte(raw, ':'); i < 1 {
						diags = append(diags, errd("Invalid provider hash string", fmt.Sprintf("Cannot interpret %q as a provider hash: hash string must start with a scheme keyword followed by a colon.", raw), attr.Expr.Range()))
						continue
					}
					l.Hashes = append(l.Hashes, raw)
				}
			}
		}
		if prev, ok := seen[addr]; ok {
			diags = append(diags, errd("Duplicate provider lock", fmt.Sprintf("This lockfile already declared a lock for provider %s at %s.", addr, prev.String()), block.TypeRange))
			continue
		}
		seen[addr] = block.DefRange
		locks = append(locks, l)
	}
	return output{Diags: conv(diags), Locks: locks}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var i input
		if err := json.Unmarshal(in.Bytes(), &i); err != nil {
			fmt.Fprintf(os.Stderr, "bad input line: %s\n", err)
			os.Exit(2)
		}
		enc, _ := json.Marshal(decode(i))
		out.Write(enc)
		out.WriteByte('\n')
	}
}
