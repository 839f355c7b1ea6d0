package main

import "github.com/mem-dev/mem/internal/mcpserver"

// version is set at build time with -ldflags "-X main.version=…".
var version = "devel"

type mcpCmd struct{}

// Run serves MCP over stdin/stdout until the client hangs up; stdout
// carries only the protocol.
func (mcpCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	return mcpserver.Serve(e.ctx, r, version, e.stdin, e.stdout)
}
