//go:build !(linux && (amd64 || arm64))

package search

// statter is Stat where fstatat is not reached without a dependency.
type statter struct{}

func newStatter() *statter { return &statter{} }

func (s *statter) stat(path string, kind SourceKind) Source { return Stat(path, kind) }

func (s *statter) close() {}
