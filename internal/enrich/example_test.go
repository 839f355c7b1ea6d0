package enrich_test

import (
	"fmt"

	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/mdparse"
)

func ExampleFilter() {
	m := mdparse.New(mdparse.Fields{Name: "Production deploy incident", Tags: []string{"deploy"}}, "The API was down for 20 minutes.")
	kept, dropped := enrich.Filter(m, []string{
		"I'm about to wreck prod",
		"deploying to production", // the memory's own words
		"api down after release",
		"how do I do this?", // no content words
	})
	fmt.Printf("%q\n", kept)
	fmt.Println(dropped["deploying to production"])
	fmt.Println(dropped["how do I do this?"])
	// Output:
	// ["I'm about to wreck prod" "api down after release"]
	// copies the memory's own terms
	// no content words
}
