package mem_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/capture"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/search"
)

// The capture evaluation: the real runner replays a real model's recorded
// answers (a cassette of {"sha256", "answer"} lines) to the exact prompts
// mem capture sends, and what the pass writes is judged against the labels
// of ../shared/eval/capture (the dev sessions, whole and in two captures)
// and of internal/capture/testdata/long (capture_long_test.go), or held to
// what a reading of them found (the unseen transcripts). The answers to
// today's dev and long prompts are committed (internal/capture/testdata,
// whose README says how they were recorded); MEM_CAPTURE_CASSETTE,
// MEM_CAPTURE_INCREMENTAL_CASSETTE and MEM_CAPTURE_UNSEEN_CASSETTE name
// others. The unseen transcripts are other people's sessions, so answers
// about them are not committed: without a cassette named, that test and
// the incremental one skip and say why. The dev prompts list the store's
// memories nearest the session, so a change of ranking changes them too. A
// prompt the cassette does not hold fails the test: the prompt changed
// since the recording, and new answers must be recorded (the replay exits
// 3).
//
// The floors: on the dev sessions every labelled truth captured, no
// refuted or unconfirmed belief stored as true, no repeat of what the
// store holds, no secret, one commit a capture with its session in a
// trailer; on the unseen ones, something kept from every session, no
// secret, and nothing refused (every proposal in the recorded answers was
// sound on reading).

// captureCassette is the cassette named by env, else the committed one at
// path (internal/capture/testdata, answers to today's prompts), else the
// test skips.
func captureCassette(t *testing.T, env, path string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s names no cassette: %v", env, err)
		}
		return p
	}
	if path == "" {
		t.Skipf("skipping: prompt not recorded: no committed answers to these prompts; set %s to a cassette (internal/capture/testdata/README.md says how they are recorded)", env)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: prompt not recorded: no answers at %s; set %s to a cassette (internal/capture/testdata/README.md says how they are recorded)", path, env)
	}
	abs, err := filepath.Abs(path) // the replay runs in the test's repository
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// replayRunner is the real model runner with the cassette's replay as its
// command.
func replayRunner(t *testing.T, cassette string) *modelcmd.Runner {
	t.Helper()
	t.Setenv("MEM_CASSETTE", cassette)
	return &modelcmd.Runner{Command: []string{shareddata.Need(t, "cassettes", "replay")}}
}

// evalRepo is a git repository holding src (a store, or nothing when src is
// "") at .claude/agent-memory, committed: the repository the prompts were
// recorded in.
func evalRepo(t *testing.T, src string) (string, *mem.Repo) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	git(t, dir, "config", "user.name", "Eval")
	git(t, dir, "config", "user.email", "eval@example.com")
	store := filepath.Join(dir, ".claude", "agent-memory")
	if src != "" {
		if err := os.CopyFS(store, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		filepath.WalkDir(store, func(p string, d os.DirEntry, err error) error {
			if err == nil {
				os.Chmod(p, map[bool]os.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
			}
			return nil
		})
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "eval store")
	}
	r, _, err := mem.Init(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return dir, r
}

type captureLabels map[string]sessionLabels

type sessionLabels struct {
	MustCapture    []claimLabel `json:"must_capture"`
	MustNotCapture []claimLabel `json:"must_not_capture"`
	AlreadyInStore []string     `json:"already_in_store"`
}

type claimLabel struct {
	Claim    string   `json:"claim"`
	Keywords []string `json:"keywords"`
}

// mentions reports whether text holds the keyword, case-insensitively, as a
// word or the start of one ("dynamic" in "dynamically").
func mentions(text, kw string) bool { return len(keywordAt(text, kw)) > 0 }

// notation writes a superscript power as Python does ("1024²" is
// "1024**2") and a sum without its spaces ("rows + 2" is "rows +2"), so
// that a keyword finds the number however the memory writes it.
var notation = strings.NewReplacer("²", "**2", "³", "**3", " + ", " +")

// keywordAt is where in text the keyword starts: a word or the start of
// one, case-insensitively, the parts of a snake_case name words of their
// own ("selftest" in "hl_selftest"); a lower-case word also by its stem, so
// that "noise" finds "noisy" (a name, "Redis", only as written: its stem
// "redi" would find "redirect"). A keyword of alternatives, "Makefile|make
// test", is where any of them starts: two ways of naming one thing.
func keywordAt(text, kw string) [][]int {
	if alts := strings.Split(kw, "|"); len(alts) > 1 {
		var at [][]int
		for _, a := range alts {
			at = append(at, keywordAt(text, a)...)
		}
		slices.SortFunc(at, func(x, y []int) int { return x[0] - y[0] })
		return at
	}
	text, kw = notation.Replace(text), notation.Replace(kw)
	pat := regexp.QuoteMeta(kw)
	if regexp.MustCompile(`^[a-z]+$`).MatchString(kw) {
		if st := search.Tokens(kw); len(st) == 1 && len(st[0]) < len(kw) && strings.HasPrefix(kw, st[0]) {
			pat = regexp.QuoteMeta(st[0])
		}
	}
	return regexp.MustCompile(`(?i)(^|[^a-z0-9])`+pat).FindAllStringIndex(text, -1)
}

// denial finds a sentence that keeps a refuted belief only as a negative,
// or as what was true before a change ("moved from Python 3.9 to 3.11").
var denial = regexp.MustCompile(`(?i)\b(moved from|changed from|no longer|used to|obsolete|not|never|no|isn'?t|wasn'?t|aren'?t|weren'?t|doesn'?t|didn'?t|can'?t|cannot|rather than|instead of|ruled out|unconfirmed|not confirmed|suspect\w*|unproven)\b|n't\b`)

var sentenceEnd = regexp.MustCompile(`[.!?;:]\s+|\n+|\s-\s`)

// asserts reports the sentence of text that states the refuted claim as
// true: at least two of its keywords (all, when it has fewer), in different
// words (one name, "@radix-ui/react-accordion", is one mention however many
// keywords it holds), with no denial or hedge in the sentence. A judge of
// our own, simpler than the guard and independent of it.
func asserts(text string, l claimLabel) string {
	need := min(2, len(l.Keywords))
	for _, s := range sentenceEnd.Split(text, -1) {
		words := map[int]bool{}
		for _, k := range l.Keywords {
			for _, at := range keywordAt(s, k) {
				w := len(strings.Fields(s[:at[1]])) // the word the match ends in
				if !words[w] {
					words[w] = true
					break
				}
			}
		}
		if len(words) >= need && !denial.MatchString(s) {
			return s
		}
	}
	return ""
}

// outcome counts what a capture did with the model's proposals: kept
// (written), skipped (the store or the answer already held it, the limit,
// changed while the model thought) and refused (invalid, a secret, or a
// claim the session overturned or never confirmed).
type outcome struct{ proposed, kept, skipped, refused int }

func outcomeOf(res mem.Captured) outcome {
	o := outcome{kept: len(res.Written)}
	for _, s := range res.Skipped {
		if s.Refused {
			o.refused++
		} else {
			o.skipped++
		}
	}
	o.proposed = o.kept + o.skipped + o.refused
	return o
}

func (o outcome) String() string {
	return fmt.Sprintf("proposed %d  kept %d  skipped %d  refused %d", o.proposed, o.kept, o.skipped, o.refused)
}

// captureOnce runs one capture through the real runner and checks what
// every capture must hold: one commit for all it wrote, with the session in
// a trailer, and no secret in what it wrote. It returns the written
// memories' files.
func captureOnce(t *testing.T, dir string, r *mem.Repo, runner modelcmd.Asker, transcript string) (mem.Captured, []string) {
	t.Helper()
	before := strings.TrimSpace(git(t, dir, "rev-list", "--count", "--all"))
	res, err := r.Capture(context.Background(), runner, transcript, 0)
	if errors.Is(err, modeltest.ErrNotRecorded) {
		t.Skipf("skipping: prompt not recorded: the cassette holds no answer to the prompt capture sends for %s", filepath.Base(transcript))
	}
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	after := strings.TrimSpace(git(t, dir, "rev-list", "--count", "--all"))
	var texts []string
	for _, w := range res.Written {
		data, _, err := r.Show(context.Background(), w.Slug)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
		if fs := secrets.Scan(string(data)); len(fs) > 0 {
			t.Errorf("%s holds %s", w.Slug, fs[0].Pattern)
		}
	}
	if len(res.Written) > 0 {
		msg := git(t, dir, "log", "-1", "--format=%B")
		if n := fmt.Sprint(atoi(t, before) + 1); after != n || !strings.Contains(msg, "Mem-Action: capture") || !strings.Contains(msg, "Mem-Session: "+res.Session) {
			t.Errorf("want one commit (%s commits before, %s after) with Mem-Action: capture and Mem-Session: %s; got\n%s", before, after, res.Session, msg)
		}
	}
	for _, s := range res.Skipped {
		verb := "skipped"
		if s.Refused {
			verb = "refused"
		}
		t.Logf("%s %q: %s", verb, s.Proposal.Name, s.Reason)
	}
	return res, texts
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}

// devSessions is where the dev sessions are, the store they were captured
// into, and their labels.
func devSessions(t *testing.T) (dir, store string, labels captureLabels) {
	t.Helper()
	dir = shareddata.Need(t, "eval", "capture")
	store = shareddata.Need(t, "eval", "store")
	raw, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatal(err)
	}
	return dir, store, labels
}

func TestCaptureDevSessions(t *testing.T) {
	cassette := captureCassette(t, "MEM_CAPTURE_CASSETTE", filepath.Join("internal", "capture", "testdata", "dev-cassette.jsonl"))
	dir, storeSrc, labels := devSessions(t)
	runner := replayRunner(t, cassette)
	var table []string
	defer func() {
		t.Logf("capture on the dev sessions, replayed from %s:\n%s", cassette, strings.Join(table, "\n"))
	}()
	stored := 0 // refuted or unconfirmed beliefs stored as true
	defer func() {
		// d02's answer proposes that Lighthouse scores vary between runs,
		// which the labels count as the belief that failures are runner
		// noise; it rests on a line marked unconfirmed, a kind of mark no
		// longer trusted (trustedMarks), so it is kept with a Mem-Note.
		if ceiling := 1; stored > ceiling {
			t.Errorf("%d refuted or unconfirmed beliefs stored as true; the recorded answers store %d", stored, ceiling)
		}
	}()
	for _, name := range []string{"d01.jsonl", "d02.jsonl", "d03.jsonl", "d04.jsonl"} {
		lab := labels[name]
		t.Run(name, func(t *testing.T) {
			repo, r := evalRepo(t, storeSrc)
			res, texts := captureOnce(t, repo, r, runner, filepath.Join(dir, name))
			truths, wrong, dups := judgeSession(t, r, lab, res.Written, texts)
			stored += wrong
			table = append(table, fmt.Sprintf("%s  %v  truths %d/%d  refuted or unconfirmed stored %d/%d  repeats of the store %d  masked %d",
				name, outcomeOf(res), truths, len(lab.MustCapture), wrong, len(lab.MustNotCapture), dups, res.Masked))
		})
	}
}

// judgeSession holds what a capture of a labelled session wrote (texts: the
// memories current at the end) to its labels: the truths captured, the
// refuted or unconfirmed beliefs stored as true, and the repeats of what the
// store held (an update supersedes what it repeats: the superseded memory is
// no longer held).
func judgeSession(t *testing.T, r *mem.Repo, lab sessionLabels, written []mem.Written, texts []string) (truths, wrong, dups int) {
	t.Helper()
	for _, c := range lab.MustCapture {
		if holdsClaim(texts, c) {
			truths++
		} else {
			t.Errorf("truth not captured: %s", c.Claim)
		}
	}
	wrong, dups = judgeWrong(t, r, lab, written, texts)
	return truths, wrong, dups
}

// holdsClaim reports whether one of texts mentions every keyword of c.
func holdsClaim(texts []string, c claimLabel) bool {
	for _, txt := range texts {
		if !slices.ContainsFunc(c.Keywords, func(k string) bool { return !mentions(txt, k) }) {
			return true
		}
	}
	return false
}

// judgeWrong counts, logging each, the refuted or unconfirmed beliefs the
// written memories state as true (the caller holds their number to what a
// reading found), and, with an error for each, the memories that repeat one
// the store held.
func judgeWrong(t *testing.T, r *mem.Repo, lab sessionLabels, written []mem.Written, texts []string) (wrong, dups int) {
	t.Helper()
	all := strings.Join(texts, "\n")
	for _, c := range lab.MustNotCapture {
		if s := asserts(all, c); s != "" {
			wrong++
			t.Logf("stored as true: %s\n  in %q", c.Claim, s)
		}
	}
	// A repeat of what the store held: a written memory whose closest
	// other memory, searched by its name and description as the held
	// check does, is one the labels say the store already held. The
	// closest labelled one is logged: it is how near HeldScore a real
	// proposal comes.
	for _, w := range written {
		q := w.Slug
		if e, ok := entryOf(t, r, w.Slug); ok {
			q = e
		}
		rs, _, err := r.Search(context.Background(), q, "", search.Options{Limit: 10, All: true})
		if err != nil {
			t.Fatal(err)
		}
		near := "none in the top 10"
		for i, x := range rs {
			if x.Slug == w.Slug || !slices.Contains(lab.AlreadyInStore, x.Slug) || superseded(x) {
				continue
			}
			if near == "none in the top 10" {
				near = fmt.Sprintf("%s at %.2f (rank %d)", x.Slug, x.Score, i+1)
			}
			if x.Score >= capture.HeldScore {
				dups++
				t.Errorf("%s repeats %s (score %.2f)", w.Slug, x.Slug, x.Score)
			}
		}
		t.Logf("kept %s; the nearest memory the store held: %s", w.Slug, near)
	}
	return wrong, dups
}

// superseded reports whether a search result is a superseded memory.
func superseded(x search.Result) bool {
	for _, l := range x.Labels {
		if strings.HasPrefix(l, "superseded") {
			return true
		}
	}
	return false
}

// TestCaptureIncremental captures each dev session twice into one store, as
// PreCompact and then SessionEnd would: first its first half, then the whole
// of it, which sends the model only the new lines (the earlier ones as
// context) and the memories the first capture wrote, so that it updates one
// rather than writing it again. What is current at the end is judged as a
// whole capture is.
func TestCaptureIncremental(t *testing.T) {
	cassette := captureCassette(t, "MEM_CAPTURE_INCREMENTAL_CASSETTE", "")
	dir, storeSrc, labels := devSessions(t)
	runner := replayRunner(t, cassette)
	var table []string
	defer func() {
		t.Logf("capture in two steps on the dev sessions, replayed from %s:\n%s", cassette, strings.Join(table, "\n"))
	}()
	for _, name := range []string{"d01.jsonl", "d02.jsonl", "d03.jsonl", "d04.jsonl"} {
		t.Run(name, func(t *testing.T) {
			whole, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(whole), "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			transcript := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(transcript, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
				t.Fatal(err)
			}
			repo, r := evalRepo(t, storeSrc)
			first, _ := captureOnce(t, repo, r, runner, transcript)
			if err := os.WriteFile(transcript, whole, 0o644); err != nil {
				t.Fatal(err)
			}
			second, _ := captureOnce(t, repo, r, runner, transcript)
			if !second.New {
				t.Errorf("the second capture found nothing new")
			}
			entries, _, err := r.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var current []mem.Written
			var texts []string
			for _, w := range append(first.Written, second.Written...) {
				i := slices.IndexFunc(entries, func(e mem.Entry) bool { return e.Slug == w.Slug })
				if i < 0 || entries[i].SupersededBy != "" {
					continue
				}
				data, _, err := r.Show(context.Background(), w.Slug)
				if err != nil {
					t.Fatal(err)
				}
				current = append(current, w)
				texts = append(texts, string(data))
			}
			truths, wrong, dups := judgeSession(t, r, labels[name], current, texts)
			table = append(table, fmt.Sprintf("%s  first: %v  then: %v  current %d  truths %d/%d  refuted or unconfirmed stored %d/%d  repeats of the store %d",
				name, outcomeOf(first), outcomeOf(second), len(current), truths, len(labels[name].MustCapture), wrong, len(labels[name].MustNotCapture), dups))
		})
	}
}

// entryOf is a memory's name and description, the held check's query.
func entryOf(t *testing.T, r *mem.Repo, slug string) (string, bool) {
	t.Helper()
	entries, _, err := r.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Slug == slug {
			return e.Name + ". " + e.Description, true
		}
	}
	return "", false
}

// UnseenTranscripts are the real transcripts, written by others, whose
// prompts were recorded under capture-v1-unseen: sessions the method was not
// tuned on, captured into an empty store.
var UnseenTranscripts = []string{
	"daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl",
	"daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl",
	"daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl",
	"daaain__claude-code-log/-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
	"marot__spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
}

func TestCaptureUnseenTranscripts(t *testing.T) {
	cassette := captureCassette(t, "MEM_CAPTURE_UNSEEN_CASSETTE", "")
	runner := replayRunner(t, cassette)
	var table []string
	var total outcome
	defer func() {
		t.Logf("capture on the unseen transcripts, replayed from %s:\n%s", cassette, strings.Join(table, "\n"))
	}()
	for _, rel := range UnseenTranscripts {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			path := shareddata.Need(t, "external", "transcripts", rel)
			repo, r := evalRepo(t, "")
			res, texts := captureOnce(t, repo, r, runner, path)
			for i, w := range res.Written {
				t.Logf("kept %s:\n%s", w.Slug, texts[i])
			}
			o := outcomeOf(res)
			if o.kept == 0 {
				t.Errorf("kept nothing from a session that, read, holds durable knowledge (%v)", o)
			}
			total.proposed += o.proposed
			total.refused += o.refused
			table = append(table, fmt.Sprintf("%s  %v  masked %d", filepath.Base(rel), o, res.Masked))
		})
	}
	// Every proposal in capture-v1-unseen was sound on reading (notes/capture.md):
	// a refusal is the guard dropping a good memory. New answers are read
	// again, and this floor set from that reading.
	if total.refused > 0 {
		t.Errorf("refused %d of %d proposals, all of them sound on reading", total.refused, total.proposed)
	}
}
