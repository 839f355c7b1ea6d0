package verify

// Kind is what a claim asserts.
type Kind string

// The kinds of claim.
const (
	PathExists   Kind = "path_exists"   // Arg: a path relative to the work tree, "/" separated
	BranchExists Kind = "branch_exists" // Arg: a branch name ("release/2026-10", "origin/main")
	PRMerged     Kind = "pr_merged"     // Arg: "231", or "github.com/owner/repo#231" for a PR URL
	URLResponds  Kind = "url_responds"  // Arg: an http(s) URL
	CommitExists Kind = "commit_exists" // Arg: 7-40 hex digits
)

// Kinds lists every kind, in the order reports use.
var Kinds = []Kind{PathExists, BranchExists, PRMerged, URLResponds, CommitExists}

// Sources of a claim.
const (
	SourceText  = "text"  // found by Extract
	SourceModel = "model" // proposed by a model through ModelClaims
)

// Claim is one checkable statement of a memory.
type Claim struct {
	Kind   Kind
	Arg    string
	Source string // SourceText or SourceModel
}

// String is the claim as a reader sees it: "path_exists atlas-api/go.mod".
func (c Claim) String() string { return string(c.Kind) + " " + c.Arg }

// Outcome is the result of probing a claim.
type Outcome string

// The outcomes of a probe.
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Unknown Outcome = "unknown"
)

// Result is one probed claim of one memory.
type Result struct {
	Memory  string
	Claim   Claim
	Outcome Outcome
	Reason  string // for a reader: "path shop/tax.py does not exist"
}

// Rejected is a claim that did not pass validation and was never probed.
type Rejected struct {
	Memory string `json:"memory"`
	Claim  string `json:"claim"` // as given: the model's JSON object, or "kind arg"
	Reason string `json:"reason"`
}
