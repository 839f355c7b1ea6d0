package gitstore

// Actions name what a mem commit did: its subject is "mem: <action> <slug>"
// and its first trailer "Mem-Action: <action>". mem log, mem undo and the
// web page's audit trail read them back, so each is declared here once, its
// constant named after it; a new kind of commit adds its action here, and a
// renamed one changes here only (the history already written keeps the old
// name).
const (
	ActionStore           = "store"     // a new memory (mem store, memory_store)
	ActionSupersede       = "supersede" // a new memory, or a curation, that retires another (superseded_by)
	ActionMerge           = "merge"     // a curation that merged two memories into the kept one
	ActionEdit            = "edit"      // a memory's whole file replaced (mem edit, mem hook edits)
	ActionUpdate          = "update"    // some of a memory's fields changed (memory_update)
	ActionForget          = "forget"    // a memory marked forgotten
	ActionUndo            = "undo"      // the revert of another mem commit (TrailerUndo names it)
	ActionEnrich          = "enrich"    // aliases written by a model
	ActionLearnAlias      = "learn-alias"
	ActionCapture         = "capture" // memories proposed from a session
	ActionVerify          = "verify"  // claims probed and labelled
	ActionRegenerateIndex = "regenerate-index"
	ActionReviewQueue     = "review-queue"  // the review queue rewritten by a curation
	ActionReviewAccept    = "review-accept" // a review item acknowledged
	ActionReviewReject    = "review-reject"
	ActionDemote          = "demote" // profile lines that left the profile as memories
	ActionProfileAdd      = "profile-add"
	ActionProfileUpdate   = "profile-update"
	ActionProfileRm       = "profile-rm"
	ActionProfileMigrate  = "profile-migrate" // a team profile moved out of the store
	ActionSkillDraft      = "skill-draft"     // skill drafts written by a scan
	ActionSkillPromote    = "skill-promote"   // a draft made a skill
	ActionSkillReject     = "skill-reject"    // a draft removed, and remembered
)

// Trailer keys of mem commits. Apply writes TrailerAction first, from
// CommitInfo.Action; the others come from CommitInfo.Trailers.
const (
	TrailerAction        = "Mem-Action"
	TrailerSlug          = "Mem-Slug"       // the memory concerned, where the subject names another or none
	TrailerSupersedes    = "Mem-Supersedes" // the memory a store retired
	TrailerKeep          = "Mem-Keep"       // the memory a curation kept
	TrailerConfidence    = "Mem-Confidence"
	TrailerReason        = "Mem-Reason"
	TrailerGuards        = "Mem-Guards"   // the curator's guards that held
	TrailerOutdated      = "Mem-Outdated" // an entry a merge found outdated, whole
	TrailerReview        = "Mem-Review"   // the review item an accept ruled on
	TrailerUndo          = "Mem-Undo"     // the commit an undo reverted
	TrailerAlias         = "Mem-Alias"    // an alias learned from use
	TrailerSession       = "Mem-Session"  // the session a capture read
	TrailerNote          = "Mem-Note"     // why a capture kept a proposal against a mark
	TrailerMoved         = "Mem-Moved"    // the catalog lines a regeneration moved
	TrailerProcedure     = "Mem-Procedure"
	TrailerProfileAdd    = "Mem-Profile-Add"
	TrailerProfileUpdate = "Mem-Profile-Update"
	TrailerProfileRm     = "Mem-Profile-Rm"
	TrailerProfileSize   = "Mem-Profile-Size"
	TrailerDemoted       = "Mem-Demoted"
)
