package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// maxModelClaims bounds how many claims one answer may add.
const maxModelClaims = 50

// maxPromptBody bounds how much of a memory goes into a prompt.
const maxPromptBody = 12000

const claimPrompt = `You read one note that a coding agent wrote about a software repository, and list the claims in it that can be checked against that repository.

Answer with JSON only, in exactly this shape:
{"claims":[{"kind":"path_exists","path":"..."},{"kind":"branch_exists","branch":"..."},{"kind":"pr_merged","number":231},{"kind":"url_responds","url":"..."},{"kind":"commit_exists","sha":"..."}]}

Rules:
- path_exists: a file or directory of the repository the note says exists, as a relative path ("atlas-api/internal/auth/session.go"). Not home paths (~/...), absolute paths, URL routes (/v1/...), secret or parameter names, cloud object keys.
- branch_exists: a git branch the note says exists now. Not naming patterns or examples.
- pr_merged: a pull request of this repository the note says IS MERGED. Never one it says is open, closed, planned or in review.
- url_responds: an http or https URL the note says is live. Not localhost.
- commit_exists: a commit id (7-40 hex digits) the note cites.
- Only what the note states as a current fact; when unsure, leave it out. No other kinds, no other fields, no commands.
- {"claims":[]} when there is nothing to check.

The note:
`

// ModelClaims asks a model for the claims of m and validates every one
// against repoRoot "" (shape only; Run validates against the repository
// again). Claims that pass come back with Source "model"; the others come
// back as Rejected with their reason, the claim as the model wrote it. A nil
// modelcmd.Asker returns nothing. The error is the model's failure to answer; an answer
// that is not the expected JSON shape is an error too.
func ModelClaims(ctx context.Context, a modelcmd.Asker, m *mdparse.Memory) ([]Claim, []Rejected, error) {
	if a == nil || m == nil {
		return nil, nil, nil
	}
	var ans claimsAnswer
	if err := a.Ask(ctx, buildPrompt(m), &ans); err != nil {
		return nil, nil, fmt.Errorf("model claims: %w", err)
	}
	var claims []Claim
	var rejected []Rejected
	seen := map[Claim]bool{}
	for i, raw := range ans.Claims {
		given := compact(raw)
		if i >= maxModelClaims {
			rejected = append(rejected, Rejected{Claim: given, Reason: fmt.Sprintf("more than %d claims in one answer", maxModelClaims)})
			continue
		}
		c, err := decodeModelClaim(raw)
		if err == nil {
			err = Validate(c, "")
		}
		if err != nil {
			rejected = append(rejected, Rejected{Claim: given, Reason: err.Error()})
			continue
		}
		if !seen[c] {
			seen[c] = true
			claims = append(claims, c)
		}
	}
	return claims, rejected, nil
}

// claimsAnswer is the shape of a claims answer: {"claims":[...]}, and
// {"claims":[]} when the note has nothing to check.
type claimsAnswer struct {
	Claims []json.RawMessage `json:"claims"`
}

// Validate refuses an answer without its claims list ({}, or "claims":
// null): a model that did not answer, not a note with nothing to check.
func (a *claimsAnswer) Validate() error {
	if a.Claims == nil {
		return errors.New(`the answer has no "claims" list (an empty list says there is nothing to check)`)
	}
	return nil
}

// modelClaim is one claim as a model writes it.
type modelClaim struct {
	Kind   string          `json:"kind"`
	Path   string          `json:"path,omitempty"`
	Branch string          `json:"branch,omitempty"`
	Number json.RawMessage `json:"number,omitempty"`
	URL    string          `json:"url,omitempty"`
	SHA    string          `json:"sha,omitempty"`
}

// number reads a PR number as a model wrote it: a JSON integer, or a string
// of digits. Anything else is returned as written so validation can refuse it.
func (m modelClaim) number() string {
	var n json.Number
	if err := json.Unmarshal(m.Number, &n); err == nil {
		if i, err := n.Int64(); err == nil {
			return strconv.FormatInt(i, 10)
		}
		return n.String()
	}
	var s string
	if err := json.Unmarshal(m.Number, &s); err == nil {
		return s
	}
	return string(m.Number)
}

// decodeModelClaim turns one claim object into a Claim. The object must have
// a known kind and exactly the one argument field of that kind.
func decodeModelClaim(raw json.RawMessage) (Claim, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Claim{}, fmt.Errorf("claim is not a JSON object")
	}
	var mc modelClaim
	if err := json.Unmarshal(raw, &mc); err != nil {
		return Claim{}, fmt.Errorf("claim has a field of the wrong type: %v", err)
	}
	want := map[Kind]string{PathExists: "path", BranchExists: "branch", PRMerged: "number", URLResponds: "url", CommitExists: "sha"}
	k := Kind(mc.Kind)
	field, ok := want[k]
	if !ok {
		return Claim{}, fmt.Errorf("unknown claim kind %q", mc.Kind)
	}
	for name := range fields {
		if name != "kind" && name != field {
			return Claim{}, fmt.Errorf("%s claim has unexpected field %q", k, name)
		}
	}
	if _, ok := fields[field]; !ok {
		return Claim{}, fmt.Errorf("%s claim has no %q", k, field)
	}
	c := Claim{Kind: k, Source: SourceModel}
	switch k {
	case PathExists:
		// "./x" and "x/" name the same path; keep the trailing "/" of a directory.
		c.Arg = trimDotSlash(mc.Path)
	case BranchExists:
		c.Arg = mc.Branch
	case PRMerged:
		c.Arg = mc.number()
	case URLResponds:
		c.Arg = mc.URL
	case CommitExists:
		c.Arg = mc.SHA
	}
	return c, nil
}

func buildPrompt(m *mdparse.Memory) string {
	var b strings.Builder
	b.WriteString(claimPrompt)
	if m.Name != "" {
		fmt.Fprintf(&b, "Title: %s\n", m.Name)
	}
	if m.Description != "" {
		fmt.Fprintf(&b, "Summary: %s\n", m.Description)
	}
	body := text.Clip(string(m.Body), maxPromptBody) // "…" marks a cut
	b.WriteString("\n")
	b.WriteString(body)
	return b.String()
}

// compact renders a claim object on one line, as the model gave it, cut to
// a readable length.
func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	s := string(raw)
	if err := json.Compact(&buf, raw); err == nil {
		s = buf.String()
	}
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "..."
	}
	return s
}
