package search_test

import (
	"github.com/mem-dev/mem/internal/indexer"
	"github.com/mem-dev/mem/search"
)

// The internal tests load stores with the product's own conversion.
func init() { search.SetDocOf(indexer.Doc) }
