package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/sessions"
	"github.com/mem-dev/mem/internal/text"
)

type transcriptsCmd struct {
	Index  transcriptsIndexCmd  `cmd:"" help:"Read what is new in this project's Claude Code transcripts into the index."`
	Stats  transcriptsStatsCmd  `cmd:"" help:"Sessions, prompts, tool calls, commands and failures, counted."`
	Search transcriptsSearchCmd `cmd:"" help:"Has this happened before, and in how many sessions?"`
}

// transcriptSources is the --dir flag shared by the transcripts and skills
// commands.
type transcriptSources struct {
	Dir []string `help:"Transcript folder or file (repeatable); default: ~/.claude/projects/<this work tree> (CLAUDE_CONFIG_DIR moves ~/.claude)." type:"path" placeholder:"DIR"`
}

// gitPlace finds the git repository e runs in. why, appended to the error
// when there is none, says what needs one.
func gitPlace(e *env, why string) (locate.Place, error) {
	p, err := locate.Find(e.dir, e.store)
	if errors.Is(err, locate.ErrNoRepo) || err == nil && p.CommonDir == "" {
		return p, fmt.Errorf("%s is not inside a git repository%s", e.dir, why)
	}
	return p, err
}

// update refreshes the transcript index of the work tree e runs in and
// returns it with the place and the report.
func (s transcriptSources) update(e *env) (*sessions.Index, locate.Place, sessions.Report, error) {
	p, err := gitPlace(e, ": the transcript index lives in its git directory")
	if err != nil {
		return nil, p, sessions.Report{}, err
	}
	dirs := s.Dir
	if len(dirs) == 0 {
		d, err := locate.ProjectDir(p.WorkTree) // where Claude Code writes its transcripts
		if err != nil {
			return nil, p, sessions.Report{}, err
		}
		dirs = []string{d}
	}
	x := sessions.Open(filepath.Join(p.StateDir(), "transcripts"))
	rep, err := x.Update(dirs)
	return x, p, rep, err
}

// snapshot refreshes the transcript index (update) and loads it for a query.
func (s transcriptSources) snapshot(e *env) (*sessions.Snapshot, locate.Place, error) {
	x, p, _, err := s.update(e)
	if err != nil {
		return nil, p, err
	}
	snap, err := x.Load()
	return snap, p, err
}

type transcriptsIndexCmd struct {
	transcriptSources
	JSON bool `help:"Print the report as JSON."`
}

func (c transcriptsIndexCmd) Run(e *env) error {
	x, _, rep, err := c.update(e)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e, rep)
	}
	if rep.Files == 0 {
		fmt.Fprintf(e.stderr, "mem: no transcripts found in %s\n", strings.Join(c.shownDirs(), ", "))
	}
	fmt.Fprintf(e.stdout, "%d transcript files, %d read (%d from the start again): %d new lines, %d malformed, into %s\n",
		rep.Files, rep.Read, rep.Reread, rep.Lines, rep.Malformed, e.shown(x.Dir))
	return nil
}

func (s transcriptSources) shownDirs() []string {
	if len(s.Dir) > 0 {
		return s.Dir
	}
	return []string{"~/.claude/projects/<this work tree>"}
}

type transcriptsStatsCmd struct {
	transcriptSources
	JSON bool `help:"Print the counts as JSON."`
	Top  int  `help:"Show the top N of each list." default:"10" placeholder:"N"`
}

func (c transcriptsStatsCmd) Run(e *env) error {
	snap, _, err := c.snapshot(e)
	if err != nil {
		return err
	}
	st := snap.Stats()
	if c.JSON {
		return printJSON(e, st)
	}
	fmt.Fprintf(e.stdout, "%d sessions in %d files (%d lines): %d prompts, %d tool calls, %d shell commands, %d errors\n",
		st.Sessions, st.Files, st.Lines, st.Prompts, st.Calls, st.Commands, st.Errors)
	list := func(title string, cs []sessions.Count) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(e.stdout, "%s (times, sessions, failed):\n", title)
		for i, n := range cs {
			if i == c.Top {
				break
			}
			fmt.Fprintf(e.stdout, "  %-28s %5d %4d %4d\n", n.Key, n.Times, n.Sessions, n.Failed)
		}
	}
	list("tools", st.Tools)
	list("commands", st.Heads)
	list("failures", st.Failures)
	return nil
}

type transcriptsSearchCmd struct {
	transcriptSources
	Command string `help:"Find a shell command by its normal form: \"go test\" finds every go test." placeholder:"CMD"`
	JSON    bool   `help:"Print the answer as JSON."`
	Limit   int    `help:"Show at most N hits." default:"10" placeholder:"N"`
	Query   string `arg:"" optional:"" help:"Words that must all appear in a prompt, command or error."`
}

func (c transcriptsSearchCmd) Run(e *env) error {
	if (c.Query == "") == (c.Command == "") {
		return withHint(errors.New("give a QUERY or --command CMD"), `mem transcripts search "permission denied" or mem transcripts search --command "go test"`)
	}
	snap, _, err := c.snapshot(e)
	if err != nil {
		return err
	}
	var a sessions.Answer
	if c.Command != "" {
		if a, err = snap.SearchCommand(c.Command); err != nil {
			return err
		}
	} else {
		a = snap.Search(c.Query)
	}
	if c.JSON {
		a.Hits, a.Sessions = nonNil(a.Hits), nonNil(a.Sessions)
		return printJSON(e, a)
	}
	fmt.Fprintf(e.stdout, "%q: %d times in %d of %d sessions", a.Query, a.Times, len(a.Sessions), len(snap.Sessions))
	if a.Failed > 0 {
		fmt.Fprintf(e.stdout, ", %d failed", a.Failed)
	}
	fmt.Fprintln(e.stdout)
	for i, h := range a.Hits {
		if i == c.Limit {
			fmt.Fprintf(e.stdout, "  ... %d more\n", len(a.Hits)-i)
			break
		}
		mark := ""
		if h.Failed {
			mark = " (failed)"
		}
		when := ""
		if !h.Time.IsZero() {
			when = h.Time.UTC().Format("2006-01-02 15:04") + " "
		}
		fmt.Fprintf(e.stdout, "  %s%.8s %s%s: %s\n", when, h.Session, h.Kind, mark, transcriptLine(h.Text, 100))
	}
	return nil
}

// transcriptLine is the first line of s, cut to n bytes.
func transcriptLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return text.Clip(s, n)
}
