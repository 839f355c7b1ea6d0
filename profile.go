package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/locate"
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

// ProfileScope says whose profile a call reads or writes.
//
// The profile says who a person is and how they like to work ("call me
// Sam"), so it is personal: kept where Claude Code keeps a person's own
// memory, its user scope (<Claude dir>/agent-memory/mem/PROFILE.md, beside
// the subagents' user memories), never in a repository the team clones. A
// team that wants a profile for everyone (house rules of the team) asks for
// one: the store's PROFILE.md, committed like a memory.
type ProfileScope int

const (
	// PersonalProfile is the person's own profile: the default.
	PersonalProfile ProfileScope = iota
	// TeamProfile is the store's PROFILE.md, committed and shared.
	TeamProfile
)

func (s ProfileScope) String() string {
	if s == TeamProfile {
		return "team"
	}
	return "personal"
}

// PersonalProfileDir is where the personal profile lives (and the memories
// its demoted lines become): mem's directory in Claude Code's user scope;
// "" when there is no Claude directory to name.
func PersonalProfileDir() string {
	if dir := locate.UserAgents(); dir != "" {
		return filepath.Join(dir, "mem")
	}
	return ""
}

// profileFiles returns the files of a profile's scope: the store for the
// team's, mem's user-scope directory for the person's. The person's is in
// no repository: its writes are written, atomically and under its own
// lock, and not committed; like every write they pass the secret scan.
func (r *Repo) profileFiles(scope ProfileScope) (*gitstore.Store, error) {
	if scope == TeamProfile {
		return r.files, nil
	}
	dir := PersonalProfileDir()
	if dir == "" {
		return nil, errors.New("no Claude Code directory for a personal profile (set HOME or CLAUDE_CONFIG_DIR)")
	}
	s, err := gitstore.Open(locate.Place{Store: dir})
	if err != nil {
		return nil, err
	}
	s.Check = func(name string, data []byte) error {
		if name == "" {
			return nil // no commit, no message
		}
		return secrets.Check(locate.ShortHome(filepath.Join(dir, filepath.FromSlash(name))), string(data))
	}
	return s, nil
}

// Profiles are the always-on profiles of a repository's store: the
// person's (outside the store, never committed) and the team's (in it).
type Profiles struct{ r *Repo }

// Profiles is the facade's noun for the profiles.
func (r *Repo) Profiles() Profiles { return Profiles{r} }

// File is the file of a profile's scope, as a person reads its path.
func (ps Profiles) File(scope ProfileScope) string {
	r := ps.r
	if scope == TeamProfile {
		return r.Place.Rel(r.abs(profile.FileName))
	}
	return locate.ShortHome(filepath.Join(PersonalProfileDir(), profile.FileName))
}

// Read reads the profile of scope; none is an empty one.
func (ps Profiles) Read(ctx context.Context, scope ProfileScope) (profile.Profile, error) {
	r := ps.r
	files, err := r.profileFiles(scope)
	if err != nil {
		return profile.Profile{}, err
	}
	return readProfile(files)
}

func readProfile(files *gitstore.Store) (profile.Profile, error) {
	data, err := files.ReadFile(profile.FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return profile.Profile{}, nil
	}
	if err != nil {
		return profile.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	return profile.Parse(data), nil
}

// Add adds a line to the profile and commits it. It never fails for
// size: while the profile is over cap, the weakest line (possibly the new
// one) becomes an ordinary memory of class preference, in the same commit
// (Mem-Action: demote), so nothing is lost. Said, Importance and Added
// default to inferred, profile.DefaultImportance and today.
func (ps Profiles) Add(ctx context.Context, scope ProfileScope, l profile.Line, cap int) (ProfileChange, error) {
	r := ps.r
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
	files, p, unlock, err := r.lockProfile(ctx, scope)
	if err != nil {
		return ProfileChange{}, err
	}
	defer unlock()
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
		slug, err := r.demotedSlug(files, d.Text, taken)
		if err != nil {
			return out, err
		}
		memories = append(memories, gitstore.Change{Path: slug + ".md", Data: demotedMemory(d, now, cap).Bytes()})
		out.Demoted = append(out.Demoted, Demoted{Line: d, Slug: slug, Path: r.shownIn(files, slug+".md")})
	}
	out.Result, err = r.commitProfile(ctx, files, p, memories, profileCommit(out))
	return out, err
}

// lockProfile takes the lock of the scope's profile and reads it: the
// start of every change of it.
func (r *Repo) lockProfile(ctx context.Context, scope ProfileScope) (*gitstore.Store, profile.Profile, func(), error) {
	files, err := r.profileFiles(scope)
	if err != nil {
		return nil, profile.Profile{}, nil, err
	}
	unlock, err := r.lockFiles(ctx, files)
	if err != nil {
		return nil, profile.Profile{}, nil, err
	}
	p, err := readProfile(files)
	if err != nil {
		unlock()
		return nil, profile.Profile{}, nil, err
	}
	return files, p, unlock, nil
}

// lockFiles takes the lock of files: the store's own, with lock's notice
// and timeout, or the personal directory's.
func (r *Repo) lockFiles(ctx context.Context, files *gitstore.Store) (func(), error) {
	if files == r.files {
		return r.lock(ctx)
	}
	return files.Lock(ctx)
}

// shownIn is a file of files as a person reads its path.
func (r *Repo) shownIn(files *gitstore.Store, rel string) string {
	abs := filepath.Join(files.Root, filepath.FromSlash(rel))
	if files == r.files {
		return r.Place.Rel(abs)
	}
	return locate.ShortHome(abs)
}

// commitProfile writes p, and more changes with it, as one commit under the
// caller's lock. Hand edits to the profile are committed with the rewrite,
// so the whole profile passes the secrets guard first.
func (r *Repo) commitProfile(ctx context.Context, files *gitstore.Store, p profile.Profile, more []gitstore.Change, info gitstore.CommitInfo) (gitstore.Result, error) {
	if err := secrets.Check(profile.FileName, p.Text()); err != nil {
		return gitstore.Result{}, err
	}
	changes := append([]gitstore.Change{{Path: profile.FileName, Data: p.Format()}}, more...)
	res, err := files.Apply(ctx, changes, info)
	if err != nil {
		return res, err
	}
	if files == r.files {
		r.refreshLocked()
	}
	return res, nil
}

// profileCommit is the commit of an add: "profile-add", or "demote" when
// lines left the profile, named in the subject (the first, and how many
// more) and each in a Mem-Demoted trailer.
func profileCommit(c ProfileChange) gitstore.CommitInfo {
	verb, action, key, did := "add", gitstore.ActionProfileAdd, gitstore.TrailerProfileAdd, "gained"
	if c.Merged {
		verb, action, key, did = "update", gitstore.ActionProfileUpdate, gitstore.TrailerProfileUpdate, "updated"
	}
	trailers := []gitstore.Trailer{{Key: key, Value: c.Line.Text}}
	if len(c.Demoted) == 0 {
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerSlug, Value: profile.FileName})
		return gitstore.CommitInfo{
			Action:   action,
			Subject:  fmt.Sprintf("mem: profile %s %q", verb, text.ClipWords(c.Line.Text, 60)),
			Trailers: trailers,
		}
	}
	var body strings.Builder
	fmt.Fprintf(&body, "The profile %s %q (%s) and went over its cap of %d characters;\n", did, c.Line.Text, c.Line.Meta(), c.Cap)
	body.WriteString("the weakest lines became memories (class preference):\n")
	for _, d := range c.Demoted {
		fmt.Fprintf(&body, "- %q (%s) -> %s\n", d.Text, d.Meta(), d.Slug)
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerDemoted, Value: d.Slug})
	}
	subject := fmt.Sprintf("mem: demote %q from the profile to %s", text.ClipWords(c.Demoted[0].Text, 50), c.Demoted[0].Slug)
	if n := len(c.Demoted) - 1; n > 0 {
		subject += fmt.Sprintf(" (and %d more)", n)
	}
	trailers = append(trailers,
		gitstore.Trailer{Key: gitstore.TrailerSlug, Value: c.Demoted[0].Slug},
		gitstore.Trailer{Key: gitstore.TrailerProfileSize, Value: fmt.Sprintf("%d/%d", c.Size, c.Cap)})
	return gitstore.CommitInfo{Action: gitstore.ActionDemote, Subject: subject, Body: body.String(), Trailers: trailers}
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
	name := deriveName(l.Text)
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
func (r *Repo) demotedSlug(files *gitstore.Store, text string, taken map[string]bool) (string, error) {
	base := mdparse.Slugify(deriveName(text))
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
		existing := ""
		if files == r.files {
			var err error
			if existing, err = r.find(slug); err != nil {
				return "", err
			}
		}
		if existing == "" && !files.Exists(slug+".md") {
			taken[slug] = true
			return slug, nil
		}
	}
}

// Remove takes one line out of the profile (its number as
// `mem profile show` counts them, or its text) and commits it. The line is
// gone from the profile, not from history: `mem undo` brings it back.
func (ps Profiles) Remove(ctx context.Context, scope ProfileScope, which string) (ProfileChange, error) {
	r := ps.r
	files, p, unlock, err := r.lockProfile(ctx, scope)
	if err != nil {
		return ProfileChange{}, err
	}
	defer unlock()
	i, err := p.Select(which)
	if err != nil {
		return ProfileChange{}, err
	}
	out := ProfileChange{Line: p.Lines[i]}
	p.Lines = append(p.Lines[:i], p.Lines[i+1:]...)
	out.Size = p.Size()
	out.Result, err = r.commitProfile(ctx, files, p, nil, gitstore.CommitInfo{
		Action:  gitstore.ActionProfileRm,
		Subject: fmt.Sprintf("mem: profile rm %q", text.ClipWords(out.Line.Text, 60)),
		Trailers: []gitstore.Trailer{
			{Key: gitstore.TrailerProfileRm, Value: out.Line.Text},
			{Key: gitstore.TrailerSlug, Value: profile.FileName},
		},
	})
	return out, err
}

// Context is the profiles as a session is given them at its start
// (the person's, then the team's when the store has one), or "" when both
// are empty.
func (ps Profiles) Context(ctx context.Context) (string, error) {
	r := ps.r
	var parts []string
	for _, scope := range []ProfileScope{PersonalProfile, TeamProfile} {
		p, err := r.Profiles().Read(ctx, scope)
		if err != nil {
			return "", err
		}
		if len(p.Entries()) == 0 {
			continue
		}
		who := "The user's profile (%s; `mem profile add` records more):\n%s"
		if scope == TeamProfile {
			who = "The team's profile, shared by everyone who works in this repository (%s):\n%s"
		}
		parts = append(parts, fmt.Sprintf(who, r.Profiles().File(scope), strings.TrimRight(p.Text(), "\n")))
	}
	return strings.Join(parts, "\n\n"), nil
}

// Migrate moves the lines of the store's PROFILE.md into the
// person's profile and removes the file from the store, as one commit: for
// a profile an earlier mem kept in the store, where every teammate's agent
// read it. The person who runs it says the lines are theirs; a line both
// hold is merged. The person's profile demotes its weakest lines into
// personal memories if it goes over cap, as an add does.
func (ps Profiles) Migrate(ctx context.Context, cap int) (ProfileMigration, error) {
	r := ps.r
	team, err := r.Profiles().Read(ctx, TeamProfile)
	if err != nil {
		return ProfileMigration{}, err
	}
	if !r.files.Exists(profile.FileName) {
		return ProfileMigration{}, fmt.Errorf("the store has no %s: nothing to migrate", profile.FileName)
	}
	out := ProfileMigration{From: r.Profiles().File(TeamProfile), To: r.Profiles().File(PersonalProfile)}
	for _, i := range team.Entries() {
		ch, err := r.Profiles().Add(ctx, PersonalProfile, team.Lines[i], cap)
		if err != nil {
			return out, err
		}
		out.Moved = append(out.Moved, ch.Line)
		out.Demoted = append(out.Demoted, ch.Demoted...)
	}
	unlock, err := r.lock(ctx)
	if err != nil {
		return out, err
	}
	defer unlock()
	out.Result, err = r.files.Apply(ctx, []gitstore.Change{{Path: profile.FileName, Delete: true}}, gitstore.CommitInfo{
		Action:  gitstore.ActionProfileMigrate,
		Subject: fmt.Sprintf("mem: the profile is personal: %d lines move out of the store", len(out.Moved)),
		Body:    fmt.Sprintf("%s reached every teammate's agent; its lines now live in %s, which is not shared.", out.From, out.To),
		Trailers: []gitstore.Trailer{
			{Key: gitstore.TrailerSlug, Value: profile.FileName},
		},
	})
	if err == nil {
		r.refreshLocked()
	}
	return out, err
}

// ProfileMigration is what Profiles.Migrate did.
type ProfileMigration struct {
	From, To string         // the files, as a person reads their paths
	Moved    []profile.Line // the lines now in the person's profile
	Demoted  []Demoted      // lines the person's profile had no room for, now personal memories
	gitstore.Result
}
