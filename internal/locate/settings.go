package locate

import (
	"path/filepath"
	"runtime"

	"github.com/mem-dev/mem/internal/jsonscan"
	"github.com/mem-dev/mem/internal/rawfile"
)

// autoMemorySetting is the settings key that moves Claude Code's auto
// memory out of ~/.claude/projects/<project>/memory.
const autoMemorySetting = "autoMemoryDirectory"

// settingsFiles are the settings files whose autoMemoryDirectory mem
// follows, the one that wins first: managed policy, then the user's. No
// file inside the work tree is followed, neither the project's settings.json
// nor its settings.local.json: Claude Code takes this key from a project's
// settings only once the person trusts the workspace, which mem cannot see,
// and settings.local.json, though meant to stay local, can be committed like
// any file (mem cannot tell on the prompt path whether it is), so a cloned
// repository could point mem at any directory of the person's files and
// have its markdown injected and served. (Settings given with --settings on
// Claude Code's command line are not visible here either.)
func settingsFiles(claudeDir string) []string {
	var files []string
	switch runtime.GOOS {
	case "linux":
		files = append(files, "/etc/claude-code/managed-settings.json")
	case "darwin":
		files = append(files, "/Library/Application Support/ClaudeCode/managed-settings.json")
	}
	return append(files, filepath.Join(claudeDir, "settings.json"))
}

// autoMemoryDir is the directory the settings name as autoMemoryDirectory,
// from the first settings file that names a usable one, or "". Claude Code
// takes a value only when it is absolute or starts with ~/; a settings file
// that is missing or not JSON is passed over.
func autoMemoryDir(claudeDir string) string {
	for _, f := range settingsFiles(claudeDir) {
		data, err := rawfile.ReadFile(f)
		if err != nil {
			continue
		}
		if dir := ExpandHome(settingString(data, autoMemorySetting)); filepath.IsAbs(dir) {
			return filepath.Clean(dir)
		}
	}
	return ""
}

// settingString returns the string value of a top-level key of a settings
// document, or "" when it has none or is not a JSON object.
func settingString(data []byte, key string) string {
	s := jsonscan.New(data)
	if s.Kind() != '{' {
		return ""
	}
	var val string
	err := s.Object(func(k []byte) error {
		if string(k) != key {
			return s.Skip()
		}
		val = "" // the last of duplicate keys wins, as in encoding/json
		if s.Kind() != '"' {
			return s.Skip()
		}
		v, err := s.String()
		val = v
		return err
	})
	if err != nil || s.End() != nil {
		return ""
	}
	return val
}
