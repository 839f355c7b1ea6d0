package gitstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/locate"
)

// A memory is stored as one commit, and read back from the log.
func ExampleStore_Apply() {
	dir, err := os.MkdirTemp("", "mem-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// locate finds where the store and its repository are; Init makes the
	// store, and a repository for it when there is none.
	place, err := locate.Find(dir, filepath.Join(dir, "memory"))
	if err != nil {
		log.Fatal(err)
	}
	s, _, err := gitstore.Init(place)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	unlock, err := s.Lock(ctx)
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.Apply(ctx,
		[]gitstore.Change{{Path: "vat-rounding.md", Data: []byte("VAT is rounded per line.\n")}},
		gitstore.CommitInfo{Action: "store", Slug: "vat-rounding", Trailers: []gitstore.Trailer{{Key: "Mem-Confidence", Value: "0.82"}}})
	unlock()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("committed:", res.Committed)

	entries, err := s.Log(context.Background(), 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Subject, e.Trailers)
	}
	// Output:
	// committed: true
	// mem: store vat-rounding [{Mem-Action store} {Mem-Confidence 0.82}]
}
