// Package version says which mem this is, for `mem --version`,
// `mem-hook --version` and the MCP server's handshake: the version set at
// build time (-ldflags "-X github.com/mem-dev/mem/internal/version.Set=v1.2.3"),
// else the module version `go install …@v1.2.3` records, else "devel" with
// the commit the binary was built from when the build recorded it.
package version

import "runtime/debug"

// Set is the version given at build time, if any.
var Set string

// String returns the version.
func String() string {
	if Set != "" {
		return Set
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += ", modified"
	}
	return "devel (" + rev + ")"
}
