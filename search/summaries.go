package search

// Summaries returns every document as Docs does but without its body and
// aliases, the bulk of a record: what a listing of the memories reads. If a record is
// corrupt it returns nil and Err reports ErrCorrupt.
func (ix *Index) Summaries() []Doc {
	docs := make([]Doc, 0, ix.nDocs)
	for id := range ix.nDocs {
		d, ok := decodeRecord(ix, id, decodeSummary)
		if !ok {
			return nil
		}
		docs = append(docs, d)
	}
	return docs
}
