package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/internal/locate"
)

// Draft is a skill draft as the model writes it.
type Draft struct {
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	FailurePrevented string   `json:"failure_prevented"`
	EvidenceSessions []string `json:"evidence_sessions"`
	Paths            []string `json:"paths"`
	Body             string   `json:"body"`
	Justification    string   `json:"justification"`
}

// One page: the most a draft's body may hold.
const (
	MaxBodyLines = 60
	MaxBodyBytes = 4000
)

// minFailureMatch is how many characters of an indexed error the named
// failure must quote (less when the error itself is shorter, never under
// minShortError).
const (
	minFailureMatch = 20
	minShortError   = 12
)

// Gate names, in the order they are checked.
const (
	GateName          = "name"
	GateShadow        = "shadow"
	GateFailure       = "failure"
	GatePaths         = "paths"
	GatePage          = "page"
	GateSessions      = "sessions"
	GateJustification = "justification"
)

// Failure is one gate a draft did not pass.
type Failure struct {
	Gate   string `json:"gate"`
	Reason string `json:"reason"`
}

func (f Failure) String() string { return f.Gate + ": " + f.Reason }

// Evidence is what the index knows of the procedure a draft is for.
type Evidence struct {
	// Seen lists the sessions the index saw the procedure in.
	Seen []string
	// Errors holds the text of each indexed error (message, then the
	// failed command's normal form), by session.
	Errors map[string][]string
}

// Gate admits or rejects drafts. It judges nothing in prose: every rule is
// a check on the draft's fields against the index and the file system.
type Gate struct {
	WorkTree string          // paths are checked against it
	Taken    map[string]bool // names in use: existing skills, drafts and rejected drafts
	Min      int             // sessions required; MinSessions when 0
}

// Check returns every gate d fails; none means admitted. The gates:
//
//   - name: 1-64 characters of a-z, 0-9 and '-', not starting or ending
//     with '-' (Claude Code's skill name rule).
//   - shadow: the name is not a built-in Claude Code command (Builtins),
//     nor an existing skill (.claude/skills, ~/.claude/skills), draft, or
//     rejected draft (g.Taken).
//   - failure: failure_prevented is not empty and quotes an error the index
//     holds for one of the cited sessions: they share a run of at least 20
//     characters (case and spacing aside), or the whole error when it is
//     shorter (but at least 12).
//   - paths: every entry of paths, and every path-like `code span` of the
//     body (one word holding '/' or ending in a file extension), is
//     relative, stays inside the work tree and exists there.
//   - page: the body is not empty and has at most 60 lines and 4,000 bytes.
//   - sessions: the index saw the procedure in at least 3 sessions, and
//     cites at least one, each of which is among them (the model's claim
//     is not counted).
//   - justification: it says what goes wrong without the skill: it holds a
//     word of consequence (fail, error, break, broken, wrong, lost, crash,
//     reject, ...) or a word of four letters or more, other than time or
//     efficiency wording, shared with failure_prevented. "Saves time" and
//     "makes it faster" alone do not pass.
func (g *Gate) Check(d Draft, ev Evidence) []Failure {
	var fs []Failure
	fail := func(gate, format string, args ...any) {
		fs = append(fs, Failure{gate, fmt.Sprintf(format, args...)})
	}
	name := strings.TrimSpace(d.Name)
	if !validName.MatchString(name) {
		fail(GateName, "%q is not a skill name (1-64 of a-z, 0-9 and '-')", d.Name)
	}
	if Builtins[name] {
		fail(GateShadow, "%q shadows the built-in Claude Code command /%s", name, name)
	} else if g.Taken[name] {
		fail(GateShadow, "%q shadows an existing skill, draft or rejected draft", name)
	}

	if strings.TrimSpace(d.FailurePrevented) == "" {
		fail(GateFailure, "names no failure it prevents")
	} else if !quotesError(d.FailurePrevented, d.EvidenceSessions, ev) {
		fail(GateFailure, "the failure it names matches no indexed error of the sessions it cites")
	}

	for _, p := range citedPaths(d) {
		if why := g.checkPath(p); why != "" {
			fail(GatePaths, "%s %s", p, why)
		}
	}

	body := strings.TrimSpace(d.Body)
	switch lines := strings.Count(body, "\n") + 1; {
	case body == "":
		fail(GatePage, "the body is empty")
	case lines > MaxBodyLines || len(body) > MaxBodyBytes:
		fail(GatePage, "the body has %d lines and %d bytes; one page is at most %d lines and %d bytes", lines, len(body), MaxBodyLines, MaxBodyBytes)
	}

	min := g.Min
	if min <= 0 {
		min = MinSessions
	}
	if len(ev.Seen) < min {
		fail(GateSessions, "the index saw it in %d session(s); it takes %d", len(ev.Seen), min)
	}
	if len(d.EvidenceSessions) == 0 {
		fail(GateSessions, "cites no session")
	}
	for _, s := range d.EvidenceSessions {
		if !slices.Contains(ev.Seen, s) {
			fail(GateSessions, "cites session %q, where the index did not see it", s)
		}
	}

	if j := strings.TrimSpace(d.Justification); j == "" {
		fail(GateJustification, "no justification")
	} else if !substantive(j, d.FailurePrevented) {
		fail(GateJustification, "it says only that it saves time or effort; say what goes wrong without it")
	}
	return fs
}

var validName = lazyregexp.New(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)

// quotesError reports whether failure shares a long enough run of
// characters with an indexed error of one of the cited sessions.
func quotesError(failure string, cited []string, ev Evidence) bool {
	f := squash(failure)
	for _, s := range cited {
		for _, e := range ev.Errors[s] {
			e = squash(e)
			need := min(minFailureMatch, len(e))
			if need < minShortError {
				continue
			}
			if longestCommon(f, e, need) >= need {
				return true
			}
		}
	}
	return false
}

// squash lowercases s and collapses whitespace runs to one space.
func squash(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// longestCommon returns the length of the longest common substring of a
// and b, stopping early once it reaches enough. Errors are cut to 600
// bytes by the index, so this is at most a few hundred thousand steps.
func longestCommon(a, b string, enough int) int {
	if len(a) > 2000 {
		a = a[:2000]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	best := 0
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				if cur[j] > best {
					best = cur[j]
					if best >= enough {
						return best
					}
				}
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

var (
	codeSpan   = lazyregexp.New("`([^`\\s]+)`")
	fileSuffix = lazyregexp.New(`^[A-Za-z0-9_.-]*[A-Za-z0-9_-]\.[A-Za-z][A-Za-z0-9]{0,5}$`)
)

// citedPaths is the draft's paths and the path-like code spans of its body.
// A span holding a placeholder, a glob or a variable ("./...", "*.go",
// "$HOME") is a pattern, not a claim.
func citedPaths(d Draft) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimSpace(p)
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range d.Paths {
		add(p)
	}
	for _, m := range codeSpan.FindAllStringSubmatch(d.Body, -1) {
		p := m[1]
		if strings.ContainsAny(p, "*?$<>{}[]|=:@") || strings.Contains(p, "...") || strings.HasPrefix(p, "-") {
			continue
		}
		if strings.Contains(p, "/") || fileSuffix.MatchString(p) {
			add(p)
		}
	}
	return out
}

// checkPath says why p is not an existing path inside the work tree, or "".
func (g *Gate) checkPath(p string) string {
	native := filepath.FromSlash(strings.TrimSuffix(p, "/"))
	if filepath.IsAbs(native) || strings.HasPrefix(p, "~") {
		return "is not relative to the work tree"
	}
	if !filepath.IsLocal(native) {
		return "leads outside the work tree"
	}
	full := filepath.Join(g.WorkTree, native)
	if _, err := os.Stat(full); err != nil {
		return "does not exist"
	}
	root, err := filepath.EvalSymlinks(g.WorkTree)
	if err != nil {
		return "cannot be checked"
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil || !locate.Within(root, real) {
		return "leads outside the work tree"
	}
	return ""
}

// consequence words say what goes wrong.
var consequence = lazyregexp.New(`(?i)\b(fail\w*|error\w*|break\w*|broke\w*|wrong|bug\w*|crash\w*|lost|los(e|es|ing)|reject\w*|corrupt\w*|regress\w*|conflict\w*|block\w*|denied|refus\w*|mistake\w*|incorrect|invalid|missing|leak\w*|outage\w*|revert\w*)\b`)

// efficiency words carry no consequence of their own.
var efficiency = map[string]bool{
	"save": true, "saves": true, "saved": true, "saving": true, "savings": true, "time": true, "times": true,
	"faster": true, "fast": true, "quick": true, "quickly": true, "quicker": true, "speed": true, "speeds": true,
	"efficient": true, "efficiently": true, "efficiency": true, "productivity": true, "productive": true,
	"streamline": true, "streamlines": true, "convenient": true, "convenience": true, "effort": true,
	"easier": true, "easy": true, "typing": true, "keystrokes": true, "repetitive": true, "tedious": true,
	"automate": true, "automates": true, "automating": true, "minutes": true, "seconds": true, "hours": true,
	"reduce": true, "reduces": true, "less": true, "more": true, "workflow": true, "steps": true, "step": true,
	"this": true, "that": true, "with": true, "skill": true, "will": true, "from": true, "have": true,
	"every": true, "each": true, "they": true, "them": true, "their": true, "your": true, "when": true,
}

// substantive reports whether a justification says what goes wrong.
func substantive(justification, failure string) bool {
	if consequence.MatchString(justification) {
		return true
	}
	fw := map[string]bool{}
	for _, w := range words(failure) {
		fw[w] = true
	}
	for _, w := range words(justification) {
		if len(w) >= 4 && !efficiency[w] && fw[w] {
			return true
		}
	}
	return false
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}
