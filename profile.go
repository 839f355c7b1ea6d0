package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/profile"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// Demoted is a profile line that became an ordinary memory.
type Demoted struct {
	profile.Line
	Slug string `json:"slug"`
	Path string `json:"path"` // relative to the work tree
}

// ProfileChange is the outcome of a profile write.
type ProfileChange struct {
	Line    profile.Line `json:"line"`    // the line added or removed
	Merged  bool         `json:"merged"`  // the line was there already; its metadata was merged
	Demoted []Demoted    `json:"demoted"` // lines moved out to memories, weakest first
	Size    int          `json:"size"`    // the profile's size after the write
	Cap     int          `json:"cap"`
	gitstore.Result
}

// Profile reads the store's profile; a store without one has an empty one.
func (r *Repo) Profile(ctx context.Context) (profile.Profile, error) {
	data, err := r.files.ReadFile(profile.FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return profile.Profile{}, nil
	}
	if err != nil {
		return profile.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	return profile.Parse(data), nil
}

// ProfileAdd adds a line to the profile and commits it. It never fails for
// size: while the profile is over cap, the weakest line (possibly the new
// one) becomes an ordinary memory of class preference, in the same commit
// (Mem-Action: demote), so nothing is lost. Said, Importance and Added
// default to inferred, profile.DefaultImportance and today.
func (r *Repo) ProfileAdd(ctx context.Context, l profile.Line, cap int) (ProfileChange, error) {
	if err := profile.Check(l.Text); err != nil {
		return ProfileChange{}, err
	}
	l.Text, l.Heading, l.FileLine = profile.Clean(l.Text), false, 0
	if err := secrets.Check("profile line", l.Text); err != nil {
		return ProfileChange{}, err
	}
	if l.Importance == 0 {
		l.Importance = profile.DefaultImportance
	}
	if l.Importance < 1 || l.Importance > 10 {
		return ProfileChange{}, fmt.Errorf("importance %d is out of range 1-10", l.Importance)
	}
	if cap <= 0 {
		return ProfileChange{}, fmt.Errorf("the profile cap must be a positive number of characters, not %d", cap)
	}
	now := r.Now().UTC()
	if l.Added.IsZero() {
		l.Added = now.Truncate(24 * time.Hour)
	}

	unlock, err := r.lock(ctx)
	if err != nil {
		return ProfileChange{}, err
	}
	defer unlock()
	p, err := r.Profile(ctx)
	if err != nil {
		return ProfileChange{}, err
	}
	out := ProfileChange{Line: l, Cap: cap, Merged: p.Find(l.Text) >= 0}
	before := p.Format()
	demoted := p.Add(l, cap)
	out.Size = p.Size()
	if i := p.Find(l.Text); i >= 0 {
		out.Line = p.Lines[i]
	}
	if out.Merged && len(demoted) == 0 && bytes.Equal(p.Format(), before) {
		out.Skipped = gitstore.SkipNoChange
		return out, nil
	}

	var memories []gitstore.Change
	taken := map[string]bool{}
	for _, d := range demoted {
		if err := secrets.Check("demoted profile line", d.Text); err != nil {
			return out, err
		}
		slug, err := r.demotedSlug(d.Text, taken)
		if err != nil {
			return out, err
		}
		memories = append(memories, gitstore.Change{Path: slug + ".md", Data: demotedMemory(d, now, cap).Bytes()})
		out.Demoted = append(out.Demoted, Demoted{Line: d, Slug: slug, Path: r.Place.Rel(r.abs(slug + ".md"))})
	}
	out.Result, err = r.commitProfile(ctx, p, memories, profileCommit(out))
	return out, err
}

// commitProfile writes p, and more changes with it, as one commit under the
// caller's lock. Hand edits to the profile are committed with the rewrite,
// so the whole profile passes the secrets guard first.
func (r *Repo) commitProfile(ctx context.Context, p profile.Profile, more []gitstore.Change, info gitstore.CommitInfo) (gitstore.Result, error) {
	if err := secrets.Check(profile.FileName, p.Text()); err != nil {
		return gitstore.Result{}, err
	}
	changes := append([]gitstore.Change{{Path: profile.FileName, Data: p.Format()}}, more...)
	res, err := r.files.Apply(ctx, changes, info)
	if err != nil {
		return res, err
	}
	r.refreshLocked()
	return res, nil
}

// profileCommit is the commit of an add: "profile-add", or "demote" when
// lines left the profile, named in the subject (the first, and how many
// more) and each in a Mem-Demoted trailer.
func profileCommit(c ProfileChange) gitstore.CommitInfo {
	verb, key, did := "add", "Mem-Profile-Add", "gained"
	if c.Merged {
		verb, key, did = "update", "Mem-Profile-Update", "updated"
	}
	trailers := []gitstore.Trailer{{Key: key, Value: c.Line.Text}}
	if len(c.Demoted) == 0 {
		trailers = append(trailers, gitstore.Trailer{Key: "Mem-Slug", Value: profile.FileName})
		return gitstore.CommitInfo{
			Action:   "profile-" + verb,
			Subject:  fmt.Sprintf("mem: profile %s %q", verb, text.ClipWords(c.Line.Text, 60)),
			Trailers: trailers,
		}
	}
	var body strings.Builder
	fmt.Fprintf(&body, "The profile %s %q (%s) and went over its cap of %d characters;\n", did, c.Line.Text, c.Line.Meta(), c.Cap)
	body.WriteString("the weakest lines became memories (class preference):\n")
	for _, d := range c.Demoted {
		fmt.Fprintf(&body, "- %q (%s) -> %s\n", d.Text, d.Meta(), d.Slug)
		trailers = append(trailers, gitstore.Trailer{Key: "Mem-Demoted", Value: d.Slug})
	}
	subject := fmt.Sprintf("mem: demote %q from the profile to %s", text.ClipWords(c.Demoted[0].Text, 50), c.Demoted[0].Slug)
	if n := len(c.Demoted) - 1; n > 0 {
		subject += fmt.Sprintf(" (and %d more)", n)
	}
	trailers = append(trailers,
		gitstore.Trailer{Key: "Mem-Slug", Value: c.Demoted[0].Slug},
		gitstore.Trailer{Key: "Mem-Profile-Size", Value: fmt.Sprintf("%d/%d", c.Size, c.Cap)})
	return gitstore.CommitInfo{Action: "demote", Subject: subject, Body: body.String(), Trailers: trailers}
}

// demotedMemory is the memory a demoted line becomes: the line as its name
// (cut at a word) and body, with where it came from.
func demotedMemory(l profile.Line, now time.Time, cap int) *mdparse.Memory {
	who := "inferred by an agent"
	if l.Said {
		who = "said by the user"
	}
	added := "at an unknown date"
	if !l.Added.IsZero() {
		added = "on " + l.Added.Format(profile.DateLayout)
	}
	name := firstLine(l.Text, 72)
	desc := ""
	if name != l.Text {
		desc = l.Text
	}
	body := fmt.Sprintf("%s\n\nFrom the user profile (%s): %s, importance %d, added %s; moved out on %s to keep the profile within %d characters.\n",
		l.Text, profile.FileName, who, l.Importance, added, now.Format(profile.DateLayout), cap)
	return mdparse.New(mdparse.Fields{
		Name:        name,
		Description: desc,
		Class:       "preference",
		Importance:  l.Importance,
		Modified:    now.Truncate(time.Second),
		Tags:        []string{"profile"},
	}, body)
}

// demotedSlug returns a free slug for a demoted line: from its name, with
// -2, -3, ... when taken (in the store or earlier in this commit). The
// special files' names are never used, since a case-insensitive file system
// would take profile.md for PROFILE.md.
func (r *Repo) demotedSlug(text string, taken map[string]bool) (string, error) {
	base := mdparse.Slugify(firstLine(text, 72))
	if base == "" {
		base = "profile-line"
	}
	for n := 1; ; n++ {
		slug := base
		if n > 1 || layout.Reserved(base+".md") {
			slug = fmt.Sprintf("%s-%d", base, max(n, 2))
		}
		if taken[slug] {
			continue
		}
		existing, err := r.find(slug)
		if err != nil {
			return "", err
		}
		if existing == "" && !r.files.Exists(slug+".md") {
			taken[slug] = true
			return slug, nil
		}
	}
}

// ProfileRemove takes one line out of the profile (its number as
// `mem profile show` counts them, or its text) and commits it. The line is
// gone from the profile, not from history: `mem undo` brings it back.
func (r *Repo) ProfileRemove(ctx context.Context, which string) (ProfileChange, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return ProfileChange{}, err
	}
	defer unlock()
	p, err := r.Profile(ctx)
	if err != nil {
		return ProfileChange{}, err
	}
	i, err := p.Select(which)
	if err != nil {
		return ProfileChange{}, err
	}
	out := ProfileChange{Line: p.Lines[i]}
	p.Lines = append(p.Lines[:i], p.Lines[i+1:]...)
	out.Size = p.Size()
	out.Result, err = r.commitProfile(ctx, p, nil, gitstore.CommitInfo{
		Action:  "profile-rm",
		Subject: fmt.Sprintf("mem: profile rm %q", text.ClipWords(out.Line.Text, 60)),
		Trailers: []gitstore.Trailer{
			{Key: "Mem-Profile-Rm", Value: out.Line.Text},
			{Key: "Mem-Slug", Value: profile.FileName},
		},
	})
	return out, err
}

// ProfileContext is the profile as a session is given it at its start, or
// "" when the profile is empty.
func (r *Repo) ProfileContext(ctx context.Context) (string, error) {
	p, err := r.Profile(ctx)
	if err != nil || len(p.Entries()) == 0 {
		return "", err
	}
	return fmt.Sprintf("The user's profile (%s; `mem profile add` records more):\n%s",
		r.Place.Rel(r.abs(profile.FileName)), strings.TrimRight(p.Text(), "\n")), nil
}
