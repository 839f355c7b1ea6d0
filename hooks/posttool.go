package hooks

import (
	"encoding/json"
	"io"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/fresh"
	"github.com/mem-dev/mem/locate"
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
// agent touched a file in the store, the personal store, the local one or
// the user one, it marks the search cache stale so the next prompt checks
// every file. It prints nothing and never fails.
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
	personal, _ := locate.PersonalStore(place.MainWorkTree())
	if !locate.Within(place.Store, file) && !locate.Within(personal, file) && !locate.Within(place.Local(), file) &&
		!locate.Within(locate.UserAgents(), file) {
		return
	}
	if err := fresh.Mark(place.CacheDir()); err != nil {
		logHookError(place.CacheDir(), time.Now(), "post-tool: mark stale: "+err.Error())
	}
}
