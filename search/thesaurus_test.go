package search

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateThesaurus = flag.Bool("update-thesaurus", false, "rewrite thesaurus_table.go from thesaurusSource")

// thesaurusSource is the thesaurus as written: general software-engineering
// abbreviations and near-synonyms, from general knowledge (not from any
// store or battery). A line "a b c" is a set of near-synonyms: each maps to
// the others. A line "a b > c d" maps each of a, b to c, d only (one way).
// Multi-word phrases are joined with "_" and expand to their words.
var thesaurusSource = []string{
	// environments and shipping
	"prod production",
	"live > production prod",
	"staging stg preprod",
	"dev > development local",
	"env environment",
	"deploy deployment release ship rollout",
	"hotfix > fix patch emergency release",
	"rollback revert",
	"weekend > friday saturday",
	"freeze > release deploy",
	// incidents and operations
	"outage incident downtime",
	"down > outage incident",
	"5xx 500 502 503 504 > error outage incident",
	"postmortem retro > incident",
	"oncall on-call pager > incident alert",
	"alert alarm",
	"runbook playbook procedure checklist steps",
	"dashboard > metrics monitoring grafana",
	"metrics > dashboard monitoring",
	"monitoring observability > dashboard metrics",
	"latency > slow performance",
	"slow > latency performance",
	"perf performance speed",
	"logs logging",
	"crash > panic error exception",
	"exception > error",
	// code and review
	"pr pull_request",
	"mr merge_request",
	"repo repository",
	"reviewer > review approval",
	"lgtm > approve review",
	"ci pipeline > checks workflow build",
	"gh > github",
	"k8s kubernetes",
	"db database",
	"pg postgres postgresql",
	"sql > query database",
	"config configuration settings",
	"auth authentication login",
	"authz authorization permissions",
	"creds credentials secrets",
	"docs documentation",
	"spec > test",
	"e2e end-to-end",
	"a11y accessibility",
	"i18n localization translation",
	"tz timezone",
	"refactor rename restructure",
	"ui frontend",
	"backend > api server",
	"deps dependencies",
	"upgrade > bump version",
	"cron > scheduled job",
	"queue > worker job",
	"ticket issue",
	// people and communication
	"dm > message slack",
	"ping > message slack",
	"mockup mock-up wireframe > design figma",
	"designer > design",
	"customer client",
	"email mail",
	"onboarding > new setup",
	"owner maintainer",
	// money
	"payment billing charge",
	"refund chargeback",
	"sub subscription",
	"invoice receipt",
}
