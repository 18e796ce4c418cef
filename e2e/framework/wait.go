package framework

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// Eventually is the suite's one wait: fn is polled every Poll until it
// succeeds, for at most Converge. A wait bounded by another of the
// options' timeouts says so with .WithTimeout(f.Opts.Timeouts.X); no spec
// writes a duration or a polling interval of its own.
func (f *Framework) Eventually(ctx context.Context, fn any) AsyncAssertion {
	GinkgoHelper()
	return Eventually(ctx, fn).WithTimeout(f.Opts.Timeouts.Converge).WithPolling(f.Opts.Timeouts.Poll)
}

// Consistently holds fn true for the whole window, polled every Poll: a
// refusal that must last, not one that happens once.
func (f *Framework) Consistently(ctx context.Context, window time.Duration, fn any) AsyncAssertion {
	GinkgoHelper()
	return Consistently(ctx, fn).WithTimeout(window).WithPolling(f.Opts.Timeouts.Poll)
}

// GetUpdater is any typed client of one kind of object (the clientsets'
// Get and Update, or UpdateStatus through StatusWriter).
type GetUpdater[T any] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

// conflictRetry is client-go's DefaultRetry pace with more tries: a
// shared object (the Ingress config every spec and operator writes) meets
// conflicts in a row when many specs run at once.
var conflictRetry = func() wait.Backoff {
	b := retry.DefaultRetry
	b.Steps = 100
	return b
}()

// Update reads the live object, lets mutate change it and writes it back,
// retrying only on a conflict (someone wrote in between). Any other error
// is returned at once: a refusal does not change on retry, and its
// message is the answer.
func Update[T any](ctx context.Context, c GetUpdater[T], name string, mutate func(T)) (T, error) {
	var out T
	err := retry.RetryOnConflict(conflictRetry, func() error {
		live, err := c.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mutate(live)
		out, err = c.Update(ctx, live, metav1.UpdateOptions{})
		return err
	})
	return out, err
}

// StatusWriter adapts a typed client's UpdateStatus to Update.
type StatusWriter[T any] struct {
	Client interface {
		Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
		UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	}
}

func (s StatusWriter[T]) Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error) {
	return s.Client.Get(ctx, name, opts)
}

func (s StatusWriter[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return s.Client.UpdateStatus(ctx, obj, opts)
}
