package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/mcpserver/mcptool"
	"github.com/mem-dev/mem/search"
)

// Limits of context_query.
const (
	defaultLimit = 3
	maxLimit     = 10
)

type storeArgs struct {
	Content     string   `json:"content" jsonschema:"the memory itself, in markdown: what the next session needs to know, with the file paths, commands or names it concerns"`
	Name        string   `json:"name,omitempty" jsonschema:"a short title; the memory's slug is made from it (default: the first line of content)"`
	Description string   `json:"description,omitempty" jsonschema:"one line saying what the memory is about or when it matters"`
	Class       string   `json:"class,omitempty"` // described from package class (register)
	Importance  int      `json:"importance,omitempty" jsonschema:"1-10: how much the next session loses if it does not see this (default 5)"`
	Tags        []string `json:"tags,omitempty" jsonschema:"topic words, e.g. [\"checkout\", \"vat\"]"`
}

type updateArgs struct {
	Slug        string    `json:"slug" jsonschema:"the memory's slug: its file name without .md, as memory_list and context_query show it"`
	Content     *string   `json:"content,omitempty" jsonschema:"the memory's new content, in markdown, replacing the old body whole (read it first with memory_show)"`
	Name        *string   `json:"name,omitempty" jsonschema:"a new title (the slug stays)"`
	Description *string   `json:"description,omitempty" jsonschema:"a new one-line description; empty removes it"`
	Class       *string   `json:"class,omitempty" jsonschema:"a new kind of memory"`
	Importance  *int      `json:"importance,omitempty" jsonschema:"a new importance, 1-10"`
	Tags        *[]string `json:"tags,omitempty" jsonschema:"the new topic words, replacing the old; [] removes them"`
}

// written is the outcome of a store or a forget.
type written struct {
	Slug      string `json:"slug"`
	Path      string `json:"path" jsonschema:"the memory's file, relative to the work tree"`
	Committed bool   `json:"committed"`
	Commit    string `json:"commit,omitempty" jsonschema:"the new commit's hash, when committed"`
	Skipped   string `json:"skipped,omitempty" jsonschema:"why the file was written but not committed"`
	Warning   string `json:"warning,omitempty"`
}

type queryArgs struct {
	Query string `json:"query" jsonschema:"the task or question in your own words; name the files, errors, features or commands involved"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many memories (default 3, at most 10)"`
}

type queryResult struct {
	Results []mem.Hit `json:"results" jsonschema:"best first; empty when no memory is relevant enough"`
}

type slugArgs struct {
	Slug string `json:"slug" jsonschema:"the memory's slug: its file name without .md, as memory_list and context_query show it"`
}

type shown struct {
	Slug string `json:"slug"`
	Path string `json:"path"`
	Text string `json:"text" jsonschema:"the whole file: YAML frontmatter and markdown body"`
}

type listArgs struct{}

type listed struct {
	Memories []mem.Entry `json:"memories" jsonschema:"every memory that is not forgotten, sorted by slug"`
	Problems []string    `json:"problems,omitempty" jsonschema:"files that could not be read and were skipped"`
}

func ptr[T any](v T) *T { return &v }

func (s *server) register(srv *mcp.Server, listed func(string) (json.RawMessage, json.RawMessage)) {
	closed := ptr(false)
	addTool(s, srv, listed, &mcp.Tool{
		Name: mcptool.Store,
		Description: "Save one memory for later sessions: a markdown file in the project's memory store, committed to git. " +
			"Store what a future session would otherwise have to rediscover (a gotcha, a decision and its reason, a procedure, a rule); one idea per memory. " +
			"Returns the new memory's slug.",
		Annotations: &mcp.ToolAnnotations{Title: "Store a memory", DestructiveHint: ptr(false), OpenWorldHint: closed},
	}, func(sc *jsonschema.Schema) {
		p := sc.Properties
		p["content"].MinLength = ptr(1)
		p["class"].Description = "the kind of memory (default " + class.Default + "): " + class.Described()
		p["class"].Enum = anys(class.Names)
		p["class"].Default = rawDefault(class.Default)
		p["importance"].Minimum, p["importance"].Maximum = ptr(1.0), ptr(10.0)
		p["importance"].Default = rawDefault(5)
		p["tags"].Types, p["tags"].Type = nil, "array" // nulls are dropped before validation
	}, s.store)

	addTool(s, srv, listed, &mcp.Tool{
		Name: mcptool.Update,
		Description: "Correct or extend a memory that is wrong, stale or incomplete, rather than storing a second one: " +
			"give its slug and only the fields that change (content replaces the body whole; read it first with " + mcptool.Show + "). " +
			"Everything else in the file stays, and the change is one git commit that `mem undo` reverts.",
		Annotations: &mcp.ToolAnnotations{Title: "Update a memory", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: closed},
	}, func(sc *jsonschema.Schema) {
		p := sc.Properties
		p["slug"].MinLength = ptr(1)
		p["content"].MinLength = ptr(1)
		p["name"].MinLength = ptr(1)
		p["class"].Enum = anys(class.Names)
		p["importance"].Minimum, p["importance"].Maximum = ptr(1.0), ptr(10.0)
		for _, k := range []string{"content", "name", "description", "class", "importance", "tags"} {
			p[k].Types = slices.DeleteFunc(p[k].Types, func(t string) bool { return t == "null" })
			if len(p[k].Types) == 1 {
				p[k].Type, p[k].Types = p[k].Types[0], nil
			}
		}
	}, s.update)

	addTool(s, srv, listed, &mcp.Tool{
		Name: mcptool.Query,
		Description: "Search the project's memories for those relevant to a task or question, ranked as the prompt hook ranks them. " +
			"Returns each match's slug, name, class, score, labels and a snippet, or nothing when no memory is relevant enough (a normal answer). " +
			"Read a whole memory with " + mcptool.Show + ".",
		Annotations: &mcp.ToolAnnotations{Title: "Search memories", ReadOnlyHint: true, OpenWorldHint: closed},
	}, func(sc *jsonschema.Schema) {
		p := sc.Properties
		p["query"].MinLength = ptr(1)
		p["limit"].Minimum, p["limit"].Maximum = ptr(1.0), ptr(float64(maxLimit))
		p["limit"].Default = rawDefault(defaultLimit)
	}, s.query)

	addTool(s, srv, listed, &mcp.Tool{
		Name: mcptool.Forget,
		Description: "Forget a memory that is wrong or no longer useful: list and search stop showing it. " +
			"The file stays and the change is one git commit, so `mem undo` brings it back.",
		Annotations: &mcp.ToolAnnotations{Title: "Forget a memory", DestructiveHint: ptr(true), OpenWorldHint: closed},
	}, slugSchema, s.forget)

	addTool(s, srv, listed, &mcp.Tool{
		Name:        mcptool.Show,
		Description: "Read one memory's whole file (frontmatter and body) by its slug.",
		Annotations: &mcp.ToolAnnotations{Title: "Show a memory", ReadOnlyHint: true, OpenWorldHint: closed},
	}, slugSchema, s.show)

	addTool(s, srv, listed, &mcp.Tool{
		Name:        mcptool.List,
		Description: "List every memory in the store (slug, name, description, class, importance, tags and labels), sorted by slug.",
		Annotations: &mcp.ToolAnnotations{Title: "List memories", ReadOnlyHint: true, OpenWorldHint: closed},
	}, nil, s.list)
}

func slugSchema(sc *jsonschema.Schema) { sc.Properties["slug"].MinLength = ptr(1) }

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// The handlers below trust their arguments' schema: a blank content, query
// or slug (MinLength) never reaches them, since guard's checkArgs refuses it.
func (s *server) store(ctx context.Context, a storeArgs) (written, string, error) {
	w, err := s.repo.Store(ctx, mem.Note{
		Name:        a.Name,
		Description: a.Description,
		Class:       a.Class,
		Importance:  a.Importance,
		Tags:        a.Tags,
		Body:        a.Content,
	})
	var forgotten *mem.ForgottenError
	switch {
	case errors.As(err, &forgotten) && forgotten.Forget != "":
		return written{}, "", fmt.Errorf("a memory with the slug %q exists and is forgotten: `mem undo %s` brings it back, or choose another name", w.Slug, short(forgotten.Forget))
	case forgotten != nil:
		return written{}, "", fmt.Errorf("a memory with the slug %q exists and is forgotten (status: forgotten in its file): choose another name", w.Slug)
	case errors.Is(err, mem.ErrExists):
		return written{}, "", fmt.Errorf("a memory with the slug %q already exists: choose another name, or read the existing one with memory_show", w.Slug)
	}
	if err != nil {
		return written{}, "", fmt.Errorf("could not store the memory: %v", err)
	}
	out := writtenOf(w)
	return out, "Stored " + w.Slug + " in " + w.Path + commitText(out), nil
}

func (s *server) update(ctx context.Context, a updateArgs) (written, string, error) {
	u := mem.Update{Name: a.Name, Description: a.Description, Class: a.Class, Importance: a.Importance, Tags: a.Tags, Body: a.Content}
	if u == (mem.Update{}) {
		return written{}, "", errors.New("nothing to update: give content or a field to change (name, description, class, importance, tags)")
	}
	w, err := s.repo.Update(ctx, a.Slug, u)
	if err != nil {
		return written{}, "", slugError("update", a.Slug, err)
	}
	out := writtenOf(w)
	return out, "Updated " + w.Slug + " in " + w.Path + commitText(out), nil
}

func (s *server) forget(ctx context.Context, a slugArgs) (written, string, error) {
	w, err := s.repo.Forget(ctx, a.Slug)
	if err != nil {
		return written{}, "", slugError("forget", a.Slug, err)
	}
	out := writtenOf(w)
	text := "Forgot " + w.Slug + " (list and search no longer show it)" + commitText(out)
	if out.Committed {
		text += " `mem undo " + short(out.Commit) + "` brings it back."
	}
	return out, text, nil
}

func (s *server) show(ctx context.Context, a slugArgs) (shown, string, error) {
	data, where, err := s.repo.Show(ctx, a.Slug)
	if err != nil {
		return shown{}, "", slugError("show", a.Slug, err)
	}
	out := shown{Slug: mem.ShownSlug(a.Slug, where), Path: where, Text: string(data)}
	return out, out.Text, nil
}

func (s *server) list(ctx context.Context, _ listArgs) (listed, string, error) {
	entries, bad, err := s.repo.List(ctx)
	if err != nil {
		return listed{}, "", fmt.Errorf("could not list the memories: %v", err)
	}
	out := listed{Memories: entries}
	if out.Memories == nil {
		out.Memories = []mem.Entry{}
	}
	for _, e := range bad {
		out.Problems = append(out.Problems, e.Error())
	}
	var b strings.Builder
	switch len(entries) {
	case 0:
		b.WriteString("The store holds no memories yet.\n")
	case 1:
		b.WriteString("1 memory:\n")
	default:
		fmt.Fprintf(&b, "%d memories:\n", len(entries))
	}
	for _, e := range entries {
		fmt.Fprintf(&b, "- %s (%s): %s", e.Slug, e.Class, e.Name)
		if e.SupersededBy != "" {
			fmt.Fprintf(&b, " [superseded by %s]", e.SupersededBy)
		}
		if len(e.Unverified) > 0 {
			b.WriteString(" [unverified]")
		}
		b.WriteByte('\n')
	}
	if len(bad) > 0 {
		fmt.Fprintf(&b, "%d file(s) could not be read and were skipped:\n", len(bad))
		for _, p := range out.Problems {
			b.WriteString("- " + p + "\n")
		}
	}
	return out, strings.TrimRight(b.String(), "\n"), nil
}

func (s *server) query(ctx context.Context, a queryArgs) (queryResult, string, error) {
	limit := a.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	results, _, err := s.repo.Search(ctx, a.Query, "", search.Options{Limit: limit})
	if err != nil {
		return queryResult{}, "", fmt.Errorf("could not search the memories: %v", err)
	}
	out := queryResult{Results: mem.Hits(results)}
	if len(out.Results) == 0 {
		return out, "No memory is relevant enough to this query.", nil
	}
	var b strings.Builder
	for i, h := range out.Results {
		fmt.Fprintf(&b, "%d. %s (%s, score %.2f): %s\n", i+1, h.Slug, h.Class, h.Score, h.Name)
		for _, l := range h.Labels {
			b.WriteString("   [" + l + "]\n")
		}
		b.WriteString("   " + search.Where(h.Path, h.Line) + "\n")
		if h.Snippet != "" {
			b.WriteString("   " + strings.ReplaceAll(strings.TrimSpace(h.Snippet), "\n", "\n   ") + "\n")
		}
	}
	b.WriteString("Read a whole memory with memory_show.")
	return out, b.String(), nil
}

// slugError turns a failed show or forget into one sentence.
func slugError(verb, slug string, err error) error {
	var nf *mem.NotFoundError
	switch {
	case errors.As(err, &nf) && len(nf.Near) > 0:
		return fmt.Errorf("no memory has the slug %q; did you mean %s? memory_list shows the slugs there are", slug, strings.Join(nf.Near, ", "))
	case errors.Is(err, mem.ErrNotFound):
		return fmt.Errorf("no memory has the slug %q: memory_list shows the slugs there are", slug)
	}
	return fmt.Errorf("could not %s %q: %v", verb, slug, err)
}

func writtenOf(w mem.Written) written {
	return written{Slug: w.Slug, Path: w.Path, Committed: w.Committed, Commit: w.Commit, Skipped: w.Skipped, Warning: w.Warning}
}

// commitText ends a sentence about a write with what happened in git.
func commitText(w written) string {
	var t string
	switch {
	case w.Committed:
		t = " and committed it (" + short(w.Commit) + ")."
	case w.Skipped != "":
		t = " but did not commit it: " + w.Skipped + "."
	default:
		t = "."
	}
	if w.Warning != "" {
		t += " Warning: " + w.Warning
	}
	return t
}

func short(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}
