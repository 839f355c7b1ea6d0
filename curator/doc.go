// Package curator keeps a memory store from rotting: it finds duplicates,
// memories that cite repository paths that no longer exist, and memories a
// newer one supersedes, and it decides which of those changes may be made
// without a person.
//
// # Invariants
//
//   - It never deletes and never writes. [Run] returns a [Result]: the
//     caller applies each [Decision] (superseded_by on the retired memory,
//     and the kept memory's merged body when there is one, in one commit
//     each) and queues each [ReviewItem]. Retiring is reversible.
//   - Memories that are forgotten, or superseded already, are never retired
//     again; a memory is retired at most once in a run, and one retired in
//     this run is not kept in place of another. One a merge rewrites is
//     neither kept nor retired again in that run: the next run reads the
//     merged text.
//   - A supersession is applied automatically only when [Guards] holds, and
//     never otherwise; nothing here lowers a guard. The four guards are:
//     confidence >= [MinConfidence]; real subject overlap (two shared topics
//     or two shared entities, never one shared technology alone); the same
//     class, or compatible classes (see Classes); full coverage, or partial
//     coverage made whole by a merge (see Merges). The verdict must also be
//     well formed: relation supersedes or duplicate, keep and retire exactly
//     the two memories.
//   - The model answers one pair per call, about two memories named by slug
//     ([PairPrompt]), and fills typed fields only ([Verdict]). It never
//     names a file, a command, or a memory outside the pair. A fold is one
//     more call about a pair it read as overlapping in part ([FoldPrompt]),
//     and a merge one more ([MergePrompt], [Merge]), whose body is checked
//     against both memories before anything is proposed.
//   - Without a model the deterministic parts still run: identical bodies,
//     near-duplicates and dead paths.
//   - Results are deterministic: the same memories and the same answers give
//     the same Result in the same order.
//
// # Subject overlap
//
// Topics are the words of a memory's tags, name and description, and its
// one-word code spans: lower case, stemmed, stopwords, numbers and the words
// that only say what kind of note it is ("rule", "gotcha", "never") dropped,
// and a compound ("atlas-web", "force-push") one topic. Entities are the
// specific things it names: repository paths, URLs, code spans of more than
// one word, and identifiers ("lrk-412", "ledger#118", "formatMoney",
// "atlas-staging-pg16"). A technology's name ("stripe", "Postgres") is a
// topic, never an entity, and it counts once however often it appears: as a
// tag, in the name and in a code span it is one key, and shared keys that
// name one thing are counted as one ("postgres"/"postgresql",
// "stripe"/"stripe-webhook", a path and the code span that runs it). Two
// memories overlap when they share two topics or two entities; one topic
// and one entity is not enough.
//
// # Classes
//
// The class guard stays where a class carries meaning. An event is one
// occasion; beside a rule, a decision or a preference it looks like the
// norm's exception (a Friday hotfix under "never deploy on Fridays"), and
// beside a gotcha, a procedure or a reference it is the story behind a
// standing note: it is never retired for another class, nor another class
// for it. The one exception is a fact: an event (an upgrade, a move) can
// change how things are.
//
// Other classes name one kind of claim in different words, and two
// memories of them may be decided as if of one class:
//
//   - rule, decision and preference all say what to do: a decision is a
//     rule with its reason and date, a preference a rule one person asked
//     for;
//   - fact, gotcha and procedure say how things are here: a gotcha is a
//     fact with the symptom it causes, a procedure the steps a fact implies;
//     a reference (where things live) is a fact too;
//   - a decision changes how things are, so it may supersede a fact.
//
// Between the two groups otherwise (a rule and a fact, a rule and a gotcha,
// a procedure and a reference) a difference is how the store's look-alike
// pairs differ: a fact that is the rule's exception ("docs-only PRs need
// one approval"), the same rule for another codebase, an index and its
// entry. Such a pair is applied only as a duplicate: the same claim
// restated, in full, or merged so that keeping one loses nothing of the
// other (a look-alike pair is a partial overlap, never a duplicate, to the
// model that reads both).
//
// # Merges
//
// A verdict that passes every guard but coverage (supersedes or duplicate,
// coverage partial) asks the model once more ([MergePrompt]) to write the
// kept memory's body again with the retired one's still-true details folded
// in, listing what the kept one changes ([Merge]). The merge is applied, the
// kept memory rewritten and the other retired in one commit, only when
// checkMerge finds nothing wrong, deterministically, from the details both
// memories spell (their paths, code spans, links, numbers and names, as the
// features of Subject overlap read them): every detail of the kept memory is
// in the merged one, and every detail of the retired one, unless an
// "outdated" entry quotes it in the retired memory's words and its
// replacement in the kept memory's; no detail is added that neither says;
// nothing looks like a secret; a supersession has something outdated and a
// duplicate nothing. A merge refused only for details it dropped or added
// is asked for once more, with the first answer and what the check found
// ([MergeAgainPrompt]); otherwise, or when the second answer is refused
// too, the pair goes to review with what the merge dropped or added. A merge relies on the verdict that one memory replaces
// the other; for a look-alike pair of one class taken for a supersession,
// its merge finds nothing outdated, and the pair is queued.
//
// # Folds
//
// The pair prompt's "partial" takes in two different things: notes that
// share some details but are about different subjects or scopes, and one
// subject written twice with different details, which a careful teammate
// merges. Its "duplicate" reads as "says the same thing", so the model
// seldom calls the second one. A pair read as partial is therefore asked
// about once more ([FoldPrompt], [Fold]): one note written twice, or two
// notes? Only where an answer of one could be applied: a merge of the two
// as duplicates must pass every guard but the confidence still to come,
// so a rule and a look-alike event are never asked. An answer of one note
// is the verdict duplicate with partial coverage, decided as any other
// (every guard, then the merge and its check); two notes, or a failed
// call, leave the pair as the first reading did.
//
// # Candidate pairs
//
// [CandidatePairs] relates memories the way an index would (shared topics,
// entities and distinctive body words, weighted by inverse document
// frequency, and links from one memory to another's file) and keeps each
// memory's few best neighbours: a few pairs per memory, never every pair.
//
// # Review queue
//
// What the curator does not apply on its own waits for a person in
// [ReviewFile] (`mem review`, `mem review accept|reject ID`), at the top of
// the store and committed, so the team shares it: JSON Lines, one [Review] a
// line, oldest first; blank lines are skipped. An item's ID is the first 8
// hex digits of the SHA-256 of its two sides in sorted order, NUL-separated
// (for a rule, its text rather than its FILE:LINE, so it keeps its identity
// when the line moves): the same pair is never queued twice, whatever its
// status. An item is queued pending and leaves that state once, to accepted
// or rejected, by a person's decision ([Decide]); a decided item stays in
// the file as the record of it.
package curator
