package install

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
)

// markers delimit a block of lines mem owns in a text file. A block is
// recognised by its first line starting with begin's prefix (up to and
// including ">>> mem") and a later line starting with end. Without end (git
// config files, where git's own edits may drop a trailing comment), the
// block is the begin line and the section headed by section, up to the
// next section header.
type markers struct {
	begin, end, section string
}

func hashMarkers(what string) markers {
	return markers{"# >>> mem: " + what + " (mem uninstall removes this block)", "# <<< mem", ""}
}

func htmlMarkers(what string) markers {
	return markers{"<!-- >>> mem: " + what + " (mem uninstall removes this block) -->", "<!-- <<< mem -->", ""}
}

func (m markers) beginPrefix() string {
	i := strings.Index(m.begin, ">>> mem")
	return m.begin[:i+len(">>> mem")]
}

// find returns the block's byte range, lines and final newline included.
func (m markers) find(src []byte) (start, end int, ok bool, err error) {
	start = -1
	inSection := false
	pos := 0
	for pos < len(src) {
		next := bytes.IndexByte(src[pos:], '\n')
		if next < 0 {
			next = len(src)
		} else {
			next += pos + 1
		}
		line := strings.TrimSpace(string(src[pos:next]))
		switch {
		case start < 0:
			if strings.HasPrefix(line, m.beginPrefix()) {
				start = pos
			}
		case m.end != "" && strings.HasPrefix(line, m.end):
			return start, next, true, nil
		case m.end == "" && strings.HasPrefix(line, "["):
			if inSection || line != m.section {
				return start, pos, true, nil
			}
			inSection = true
		}
		pos = next
	}
	switch {
	case start >= 0 && m.end == "":
		return start, pos, true, nil
	case start >= 0:
		return 0, 0, false, errors.New("mem's block has a start marker and no end marker (" + m.end + ")")
	}
	return 0, 0, false, nil
}

// upsert puts body (whole lines) in mem's block: in place when the block is
// there, appended after one newline (a blank line when src ends with one)
// otherwise.
func (m markers) upsert(src []byte, body string) ([]byte, error) {
	block := m.begin + "\n" + body
	if m.end != "" {
		block += m.end + "\n"
	}
	start, end, ok, err := m.find(src)
	if err != nil {
		return nil, err
	}
	if ok {
		return splice(src, start, end, []byte(block)), nil
	}
	if len(src) == 0 {
		return []byte(block), nil
	}
	return append(append(bytes.Clone(src), '\n'), block...), nil
}

// remove takes the block out with the newline upsert put before it, so that
// remove after upsert gives back the original bytes.
func (m markers) remove(src []byte) ([]byte, error) {
	start, end, ok, err := m.find(src)
	if err != nil || !ok {
		return src, err
	}
	if start > 0 && src[start-1] == '\n' {
		start--
	}
	return splice(src, start, end, nil), nil
}

// strip returns src without mem's block, to look at the rest.
func (m markers) strip(src []byte) ([]byte, error) {
	start, end, ok, err := m.find(src)
	if err != nil || !ok {
		return src, err
	}
	return splice(src, start, end, nil), nil
}

// splice returns a copy of src with src[start:end] replaced by text.
func splice(src []byte, start, end int, text []byte) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// unplanBlock removes mem's block from a file, and the file when nothing
// else is left in it.
func unplanBlock(pl *planner, path string, m markers, why string) error {
	src, exists, err := pl.read(path)
	if err != nil || !exists {
		return err
	}
	out, err := m.remove(src)
	if err != nil {
		return errors.New(path + ": " + err.Error())
	}
	switch {
	case bytes.Equal(out, src):
		return nil
	case len(out) == 0:
		return pl.del(path, why+"; nothing else is left")
	}
	return pl.write(path, out, 0o644, why)
}

// The rules that tell an agent to use memory.

var rulesMarkers = htmlMarkers("memory rules")

const rulesBody = "- Before exploring what you don't know, ask memory first: `mem search \"<topic>\"`.\n" +
	"- After you change something, store what you learned and why: `mem store --name \"<title>\" \"<what and why>\"`.\n"

// agentsRulesBody is the rules for AGENTS.md's agents (OpenCode, Kimi,
// Codex), which install gives mem's MCP server: they name its tools first.
// Codex runs shell commands in a sandbox whose .git is read-only (measured
// with codex-cli 0.169.0, `codex exec`: `mem store` fails with "lock store:
// open .git/mem/store.lock: read-only file system"; `mem search` answers),
// while its MCP servers run outside it, so there the tools are what works.
const agentsRulesBody = "- Before exploring what you don't know, ask memory first: mem's MCP tool `context_query` (or `mem search \"<topic>\"`).\n" +
	"- After you change something, store what you learned and why: mem's MCP tool `memory_store` (or `mem store --name \"<title>\" \"<what and why>\"`).\n"

func rulesFiles(pl *planner) []string {
	var files []string
	if pl.has(Claude) {
		files = append(files, filepath.Join(pl.o.Place.WorkTree, "CLAUDE.md"))
	}
	if pl.has(OpenCode) || pl.has(Kimi) || pl.has(Codex) {
		files = append(files, filepath.Join(pl.o.Place.WorkTree, "AGENTS.md"))
	}
	return files
}

func planRules(pl *planner) error {
	for _, path := range rulesFiles(pl) {
		src, _, err := pl.read(path)
		if err != nil {
			return err
		}
		body := rulesBody
		if filepath.Base(path) == "AGENTS.md" {
			body = agentsRulesBody
		}
		out, err := rulesMarkers.upsert(src, body)
		if err != nil {
			return errors.New(path + ": " + err.Error())
		}
		if err := pl.write(path, out, 0o644, "add the two memory rules for the agent"); err != nil {
			return err
		}
	}
	return nil
}

func unplanRules(pl *planner) error {
	for _, name := range []string{"CLAUDE.md", "AGENTS.md"} {
		path := filepath.Join(pl.o.Place.WorkTree, name)
		if err := unplanBlock(pl, path, rulesMarkers, "remove the memory rules"); err != nil {
			return err
		}
	}
	return nil
}
