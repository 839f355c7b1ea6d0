package main

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// parsed is what kong made of a command line: its output, how it ended,
// the command it chose and the flags it set.
type parsed struct {
	out, err, command, target string
	code                      int
	globals                   globalFlags
}

func parseWith(build func(args []string, stdout, stderr io.Writer) (*kong.Kong, func() globalFlags, error), args []string) (p parsed) {
	var out, errs bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			code, ok := r.(exitError)
			if !ok {
				panic(r)
			}
			p.code = int(code)
		}
		p.out, p.err = out.String(), errs.String()
	}()
	k, globals, err := build(args, &out, &errs)
	if err != nil {
		p.err = err.Error()
		return p
	}
	kctx, err := k.Parse(joinNegative(args))
	if err != nil {
		p.err = "parse: " + err.Error()
		return p
	}
	p.command, p.globals = kctx.Command(), globals()
	if sel := kctx.Selected(); sel != nil {
		p.target = fmt.Sprintf("%T %+v", sel.Target.Interface(), sel.Target.Interface())
	}
	return p
}

// wholeTree is parserFor as it was: kong's model of every command.
func wholeTree(_ []string, stdout, stderr io.Writer) (*kong.Kong, func() globalFlags, error) {
	var c cli
	k, err := newParser(&c, stdout, stderr)
	return k, func() globalFlags { return globalFlags{C: c.C, Store: c.Store} }, err
}

// TestParserForMatchesTheTree: for every command, kong's model of that
// command alone reads a command line as the whole tree's does: the same
// help, the same errors, the same command with the same flags.
func TestParserForMatchesTheTree(t *testing.T) {
	var names []string
	ct := reflect.TypeOf(cli{})
	for i := range ct.NumField() {
		f := ct.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); ok {
			n := f.Tag.Get("name")
			if n == "" {
				n = strings.ToLower(f.Name)
			}
			if _, ok := commandField(n); !ok {
				t.Errorf("commandField does not find %q", n)
			}
			names = append(names, n)
		}
	}
	for _, n := range names {
		for _, args := range [][]string{
			{n}, {n, "--help"}, {n, "--no-such-flag"}, {n, "x", "y", "z"},
			{"-C", "/tmp/somewhere", n}, {"--store=notes", n, "--help"}, {"-C/tmp", "--store", "s", n},
			{n, "--json"}, {n, "-h"},
		} {
			got, want := parseWith(parserFor, args), parseWith(wholeTree, args)
			if got != want {
				t.Errorf("%q:\n one command: %+v\n whole tree:  %+v", args, got, want)
			}
		}
	}
	// What names no command takes the whole tree.
	for _, args := range [][]string{{"--help"}, {"--version"}, {"nosuch"}, {"-C", "d", "--help"}, {"--bogus", "list"}} {
		if got, want := parseWith(parserFor, args), parseWith(wholeTree, args); got != want {
			t.Errorf("%q:\n parserFor:  %+v\n whole tree: %+v", args, got, want)
		}
	}
}
