package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// isKeyByte reports whether c can be part of a key as providers write them:
// base64 (standard and URL-safe) and the _ - = of prefixes and padding.
func isKeyByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

func allKeyBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isKeyByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// keyish reports whether a fragment looks generated rather than written: it
// holds a digit, or both cases after its first letter (gJTeKd, not Hello,
// AWS or LENIENT).
func keyish(s string) bool {
	upper, lower, first := false, false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			return true
		case 'a' <= c && c <= 'z':
			lower = lower || !first
			first = false
		case 'A' <= c && c <= 'Z':
			upper = upper || !first
			first = false
		}
	}
	return upper && lower
}

// leader reports whether a fragment that is not keyish may still open a
// spaced key: a provider prefix such as AKIA or ghp_.
func leader(s string) bool {
	if strings.HasSuffix(s, "_") || strings.HasSuffix(s, "-") {
		return true
	}
	return len(s) >= 3 && strings.ToUpper(s) == s && strings.ToLower(s) != s
}

// pieceGlue is what joins the quoted pieces of an assembled string:
// "sk_live_" + "abc", 'a' 'b', "a"."b".
var pieceGlue = lazyregexp.New(`([A-Za-z0-9_+/=-])["'][ \t]*[+.]?[ \t]*["']([A-Za-z0-9_+/=-])`)

// gluedPieces is a cheap test for what pieceGlue matches.
func gluedPieces(line string) bool {
	for _, q := range []byte{'"', '\''} {
		for i := strings.IndexByte(line, q); i >= 0 && i+1 < len(line); {
			j := i + 1
			for j < len(line) && (line[j] == ' ' || line[j] == '\t' || line[j] == '+' || line[j] == '.') {
				j++
			}
			if j < len(line) && (line[j] == '"' || line[j] == '\'') {
				return true
			}
			k := strings.IndexByte(line[i+1:], q)
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// glue returns the lines with what splits a key for the eye taken out, and
// the line each glued line starts on; nil when that changes nothing:
//   - quoted pieces assembled with + or juxtaposition are joined;
//   - a run of three or more space-separated fragments that look generated
//     (AKIA 6Z3F CH26 WSZ1) is written without its spaces;
//   - a line that ends in a generated-looking fragment of at least 16
//     characters is joined to the next when that starts with one of at least
//     4, as a key wrapped or cut across lines is.
func glue(lines []string) ([]string, []span) {
	changed := false
	out := make([]string, 0, len(lines))
	origin := make([]span, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if gluedPieces(line) {
			if g := pieceGlue.ReplaceAllString(line, "$1$2"); g != line {
				line, changed = g, true
			}
		}
		if g := unspace(line); g != line {
			line, changed = g, true
		}
		start := i + 1
		for joins := 0; joins < 16 && i+1 < len(lines); joins++ {
			tail := strings.TrimRight(line, " \t\"'+\\")
			if w := lastWord(tail); len(w) < 16 || !keyish(w) {
				break
			}
			next := strings.TrimLeft(lines[i+1], " \t>\"'+")
			if w := firstWord(next); len(w) < 4 || strings.HasPrefix(w, "-----") {
				break
			}
			line = tail + unspace(next)
			i++
			changed = true
		}
		out = append(out, line)
		origin = append(origin, span{first: start, last: i + 1})
	}
	if !changed {
		return nil, nil
	}
	return out, origin
}

// lastWord is the run of key bytes that ends s.
func lastWord(s string) string {
	i := len(s)
	for i > 0 && isKeyByte(s[i-1]) {
		i--
	}
	return s[i:]
}

// firstWord is the run of key bytes that starts s.
func firstWord(s string) string {
	i := 0
	for i < len(s) && isKeyByte(s[i]) {
		i++
	}
	return s[:i]
}

// unspace writes the runs of spaced generated-looking fragments of line
// without their spaces.
func unspace(line string) string {
	if strings.Count(line, " ")+strings.Count(line, "\t") < 3 {
		return line
	}
	// words yields the blank-separated words of line from i on.
	next := func(i int) (start, end int) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		start = i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		return start, i
	}
	frag := func(w string) bool { return len(w) >= 2 && len(w) <= 12 && allKeyBytes(w) }
	var b strings.Builder
	last := 0 // line[last:] is not written yet
	for s, e := next(0); s < len(line); s, e = next(e) {
		w := line[s:e]
		if !frag(w) || !keyish(w) && !leader(w) {
			continue
		}
		// A run: an optional leader, then keyish fragments.
		words, runEnd := 1, e
		for s2, e2 := next(e); s2 < len(line) && frag(line[s2:e2]) && keyish(line[s2:e2]); s2, e2 = next(e2) {
			words, runEnd = words+1, e2
		}
		if words < 3 {
			continue
		}
		b.WriteString(line[last:s])
		for ws, we := s, 0; ws < runEnd; ws, we = next(we) {
			we = ws
			for we < len(line) && line[we] != ' ' && line[we] != '\t' {
				we++
			}
			b.WriteString(line[ws:we])
		}
		last, e = runEnd, runEnd
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

// base64Runs returns the stretches of line long enough to hide a key when
// decoded: 24 or more base64 characters (either alphabet), then any padding.
func base64Runs(line string) []string {
	var runs []string
	for i := 0; i < len(line); {
		if !isKeyByte(line[i]) || line[i] == '=' {
			i++
			continue
		}
		j := i
		for j < len(line) && isKeyByte(line[j]) && line[j] != '=' {
			j++
		}
		end := j
		for end < len(line) && end-j < 2 && line[end] == '=' {
			end++
		}
		if j-i >= 24 {
			runs = append(runs, line[i:end])
		}
		i = max(end, i+1)
	}
	return runs
}

// decoded scans the base64 runs of lines: text they decode to is scanned
// again (a PEM block, a key pair, a .env file), and binary key material is
// reported as a private key.
func decoded(lines []string, origin []span, depth int) []Finding {
	var out []Finding
	inBlock := false // the body of a PEM block is the block's finding
	for i, line := range lines {
		if strings.Contains(line, "-----BEGIN ") {
			inBlock = true
		}
		if inBlock {
			inBlock = !strings.Contains(line, "-----END ")
			continue
		}
		if len(line) < 24 {
			continue
		}
		lineNo := i + 1
		if origin != nil {
			lineNo = origin[i].first
		}
		for _, run := range base64Runs(line) {
			if hexRE.MatchString(run) {
				continue // a digest or a SHA
			}
			data, ok := decodeBase64(run)
			if !ok {
				continue
			}
			switch {
			case privateKeyMaterial(data):
				out = append(out, Finding{Line: lineNo, Pattern: "private key", Excerpt: mask(run)})
			case looksText(data):
				// One finding a run: it is one secret to remove.
				if fs := scan(string(data), depth+1); len(fs) > 0 {
					out = append(out, Finding{Line: lineNo, Pattern: "base64-encoded " + fs[0].Pattern, Excerpt: mask(run)})
				}
			}
		}
	}
	return out
}

// decodeBase64 decodes s in whichever base64 alphabet and padding it is
// written in.
func decodeBase64(s string) ([]byte, bool) {
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		if strings.ContainsAny(s, "+/") {
			return nil, false
		}
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
		if len(s)%4 == 1 {
			s = s[:len(s)-1] // a stray byte, as where a run was cut
		}
	}
	data, err := enc.DecodeString(s)
	return data, err == nil
}

// looksText reports whether data is text a person wrote: valid UTF-8 with
// no control characters but line breaks and tabs.
func looksText(data []byte) bool {
	if len(data) < 16 || !utf8.Valid(data) {
		return false
	}
	for _, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// privateKeyMaterial reports whether data is the binary of a private key:
// an OpenSSH private key (its magic), or DER whose outer SEQUENCE opens
// with version 0 followed by an INTEGER (PKCS #1 RSA) or a SEQUENCE (PKCS
// #8), or with version 1 followed by an OCTET STRING (SEC 1 EC). Public keys
// and certificates open their SEQUENCE with another SEQUENCE.
func privateKeyMaterial(data []byte) bool {
	if bytes.HasPrefix(data, []byte("openssh-key-v1\x00")) {
		return true
	}
	if len(data) < 48 || data[0] != 0x30 {
		return false
	}
	i := 1
	switch l := data[i]; {
	case l < 0x80:
		i++
	case l == 0x81:
		i += 2
	case l == 0x82:
		i += 3
	default:
		return false
	}
	if i+4 > len(data) || data[i] != 0x02 || data[i+1] != 0x01 {
		return false
	}
	switch version, next := data[i+2], data[i+3]; {
	case version == 0 && (next == 0x02 || next == 0x30):
		return true
	case version == 1 && next == 0x04:
		return true
	}
	return false
}
