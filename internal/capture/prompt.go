package capture

import (
	"fmt"
	"strings"

	"github.com/mem-dev/mem/internal/class"
)

// Prompt returns the instructions for one capture call: what is worth
// keeping from the session condensed in digest (Session.Digest), at most max
// memories (max <= 0 means DefaultMax), the related memories the store
// already holds, and the JSON shape of the answer, {"memories":[...]}, with
// an empty list when nothing durable was learned.
//
// A change to this text is a change to every recorded answer: the cassettes
// that replay a real model's answers hold them by the prompt's hash.
func Prompt(digest string, held []Held, max int) string {
	if max <= 0 {
		max = DefaultMax
	}
	var b strings.Builder
	fmt.Fprintf(&b, `You are reviewing a coding session between a developer and an AI coding agent. Propose at most %d memories worth keeping for future sessions on this project, and only those a future session would be worse off without.

A memory is durable knowledge that a future session cannot get from the code, the git history or the docs:
- a decision and why it was made (the alternative rejected and the reason);
- a gotcha: something that failed or surprised, its cause, and how to avoid it;
- a procedure: the steps that actually worked for a task that will come back (exact commands are fine);
- a rule or preference the developer stated ("always…", "never…", "I prefer…"), in their own terms;
- a fact about the environment that had to be discovered (a port, a service's quirk, where something lives).

Keep only what the session ended up knowing. Sessions often state a belief, test it and drop it: read each belief's whole arc, to the end of the session, before you write anything.
- A belief the session overturned (the developer said it was wrong, a later line took it back, the run after a "fix" still failed) is never stored as true. Keep the final truth instead. Where the wrong belief is a trap the next session could fall into again, say so explicitly as not the cause ("it is not X: …"), inside the memory of the truth or, when the session found none, as a gotcha of its own.
- A hypothesis nobody confirmed (a suspect, a guess, a "probably", a session parked before the cause was found) is not a fact: propose nothing about it, and no rule, gotcha or procedure that rests on it. Only if the developer asked for a note of it, propose it with "basis": "open"; it is stored as an open question.
- Do not turn something that happened once in this session into general advice the session did not test.
A deterministic pass marked some lines: [overturned by L…], [hypothesis, never confirmed], [hypothesis, confirmed by L…]. It misses arcs and can be wrong: read the lines themselves, and trust what the session found last.

Do not propose:
- what the code, a file or a commit already says (what a function does, which files were edited, that tests pass);
- a summary or diary of the session, progress reports, or plans for the next step;
- anything only true for this session (a temporary branch state, an error that was simply fixed by a typo);
- what a memory listed below already says. If the session showed one of them wrong or out of date, propose the whole corrected memory with "updates" set to its slug; if the session only repeats or relies on one, propose nothing for it;
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
- "basis": "shown" when a run, test, output or measurement in the session showed it; "stated" when the developer stated it (a decision, rule, preference, or a fact they know); "open" only for an open question the developer asked to note.
- "lines": the numbers of the session lines it rests on, e.g. [12, 15].
- "updates": the slug of the listed memory it corrects, or "".

Answer with JSON only, no prose and no code fence:
{"memories":[{"name":"...","description":"...","class":"decision","importance":7,"tags":["..."],"body":"...","why":"...","basis":"stated","lines":[3,5],"updates":""}]}
or, when nothing is worth keeping:
{"memories":[]}

`, max, strings.Join(class.Names, ", "))
	b.WriteString("Memories the store already holds that look related to the session (slug (class): name — description):\n")
	if len(held) == 0 {
		b.WriteString("(none)\n")
	}
	for _, h := range held {
		fmt.Fprintf(&b, "- %s (%s): %s — %s", h.Slug, h.Class, oneLine(h.Name, maxName), oneLine(h.Description, maxDescription))
		if h.Earlier {
			b.WriteString(" [written from the earlier part of this session]")
		}
		b.WriteByte('\n')
	}
	b.WriteString(`
The session, condensed: one numbered line per human prompt (user), assistant message (assistant), tool call (tool), shell output (out, its head and tail) and failed tool call (error); "…" marks a cut. Lines under [captured before; context only] were captured already: propose memories only for what the new lines add.
<session>
`)
	b.WriteString(digest)
	b.WriteString("\n</session>\n")
	return b.String()
}
