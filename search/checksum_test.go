package search

import "testing"

// The cache's checksum is XXH64: these are the reference implementation's
// digests, covering the short tail paths and the 32-byte stripes.
func TestXXH64(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
		{"0123456789abcdef0123456789abcdef0123456789", 0xa76190c3acf08a1c},
		{"The quick brown fox jumps over the lazy dog", 0x0b242d361fda71bc},
	} {
		if got := xxh64([]byte(c.in)); got != c.want {
			t.Errorf("xxh64(%q) = %016x, want %016x", c.in, got, c.want)
		}
	}
}
