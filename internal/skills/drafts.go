package skills

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	fmparse "github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
)

// Places, relative to the work tree's .claude directory.
const (
	DraftsDir    = "skill-drafts"               // drafts: .claude/skill-drafts/NAME/SKILL.md
	SkillsDir    = "skills"                     // Claude Code's project skills: .claude/skills/NAME/SKILL.md
	RejectedFile = "skill-drafts/rejected.json" // the rejected drafts, remembered
	SkillFile    = "SKILL.md"
)

// ErrNoDraft is returned when no draft has the name asked for.
var ErrNoDraft = errors.New("no such skill draft")

// Repo is the skills and drafts of one work tree. Its writes are commits
// made by a gitstore.Store rooted at <work tree>/.claude, so they are
// confined there, touch only the paths they write, and leave whatever the
// person has staged alone.
type Repo struct {
	WorkTree string
	// Personal is Claude Code's personal skills directory
	// (~/.claude/skills, CLAUDE_CONFIG_DIR moves ~/.claude); "" for none.
	Personal string
	Now      func() time.Time
	files    *gitstore.Store
}

// Open returns the skills of the work tree at workTree.
func Open(workTree string) (*Repo, error) {
	place, err := locate.Find(workTree, filepath.Join(workTree, ".claude"))
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	files, err := gitstore.Open(place)
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	// Drafts are made from transcripts and committed: scanned like memories.
	files.Check = func(gitPath string, data []byte) error {
		if gitPath == "" {
			gitPath = "the commit message"
		}
		return secrets.Check(gitPath, string(data))
	}
	r := &Repo{WorkTree: workTree, Now: time.Now, files: files}
	if files.WorkTree != "" {
		r.WorkTree = files.WorkTree
	}
	if base, err := locate.ClaudeDir(); err == nil {
		r.Personal = filepath.Join(base, SkillsDir)
	}
	return r, nil
}

// Meta is what mem records of a draft, under the frontmatter's metadata
// key (the Agent Skills format's place for a tool's own fields).
type Meta struct {
	DraftedBy        string `yaml:"drafted-by" json:"drafted_by"`
	Procedure        string `yaml:"procedure" json:"procedure"`
	FailurePrevented string `yaml:"failure-prevented" json:"failure_prevented"`
	Justification    string `yaml:"justification" json:"justification"`
	EvidenceSessions string `yaml:"evidence-sessions" json:"evidence_sessions"`
	SeenInSessions   string `yaml:"seen-in-sessions" json:"seen_in_sessions"`
}

type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Metadata    Meta   `yaml:"metadata"`
}

// Skill is one SKILL.md: a draft or a skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"` // relative to the work tree
	Meta        Meta   `json:"metadata"`
	Body        string `json:"-"`
}

// Render writes a draft as a SKILL.md: YAML frontmatter (name,
// description, metadata) and the body.
func Render(d Draft, c Candidate) []byte {
	fm := frontmatter{Name: d.Name, Description: text.OneLine(d.Description), Metadata: Meta{
		DraftedBy:        "mem skills scan",
		Procedure:        c.Key,
		FailurePrevented: text.OneLine(d.FailurePrevented),
		Justification:    text.OneLine(d.Justification),
		EvidenceSessions: strings.Join(d.EvidenceSessions, ", "),
		SeenInSessions:   fmt.Sprint(len(c.Sessions)),
	}}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.Encode(fm)
	enc.Close()
	b.WriteString("---\n")
	b.WriteString(strings.TrimSpace(d.Body))
	b.WriteString("\n")
	return b.Bytes()
}

// parse reads a SKILL.md. It is read-only and structured, so it is read
// with adrg/frontmatter (YAML between --- lines, as Claude Code writes
// it); mdparse's splitter is for the memories mem rewrites byte for byte.
func parse(rel string, data []byte) (Skill, error) {
	s := Skill{Path: rel}
	var fm frontmatter
	body, err := fmparse.MustParse(bytes.NewReader(data), &fm, yamlFrontmatter)
	if errors.Is(err, fmparse.ErrNotFound) {
		return s, fmt.Errorf("%s: no frontmatter (or it is not closed by a --- line)", rel)
	}
	if err != nil {
		return s, fmt.Errorf("%s: %w", rel, err)
	}
	s.Name, s.Description, s.Meta, s.Body = fm.Name, fm.Description, fm.Metadata, strings.TrimSpace(string(body))
	return s, nil
}

// yamlFrontmatter is the one frontmatter format of SKILL.md files: YAML
// between --- lines, decoded as the drafts are encoded (yaml.v3).
var yamlFrontmatter = fmparse.NewFormat("---", "---", yaml.Unmarshal)

// skillPath is the .claude-relative SKILL.md of a draft or skill: kind is
// DraftsDir or SkillsDir.
func skillPath(kind, name string) string { return path.Join(kind, name, SkillFile) }

// read lists the SKILL.md files one level under dir (absolute).
func read(dir, relTo string) []Skill {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Skill
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name(), SkillFile)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(relTo, p)
		// A malformed SKILL.md is still listed. Its name is its directory's,
		// the name Claude Code uses, whatever its frontmatter says.
		s, _ := parse(filepath.ToSlash(rel), data)
		s.Name = e.Name()
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (r *Repo) claudeDir() string { return r.files.Root }

// Drafts lists the drafts.
func (r *Repo) Drafts() []Skill {
	return read(filepath.Join(r.claudeDir(), DraftsDir), r.WorkTree)
}

// Skills lists the project's skills (.claude/skills).
func (r *Repo) Skills() []Skill {
	return read(filepath.Join(r.claudeDir(), SkillsDir), r.WorkTree)
}

// Rejection is a draft a person rejected.
type Rejection struct {
	Name      string    `json:"name"`
	Procedure string    `json:"procedure"`
	Date      time.Time `json:"date"`
	Reason    string    `json:"reason,omitempty"`
}

// Rejected lists the rejected drafts.
func (r *Repo) Rejected() ([]Rejection, error) {
	data, err := os.ReadFile(filepath.Join(r.claudeDir(), filepath.FromSlash(RejectedFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read rejected drafts: %w", err)
	}
	var out []Rejection
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("read rejected drafts: %s: %w", RejectedFile, err)
	}
	return out, nil
}

// taken is every name a new draft may not take, apart from the built-in
// commands: the project's skills and drafts and the rejected drafts (as the
// caller read them), and the personal skills.
func (r *Repo) taken(skills, drafts []Skill, rejected []Rejection) map[string]bool {
	taken := map[string]bool{}
	for _, s := range slices.Concat(skills, drafts) {
		taken[s.Name] = true
	}
	if r.Personal != "" {
		for _, s := range read(r.Personal, r.Personal) {
			taken[s.Name] = true
		}
	}
	for _, x := range rejected {
		taken[x.Name] = true
	}
	return taken
}

// draft reads the draft called name: parsed, and the bytes of its SKILL.md.
func (r *Repo) draft(name string) (Skill, []byte, error) {
	if !validName.MatchString(name) {
		return Skill{}, nil, fmt.Errorf("%w: %q is not a skill name", ErrNoDraft, name)
	}
	rel := skillPath(DraftsDir, name)
	data, err := r.files.ReadFile(rel)
	if err != nil {
		return Skill{}, nil, fmt.Errorf("%w: %s", ErrNoDraft, name)
	}
	s, err := parse(".claude/"+rel, data)
	s.Name = name
	return s, data, err
}

// apply writes changes (relative to .claude) as one commit, under the lock.
func (r *Repo) apply(ctx context.Context, changes []gitstore.Change, info gitstore.CommitInfo) (gitstore.Result, error) {
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return gitstore.Result{}, err // already says "lock store: …"
	}
	defer unlock()
	return r.files.Apply(ctx, changes, info)
}

// Promote makes a draft a skill: it moves .claude/skill-drafts/NAME/SKILL.md
// to .claude/skills/NAME/SKILL.md, as one commit. It is a person's act; mem
// never calls it on its own.
func (r *Repo) Promote(ctx context.Context, name string) (gitstore.Result, error) {
	d, data, err := r.draft(name)
	if err != nil {
		return gitstore.Result{}, err
	}
	if r.files.Exists(path.Join(SkillsDir, name)) {
		return gitstore.Result{}, fmt.Errorf("promote %s: .claude/%s/%s already exists", name, SkillsDir, name)
	}
	defer r.removeEmpty(name)
	return r.apply(ctx, []gitstore.Change{
		{Path: skillPath(SkillsDir, name), Data: data},
		{Path: skillPath(DraftsDir, name), Delete: true},
	}, gitstore.CommitInfo{Action: gitstore.ActionSkillPromote, Slug: name, Body: d.Description,
		Trailers: []gitstore.Trailer{{Key: gitstore.TrailerProcedure, Value: d.Meta.Procedure}}})
}

// Reject removes a draft as one commit and remembers it in
// .claude/skill-drafts/rejected.json, so that no scan proposes its name or
// its procedure again.
func (r *Repo) Reject(ctx context.Context, name, reason string) (gitstore.Result, error) {
	d, _, err := r.draft(name)
	if err != nil {
		return gitstore.Result{}, err
	}
	rej, err := r.Rejected()
	if err != nil {
		return gitstore.Result{}, err
	}
	rej = append(rej, Rejection{Name: name, Procedure: d.Meta.Procedure, Date: r.Now().UTC().Truncate(time.Second), Reason: text.OneLine(reason)})
	data, err := json.MarshalIndent(rej, "", "  ")
	if err != nil {
		return gitstore.Result{}, err
	}
	info := gitstore.CommitInfo{Action: gitstore.ActionSkillReject, Slug: name}
	if reason != "" {
		info.Trailers = []gitstore.Trailer{{Key: gitstore.TrailerReason, Value: reason}}
	}
	defer r.removeEmpty(name)
	return r.apply(ctx, []gitstore.Change{
		{Path: skillPath(DraftsDir, name), Delete: true},
		{Path: RejectedFile, Data: append(data, '\n')},
	}, info)
}

// removeEmpty removes a draft's directory once its SKILL.md is gone.
func (r *Repo) removeEmpty(name string) {
	os.Remove(filepath.Join(r.claudeDir(), DraftsDir, name))
}
