//go:build !unix

package main

import "os"

// minorFaults is not reported on this platform.
func minorFaults(*os.ProcessState) int64 { return 0 }
