package main

import (
	"fmt"
	"os"
)

// workDir returns dir, or a new temp dir when dir is empty; cleanup removes
// only a dir it created.
func workDir(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "imbench-")
	if err != nil {
		return "", nil, fmt.Errorf("temp dir: %w", err)
	}
	return tmp, func() { _ = os.RemoveAll(tmp) }, nil
}
