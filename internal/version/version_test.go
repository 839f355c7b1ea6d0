package version

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	if got := String(); got == "" || !strings.HasPrefix(got, "devel") && !strings.HasPrefix(got, "v") {
		t.Errorf("String() = %q, want devel… or a module version", got)
	}
	defer func(s string) { Set = s }(Set)
	Set = "v1.2.3"
	if got := String(); got != "v1.2.3" {
		t.Errorf("String() with Set = %q", got)
	}
}
