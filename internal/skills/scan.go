package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/sessions"
	"github.com/mem-dev/mem/internal/text"
)

// ErrNoModel is returned by Scan, with its candidates counted, when there
// is no model to write the drafts: nothing is written.
var ErrNoModel = errors.New("skill drafts need a model")

// DefaultMax is how many drafts one scan asks the model for at most.
const DefaultMax = 5

// Skip is a candidate a scan did not draft, and why.
type Skip struct {
	Procedure string `json:"procedure"`
	Reason    string `json:"reason"`
}

// Verdict is a draft the gate judged.
type Verdict struct {
	Procedure string    `json:"procedure"`
	Draft     Draft     `json:"draft"`
	Path      string    `json:"path,omitempty"`     // where it was written, relative to the work tree, when admitted
	Failures  []Failure `json:"failures,omitempty"` // every gate failed; none when admitted
}

// ScanResult is what a scan found and did.
type ScanResult struct {
	Candidates []Candidate     `json:"candidates"`
	Skipped    []Skip          `json:"skipped"`
	Admitted   []Verdict       `json:"admitted"`
	Rejected   []Verdict       `json:"rejected"`
	Commit     gitstore.Result `json:"commit"`
	Errors     []string        `json:"errors,omitempty"` // model calls that failed
}

// Scan counts the recurring procedures in the index (Candidates), asks the
// model to draft a skill for each of the first max that are new and have a
// failure to prevent, runs every draft through the gate, and writes the
// admitted ones to .claude/skill-drafts/NAME/SKILL.md as one commit
// (Mem-Action: skill-draft). A candidate is not drafted when a person
// rejected its procedure before, when a draft or skill already covers it,
// or when the index holds no failure of its steps (the gate could not admit
// it). With no model (asker nil) Scan returns the candidates and
// ErrNoModel, and writes nothing.
func (r *Repo) Scan(ctx context.Context, snap *sessions.Snapshot, asker modelcmd.Asker, max int) (ScanResult, error) {
	if max <= 0 {
		max = DefaultMax
	}
	res := ScanResult{Candidates: Candidates(snap, MinSessions)}
	if len(res.Candidates) == 0 {
		return res, nil // nothing to draft: no model is needed, and none missed
	}
	if asker == nil {
		return res, ErrNoModel
	}
	drafts, skills := r.Drafts(), r.Skills()
	rejected, err := r.Rejected()
	if err != nil {
		return res, err
	}
	taken := r.taken(skills, drafts, rejected)
	covered := map[string]string{}
	for _, s := range slices.Concat(drafts, skills) {
		if s.Meta.Procedure != "" {
			covered[s.Meta.Procedure] = s.Path
		}
	}
	for _, x := range rejected {
		if x.Procedure != "" {
			covered[x.Procedure] = "rejected as " + x.Name
		}
	}
	gate := &Gate{WorkTree: r.WorkTree, Taken: taken}
	var changes []gitstore.Change
	var names []string
	asked := 0
	for _, c := range res.Candidates {
		if by, ok := covered[c.Key]; ok {
			res.Skipped = append(res.Skipped, Skip{c.Key, "already covered: " + by})
			continue
		}
		if len(c.Failures) == 0 {
			res.Skipped = append(res.Skipped, Skip{c.Key, "no failure of its steps in the index: nothing to prevent"})
			continue
		}
		if asked == max {
			res.Skipped = append(res.Skipped, Skip{c.Key, fmt.Sprintf("over the limit of %d drafts a scan", max)})
			continue
		}
		asked++
		var d Draft
		if err := asker.Ask(ctx, Prompt(c), &d); err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", c.Key, err))
			continue
		}
		d.Name = strings.TrimSpace(d.Name)
		v := Verdict{Procedure: c.Key, Draft: d, Failures: gate.Check(d, evidence(snap, c))}
		if len(v.Failures) > 0 {
			res.Rejected = append(res.Rejected, v)
			continue
		}
		taken[d.Name] = true // one name, one draft
		rel := skillPath(DraftsDir, d.Name)
		v.Path = ".claude/" + rel
		res.Admitted = append(res.Admitted, v)
		changes = append(changes, gitstore.Change{Path: rel, Data: Render(d, c)})
		names = append(names, d.Name)
	}
	if len(changes) == 0 {
		return res, nil
	}
	var trailers []gitstore.Trailer
	for _, v := range res.Admitted {
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerProcedure, Value: v.Draft.Name + ": " + v.Procedure})
	}
	res.Commit, err = r.apply(ctx, changes, gitstore.CommitInfo{
		Action: gitstore.ActionSkillDraft, Slug: strings.Join(names, " "),
		Body:     "Inert drafts for a person to promote or reject (mem skills promote|reject NAME).",
		Trailers: trailers,
	})
	return res, err
}

// evidence is what the index holds for candidate c: the sessions it was
// seen in, and every tool error of those sessions (message and command).
func evidence(snap *sessions.Snapshot, c Candidate) Evidence {
	ev := Evidence{Seen: c.Sessions, Errors: map[string][]string{}}
	for _, e := range snap.Errors {
		if e.Kind != sessions.KindTool || !slices.Contains(c.Sessions, e.Session) {
			continue
		}
		ev.Errors[e.Session] = append(ev.Errors[e.Session], e.Message)
		if e.Command != "" {
			ev.Errors[e.Session] = append(ev.Errors[e.Session], e.Command)
		}
	}
	return ev
}

// Prompt is the model's instructions for drafting a skill for c.
func Prompt(c Candidate) string {
	var b strings.Builder
	fmt.Fprintf(&b, `You draft one Claude Code skill (a SKILL.md) for a procedure that recurs in this project's past sessions.
It is a draft for a person to review; it must prevent a real failure, not merely save time.

Procedure (command steps, in order): %s
Seen in %d sessions: %s

Example command lines:
`, c.Key, len(c.Sessions), strings.Join(c.Sessions, ", "))
	for _, ex := range c.Examples {
		fmt.Fprintf(&b, "- %s\n", text.OneLine(text.Clip(ex, 300)))
	}
	b.WriteString("\nFailures of these steps recorded in those sessions (session: message):\n")
	for i, e := range c.Failures {
		if i == 10 {
			break
		}
		fmt.Fprintf(&b, "- %s: %s\n", e.Session, text.OneLine(text.Clip(e.Message, 300)))
	}
	fields, _ := json.Marshal(Draft{EvidenceSessions: []string{}, Paths: []string{}})
	fmt.Fprintf(&b, `
Answer with one JSON object and nothing else, with exactly these fields: %s
- name: lower-case words joined by '-', not the name of a built-in Claude Code command.
- description: one sentence saying when to use the skill.
- failure_prevented: the failure it prevents, quoting the recorded error message word for word.
- evidence_sessions: the ids of the sessions above where that failure or the procedure occurred.
- paths: files or directories of this repository the skill relies on, relative to its root; [] if unsure. Never invent one.
- body: the skill's instructions in markdown, at most 60 lines: the steps, and the check that avoids the failure.
- justification: what goes wrong without this skill.
`, fields)
	return b.String()
}
