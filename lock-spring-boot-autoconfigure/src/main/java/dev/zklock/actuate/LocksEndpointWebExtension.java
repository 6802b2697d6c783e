package dev.zklock.actuate;

import java.util.function.Supplier;

import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code locks} endpoint over HTTP: a key's queue that ZooKeeper does not let this
 * instance read answers with a status that says why, and a body that names the node and
 * the reason, instead of a generic server error. The credentials of this instance may not
 * read the node (403), or ZooKeeper cannot be reached (503); any other failure of
 * ZooKeeper is a 500 with the same body.
 */
@EndpointWebExtension(endpoint = LocksEndpoint.class)
public class LocksEndpointWebExtension {

	private static final int STATUS_FORBIDDEN = 403;

	private final LocksEndpoint endpoint;

	/**
	 * Creates the extension.
	 * @param endpoint the endpoint that it answers for over HTTP
	 */
	public LocksEndpointWebExtension(LocksEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	/**
	 * As {@link LocksEndpoint#locksOrQueue(String)}, with a status and an
	 * {@link UnreadableQueue} body when ZooKeeper does not give the key's queue.
	 * @param key the lock key, or {@code null} for this instance's locks
	 * @return the response
	 */
	@ReadOperation
	public WebEndpointResponse<Object> locksOrQueue(@Nullable String key) {
		return (key != null) ? read(key, () -> this.endpoint.locksOrQueue(key))
				: new WebEndpointResponse<>(this.endpoint.locks());
	}

	/**
	 * As {@link LocksEndpoint#key(String...)}, with a status and an
	 * {@link UnreadableQueue} body when ZooKeeper does not give the key's queue.
	 * @param key the lock key, as the segments of the path that names it
	 * @return the response
	 */
	@ReadOperation
	public WebEndpointResponse<Object> key(@Selector(match = Match.ALL_REMAINING) String... key) {
		return read(String.join("/", key), () -> this.endpoint.key(key));
	}

	private WebEndpointResponse<Object> read(String key, Supplier<Object> queue) {
		try {
			return new WebEndpointResponse<>(queue.get());
		}
		catch (IllegalStateException ex) {
			KeeperException failure = keeperExceptionOf(ex);
			if (failure == null) {
				throw ex;
			}
			String path = this.endpoint.pathOf(key);
			return switch (failure.code()) {
				case NOAUTH, AUTHFAILED -> unreadable(key, path, failure, STATUS_FORBIDDEN,
						"the credentials of this instance may not read it: the node belongs to other credentials "
								+ "(distributed-lock.zookeeper.authentication)");
				case CONNECTIONLOSS, SESSIONEXPIRED, OPERATIONTIMEOUT, SESSIONMOVED -> unreadable(key, path, failure,
						WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, "ZooKeeper cannot be reached");
				default -> unreadable(key, path, failure, WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR,
						"ZooKeeper failed");
			};
		}
	}

	private static WebEndpointResponse<Object> unreadable(String key, String path, KeeperException failure, int status,
			String reason) {
		return new WebEndpointResponse<>(
				new UnreadableQueue(key, path, failure.code().name(),
						"The lock node " + path + " could not be read: " + reason + " (" + failure.getMessage() + ")"),
				status);
	}

	private static @Nullable KeeperException keeperExceptionOf(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof KeeperException keeperException) {
				return keeperException;
			}
		}
		return null;
	}

	/**
	 * Why a key's queue could not be read.
	 *
	 * @param key the lock key
	 * @param path the key's ZooKeeper node
	 * @param zooKeeperError ZooKeeper's error code, such as {@code NOAUTH}
	 * @param message what could not be read, and why
	 */
	public record UnreadableQueue(String key, String path, String zooKeeperError, String message) {

	}

}
