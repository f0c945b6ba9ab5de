// Oracle for tflock's provider-address normalization: golang.org/x/net/idna (the Debian
// package) with the Lookup profile Terraform uses, wrapped in the short checks that
// terraform-registry-address (ParseProviderPart) and terraform-svchost (ForComparison)
// apply around it. Those two libraries are not packaged for Debian, so their few lines of
// logic are restated here; the IDNA processing, the part that is hard to get right, is
// the real library.
//
// Input: one JSON object per line, {"k":"part"|"host","s":"..."}.
// Output: one JSON object per line, {"ok":bool,"v":"...","err":"..."}.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

type input struct {
	K string `json:"k"`
	S string `json:"s"`
}

type output struct {
	Ok  bool   `json:"ok"`
	V   string `json:"v,omitempty"`
	Err string `json:"err,omitempty"`
}

func part(given string) (string, error) {
	switch {
	case given == "":
		return "", errors.New("must have at least one character")
	case strings.Contains(given, "."):
		return "", errors.New("dots are not allowed")
	case strings.Contains(given, "--"):
		return "", errors.New("cannot use multiple consecutive dashes")
	}
	out, err := idna.Lookup.ToUnicode(given)
	if err != nil {
		return "", errors.New("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")
	}
	return out, nil
}

func port(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	n, err := strconv.Atoi(p[1:])
	if err != nil {
		return "", errors.New("port portion contains non-digit characters")
	}
	if n == 443 {
		return "", nil
	}
	if n > 65535 {
		return "", errors.New("port number is greater than 65535")
	}
	return ":" + strconv.Itoa(n), nil
}

func host(given string) (string, error) {
	h, p := given, ""
	if i := strings.Index(given, ":"); i >= 0 {
		h, p = given[:i], given[i:]
	}
	p, err := port(p)
	if err != nil {
		if l := strings.ToLower(h); l == "http" || l == "https" {
			return "", errors.New("need just a hostname and optional port number, not a full URL")
		}
		return "", err
	}
	if h == "" {
		return "", errors.New("empty string is not a valid hostname")
	}
	// Labels as svchost walks them: one trailing dot ends the walk.
	for start := 0; start < len(h); {
		end := strings.IndexByte(h[start:], '.')
		if end < 0 {
			end = len(h)
		} else {
			end += start
		}
		label := h[start:end]
		if label == "" {
			return "", errors.New("hostname contains empty label (two consecutive periods)")
		}
		if strings.HasPrefix(label, "xn--") {
			return "", fmt.Errorf("hostname label %q specified in punycode format; service hostnames must be given in unicode", label)
		}
		start = end + 1
		if start == len(h)-1 && h[start] == '.' {
			break
		}
	}
	ascii, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", err
	}
	return ascii + p, nil
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
		var v string
		var err error
		if in.K == "host" {
			v, err = host(in.S)
		} else {
			v, err = part(in.S)
		}
		out := output{Ok: err == nil, V: v}
		if err != nil {
			out.Err = err.Error()
		}
		if err := enc.Encode(out); err != nil {
			os.Exit(2)
		}
	}
}
