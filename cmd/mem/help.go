package main

import (
	"fmt"
	"strings"
)

// helpCmd is `mem help [COMMAND...]`: the same help as --help, for people
// who type help first, and `mem help model`, the model command's contract.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to explain (e.g. store, or hook prompt), or model for the model command's contract."`
}

func (c helpCmd) Run(e *env) error {
	if len(c.Command) == 1 && c.Command[0] == "model" {
		_, err := fmt.Fprint(e.stdout, modelHelp)
		return err
	}
	// Parse again with --help: kong prints the help of what it names, or
	// says which command it does not know.
	return exitError(run(append(c.Command, "--help"), e.stdin, e.stdout, e.stderr))
}

// modelHelp is the contract between mem's offline passes and the model
// command. The README quotes it whole (TestModelHelpInReadme).
var modelHelp = strings.ReplaceAll(`The model command

The offline passes (capture, enrich, curate, verify's claim extractor, and
sweep, which runs the last three) ask a model through a command: by default
claude -p --output-format json, or MEM_MODEL_CMD, split into words as a
shell would (quotes, backslashes) and run without one: no pipes, no $VARS,
no ~. MEM_MODEL_TIMEOUT (a Go duration, default 120s) bounds each call.

One call runs the command once, in a fresh empty directory, with
MEM_MODEL_CALL=1 in its environment:
  stdin   the prompt, UTF-8 text, then end of file
  stdout  the answer: one JSON object and nothing else, or Claude's envelope
          {"type":"result","subtype":"success","is_error":false,"result":"TEXT"}
          whose TEXT holds the JSON object (alone, in a ''json fence, or in
          prose); at most 4 MiB
  stderr  anything; its last line is quoted when the call fails
  exit    0 with an answer; any other status is a failed call

The answer has the fields the prompt asks for and no others:
  capture  {"memories":[{"name":"...","description":"...","class":"gotcha",
           "importance":7,"tags":["..."],"body":"...","why":"...",
           "basis":"shown|stated|open","lines":[3,5],"updates":""}]}
           {"memories":[]} says the session holds nothing worth storing
  enrich   {"aliases":{"SLUG":["...","..."]}}, an entry per memory asked about
  curate   {"relation":"supersedes|duplicate|partial|unrelated","keep":"SLUG",
           "retire":"SLUG","confidence":0.9,"coverage":"full|partial",
           "reason":"..."}, for a pair it read as partial
           {"notes":"one|two","keep":"SLUG","confidence":0.8,"reason":"..."},
           for a rule and a memory {"tension":true,"reason":"..."}, and to
           merge a pair {"body":"...","outdated":[{"old":"...","new":"..."}]}
  verify   {"claims":[{"kind":"path_exists","path":"..."}]}
           {"claims":[]} says the memory has nothing to check

A failed call: an exit status other than 0, no answer within the timeout,
an envelope with is_error true, no JSON object on stdout, a field not asked
for, anything after the object, or an empty answer: {} or a null where a
list is asked for (capture's "memories", verify's "claims"), a verdict
without a "relation", a merge without a "body", a second reading of a
pair without "notes", an enrich answer with no
alias for any memory it asked about. A failed call is logged and made once
more. When that one fails too it is reported and nothing is recorded as
done from it: capture, enrich and curate stop with the error (exit 1), but
a failed merge only sends its pair to review, and a failed second reading
leaves its pair as the first read it; capture does not mark the
session captured, enrich commits what the calls before it answered and
leaves every other alias as it was, curate applies nothing. verify names
the memory on stderr and probes the claims it finds without a model. An
enrich answer that leaves out some of the memories asked about leaves
those as they were ("skipped: the model wrote no aliases for it").
`, "''", "```")
