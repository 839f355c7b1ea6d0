package main

// helpCmd is `mem help [COMMAND...]`: the same help as --help, for people
// who type help first.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to explain (e.g. store, or hook prompt)."`
}

func (c helpCmd) Run(e *env) error {
	// Parse again with --help: kong prints the help of what it names, or
	// says which command it does not know.
	return exitError(run(append(c.Command, "--help"), e.stdin, e.stdout, e.stderr))
}
