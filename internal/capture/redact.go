package capture

import (
	"strings"

	"github.com/mem-dev/mem/internal/secrets"
)

// Masked is what stands in a digest line for a word that looked like a
// secret; Withheld stands for a whole line whose secret could not be masked
// word by word.
const (
	Masked   = "[secret masked]"
	Withheld = "[line withheld: it held what looks like a secret]"
)

// maskSecrets returns line with each secret secrets.Scan finds in it
// replaced by Masked, so that a credential a tool printed never reaches the
// model (and so never a proposal). It asks the detector itself rather than
// copying its patterns: a whitespace-separated word that starts a finding's
// excerpt (the secret's first characters) is masked, and kept masked when
// that removes a finding. Only such words are tried, never the word before
// a secret ("password"), whose masking would hide the finding and keep the
// secret. A line that still has a finding afterwards, or holds a private key
// block (whose body follows its header on the same line once the digest has
// joined the lines), is withheld whole. A line with no finding costs one scan.
func maskSecrets(line string) (out string, masked, withheld bool) {
	found := secrets.Scan(line)
	if len(found) == 0 {
		return line, false, false
	}
	var starts []string
	for _, f := range found {
		if strings.Contains(f.Pattern, "private key") {
			return Withheld, false, true
		}
		if p := strings.TrimSuffix(f.Excerpt, "…"); p != "" {
			starts = append(starts, p)
		}
	}
	words := strings.Fields(line)
	n := len(found)
	for i, w := range words {
		if n == 0 {
			break
		}
		if !containsAnyOf(w, starts) {
			continue
		}
		words[i] = Masked
		if m := len(secrets.Scan(strings.Join(words, " "))); m < n {
			n = m
			continue
		}
		words[i] = w
	}
	if n > 0 {
		return Withheld, false, true
	}
	return strings.Join(words, " "), true, false
}

func containsAnyOf(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
