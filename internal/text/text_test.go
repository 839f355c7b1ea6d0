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

func TestClipClauses(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		// The cut keeps whole clauses: the negation of the last one is
		// dropped with it, never left behind as "is n…".
		{"check the refunds first, they must be counted; float summing in totals() is not the cause", 60, "check the refunds first, they must be counted…"},
		{"One sentence ends here. The next one is long enough to be cut off", 40, "One sentence ends here…"},
		// A sentence end beats a later clause end.
		{"Retry the job. It fails once, then passes, then fails again", 52, "Retry the job. It fails once, then passes…"},
		// A sentence that ends too early to say much: words.
		{"Retry the job. It fails once then passes then fails again and again", 40, "Retry the job. It fails once then…"},
		// No boundary in the second half of the room: words.
		{"a, then one long run of words with no other break at all", 30, "a, then one long run of…"},
		{"café crème, brûlée et glace à la vanille", 20, "café crème…"},
	}
	for _, tt := range tests {
		got := ClipClauses(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("ClipClauses(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if len(got) > max(tt.n, len("…")) {
			t.Errorf("ClipClauses(%q, %d) is %d bytes", tt.in, tt.n, len(got))
		}
	}
}

func TestControlAndPrintable(t *testing.T) {
	tests := []struct {
		in        string
		multiline bool
		bad       string
		shown     string
	}{
		{"plain name", false, "", "plain name"},
		{"tab\tok, ünïcode ok", false, "", "tab\tok, ünïcode ok"},
		{"red \x1b[31mtext\x1b[0m", false, "\x1b", `red \x1b[31mtext\x1b[0m`},
		{"title \x1b]0;pwned\x07", false, "\x1b", `title \x1b]0;pwned\a`},
		{"two\nlines", false, "\n", `two\nlines`},
		{"two\nlines\r\nok", true, "", "two\nlines\r\nok"},
		{"over\rwrite", true, "\r", `over\rwrite`},
		{"c1 \u009b2J", false, "\u009b", `c1 \u009b2J`},
		{"bidi \u202egnp.exe", false, "\u202e", `bidi \u202egnp.exe`},
		{"bad \xff byte", false, "\xff", `bad \xff byte`},
		{"del \x7f", false, "\x7f", `del \x7f`},
	}
	for _, tt := range tests {
		bad, found := Control(tt.in, tt.multiline)
		if bad != tt.bad || found != (tt.bad != "") {
			t.Errorf("Control(%q) = %q, %v; want %q", tt.in, bad, found, tt.bad)
		}
		if got := Printable(tt.in, tt.multiline); got != tt.shown {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.shown)
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int]string{512: "512 bytes", 64 << 10: "64 KB", 10 << 20: "10.0 MB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
