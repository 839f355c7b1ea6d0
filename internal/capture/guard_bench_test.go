package capture

import (
	"fmt"
	"testing"
)

// BenchmarkGuardLongSession: the guard of a long session, whose dropped
// statements are each compared with every other line.
func BenchmarkGuardLongSession(b *testing.B) {
	s := &Session{}
	for n := 1; n <= 3000; n++ {
		role := RoleAssistant
		if n%2 == 1 {
			role = RoleUser
		}
		// Each line its own words, as in a real session, where what a
		// dropped statement said is seldom said again.
		text := fmt.Sprintf("The cause is w%da in m%db.go: it drops f%dc, so s%dd reads g%de. I fixed h%df.", n, n, n, n, n, n)
		s.Lines = append(s.Lines, Line{N: n, Role: role, Text: text})
		if role == RoleAssistant && n%50 == 0 {
			s.Arcs = append(s.Arcs, Arc{Kind: Overturned, Line: n, By: n + 1, How: "the developer rejected it"})
		}
	}
	for b.Loop() {
		newGuard(s)
	}
}
