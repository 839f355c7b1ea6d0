package verify

import (
	"net"
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/mdparse"
)

// Extract finds the checkable claims of a memory in its description and body,
// deterministically, each (kind, argument) once, in order of appearance. It is
// conservative: a missed claim costs nothing, a claim the memory did not make
// becomes a false "unverified" label. Every argument is spelt in the memory's
// text as written, never as markdown would render it.
//
//   - Paths: mdparse's path tokens (relative, with a file extension, a
//     dotfile, or a trailing "/"; never URLs, ~/ paths, absolute paths, API
//     routes or template strings), without a leading "./"; paths that start
//     with "../" are relative to somewhere unknown and are left out. A code
//     span that is a whole extension-less path is also taken when one of its
//     directories is a conventional source directory ("internal/store",
//     "atlas-api/cmd/import"), so "linux/arm64" and "tokens/update" are not.
//     A glob ("db/queries/*.sql") is not a path claim (see the package doc).
//   - Branches: a name in backticks or containing '/' right after "branch"
//     ("on branch `hotfix-2`", "the branch release/2026-10"), or between
//     "the" and "branch" ("on the release/2026-10 branch"). Not the target of
//     an action ("push to the branch x": a procedure, not a state), not
//     "a/new/each/feature ... branch", not placeholders ("<initials>/...").
//   - Pull requests: only a statement that one is merged: "PR #231 was
//     merged", "#231 merged", "merged in #231", "(merged)", and the same with
//     a pull request URL (".../owner/repo/pull/231"), which names its
//     repository. Not "atlas-api#231" (another repository), not "once #231 is
//     merged", not "will be merged", "open" or "closed".
//   - URLs: http(s) links, bare URLs and code spans that are one URL, except
//     hosts that only mean something on the writer's machine (localhost,
//     loopback, *.local, *.test, example.com) and templates ("{id}", "<env>").
//   - Commits: a code span of 7-40 hex digits with at least one digit and one
//     letter, or 7-40 hex digits right after "commit".
func Extract(m *mdparse.Memory) []Claim {
	if m == nil {
		return nil
	}
	var out []Claim
	seen := map[Claim]bool{}
	add := func(k Kind, arg string) {
		c := Claim{Kind: k, Arg: arg, Source: SourceText}
		// What Validate refuses is never a claim, whichever rule above
		// found it: the extractor and a model's claims obey one check.
		if arg != "" && !seen[c] && Validate(c, "") == nil {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, src := range [][]byte{[]byte(m.Description), m.Body} {
		if len(strings.TrimSpace(string(src))) == 0 {
			continue
		}
		x := mdparse.ExtractBody(src)
		segs := segments(string(src))
		spans := codeSpans(segs)
		for _, p := range x.Paths {
			if p, ok := textPath(p); ok {
				add(PathExists, p)
			}
		}
		for _, s := range spans {
			if sourceDir(s) {
				add(PathExists, s)
			}
		}
		for _, seg := range segs {
			for _, b := range branches(seg) {
				add(BranchExists, b)
			}
		}
		for _, seg := range segs {
			for _, pr := range mergedPRs(seg) {
				add(PRMerged, pr)
			}
		}
		urls := append([]string(nil), x.Links...)
		for _, s := range spans {
			if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
				urls = append(urls, s)
			}
		}
		for _, u := range urls {
			if u, ok := textURL(u); ok {
				add(URLResponds, u)
			}
		}
		for _, s := range spans {
			if isHex(s) && strings.ContainsAny(s, "0123456789") && strings.ContainsAny(strings.ToLower(s), "abcdef") {
				add(CommitExists, strings.ToLower(s))
			}
		}
		for _, seg := range segs {
			for _, mm := range commitWord.FindAllStringSubmatch(seg, -1) {
				add(CommitExists, strings.ToLower(mm[1]))
			}
		}
	}
	return out
}

// segments splits markdown into runs of prose: fenced code blocks are
// dropped, a paragraph's wrapped lines are joined, and every list item,
// heading, table row and quote line starts a new segment. Inline markup is
// kept (code spans matter to the rules above) except bold markers, which
// become spaces: "on **branch** x" reads as prose, and "rel**ease/x" never
// as a name the memory does not spell.
func segments(md string) []string {
	var segs []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, strings.ReplaceAll(strings.Join(cur, " "), "**", " "))
			cur = nil
		}
	}
	for _, l := range mdparse.BodyLines([]byte(md)) {
		switch l.Kind {
		case mdparse.LineFence, mdparse.LineCode, mdparse.LineBlank:
			flush()
			continue
		case mdparse.LineListItem, mdparse.LineHeading:
			flush()
		}
		t := strings.TrimSpace(string(l.Raw))
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">") {
			flush()
		}
		cur = append(cur, t)
	}
	flush()
	return segs
}

var codeSpan = lazyregexp.New("`([^`]+)`")

// codeSpans returns the trimmed content of every single-backtick code span.
func codeSpans(segs []string) []string {
	var out []string
	for _, s := range segs {
		for _, m := range codeSpan.FindAllStringSubmatch(s, -1) {
			out = append(out, strings.TrimSpace(m[1]))
		}
	}
	return out
}

// textPath cleans a path token found in text: no leading "./", and nothing
// that starts with "../" (relative to a directory the text does not name).
// Validate, which every claim passes, refuses the rest.
func textPath(p string) (string, bool) {
	p = trimDotSlash(p)
	if strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// sourceDirs are directory names that, inside a code span, make an
// extension-less path a path.
var sourceDirs = map[string]bool{
	"internal": true, "cmd": true, "src": true, "app": true, "lib": true, "pkg": true,
	"db": true, "scripts": true, "docs": true, "tests": true, "e2e": true,
	"migrations": true, ".github": true,
}

var sourceDirSpan = lazyregexp.New(`^[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+$`)

// sourceDir reports whether a whole code span is a directory path such as
// "internal/store" or "atlas-api/cmd/import".
func sourceDir(s string) bool {
	if !sourceDirSpan.MatchString(s) || strings.Contains(s, "..") {
		return false
	}
	segs := strings.Split(s, "/")
	if strings.Contains(segs[len(segs)-1], ".") || strings.Contains(segs[0], ".") && segs[0] != ".github" {
		return false // a symbol ("clock.Clock"), a file the path rule judged, or a host
	}
	for _, d := range segs[:len(segs)-1] {
		if sourceDirs[d] {
			return true
		}
	}
	return false
}

const branchName = "(`[^`\\s]+`|[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)+)"

var (
	// "on branch `x`", "the branch release/2026-10", with up to two words before.
	branchAfter = lazyregexp.New("(?i)(?:(\\S+)\\s+)?(?:(\\S+)\\s+)?\\bbranch\\s+" + branchName)
	// "on the release/2026-10 branch", "the `develop` branch".
	branchBefore = lazyregexp.New("(?i)(?:(\\S+)\\s+)?\\bthe\\s+" + branchName + "\\s+branch\\b")
)

// actionWords before a branch make it the target of an action (a procedure),
// not a statement that it exists.
var actionWords = map[string]bool{"to": true, "into": true, "onto": true, "a": true, "new": true, "create": true, "delete": true, "deleted": true}

// branchWordBefore are the words allowed right before "branch" in "X branch NAME".
var branchWordBefore = map[string]bool{"": true, "the": true, "on": true, "in": true, "from": true}

// branches returns the branch names that seg states exist.
func branches(seg string) []string {
	var out []string
	for _, m := range branchAfter.FindAllStringSubmatch(seg, -1) {
		w1, w2 := strings.ToLower(m[1]), strings.ToLower(m[2])
		if m[2] == "" {
			w1, w2 = "", w1
		}
		if !branchWordBefore[w2] || w2 == "the" && actionWords[w1] {
			continue
		}
		if b, ok := textBranch(m[3]); ok {
			out = append(out, b)
		}
	}
	for _, m := range branchBefore.FindAllStringSubmatch(seg, -1) {
		if actionWords[strings.ToLower(m[1])] {
			continue
		}
		if b, ok := textBranch(m[2]); ok {
			out = append(out, b)
		}
	}
	return out
}

// textBranch cleans a branch name found in text.
func textBranch(s string) (string, bool) {
	s = strings.Trim(s, "`")
	s = strings.TrimRight(s, ".,;:)!?")
	s = strings.TrimPrefix(s, "refs/heads/")
	if r, ok := strings.CutPrefix(s, "refs/remotes/"); ok {
		s = r
	}
	if s == "" || strings.ContainsAny(s, "<>{}$*") || isHex(s) {
		return "", false
	}
	if validBranch(s) != nil {
		return "", false
	}
	return s, true
}

// prRef is a pull request reference: "PR #231", "PR 231", "pull request
// #231", "#231" after lead (not "repo#231", not "&#231;"), or a pull request
// URL.
func prRef(lead string) string {
	return `(?:https?://([A-Za-z0-9.-]+)/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)/pulls?/(\d+)\b/?` +
		`|(?:\bPR|\bpull request)\s*#?(\d+)\b` +
		`|` + lead + `#(\d+)\b)`
}

var (
	// "PR #231 was merged", "#231 merged", "PR #231 (merged".
	prThenMerged = lazyregexp.New(`(?i)` + prRef(`(?:^|[^\w/#&;-])`) + `\s*[,)]?\s*(?:\(\s*|(?:(?:was|is|got|has|had|been|now|already|finally|just)\s+)*)merged\b`)
	// "merged in #231", "merged PR #231", "merged as https://.../pull/231".
	mergedThenPR = lazyregexp.New(`(?i)\bmerged\s+(?:(?:in|as|via|with|through|by)\s+)?(?:the\s+)?` + prRef(``))
)

// conditional words before a reference make "merged" a plan or a question.
var conditional = lazyregexp.New(`(?i)\b(?:once|when|whenever|until|if|unless|after|before|whether|wait(?:ing)? for|not|never|will|would|should|must|can|could|to be|may|might|needs?|pending)\W*(?:\S+\W+){0,3}$`)

// mergedPRs returns the pull requests seg states are merged.
func mergedPRs(seg string) []string {
	seg = strings.ReplaceAll(seg, "`", " ") // "`#231` merged", never "#2`3`1" as 231
	seg = linkToPR.ReplaceAllString(seg, "$2")
	var out []string
	for _, re := range []*lazyregexp.Regexp{prThenMerged, mergedThenPR} {
		for _, idx := range re.FindAllStringSubmatchIndex(seg, -1) {
			if conditional.MatchString(seg[:idx[0]]) {
				continue
			}
			m := make([]string, len(idx)/2)
			for i := range m {
				if idx[2*i] >= 0 {
					m[i] = seg[idx[2*i]:idx[2*i+1]]
				}
			}
			switch {
			case m[4] != "":
				out = append(out, strings.ToLower(m[1])+"/"+m[2]+"/"+strings.TrimSuffix(m[3], ".git")+"#"+m[4])
			case m[5] != "":
				out = append(out, m[5])
			case m[6] != "":
				out = append(out, m[6])
			}
		}
	}
	var valid []string
	for _, pr := range out {
		if _, _, err := parsePR(pr); err == nil {
			valid = append(valid, pr)
		}
	}
	return valid
}

// linkToPR is a markdown link whose destination is a pull request URL; it is
// replaced by the URL so the reference names its repository.
var linkToPR = lazyregexp.New(`\[([^\]]*)\]\((https?://[^)\s]+/pulls?/\d+/?)[^)]*\)`)

// commitWord is a hex id right after "commit".
var commitWord = lazyregexp.New("(?i)\\bcommit\\s+`?([0-9a-f]{7,40})`?(?:[^0-9a-z]|$)")

// isHex reports whether s is 7-40 hex digits: the shape of a commit id.
func isHex(s string) bool {
	return len(s) >= 7 && len(s) <= 40 && strings.Trim(s, "0123456789abcdefABCDEF") == ""
}

// textURL cleans a URL found in text and reports whether it is worth a probe.
func textURL(s string) (string, bool) {
	s = strings.TrimRight(s, ".,;:!?'\"")
	if strings.HasSuffix(s, ")") && strings.Count(s, "(") < strings.Count(s, ")") {
		s = strings.TrimSuffix(s, ")")
	}
	if strings.ContainsAny(s, "<>{}$`*") || strings.Contains(s, "...") || strings.Contains(s, "…") {
		return "", false // a template or an elision; Validate refuses the rest
	}
	return s, true
}

// localHost reports whether a host only means something on the writer's
// machine or in documentation.
func localHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsPrivate()
	}
	if !strings.Contains(h, ".") {
		return true // "localhost", "db", "mailpit"
	}
	for _, suf := range []string{".localhost", ".local", ".test", ".example", ".invalid", ".internal", ".lan", ".home.arpa"} {
		if strings.HasSuffix(h, suf) {
			return true
		}
	}
	switch h {
	case "example.com", "example.org", "example.net":
		return true
	}
	return strings.HasSuffix(h, ".example.com") || strings.HasSuffix(h, ".example.org")
}
