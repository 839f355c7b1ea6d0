// Package background says when mem may start work of its own beside the
// user's (a detached enrich, the daily sweep, alias learning, a capture)
// and starts it in a session of its own, so that it outlives the command or
// hook that started it. It links only the standard library: the hooks on
// the prompt path start work through it.
package background

import (
	"os"
	"syscall"
)

// Env turns mem's detached passes off when set to 0, off or false: no
// enrichment after a write, no daily sweep from SessionStart, no alias
// learning from the Stop hook. Passes run by hand still run.
const Env = "MEM_BACKGROUND"

// ModelCallEnv is set to "1" in the environment of every model command
// (package modelcmd), so that mem's own hooks, fired by the model process
// itself (a nested claude session), can recognise it and do nothing.
const ModelCallEnv = "MEM_MODEL_CALL"

// InModelCall reports whether this process runs inside one of mem's own
// model calls.
func InModelCall() bool { return os.Getenv(ModelCallEnv) != "" }

// Off reports whether detached passes must not start: turned off by Env,
// or inside one of mem's own model calls (a nested session must not start
// passes of its own).
func Off() bool {
	switch os.Getenv(Env) {
	case "0", "off", "false":
		return true
	}
	return InModelCall()
}

// Detached is the SysProcAttr of a child that must outlive its parent.
func Detached() *syscall.SysProcAttr { return detached() }
