package registry

import (
	"bytes"
	"context"
	"testing"

	storagedriver "github.com/distribution/distribution/v3/registry/storage/driver"
	"github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
)

// countingWriter counts the Writes the in-memory writer gets: each one
// copies all it holds.
type countingWriter struct {
	storagedriver.FileWriter
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.FileWriter.Write(p)
}

// The registry writes a blob in small pieces: the in-memory writer gets
// them in one Write, Size counts every byte all along, and an appending
// writer (a resumed upload) adds to what was closed.
func TestGatheringWriterHandsOnceAndCountsEveryByte(t *testing.T) {
	ctx := context.Background()
	d := chunked{inmemory.New()}
	const path = "/uploads/a/data"
	piece := bytes.Repeat([]byte("x"), 32<<10)

	w := writer(t, d, path, false)
	counted := &countingWriter{FileWriter: w.inner}
	w.inner = counted
	for i := 1; i <= 100; i++ {
		if _, err := w.Write(piece); err != nil {
			t.Fatal(err)
		}
		if got, want := w.Size(), int64(i*len(piece)); got != want {
			t.Fatalf("Size after %d writes: %d, want %d", i, got, want)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if counted.writes != 1 {
		t.Errorf("the in-memory writer got %d writes, want 1", counted.writes)
	}
	if _, err := w.Write(piece); err == nil {
		t.Error("a write after Close succeeded")
	}

	w = writer(t, d, path, true)
	if got, want := w.Size(), int64(100*len(piece)); got != want {
		t.Errorf("Size of the appending writer: %d, want %d", got, want)
	}
	if _, err := w.Write([]byte("end")); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := d.GetContent(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(bytes.Repeat(piece, 100), "end"...); !bytes.Equal(got, want) {
		t.Errorf("content: %d bytes, want %d", len(got), len(want))
	}
}

func TestGatheringWriterCancelDropsTheFile(t *testing.T) {
	ctx := context.Background()
	d := chunked{inmemory.New()}
	w := writer(t, d, "/uploads/b/data", false)
	if _, err := w.Write([]byte("data")); err != nil {
		t.Fatal(err)
	}
	if err := w.Cancel(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Stat(ctx, "/uploads/b/data"); err == nil {
		t.Error("the cancelled upload's file is still there")
	}
}

func writer(t *testing.T, d chunked, path string, append bool) *gatheringWriter {
	t.Helper()
	fw, err := d.Writer(context.Background(), path, append)
	if err != nil {
		t.Fatal(err)
	}
	return fw.(*gatheringWriter)
}
