package web

import (
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/profile"
	"github.com/mem-dev/mem/mdparse"
)

// indexFile is one MEMORY.md drawn against Claude Code's cliff.
type indexFile struct {
	mdparse.Budget
	Lines   []budgetLine
	Below   []budgetLine // from the cut on: never loaded
	Before  []budgetLine // the last lines loaded, above the cut
	Loaded  int          // bytes loaded
	Hidden  []string
	Tokens  int
	ReadErr string
}

type budgetLine struct {
	N    int
	Text string
}

type budgetPage struct {
	Files                 []indexFile
	MaxLines, MaxBytes    int
	ProfileFile           string
	ProfileSize, Cap      int
	ProfileLines          int
	ProfileTokens         int
	HealthTokens          int
	AlwaysTokens          int
	ProfileErr, HealthErr string
}

// tokens estimates a text's cost in a model's context: about four bytes a
// token for English prose and markdown. It is an estimate, and says so.
func tokens(bytes int) int { return (bytes + 3) / 4 }

func (s *Server) budget(w http.ResponseWriter, r *http.Request) {
	repo := s.o.Repo
	p := budgetPage{MaxLines: mdparse.CatalogMaxLines, MaxBytes: mdparse.CatalogMaxBytes, Cap: profileCap()}
	files, err := repo.Catalogs().All(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	for _, f := range files {
		x := indexFile{}
		data, err := os.ReadFile(f)
		if err != nil {
			x.ReadErr = err.Error()
			x.File = repo.Place.Rel(f)
			p.Files = append(p.Files, x)
			continue
		}
		x.Budget = mdparse.MeasureCatalog(repo.Place.Rel(f), data)
		x.Hidden = x.Budget.Hidden
		for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			bl := budgetLine{N: i + 1, Text: l}
			if !x.Fits && bl.N >= x.CutLine {
				x.Below = append(x.Below, bl)
			} else {
				x.Lines = append(x.Lines, bl)
				x.Loaded += len(l) + 1
			}
		}
		x.Loaded = min(x.Loaded, x.Bytes, mdparse.CatalogMaxBytes)
		if len(x.Below) > 0 {
			x.Before = x.Lines[max(0, len(x.Lines)-5):]
		}
		x.Tokens = tokens(x.Loaded)
		p.AlwaysTokens += x.Tokens
		p.Files = append(p.Files, x)
	}
	// The profiles a session gets: the person's, and the team's when the
	// store keeps one.
	var profiles []string
	for _, scope := range []mem.ProfileScope{mem.PersonalProfile, mem.TeamProfile} {
		prof, err := repo.Profiles().Read(r.Context(), scope)
		if err != nil {
			p.ProfileErr = err.Error()
			continue
		}
		if scope == mem.PersonalProfile || len(prof.Entries()) > 0 {
			profiles = append(profiles, repo.Profiles().File(scope))
		}
		p.ProfileSize += prof.Size()
		p.ProfileLines += len(prof.Entries())
	}
	p.ProfileFile = strings.Join(profiles, " + ")
	if text, err := repo.Profiles().Context(r.Context()); err != nil {
		p.ProfileErr = err.Error()
	} else {
		p.ProfileTokens = tokens(len(text))
	}
	if line, err := repo.Health(r.Context()); err != nil {
		p.HealthErr = err.Error()
	} else {
		p.HealthTokens = tokens(len(line))
	}
	p.AlwaysTokens += p.ProfileTokens + p.HealthTokens
	s.render(w, r, "budget", "Budget", p)
}

// profileCap is the profile's cap as mem profile reads it.
func profileCap() int {
	if n, err := strconv.Atoi(os.Getenv("MEM_PROFILE_CAP")); err == nil && n > 0 {
		return n
	}
	return profile.DefaultCap
}
