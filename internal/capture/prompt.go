package capture

import (
	"fmt"
	"strings"

	"github.com/mem-dev/mem/mdparse"
)

// Prompt returns the instructions for one capture call: what is worth
// keeping from the session condensed in digest, at most max memories
// (max <= 0 means DefaultMax), and the JSON shape of the answer,
// {"memories":[...]}, with an empty list when nothing durable was said.
func Prompt(digest string, max int) string {
	if max <= 0 {
		max = DefaultMax
	}
	var b strings.Builder
	fmt.Fprintf(&b, `You are reviewing a finished coding session between a developer and an AI coding agent. Propose at most %d memories worth keeping for future sessions on this project, and only those a future session would be worse off without.

A memory is durable knowledge that a future session cannot get from the code, the git history or the docs:
- a decision and why it was made (the alternative rejected and the reason);
- a gotcha: something that failed or surprised, its cause, and how to avoid it;
- a procedure: the steps that actually worked for a task that will come back (exact commands are fine);
- a rule or preference the developer stated ("always…", "never…", "I prefer…"), in their own terms;
- a fact about the environment that had to be discovered (a port, a service's quirk, where something lives).

Do not propose:
- what the code, a file or a commit already says (what a function does, which files were edited, that tests pass);
- a summary or diary of the session, progress reports, or plans for the next step;
- anything only true for this session (a temporary branch state, an error that was simply fixed by a typo);
- secrets, tokens, passwords or personal data.
Fewer is better: if nothing durable was learned, answer with an empty list. Never invent; every memory must be supported by the session.

For each memory:
- "name": a short title a teammate would recognise (at most 8 words).
- "description": one sentence: the claim itself, specific enough to act on.
- "class": one of %s.
- "importance": 1-10, how much the next session loses if it does not see this.
- "tags": 1-4 lower-case topic words (component, tool, area).
- "body": the knowledge itself, self-contained, at most 1200 characters, in plain markdown. Name concrete things (paths, commands, services, versions).
- "why": the reason it holds or matters: why the decision was made, what caused the gotcha, what breaks if ignored. Empty only for a stated preference with no reason given.

Answer with JSON only, no prose and no code fence:
{"memories":[{"name":"...","description":"...","class":"decision","importance":7,"tags":["..."],"body":"...","why":"..."}]}
or, when nothing is worth keeping:
{"memories":[]}

The session, condensed (one line per human prompt, assistant message and tool call; "…" marks a cut):
<session>
`, max, strings.Join(mdparse.Classes, ", "))
	b.WriteString(digest)
	b.WriteString("\n</session>\n")
	return b.String()
}
