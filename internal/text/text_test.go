package text

import "testing"

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  two\n\tlines  \n", "two lines"},
		{"bell\x07 and \x00nul", "bell and nul"},
		{"bad \xff byte and \uFFFD", "bad byte and"},
		{"émoji 🦀 stays", "émoji 🦀 stays"},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer line", 8, "a longer…"},
		{"café au lait", 4, "caf…"}, // never splits é
		{"🦀🦀", 3, "…"},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
