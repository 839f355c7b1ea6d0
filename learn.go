package mem

import (
	"context"
	"errors"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/mdparse"
)

// errRefused stops an edit that the filter refused.
var errRefused = errors.New("refused")

// LearnAlias adds alias, learned from use (package learn), to the memory
// slug, through enrich's paraphrase filter and the secret scan
// (enrich.Learn), as one commit (Mem-Action: learn-alias) whose trailers
// carry the alias and why it was learned; `mem undo` takes it back. refused
// says why the alias was not taken (a copy of the memory's own words, a
// secret, a superseded memory, ...); then nothing is written.
func (r *Repo) LearnAlias(ctx context.Context, slug, alias, why string) (w Written, refused string, err error) {
	w, err = r.edit(ctx, slug, gitstore.ActionLearnAlias, func(m *mdparse.Memory) error {
		switch {
		case m.Status == mdparse.StatusForgotten:
			refused = "the memory is forgotten"
		case m.SupersededBy != "":
			refused = "the memory is superseded by " + m.SupersededBy
		default:
			reason, err := enrich.Learn(m, alias)
			if err != nil {
				return err
			}
			refused = reason
		}
		if refused != "" {
			return errRefused
		}
		return nil
	}, gitstore.Trailer{Key: gitstore.TrailerAlias, Value: alias}, gitstore.Trailer{Key: gitstore.TrailerReason, Value: why})
	if errors.Is(err, errRefused) {
		return Written{Slug: slug}, refused, nil
	}
	return w, "", err
}
