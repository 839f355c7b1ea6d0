package sessions

import (
	"path"
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/internal/shell"
)

// Command is one simple shell command of a Bash tool call, normalized so
// that "the same command" can be counted across sessions.
type Command struct {
	// Head is the program and its subcommand words: "go test", "git
	// commit", "npm run build", "python -m pytest". It is what procedures
	// are counted by.
	Head string `json:"head"`
	// Norm is the whole command in normal form: the head, then every flag
	// as written and every other argument replaced by its placeholder, as
	// in "go test <path> -run <arg>".
	Norm string `json:"norm"`
}

// Placeholders used by [Normalize] for arguments.
const (
	PlaceString = "<str>"  // a quoted string
	PlaceSubst  = "<sub>"  // a command substitution, $(...) or `...`
	PlaceVar    = "<var>"  // a variable reference, $X or ${X}
	PlaceURL    = "<url>"  // scheme://...
	PlaceNumber = "<n>"    // 42, 3.5, 30s, 8080
	PlaceHash   = "<hash>" // a hex object name or a UUID
	PlacePath   = "<path>" // contains '/', starts with '.' or '~', has a file extension or a glob
	PlaceArg    = "<arg>"  // any other word after the head
)

// Normalize splits a shell command line into its simple commands and
// normalizes each. The rule, applied in this order:
//
//  1. Split on the control operators ; & && || | |& and newlines, and on
//     subshell parentheses; quotes, $(...) and `...` are respected, comments
//     dropped, heredoc bodies skipped, and redirections (> f, 2>&1, < f,
//     <<< s) dropped with their targets.
//  2. In each simple command drop leading VAR=value assignments and the
//     wrappers sudo, time, nohup, command, exec, env (with its options and
//     assignments), nice, timeout (with its duration); drop shell keywords
//     (if, then, do, else, !, ...). A command that is then empty, a cd,
//     pushd, popd, or a for/case header is dropped entirely.
//  3. The program is its base name (./scripts/build.sh → build.sh).
//  4. The head is the program and its subcommand word (a lower-case word:
//     no '/', '.', '=' or leading '-'), plus a second one when the first
//     is a command group such as run, tool, pr or submodule (see groups);
//     mix and rake tasks may be dotted ("mix ecto.migrate");
//     simple utilities such as cat, ls, grep or echo have no subcommand
//     (see simplePrograms); git's
//     -C DIR and -c K=V before the subcommand are skipped, and python's
//     -m MODULE counts as a subcommand.
//  5. After the head, a flag is kept as written ("-run", "--verbose"), with
//     a number flag becoming -<n> ("tail -20") and the value of --flag=value
//     replaced by its placeholder; every other argument becomes one of the
//     placeholders above, and a run of the same placeholder collapses to
//     one ("git add a.go b.go" is "git add <path>").
//
// So `go test ./foo/... -run X` is "go test <path> -run <arg>" and
// `go test ./bar/...` is "go test <path>": the same head, different norms.
// Counting by head answers "have we run the tests before"; counting by norm
// answers "have we run them this way".
func Normalize(line string) []Command {
	var out []Command
	for _, seg := range shell.Split(line) {
		if c, ok := normalizeSimple(seg); ok {
			out = append(out, c)
		}
	}
	return out
}

var (
	assignment = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*=`)
	subcommand = lazyregexp.New(`^[a-z][a-z0-9_:-]*$`)
	dottedTask = lazyregexp.New(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$`)
	numberLike = lazyregexp.New(`^[0-9]+([.:,][0-9]+)*(ms|s|m|h|d|k|K|M|G|%)?$`)
	hexLike    = lazyregexp.New(`^[0-9a-fA-F]{7,64}$`)
	uuidLike   = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	fileLike   = lazyregexp.New(`[A-Za-z0-9_-]\.[A-Za-z][A-Za-z0-9]{0,5}$`)
	urlLike    = lazyregexp.New(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)
)

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "time": true, "nohup": true, "command": true, "exec": true, "builtin": true, "env": true, "nice": true, "timeout": true}

// keywords are shell words that open or continue a compound command.
var keywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true, "!": true, "{": true}

// dropped are commands that carry no procedure of their own.
var dropped = map[string]bool{"cd": true, "pushd": true, "popd": true, "for": true, "case": true, "fi": true, "done": true, "esac": true, "}": true, "in": true, ";;": true}

// groups are subcommands that take a subcommand of their own: "npm run
// build", "uv tool install", "gh pr view", "git submodule add". After any
// other subcommand the next word is an argument ("bd show spotter-gqc" is
// "bd show <arg>").
var groups = map[string]bool{
	"run": true, "exec": true, "x": true, "tool": true, "pr": true, "issue": true, "repo": true, "release": true,
	"workflow": true, "compose": true, "submodule": true, "remote": true, "stash": true, "worktree": true,
	"dep": true, "cache": true, "workspace": true, "config": true, "bisect": true, "notes": true, "container": true,
	"image": true, "volume": true, "network": true, "system": true, "mod": true, "-m": true,
}

// taskRunners name their tasks with dots: "mix ecto.migrate", "rake db.seed".
var taskRunners = map[string]bool{"mix": true, "rake": true}

// simplePrograms take no subcommand: their head is the program alone.
var simplePrograms = map[string]bool{
	"echo": true, "printf": true, "cat": true, "ls": true, "ll": true, "head": true, "tail": true, "grep": true,
	"egrep": true, "fgrep": true, "rg": true, "ag": true, "find": true, "fd": true, "wc": true, "sed": true,
	"awk": true, "sort": true, "uniq": true, "cut": true, "tr": true, "xargs": true, "tee": true, "diff": true,
	"mkdir": true, "rmdir": true, "rm": true, "cp": true, "mv": true, "touch": true, "chmod": true, "chown": true,
	"ln": true, "sleep": true, "which": true, "type": true, "pwd": true, "test": true, "[": true, "true": true,
	"false": true, "file": true, "stat": true, "du": true, "df": true, "open": true, "less": true, "more": true,
	"kill": true, "pkill": true, "ps": true, "curl": true, "wget": true, "jq": true, "tree": true,
	"basename": true, "dirname": true, "realpath": true, "source": true, ".": true, "export": true, "set": true,
	"unset": true, "date": true, "read": true, "exit": true, "return": true, "wait": true, "lsof": true,
}

func normalizeSimple(ws []shell.Word) (Command, bool) {
	// Strip assignments, wrappers and keywords in front.
	for len(ws) > 0 {
		t := ws[0].Text
		switch {
		case !ws[0].Quoted && assignment.MatchString(t):
			ws = ws[1:]
		case keywords[t]:
			ws = ws[1:]
		case wrappers[t]:
			ws = ws[1:]
			// Options of the wrapper, and timeout's duration / nice's -n N.
			for len(ws) > 0 && (strings.HasPrefix(ws[0].Text, "-") || assignment.MatchString(ws[0].Text) ||
				t == "timeout" && numberLike.MatchString(ws[0].Text)) {
				opt := ws[0].Text
				ws = ws[1:]
				if t == "nice" && opt == "-n" && len(ws) > 0 {
					ws = ws[1:]
				}
			}
		default:
			goto program
		}
	}
program:
	if len(ws) == 0 || dropped[ws[0].Text] || ws[0].Text == "" {
		return Command{}, false
	}
	prog := ws[0].Text
	if ws[0].Subst || ws[0].Var {
		prog = PlaceSubst
		if ws[0].Var && !ws[0].Subst {
			prog = PlaceVar
		}
	} else if strings.Contains(prog, "/") {
		prog = path.Base(strings.TrimRight(prog, "/"))
	}
	head := []string{prog}
	args := ws[1:]
	if !simplePrograms[prog] {
		for len(head) < 3 && len(args) > 0 {
			a := args[0]
			switch {
			case prog == "git" && len(head) == 1 && (a.Text == "-C" || a.Text == "-c") && len(args) > 1:
				args = args[2:]
				continue
			case strings.HasPrefix(prog, "python") && len(head) == 1 && a.Text == "-m" && len(args) > 1:
				head = append(head, "-m", args[1].Text)
				args = args[2:]
				continue
			}
			if a.Quoted || a.Subst || a.Var || !subcommand.MatchString(a.Text) && !(taskRunners[prog] && len(head) == 1 && dottedTask.MatchString(a.Text)) {
				break
			}
			if len(head) == 2 && !groups[head[1]] {
				break
			}
			head = append(head, a.Text)
			args = args[1:]
		}
	}
	norm := append([]string(nil), head...)
	for _, a := range args {
		p := classify(a)
		if p == norm[len(norm)-1] && strings.HasPrefix(p, "<") {
			continue // a run of one placeholder is one
		}
		norm = append(norm, p)
	}
	return Command{Head: strings.Join(head, " "), Norm: strings.Join(norm, " ")}, true
}

// classify returns an argument's normal form: a flag, or a placeholder.
func classify(a shell.Word) string {
	t := a.Text
	switch {
	case a.Quoted:
		return PlaceString
	case a.Subst:
		return PlaceSubst
	case strings.HasPrefix(t, "-") && strings.Contains(t, "/") && !strings.Contains(t, "="):
		return PlacePath // an anonymised path such as -experiments/x, not a flag
	case strings.HasPrefix(t, "-") && len(t) > 1:
		if strings.Trim(t[1:], "0123456789") == "" {
			return "-" + PlaceNumber
		}
		if name, val, ok := strings.Cut(t, "="); ok {
			return name + "=" + classify(shell.Word{Text: val, Var: a.Var})
		}
		return t
	case a.Var:
		return PlaceVar
	}
	return placeholder(t)
}

func placeholder(t string) string {
	switch {
	case urlLike.MatchString(t):
		return PlaceURL
	case numberLike.MatchString(t):
		return PlaceNumber
	case uuidLike.MatchString(t) || hexLike.MatchString(t) && strings.ContainsAny(t, "0123456789") && strings.ContainsAny(t, "abcdefABCDEF"):
		return PlaceHash
	case strings.ContainsAny(t, "/*?") || strings.HasPrefix(t, ".") || strings.HasPrefix(t, "~") || fileLike.MatchString(t):
		return PlacePath
	}
	return PlaceArg
}

// IsUtility reports whether a command head is a simple utility (cat, ls,
// grep, echo, rm, ...): a step of every kind of work, never a procedure of
// its own.
func IsUtility(head string) bool {
	return simplePrograms[head]
}
