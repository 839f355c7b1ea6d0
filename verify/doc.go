// Package verify checks what memories claim about the repository they live in.
//
// A memory's checkable statements become typed claims ([Claim]): a path
// exists, a branch exists, a pull request was merged, a URL responds, a commit
// exists. [Extract] finds them deterministically in the markdown; [ModelClaims]
// lets a language model add more, but only as typed arguments. Every claim,
// whatever its source, passes [Validate] before anything looks at it, and a
// [Prober] then checks it against the work tree, the git objects and
// (optionally) the network. [Run] does all of it for a set of memories and
// returns a [Report]; [Labels] turns the failures into the frontmatter entries
// ("unverified: [...]") that retrieval shows next to a memory.
//
// # Invariants
//
//   - Nothing runs a shell. Paths are looked at with os.Root, git through
//     gitstore (fixed git commands; a model's argument reaches git only as a
//     commit name of hex digits, checked first), URLs with net/http HEAD and
//     GET requests whose bodies are never read. A model supplies only a kind and one typed
//     argument; it never supplies a command, a flag or a file to write.
//   - Validation comes first. A path is relative, has no ".." and no shell
//     metacharacter, and does not leave the work tree through a symlink; a
//     branch is a valid git ref name that does not start with '-'; a pull
//     request is a positive integer; a URL is http or https with a host and no
//     credentials; a commit id is 7-40 hex digits. Anything else, an unknown
//     kind included, is rejected with a reason and never probed.
//   - Evidence both ways. A claim "failed" only when the repository can prove
//     it false: a path that exists nowhere in the work tree (not at the root,
//     not under a top-level directory, not as the tail of any path) while its
//     first directory does exist; a branch missing from local and fetched
//     remote-tracking refs; a pull request that no merge or squash commit
//     names in a full history that does name pull requests; a commit object
//     missing from a full clone. Everything it cannot decide is "unknown".
//   - A URL can prove life, never death: 2xx and 3xx pass, and a timeout, a
//     refusal or an error status is "unknown". Without an HTTP client there
//     is no network and every URL claim is unknown. Only public URLs are
//     probed, whoever names them (the extractor or a model): a loopback,
//     private or link-local address, or a local name (localhost, *.internal,
//     *.local, example.com), is refused by Validate, and NewHTTPClient's
//     dialer refuses such an address again when a public name resolves to
//     one. The extractor emits only claims Validate accepts.
//   - Claims are what a memory spells. Extract reads the description and
//     body as written: markdown emphasis never removes a character from a
//     claim ("db/queries/*.sql" is not "db/queries/.sql"), and markup never
//     joins two pieces into one.
//   - A glob is not a path claim, nor is its directory part. "output lands
//     in internal/store/*.sql.go" states a rule about files of a kind, often
//     generated or ignored ones that a fresh clone lacks: a pattern that
//     matches nothing today is no evidence that the memory is wrong, and a
//     false label costs more than a missed claim.
//   - Moods are not facts. Only "merged" is extracted for a pull request; an
//     open, closed or pending one yields no claim.
//
// # Labels
//
// A failed claim becomes one entry of a memory's "unverified" list: the
// human reason and the day it was found, "path shop/tax.py does not exist
// (2026-11-21)". [Merge] keeps the first date of a failure that persists.
package verify
