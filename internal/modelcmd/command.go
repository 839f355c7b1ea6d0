package modelcmd

import (
	"errors"
	"fmt"
	"strings"
)

// ParseCommand splits s into an argv as a POSIX shell would split a simple
// command: words separated by blanks, 'single quotes' taken literally,
// "double quotes" in which a backslash escapes only $ ` " \ and newline, and
// a backslash outside quotes escaping the next character. Nothing is
// expanded; an unquoted $, `, ~ at the start of a word, or a shell operator
// (| & ; < > ( )) is an error rather than silently taken literally, since the
// command is not run by a shell.
func ParseCommand(s string) ([]string, error) {
	var (
		argv   []string
		word   strings.Builder
		inWord bool
	)
	flush := func() {
		if inWord {
			argv = append(argv, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
			word.WriteByte(s[i])
			inWord = true
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			word.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += 1 + end
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				word.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case strings.IndexByte("|&;<>()$`", c) >= 0:
			return nil, fmt.Errorf("%q needs a shell, and the model command is run without one; quote it, or put the pipeline in a script and name the script", string(c))
		case c == '~' && !inWord:
			return nil, errors.New("~ is not expanded; write the full path")
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flush()
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	return argv, nil
}
