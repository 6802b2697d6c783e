package dev.zklock.autoconfigure.zookeeper;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.zookeeper.client.StaticHostProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the names of the ZooKeeper servers in the connect string for the client, and
 * reports a name that does not resolve in one warning and its resolving again in one
 * line. ZooKeeper's own resolver makes {@link StaticHostProvider} log an error with a
 * stack trace at every connection attempt, about once a second, for as long as a name
 * does not resolve.
 * <p>
 * A name that does not resolve yields no address, so the client skips it for this attempt
 * without a word from ZooKeeper and tries it again at the next. One instance serves every
 * ZooKeeper handle of a Curator client, so a new handle after a session expiry does not
 * warn again about a name already reported.
 */
final class ServerNameResolver implements StaticHostProvider.Resolver {

	private static final Logger logger = LoggerFactory.getLogger(ServerNameResolver.class);

	private static final InetAddress[] NO_ADDRESS = new InetAddress[0];

	private final StaticHostProvider.Resolver resolver;

	/**
	 * The names reported as not resolving that have not resolved since.
	 */
	private final Set<String> unresolved = ConcurrentHashMap.newKeySet();

	/**
	 * Creates a resolver that asks the given one.
	 * @param resolver the resolver that looks the names up, such as
	 * {@link InetAddress#getAllByName(String)}
	 */
	ServerNameResolver(StaticHostProvider.Resolver resolver) {
		this.resolver = resolver;
	}

	@Override
	public InetAddress[] getAllByName(String name) {
		InetAddress[] addresses;
		try {
			addresses = this.resolver.getAllByName(name);
		}
		catch (UnknownHostException ex) {
			if (this.unresolved.add(name)) {
				logger.warn(
						"The ZooKeeper server name '{}' in distributed-lock.zookeeper.connect-string does not "
								+ "resolve ({}); the client keeps trying it and says when it resolves",
						name, ex.getMessage());
			}
			return NO_ADDRESS;
		}
		if (this.unresolved.remove(name)) {
			logger.info("The ZooKeeper server name '{}' resolves now, to {}", name, Arrays.toString(addresses));
		}
		return addresses;
	}

}
