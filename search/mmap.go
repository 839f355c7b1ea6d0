package search

import "errors"

// errNotRegular refuses a cache path that is not a regular file (a FIFO, a
// device): reading it could wait or never end.
var errNotRegular = errors.New("not a regular file")
