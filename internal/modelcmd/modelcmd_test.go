package modelcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/background"
)

// The fake model is this test binary itself: run as
// "<test binary> fake-model MODE [COUNTFILE]" it behaves as a model command
// would, so every test crosses the real process boundary (argv, stdin,
// stdout, stderr, exit status, kill on timeout).
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == "fake-model" {
		os.Exit(fakeModel(os.Args[2], os.Args[3:]))
	}
	os.Exit(m.Run())
}

const answer = `{"relation":"duplicate","confidence":0.9}`

func envelopeOf(result string, isError bool) string {
	b, _ := json.Marshal(map[string]any{
		"type": "result", "subtype": "success", "is_error": isError,
		"duration_ms": 2811, "num_turns": 1, "session_id": "0f1e", "total_cost_usd": 0.0123,
		"result": result,
	})
	return string(b)
}

func fakeModel(mode string, args []string) int {
	stdin, _ := io.ReadAll(os.Stdin)
	calls := 0
	if len(args) > 0 && mode != "echo" { // count calls through a file
		b, _ := os.ReadFile(args[0])
		calls, _ = strconv.Atoi(string(b))
		calls++
		os.WriteFile(args[0], []byte(strconv.Itoa(calls)), 0o644)
	}
	out := os.Stdout
	switch mode {
	case "envelope":
		fmt.Fprint(out, envelopeOf(answer, false))
	case "bare":
		fmt.Fprintln(out, answer)
	case "fenced":
		fmt.Fprint(out, envelopeOf("Here is the verdict:\n\n```json\n"+answer+"\n```\n\nLet me know if {you} need more.", false))
	case "prose":
		fmt.Fprint(out, envelopeOf("Both notes [see above] cover {rounding}. Verdict: "+answer+" — and that is final [1].", false))
	case "verbose-array":
		fmt.Fprint(out, `[{"type":"system","subtype":"init","tools":["Read"]},{"type":"assistant","message":{"content":[]}},`+envelopeOf(answer, false)+"]")
	case "stream-json":
		fmt.Fprintln(out, `{"type":"system","subtype":"init","tools":["Read"]}`)
		fmt.Fprintln(out, `{"type":"assistant","message":{"content":[{"type":"text","text":"{}"}]}}`)
		fmt.Fprintln(out, envelopeOf("```json\n"+answer+"\n```", false))
	case "is-error":
		fmt.Fprint(out, `{"type":"result","subtype":"error_during_execution","is_error":true,"result":"API Error: 529 overloaded"}`)
	case "unknown-field":
		fmt.Fprint(out, envelopeOf(`{"relation":"duplicate","confidence":0.9,"command":"rm -rf /"}`, false))
	case "trailing":
		fmt.Fprint(out, answer+` {"relation":"unrelated"}`)
	case "garbage":
		fmt.Fprint(out, "I am not sure what you mean.")
	case "empty":
	case "null":
		fmt.Fprint(out, "null")
	case "flaky":
		if calls == 1 {
			fmt.Fprintln(os.Stderr, "connecting...\nerror: rate limited, try again")
			return 3
		}
		fmt.Fprint(out, envelopeOf(answer, false))
	case "empty-object":
		fmt.Fprint(out, envelopeOf("{}", false))
	case "empty-then-answer":
		if calls == 1 {
			fmt.Fprint(out, envelopeOf("{}", false))
			break
		}
		fmt.Fprint(out, envelopeOf(answer, false))
	case "fail":
		fmt.Fprintln(os.Stderr, "claude: not logged in")
		return 1
	case "hang":
		time.Sleep(time.Minute)
	case "echo": // answers what it received and where it ran
		wd, _ := os.Getwd()
		entries, _ := os.ReadDir(wd)
		b, _ := json.Marshal(echo{Prompt: string(stdin), Child: os.Getenv(background.ModelCallEnv), Entries: len(entries), Args: args})
		fmt.Fprint(out, envelopeOf("```json\n"+string(b)+"\n```", false))
	case "large":
		pad := bytes.Repeat([]byte(" "), 1<<20)
		for range 5 {
			out.Write(pad)
		}
		fmt.Fprint(out, answer)
	case "array":
		fmt.Fprint(out, envelopeOf("Candidates [a, b] follow: [\"vat-rounding\",\"vat-rates\"]", false))
	default:
		fmt.Fprintln(os.Stderr, "fake-model: unknown mode", mode)
		return 2
	}
	return 0
}

type verdict struct {
	Relation   string  `json:"relation"`
	Confidence float64 `json:"confidence"`
}

type echo struct {
	Prompt  string   `json:"prompt"`
	Child   string   `json:"child"`
	Entries int      `json:"entries"`
	Args    []string `json:"args,omitempty"`
}

func fake(t *testing.T, mode string, extra ...string) (*Runner, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	return &Runner{
		Command: append([]string{exe, "fake-model", mode}, extra...),
		Timeout: 20 * time.Second,
		Log:     &log,
	}, &log
}

func TestAsk(t *testing.T) {
	want := verdict{"duplicate", 0.9}
	tests := []struct {
		mode    string
		calls   int    // model calls made (counted through a file)
		errWant string // "" means success
	}{
		{"envelope", 1, ""},
		{"bare", 1, ""},
		{"fenced", 1, ""},
		{"prose", 1, ""},
		{"verbose-array", 1, ""},
		{"stream-json", 1, ""},
		{"flaky", 2, ""},
		{"is-error", 2, "the model reported an error (error_during_execution): API Error: 529 overloaded"},
		{"unknown-field", 2, `unknown field "command"`},
		{"trailing", 2, "trailing data after the JSON answer"},
		{"garbage", 2, "invalid character 'I'"},
		{"empty", 2, "empty answer"},
		{"null", 2, "the answer is null"},
		{"fail", 2, "model command failed (exit status 1): claude: not logged in"},
		{"large", 2, "answer longer than 4194304 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			count := filepath.Join(t.TempDir(), "calls")
			r, log := fake(t, tt.mode, count)
			var got verdict
			err := r.Ask(context.Background(), "Compare vat-rounding and vat-rates.", &got)
			if b, _ := os.ReadFile(count); string(b) != strconv.Itoa(tt.calls) {
				t.Errorf("model called %s times, want %d", b, tt.calls)
			}
			logLines := strings.Count(log.String(), "\n")
			if tt.errWant == "" {
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				if got != want {
					t.Errorf("got %+v, want %+v", got, want)
				}
				if logLines != tt.calls-1 {
					t.Errorf("log has %d lines, want %d:\n%s", logLines, tt.calls-1, log)
				}
				return
			}
			if err == nil {
				t.Fatalf("Ask succeeded with %+v, want error containing %q", got, tt.errWant)
			}
			if !strings.Contains(err.Error(), tt.errWant) {
				t.Errorf("error %q\ndoes not contain %q", err, tt.errWant)
			}
			if got != (verdict{}) {
				t.Errorf("out was written on failure: %+v", got)
			}
			if logLines != 2 || !strings.Contains(log.String(), tt.errWant) {
				t.Errorf("log should have one line per rejected answer with the reason %q:\n%s", tt.errWant, log)
			}
		})
	}
}

func TestAskTimeout(t *testing.T) {
	t.Parallel()
	count := filepath.Join(t.TempDir(), "calls")
	r, log := fake(t, "hang", count)
	r.Timeout = 200 * time.Millisecond
	start := time.Now()
	var v verdict
	err := r.Ask(context.Background(), "hello", &v)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(count); string(b) != "2" {
		t.Errorf("model called %s times, want 2 (one retry)", b)
	}
	if strings.Count(log.String(), "no answer within") != 2 {
		t.Errorf("log:\n%s", log)
	}
	// Generous: the point is that the hung process was killed, not waited for.
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Ask took %s", d)
	}
}

func TestAskContextCanceled(t *testing.T) {
	t.Parallel()
	count := filepath.Join(t.TempDir(), "calls")
	r, _ := fake(t, "hang", count)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var v verdict
	err := r.Ask(ctx, "hello", &v)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if b, _ := os.ReadFile(count); string(b) != "1" {
		t.Errorf("model called %s times; a done context must not be retried", b)
	}
}

func TestAskStdinAndEnvironment(t *testing.T) {
	t.Parallel()
	r, _ := fake(t, "echo", "arg with spaces", `"quoted"`)
	prompt := "Line one.\nLine two with \"quotes\", $HOME, `ticks` and ünïcödé.\n" + strings.Repeat("x", 200<<10)
	var got echo
	if err := r.Ask(context.Background(), prompt, &got); err != nil {
		t.Fatal(err)
	}
	if got.Prompt != prompt {
		t.Errorf("stdin: got %d bytes, want the %d-byte prompt", len(got.Prompt), len(prompt))
	}
	if got.Child != "1" {
		t.Errorf("%s = %q in the model's environment, want 1", background.ModelCallEnv, got.Child)
	}
	if got.Entries != 0 {
		t.Errorf("model ran in a directory with %d entries, want a fresh empty one", got.Entries)
	}
	if want := []string{"arg with spaces", `"quoted"`}; fmt.Sprint(got.Args) != fmt.Sprint(want) {
		t.Errorf("args %q, want %q (no shell in between)", got.Args, want)
	}
}

func TestAskArray(t *testing.T) {
	t.Parallel()
	r, _ := fake(t, "array")
	var got []string
	if err := r.Ask(context.Background(), "list", &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[vat-rounding vat-rates]" {
		t.Errorf("got %q", got)
	}
}

func TestAskBadOut(t *testing.T) {
	r, _ := fake(t, "envelope")
	var v verdict
	for _, out := range []any{v, nil, (*verdict)(nil)} {
		if err := r.Ask(context.Background(), "x", out); err == nil || !strings.Contains(err.Error(), "non-nil pointer") {
			t.Errorf("Ask(%T) err = %v", out, err)
		}
	}
}

func TestAvailable(t *testing.T) {
	exe, _ := os.Executable()
	if err := (&Runner{Command: []string{exe}}).Available(); err != nil {
		t.Errorf("Available(%s) = %v", exe, err)
	}
	err := (&Runner{Command: []string{"mem-no-such-model-xyz", "-p"}}).Available()
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	for _, want := range []string{`"mem-no-such-model-xyz"`, "MEM_MODEL_CMD"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	var v verdict
	if err := (&Runner{Command: []string{"mem-no-such-model-xyz"}}).Ask(context.Background(), "x", &v); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Ask with a missing command: %v, want ErrUnavailable", err)
	}
	var none *Runner // --no-model
	if err := none.Available(); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "--no-model") {
		t.Errorf("nil Runner Available = %v", err)
	}
	if err := none.Ask(context.Background(), "x", &v); !errors.Is(err, ErrUnavailable) {
		t.Errorf("nil Runner Ask = %v", err)
	}
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		cmd, timeout string
		argv         []string
		d            time.Duration
		err          string
	}{
		{"", "", DefaultCommand, DefaultTimeout, ""},
		{"   ", "", DefaultCommand, DefaultTimeout, ""},
		{"ollama run 'llama 3'", "45s", []string{"ollama", "run", "llama 3"}, 45 * time.Second, ""},
		{"claude -p --model sonnet", "2m", []string{"claude", "-p", "--model", "sonnet"}, 2 * time.Minute, ""},
		{`my-model "unterminated`, "", nil, DefaultTimeout, "MEM_MODEL_CMD: unterminated double quote"},
		{"claude", "soon", []string{"claude"}, DefaultTimeout, `MEM_MODEL_TIMEOUT: time: invalid duration "soon"`},
		{"claude", "-5s", []string{"claude"}, DefaultTimeout, "MEM_MODEL_TIMEOUT: -5s is not a positive duration"},
	}
	for _, tt := range tests {
		t.Setenv("MEM_MODEL_CMD", tt.cmd)
		t.Setenv("MEM_MODEL_TIMEOUT", tt.timeout)
		r := FromEnv()
		if fmt.Sprintf("%q", r.command()) != fmt.Sprintf("%q", tt.argv) && tt.argv != nil {
			t.Errorf("%q: command %q, want %q", tt.cmd, r.command(), tt.argv)
		}
		if r.timeout() != tt.d {
			t.Errorf("%q: timeout %s, want %s", tt.timeout, r.timeout(), tt.d)
		}
		if tt.err == "" {
			// Available may still fail: the command need not be installed here.
			if r.err != nil {
				t.Errorf("%q %q: rejected a valid configuration: %v", tt.cmd, tt.timeout, r.err)
			}
			continue
		}
		err := r.Available()
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q %q: Available = %v, want ErrUnavailable with %q", tt.cmd, tt.timeout, err, tt.err)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"claude -p --output-format json", []string{"claude", "-p", "--output-format", "json"}, ""},
		{"  claude\t-p \n json  ", []string{"claude", "-p", "json"}, ""},
		{`/opt/My\ Models/run --name "big model"`, []string{"/opt/My Models/run", "--name", "big model"}, ""},
		{`run 'single $HOME "kept"' "dq \"esc\" \$HOME \\ \n"`, []string{"run", `single $HOME "kept"`, `dq "esc" $HOME \ \n`}, ""},
		{`run '' ""`, []string{"run", "", ""}, ""},
		{`run a'b'"c"d`, []string{"run", "abcd"}, ""},
		{"run a\\\nb", []string{"run", "ab"}, ""},
		{`run --prompt='{"a": 1}'`, []string{"run", `--prompt={"a": 1}`}, ""},
		{`run a~b`, []string{"run", "a~b"}, ""},
		{"", nil, "empty command"},
		{"   ", nil, "empty command"},
		{`run 'open`, nil, "unterminated single quote"},
		{`run "open`, nil, "unterminated double quote"},
		{`run \`, nil, "trailing backslash"},
		{`ollama run x | jq .`, nil, `"|" needs a shell`},
		{`run $HOME`, nil, `"$" needs a shell`},
		{`run > out`, nil, `">" needs a shell`},
		{`~/bin/model`, nil, "~ is not expanded"},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseCommand(%q) = %q, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
			t.Errorf("ParseCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	tests := []struct {
		text string
		want byte
		out  string // "" means not found
	}{
		{answer, '{', answer},
		{"```json\n" + answer + "\n```", '{', answer},
		{"```JSON\n  " + answer + "  \n```", '{', answer},
		{"```\n" + answer + "\n```", '{', answer},
		{"Sure! ```json\n{not json}\n``` then " + answer, '{', answer},
		{"see [1] and {x}: " + answer + " and {\"b\":2}", '{', answer},
		{"see [1] and " + answer, 0, "[1]"},
		{`["a","b"] then {"c":1}`, '{', `{"c":1}`},
		{`{"a":{"b":[1,2,{"c":"}"}]}} tail`, '{', `{"a":{"b":[1,2,{"c":"}"}]}}`},
		{"no json here", '{', ""},
		{`{"unterminated": "x`, '{', ""},
		{"```json\n" + answer, '{', answer}, // unclosed fence
	}
	for _, tt := range tests {
		got, ok := extractJSON(tt.text, tt.want)
		if tt.out == "" {
			if ok {
				t.Errorf("extractJSON(%q) = %s, want none", tt.text, got)
			}
			continue
		}
		if !ok || string(got) != tt.out {
			t.Errorf("extractJSON(%q) = %s, %v; want %s", tt.text, got, ok, tt.out)
		}
	}
}

func FuzzAnswer(f *testing.F) {
	for _, s := range []string{
		answer, "```json\n" + answer + "\n```", envelopeOf(answer, false), envelopeOf("x ```json\n"+answer+"\n``` y", false),
		envelopeOf("[1] {"+answer, true), `{"type":"result","result":null}`, `{"type":"result"}`, "null", "[]", `[{"a":1}]`,
		`{"relation":"x","confidence":"high"}`, "{{{{[[[[", `"` + strings.Repeat(`\"`, 10),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, want := range []byte{0, '{', '['} {
			if raw, ok := extractJSON(s, want); ok {
				if !json.Valid(raw) || !strings.Contains(s, string(raw)) || !matches(raw[0], want) {
					t.Fatalf("extractJSON(%q, %q) = %q", s, want, raw)
				}
			}
		}
		var v verdict
		if err := decodeAnswer([]byte(s), &v, '{'); err != nil && v != (verdict{}) {
			t.Fatalf("out written on error %v: %+v", err, v)
		}
		var a any
		if decodeAnswer([]byte(s), &a, 0) == nil && a == nil {
			t.Fatalf("decoded %q to nil", s)
		}
	})
}

func TestAskErrorMessage(t *testing.T) {
	t.Parallel()
	r, log := fake(t, "unknown-field")
	var v verdict
	err := r.Ask(context.Background(), "x", &v)
	if strings.Count(log.String(), "\n") != 2 {
		t.Errorf("log:\n%s", log)
	}
	if err == nil || strings.Count(err.Error(), `unknown field "command"`) != 1 || !strings.Contains(err.Error(), "2 attempts") {
		t.Errorf("err = %v", err)
	}
}

// checked is a verdict whose Validate refuses an answer without a relation,
// and reads want, which the caller set before the call.
type checked struct {
	verdict
	want string
}

func (c *checked) Validate() error {
	if c.Relation == "" {
		return errors.New("the verdict has no relation")
	}
	if c.Relation != c.want {
		return fmt.Errorf("relation %q, want %q", c.Relation, c.want)
	}
	return nil
}

// An answer the Validator refuses is a rejected attempt: logged, asked
// again once, and an error when the second is refused too; out is written
// only with an accepted answer, and keeps what the caller set in it.
func TestAskValidator(t *testing.T) {
	tests := []struct {
		mode, want string
		calls      int
		errWant    string
	}{
		{"envelope", "duplicate", 1, ""},
		{"empty-then-answer", "duplicate", 2, ""},
		{"empty-object", "duplicate", 2, "the verdict has no relation"},
		{"envelope", "supersedes", 2, `relation "duplicate", want "supersedes"`},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.want, func(t *testing.T) {
			t.Parallel()
			count := filepath.Join(t.TempDir(), "calls")
			r, log := fake(t, tt.mode, count)
			got := checked{want: tt.want}
			err := r.Ask(context.Background(), "Compare vat-rounding and vat-rates.", &got)
			if b, _ := os.ReadFile(count); string(b) != strconv.Itoa(tt.calls) {
				t.Errorf("model called %s times, want %d", b, tt.calls)
			}
			if n := strings.Count(log.String(), "rejected"); n != tt.calls-1 && tt.errWant == "" || tt.errWant != "" && n != 2 {
				t.Errorf("log:\n%s", log)
			}
			if tt.errWant == "" {
				if err != nil || got.verdict != (verdict{"duplicate", 0.9}) || got.want != tt.want {
					t.Fatalf("Ask = %+v, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errWant) {
				t.Fatalf("err = %v, want %q", err, tt.errWant)
			}
			if got != (checked{want: tt.want}) {
				t.Errorf("out was written on failure: %+v", got)
			}
		})
	}
}
