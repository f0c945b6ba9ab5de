// Oracle for tflock's version module: runs apparentlymart/go-versions (the Debian package,
// v1.0.1) on cases read from stdin, one JSON object per line, and answers one JSON object
// per line.
//
// Terraform pins go-versions v1.0.2 and OpenTofu v1.0.3. v1.0.2 changed one line of
// MeetingConstraints (requested prereleases must also be in the exact set); this program
// computes that v1.0.2 result with the library's public API ("m"/"pick") and also reports
// the v1.0.1 library result ("m101"/"pick101") so the test can count where they differ.
// v1.0.3 changed only how a "v" in the separator position is handled; the test skips
// OpenTofu comparisons for strings containing "v".
//
// Input:  {"k":"c","c":"<constraint string>","v":["1.0.0",...]}  or  {"k":"v","s":"<version>"}
// Output: {"ok":bool,"err":"...","panic":"...","specs":[...],"m":[...],"m101":[...],"pick":"...","pick101":"..."}
// or {"ok":bool,"err":"...","panic":"...","v":"..."}
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

type input struct {
	K string   `json:"k"`
	C string   `json:"c"`
	V []string `json:"v"`
	S string   `json:"s"`
}

type output struct {
	Ok      bool     `json:"ok"`
	Err     string   `json:"err,omitempty"`
	Panic   string   `json:"panic,omitempty"`
	Specs   []string `json:"specs,omitempty"`
	M       []bool   `json:"m,omitempty"`
	M101    []bool   `json:"m101,omitempty"`
	Pick    string   `json:"pick,omitempty"`
	Pick101 string   `json:"pick101,omitempty"`
	Version string   `json:"v,omitempty"`
}

// meeting102 is versions.MeetingConstraints as of go-versions v1.0.2 (and v1.0.3).
func meeting102(spec constraints.Spec) versions.Set {
	exact := versions.MeetingConstraintsExact(spec)
	reqd := exact.AllRequested().List()
	set := versions.Intersection(versions.Released, exact)
	reqd = reqd.Filter(versions.Prerelease).Filter(exact)
	if len(reqd) != 0 {
		set = versions.Union(versions.Selection(reqd...), set)
	}
	return set
}

func pickString(v versions.Version) string {
	if v == versions.Unspecified {
		return "none"
	}
	return v.String()
}

func constraint(in input) (out output) {
	defer func() {
		if r := recover(); r != nil {
			out = output{Panic: fmt.Sprint(r)}
		}
	}()
	spec, err := constraints.ParseRubyStyleMulti(in.C)
	if err != nil {
		return output{Err: err.Error()}
	}
	out.Ok = true
	for _, sel := range spec {
		out.Specs = append(out.Specs, fmt.Sprintf("%c %s", rune(sel.Operator), sel.Boundary.String()))
	}
	var list versions.List
	for _, s := range in.V {
		list = append(list, versions.MustParseVersion(s))
	}
	set := meeting102(spec)
	set101 := versions.MeetingConstraints(spec)
	for _, v := range list {
		out.M = append(out.M, set.Has(v))
		out.M101 = append(out.M101, set101.Has(v))
	}
	// As Terraform's installer does: sort ascending, then the newest in the set.
	sorted := make(versions.List, len(list))
	copy(sorted, list)
	sorted.Sort()
	out.Pick = pickString(sorted.NewestInSet(set))
	out.Pick101 = pickString(sorted.NewestInSet(set101))
	return out
}

func version(in input) (out output) {
	defer func() {
		if r := recover(); r != nil {
			out = output{Panic: fmt.Sprint(r)}
		}
	}()
	v, err := versions.ParseVersion(in.S)
	if err != nil {
		return output{Err: err.Error()}
	}
	return output{Ok: true, Version: v.String()}
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for sc.Scan() {
		var in input
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			fmt.Fprintln(os.Stderr, "bad input line:", err)
			os.Exit(2)
		}
		var out output
		if in.K == "v" {
			out = version(in)
		} else {
			out = constraint(in)
		}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(os.Stderr, "encode:", err)
			os.Exit(2)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "read:", err)
		os.Exit(2)
	}
}
