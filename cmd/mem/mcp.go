package main

import (
	"github.com/mem-dev/mem/internal/mcpserver"
	"github.com/mem-dev/mem/internal/version"
)

type mcpCmd struct{}

// Run serves MCP over stdin/stdout until the client hangs up; stdout
// carries only the protocol.
func (mcpCmd) Run(e *env) error {
	longLived()
	r, err := e.open()
	if err != nil {
		return err
	}
	return mcpserver.Serve(e.ctx, r, version.String(), e.stdin, e.stdout)
}
