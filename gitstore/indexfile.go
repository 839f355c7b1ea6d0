package gitstore

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
)

// errIndexFormat is returned by readIndexEntries for an index it does not
// read (a split or sparse index, an unknown version): the caller asks git.
var errIndexFormat = errors.New("index format not read in process")

// readIndexEntries reads the stage-0 entries of paths from the index file at
// path, in the format of gitformat-index(5), versions 2 to 4, for object
// names of hashSize bytes. Each path gets one entry, with a zero Mode when
// the index does not hold it. A missing file holds nothing. An index that
// splits its entries off (the "link" extension) or keeps sparse directories
// ("sdir") fails with errIndexFormat, as does anything it does not know.
func readIndexEntries(path string, paths []string, hashSize int) ([]entry, error) {
	found := map[string]entry{}
	err := readIndexOf(path, paths, hashSize, func(name string, mode uint32, hash []byte, flags, _ uint16) {
		if stage := (flags >> 12) & 3; stage == 0 {
			found[name] = entry{Path: name, Mode: mode, Hash: hex.EncodeToString(hash)}
		}
	})
	if err != nil {
		return nil, err
	}
	entries := make([]entry, len(paths))
	for i, p := range paths {
		entries[i] = found[p]
		entries[i].Path = p
	}
	return entries, nil
}

// indexReads counts the index files read in process, for tests: the index
// holds every file of the project, so each read of it costs a commit more as
// the project grows (0.2 ms at 3,600 entries), where the store does not.
var indexReads atomic.Int64

// readIndexOf calls fn for each entry of the index file at path whose path
// is one of paths (walkIndex). A missing file holds nothing.
func readIndexOf(path string, paths []string, hashSize int, fn func(name string, mode uint32, hash []byte, flags, ext uint16)) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	indexReads.Add(1)
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	return walkIndex(data, hashSize, func(name []byte, mode uint32, hash []byte, flags, ext uint16) {
		if want[string(name)] {
			fn(string(name), mode, hash, flags, ext)
		}
	})
}

// Flags of an index entry (gitformat-index(5)).
const (
	flagAssumeValid  = 0x8000 // in flags: git update-index --assume-unchanged
	flagExtended     = 0x4000 // in flags: extended flags follow
	flagSkipWorktree = 0x4000 // in the extended flags
)

// readIndexStates reads what the index file at path says of each of paths
// beyond its content: whether it holds the path, and the flags and stages
// that make git update-index ignore or misread the work tree (see
// pathState). It fails with errIndexFormat as readIndexEntries does.
func readIndexStates(path string, paths []string, hashSize int) ([]pathState, error) {
	found := map[string]pathState{}
	err := readIndexOf(path, paths, hashSize, func(name string, _ uint32, _ []byte, flags, ext uint16) {
		found[name] = found[name].with((flags>>12)&3 != 0, flags&flagAssumeValid != 0, ext&flagSkipWorktree != 0)
	})
	if err != nil {
		return nil, err
	}
	return statesOf(paths, found), nil
}

// walkIndex calls fn for each entry of the index data, in order, with its
// path, mode, object name, flags and extended flags (0 without them), and
// refuses the extensions that change what the entries mean.
func walkIndex(data []byte, hashSize int, fn func(name []byte, mode uint32, hash []byte, flags, ext uint16)) error {
	if len(data) < 12+hashSize || string(data[:4]) != "DIRC" {
		return fmt.Errorf("%w: not an index", errIndexFormat)
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return fmt.Errorf("%w: version %d", errIndexFormat, version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	body := data[:len(data)-hashSize]
	off := 12
	var prev, name4 []byte // version 4 builds each path on the previous one, in name4
	for i := uint32(0); i < n; i++ {
		start := off
		if off+40+hashSize+2 > len(body) {
			return fmt.Errorf("%w: truncated", errIndexFormat)
		}
		mode := binary.BigEndian.Uint32(body[off+24 : off+28])
		hash := body[off+40 : off+40+hashSize]
		flags := binary.BigEndian.Uint16(body[off+40+hashSize:])
		off += 40 + hashSize + 2
		var ext uint16
		if flags&flagExtended != 0 {
			if version < 3 {
				return fmt.Errorf("%w: extended flags in version 2", errIndexFormat)
			}
			if off+2 > len(body) {
				return fmt.Errorf("%w: truncated", errIndexFormat)
			}
			ext = binary.BigEndian.Uint16(body[off:])
			off += 2
		}
		var name []byte
		if version == 4 {
			// The path is the previous one less N bytes, plus a NUL-ended suffix.
			strip, k := offsetVarint(body[off:])
			if k == 0 || strip > uint64(len(prev)) {
				return fmt.Errorf("%w: bad path prefix", errIndexFormat)
			}
			off += k
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return fmt.Errorf("%w: truncated", errIndexFormat)
			}
			name4 = append(name4[:uint64(len(prev))-strip], body[off:off+end]...)
			name = name4
			off += end + 1
		} else {
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return fmt.Errorf("%w: truncated", errIndexFormat)
			}
			name = body[off : off+end]
			// NUL-padded to a multiple of 8 bytes, at least one NUL.
			off = start + (off+end-start+8)&^7
		}
		prev = name
		fn(name, mode, hash, flags, ext)
	}
	// Extensions: refuse the ones that change what the entries mean.
	for off+8 <= len(body) {
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		if sig == "link" || sig == "sdir" {
			return fmt.Errorf("%w: extension %s", errIndexFormat, sig)
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			return fmt.Errorf("%w: required extension %q", errIndexFormat, sig)
		}
		off += 8 + size
	}
	return nil
}

// offsetVarint decodes git's offset varint (each continuation adds one
// before shifting); k is the number of bytes read, 0 when truncated.
func offsetVarint(b []byte) (v uint64, k int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v = uint64(c & 0x7f)
	k = 1
	for c&0x80 != 0 {
		if k >= len(b) || k > 9 {
			return 0, 0
		}
		c = b[k]
		k++
		v = ((v + 1) << 7) | uint64(c&0x7f)
	}
	return v, k
}
