package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README quotes the model command's contract as `mem help model`
// prints it, whole, so the two cannot part.
func TestModelHelpInReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```text\n"+modelHelp+"```\n") {
		t.Error("README.md does not quote modelHelp (mem help model) as it is: copy the output of `mem help model` into its block")
	}
}
