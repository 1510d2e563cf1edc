// Package ui holds the built web client; the Go server serves it from Dist.
package ui

import "embed"

// Dist is the esbuild output (index.html and assets/); it holds only .gitkeep until `npm run build`.
//
//go:embed all:dist
var Dist embed.FS
