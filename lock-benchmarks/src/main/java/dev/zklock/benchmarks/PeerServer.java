package dev.zklock.benchmarks;

/**
 * The servers of other kinds than ZooKeeper that the peers lock on, each started by the
 * harness only when a selected variant needs it: see {@link PeerServers}.
 */
enum PeerServer {

	/**
	 * Redis as it ships: RDB snapshots ({@code save 3600 1 300 100 60 10000}), no
	 * append-only file.
	 */
	REDIS,

	/**
	 * Redis with {@code appendonly yes} and {@code appendfsync always}: every write
	 * fsynced before the reply.
	 */
	REDIS_FSYNC,

	/**
	 * PostgreSQL with its shipped durability: {@code fsync} and
	 * {@code synchronous_commit} on.
	 */
	POSTGRESQL

}
