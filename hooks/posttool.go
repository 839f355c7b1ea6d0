package hooks

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/search"
)

// postToolInput is the part of Claude Code's PostToolUse JSON we read.
type postToolInput struct {
	Cwd       string `json:"cwd"`
	ToolInput struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	} `json:"tool_input"`
}

// PostTool is the PostToolUse hook on Edit, Write and MultiEdit: when the
// agent touched a file in one of the place's memory directories
// (locate.Place.MemoryDirs), it marks the search cache stale so the next
// prompt checks every file. It prints nothing and never fails.
func PostTool(in io.Reader) {
	var hin postToolInput
	if err := json.NewDecoder(io.LimitReader(in, 64<<20)).Decode(&hin); err != nil {
		return
	}
	file := hin.ToolInput.FilePath
	if file == "" {
		file = hin.ToolInput.NotebookPath
	}
	if file == "" || hin.Cwd == "" {
		return
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(hin.Cwd, file)
	}
	place, err := locate.Find(hin.Cwd, "")
	if err != nil {
		return
	}
	file = locate.Canonical(file) // locate's paths are canonical
	if !slices.ContainsFunc(place.MemoryDirs(), func(dir string) bool { return locate.Within(dir, file) }) {
		return
	}
	if !isDir(place.Store) {
		return // a repository without a store has no cache to mark (a user install runs everywhere)
	}
	if err := search.MarkStale(place.StateDir(), file); err != nil {
		logHookError(place.StateDir(), time.Now(), "post-tool: mark stale: "+err.Error())
	}
}
