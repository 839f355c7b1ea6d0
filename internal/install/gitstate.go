package install

import (
	"context"
	"fmt"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/locate"
)

// Identity is the finding, when git has no identity for the repository,
// that mem commits as its own (gitstore.FallbackIdentity), with how to set
// one. mem init and mem doctor say it; mem works either way.
func Identity(p locate.Place) (Problem, bool) {
	var missing []string
	for _, key := range []string{"user.name", "user.email"} {
		if v, err := git(p.WorkTree, "config", "--get", key); err != nil || v == "" {
			missing = append(missing, key)
		}
	}
	if len(missing) == 0 {
		return Problem{}, false
	}
	verb := "are"
	if len(missing) == 1 {
		verb = "is"
	}
	return Problem{
		Check:   "identity",
		Message: fmt.Sprintf("git %s %s not set: mem commits memories as %s", strings.Join(missing, " and "), verb, gitstore.FallbackIdentity),
		Fix:     `to commit them as you: git config --global user.name "Your Name" && git config --global user.email you@example.com`,
		Info:    true,
	}, true
}

// StoreIgnored is the finding, when git's ignore rules cover the store,
// that mem commits it all the same: it is meant to be shared. mem install,
// mem doctor and the note of a write say it.
func StoreIgnored(p locate.Place) (Problem, bool) {
	s, err := gitstore.Open(p)
	if err != nil {
		return Problem{}, false
	}
	rule, err := s.Ignored(context.Background())
	if err != nil || rule == "" {
		return Problem{}, false
	}
	rel := p.Rel(p.Store)
	return Problem{
		Check:   "store",
		Message: fmt.Sprintf("git ignores the store %s (%s); mem commits it anyway, for the team to share", rel, rule),
		Fix:     fmt.Sprintf("to say so in .gitignore, add `!/%s/` (an ignored directory above it must be written `dir/*`, not `dir/`, for that to work)", rel),
		Info:    true,
	}, true
}

// Unshared lists, from the top of the work tree, the files of changes that
// a team shares (in the work tree, outside git's own directory, neither the
// pre-commit hook nor the person's own .claude/settings.local.json) and
// that git shows untracked, modified or ignored: what
// the person must commit for their teammates to get mem too, with the
// command that does it (ShareCommand). Install commits nothing of theirs.
func Unshared(o Options, changes []Change) (files []string, command string, err error) {
	p := o.Place
	if o.User || p.WorkTree == "" {
		return nil, "", nil
	}
	hook, chained, err := preCommitPaths(p)
	if err != nil {
		return nil, "", err
	}
	var paths []string
	for _, c := range changes {
		if c.After == nil || c.Path == hook || c.Path == chained || c.Path == LocalSettingsPath(p.WorkTree) || !locate.Within(p.WorkTree, c.Path) ||
			locate.Within(p.GitDir, c.Path) || locate.Within(p.CommonDir, c.Path) {
			continue
		}
		paths = append(paths, p.Rel(c.Path))
	}
	if len(paths) == 0 {
		return nil, "", nil
	}
	out, err := git(p.WorkTree, append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored", "--"}, paths...)...)
	if err != nil {
		return nil, "", err
	}
	// "XY path" each ("!!" when ignored); a rename or copy is followed by
	// the path it came from.
	listed := map[string]bool{}
	force := false
	entries := strings.Split(out, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if len(e) < 4 {
			continue
		}
		listed[e[3:]] = true
		force = force || e[:2] == "!!"
		if e[0] == 'R' || e[0] == 'C' {
			i++
		}
	}
	for _, f := range paths { // in the order install wrote them
		if listed[f] {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, "", nil
	}
	add := "git add "
	if force {
		add += "-f " // the team needs them whatever .gitignore says
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = shellQuote(f)
	}
	return files, add + strings.Join(quoted, " ") + " && git commit -m 'Set up mem'", nil
}
