package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mem-dev/mem/internal/skills"
)

type skillsCmd struct {
	Scan    skillsScanCmd    `cmd:"" help:"Draft skills for procedures that recur in 3+ sessions (inert, in .claude/skill-drafts; a model writes them, a gate admits them)."`
	List    skillsListCmd    `cmd:"" help:"List skill drafts, skills and rejected drafts."`
	Promote skillsPromoteCmd `cmd:"" help:"Make a draft a skill: move it to .claude/skills/NAME (a commit)."`
	Reject  skillsRejectCmd  `cmd:"" help:"Remove a draft (a commit) and remember it, so no scan proposes it again."`
}

type skillsScanCmd struct {
	transcriptSources
	Max     int  `help:"Ask the model for at most N drafts." default:"5" placeholder:"N"`
	JSON    bool `help:"Print the result as JSON."`
	NoModel bool `name:"no-model" help:"Only count the recurring procedures; draft nothing."`
}

func (c skillsScanCmd) Run(e *env) error {
	snap, p, err := c.snapshot(e)
	if err != nil {
		return err
	}
	r, err := skills.Open(p.WorkTree)
	if err != nil {
		return err
	}
	res, err := r.Scan(e.ctx, snap, modelFor(e, c.NoModel, "skill drafts"), c.Max)
	if c.JSON {
		if jerr := printJSON(e, res); jerr != nil {
			return jerr
		}
	} else {
		printScan(e, res, len(snap.Sessions))
	}
	if errors.Is(err, skills.ErrNoModel) {
		return withHint(fmt.Errorf("%w: nothing was written", err), "install `claude` or set MEM_MODEL_CMD")
	}
	if err != nil {
		return err
	}
	reportSkip(e, res.Commit.Skipped)
	return nil
}

func printScan(e *env, res skills.ScanResult, sessions int) {
	fmt.Fprintf(e.stdout, "%d procedures recur in %d or more of %d sessions\n", len(res.Candidates), skills.MinSessions, sessions)
	for _, c := range res.Candidates {
		fmt.Fprintf(e.stdout, "  %-40s %d sessions, %d times, %d failures\n", c.Key, len(c.Sessions), c.Times, len(c.Failures))
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stdout, "skipped  %s: %s\n", s.Procedure, s.Reason)
	}
	for _, v := range res.Admitted {
		fmt.Fprintf(e.stdout, "drafted  %s (%s): %s\n", v.Draft.Name, v.Procedure, v.Path)
	}
	for _, v := range res.Rejected {
		reasons := make([]string, len(v.Failures))
		for i, f := range v.Failures {
			reasons[i] = f.String()
		}
		fmt.Fprintf(e.stdout, "rejected %q (%s): %s\n", v.Draft.Name, v.Procedure, strings.Join(reasons, "; "))
	}
	for _, m := range res.Errors {
		fmt.Fprintf(e.stderr, "mem: model: %s\n", m)
	}
	if len(res.Candidates) == 0 {
		fmt.Fprintln(e.stdout, "nothing to draft")
	}
	if res.Commit.Committed {
		fmt.Fprintf(e.stdout, "committed %.12s\n", res.Commit.Commit)
	}
}

// skillsRepo opens the skills of the work tree e runs in.
func skillsRepo(e *env) (*skills.Repo, error) {
	p, err := gitPlace(e, "")
	if err != nil {
		return nil, err
	}
	return skills.Open(p.WorkTree)
}

type skillsListCmd struct {
	JSON bool `help:"Print the lists as JSON."`
}

func (c skillsListCmd) Run(e *env) error {
	r, err := skillsRepo(e)
	if err != nil {
		return err
	}
	drafts, done := r.Drafts(), r.Skills()
	rejected, err := r.Rejected()
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e, map[string]any{"drafts": nonNil(drafts), "skills": nonNil(done), "rejected": nonNil(rejected)})
	}
	if len(drafts)+len(done)+len(rejected) == 0 {
		fmt.Fprintln(e.stdout, "no skill drafts, skills or rejected drafts (mem skills scan drafts them from procedures that recur across sessions)")
		return nil
	}
	for _, s := range drafts {
		fmt.Fprintf(e.stdout, "draft    %-24s %s\n", s.Name, s.Description)
	}
	for _, s := range done {
		fmt.Fprintf(e.stdout, "skill    %-24s %s\n", s.Name, s.Description)
	}
	for _, x := range rejected {
		fmt.Fprintf(e.stdout, "rejected %-24s %s\n", x.Name, x.Procedure)
	}
	return nil
}

type skillsPromoteCmd struct {
	Name string `arg:"" help:"The draft to promote."`
}

func (c skillsPromoteCmd) Run(e *env) error {
	r, err := skillsRepo(e)
	if err != nil {
		return err
	}
	res, err := r.Promote(e.ctx, c.Name)
	if err != nil {
		return skillHint(err)
	}
	reportSkip(e, res.Skipped)
	fmt.Fprintf(e.stdout, "promoted %s: .claude/skills/%s/SKILL.md\n", c.Name, c.Name)
	return nil
}

type skillsRejectCmd struct {
	Reason string `help:"Why, remembered with the rejection." placeholder:"TEXT"`
	Name   string `arg:"" help:"The draft to reject."`
}

func (c skillsRejectCmd) Run(e *env) error {
	r, err := skillsRepo(e)
	if err != nil {
		return err
	}
	res, err := r.Reject(e.ctx, c.Name, c.Reason)
	if err != nil {
		return skillHint(err)
	}
	reportSkip(e, res.Skipped)
	fmt.Fprintf(e.stdout, "rejected %s\n", c.Name)
	return nil
}

func skillHint(err error) error {
	if errors.Is(err, skills.ErrNoDraft) {
		return withHint(err, "mem skills list shows the drafts")
	}
	return err
}
