package dev.zklock.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

/**
 * Where the servers of a benchmark run listen, as the drivers of every variant need them:
 * the ZooKeeper connect string, and the peers' servers that the run started. It travels
 * to worker JVMs and JMH's forks in a text form, {@code name=value} words separated by
 * spaces.
 *
 * @param zooKeeper the ZooKeeper connect string
 * @param redis the address ({@code host:port}) of the Redis server as Redis ships, if the
 * run started one
 * @param redisFsync the address of the Redis server that fsyncs every write
 * ({@code appendfsync always}), if the run started one
 * @param postgresql the JDBC URL of the PostgreSQL database of the peers' lock tables, if
 * the run started the server
 */
record RunEndpoints(String zooKeeper, @Nullable String redis, @Nullable String redisFsync,
		@Nullable String postgresql) {

	private static final String ZOOKEEPER = "zookeeper";

	private static final String REDIS = "redis";

	private static final String REDIS_FSYNC = "redis-fsync";

	private static final String POSTGRESQL = "postgresql";

	/**
	 * The endpoints of a run with a ZooKeeper server only.
	 * @param zooKeeper the ZooKeeper connect string
	 * @return the endpoints
	 */
	static RunEndpoints zooKeeper(String zooKeeper) {
		return new RunEndpoints(zooKeeper, null, null, null);
	}

	/**
	 * The Redis server a driver needs.
	 * @param fsync whether it is the one that fsyncs every write
	 * @return its address
	 * @throws IllegalStateException if the run did not start it
	 */
	String redisAddress(boolean fsync) {
		return required(fsync ? this.redisFsync : this.redis, fsync ? REDIS_FSYNC : REDIS);
	}

	/**
	 * The PostgreSQL database a driver needs.
	 * @return its JDBC URL
	 * @throws IllegalStateException if the run did not start the server
	 */
	String postgresqlUrl() {
		return required(this.postgresql, POSTGRESQL);
	}

	private static String required(@Nullable String endpoint, String name) {
		if (endpoint == null) {
			throw new IllegalStateException("The run started no " + name + " server");
		}
		return endpoint;
	}

	/**
	 * The text form that {@link #parse(String)} reads back.
	 * @return the text form
	 */
	String toText() {
		StringJoiner text = new StringJoiner(" ");
		text.add(ZOOKEEPER + "=" + this.zooKeeper);
		if (this.redis != null) {
			text.add(REDIS + "=" + this.redis);
		}
		if (this.redisFsync != null) {
			text.add(REDIS_FSYNC + "=" + this.redisFsync);
		}
		if (this.postgresql != null) {
			text.add(POSTGRESQL + "=" + this.postgresql);
		}
		return text.toString();
	}

	/**
	 * Reads endpoints from their text form.
	 * @param text the text form
	 * @return the endpoints
	 * @throws IllegalArgumentException if a word is not {@code name=value} of a known
	 * name, or the ZooKeeper connect string is missing
	 */
	static RunEndpoints parse(String text) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String word : text.trim().split(" +")) {
			int equals = word.indexOf('=');
			String name = (equals > 0) ? word.substring(0, equals) : "";
			if (!name.equals(ZOOKEEPER) && !name.equals(REDIS) && !name.equals(REDIS_FSYNC)
					&& !name.equals(POSTGRESQL)) {
				throw new IllegalArgumentException("Endpoint '" + word + "' is not " + ZOOKEEPER + ", " + REDIS + ", "
						+ REDIS_FSYNC + " or " + POSTGRESQL + "=value");
			}
			values.put(name, word.substring(equals + 1));
		}
		if (!values.containsKey(ZOOKEEPER)) {
			throw new IllegalArgumentException("Endpoints '" + text + "' name no ZooKeeper connect string");
		}
		return new RunEndpoints(values.get(ZOOKEEPER), values.get(REDIS), values.get(REDIS_FSYNC),
				values.get(POSTGRESQL));
	}

}
