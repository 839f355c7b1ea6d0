package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/internal/locate"
)

// hookSpec is one hook mem wants in .claude/settings.json.
type hookSpec struct {
	event, matcher, kind, command string
}

func (o Options) hookSpecs() []hookSpec {
	specs := []hookSpec{
		{"UserPromptSubmit", "", kindPrompt, HookCommand(kindPrompt)},
		{"Stop", "", kindGate, HookCommand(kindGate)},
		{"PostToolUse", "Edit|Write|MultiEdit", kindPostTool, HookCommand(kindPostTool)},
		{"SessionStart", "", kindSessionStart, HookCommand(kindSessionStart)},
	}
	if o.Capture {
		capture := HookCommand(kindCapture)
		specs = append(specs,
			hookSpec{"SessionEnd", "", kindCapture, capture},
			hookSpec{"PreCompact", "", kindCapture, capture})
	}
	return specs
}

// group is the matcher group that holds one of mem's hooks.
func (s hookSpec) group() object {
	var g object
	if s.matcher != "" {
		g = append(g, field{"matcher", s.matcher})
	}
	handler := object{{"type", "command"}, {"command", s.command}}
	return append(g, field{"hooks", []any{handler}})
}

func settingsPath(o Options) string {
	return filepath.Join(o.Place.WorkTree, ".claude", "settings.json")
}

// UserSettingsPath is the user's Claude Code settings file, where a user
// install puts the hooks: Claude Code reads it in every directory, while
// it reads a repository's .claude/settings.json only when started at the
// top of the work tree (2.1.328, started in a subdirectory: the root's
// settings.json is not read, its settings.local.json is).
func UserSettingsPath() (string, error) {
	dir, err := locate.ClaudeDir()
	if err != nil {
		return "", fmt.Errorf("install: find Claude Code's settings: %w", err)
	}
	return filepath.Join(dir, "settings.json"), nil
}

// LocalSettingsPath is the work tree's .claude/settings.local.json, where a
// local install puts the hooks: one person's settings for this repository,
// which Claude Code reads from every directory of the work tree (2.1.328,
// unlike settings.json), and which is not committed.
func LocalSettingsPath(workTree string) string {
	return filepath.Join(workTree, ".claude", "settings.local.json")
}

// hooksPath is the settings file this install writes its hooks to.
func (pl *planner) hooksPath() (string, error) {
	switch {
	case pl.o.User:
		return UserSettingsPath()
	case pl.o.Local:
		return LocalSettingsPath(pl.o.Place.WorkTree), nil
	}
	return settingsPath(pl.o), nil
}

// hookLoc is where one of mem's handlers sits:
// root.hooks[event][group].hooks[idx].
type hookLoc struct {
	hooksIdx, eventIdx, groupIdx, idx int
	hooks, event, group, handlers     *jnode
	eventName, kind, command          string
}

// ourHooks lists mem's handlers in document order. Anything shaped
// differently from Claude Code's schema is not ours and is skipped.
func ourHooks(d *jdoc) []hookLoc {
	var out []hookLoc
	hi := d.root.find("hooks")
	if hi < 0 || d.root.elems[hi].kind != '{' {
		return nil
	}
	hooks := d.root.elems[hi]
	for ei, ev := range hooks.elems {
		if ev.kind != '[' {
			continue
		}
		for gi, g := range ev.elems {
			handlers := g.member("hooks")
			if handlers == nil || handlers.kind != '[' {
				continue
			}
			for i, h := range handlers.elems {
				cmd, ok := d.str(h.member("command"))
				if !ok {
					continue
				}
				if kind, ok := ourKind(cmd); ok {
					out = append(out, hookLoc{hi, ei, gi, i, hooks, ev, g, handlers, hooks.keys[ei].name, kind, cmd})
				}
			}
		}
	}
	return out
}

// removeHook deletes a handler and whatever holds nothing else once it is
// gone: its group, the event's list, the hooks object.
func (d *jdoc) removeHook(l hookLoc) {
	switch {
	case len(l.handlers.elems) > 1:
		d.remove(l.handlers, l.idx)
	case len(l.event.elems) > 1:
		d.remove(l.event, l.groupIdx)
	case len(l.hooks.elems) > 1:
		d.remove(l.hooks, l.eventIdx)
	default:
		d.remove(d.root, l.hooksIdx)
	}
}

// ensureHook makes one edit towards s being installed exactly once, and
// reports whether it made one.
func ensureHook(d *jdoc, s hookSpec) (bool, error) {
	hi := d.root.find("hooks")
	if hi < 0 {
		return true, d.add(d.root, "hooks", object{{s.event, []any{s.group()}}})
	}
	hooks := d.root.elems[hi]
	if hooks.kind != '{' {
		return false, errors.New(`"hooks" is not an object`)
	}
	ei := hooks.find(s.event)
	if ei < 0 {
		return true, d.add(hooks, s.event, []any{s.group()})
	}
	if hooks.elems[ei].kind != '[' {
		return false, fmt.Errorf(`"hooks.%s" is not an array`, s.event)
	}
	var mine []hookLoc
	for _, l := range ourHooks(d) {
		if l.eventIdx == ei && l.kind == s.kind {
			mine = append(mine, l)
		}
	}
	switch {
	case len(mine) == 0:
		return true, d.add(hooks.elems[ei], "", s.group())
	case len(mine) > 1:
		d.removeHook(mine[len(mine)-1])
		return true, nil
	}
	l := mine[0]
	if l.command != s.command {
		return true, d.replace(l.handlers.elems[l.idx].member("command"), s.command)
	}
	// A group holding only mem's handler is mem's: keep its matcher right.
	if s.matcher != "" && len(l.handlers.elems) == 1 {
		return d.set(l.group, "matcher", s.matcher)
	}
	return false, nil
}

// parseObject parses a JSON file whose top level must be an object.
func parseObject(path string, src []byte) (*jdoc, error) {
	d, err := parseJSON(src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if d.root.kind != '{' {
		return nil, fmt.Errorf("parse %s: the top level is not a JSON object", path)
	}
	return d, nil
}

// edit applies step until it reports no change.
func edit(d *jdoc, step func() (bool, error)) error {
	for range 100 {
		changed, err := step()
		if err != nil || !changed {
			return err
		}
	}
	return errors.New("edit does not settle (a bug in mem)")
}

func planSettings(pl *planner) error {
	if !pl.has(Claude) {
		return nil
	}
	path, err := pl.hooksPath()
	if err != nil {
		return err
	}
	src, exists, err := pl.read(path)
	if err != nil {
		return err
	}
	if !exists {
		src = []byte("{}\n")
	}
	d, err := parseObject(path, src)
	if err != nil {
		return err
	}
	for _, s := range pl.o.hookSpecs() {
		if err := edit(d, func() (bool, error) { return ensureHook(d, s) }); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if !pl.o.Capture {
		// Capture is a switch: without it, mem's capture hooks go.
		removeHooks(d, func(l hookLoc) bool { return l.kind == kindCapture })
	}
	why := "add mem's hooks to Claude Code's project settings"
	switch {
	case pl.o.User:
		why = "add mem's hooks to Claude Code's user settings (they act in repositories with a store)"
	case pl.o.Local:
		why = "add mem's hooks to your local settings for this repository (they run in every directory of it)"
	}
	return pl.write(path, d.src, 0o644, why)
}

func removeHooks(d *jdoc, match func(hookLoc) bool) {
	_ = edit(d, func() (bool, error) {
		for _, l := range ourHooks(d) {
			if match(l) {
				d.removeHook(l)
				return true, nil
			}
		}
		return false, nil
	})
}

func unplanSettings(pl *planner) error {
	path, err := pl.hooksPath()
	if err != nil {
		return err
	}
	src, exists, err := pl.read(path)
	if err != nil || !exists {
		return err
	}
	d, err := parseObject(path, src)
	if err != nil {
		return err
	}
	removeHooks(d, func(hookLoc) bool { return true })
	switch {
	case bytes.Equal(d.src, src):
		return nil
	case len(d.root.elems) == 0:
		return pl.del(path, "remove mem's hooks; nothing else is left")
	}
	return pl.write(path, d.src, 0o644, "remove mem's hooks")
}

// UserCovered reports whether Claude Code runs mem's hooks from any
// directory for this person: mem's prompt hook in their user settings
// (mem install --user) or mem's plugin enabled there.
func UserCovered() bool {
	path, err := UserSettingsPath()
	if err != nil {
		return false
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	d, err := parseObject(path, src)
	if err != nil {
		return false
	}
	if pluginEnabled(d) {
		return true
	}
	for _, l := range ourHooks(d) {
		if l.kind == kindPrompt {
			return true
		}
	}
	return false
}
