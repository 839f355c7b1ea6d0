package mem

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mem-dev/mem/search"
)

// indexSections finds the parts of a MEMORY.md that hold facts of their
// own (bullets and paragraphs that link to no memory file) and makes each
// section with such lines an index entry pointing at its first fact line.
// Lines that only index other memories are skipped: those memories are
// indexed themselves. The entries are labelled with store.
func indexSections(rel, shown, store string, data []byte) []search.Doc {
	var docs []search.Doc
	var heading string
	var facts []string
	first := 0
	flush := func() {
		if len(facts) > 0 {
			name := heading
			if name == "" {
				name = MemoryIndexFile
			}
			docs = append(docs, search.Doc{
				Slug:  fmt.Sprintf("%s#L%d", rel, first),
				Path:  shown,
				Store: store,
				Name:  name,
				Class: "fact",
				Body:  strings.Join(facts, "\n"),
				Line:  first,
			})
		}
		facts, first = nil, 0
	}
	lines := bytes.Split(data, []byte("\n"))
	inFront, inFence, inComment := false, false, false
	for i, raw := range lines {
		line := strings.TrimSpace(string(raw))
		switch {
		case i == 0 && line == "---":
			inFront = true
			continue
		case inFront:
			if line == "---" || line == "..." {
				inFront = false
			}
			continue
		case inComment:
			if strings.Contains(line, "-->") {
				inComment = false
			}
			continue
		case strings.HasPrefix(line, "<!--"):
			inComment = !strings.Contains(line, "-->")
			continue
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			inFence = !inFence
		case !inFence && strings.HasPrefix(line, "#"):
			flush()
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		if line == "" || linksToMemory(line) {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		facts = append(facts, line)
	}
	flush()
	return docs
}

// linksToMemory reports whether a line points at a memory file, as index
// lines do: "- [Title](slug.md) — summary".
func linksToMemory(line string) bool { return memoryLink(line) != "" }
