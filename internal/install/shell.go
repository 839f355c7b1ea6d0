package install

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// shellQuote returns s as one POSIX shell word: as it is when it holds only
// characters the shell leaves alone, single-quoted otherwise.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellFields splits a command line into words the way a POSIX shell
// would, for the quoting shellQuote and people write (single and double
// quotes, backslashes). Expansions such as $VAR are left as text.
func shellFields(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Kinds of hook command mem installs.
const (
	kindPrompt       = "prompt"
	kindGate         = "gate"
	kindPostTool     = "post-tool"
	kindSessionStart = "session-start"
	kindCapture      = "capture"
)

// binName is a program's name without directory or .exe.
func binName(p string) string {
	return strings.TrimSuffix(path.Base(filepath.ToSlash(p)), ".exe")
}

// ourKind says which of mem's hooks a command line runs, if any: mem's own
// form (HookCommand) and the one-binary commands of older installs,
// "<x>/mem-hook prompt", "<x>/mem hook prompt", "mem gate", "mem capture
// …", whatever the directory, so that a binary that moved is recognised.
func ourKind(cmd string) (string, bool) {
	for _, w := range simpleCommands(cmd) {
		if kind, ok := oneKind(w); ok {
			return kind, true
		}
	}
	return "", false
}

func oneKind(w []string) (string, bool) {
	if len(w) < 2 {
		return "", false
	}
	args := w[1:]
	isHook := func(s string) bool {
		switch s {
		case kindPrompt, kindGate, kindPostTool, kindSessionStart:
			return true
		}
		return false
	}
	switch binName(w[0]) {
	case "mem-hook":
		if len(args) == 1 && isHook(args[0]) {
			return args[0], true
		}
	case "mem":
		switch {
		case len(args) == 2 && args[0] == "hook" && isHook(args[1]):
			return args[1], true
		case len(args) == 1 && args[0] == kindGate:
			return kindGate, true
		case args[0] == kindCapture:
			return kindCapture, true
		}
	}
	return "", false
}

// commandBinary finds the program a command line runs: $VAR and
// ${VAR} are expanded (CLAUDE_PROJECT_DIR as the work tree), a bare name is
// looked up in PATH.
func commandBinary(cmd, workTree string) string {
	w := shellFields(cmd)
	if len(w) == 0 {
		return ""
	}
	bin := os.Expand(w[0], func(k string) string {
		k, def, _ := strings.Cut(k, ":-")
		v := os.Getenv(k)
		if k == "CLAUDE_PROJECT_DIR" {
			v = workTree
		}
		if v == "" {
			return def
		}
		return v
	})
	return onPath(bin)
}

// onPath resolves a bare command name the way a shell would.
func onPath(bin string) string {
	if bin != "" && !strings.ContainsRune(bin, '/') {
		if p, err := exec.LookPath(bin); err == nil {
			return p
		}
	}
	return bin
}

// executable reports whether path is a regular file someone may execute.
func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
