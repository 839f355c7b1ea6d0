package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/mcpserver/mcptool"
	"github.com/mem-dev/mem/internal/profile"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/internal/version"
)

// cli is the command tree: one struct and one file per command.
type cli struct {
	Store   string           `help:"Store directory (default: .claude/agent-memory in the work tree, or $MEM_STORE)." placeholder:"DIR"`
	C       string           `name:"directory" short:"C" help:"Run as if started in DIR." placeholder:"DIR"`
	Version kong.VersionFlag `help:"Print mem's version and exit."`

	Help       helpCmd    `cmd:"" help:"Show what mem can do, how to use one command (mem help store), or what a model command must do (mem help model)."`
	VersionCmd versionCmd `cmd:"" name:"version" help:"Print mem's version (as mem --version does)."`

	StoreCmd storeCmd   `cmd:"" group:"memories" name:"store" help:"Write a memory and commit it; prints the slug."`
	Show     showCmd    `cmd:"" group:"memories" help:"Print one memory."`
	List     listCmd    `cmd:"" group:"memories" help:"List memories."`
	Search   searchCmd  `cmd:"" group:"memories" help:"Search memories as the prompt hook would; prints nothing when nothing is relevant."`
	Edit     editCmd    `cmd:"" group:"memories" help:"Edit a memory in $EDITOR and commit the result (checked as a new memory is)."`
	Forget   forgetCmd  `cmd:"" group:"memories" help:"Mark a memory forgotten (the file stays; undo with mem undo)."`
	Budget   budgetCmd  `cmd:"" group:"memories" help:"Check MEMORY.md against Claude Code's 200-line / 25,000-byte load limit."`
	Profile  profileCmd `cmd:"" group:"memories" help:"The always-on profile (who the user is, how they like to work): show, add, rm."`

	Log  logCmd  `cmd:"" group:"history" help:"Show mem's commits: the audit trail."`
	Undo undoCmd `cmd:"" group:"history" help:"Revert one mem commit."`

	Capture captureCmd `cmd:"" group:"passes" help:"Propose memories from a session transcript (what was decided or learned, and why) and store the new ones."`
	Enrich  enrichCmd  `cmd:"" group:"passes" help:"Write aliases: the words a person would type when they need a memory."`
	Curate  curateCmd  `cmd:"" group:"passes" help:"Find duplicates and dead paths; supersede (never delete) under strict guards; queue the rest for review."`
	Review  reviewCmd  `cmd:"" group:"passes" help:"The curation review queue: list, accept, reject."`
	Verify  verifyCmd  `cmd:"" group:"passes" help:"Probe the memories' claims (paths, branches, merged PRs, URLs, commits); label failures unverified."`
	Sweep   sweepCmd   `cmd:"" group:"passes" help:"The daily upkeep, by hand: enrich what lacks aliases or has stale ones, curate, verify."`
	Learn   learnCmd   `cmd:"" group:"passes" help:"Learn aliases from a session: the words of prompts the hook kept quiet on, before the agent found a memory itself."`
	Skills  skillsCmd  `cmd:"" group:"passes" help:"Inert skill drafts from procedures that recur across sessions; a person promotes or rejects them."`

	Init      initCmd      `cmd:"" group:"setup" help:"Create the store (and a git repository if none), print what was made."`
	Install   installCmd   `cmd:"" group:"setup" help:"Wire mem into Claude Code and other agents: hooks, pre-commit, MCP config, the memory rule."`
	Uninstall uninstallCmd `cmd:"" group:"setup" help:"Remove exactly what mem install added."`

	Hook hookCmd `cmd:"" group:"hooks" help:"Claude Code hook handlers (prefer the lean mem-hook binary)."`
	Gate gateCmd `cmd:"" group:"hooks" help:"Claude Code Stop hook: block when files were edited and nothing was stored."`
	MCP  mcpCmd  `cmd:"" group:"hooks" name:"mcp" help:"Serve ${mcp_tools} over MCP on stdio."`

	Doctor      doctorCmd      `cmd:"" group:"diagnostics" help:"Check the setup; one line per problem and how to fix it."`
	Index       indexCmd       `cmd:"" group:"diagnostics" help:"Build or refresh the search index cache."`
	Eval        evalCmd        `cmd:"" group:"diagnostics" help:"Measure retrieval on a battery of prompts."`
	Injections  injectionsCmd  `cmd:"" group:"diagnostics" help:"Show what the prompt hook injected, or kept quiet about, for the last prompts."`
	Serve       serveCmd       `cmd:"" group:"diagnostics" help:"Serve a local page on the store: memories, review queue, audit trail with undo, budget, injections, health."`
	Transcripts transcriptsCmd `cmd:"" group:"diagnostics" help:"The index of past Claude Code sessions: prompts, tool calls, shell commands, failures."`

	Precommit precommitCmd `cmd:"" hidden:"" help:"The git pre-commit check."`
}

// env is what every command gets: where it runs and where it writes.
type env struct {
	command string // as the user typed it, without arguments: "store", "hook edits"
	ctx     context.Context
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	dir     string
	store   string
}

// open finds and opens the store. Its writes start the detached
// enrichment of what they leave without aliases (enrichAfterWrite).
func (e *env) open() (*mem.Repo, error) {
	r, err := mem.Open(e.dir, e.store)
	if err != nil {
		return nil, err
	}
	r.AfterWrite = enrichAfterWrite(r, e.command)
	r.Waiting = func(msg string) { fmt.Fprintf(e.stderr, "mem: %s\n", msg) }
	return r, nil
}

// userError is an error with a hint for the person at the terminal.
type userError struct {
	err  error
	hint string
}

func (u userError) Error() string { return u.err.Error() }
func (u userError) Unwrap() error { return u.err }

func withHint(err error, hint string) error { return userError{err, hint} }

// exitError carries an exit code without printing anything more.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// kong exits after --help and usage errors; turn that into a return.
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(exitError)
			if !ok {
				panic(r)
			}
			code = int(e)
		}
	}()
	if cmd, ok := startCommands[strings.Join(args, "\x00")]; ok {
		return execute(strings.Join(args, " "), cmd.Run, "", "", stdin, stdout, stderr)
	}
	if len(args) == 0 {
		args = []string{"--help"} // a bare `mem` shows what it can do
	}
	if name := firstCommand(args); name != "" {
		if _, ok := commandField(name); !ok {
			fmt.Fprintf(stderr, "mem: error: %s\nmem: hint: `mem help` lists the commands\n", unknownCommand(name))
			return 2
		}
	}
	parser, globals, err := parserFor(args, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mem: error: %v\n", err)
		return 2
	}
	kctx, err := parser.Parse(joinNegative(args))
	if err != nil {
		fmt.Fprintf(stderr, "mem: error: %v\n", err)
		var pe *kong.ParseError
		if errors.As(err, &pe) && pe.Context != nil {
			if n := pe.Context.Selected(); n != nil {
				fmt.Fprintf(stderr, "mem: hint: %s\n", usage(n))
			}
		}
		return 2
	}
	if kctx.Empty() {
		return 0
	}
	g := globals()
	return execute(kctx.Command(), func(e *env) error { return kctx.Run(e) }, g.C, g.Store, stdin, stdout, stderr)
}

// globalFlags are the flags of every command, as the command line set them.
type globalFlags struct{ C, Store string }

// parserFor is kong's model of the command line for args: of the global
// flags and the one command args name, when they name one after any global
// flags; else of the whole tree (--help, --version, a word that is no
// command). Building the whole tree's model costs about 3 ms and 13,000
// allocations, on every run of mem; one command's is a fraction of it, and
// kong parses, checks and explains a command the same in either (held by
// TestParserForMatchesTheTree). The globals are read once kong has parsed.
func parserFor(args []string, stdout, stderr io.Writer) (*kong.Kong, func() globalFlags, error) {
	if f, ok := commandField(firstCommand(args)); ok {
		t := reflect.TypeOf(cli{})
		var fields []reflect.StructField
		for _, name := range []string{"Store", "C", "Version"} {
			g, _ := t.FieldByName(name)
			fields = append(fields, g)
		}
		v := reflect.New(reflect.StructOf(append(fields, f)))
		k, err := newParser(v.Interface(), stdout, stderr)
		return k, func() globalFlags {
			return globalFlags{C: v.Elem().FieldByName("C").String(), Store: v.Elem().FieldByName("Store").String()}
		}, err
	}
	var c cli
	k, err := newParser(&c, stdout, stderr)
	return k, func() globalFlags { return globalFlags{C: c.C, Store: c.Store} }, err
}

// firstCommand is the word of args that names a command: the first that is
// no global flag or its value; "" when a flag of another kind comes first.
func firstCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--directory" || a == "--store":
			i++
		case strings.HasPrefix(a, "--directory=") || strings.HasPrefix(a, "--store=") || strings.HasPrefix(a, "-C"):
		case strings.HasPrefix(a, "-"):
			return ""
		default:
			return a
		}
	}
	return ""
}

// unknownCommand says that name is no command of mem's, and which it may
// have been meant as.
func unknownCommand(name string) string {
	var names []string
	t := reflect.TypeOf(cli{})
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); ok && f.Tag.Get("hidden") == "" {
			names = append(names, cmp.Or(f.Tag.Get("name"), strings.ToLower(f.Name)))
		}
	}
	if near := text.Nearest(name, names, 3); len(near) > 0 {
		return fmt.Sprintf("mem has no command %q; did you mean %s?", name, strings.Join(near, ", "))
	}
	return fmt.Sprintf("mem has no command %q", name)
}

// usage is how to run the command n, as a hint after a command line kong
// could not read: its synopsis, and what each argument it needs is.
func usage(n *kong.Node) string {
	u := "usage: mem " + n.Summary()
	for _, p := range n.Positional {
		if p.Required && !p.Set && p.Help != "" {
			u += fmt.Sprintf(", where %s is %s", p.Summary(), strings.TrimSuffix(strings.ToLower(p.Help[:1])+p.Help[1:], "."))
		}
	}
	return u
}

// versionLine is what mem --version and mem version print.
func versionLine() string { return "mem " + version.String() }

// versionCmd is `mem version`, for people who type it as a command.
type versionCmd struct{}

func (versionCmd) Run(e *env) error {
	_, err := fmt.Fprintln(e.stdout, versionLine())
	return err
}

// commandField is the field of cli that holds the command named name.
func commandField(name string) (reflect.StructField, bool) {
	t := reflect.TypeOf(cli{})
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok || name == "" {
			continue
		}
		if n := f.Tag.Get("name"); n == name || n == "" && strings.ToLower(f.Name) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// newParser is kong's model of the command line, filling c (a *cli, or
// parserFor's model of one command).
func newParser(c any, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(c,
		kong.Name("mem"),
		kong.Description("A git-native memory for AI coding agents."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitError(code)) }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.ExplicitGroups(commandGroups),
		kong.Vars{"profile_cap": strconv.Itoa(profile.DefaultCap), "version": versionLine(), "classes": class.List("or"), "default_class": class.Default,
			"mcp_tools": strings.Join(mcptool.All[:len(mcptool.All)-1], ", ") + " and " + mcptool.All[len(mcptool.All)-1]},
	)
}

// commandGroups are the headings mem help lists the commands under, in
// order; each command's group tag names its heading.
var commandGroups = []kong.Group{
	{Key: "memories", Title: "Memories:"},
	{Key: "history", Title: "History:"},
	{Key: "passes", Title: "Offline passes:"},
	{Key: "setup", Title: "Setup:"},
	{Key: "hooks", Title: "Agent hooks:"},
	{Key: "diagnostics", Title: "Diagnostics:"},
}

// startCommands are the commands agents start at every session, with the
// very arguments mem install writes: they run without building kong's
// model of the whole command line, a fifth of such a run (about 2 ms and
// 0.9 MB of a `mem mcp`'s or a SessionStart hook's start-up). Any other
// form of them (a flag, --help) takes kong's way; TestStartCommands holds
// that kong picks the same command, with nothing set.
var startCommands = map[string]interface{ Run(*env) error }{
	"mcp":                   mcpCmd{},
	"hook\x00session-start": hookSessionStartCmd{},
}

// execute runs one command as command (kong's name for it, "hook
// session-start") in dir (empty: the working directory) and turns what it
// returns into an exit code, printing the error and its hint.
func execute(command string, runCmd func(*env) error, dir, store string, stdin io.Reader, stdout, stderr io.Writer) int {
	// On Ctrl-C, a hang-up or a polite kill, writers stop where they are
	// and release the locks they hold (git's among them) rather than die.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if !speaksProtocol(command) {
		out, errs := &termSafe{w: stdout}, &termSafe{w: stderr}
		defer out.Flush()
		defer errs.Flush()
		stdout, stderr = out, errs
	}
	if readsClient[command] && isTerminal(stdin) {
		fmt.Fprintf(stderr, typeProgram+"\n", command)
	}
	var words []string // kong's command is "store <body>"
	for _, w := range strings.Fields(command) {
		if !strings.HasPrefix(w, "<") {
			words = append(words, w)
		}
	}
	e := &env{command: strings.Join(words, " "), ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, dir: dir, store: store}
	err := runCmd(e)
	if err == nil {
		return 0
	}
	var exit exitError
	if errors.As(err, &exit) {
		return int(exit)
	}
	fmt.Fprintf(stderr, "mem: error: %v\n", err)
	var u userError
	var se *secrets.Error
	switch {
	case errors.As(err, &u) && u.hint != "":
		fmt.Fprintf(stderr, "mem: hint: %s\n", u.hint)
	case errors.As(err, &se) && strings.Contains(se.Name, "/"):
		fmt.Fprintf(stderr, "mem: hint: remove the secret from %s (nothing was committed) and run the command again; keep secrets in a secret manager and store where they live\n", se.Name)
	}
	return 1
}

// joinNegative writes "--flag -3" as "--flag=-3" for the flags that take a
// number, so that a negative value reaches the command's own check ("out
// of range 1-10") instead of reading as an unknown short flag.
func joinNegative(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if numericFlags[a] && i+1 < len(args) && len(args[i+1]) > 1 && args[i+1][0] == '-' && '0' <= args[i+1][1] && args[i+1][1] <= '9' {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// numericFlags are the flags whose value is a number.
var numericFlags = map[string]bool{"--importance": true, "--limit": true, "--max": true, "--cap": true}

// speaksProtocol reports whether a command's output is read by a program
// and must be passed on byte for byte (its JSON escapes what it carries):
// the MCP server and the hooks.
func speaksProtocol(command string) bool {
	first, _, _ := strings.Cut(command, " ")
	return first == "mcp" || first == "hook" || first == "gate"
}

// shown makes a path relative to the working directory when it is below it.
func (e *env) shown(path string) string {
	if locate.Within(e.dir, path) {
		if rel, err := filepath.Rel(e.dir, path); err == nil {
			return rel
		}
	}
	return path
}

// printJSON prints v indented, for --json.
func printJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// nonNil returns v, or an empty slice for nil, so that JSON prints [] and
// not null.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
