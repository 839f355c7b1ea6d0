package sessions

import (
	"reflect"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		line  string
		heads []string
		norms []string
	}{
		{"go test ./foo/... -run X", []string{"go test"}, []string{"go test <path> -run <arg>"}},
		{"go test ./bar/...", []string{"go test"}, []string{"go test <path>"}},
		{"CGO_ENABLED=0 GOOS=linux go build -o bin/mem ./cmd/mem", []string{"go build"}, []string{"go build -o <path>"}},
		{"cd /repo && npm run build 2>&1 | tail -20", []string{"npm run build", "tail"}, []string{"npm run build", "tail -<n>"}},
		{"git   add a.go b.go\tc.go", []string{"git add"}, []string{"git add <path>"}},
		{"git commit -m \"$(cat <<'EOF'\nfix: things; and more | stuff\nEOF\n)\"", []string{"git commit"}, []string{"git commit -m <str>"}},
		{"cat > notes.txt <<EOF\nrm -rf /\nEOF\ngit status", []string{"cat", "git status"}, []string{"cat", "git status"}},
		{"git -C /tmp/x log --oneline -5 abc1234def", []string{"git log"}, []string{"git log --oneline -<n> <hash>"}},
		{"sudo timeout 30s env FOO=1 make test", []string{"make test"}, []string{"make test"}},
		{"uv run pytest tests/test_x.py -x  # quick", []string{"uv run pytest"}, []string{"uv run pytest <path> -x"}},
		{"python3 -m pytest -q", []string{"python3 -m pytest"}, []string{"python3 -m pytest -q"}},
		{"bd show spotter-gqc", []string{"bd show"}, []string{"bd show <arg>"}},
		{"mix ecto.migrate && mix test test/foo_test.exs:42", []string{"mix ecto.migrate", "mix test"}, []string{"mix ecto.migrate", "mix test <path>"}},
		{"curl -s https://example.com/x?y=1 --max-time=5", []string{"curl"}, []string{"curl -s <url> --max-time=<n>"}},
		{"ls -experiments/worktrees/x -la", []string{"ls"}, []string{"ls <path> -la"}},
		{"echo $HOME; (cd sub && make)", []string{"echo", "make"}, []string{"echo <var>", "make"}},
		{"if [ -f x ]; then ./scripts/build.sh --fast; fi", []string{"[", "build.sh"}, []string{"[ -f <arg>", "build.sh --fast"}},
		{"git checkout 3f2a9c1e-1b2c-4d5e-8f90-123456789abc", []string{"git checkout"}, []string{"git checkout <hash>"}},
		{"docker compose up -d > /dev/null 2>&1 &", []string{"docker compose up"}, []string{"docker compose up -d"}},
		{"cd foo", nil, nil},
		{"", nil, nil},
	}
	for _, tt := range tests {
		got := Normalize(tt.line)
		var heads, norms []string
		for _, c := range got {
			heads = append(heads, c.Head)
			norms = append(norms, c.Norm)
		}
		if !reflect.DeepEqual(heads, tt.heads) || !reflect.DeepEqual(norms, tt.norms) {
			t.Errorf("Normalize(%q)\n got heads %q norms %q\nwant heads %q norms %q", tt.line, heads, norms, tt.heads, tt.norms)
		}
	}
}

// FuzzNormalize feeds the lexer arbitrary command lines: it must not
// panic, and every command it returns has a head that starts its norm.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"go test ./...", "git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"", "a 'b", `c "d`, "e $(f", "g `h", "i <<", "j >", "k \\", "((", "2>&1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, c := range Normalize(line) {
			if c.Head == "" || len(c.Norm) < len(c.Head) || c.Norm[:len(c.Head)] != c.Head {
				t.Fatalf("Normalize(%q): bad command %+v", line, c)
			}
		}
	})
}
