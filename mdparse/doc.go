// Package mdparse reads and writes memory files: markdown with an optional
// YAML frontmatter. It also extracts the searchable parts of a body and
// measures MEMORY.md and CLAUDE.md the way Claude Code loads them.
//
// It links goldmark and yaml.v3, so it belongs to indexing and the offline
// passes, never to the prompt path.
//
// Memories have a splitter of their own here, not adrg/frontmatter, which
// reads the read-only structured files (skill drafts and SKILL.md in
// internal/skills, subagent definitions in internal/agents): mem rewrites a
// memory byte for byte outside the keys it sets, reports a bad file with
// its file and line, and reads the loose "key: value" lines Claude Code
// writes, which no YAML decoder accepts.
//
// # File format
//
// A file has frontmatter only when its first line (after an optional UTF-8
// BOM) is "---". The frontmatter closes at the next line that is "---" or
// "..."; trailing spaces, tabs and a CR on a delimiter line are allowed. A
// file that opens a frontmatter and never closes it is an error. Frontmatter
// that is not valid YAML is read as plain "key: value" lines, the way Claude
// Code writes them ("description: Rule: never x"; [Memory.YAMLError] keeps
// the YAML error), and is an error only when it is not such lines either.
// Errors name the file and the line in the file ("notes/x.md:4: frontmatter:
// ..."). Everything after the closing line is the body.
//
// Known keys (see the Key constants) are read leniently: a value of the wrong
// shape is ignored or coerced ("importance: high" reads as 0, "tags: foo" as
// one tag), never an error. Claude Code's own "type:" (top level, or nested
// under "metadata:") maps to a class when no known "class:" is given.
//
// # Invariants
//
//   - Lossless: Parse(path, b).Bytes() == b, byte for byte, for every b that
//     parses (CRLF, BOM, comments, odd spacing and unknown keys included).
//   - Set and Unset change only the lines of the key they name. A value that
//     spans several lines (block list, block scalar, multi-line flow) is
//     replaced whole; a comment at the end of a one-line value is kept. Other
//     keys, comments, key order and the body keep every byte. New lines use
//     the file's line ending. If the frontmatter cannot be edited line by line
//     (a flow mapping such as "{name: x}", indented top-level keys, or a
//     loose frontmatter whose dangling quote would swallow the new line), it
//     is re-encoded by yaml.v3, which keeps its comments but not its layout.
//   - Values are rendered by yaml.v3, so quoting is always valid YAML; lists
//     use flow style ("tags: [a, b]").
//   - The exported fields of Memory are a view derived from the frontmatter;
//     change the file with Set and Unset (Body may be replaced directly).
package mdparse
