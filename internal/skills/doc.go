// Package skills drafts Claude Code skills from what recurs in past
// sessions, and lets a person promote or reject them. It is the opposite of
// autonomous: nothing here becomes a skill without a person's act.
//
// # Flow
//
// Candidates counts, from the transcript index (package sessions), the
// command sequences that recur in at least three separate sessions (see
// Candidates for the rule). Scan asks the model to draft a skill for each
// new candidate that has a recorded failure to prevent, passes every draft
// through the Gate, and writes the admitted ones as inert drafts, one
// commit for the scan. A person then runs promote (the draft becomes a
// skill) or reject (the draft is removed and remembered).
//
// # The gate
//
// A structural check, never a judgement in prose: see Gate.Check. A draft
// is admitted only when it names a failure that quotes an indexed error of
// a session it cites, every path it cites exists in the work tree, its body
// fits one page (60 lines, 4,000 bytes), its name shadows no built-in
// command (Builtins), skill, draft or rejected draft, the index (not the
// model) saw its procedure in at least three sessions, and its
// justification says what goes wrong without it rather than only that it
// saves time. A rejected draft is reported with every gate it failed.
//
// # On disk (relative to the work tree)
//
//	.claude/skill-drafts/NAME/SKILL.md   a draft: outside Claude Code's skill
//	                                     folders, so its description never
//	                                     enters anyone's context
//	.claude/skill-drafts/rejected.json   [{"name","procedure","date","reason"}]
//	.claude/skills/NAME/SKILL.md         a promoted skill
//
// SKILL.md is YAML frontmatter (name, description, and under metadata:
// drafted-by, procedure, failure-prevented, justification,
// evidence-sessions, seen-in-sessions) and the body. Every write is one
// commit made through a gitstore.Store rooted at <work tree>/.claude, with
// the actions skill-draft, skill-promote and skill-reject: confined to
// .claude, touching only its own paths, leaving staged work alone, and
// listed by mem log and revertible by mem undo like any mem commit.
package skills
