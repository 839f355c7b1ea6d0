package skills

// Builtins are Claude Code's built-in slash commands and bundled skills,
// with their aliases, as listed by its documentation and /help in 2026. A
// skill named like one of them would shadow it (or be shadowed), so no
// draft may take these names. The list is generous on purpose: a name
// refused wrongly costs a rename, a shadowed command costs confusion.
var Builtins = map[string]bool{}

func init() {
	for _, n := range []string{
		"add-dir", "agents", "allowed-tools", "batch", "bashes", "branch", "btw", "bug", "checkpoint", "chrome",
		"clear", "color", "compact", "config", "context", "continue", "copy", "cost", "debug", "desktop", "diff",
		"doctor", "effort", "exit", "export", "extra-usage", "fast", "feedback", "files", "fork", "help", "hooks",
		"ide", "init", "insights", "install-github-app", "install-slack-app", "keybindings", "login", "logout",
		"loop", "mcp", "memory", "migrate-installer", "mobile", "model", "new", "output-style", "passes",
		"permissions", "plan", "plugin", "plugins", "pr-comments", "pr_comments", "privacy-settings", "quit",
		"release-notes", "reload-plugins", "remote-control", "remote-env", "remove-dir", "rename", "reset",
		"resume", "review", "rewind", "sandbox", "security-review", "settings", "simplify", "skills", "stats",
		"status", "statusline", "stickers", "tasks", "terminal-setup", "theme", "todos", "upgrade", "usage",
		"vim",
	} {
		Builtins[n] = true
	}
}
