package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// ErrChanged means a memory's file changed between the read an edit
// started from and the write of its result.
var ErrChanged = errors.New("the memory changed while it was edited")

// Raw returns the file of the memory slug names (Resolve) as it is on disk, whether or not it parses
// (an edit is how a broken one is fixed), and its path as a person reads it.
func (r *Repo) Raw(ctx context.Context, slug string) (data []byte, shown string, err error) {
	rel, err := r.findMemory(slug)
	if err != nil {
		return nil, "", err
	}
	data, err = r.files.ReadFile(rel)
	if err != nil {
		return nil, "", err
	}
	return data, r.Place.Rel(r.abs(rel)), nil
}

// Rewrite replaces a memory's whole file with now, as one commit (Mem-Action:
// edit), when the file still holds was (what the edit started from; else
// ErrChanged and nothing is written). now must be a memory mem can read
// whole, plain text within MaxMemoryBytes, its modified: date is set to
// today, and like every write it passes the secret scan.
func (r *Repo) Rewrite(ctx context.Context, slug string, was, now []byte) (Written, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	rel, err := r.findMemory(slug)
	if err != nil {
		return Written{}, err
	}
	shown := r.Place.Rel(r.abs(rel))
	current, err := r.files.ReadFile(rel)
	if err != nil {
		return Written{}, err
	}
	if !bytes.Equal(current, was) {
		return Written{}, fmt.Errorf("%w: %s", ErrChanged, shown)
	}
	m, err := r.checkedMemory(shown, now)
	if err != nil {
		return Written{}, err
	}
	return r.commitEdit(ctx, rel, m, gitstore.ActionEdit)
}

// Update is a change to some fields of a memory; nil fields stay as they
// are.
type Update struct {
	Name, Description, Class *string
	Importance               *int
	Tags                     *[]string
	Body                     *string
}

// Update changes fields of the memory ref names (Resolve) and commits it (Mem-Action: update),
// keeping the rest of its file (unknown keys, aliases, labels) as it is.
// The result is checked as a new memory is.
func (r *Repo) Update(ctx context.Context, ref string, u Update) (Written, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	slug, err := r.Resolve(ref)
	if err != nil {
		return Written{}, err
	}
	rel, m, err := r.load(slug)
	if err != nil {
		return Written{}, err
	}
	set := func(key, v string) error {
		if v = strings.TrimSpace(v); v == "" {
			return m.Unset(key)
		}
		return m.Set(key, v)
	}
	var errs []error
	if u.Name != nil {
		if strings.TrimSpace(*u.Name) == "" {
			return Written{}, errors.New("a memory's name cannot be empty")
		}
		errs = append(errs, set(mdparse.KeyName, *u.Name))
	}
	if u.Description != nil {
		errs = append(errs, set(mdparse.KeyDescription, *u.Description))
	}
	if u.Class != nil {
		errs = append(errs, set(mdparse.KeyClass, *u.Class))
	}
	if u.Importance != nil {
		errs = append(errs, m.Set(mdparse.KeyImportance, *u.Importance))
	}
	if u.Tags != nil {
		tags := slices.DeleteFunc(slices.Clone(*u.Tags), func(t string) bool { return strings.TrimSpace(t) == "" })
		if len(tags) == 0 {
			errs = append(errs, m.Unset(mdparse.KeyTags))
		} else {
			errs = append(errs, m.Set(mdparse.KeyTags, tags))
		}
	}
	if u.Body != nil {
		body := strings.TrimSpace(*u.Body)
		if body == "" {
			return Written{}, errors.New("the memory is empty: give its new content")
		}
		m.Body = []byte(body + "\n")
	}
	if err := errors.Join(errs...); err != nil {
		return Written{}, err
	}
	shown := r.Place.Rel(r.abs(rel))
	checked, err := r.checkedMemory(shown, m.Bytes())
	if err != nil {
		return Written{}, err
	}
	return r.commitEdit(ctx, rel, checked, gitstore.ActionUpdate)
}

// checkedMemory parses data as a memory a writer may commit: it parses
// whole, holds no control characters, fits MaxMemoryBytes, and names a
// known class and an importance in range when it names them.
func (r *Repo) checkedMemory(shown string, data []byte) (*mdparse.Memory, error) {
	if len(data) > MaxMemoryBytes {
		return nil, fmt.Errorf("%s is %s, over the %s a memory may hold: keep one idea per memory, and point to a file in the repository for the rest", shown, text.Size(len(data)), text.Size(MaxMemoryBytes))
	}
	m, err := mdparse.Parse(shown, data)
	if err != nil {
		return nil, err
	}
	if c, bad := text.Control(string(data), true); bad {
		return nil, fmt.Errorf("%s holds a control character (%q): a memory is plain text", shown, c)
	}
	// YAML can spell a control character with an escape ("\e"): look at
	// the values as read, too.
	for _, f := range []struct{ field, value string }{{"name", m.Name}, {"description", m.Description}, {"tags", strings.Join(m.Tags, ",")}} {
		if c, bad := text.Control(f.value, false); bad {
			return nil, fmt.Errorf("%s: the %s holds a control character (%q): it is one line of plain text", shown, f.field, c)
		}
	}
	if strings.TrimSpace(string(m.Body)) == "" {
		return nil, fmt.Errorf("%s has no body: a memory says something (mem forget retires one)", shown)
	}
	if slices.Contains(m.Keys(), mdparse.KeyClass) && m.Class == "" {
		return nil, fmt.Errorf("%s: unknown class (one of %s)", shown, strings.Join(class.Names, ", "))
	}
	if slices.Contains(m.Keys(), mdparse.KeyImportance) && (m.Importance < 1 || m.Importance > 10) {
		return nil, fmt.Errorf("%s: importance is out of range 1-10", shown)
	}
	return m, nil
}

// commitEdit dates m and commits it as the file rel; the caller holds the
// lock.
func (r *Repo) commitEdit(ctx context.Context, rel string, m *mdparse.Memory, action string) (Written, error) {
	slug := layout.Slug(rel)
	if err := m.Set(mdparse.KeyModified, r.Now().UTC().Truncate(time.Second)); err != nil {
		return Written{}, err
	}
	changes := []gitstore.Change{{Path: rel, Data: m.Bytes()}}
	res, err := r.files.Apply(ctx, changes, gitstore.CommitInfo{Action: action, Slug: slug, Meanwhile: r.refreshWritten(changes)})
	if err != nil {
		return Written{}, err
	}
	r.afterWrite()
	return Written{Slug: slug, Path: r.Place.Rel(r.abs(rel)), Result: res}, nil
}
