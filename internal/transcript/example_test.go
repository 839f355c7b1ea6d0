package transcript_test

import (
	"fmt"

	"github.com/mem-dev/mem/internal/transcript"
)

func ExampleReadFrom() {
	var offset int64 // kept between calls, e.g. in a state file
	offset, err := transcript.ReadFrom("testdata/sample.jsonl", offset, func(e transcript.Entry) error {
		for _, u := range e.ToolUses {
			fmt.Println(u.Name, u.Command+u.FilePath)
		}
		if e.Prompt != "" {
			fmt.Printf("prompt: %q\n", e.Prompt)
		}
		return nil
	})
	fmt.Println("resume at", offset, err)
	// Output:
	// prompt: "Why is VAT off by one cent?"
	// Bash grep -rn round shop/
	// Edit /w/shop/tax.py
	// NotebookEdit /w/nb.ipynb
	// prompt: "Now also round <b>per line</b> in refunds"
	// resume at 3361 <nil>
}

func ExampleLastAssistantText() {
	text, err := transcript.LastAssistantText("testdata/sample.jsonl")
	fmt.Println(text, err)
	// Output: Done: VAT now rounds per line. <nil>
}
