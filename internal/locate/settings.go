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
// follows, the one that wins first: managed policy, the work tree's local
// settings, the user's. The project's committed settings are left out:
// Claude Code takes this key from them only once the person trusts the
// workspace, which mem cannot see, and a cloned repository must not point
// mem at a directory of the person's files. (Settings given with --settings
// on Claude Code's command line are not visible here either.)
func settingsFiles(workTree, claudeDir string) []string {
	var files []string
	switch runtime.GOOS {
	case "linux":
		files = append(files, "/etc/claude-code/managed-settings.json")
	case "darwin":
		files = append(files, "/Library/Application Support/ClaudeCode/managed-settings.json")
	}
	if workTree != "" {
		files = append(files, filepath.Join(workTree, ".claude", "settings.local.json"))
	}
	return append(files, filepath.Join(claudeDir, "settings.json"))
}

// autoMemoryDir is the directory the settings name as autoMemoryDirectory,
// from the first settings file that names a usable one, or "". Claude Code
// takes a value only when it is absolute or starts with ~/; a settings file
// that is missing or not JSON is passed over.
func autoMemoryDir(workTree, claudeDir string) string {
	for _, f := range settingsFiles(workTree, claudeDir) {
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
