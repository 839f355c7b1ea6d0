// Package secrets finds credentials in text that is about to become a memory.
//
// Memories are committed to git and shared with the team, so every write path
// (store, capture, enrich, MCP) and the pre-commit hook refuse text in which
// Scan finds something. Scan looks for the common providers' API keys and
// webhook URLs, the logins config files keep (a kubeconfig's token, a Docker
// config's auth), private keys (PEM blocks, age identities), connection
// strings with an inline password, high-entropy tokens written right after a
// key, secret, token or password word, and passwords assigned or told
// (DB_PASSWORD=…, "the admin password is …"). It
// reads a key the way a person would see it too: spaced in groups, cut across
// lines, assembled from quoted pieces, or base64-encoded (a PEM file, a key
// pair, bare DER or OpenSSH key material). It is tuned against what memories
// legitimately hold: git SHAs, UUIDs, digests, colours, paths, URLs without
// credentials, public keys and certificates, Stripe object ids (cus_…, pi_…),
// environment variable and secret-manager names (STRIPE_SECRET_KEY), key
// prefixes written to name a kind of key (sk_live_…), code that reads a
// secret (os.Getenv(…)), and placeholder passwords (:password@, ${VAR}).
//
// A Finding never carries the secret: its Excerpt shows at most the first
// four characters. The package is not on the prompt path; its regular
// expressions are compiled once, at package initialisation.
package secrets

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Finding is one suspected credential.
type Finding struct {
	Line    int    // 1-based
	Pattern string // what it looks like, e.g. "AWS access key id"
	Excerpt string // at most the first 4 characters, then "…"
}

// Error is returned by Check. Its message names the first finding; Findings
// holds them all.
type Error struct {
	Name     string
	Findings []Finding
}

func (e *Error) Error() string {
	f := e.Findings[0]
	where := fmt.Sprintf("line %d", f.Line)
	if e.Name != "" {
		where = fmt.Sprintf("%s:%d", e.Name, f.Line)
	}
	more := ""
	if n := len(e.Findings) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return fmt.Sprintf("%s: looks like %s %s%s; memories are committed to git, so secrets must not be stored",
		where, article(f.Pattern), f.Pattern, more)
}

// Check returns an *Error naming the pattern and line of the first credential
// Scan finds in text, or nil. name (a file name, a slug) prefixes the message.
func Check(name, text string) error {
	if fs := Scan(text); len(fs) > 0 {
		return &Error{Name: name, Findings: fs}
	}
	return nil
}

// Scan returns the suspected credentials in text, in reading order.
//
// Each line is read three ways: as written; glued, with what splits a key
// for the eye taken out (a key written in spaced groups, cut across lines,
// or assembled from quoted pieces); and decoded, where a run of base64
// hides text (scanned again) or key material (an OpenSSH or DER private
// key). A finding of the glued or decoded reading is reported on the line
// where its text starts, once.
func Scan(text string) []Finding { return scan(text, 0) }

// maxDecodeDepth bounds how deep base64 within base64 is followed.
const maxDecodeDepth = 2

func scan(text string, depth int) []Finding {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	view, origin := glue(lines)
	if view == nil {
		view = lines
	}
	// What a run decodes to names it better than its entropy does: decoded
	// findings go first, and the others do not repeat them.
	var out []Finding
	if depth < maxDecodeDepth {
		out = decoded(view, origin, depth)
	}
	out = appendNew(out, scanLines(lines, nil), nil)
	if origin != nil {
		out = appendNew(out, scanLines(view, origin), origin)
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Line - b.Line })
	return out
}

// span is the lines, 1-based and inclusive, that a line of a glued reading
// was made of.
type span struct{ first, last int }

// appendNew appends the findings of more that out does not already hold on
// the lines the finding's line was made of (origin, when set), by pattern
// or by excerpt.
func appendNew(out, more []Finding, origin []span) []Finding {
	n := len(out)
next:
	for _, f := range more {
		lines := span{f.Line, f.Line}
		for _, o := range origin {
			if o.first == f.Line {
				lines = o
				break
			}
		}
		for _, g := range out[:n] {
			if lines.first <= g.Line && g.Line <= lines.last && (f.Pattern == g.Pattern || f.Excerpt == g.Excerpt) {
				continue next
			}
		}
		out = append(out, f)
	}
	return out
}

// scanLines runs the patterns over lines; origin, when set, gives each
// line's 1-based number in the text, which is otherwise its index plus one.
func scanLines(lines []string, origin []span) []Finding {
	var out []Finding
	for i, line := range lines {
		lineNo := i + 1
		if origin != nil {
			lineNo = origin[i].first
		}
		var found []match // on this line; patterns run most specific first
		add := func(p *pattern, start, end int, value string) {
			for _, s := range found {
				if start < s.end && s.start < end {
					return // already reported by a more specific pattern
				}
			}
			found = append(found, match{start, end, Finding{Line: lineNo, Pattern: p.name, Excerpt: mask(value)}})
		}
		if loc := privateKeyRE.FindStringIndex(line); loc != nil && keyBodyFollows(line[loc[1]:], lines[i+1:]) {
			add(&privateKey, loc[0], loc[1], line[loc[0]:loc[1]])
		}
		lower := strings.ToLower(line)
		for _, p := range patterns {
			if !containsAny(lower, p.hints) {
				continue
			}
			if p.gate != nil && !p.gate.MatchString(line) {
				continue
			}
			for _, m := range p.re.FindAllStringSubmatchIndex(line, -1) {
				g := 2 * p.group
				if m[g] < 0 {
					continue
				}
				sub := make([]string, len(m)/2)
				for j := range sub {
					if m[2*j] >= 0 {
						sub[j] = line[m[2*j]:m[2*j+1]]
					}
				}
				if p.ok != nil && !p.ok(sub) {
					continue
				}
				start, end := m[g], m[g+1]
				add(p, start, end, line[start:end])
			}
		}
		slices.SortFunc(found, func(a, b match) int { return a.start - b.start })
		for _, s := range found {
			out = append(out, s.Finding)
		}
	}
	return out
}

// match is a finding and the bytes of its line it covers.
type match struct {
	start, end int
	Finding
}

// mask keeps at most the first four characters of v, and fewer of a short v.
func mask(v string) string {
	n := min(4, utf8.RuneCountInString(v)/2)
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(v[i:])
		i += size
	}
	return v[:i] + "…"
}

func article(pattern string) string {
	switch strings.ToLower(pattern)[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	if strings.HasPrefix(pattern, "npm") {
		return "an"
	}
	return "a"
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// classes reports which character classes s contains.
func classes(s string) (upper, lower, digit bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z':
			lower = true
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	return
}

// random reports whether a key's body looks generated rather than written by
// a person as a placeholder (xxxx, EXAMPLE, 1234…, your_key_here).
func random(body string) bool {
	lower := strings.ToLower(body)
	for _, p := range []string{"example", "xxxx", "****", "your", "placeholder", "redacted", "dummy", "0000", "1234"} {
		if strings.Contains(lower, p) {
			return false
		}
	}
	distinct := map[rune]bool{}
	for _, r := range body {
		distinct[r] = true
	}
	return len(distinct) >= 8
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return len(subs) == 0
}
