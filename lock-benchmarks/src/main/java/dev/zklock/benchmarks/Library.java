package dev.zklock.benchmarks;

import java.util.Map;
import java.util.Optional;

/**
 * The lock libraries the benchmarks compare, named on the command line {@code curator},
 * {@code spring-integration}, {@code ours-annotation} and {@code ours-template}, the
 * peers on other servers, {@code redisson}, {@code redisson-fsync},
 * {@code redisson-fenced}, {@code redisson-fenced-fsync}, {@code jdbc-registry} and
 * {@code shedlock}, and the physical limits they are measured against in the same run,
 * {@code set-data}, {@code queue-node} and {@code fair-local-lock}, each in the scenarios
 * where it is the limit (the local lock also where virtual threads take turns). Where two
 * limits run in one setting, the one declared first here is the setting's limit, which
 * its target refers to, and the other is reported beside it.
 */
enum Library {

	/**
	 * Raw Curator {@code InterProcessMutex}: the baseline of every ratio.
	 */
	CURATOR,

	/**
	 * Spring Integration's {@code ZookeeperLockRegistry}.
	 */
	SPRING_INTEGRATION,

	/**
	 * zklock through {@code @DistributedLock}.
	 */
	OURS_ANNOTATION,

	/**
	 * zklock through {@code LockTemplate}.
	 */
	OURS_TEMPLATE,

	/**
	 * Redisson's {@code RLock} on a Redis server as Redis ships (RDB snapshots, no fsync
	 * of each write), see {@link RedissonDriver}.
	 */
	REDISSON,

	/**
	 * Redisson's {@code RLock} on a Redis server that fsyncs every write before it
	 * replies ({@code appendonly yes}, {@code appendfsync always}), as ZooKeeper fsyncs
	 * its transaction log.
	 */
	REDISSON_FSYNC,

	/**
	 * Redisson's {@code RFencedLock}, a token per acquisition, on a Redis server as Redis
	 * ships.
	 */
	REDISSON_FENCED,

	/**
	 * Redisson's {@code RFencedLock} on a Redis server that fsyncs every write.
	 */
	REDISSON_FENCED_FSYNC,

	/**
	 * Spring Integration's {@code JdbcLockRegistry} on PostgreSQL, see
	 * {@link JdbcRegistryDriver}.
	 */
	JDBC_REGISTRY,

	/**
	 * ShedLock's {@code JdbcTemplateLockProvider} on PostgreSQL, a lock that skips when
	 * taken, retried until the wait time, see {@link ShedLockDriver}.
	 */
	SHEDLOCK,

	/**
	 * The limit of the uncontended cycle: one synchronous ZooKeeper {@code setData}, one
	 * write round trip. In the write-rate scenario, the same request kept in flight many
	 * at a time on several connections: the servers' sustained write rate.
	 */
	SET_DATA,

	/**
	 * The protocol floor of an uncontended acquisition: zklock's requests with none of
	 * its work, an {@code EPHEMERAL_SEQUENTIAL} create and a {@code getChildren} sent
	 * together, then a delete not waited for; two writes per cycle. The limit of the
	 * uncontended cycle and of 16 keys, where no two threads share a key; its property
	 * {@code sessions} spreads the keys over that many ZooKeeper sessions.
	 */
	QUEUE_NODE,

	/**
	 * The limit of the hot-key scenarios: a fair {@code ReentrantLock} inside the JVM.
	 */
	FAIR_LOCAL_LOCK;

	String id() {
		return CommandLineNames.of(this);
	}

	/**
	 * Whether the library takes properties: zklock its {@code distributed-lock.*}
	 * properties, the protocol floor its number of sessions.
	 * @return whether it is zklock or the protocol floor
	 */
	boolean isConfigurable() {
		return this == OURS_ANNOTATION || this == OURS_TEMPLATE || this == QUEUE_NODE;
	}

	/**
	 * The server of another kind than ZooKeeper that the library locks on.
	 * @return the server, or empty for the libraries on ZooKeeper and the limits
	 */
	Optional<PeerServer> peerServer() {
		return Optional.ofNullable(switch (this) {
			case REDISSON, REDISSON_FENCED -> PeerServer.REDIS;
			case REDISSON_FSYNC, REDISSON_FENCED_FSYNC -> PeerServer.REDIS_FSYNC;
			case JDBC_REGISTRY, SHEDLOCK -> PeerServer.POSTGRESQL;
			default -> null;
		});
	}

	/**
	 * Whether the library is a peer on a server of another kind than ZooKeeper: a peer
	 * runs only when named on the command line.
	 * @return whether it is a peer
	 */
	boolean isPeer() {
		return peerServer().isPresent();
	}

	/**
	 * Whether this is a physical limit rather than a lock library.
	 * @return whether it is a limit
	 */
	boolean isLimit() {
		return this == SET_DATA || this == QUEUE_NODE || this == FAIR_LOCAL_LOCK;
	}

	/**
	 * Whether the library runs in a scenario: a lock library in every one that measures a
	 * lock, a limit only in those it is the limit of.
	 * @param scenario the scenario
	 * @return whether it runs there
	 */
	boolean runsIn(Scenario scenario) {
		return switch (this) {
			case SET_DATA -> scenario == Scenario.UNCONTENDED || scenario == Scenario.WRITE_RATE;
			case QUEUE_NODE -> scenario == Scenario.UNCONTENDED || scenario == Scenario.SIXTEEN_KEYS;
			case FAIR_LOCAL_LOCK ->
				scenario == Scenario.HOT_KEY || scenario == Scenario.TWO_JVMS || scenario == Scenario.VIRTUAL_THREADS;
			default -> !scenario.measuresServers();
		};
	}

	/**
	 * Whether the threads of one JVM that wait for the same key wait inside the JVM, with
	 * one of them at a time in ZooKeeper's queue, rather than each with a node of its own
	 * in ZooKeeper's queue.
	 * @return false for the libraries built on Curator's {@code InterProcessMutex}, and
	 * for Redisson and ShedLock, whose every waiting thread tries the server itself
	 */
	boolean queuesWaitersInTheJvm() {
		return switch (this) {
			case CURATOR, SPRING_INTEGRATION, REDISSON, REDISSON_FSYNC, REDISSON_FENCED, REDISSON_FENCED_FSYNC,
					SHEDLOCK ->
				false;
			default -> true;
		};
	}

	/**
	 * Whether the library's locks exclude the threads of other JVMs too.
	 * @return false for the local lock
	 */
	boolean excludesAcrossJvms() {
		return this != FAIR_LOCAL_LOCK;
	}

	/**
	 * Connects the library to its server.
	 * @param endpoints the servers of the run
	 * @param rootPath the node under which the library creates its locks, for a peer the
	 * prefix of its lock names
	 * @param properties properties of a configurable library
	 * @return the connected driver
	 */
	LockDriver open(RunEndpoints endpoints, String rootPath, Map<String, String> properties) {
		String connectString = endpoints.zooKeeper();
		return switch (this) {
			case CURATOR -> new CuratorDriver(connectString, rootPath);
			case SPRING_INTEGRATION -> new SpringIntegrationDriver(connectString, rootPath);
			case OURS_ANNOTATION -> ZkLockDriver.annotation(connectString, rootPath, properties);
			case OURS_TEMPLATE -> ZkLockDriver.template(connectString, rootPath, properties);
			case REDISSON -> RedissonDriver.lock(endpoints.redisAddress(false), rootPath);
			case REDISSON_FSYNC -> RedissonDriver.lock(endpoints.redisAddress(true), rootPath);
			case REDISSON_FENCED -> RedissonDriver.fencedLock(endpoints.redisAddress(false), rootPath);
			case REDISSON_FENCED_FSYNC -> RedissonDriver.fencedLock(endpoints.redisAddress(true), rootPath);
			case JDBC_REGISTRY -> new JdbcRegistryDriver(endpoints.postgresqlUrl(), rootPath);
			case SHEDLOCK -> new ShedLockDriver(endpoints.postgresqlUrl(), rootPath);
			case SET_DATA -> new SetDataDriver(connectString, rootPath);
			case QUEUE_NODE -> QueueNodeDriver.open(connectString, rootPath, properties);
			case FAIR_LOCAL_LOCK -> new FairLocalLockDriver();
		};
	}

	static Library of(String id) {
		return CommandLineNames.parse(Library.class, id);
	}

}
