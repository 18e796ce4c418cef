package registry

import (
	"context"
	"errors"

	storagedriver "github.com/distribution/distribution/v3/registry/storage/driver"
)

// chunked is distribution's in-memory driver with its writers gathering
// the data themselves. The in-memory writer grows its buffer to exactly
// the size it needs on every Write, copying all it holds: the registry
// writes an uploaded blob in 32 KiB pieces, so a 100 MB layer would copy
// some 150 GB. Gathered here (append grows the buffer geometrically) and
// handed over in one Write, each byte is copied a few times at most.
type chunked struct {
	storagedriver.StorageDriver
}

func (d chunked) Writer(ctx context.Context, path string, append bool) (storagedriver.FileWriter, error) {
	w, err := d.StorageDriver.Writer(ctx, path, append)
	if err != nil {
		return nil, err
	}
	return &gatheringWriter{inner: w}, nil
}

// gatheringWriter holds what is written until Close or Commit.
type gatheringWriter struct {
	inner storagedriver.FileWriter
	buf   []byte
	// done: closed, committed or cancelled, as the inner writer refuses
	// writes then.
	done bool
}

var errWriterDone = errors.New("in-memory storage: write after close, commit or cancel")

func (w *gatheringWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, errWriterDone
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// Size counts what the inner writer has and what is gathered: every byte
// written, as storagedriver.FileWriter promises (the registry resumes an
// upload's digest at that offset).
func (w *gatheringWriter) Size() int64 { return w.inner.Size() + int64(len(w.buf)) }

// hand passes the gathered data on in one Write.
func (w *gatheringWriter) hand() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.inner.Write(w.buf)
	w.buf = nil // the inner writer copied it
	return err
}

func (w *gatheringWriter) Close() error {
	if w.done {
		return w.inner.Close() // the inner writer's own error
	}
	w.done = true
	if err := w.hand(); err != nil {
		return err
	}
	return w.inner.Close()
}

func (w *gatheringWriter) Commit(ctx context.Context) error {
	if w.done {
		return w.inner.Commit(ctx)
	}
	if err := w.hand(); err != nil {
		return err
	}
	w.done = true
	return w.inner.Commit(ctx)
}

func (w *gatheringWriter) Cancel(ctx context.Context) error {
	w.buf, w.done = nil, true
	return w.inner.Cancel(ctx)
}
