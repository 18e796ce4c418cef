package framework

// Framework is what every spec works with: the run's options, what the
// profile can do, and the environment (clients, addresses, images) that
// the suite's set-up connects on each parallel process. It is built once
// per process and handed to the specs when they are declared, so the
// framework keeps no state of its own beyond what the process's set-up
// starts (its echo pool) and the process's shards still being deleted.
type Framework struct {
	// Env is nil until Connect: specs use it only while they run.
	*Env
	Opts Options
	Caps Capabilities
	// echoPool is nil until StartEchoPool.
	echoPool *echoPool
	// shardsGoing are this process's shards deleted when their specs
	// ended and not yet seen gone (startShardDeletion): the full text of
	// the spec that deleted each, by shard name.
	shardsGoing map[string]string
	// shardTurn counts this process's shards: they alternate between its
	// pairs (nextShard).
	shardTurn int
}

// New returns the framework of a run with completed, validated options.
func New(opts Options, caps Capabilities) *Framework { return &Framework{Opts: opts, Caps: caps} }

// Connect opens this process's clients from what the first process
// marshalled (Env.Marshal).
func (f *Framework) Connect(data []byte) error {
	env, err := Connect(data)
	if err != nil {
		return err
	}
	f.Env = env
	return nil
}
