package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestStartCommands: each command run without kong (startCommands) is the
// one kong would pick for the same arguments, with nothing set, global
// flags included; so a flag with a default added to it later shows here.
func TestStartCommands(t *testing.T) {
	for key, cmd := range startCommands {
		args := strings.Split(key, "\x00")
		var c cli
		p, err := newParser(&c, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if got, want := kctx.Command(), strings.Join(args, " "); got != want {
			t.Errorf("%q: kong runs %q, want %q", args, got, want)
		}
		target := kctx.Selected().Target
		if target.Type() != reflect.TypeOf(cmd) || !target.IsZero() {
			t.Errorf("%q: kong fills %s %+v, startCommands runs %T %+v", args, target.Type(), target.Interface(), cmd, cmd)
		}
		if c.C != "" || c.Store != "" {
			t.Errorf("%q: kong sets global flags: -C %q --store %q", args, c.C, c.Store)
		}
	}
}
