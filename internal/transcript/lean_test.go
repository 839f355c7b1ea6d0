package transcript

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeanImports keeps the package on the hook path lean: it runs inside
// Claude Code hooks, where every linked package's init costs start-up time,
// so it imports the standard library only (and mem's poller-free file opener
// and JSON scanner, which import only the standard library themselves).
func TestLeanImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch p {
		case "github.com/mem-dev/mem/internal/transcript", "github.com/mem-dev/mem/internal/rawfile", "github.com/mem-dev/mem/internal/jsonscan":
		default:
			t.Errorf("transcript depends on %s; only the standard library, internal/rawfile and internal/jsonscan are allowed", p)
		}
	}
}
