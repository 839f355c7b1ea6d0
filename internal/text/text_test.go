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

func TestClipWords(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"cut at the last word that fits", 20, "cut at the last…"},
		{"averyveryverylongword and more", 12, "averyvery…"}, // no blank in reach
		{"café crème brûlée", 9, "café…"},
		{"two  spaces here", 10, "two…"},
	}
	for _, tt := range tests {
		got := ClipWords(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("ClipWords(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if len(got) > max(tt.n, len("…")) {
			t.Errorf("ClipWords(%q, %d) is %d bytes", tt.in, tt.n, len(got))
		}
	}
}
