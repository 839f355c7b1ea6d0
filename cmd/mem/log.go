package main

import (
	"fmt"
	"time"
)

type logCmd struct {
	Limit int  `help:"Show at most N entries." default:"50" placeholder:"N"`
	JSON  bool `help:"Print a JSON array."`
}

func (c logCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	entries, err := r.Log(e.ctx, c.Limit)
	if err != nil {
		return err
	}
	if c.JSON {
		out := make([]logEntry, len(entries))
		for i, en := range entries {
			out[i] = logEntry{Commit: en.Commit, Time: en.Time, Author: en.Author, Action: en.Action, Slug: en.Slug, Subject: en.Subject, Trailers: []logTrailer{}}
			for _, t := range en.Trailers {
				out[i].Trailers = append(out[i].Trailers, logTrailer{t.Key, t.Value})
			}
		}
		return printJSON(e, out)
	}
	for _, en := range entries {
		fmt.Fprintf(e.stdout, "%.12s %s %-9s %s\n", en.Commit, en.Time.Local().Format("2006-01-02 15:04"), en.Action, en.Slug)
	}
	return nil
}

// logEntry is one commit in log --json, keyed in lower case like every
// other command's JSON.
type logEntry struct {
	Commit   string       `json:"commit"`
	Time     time.Time    `json:"time"`
	Author   string       `json:"author"`
	Action   string       `json:"action"`
	Slug     string       `json:"slug"`
	Subject  string       `json:"subject"`
	Trailers []logTrailer `json:"trailers"`
}

type logTrailer struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}
